/*
 * compile_oneof.c — the field option `one_of` (docs/reference.md, "Untagged unions (one_of)"):
 * reads and checks every group of a composite's field options before its fields are built (so
 * that the listed columns know they map no member of their own), and routes the carrying
 * field's `default` to the column its kind selects once the fields are built.  Leaves of the
 * compiler: nothing here calls back into compile.c.
 */
#include "compile_int.h"

#include <stdio.h>
#include <string.h>

static const char *const kind_names[SD_ONE_KINDS] = {"string", "number", "boolean", "object", "array"};

/* The kind of a JSON value (-1: null). */
int
sd_one_kind_of(sd_jkind k)
{
	switch (k)
	{
		case SD_J_STRING:
			return SD_ONE_STRING;
		case SD_J_NUMBER:
			return SD_ONE_NUMBER;
		case SD_J_TRUE:
		case SD_J_FALSE:
			return SD_ONE_BOOLEAN;
		case SD_J_OBJECT:
			return SD_ONE_OBJECT;
		case SD_J_ARRAY:
			return SD_ONE_ARRAY;
		default:
			return -1;
	}
}

/* "string, object": the kinds of group g, in the order string, number, boolean, object, array. */
void
sd_one_kinds_list(const sd_one_of *g, char *buf, size_t size)
{
	size_t		o = 0;

	buf[0] = '\0';
	for (int k = 0; k < SD_ONE_KINDS && o < size; k++)
		if (g->kinds & (1u << k))
			o += (size_t) snprintf(buf + o, size - o, "%s%s", o ? ", " : "", kind_names[k]);
}

/* Whether a column of type t (with `map: true` when is_map) can ever take a value of kind k:
 * json/jsonb take every kind; the scalar kinds a column that is neither a composite nor an
 * array (a wrong scalar type, number into text, follows that column's rules when decoding);
 * object a composite or a map; array an array that is not a map. */
static bool
kind_fits(int k, const sd_type *t, bool is_map)
{
	if (t->kind == SD_K_JSON || t->kind == SD_K_JSONB)
		return true;
	if (k == SD_ONE_OBJECT)
		return t->kind == SD_K_COMPOSITE || (t->kind == SD_K_ARRAY && is_map);
	if (k == SD_ONE_ARRAY)
		return t->kind == SD_K_ARRAY && !is_map;
	return t->kind != SD_K_COMPOSITE && t->kind != SD_K_ARRAY;
}

/* One group: fields.<carrier>.one_of (og), the carrier being column ci; opath at it. */
static bool
read_group(cctx *c, const sd_jnode *og, const sd_type *t, int ci, const sd_jnode *fields,
		   const sd_strtab *cols, const sd_strtab *fkeys, const sd_strtab *vcols,
		   const char *extra, const sd_one_of **grp)
{
	sd_one_of  *g = sd_arena_alloc(c->a, sizeof(sd_one_of));
	int			listed[SD_ONE_KINDS];
	int			n = 0;
	bool		carrier_listed = false;

	if (!g)
		return sd_cc_oom(c);
	memset(g, 0, sizeof(*g));
	g->carrier = t->cols[ci].name;
	if (!sd_cc_want_kind(c, NULL, og, SD_J_OBJECT, "an object"))
		return false;
	if (og->n == 0)
		return sd_cc_opt_fail(c, NULL, "must list at least one kind (string, number, boolean, object, array)",
							  NULL, NULL);
	for (int i = 0; i < og->n; i++)
	{
		const char *kname = og->keys[i];
		const sd_jnode *v = og->items[i];
		int			k,
					col,
					at;
		const sd_jnode *cfo;

		for (k = 0; k < SD_ONE_KINDS && strcmp(kind_names[k], kname) != 0; k++)
			;
		if (k == SD_ONE_KINDS)
			return sd_cc_opt_fail(c, kname, "unknown kind \"%s\" (expected string, number, boolean, object or array)",
								  kname, NULL);
		if (g->kinds & (1u << k))
			return sd_cc_opt_fail(c, kname, "duplicate option \"%s\"", kname, NULL);
		if (!sd_cc_want_kind(c, kname, v, SD_J_STRING, "a column name"))
			return false;
		if ((col = sd_strtab_get(cols, v->str, strlen(v->str))) < 0)
			return sd_cc_opt_fail(c, kname, "column \"%s\" does not exist in type %s", v->str, t->name);
		for (int j = 0; j < n; j++)
			if (listed[j] == col)
				return sd_cc_opt_fail(c, kname, "column \"%s\" is listed for two kinds", v->str, NULL);
		if (grp[col])
			return sd_cc_opt_fail(c, kname, "column \"%s\" is already in the one_of of column \"%s\"",
								  v->str, grp[col]->carrier);
		if (extra && strcmp(extra, v->str) == 0)
			return sd_cc_opt_fail(c, kname, "column \"%s\" is the \"extra\" column", v->str, NULL);
		if (vcols && sd_strtab_get(vcols, v->str, strlen(v->str)) >= 0)
			return sd_cc_opt_fail(c, kname, "column \"%s\" is a variant column", v->str, NULL);
		at = sd_strtab_get(fkeys, v->str, strlen(v->str));
		cfo = at >= 0 ? fields->items[at] : NULL;
		if (!kind_fits(k, t->cols[col].type,
					   cfo && cfo->kind == SD_J_OBJECT && sd_jget(cfo, "map") &&
					   sd_jget(cfo, "map")->kind == SD_J_TRUE))
			return sd_cc_opt_fail(c, kname, "a value of kind \"%s\" never fits column \"%s\"", kname,
								  v->str);
		listed[n++] = col;
		g->kinds |= (uint8_t) (1u << k);
		g->off[k] = col - ci;
		g->cols[k] = t->cols[col].name;
		carrier_listed |= col == ci;
	}
	if (!carrier_listed)
		return sd_cc_opt_fail(c, NULL, "column \"%s\", which carries the one_of, must be one of its columns",
							  g->carrier, NULL);
	for (int j = 0; n > 1 && j < n; j++)
		if (t->cols[listed[j]].type->not_null)
			return sd_cc_opt_fail(c, NULL, "column \"%s\" has a NOT NULL domain type %s, and a column of a one_of is NULL when the value is of another kind",
								  t->cols[listed[j]].name, t->cols[listed[j]].type->name);
	for (int j = 0; j < n; j++)
		grp[listed[j]] = g;
	return true;
}

/* Every `one_of` of fields (the field options of composite t, their columns checked to exist):
 * *out[col] = the group column col carries or is listed in (NULL: none). */
bool
sd_cc_one_of_read(cctx *c, const sd_jnode *fields, const sd_type *t, const sd_strtab *cols,
				  const sd_strtab *fkeys, const sd_strtab *vcols, const char *extra,
				  const sd_one_of ***out)
{
	const sd_one_of **grp = NULL;
	size_t		plen = strlen(c->opath);

	*out = NULL;
	for (int i = 0; fields && i < fields->n; i++)
	{
		const sd_jnode *fo = fields->items[i];
		const sd_jnode *og = fo->kind == SD_J_OBJECT ? sd_jget(fo, "one_of") : NULL;

		if (!og)
			continue;
		if (!grp)
		{
			if (!(grp = sd_arena_alloc(&c->scratch, sizeof(*grp) * (size_t) t->ncols)))
				return sd_cc_oom(c);
			memset(grp, 0, sizeof(*grp) * (size_t) t->ncols);
		}
		sd_path_member(c->opath, "fields", 6);
		sd_path_member(c->opath, fields->keys[i], strlen(fields->keys[i]));
		sd_path_member(c->opath, "one_of", 6);
		if (!read_group(c, og, t, sd_strtab_get(cols, fields->keys[i], strlen(fields->keys[i])),
						fields, cols, fkeys, vcols, extra, grp))
			return false;
		c->opath[plen] = '\0';
	}
	*out = grp;
	return true;
}

/* Once the fields are built, for the carrier fs[ci]: the other listed columns take its document
 * names (JSON path, XML kind and names), so that a value found wrong in one of them after the
 * decode (a domain's CHECK, by the host) is reported at the member that held it; and its
 * default goes to the column its kind selects (a null default to the carrier's own, as every
 * listed column is NULL then): the plan's default becomes a copy of the carrier's field that
 * decodes into the selected column's node (the hosts convert a default with its field's node,
 * and name it by its column: the carrier's option path). */
bool
sd_cc_one_of_finish(cctx *c, sd_field *fs, int ci)
{
	sd_field   *f = &fs[ci];
	sd_one_of  *g = (sd_one_of *) f->one_of;
	dflt	   *d;
	int			k;

	for (k = 0; k < SD_ONE_KINDS; k++)
		if ((g->kinds & (1u << k)) && g->off[k] != 0)
		{
			sd_field   *l = &fs[ci + g->off[k]];

			l->name = f->name;
			l->path = f->path;
			l->npath = f->npath;
			l->xml_kind = f->xml_kind;
			l->xml = f->xml;
			l->xml_path = f->xml_path;
		}
	if (!f->has_default)
		return true;
	for (d = c->defaults; d && d->field != f; d = d->next)
		;
	if (!d)
		return true;			/* decodes through a deferred shape: checked with it */
	if ((k = sd_one_kind_of(d->value->kind)) < 0)
		return true;
	if (!(g->kinds & (1u << k)))
	{
		char		kinds[64];
		char		found[128];
		char		problem[SD_PROBLEM_MAX];

		sd_one_kinds_list(g, kinds, sizeof(kinds));
		sd_describe_found(found, sizeof(found), d->value->text, d->value->text_len);
		snprintf(problem, sizeof(problem), "expected one of %s, found %s", kinds, found);
		sd_path_member(c->opath, "fields", 6);
		sd_path_member(c->opath, f->column, strlen(f->column));
		return sd_cc_opt_fail(c, "default", "default does not fit column \"%s\": %s", f->column, problem);
	}
	g->default_off = g->off[k];
	if (g->off[k] != 0)
	{
		sd_field   *copy = sd_arena_alloc(c->a, sizeof(sd_field));

		if (!copy)
			return sd_cc_oom(c);
		*copy = *f;
		copy->node = fs[ci + g->off[k]].node;
		copy->col = fs[ci + g->off[k]].col;
		d->field = copy;
	}
	return true;
}
