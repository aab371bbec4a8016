/*
 * compile.c — the plan compiler: shape options (JSON text, docs/reference.md, "Shape options") + a host-described target
 * type -> an immutable plan (sd_node/sd_field tree with member hash tables), checked in full at
 * register time (its description, serde_describe, is describe.c).
 */
#include "compile_int.h"
#include "scalar.h"
#include "compile_limits.h"
#include "compile_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>




/* ---- member tables ------------------------------------------------------------------------ */

typedef struct mbuild mbuild;
typedef struct mentry
{
	const char *name;
	int			field;          /* -1: group */
	mbuild	   *group;
	/* XML tables: the rest of the key, and whether occurrences accumulate */
	uint8_t		kind;
	bool		flat;
	const char *ns;
	int16_t		choice;         /* an xml_choice name: its variant, else -1 */
	bool		choice_more;
} mentry;
struct mbuild
{
	int			n;
	int			cap;
	mentry	   *e;
	sd_strtab	idx;            /* key -> entry: the name, or xml_key's (kind, ns, local) */
};

/* An XML table's key (kind, namespace, local name) as bytes, in the scratch arena; no
 * namespace and the empty one are one key. */
static char *
xml_key(cctx *c, uint8_t kind, const char *ns, const char *local, size_t *len)
{
	size_t		nl = ns ? strlen(ns) : 0;
	size_t		ll = strlen(local);
	char	   *k = sd_arena_alloc(&c->scratch, nl + ll + 2);

	if (!k)
		return NULL;
	k[0] = (char) kind;
	memcpy(k + 1, ns ? ns : "", nl);
	memcpy(k + 1 + nl, "", 1);
	memcpy(k + 2 + nl, local, ll);
	*len = nl + ll + 2;
	return k;
}

/* A new entry of key[0..klen) (name for a JSON table; xml_key for an XML one). */
static mentry *
mb_push(cctx *c, mbuild *b, const char *name, const char *key, size_t klen)
{
	if (b->n == b->cap)
	{
		int			ncap = b->cap ? b->cap * 2 : 16;
		mentry	   *e = sd_arena_alloc(c->a, sizeof(mentry) * (size_t) ncap);

		if (!e)
			return NULL;
		if (b->n)
			memcpy(e, b->e, sizeof(mentry) * (size_t) b->n);
		b->e = e;
		b->cap = ncap;
	}
	if (!b->idx.a)
		sd_strtab_init(&b->idx, &c->scratch, false);
	if (sd_strtab_put(&b->idx, key, klen, b->n) == -2)
		return NULL;
	mentry	   *m = &b->e[b->n++];

	m->name = name;
	m->field = -1;
	m->group = NULL;
	m->kind = SD_XML_ELEMENT;
	m->flat = false;
	m->ns = NULL;
	m->choice = -1;
	m->choice_more = false;
	return m;
}

static mentry *
mb_add(cctx *c, mbuild *b, const char *name)
{
	return mb_push(c, b, name, name, strlen(name));
}

static mentry *
mb_add_xml(cctx *c, mbuild *b, uint8_t kind, const char *ns, const char *local)
{
	size_t		klen;
	const char *key = xml_key(c, kind, ns, local, &klen);
	mentry	   *e = key ? mb_push(c, b, local, key, klen) : NULL;

	if (e)
	{
		e->kind = kind;
		e->ns = ns;
	}
	return e;
}

/* An XML table's entry of key (kind, ns, local); *failed on OOM. */
static mentry *
mb_find_xml(cctx *c, mbuild *b, uint8_t kind, const char *ns, const char *local, bool *failed)
{
	size_t		klen;
	const char *key = b->n ? xml_key(c, kind, ns, local, &klen) : NULL;
	int			at = key ? sd_strtab_get(&b->idx, key, klen) : -1;

	*failed = b->n && !key;
	return at >= 0 ? &b->e[at] : NULL;
}

static mentry *
mb_find(mbuild *b, const char *name)
{
	int			at = b->n ? sd_strtab_get(&b->idx, name, strlen(name)) : -1;

	return at >= 0 ? &b->e[at] : NULL;
}

/* True when a field below b is required; *column = one column below b. */
static bool
mb_required(const mbuild *b, const sd_node *node, const char **column)
{
	bool		req = false;

	for (int i = 0; i < b->n; i++)
	{
		if (b->e[i].field >= 0)
		{
			*column = node->fields[b->e[i].field].column;
			/* (a list of repeated XML elements is [] when none occur: never missing) */
			if (!node->fields[b->e[i].field].optional && !b->e[i].flat)
				req = true;
		}
		else if (b->e[i].group && mb_required(b->e[i].group, node, column))
			req = true;
	}
	return req;
}

/* Members by name length, then bytes (jsonb's key order). */
static int
member_length_cmp(const void *a, const void *b)
{
	const sd_member *x = *(const sd_member *const *) a;
	const sd_member *y = *(const sd_member *const *) b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->name, y->name, x->len);
}

static const sd_members *
mb_freeze(cctx *c, const mbuild *b, const sd_node *node)
{
	if (b->n > SD_MAX_OBJECT_FIELDS)
	{
		strcpy(c->err->path, "$");
		sd_error_set(c->err, SD_E_SIZE, -1, "an object of the shape has %d members, more than %d "
					 "(a limit of serde)", b->n, SD_MAX_OBJECT_FIELDS);
		return NULL;
	}
	sd_members *ms = sd_arena_alloc(c->a, sizeof(sd_members));
	sd_member  *m = sd_arena_alloc(c->a, sizeof(sd_member) * (size_t) (b->n ? b->n : 1));
	uint32_t	size = 4;

	while (size < (uint32_t) b->n * 2)
		size *= 2;
	int16_t    *table = sd_arena_alloc(c->a, sizeof(int16_t) * size);
	uint32_t	at = c->nfollow;

	/* this table's slice of the key-order prediction, initially the members' own order */
	if (!ms || !m || !table || at > UINT32_MAX - (uint32_t) b->n - 1 ||
		!sd_grow(&c->a->hooks, (void **) &c->follow, &c->follow_cap, at + (uint32_t) b->n + 1,
				 sizeof(int16_t)))
		return NULL;
	c->nfollow = at + (uint32_t) b->n + 1;
	for (int i = 0; i < b->n; i++)
		c->follow[at + (uint32_t) i] = (int16_t) i;
	c->follow[at + (uint32_t) b->n] = -1;
	memset(table, 0xff, sizeof(int16_t) * size);
	for (int i = 0; i < b->n; i++)
	{
		m[i].name = b->e[i].name;
		m[i].len = (uint32_t) strlen(b->e[i].name);
		m[i].hash = sd_hash_name(m[i].name, m[i].len);
		m[i].prefix = 0;
		memcpy(&m[i].prefix, m[i].name, m[i].len < 8 ? m[i].len : 8);
		m[i].plain = !strpbrk(m[i].name, "\"\\");
		m[i].field = b->e[i].field;
		m[i].group = NULL;
		m[i].group_required = false;
		m[i].group_column = NULL;
		m[i].xml_kind = b->e[i].kind;
		m[i].flat = b->e[i].flat;
		m[i].ns = b->e[i].ns && b->e[i].ns[0] ? b->e[i].ns : NULL;
		m[i].ns_len = m[i].ns ? (uint32_t) strlen(m[i].ns) : 0;
		m[i].choice = b->e[i].choice;
		m[i].choice_more = b->e[i].choice_more;
		if (b->e[i].group)
		{
			if (!(m[i].group = mb_freeze(c, b->e[i].group, node)))
				return NULL;
			m[i].group_required = mb_required(b->e[i].group, node, &m[i].group_column);
		}
		uint32_t	slot = m[i].hash & (size - 1);

		while (table[slot] >= 0)
			slot = (slot + 1) & (size - 1);
		table[slot] = (int16_t) i;
	}
	/* the members by (length, bytes), for walkers of inputs whose keys come sorted that way */
	{
		const sd_member **sorted = sd_arena_alloc(c->a, sizeof(*sorted) * (size_t) (b->n ? b->n : 1));
		int16_t    *by_length = sd_arena_alloc(c->a, sizeof(int16_t) * (size_t) (b->n ? b->n : 1));

		if (!sorted || !by_length)
			return NULL;
		for (int i = 0; i < b->n; i++)
			sorted[i] = &m[i];
		qsort(sorted, (size_t) b->n, sizeof(*sorted), member_length_cmp);
		for (int i = 0; i < b->n; i++)
			by_length[i] = (int16_t) (sorted[i] - m);
		ms->by_length = by_length;
	}
	ms->n = b->n;
	ms->any_flat = false;
	ms->xml_text = false;
	ms->key_filter = 0;
	for (int i = 0; i < b->n; i++)
	{
		ms->key_filter |= (uint64_t) 1 << sd_key_filter_bit(m[i].name, m[i].len);
		if (m[i].flat || (m[i].group && m[i].group->any_flat))
			ms->any_flat = true;
		if (m[i].xml_kind == SD_XML_TEXT)
			ms->xml_text = true;
	}
	ms->follow_at = at;
	ms->m = m;
	ms->mask = size - 1;
	ms->table = table;
	return ms;
}

/* ---- nodes -------------------------------------------------------------------------------- */

static const sd_type *
base_elem(const sd_type *t)
{
	while (t->kind == SD_K_ARRAY)
		t = t->elem;
	return t;
}

static sd_node *build_node(cctx *c, const sd_type *t, const policy *pol, sd_format fmt);
static bool choice_tables(cctx *c, const sd_node *n);
static bool build_composite(cctx *c, sd_node *node, const sd_type *t, const policy *pol,
							const sd_jnode *opts);

static sd_node *
new_node(cctx *c, const sd_type *t, const policy *pol, sd_format fmt)
{
	sd_node    *n = sd_cc_grow_ok(c) ? sd_arena_alloc(c->a, sizeof(sd_node)) : NULL;

	if (!n)
		return NULL;
	memset(n, 0, sizeof(*n));
	n->kind = t->kind;
	n->type = t;
	n->format = fmt;
	n->coerce = pol->coerce;
	n->reject_unknown = pol->reject;
	n->all_optional = pol->optional;
	n->rename = pol->rename;
	n->xml_ns = pol->xml_ns;
	n->xml_alt = pol->xml_alt;
	n->nxml_alt = pol->xml_nalt;
	n->from = pol->from;
	n->extra_col = -1;
	return n;
}

/* A node of its own (the plan root, a map column: nodes written after they are built). */
static sd_node *
build_node_fresh(cctx *c, const sd_type *t, const policy *pol, sd_format fmt)
{
	sd_node    *n = new_node(c, t, pol, fmt);

	if (!n)
		return sd_cc_oom(c), NULL;
	if (t->kind == SD_K_ARRAY)
	{
		if (!(n->elem = build_node(c, t->elem, pol, fmt)))
			return NULL;
	}
	else if (t->kind == SD_K_COMPOSITE)
	{
		if (!build_composite(c, n, t, pol, NULL))
			return NULL;
	}
	return n;
}


/* A type reached without field options: the node is determined by (type, inherited policy,
 * format), so one node serves every place that reaches it with the same key. */
static sd_node *
build_node(cctx *c, const sd_type *t, const policy *pol, sd_format fmt)
{
	uint32_t	flags = pol->xml_nsi << 8 | (uint32_t) fmt << 3 | (uint32_t) pol->reject << 2 |
		(uint32_t) pol->coerce << 1 | (uint32_t) pol->optional;
	sd_node    *n;

	if ((t->kind != SD_K_ARRAY && t->kind != SD_K_COMPOSITE) || fmt == SD_FMT_PATTERN)
		return build_node_fresh(c, t, pol, fmt);	/* a pattern is the field's own */
	if ((n = (sd_node *) sd_node_memo_get(&c->nodes, t, pol->rename, flags, pol->from)))
		return n;
	if (!(n = build_node_fresh(c, t, pol, fmt)))
		return NULL;
	if (!sd_node_memo_put(&c->nodes, t, pol->rename, flags, pol->from, n))
		return sd_cc_oom(c), NULL;
	return n;
}

/* Two inherited policies are the same key of a shape's node (memos). */
static bool
same_inherited(const policy *a, const policy *b)
{
	return a->rename == b->rename && a->reject == b->reject && a->coerce == b->coerce &&
		a->optional == b->optional && a->from == b->from;
}

/* The node of a registered shape used for a column (composite, array of composite, or a
 * json/jsonb column validated against it); in: the policies it inherits; sm: the option its
 * errors are reported at ("shape"; NULL: the column's own path, a shape found by type). */
static const sd_node *
shape_node(cctx *c, const char *shape, const sd_type *coltype, sd_format fmt, const policy *in,
		   const char *sm)
{
	const char *options;
	const sd_type *target;
	sd_error	rerr;
	const sd_type *want = base_elem(coltype);
	bool		validate = want->kind == SD_K_JSON || want->kind == SD_K_JSONB;

	if (!validate && want->kind != SD_K_COMPOSITE)
		return sd_cc_opt_fail(c, sm, "option \"shape\" needs a composite, composite array, json or jsonb column, not %s",
						coltype->name, NULL), NULL;
	if (coltype->kind == SD_K_ARRAY)
	{
		/* arrays: the element gets the shape */
		sd_node    *n = new_node(c, coltype, in, fmt);

		if (!n)
			return sd_cc_oom(c), NULL;
		if (!(n->elem = shape_node(c, shape, coltype->elem, fmt, in, sm)))
			return NULL;
		return n;
	}
	for (int i = 0; i < c->nmemo; i++)
		if (strcmp(c->memos[i].shape, shape) == 0 && c->memos[i].kind == coltype->kind &&
			(c->memos[i].own_ns || (c->memos[i].xml_ns == in->xml_ns &&
									c->memos[i].xml_nsi == in->xml_nsi)) &&
			same_inherited(&c->memos[i].in, in))
		{
			const sd_type *mt = validate ? c->memos[i].node->elem->type : c->memos[i].node->type;

			if (!validate && mt != coltype)
				return sd_cc_opt_fail(c, sm, "shape \"%s\" decodes into %s, not the column's type",
								shape, mt->name), NULL;
			return c->memos[i].node;
		}
	if (!c->resolver || !c->resolver->resolve)
		return sd_cc_opt_fail(c, sm, "shape \"%s\" cannot be resolved here", shape, NULL), NULL;
	sd_error_clear(&rerr);
	if (!c->resolver->resolve(c->resolver->ud, shape, &options, &target, &rerr))
		return sd_cc_opt_fail(c, sm, "%s", rerr.problem[0] ? rerr.problem : "shape does not exist", NULL), NULL;
	if (!options)
	{
		/* the host checks this reference later: a stand-in, so the other options are checked */
		c->ndeferred++;
		return build_node(c, coltype, in, fmt);
	}
	if (!validate && target != coltype)
		return sd_cc_opt_fail(c, sm, "shape \"%s\" decodes into %s, not the column's type",
						shape, target->name), NULL;
	if (validate && target->kind != SD_K_COMPOSITE)
		return sd_cc_opt_fail(c, sm, "shape \"%s\" decodes into %s, not a composite type",
						shape, target->name), NULL;
	if (c->nmemo >= (int) (sizeof(c->memos) / sizeof(c->memos[0])) || c->ref_depth >= 32)
		return sd_cc_opt_fail(c, sm, "too many shape references", NULL, NULL), NULL;

	/* parse the referenced shape's options and compile it in its own option-path context */
	sd_jnode   *opts = sd_cc_parse_options(c->a, options, strlen(options), c->err);

	if (!opts)
		return NULL;
	char		saved[SD_PATH_MAX];
	policy		pol = *in;		/* what the shape leaves unset, it inherits */
	const sd_jnode *xml = sd_jget(opts, "xml");
	const char *saved_shape = c->cur_shape;
	sd_node    *n = new_node(c, validate ? coltype : target, &pol, fmt);
	sd_node    *inner = n;

	if (!n)
		return sd_cc_oom(c), NULL;
	if (validate)
	{
		/* json/jsonb column: the value is checked against the shape's composite, kept as is */
		if (!(inner = new_node(c, target, &pol, SD_FMT_NONE)))
			return sd_cc_oom(c), NULL;
		n->elem = inner;
	}
	c->memos[c->nmemo].shape = sd_arena_strndup(c->a, shape, strlen(shape));
	c->memos[c->nmemo].kind = coltype->kind;
	c->memos[c->nmemo].node = n;
	c->memos[c->nmemo].xml_ns = in->xml_ns;
	c->memos[c->nmemo].own_ns = xml && xml->kind == SD_J_OBJECT &&
		(sd_jget(xml, "namespace") || sd_jget(xml, "namespaces"));
	c->memos[c->nmemo].xml_nsi = in->xml_nsi;
	c->memos[c->nmemo].in = *in;
	c->nmemo++;
	strcpy(saved, c->opath);
	snprintf(c->opath, sizeof(c->opath), "%s", "$");
	c->ref_depth++;
	inner->shape = c->memos[c->nmemo - 1].shape;
	c->cur_shape = inner->shape;
	bool		ok = build_composite(c, inner, target, &pol, opts);

	c->cur_shape = saved_shape;
	c->ref_depth--;
	if (!ok)
	{
		char		problem[SD_PROBLEM_MAX];

		snprintf(problem, sizeof(problem), "in shape \"%s\" at %s: %s", shape, c->err->path,
				 c->err->problem);
		sd_error_set(c->err, c->err->code, c->err->offset, "%s", problem);
		strcpy(c->err->path, saved);
		if (sm)
			sd_path_member(c->err->path, sm, strlen(sm));
		return NULL;
	}
	strcpy(c->opath, saved);
	return n;
}


/* Compiles one column's field options (fo may be NULL) into f; role: what else the column is. */
/* The shape a nested composite column without `shape` or inline options decodes by: the one
 * registered for its type (the host's resolve_type), *name NULL for none; several: an error at
 * the column's option path. */
static bool
type_shape(cctx *c, const sd_column *col, bool has_fo, const char **name)
{
	const sd_type *t = base_elem(col->type);
	sd_error	rerr;

	*name = NULL;
	if (t->kind != SD_K_COMPOSITE || !c->resolver || !c->resolver->resolve_type)
		return true;
	sd_error_clear(&rerr);
	if (c->resolver->resolve_type(c->resolver->ud, t, name, &rerr))
		return true;
	if (!has_fo)
	{
		sd_path_member(c->opath, "fields", 6);
		sd_path_member(c->opath, col->name, strlen(col->name));
	}
	return sd_cc_opt_fail(c, NULL, "%s", rerr.problem[0] ? rerr.problem : "no shape for its type", NULL);
}

/* True when a map column's `shape` names its VALUE type's shape (not the (key, value)
 * composite's): the entries then decode their value by it. */
static bool
map_value_shape(cctx *c, const char *shape, const sd_type *maptype)
{
	const sd_type *entry = maptype->elem;
	const char *options;
	const sd_type *target = NULL;
	sd_error	rerr;

	for (int i = 0; i < c->nmemo; i++)
		if (strcmp(c->memos[i].shape, shape) == 0 && c->memos[i].kind == SD_K_COMPOSITE)
			return c->memos[i].node->type != entry;
	if (!c->resolver || !c->resolver->resolve)
		return false;
	sd_error_clear(&rerr);
	if (!c->resolver->resolve(c->resolver->ud, shape, &options, &target, &rerr) || !options)
		return false;			/* shape_node reports it (or the host checks it later) */
	return target != entry;
}

/* A composite (or composite array) column's inline shape options: an anonymous shape for this
 * column (it replaces the shape registered for its type), inheriting the policies in force. */
static const sd_node *
inline_node(cctx *c, const sd_jnode *opts, const sd_type *coltype, sd_format fmt, const policy *in)
{
	sd_node    *n = new_node(c, coltype, in, fmt);
	const sd_jnode *xml = sd_jget(opts, "xml");

	if (!n)
		return sd_cc_oom(c), NULL;
	if (coltype->kind == SD_K_ARRAY)
	{
		if (!(n->elem = inline_node(c, opts, coltype->elem, fmt, in)))
			return NULL;
		return n;
	}
	if (xml && sd_jget(xml, "root"))
	{
		sd_path_member(c->opath, "xml", 3);
		return sd_cc_opt_fail(c, "root", "\"root\" names the document's root element: it belongs to "
						"the shape's own options, not a field's", NULL, NULL), NULL;
	}
	if (!build_composite(c, n, coltype, in, opts))
		return NULL;
	return n;
}

static bool
build_field(cctx *c, sd_node *node, sd_field *f, const sd_column *col, const policy *pol,
			const sd_jnode *fo, int role, const char *forced_shape)
{
	const sd_jnode *v;
	fopts		o = {.fmt = SD_FMT_NONE};
	const char *by_type = NULL;

	f->column = col->name;
	f->nullable = !col->type->not_null;
	f->optional = pol->optional;
	if (fo && !sd_cc_field_options(c, f, col, fo, &role, &o))
		return false;
	if (fo && (v = sd_jget(fo, "format")) && !sd_cc_format(c, col, v, &o))
		return false;			/* compile_format.c */
	if (forced_shape)
		o.shape = forced_shape;
	if (!f->name && !(f->name = sd_apply_rename(c->a, col->name, pol->rename)))
		return sd_cc_oom(c);
	if (!f->path)
	{
		const char **path = sd_arena_alloc(c->a, sizeof(char *));

		if (!path)
			return sd_cc_oom(c);
		path[0] = f->name;
		f->path = path;
		f->npath = 1;
	}
	int			ndeferred = c->ndeferred;
	policy		cpol = *pol;	/* below the field: in the namespace of its element */

	cpol.xml_strict = false;
	cpol.attrs = NULL;
	if ((role == ROLE_NONE || role == ROLE_ONEOF) &&
		!sd_cc_xml_field(c, f, col, fo ? o.view : NULL, o.is_map, pol, &cpol))
		return false;
	if (o.has_coerce && !sd_cc_set_from(c, &cpol, FROM_COERCE, sd_cc_origin_here(c)))
		return false;
	if (o.has_coerce)
		cpol.coerce = o.coerce;
	if (!o.shape && !o.inline_opts && !o.is_map && role != ROLE_SKIPPED &&
		!type_shape(c, col, fo != NULL, &by_type))
		return false;
	if (o.shape && o.is_map && map_value_shape(c, o.shape, col->type))
	{
		/* the map's value type's shape: its entries decode their value by it */
		c->map_value_shape = o.shape;
		f->node = build_node_fresh(c, col->type, &cpol, o.fmt);
	}
	else if (o.shape)
		f->node = shape_node(c, o.shape, col->type, o.fmt, &cpol, "shape");
	else if (o.inline_opts)
		f->node = inline_node(c, o.inline_opts, col->type, o.fmt, &cpol);
	else if (by_type)
	{
		size_t		plen = strlen(c->opath);

		if (!fo)
		{
			sd_path_member(c->opath, "fields", 6);
			sd_path_member(c->opath, col->name, strlen(col->name));
		}
		f->node = shape_node(c, by_type, col->type, o.fmt, &cpol, NULL);
		c->opath[plen] = '\0';
	}
	else
		f->node = o.is_map ? build_node_fresh(c, col->type, &cpol, o.fmt) : build_node(c, col->type, &cpol, o.fmt);
	if (!f->node)
		return false;
	if (o.pattern)
		sd_cc_set_pattern(f->node, o.pattern);
	if (o.is_map)
		((sd_node *) f->node)->is_map = true;
	if (f->xml_choice && c->ndeferred == ndeferred &&
		(!sd_cc_xml_choice(c, f, f->node->elem) || !choice_tables(c, f->node->elem)))
		return false;
	if (fo && (v = sd_jget(fo, "default")))
	{
		f->has_default = true;
		if (!o.has_optional)
			f->optional = true;
		if (!(f->default_json = sd_arena_strndup(c->a, v->text, v->text_len)))
			return sd_cc_oom(c);
		if (v->kind == SD_J_NULL && !f->nullable)
			return sd_cc_opt_fail(c, "default", "default null does not fit non-nullable column \"%s\"",
							col->name, NULL);
		if (c->ndeferred > ndeferred)
			return true;		/* decodes through a deferred o.shape: checked with it */
		dflt	   *d = sd_arena_alloc(c->a, sizeof(dflt));

		if (!d)
			return sd_cc_oom(c);
		d->field = f;
		d->value = v;
		d->next = c->defaults;
		c->defaults = d;
		f->default_index = c->ndefaults++;
		(void) node;
	}
	return true;
}

static bool
add_members(cctx *c, mbuild *root, sd_node *node, int fi)
{
	const sd_field *f = &node->fields[fi];
	mbuild	   *b = root;

	for (int i = 0; i < f->npath; i++)
	{
		mentry	   *e = mb_find(b, f->path[i]);
		bool		last = i == f->npath - 1;

		if (e && (last || e->field >= 0))
		{
			const char *other = e->field >= 0 ? node->fields[e->field].column : NULL;

			if (!other)		/* a group: find any column under it */
				for (int k = 0; k < fi; k++)
					if (node->fields[k].npath > i && strcmp(node->fields[k].path[i], f->path[i]) == 0)
						other = node->fields[k].column;
			return sd_cc_opt_fail(c, f->column, "member \"%s\" is already mapped by column \"%s\"",
							f->path[i], other);
		}
		if (!e && !(e = mb_add(c, b, f->path[i])))
			return sd_cc_oom(c);
		if (last)
			e->field = fi;
		else
		{
			if (!e->group)
			{
				if (!(e->group = sd_arena_alloc(c->a, sizeof(mbuild))))
					return sd_cc_oom(c);
				memset(e->group, 0, sizeof(mbuild));
			}
			b = e->group;
		}
	}
	return true;
}

/* An xml_choice field's names into table b (where its own element would be): one list over them,
 * each name selecting the variant of its local name (docs/reference.md, "XML names"). */
static bool
add_choice_members(cctx *c, mbuild *b, const sd_node *node, int fi)
{
	const sd_field *f = &node->fields[fi];
	const sd_node *elem = f->node->elem;

	for (int k = 0; k < f->nxml_choice; k++)
	{
		const sd_xml_name *x = &f->xml_choice[k];
		bool		failed;
		mentry	   *e = mb_find_xml(c, b, SD_XML_ELEMENT, x->ns, x->local, &failed);

		if (failed)
			return sd_cc_oom(c);
		if (e)
		{
			size_t		plen = strlen(c->opath);

			sd_path_member(c->opath, "fields", 6);
			sd_path_member(c->opath, f->column, strlen(f->column));
			sd_cc_opt_fail(c, "xml_choice", "XML element \"%s\" is already mapped by another column",
						   x->local, NULL);
			sd_path_index(c->err->path, (uint64_t) k);
			c->opath[plen] = '\0';
			return false;
		}
		if (!(e = mb_add_xml(c, b, SD_XML_ELEMENT, x->ns, x->local)))
			return sd_cc_oom(c);
		e->field = fi;
		e->flat = true;
		e->choice_more = k > 0;
		for (int v = 0; elem && v < elem->nvariants; v++)
			if (strcmp(elem->variants[v].value, x->local) == 0)
				e->choice = (int16_t) v;
	}
	return true;
}

/* Field fi's XML key (and its `path` steps as groups of elements) into the XML table root. */
static bool
add_xml_members(cctx *c, mbuild *root, const sd_node *node, int fi)
{
	const sd_field *f = &node->fields[fi];
	mbuild	   *b = root;

	if (f->skip || f->is_extra || !f->node || (!f->xml_path && f->xml_kind != SD_XML_TEXT) ||
		sd_cc_one_of_listed(f))
		return true;			/* no XML name (or a one_of's listed column): never found in XML */
	for (int i = 0; i < f->npath; i++)
	{
		bool		last = i == f->npath - 1;
		uint8_t		kind = last ? (uint8_t) f->xml_kind : SD_XML_ELEMENT;
		const char *local = kind == SD_XML_TEXT ? "" : f->xml_path[i].local;
		const char *ns = kind == SD_XML_TEXT ? NULL : f->xml_path[i].ns;

		if (!local)
			return true;
		if (last && f->xml_choice)
			return add_choice_members(c, b, node, fi);
		bool		failed;
		mentry	   *e = mb_find_xml(c, b, kind, ns, local, &failed);

		if (failed)
			return sd_cc_oom(c);
		if (e && (last || e->field >= 0))
			return sd_cc_opt_fail(c, f->column, "XML name \"%s\" is already mapped by another column",
							local, NULL);
		if (!e && !(e = mb_add_xml(c, b, kind, ns, local)))
			return sd_cc_oom(c);
		if (last)
		{
			e->field = fi;
			e->flat = kind == SD_XML_ELEMENT && f->node->kind == SD_K_ARRAY && !f->node->is_map &&
				!f->xml_item.local && !f->one_of;
		}
		else
		{
			if (!e->group)
			{
				if (!(e->group = sd_arena_alloc(c->a, sizeof(mbuild))))
					return sd_cc_oom(c);
				memset(e->group, 0, sizeof(mbuild));
			}
			b = e->group;
		}
	}
	return true;
}

/* node's XML member table; a union's tag (an attribute without a namespace, or a child element)
 * is a member too, unless a field maps it.  skip: a column left out (-1 none). */
static const sd_members *
xml_table(cctx *c, const sd_node *node, const char *tag, int skip)
{
	mbuild		mb = {0};

	for (int i = 0; i < node->nfields; i++)
		if (i != skip && !add_xml_members(c, &mb, node, i))
			return NULL;
	if (tag)
	{
		for (int k = 0; k < 2; k++)
		{
			uint8_t		kind = k ? SD_XML_ELEMENT : SD_XML_ATTRIBUTE;
			const char *ns = k ? node->xml_ns : NULL;
			mentry	   *e;
			bool		failed;

			if (!(node->tag_find & (k ? SD_TAG_ELEMENT : SD_TAG_ATTRIBUTE)))
				continue;
			if (!mb_find_xml(c, &mb, kind, ns, node->tag_xml, &failed))
			{
				if (failed || !(e = mb_add_xml(c, &mb, kind, ns, node->tag_xml)))
					return sd_cc_oom(c), NULL;
				e->field = SD_MEMBER_TAG;
			}
		}
	}
	const sd_members *ms = mb_freeze(c, &mb, node);

	if (!ms)
		sd_cc_oom(c);
	return ms;
}

/* The XML tables of a union's variants as xml_choice elements: without the column that receives
 * the tag (the element's name is the tag) and without the tag member; built once a node. */
static bool
choice_tables(cctx *c, const sd_node *n)
{
	int			tc = -1;

	if (!n || !n->nvariants || n->variants[0].xml_choice_members)
		return true;
	for (int pass = 0; pass < 2 && tc < 0; pass++)
		for (int i = 0; i < n->nfields && tc < 0; i++)
		{
			const sd_field *f = &n->fields[i];

			if (!f->skip && !f->is_extra && f->npath == 1 &&
				strcmp(pass ? f->name : f->column, n->tag) == 0)
				tc = i;
		}
	for (int v = 0; v < n->nvariants; v++)
	{
		sd_variant *var = (sd_variant *) &n->variants[v];

		var->tag_col = tc;
		if (!(var->xml_choice_members = xml_table(c, var->merged, NULL, tc)))
			return false;
	}
	return true;
}

/* vcols: the variant columns of a union (name -> variant), NULL for none. */
static bool
is_variant_col(const sd_strtab *vcols, const char *col)
{
	return vcols && sd_strtab_get(vcols, col, strlen(col)) >= 0;
}

/* No two fields of node map one XML element, attribute or the text (opath: its "fields"). */
static bool
xml_unique(cctx *c, const sd_node *node, const sd_strtab *variants)
{
	bool	   *mapped = sd_arena_alloc(c->a, sizeof(bool) * (size_t) (node->nfields + 1));
	char		problem[SD_PROBLEM_MAX];
	int			bad;

	if (!mapped)
		return sd_cc_oom(c);
	for (int i = 0; i < node->nfields; i++)
		mapped[i] = !node->fields[i].skip && !node->fields[i].is_extra &&
			!sd_cc_one_of_listed(&node->fields[i]) &&
			(i >= node->type->ncols || !is_variant_col(variants, node->type->cols[i].name));
	if ((bad = sd_xml_conflict(&c->scratch, node->fields, node->nfields, mapped, problem,
							   sizeof(problem))) < 0)
		return bad == -1 ? true : sd_cc_oom(c);
	return sd_cc_opt_fail(c, node->fields[bad].column, "%s", problem, NULL);
}

/* tag + variants: checked here, built by build_variants once the fields exist. */
static bool
parse_union(cctx *c, const sd_jnode *opts, const sd_type *t, const sd_strtab *cols,
			const char **tag, const sd_jnode **variants, sd_strtab *vcols)
{
	const sd_jnode *tv = sd_jget(opts, "tag");
	const sd_jnode *vv = sd_jget(opts, "variants");

	if (!tv && !vv)
		return true;
	if (!tv || !vv)
		return sd_cc_opt_fail(c, tv ? "variants" : "tag", "\"tag\" and \"variants\" go together", NULL, NULL);
	if (!sd_cc_want_kind(c, "tag", tv, SD_J_STRING, "a string") ||
		!sd_cc_want_kind(c, "variants", vv, SD_J_OBJECT, "an object"))
		return false;
	if (tv->len == 0)
		return sd_cc_opt_fail(c, "tag", "must not be empty", NULL, NULL);
	if (vv->n == 0)
		return sd_cc_opt_fail(c, "variants", "must name at least one variant", NULL, NULL);
	if (t->kind != SD_K_COMPOSITE)
		return sd_cc_opt_fail(c, "tag", "type %s has no columns", t->name, NULL);
	size_t		plen = strlen(c->opath);

	sd_path_member(c->opath, "variants", 8);
	sd_strtab_init(vcols, &c->scratch, false);
	for (int i = 0; i < vv->n; i++)
	{
		const sd_jnode *col = vv->items[i];
		int			k,
					j;

		if (!sd_cc_want_kind(c, vv->keys[i], col, SD_J_STRING, "a column name"))
			return false;
		if ((k = sd_strtab_get(cols, col->str, strlen(col->str))) < 0)
			return sd_cc_opt_fail(c, vv->keys[i], "column \"%s\" does not exist in type %s", col->str, t->name);
		if (t->cols[k].type->kind != SD_K_COMPOSITE)
			return sd_cc_opt_fail(c, vv->keys[i], "variant column \"%s\" must be of a composite type, not %s",
							col->str, t->cols[k].type->name);
		if ((j = sd_strtab_put(vcols, col->str, strlen(col->str), i)) == -2)
			return sd_cc_oom(c);
		if (j >= 0)
			return sd_cc_opt_fail(c, vv->keys[i], "column \"%s\" is already the variant of \"%s\"",
							col->str, vv->keys[j]);
	}
	c->opath[plen] = '\0';
	*tag = tv->str;
	*variants = vv;
	return true;
}

/* One merged node per variant: the object's own members, the variant's members (columns placed
 * after the object's, so one tape row holds both) and the tag. */
static bool
build_variants(cctx *c, sd_node *node, const mbuild *base, const char *tag, const sd_jnode *vv,
			   const sd_strtab *cols, const sd_strtab *vcols)
{
	sd_variant *vars = sd_arena_alloc(c->a, sizeof(sd_variant) * (size_t) vv->n);
	size_t		plen = strlen(c->opath);

	if (!vars)
		return sd_cc_oom(c);
	memset(vars, 0, sizeof(sd_variant) * (size_t) vv->n);
	sd_path_member(c->opath, "variants", 8);
	for (int i = 0; i < vv->n; i++)
	{
		int			col = sd_strtab_get(cols, vv->items[i]->str, strlen(vv->items[i]->str));
		const sd_node *vn = node->fields[col].node;

		if (!sd_cc_grow_ok(c))
			return false;
		if (vn->tag || vn->extra_col >= 0)
			return sd_cc_opt_fail(c, vv->keys[i], "variant type %s must not itself have \"tag\" or \"extra\"",
							vn->type->name, NULL);
		sd_node    *merged = sd_arena_alloc(c->a, sizeof(sd_node));
		sd_field   *fs = sd_arena_alloc(c->a, sizeof(sd_field) * (size_t) (node->nfields + vn->nfields));
		mbuild		mb = {0};

		if (!merged || !fs)
			return sd_cc_oom(c);
		*merged = *node;
		merged->tag = NULL;
		merged->nvariants = 0;
		merged->variants = NULL;
		memcpy(fs, node->fields, sizeof(sd_field) * (size_t) node->nfields);
		memcpy(fs + node->nfields, vn->fields, sizeof(sd_field) * (size_t) vn->nfields);
		for (int k = 0; k < vn->nfields; k++)
			fs[node->nfields + k].col += node->nfields;
		merged->fields = fs;
		merged->nfields = node->nfields + vn->nfields;
		/* rebuild the member table: base entries, then the variant's, then the tag */
		for (int k = 0; k < base->n; k++)
		{
			mentry	   *e = mb_add(c, &mb, base->e[k].name);

			if (!e)
				return sd_cc_oom(c);
			*e = base->e[k];
		}
		for (int k = 0; k <= vn->nfields; k++)
			if (k == vn->nfields ? !xml_unique(c, merged, vcols) :
				!fs[node->nfields + k].skip && !sd_cc_one_of_listed(&fs[node->nfields + k]) &&
				!add_members(c, &mb, merged, node->nfields + k))
			{
				char		problem[SD_PROBLEM_MAX];

				snprintf(problem, sizeof(problem), "variant \"%s\": %s", vv->keys[i], c->err->problem);
				sd_error_set(c->err, c->err->code, c->err->offset, "%s", problem);
				return false;
			}
		if (!mb_find(&mb, node->tag_name))
		{
			mentry	   *e = mb_add(c, &mb, node->tag_name);

			if (!e)
				return sd_cc_oom(c);
			e->field = SD_MEMBER_TAG;
		}
		if (!(merged->members = mb_freeze(c, &mb, merged)))
			return sd_cc_oom(c);
		if (!(merged->xml_members = xml_table(c, merged, tag, -1)))
			return false;
		vars[i].value = vv->keys[i];
		vars[i].col = col;
		vars[i].merged = merged;
	}
	c->opath[plen] = '\0';
	node->tag = tag;
	node->nvariants = vv->n;
	node->variants = vars;
	return true;
}

const char *const sd_cc_shape_keys[] = {"fields", "rename", "unknown", "extra", "coerce",
"optional", "tag", "variants", "xml", "attributes", NULL};

static bool
build_composite(cctx *c, sd_node *node, const sd_type *t, const policy *inherited,
				const sd_jnode *opts)
{
	const char *const *skeys = sd_cc_shape_keys;
	policy		pol = *inherited;
	const char *vshape = c->map_value_shape;	/* a map entry whose value has this shape */
	const char *extra = NULL;
	const char *tag = NULL;
	const sd_jnode *variants = NULL;
	const sd_jnode *fields = NULL;
	sd_field   *fs;
	mbuild		mb = {0};
	size_t		plen = strlen(c->opath);
	sd_xml_name root = {0};
	sd_strtab	cols,			/* column name -> first column of that name */
				fkeys,			/* fields key -> first member of that key */
				vcols,			/* variant column -> variant */
				attrs;			/* `attributes` */
	const sd_strtab *vc = NULL;
	const sd_one_of **grp = NULL;	/* column -> its one_of group */

	if (t->kind == SD_K_COMPOSITE && t->ncols > SD_MAX_OBJECT_FIELDS)
	{
		strcpy(c->err->path, c->opath);
		return sd_error_set(c->err, SD_E_SIZE, -1, "type %s has %d fields, more than %d (a limit of "
							"serde)", t->name, t->ncols, SD_MAX_OBJECT_FIELDS);
	}
	if (t->kind == SD_K_COMPOSITE && (c->nfields += (uint32_t) t->ncols) > SD_MAX_PLAN_FIELDS)
	{
		strcpy(c->err->path, "$");
		return sd_error_set(c->err, SD_E_SIZE, -1, "the shape compiles into more than %d fields "
							"(a limit of serde, its referenced shapes counted)", SD_MAX_PLAN_FIELDS);
	}
	sd_strtab_init(&cols, &c->scratch, false);
	sd_strtab_init(&fkeys, &c->scratch, false);
	for (int i = 0; t->kind == SD_K_COMPOSITE && i < t->ncols; i++)
		if (sd_strtab_put(&cols, t->cols[i].name, strlen(t->cols[i].name), i) == -2)
			return sd_cc_oom(c);

	c->map_value_shape = NULL;
	pol.xml_strict = false;
	if (opts)
	{
		/* the shape's own settings; what it leaves unset is inherited from above */
		if (!sd_cc_want_kind(c, NULL, opts, SD_J_OBJECT, "an object") || !sd_cc_check_keys(c, opts, skeys) ||
			!sd_cc_parse_policy(c, opts, &pol, &extra, &root) || !sd_cc_policy_origins(c, opts, &pol))
			return false;
		if ((fields = sd_jget(opts, "fields")) && !sd_cc_want_kind(c, "fields", fields, SD_J_OBJECT, "an object"))
			return false;
		if (!parse_union(c, opts, t, &cols, &tag, &variants, &vcols))
			return false;
		vc = variants ? &vcols : NULL;
		if (sd_jget(opts, "attributes") &&
			!sd_cc_attributes(c, opts, t, &cols, fields, extra, &attrs, &pol.attrs))
			return false;
	}
	node->coerce = pol.coerce;
	node->reject_unknown = pol.reject;
	node->all_optional = pol.optional;
	node->rename = pol.rename;
	node->xml_ns = pol.xml_ns;
	node->xml_alt = pol.xml_alt;
	node->nxml_alt = pol.xml_nalt;
	node->from = pol.from;
	node->xml_root = root;
	if (t->kind != SD_K_COMPOSITE)
	{
		/* a non-composite target: only policy options apply */
		if (fields && fields->n)
			return sd_cc_opt_fail(c, "fields", "type %s has no columns", t->name, NULL);
		if (extra)
			return sd_cc_opt_fail(c, "extra", "type %s has no columns", t->name, NULL);
		return true;
	}
	if (fields)
		for (int i = 0; i < fields->n; i++)
		{
			if (sd_strtab_put(&fkeys, fields->keys[i], strlen(fields->keys[i]), i) == -2)
				return sd_cc_oom(c);
			if (sd_strtab_get(&cols, fields->keys[i], strlen(fields->keys[i])) < 0)
			{
				sd_path_member(c->opath, "fields", 6);
				return sd_cc_opt_fail(c, fields->keys[i], "column \"%s\" does not exist in type %s",
								fields->keys[i], t->name);
			}
		}
	if (!sd_cc_one_of_read(c, fields, t, &cols, &fkeys, vc, extra, &grp))
		return false;
	if (!(fs = sd_arena_alloc(c->a, sizeof(sd_field) * (size_t) (t->ncols ? t->ncols : 1))))
		return sd_cc_oom(c);
	memset(fs, 0, sizeof(sd_field) * (size_t) (t->ncols ? t->ncols : 1));
	node->fields = fs;
	node->nfields = t->ncols;
	for (int i = 0; i < t->ncols; i++)
	{
		const sd_column *col = &t->cols[i];
		int			at = fields ? sd_strtab_get(&fkeys, col->name, strlen(col->name)) : -1;
		const sd_jnode *fo = at >= 0 ? fields->items[at] : NULL;

		fs[i].col = i;
		if (fo)
		{
			sd_path_member(c->opath, "fields", 6);
			sd_path_member(c->opath, col->name, strlen(col->name));
		}
		if (!build_field(c, node, &fs[i], col, &pol, fo,
						 extra && strcmp(extra, col->name) == 0 ? ROLE_EXTRA :
						 is_variant_col(vc, col->name) ? ROLE_VARIANT :
						 grp && grp[i] && strcmp(grp[i]->carrier, col->name) ? ROLE_ONEOF : ROLE_NONE,
						 i == 1 ? vshape : NULL))
			return false;
		fs[i].one_of = grp ? grp[i] : NULL;
		/* the column that receives the tag: the tag is required, whatever the column says */
		if (tag && fo && !fs[i].skip && fs[i].npath == 1 &&
			(strcmp(col->name, tag) == 0 || strcmp(fs[i].name, tag) == 0) &&
			(sd_jget(fo, "default") || (sd_jget(fo, "optional") && fs[i].optional)))
			return sd_cc_opt_fail(c, sd_jget(fo, "default") ? "default" : "optional",
							"column \"%s\" receives the tag \"%s\", which is never optional",
							col->name, tag);
		c->opath[plen] = '\0';
	}
	if (extra)
	{
		int			k = sd_strtab_get(&cols, extra, strlen(extra));

		if (k < 0)
			return sd_cc_opt_fail(c, "extra", "column \"%s\" does not exist in type %s", extra, t->name);
		if (t->cols[k].type->kind != SD_K_JSON && t->cols[k].type->kind != SD_K_JSONB)
			return sd_cc_opt_fail(c, "extra", "column \"%s\" must be json or jsonb, not %s", extra,
							t->cols[k].type->name);
		fs[k].is_extra = true;
		fs[k].optional = true;
		node->extra_col = k;
	}
	for (int i = 0; grp && i < t->ncols; i++)
		if (fs[i].one_of && !sd_cc_one_of_listed(&fs[i]) && !sd_cc_one_of_finish(c, fs, i))
			return false;
	sd_path_member(c->opath, "fields", 6);
	for (int i = 0; i < t->ncols; i++)
		if (!fs[i].skip && !fs[i].is_extra && !is_variant_col(vc, t->cols[i].name) &&
			!sd_cc_one_of_listed(&fs[i]) && !add_members(c, &mb, node, i))
			return false;
	if (!xml_unique(c, node, vc))
		return false;
	c->opath[plen] = '\0';
	if (tag)
		sd_resolve_tag(node, tag);
	if (!(node->members = mb_freeze(c, &mb, node)))
		return sd_cc_oom(c);
	if (!(node->xml_members = xml_table(c, node, tag, -1)))
		return false;
	if (tag && !build_variants(c, node, &mb, tag, variants, &cols, vc))
		return false;
	return true;
}

/* ---- public API --------------------------------------------------------------------------- */

/* Plan uids: process-wide, never reused (a plan freed and another allocated at its address get
 * different ones), so per-plan state kept outside the plan cannot outlive its plan. */
static uint64_t plan_uids;

sd_plan *
sd_compile(const char *shape_name, const char *options_json, size_t options_len,
		   const sd_type *target, const sd_hooks *hooks, const sd_resolver *resolver,
		   sd_error *err)
{
	return sd_compile_ex(shape_name, options_json, options_len, target, hooks, resolver,
						 SD_DEFAULT_MAX_PLAN_BYTES, err);
}

sd_plan *
sd_compile_ex(const char *shape_name, const char *options_json, size_t options_len,
			  const sd_type *target, const sd_hooks *hooks, const sd_resolver *resolver,
			  size_t max_plan_bytes, sd_error *err)
{
	sd_arena	arena;
	sd_plan    *plan;
	cctx		c;
	sd_jnode   *opts;

	sd_error_clear(err);
	sd_arena_init(&arena, hooks);
	if (!(plan = sd_arena_alloc(&arena, sizeof(sd_plan))))
	{
		sd_arena_free(&arena);
		sd_error_set(err, SD_E_NOMEM, -1, "out of memory while compiling a shape");
		return NULL;
	}
	memset(plan, 0, sizeof(*plan));
	memset(&c, 0, offsetof(cctx, memos));
	c.plan = plan;
	c.a = &arena;
	c.err = err;
	c.resolver = resolver;
	c.hooks = hooks;
	c.max_bytes = max_plan_bytes;
	c.nodes.hooks = arena.hooks;
	sd_arena_init(&c.scratch, hooks);
	strcpy(c.opath, "$");
	plan->shape = sd_arena_strndup(&arena, shape_name ? shape_name : "", shape_name ? strlen(shape_name) : 0);
	c.cur_shape = plan->shape;
	opts = sd_cc_parse_options(&arena, options_json ? options_json : "{}", options_json ? options_len : 2, err);
	if (!opts || !plan->shape)
		goto fail;
	sd_node    *root = new_node(&c, target, &(policy) {0}, SD_FMT_NONE);

	if (!root)
	{
		sd_cc_oom(&c);
		goto fail;
	}
	root->shape = plan->shape;
	if (target->kind == SD_K_ARRAY || target->kind == SD_K_COMPOSITE)
	{
		if (target->kind == SD_K_COMPOSITE)
		{
			memset(&c.memos[0], 0, sizeof(c.memos[0]));
			c.memos[0].shape = plan->shape;
			c.memos[0].kind = SD_K_COMPOSITE;
			c.memos[0].node = root;
			c.memos[0].own_ns = sd_jget(sd_jget(opts, "xml"), "namespace") ||
				sd_jget(sd_jget(opts, "xml"), "namespaces");
			c.nmemo = 1;
		}
		if (!build_composite(&c, root, target->kind == SD_K_ARRAY ? base_elem(target) : target,
							 &(policy) {0}, opts))
			goto fail;
		if (target->kind == SD_K_ARRAY)
		{
			/* array target: policies apply to the elements, fields are rejected above unless
			 * the element is composite */
			policy		pol = {root->rename, root->reject_unknown, root->coerce, root->all_optional};
			sd_xml_name xroot = root->xml_root;

			if (!sd_xns_intern(&arena, &c.xns, root->xml_ns, root->xml_ns ? strlen(root->xml_ns) : 0,
							   &pol.xml_ns, &pol.xml_nsi))
			{
				sd_cc_oom(&c);
				goto fail;
			}

			if (base_elem(target)->kind == SD_K_COMPOSITE)
			{
				sd_node    *leaf = root;

				/* root currently holds the composite; rebuild as array -> ... -> composite */
				sd_node    *top = new_node(&c, target, &pol, SD_FMT_NONE);
				const sd_type *tt = target;
				sd_node    *cur = top;

				if (!top)
				{
					sd_cc_oom(&c);
					goto fail;
				}
				while (tt->elem->kind == SD_K_ARRAY)
				{
					if (!(cur->elem = new_node(&c, tt->elem, &pol, SD_FMT_NONE)))
					{
						sd_cc_oom(&c);
						goto fail;
					}
					cur = (sd_node *) cur->elem;
					tt = tt->elem;
				}
				leaf->kind = SD_K_COMPOSITE;
				leaf->type = tt->elem;
				cur->elem = leaf;
				root = top;
			}
			else
			{
				sd_node    *top = build_node_fresh(&c, target, &pol, SD_FMT_NONE);

				if (!top)
					goto fail;
				root = top;
			}
			root->shape = plan->shape;
			root->xml_root = xroot;
		}
	}
	else
	{
		/* scalar targets: only policy options */
		if (!build_composite(&c, root, target, &(policy) {0}, opts))
			goto fail;
	}
	plan->root = root;
	plan->xml_leaf_text_only = sd_xml_leaf_text_only(root);
	/* decoders keep their key-order prediction per plan, keyed by uid, starting from this copy */
	plan->uid = __atomic_add_fetch(&plan_uids, 1, __ATOMIC_RELAXED);
	plan->nfollow = c.nfollow;
	if (c.nfollow)
	{
		int16_t    *init = sd_arena_alloc(&arena, sizeof(int16_t) * c.nfollow);

		if (!init)
		{
			sd_cc_oom(&c);
			goto fail;
		}
		memcpy(init, c.follow, sizeof(int16_t) * c.nfollow);
		plan->follow_init = init;
	}

	/* defaults: every one is converted into its column's values once, here (defaults.c) */
	if (c.ndefaults)
	{
		const sd_jnode **values = sd_arena_alloc(&arena, sizeof(sd_jnode *) * (size_t) c.ndefaults);
		int			failed;
		sd_error	derr;

		plan->defaults = sd_arena_alloc(&arena, sizeof(sd_field *) * (size_t) c.ndefaults);
		if (!plan->defaults || !values)
		{
			sd_cc_oom(&c);
			goto fail;
		}
		plan->ndefaults = c.ndefaults;
		for (dflt *d = c.defaults; d; d = d->next)
		{
			plan->defaults[d->field->default_index] = d->field;
			values[d->field->default_index] = d->value;
		}
		if (!sd_defaults_compile(plan, &arena, values, &failed, &derr))
		{
			const sd_field *f = failed >= 0 ? plan->defaults[failed] : NULL;

			if (!f)
			{
				*err = derr;
				goto fail;
			}
			/* the option path of this default: $.fields.<column>.default */
			snprintf(err->path, sizeof(err->path), "$");
			sd_path_member(err->path, "fields", 6);
			sd_path_member(err->path, f->column, strlen(f->column));
			sd_path_member(err->path, "default", 7);
			sd_error_set(err, SD_E_OPTIONS, -1, "default does not fit column \"%s\": %s%s%s",
						 f->column, strcmp(derr.path, "$") ? derr.path : "",
						 strcmp(derr.path, "$") ? ": " : "", derr.problem);
			goto fail;
		}
	}
	sd_node_memo_free(&c.nodes);
	sd_arena_free(&c.scratch);
	sd_hook_free(&arena.hooks, c.follow);
	plan->arena = arena;
	return plan;

fail:
	if (err->code == SD_OK)
		sd_error_set(err, SD_E_INTERNAL, -1, "shape compilation failed");
	sd_node_memo_free(&c.nodes);
	sd_arena_free(&c.scratch);
	sd_hook_free(&arena.hooks, c.follow);
	sd_arena_free(&arena);
	return NULL;
}
