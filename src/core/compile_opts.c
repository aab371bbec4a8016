/*
 * compile_opts.c — the plan compiler's option readers: shape-level policy (`rename`, `unknown`,
 * `coerce`, `optional`, `extra`, `xml`), a column's field options (split from the inline shape
 * options of a composite column), option errors at their option path.  They read options into
 * the compiler's structs and never recurse into the compiler (compile.c builds nodes from what
 * they read).
 */
#include "compile_int.h"
#include "compile_limits.h"
#include "compile_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool
sd_cc_oom(cctx *c)
{
	if (c->err->code != SD_OK)	/* a limit or a cancel that made an allocation step fail */
		return false;
	return sd_error_set(c->err, SD_E_NOMEM, -1, "out of memory while compiling a shape");
}

/* Called for every node built: the plan-size bound, and a cancel polled every 64 nodes. */
bool
sd_cc_grow_ok(cctx *c)
{
	if (c->a->bytes > c->max_bytes)
	{
		strcpy(c->err->path, "$");
		return sd_error_set(c->err, SD_E_SIZE, -1,
							"the compiled plan exceeds serde.max_plan_bytes (%zu bytes)", c->max_bytes);
	}
	if ((++c->ticks & 63) == 0 && c->hooks && c->hooks->should_stop &&
		c->hooks->should_stop(c->hooks->ud))
	{
		strcpy(c->err->path, "$");
		return sd_error_set(c->err, SD_E_CANCELED, -1, "canceled while compiling a shape");
	}
	return true;
}

/* Fails with SD_E_OPTIONS at the current option path (+ an optional member). */
bool
sd_cc_opt_fail(cctx *c, const char *member, const char *fmt, const char *a1, const char *a2)
{
	char		problem[SD_PROBLEM_MAX];

	strcpy(c->err->path, c->opath);
	if (member)
		sd_path_member(c->err->path, member, strlen(member));
	snprintf(problem, sizeof(problem), fmt, a1 ? a1 : "", a2 ? a2 : "");
	return sd_error_set(c->err, SD_E_OPTIONS, -1, "%s", problem);
}

bool
sd_cc_want_kind(cctx *c, const char *member, const sd_jnode *v, sd_jkind k, const char *what)
{
	bool		ok = v->kind == k || (k == SD_J_TRUE && v->kind == SD_J_FALSE);

	if (!ok)
		return sd_cc_opt_fail(c, member, "must be %s, not %s", what, sd_jkind_name(v->kind));
	return true;
}

bool
sd_cc_in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

bool
sd_cc_check_keys(cctx *c, const sd_jnode *obj, const char *const *allowed)
{
	for (int i = 0; i < obj->n; i++)
	{
		for (int k = 0; k < i; k++)
			if (strcmp(obj->keys[k], obj->keys[i]) == 0)
				return sd_cc_opt_fail(c, obj->keys[i], "duplicate option \"%s\"", obj->keys[i], NULL);

		if (!sd_cc_in_list(obj->keys[i], allowed))
			return sd_cc_opt_fail(c, obj->keys[i], "unknown option \"%s\"", obj->keys[i], NULL);
	}
	return true;
}
/* Options as a tree; bad JSON, or nesting deeper than OPTIONS_MAX_DEPTH, is SD_E_OPTIONS at $. */
sd_jnode *
sd_cc_parse_options(sd_arena *a, const char *text, size_t len, sd_error *err)
{
	sd_jnode   *opts = sd_jparse(a, text, len, OPTIONS_MAX_DEPTH, err);
	char		problem[SD_PROBLEM_MAX];

	if (opts || (err->code != SD_E_SYNTAX && err->code != SD_E_DEPTH))
		return opts;
	if (err->code == SD_E_DEPTH)
		snprintf(problem, sizeof(problem), "options nest deeper than %d levels (a limit of shape options, "
				 "defaults included)", OPTIONS_MAX_DEPTH);
	else
		snprintf(problem, sizeof(problem), "options are not valid JSON: %s", err->problem);
	sd_error_set(err, SD_E_OPTIONS, err->offset, "%s", problem);
	strcpy(err->path, "$");
	return NULL;
}
bool
sd_cc_parse_policy(cctx *c, const sd_jnode *opts, policy *pol, const char **extra, sd_xml_name *root)
{
	const sd_jnode *v;

	*extra = NULL;
	if ((v = sd_jget(opts, "rename")))
	{
		static const char *const styles[] = {"camel", "pascal", "kebab", "upper", NULL};
		bool		ok = false;

		if (!sd_cc_want_kind(c, "rename", v, SD_J_STRING, "a string"))
			return false;
		for (const char *const *s = styles; *s; s++)
			if (strcmp(v->str, *s) == 0)
			{
				pol->rename = *s;
				ok = true;
			}
		if (strcmp(v->str, "none") == 0)
		{
			/* column names as they are, whatever a shape above renames */
			pol->rename = NULL;
			ok = true;
		}
		if (!ok)
			return sd_cc_opt_fail(c, "rename", "unknown rename style \"%s\" (expected camel, pascal, kebab, upper or none)",
							v->str, NULL);
	}
	if ((v = sd_jget(opts, "unknown")))
	{
		if (!sd_cc_want_kind(c, "unknown", v, SD_J_STRING, "a string"))
			return false;
		if (strcmp(v->str, "reject") == 0)
			pol->reject = true;
		else if (strcmp(v->str, "ignore") == 0)
			pol->reject = false;
		else
			return sd_cc_opt_fail(c, "unknown", "must be \"ignore\" or \"reject\", not \"%s\"", v->str, NULL);
	}
	if ((v = sd_jget(opts, "coerce")))
	{
		if (!sd_cc_want_kind(c, "coerce", v, SD_J_TRUE, "a boolean"))
			return false;
		pol->coerce = v->kind == SD_J_TRUE;
	}
	if ((v = sd_jget(opts, "optional")))
	{
		if (!sd_cc_want_kind(c, "optional", v, SD_J_TRUE, "a boolean"))
			return false;
		pol->optional = v->kind == SD_J_TRUE;
	}
	if ((v = sd_jget(opts, "extra")))
	{
		if (!sd_cc_want_kind(c, "extra", v, SD_J_STRING, "a string"))
			return false;
		if (pol->reject)
			return sd_cc_opt_fail(c, "extra", "\"extra\" cannot be combined with unknown: \"reject\"", NULL, NULL);
		*extra = v->str;
	}
	if ((v = sd_jget(opts, "xml")))
	{
		static const char *const xkeys[] = {"root", "namespace", "namespaces", "ns", NULL};

		if (!sd_cc_want_kind(c, "xml", v, SD_J_OBJECT, "an object"))
			return false;
		size_t		plen = strlen(c->opath);

		sd_path_member(c->opath, "xml", 3);
		if (!sd_cc_check_keys(c, v, xkeys))
			return false;
		for (int i = 0; i < v->n; i++)
			if (!sd_cc_want_kind(c, v->keys[i], v->items[i],
								 strcmp(v->keys[i], "ns") == 0 ? SD_J_OBJECT :
								 strcmp(v->keys[i], "namespaces") == 0 ? SD_J_ARRAY : SD_J_STRING,
								 strcmp(v->keys[i], "ns") == 0 ? "an object of prefix: namespace URI" :
								 strcmp(v->keys[i], "namespaces") == 0 ? "an array of namespace URIs" :
								 "a string"))
				return false;
		sd_xbad		bad;
		sd_xscope	scope = {pol->xml_ns, pol->xml_nsi, pol->xml_alt, pol->xml_nalt, pol->xml_pfx};
		sd_xres		r = sd_xml_shape(c->a, &c->xns, v, &scope, root, &bad);

		if (r != SD_XR_OK)
		{
			if (r == SD_XR_NOMEM)
				return sd_cc_oom(c);
			sd_cc_opt_fail(c, bad.member, "%s", bad.problem, NULL);
			if (bad.index >= 0)
				sd_path_index(c->err->path, (uint64_t) bad.index);
			return false;
		}
		pol->xml_ns = scope.ns;
		pol->xml_nsi = scope.nsi;
		pol->xml_alt = scope.alt;
		pol->xml_nalt = scope.nalt;
		pol->xml_pfx = scope.pfx;
		c->opath[plen] = '\0';
		pol->xml_strict = true;
	}
	return true;
}


/* The XML facts of a mapped field (xmlnames.c); cpol gets the namespace in force below it. */
bool
sd_cc_xml_field(cctx *c, sd_field *f, const sd_column *col, const sd_jnode *fo, bool is_map,
		  const policy *pol, policy *cpol)
{
	sd_xbad		bad;
	bool		attr = pol->attrs && sd_strtab_get(pol->attrs, col->name, strlen(col->name)) >= 0;
	sd_xres		r = sd_xml_field(c->a, &c->xns, pol->xml_ns, pol->xml_pfx, f, col->type, fo,
								 fo && (sd_jget(fo, "name") || sd_jget(fo, "path")), is_map,
								 pol->xml_strict, attr, &cpol->xml_ns, &cpol->xml_nsi, &bad);

	if (r == SD_XR_OK)
	{
		/* below an element in the shape's namespace, its alternatives hold too */
		if (cpol->xml_ns == pol->xml_ns && pol->xml_nalt)
			cpol->xml_nsi = pol->xml_nsi;
		else
		{
			cpol->xml_alt = NULL;
			cpol->xml_nalt = 0;
		}
		return true;
	}
	if (r == SD_XR_NOMEM)
		return sd_cc_oom(c);
	if (!fo)
	{
		/* a name made from the column's: at the column's path */
		sd_path_member(c->opath, "fields", 6);
		sd_path_member(c->opath, col->name, strlen(col->name));
	}
	sd_cc_opt_fail(c, bad.member, "%s", bad.problem, NULL);
	if (bad.index >= 0)
		sd_path_index(c->err->path, (uint64_t) bad.index);
	return false;
}

/* Whether fo's i-th key is an inline shape option: a shape-level key other than "coerce" and
 * "optional" (field meaning), "xml" only as an object (as a string it is the field's). */
bool
sd_cc_is_inline_key(const sd_jnode *fo, int i)
{
	const char *k = fo->keys[i];

	if (strcmp(k, "coerce") == 0 || strcmp(k, "optional") == 0)
		return false;
	if (strcmp(k, "xml") == 0)
		return fo->items[i]->kind == SD_J_OBJECT;
	return sd_cc_in_list(k, sd_cc_shape_keys);
}

/* Splits a column's options fo: *field_view = fo without the inline shape options (what the
 * field-option readers see), o->inline_opts = those options as an object of their own (NULL
 * when there are none), o->inline_key = the first. */
bool
sd_cc_split_inline(cctx *c, const sd_jnode *fo, const sd_jnode **field_view, fopts *o)
{
	int			n = 0;

	*field_view = fo;
	o->inline_opts = NULL;
	o->inline_key = NULL;
	if (!fo || fo->kind != SD_J_OBJECT)
		return true;
	for (int i = 0; i < fo->n; i++)
		if (sd_cc_is_inline_key(fo, i))
		{
			if (!o->inline_key)
				o->inline_key = fo->keys[i];
			n++;
		}
	if (!n)
		return true;
	sd_jnode   *in = sd_arena_alloc(c->a, sizeof(sd_jnode));
	sd_jnode   *fv = sd_arena_alloc(c->a, sizeof(sd_jnode));

	if (!in || !fv)
		return sd_cc_oom(c);
	*in = *fo;
	*fv = *fo;
	in->n = 0;
	fv->n = 0;
	in->keys = sd_arena_alloc(c->a, sizeof(char *) * (size_t) n);
	in->key_lens = sd_arena_alloc(c->a, sizeof(size_t) * (size_t) n);
	in->items = sd_arena_alloc(c->a, sizeof(sd_jnode *) * (size_t) n);
	fv->keys = sd_arena_alloc(c->a, sizeof(char *) * (size_t) (fo->n - n + 1));
	fv->key_lens = sd_arena_alloc(c->a, sizeof(size_t) * (size_t) (fo->n - n + 1));
	fv->items = sd_arena_alloc(c->a, sizeof(sd_jnode *) * (size_t) (fo->n - n + 1));
	if (!in->keys || !in->key_lens || !in->items || !fv->keys || !fv->key_lens || !fv->items)
		return sd_cc_oom(c);
	for (int i = 0; i < fo->n; i++)
	{
		sd_jnode   *to = sd_cc_is_inline_key(fo, i) ? in : fv;

		to->keys[to->n] = fo->keys[i];
		to->key_lens[to->n] = fo->key_lens ? fo->key_lens[i] : strlen(fo->keys[i]);
		to->items[to->n] = fo->items[i];
		to->n++;
	}
	*field_view = fv;
	o->inline_opts = in;
	return true;
}

/* Reads one column's field options fo into f and o (the parts build_field applies later);
 * *rolep: what else the column is (ROLE_*), set to ROLE_SKIPPED by `skip: true`. */
bool
sd_cc_field_options(cctx *c, sd_field *f, const sd_column *col, const sd_jnode *fo, int *rolep,
					fopts *o)
{
	static const char *const fkeys[] = {"name", "path", "optional", "default", "nullable", "skip",
	"format", "shape", "map", "xml", "xml_item", "one_of", "xml_choice", "coerce", NULL};
	const sd_jnode *v;
	int			role = *rolep;

	/* columns the document does not decode by themselves take no option about how to */
	static const char *const roles[] = {NULL, "the \"extra\" column", "a variant column",
	"a skipped column", "a column listed in another column's one_of"};
	static const char *const allowed[][6] = {{NULL}, {NULL}, {"shape", "coerce", NULL}, {"skip", NULL},
	{"format", "shape", "map", "xml_item", "coerce", NULL}};

	if (!sd_cc_want_kind(c, NULL, fo, SD_J_OBJECT, "an object"))
		return false;
	/* the field's own keys and the inline shape options of a composite (the shape-level keys) */
	for (int i = 0; i < fo->n; i++)
	{
		for (int k = 0; k < i; k++)
			if (strcmp(fo->keys[k], fo->keys[i]) == 0)
				return sd_cc_opt_fail(c, fo->keys[i], "duplicate option \"%s\"", fo->keys[i], NULL);
		if (!sd_cc_in_list(fo->keys[i], fkeys) && !sd_cc_in_list(fo->keys[i], sd_cc_shape_keys))
			return sd_cc_opt_fail(c, fo->keys[i], "unknown option \"%s\"", fo->keys[i], NULL);
	}
	if (role == ROLE_NONE && (v = sd_jget(fo, "skip")) && v->kind == SD_J_TRUE)
		role = *rolep = ROLE_SKIPPED;
	for (int i = 0; role != ROLE_NONE && i < fo->n; i++)
		if (!sd_cc_in_list(fo->keys[i], allowed[role]) &&
			!(role == ROLE_VARIANT && sd_cc_is_inline_key(fo, i)))
			return sd_cc_opt_fail(c, fo->keys[i], "option \"%s\" does not apply to %s", fo->keys[i],
							roles[role]);
	if (!sd_cc_split_inline(c, fo, &o->view, o))
		return false;
	if (o->inline_opts)
	{
		const sd_type *t = col->type;

		while (t->kind == SD_K_ARRAY)
			t = t->elem;
		if (t->kind != SD_K_COMPOSITE)
			return sd_cc_opt_fail(c, o->inline_key, "option \"%s\" is a shape option: inside field options "
							"it applies to a composite or composite array column, not %s",
							o->inline_key, col->type->name);
		if (sd_jget(fo, "shape"))
			return sd_cc_opt_fail(c, "shape", "\"shape\" cannot be combined with inline shape options "
							"(\"%s\"): either name the nested composite's shape or describe it here",
							o->inline_key, NULL);
	}
	fo = o->view;
	if ((v = sd_jget(fo, "coerce")))
	{
		if (!sd_cc_want_kind(c, "coerce", v, SD_J_TRUE, "a boolean"))
			return false;
		o->has_coerce = true;
		o->coerce = v->kind == SD_J_TRUE;
	}
	if ((v = sd_jget(fo, "skip")))
	{
		if (!sd_cc_want_kind(c, "skip", v, SD_J_TRUE, "a boolean"))
			return false;
		f->skip = v->kind == SD_J_TRUE;
		if (f->skip && col->type->not_null)
			return sd_cc_opt_fail(c, "skip", "column \"%s\" has a NOT NULL domain type %s, and a skipped column decodes to NULL",
							col->name, col->type->name);
	}
	if ((v = sd_jget(fo, "name")))
	{
		if (!sd_cc_want_kind(c, "name", v, SD_J_STRING, "a string"))
			return false;
		if (v->len == 0)
			return sd_cc_opt_fail(c, "name", "must not be empty", NULL, NULL);
		if (sd_jget(fo, "path"))
			return sd_cc_opt_fail(c, "name", "use either \"name\" or \"path\", not both", NULL, NULL);
		f->name = v->str;
	}
	if ((v = sd_jget(fo, "path")))
	{
		const char **path;

		if (!sd_cc_want_kind(c, "path", v, SD_J_ARRAY, "an array of member names"))
			return false;
		if (v->n == 0)
			return sd_cc_opt_fail(c, "path", "must not be empty", NULL, NULL);
		if (!(path = sd_arena_alloc(c->a, sizeof(char *) * (size_t) v->n)))
			return sd_cc_oom(c);
		for (int i = 0; i < v->n; i++)
		{
			if (v->items[i]->kind != SD_J_STRING || v->items[i]->len == 0)
				return sd_cc_opt_fail(c, "path", "must be an array of non-empty member names", NULL, NULL);
			path[i] = v->items[i]->str;
		}
		f->npath = v->n;
		f->path = path;
		f->name = path[v->n - 1];
	}
	if ((v = sd_jget(fo, "optional")))
	{
		if (!sd_cc_want_kind(c, "optional", v, SD_J_TRUE, "a boolean"))
			return false;
		f->optional = v->kind == SD_J_TRUE;
		o->has_optional = true;
	}
	if ((v = sd_jget(fo, "nullable")))
	{
		if (!sd_cc_want_kind(c, "nullable", v, SD_J_TRUE, "a boolean"))
			return false;
		if (v->kind == SD_J_TRUE && col->type->not_null)
			return sd_cc_opt_fail(c, "nullable", "column \"%s\" has a NOT NULL domain type %s",
							col->name, col->type->name);
		f->nullable = v->kind == SD_J_TRUE;
	}
	if ((v = sd_jget(fo, "shape")))
	{
		if (!sd_cc_want_kind(c, "shape", v, SD_J_STRING, "a string"))
			return false;
		if (v->len > SD_SHAPE_NAME_MAX)
		{
			char		n[24];

			snprintf(n, sizeof(n), "%zu", v->len);
			return sd_cc_opt_fail(c, "shape", "shape names have at most 63 bytes, not %s", n, NULL);
		}
		o->shape = v->str;
	}
	if ((v = sd_jget(fo, "map")))
	{
		if (!sd_cc_want_kind(c, "map", v, SD_J_TRUE, "a boolean"))
			return false;
		if (v->kind == SD_J_TRUE)
		{
			const sd_type *t = col->type;

			if (t->kind != SD_K_ARRAY || t->elem->kind != SD_K_COMPOSITE || t->elem->ncols != 2 ||
				t->elem->cols[0].type->kind != SD_K_TEXT)
				return sd_cc_opt_fail(c, "map", "\"map\" needs an array of a composite (key text, value T), not %s",
								t->name, NULL);
			o->is_map = true;
		}
	}
	if ((v = sd_jget(fo, "xml")))
	{
		if (!sd_cc_want_kind(c, "xml", v, SD_J_STRING, "a string"))
			return false;
		if (strcmp(v->str, "element") && strcmp(v->str, "attribute") && strcmp(v->str, "text") &&
			strcmp(v->str, "presence"))
			return sd_cc_opt_fail(c, "xml", "must be \"element\", \"attribute\", \"text\" or \"presence\", "
								  "not \"%s\"", v->str, NULL);
	}
	if ((v = sd_jget(fo, "xml_choice")) &&
		!sd_cc_want_kind(c, "xml_choice", v, SD_J_ARRAY, "an array of element names"))
		return false;
	if ((v = sd_jget(fo, "xml_item")) && !sd_cc_want_kind(c, "xml_item", v, SD_J_STRING, "a string"))
		return false;
	return true;
}
