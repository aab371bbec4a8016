/*
 * descriptor.c — typed descriptors (SQLite's serde_register(shape, descriptor_json)): the shape
 * options of docs/reference.md, "Shape options", plus a "type" for every field ("Shapes and descriptors") -> an sd_type tree and the options
 * without the types, so that sd_compile builds the plan as it does for PostgreSQL's types.
 *
 *   text -> SD_K_TEXT, integer -> SD_K_INT8, real -> SD_K_FLOAT8, numeric -> SD_K_NUMERIC
 *   (unconstrained), boolean -> SD_K_BOOL, timestamp -> SD_K_TIMESTAMPTZ (an offset is required,
 *   returned in UTC), date -> SD_K_DATE, uuid -> SD_K_UUID, blob -> SD_K_BYTEA, json ->
 *   SD_K_JSON, {"enum": [labels]} -> SD_K_ENUM, {"list": T} -> SD_K_ARRAY of T, {"map": T} ->
 *   SD_K_ARRAY of a composite (key text, value T) with "map": true in the options, and
 *   {"shape": "Name"} -> the composite of shape Name (one sd_type per shape, however often it
 *   is used), with "shape": "Name" in the options.
 *
 * A map of shapes needs its entries' `value` column decoded by that shape, which no option of
 * the map column can say: the entries get a private shape ("\001map:Name", options
 * {"fields": {"value": {"shape": "Name"}}}); names of user shapes cannot contain control
 * characters, so it never meets one.
 *
 * Inline objects, {"object": {<a descriptor>}} (also as a list's element or a map's value), are
 * read as shapes of their own, private ("\001obj:N", numbered in the order read) and built from
 * the object where it stands: the field's options name it as they would a shape ("shape":
 * "\001obj:N"), so sd_compile sees ordinary references.  An inline object is not looked up and
 * has no name of its own: its errors are reported in the shape that holds it (its "owner", the
 * nearest named shape above it) at the descriptor path of the object plus the path inside it
 * ("$.fields.detail.type.object.fields.x.type").  Errors sd_compile reports through synthesized
 * options are turned back into descriptor paths by sd_descriptor_compile.
 */
#include "internal.h"
#include "compile_int.h"			/* sd_cc_is_inline_key */
#include "compile_limits.h"
#include "strtab.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DESC_MAX_DEPTH 64       /* JSON nesting of one descriptor (the root object is level 1) */
#define DESC_MAX_SHAPES 32      /* shapes in one tree: the shape and all it refers to */
#define DESC_MAX_INLINE 64      /* inline objects in one tree, those of referenced shapes included */
#define DESC_MAX_ALL (DESC_MAX_SHAPES + DESC_MAX_INLINE)
#define SYNTH_PREFIX "\001map:"
#define OBJ_PREFIX "\001obj:"

typedef struct dref
{
	int			target;         /* index into shapes */
	const char *local;          /* option path of the reference in the referring descriptor */
} dref;

typedef struct dremap
{
	const char *from;           /* option path sd_compile sees ("$.fields.price.shape") */
	const char *to;             /* descriptor path ("$.fields.price.type") */
} dremap;

typedef struct dshape
{
	const char *name;
	sd_type    *type;           /* the composite */
	const char *options;        /* for sd_compile, NUL-terminated */
	size_t		options_len;
	bool		synthetic;
	bool		inline_obj;     /* an inline object ({"object": ...}) */
	int			owner;          /* inline: the named shape holding it (index into shapes) */
	const char *opath;          /* inline: its descriptor path in the owner ("$.fields.d.type.object") */
	const char *display;        /* inline: the owner's name and the columns down to it ("T.d") */
	uint8_t		color;          /* cycle search: 0 white, 1 on the path, 2 done */
	const char *where_path;     /* root: NULL; else the root-level path of the first reference */
	const char *where_prefix;   /* ... and the "in shape \"X\" at " chain down to this shape */
	int			nrefs;          /* type references (shape, list of shape, map of shape) */
	int			refs_cap;       /* (both arrays grow by doubling: linear in the fields) */
	dref	   *refs;
	int			nremaps;
	int			remaps_cap;
	dremap	   *remaps;
} dshape;

struct sd_descriptor
{
	sd_arena	arena;
	dshape		shapes[DESC_MAX_ALL];   /* [0] is the shape itself; named and inline shapes */
	int			nshapes;
	int			nnamed;         /* named shapes among them (at most DESC_MAX_SHAPES) */
	int			ninline;        /* inline objects among them (at most DESC_MAX_INLINE) */
	dshape		synth[DESC_MAX_ALL];    /* map-entry shapes */
	int			nsynth;
	sd_resolver resolver;
};

typedef struct dctx
{
	sd_descriptor *d;
	sd_arena   *a;
	sd_error   *err;
	const sd_descriptor_lookup *lookup;
	int			nfields;        /* fields of the shapes read (SD_MAX_PLAN_FIELDS) */
} dctx;

/* what a field's type asks of its options */
typedef struct tref
{
	const char *shape;          /* "shape": this name (shape, list of shape, map of shape) */
	bool		map;            /* "map": true */
	int			target;         /* the shape a type reference names, or -1 */
	const char *ref_path;       /* its descriptor path (…type.shape, …type.list.shape, …) */
} tref;

static const char *const type_list =
"text, integer, real, numeric, boolean, timestamp, date, uuid, blob, json, "
"{\"enum\": [labels]}, {\"list\": T}, {\"map\": T}, {\"shape\": \"Name\"} or {\"object\": {\"fields\": ...}}";

#define SCALAR(k, n) {.kind = k, .name = n, .max_chars = -1, .precision = -1, .scale = -1}
static const sd_type scalar_types[] = {
	SCALAR(SD_K_TEXT, "text"),
	SCALAR(SD_K_INT8, "integer"),
	SCALAR(SD_K_FLOAT8, "real"),
	SCALAR(SD_K_NUMERIC, "numeric"),
	SCALAR(SD_K_BOOL, "boolean"),
	SCALAR(SD_K_TIMESTAMPTZ, "timestamp"),
	SCALAR(SD_K_DATE, "date"),
	SCALAR(SD_K_UUID, "uuid"),
	SCALAR(SD_K_BYTEA, "blob"),
	SCALAR(SD_K_JSON, "json"),
};
#define NSCALARS ((int) (sizeof(scalar_types) / sizeof(scalar_types[0])))

/* ---- errors ------------------------------------------------------------------------------ */

static bool
nomem(dctx *c)
{
	return sd_error_set(c->err, SD_E_NOMEM, -1, "out of memory while reading a descriptor");
}

/* SD_E_OPTIONS at descriptor path `local` of shape s, rendered from the root shape's view. */
static bool
dfail(dctx *c, const dshape *s, const char *local, const char *fmt,...)
	__attribute__((format(printf, 4, 5)));

static bool
dfail(dctx *c, const dshape *s, const char *local, const char *fmt,...)
{
	char		problem[SD_PROBLEM_MAX];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(problem, sizeof(problem), fmt, ap);
	va_end(ap);
	if (s->inline_obj)
	{
		/* an inline object's error is its owner's, at the object's path plus the path inside */
		char		full[SD_PATH_MAX];

		snprintf(full, sizeof(full), "%s%s", s->opath, local[0] == '$' ? local + 1 : local);
		local = sd_arena_strndup(c->a, full, strlen(full));
		if (!local)
			return nomem(c);
		s = &c->d->shapes[s->owner];
	}
	if (!s->where_path)
	{
		snprintf(c->err->path, sizeof(c->err->path), "%s", local);
		return sd_error_set(c->err, SD_E_OPTIONS, -1, "%s", problem);
	}
	snprintf(c->err->path, sizeof(c->err->path), "%s", s->where_path);
	if (strlen(s->where_prefix) + strlen(local) + strlen(problem) + 3 <= SD_PROBLEM_MAX)
		return sd_error_set(c->err, SD_E_OPTIONS, -1, "%s%s: %s", s->where_prefix, local, problem);

	/* references nested too deep to name them all: the first, "...", and this shape */
	const char *first_end = strstr(s->where_prefix, ": ");
	int			first = first_end ? (int) (first_end - s->where_prefix) : 0;

	return sd_error_set(c->err, SD_E_OPTIONS, -1, "%.*s: ...: in shape \"%s\" at %s: %s", first,
						s->where_prefix, s->name, local, problem);
}

static const char *
jkind_name(sd_jkind k)
{
	switch (k)
	{
		case SD_J_NULL: return "null";
		case SD_J_FALSE:
		case SD_J_TRUE: return "a boolean";
		case SD_J_NUMBER: return "a number";
		case SD_J_STRING: return "a string";
		case SD_J_ARRAY: return "an array";
		case SD_J_OBJECT: return "an object";
	}
	return "?";
}

/* path + ".member" (quoted when it is not an identifier), in the arena */
static const char *
path_join(dctx *c, const char *path, const char *member)
{
	char		buf[SD_PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	sd_path_member(buf, member, strlen(member));

	const char *r = sd_arena_strndup(c->a, buf, strlen(buf));

	return r ? r : "$";			/* out of memory: the next allocation reports it */
}

static char *
arena_printf(dctx *c, const char *fmt,...) __attribute__((format(printf, 2, 3)));

static char *
arena_printf(dctx *c, const char *fmt,...)
{
	char		buf[SD_PATH_MAX + SD_PROBLEM_MAX];
	va_list		ap;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	return sd_arena_strndup(c->a, buf, (size_t) n < sizeof(buf) ? (size_t) n : sizeof(buf) - 1);
}

/* ---- shapes ------------------------------------------------------------------------------ */

static int
find_shape(const sd_descriptor *d, const char *name)
{
	for (int i = 0; i < d->nshapes; i++)
		if (strcmp(d->shapes[i].name, name) == 0)
			return i;
	return -1;
}

static bool build_shape(dctx *c, int si, const char *text, size_t len);
static bool build_shape_node(dctx *c, int si, const sd_jnode *root);

/* Where a reference at `local` of shape *si is, seen from a named shape: an inline object's
 * owner and the path there (the object's path plus local); a named shape's own. */
static const char *
owner_path(dctx *c, int *si, const char *local)
{
	const dshape *s = &c->d->shapes[*si];

	if (!s->inline_obj)
		return local;
	*si = s->owner;
	return arena_printf(c, "%s%s", s->opath, local[0] == '$' ? local + 1 : local);
}

/* A shape name in a descriptor: non-empty, at most SD_SHAPE_NAME_MAX bytes, no control
 * characters (those are reserved for the private shapes: map entries, inline objects). */
static bool
check_shape_name(dctx *c, const dshape *from, const char *local, const sd_jnode *v)
{
	if (v->kind != SD_J_STRING)
		return dfail(c, from, local, "must be a shape name (a string), not %s", jkind_name(v->kind));
	if (v->len == 0)
		return dfail(c, from, local, "shape name must not be empty");
	if (v->len > SD_SHAPE_NAME_MAX)
		return dfail(c, from, local, "shape names have at most %d bytes, not %zu",
					 SD_SHAPE_NAME_MAX, v->len);
	for (size_t i = 0; i < v->len; i++)
		if ((unsigned char) v->str[i] < 0x20)
			return dfail(c, from, local, "shape names cannot contain control characters");
	return true;
}

/* The shape a descriptor names at `local` of shape `from`: built on first use.  -1 on error. */
static int
get_shape(dctx *c, int from, const char *local, const sd_jnode *v)
{
	sd_descriptor *d = c->d;
	const char *json = NULL;
	size_t		len = 0;
	int			si;
	dshape	   *s;

	if (!check_shape_name(c, &d->shapes[from], local, v))
		return -1;
	if ((si = find_shape(d, v->str)) >= 0)
		return si;
	if (d->nnamed >= DESC_MAX_SHAPES)
		return dfail(c, &d->shapes[from], local,
					 "too many shapes: a descriptor may refer to at most %d shapes, directly and indirectly",
					 DESC_MAX_SHAPES - 1), -1;
	if (!c->lookup || !c->lookup->lookup)
		return dfail(c, &d->shapes[from], local, "shape \"%s\" cannot be looked up here", v->str), -1;
	sd_error_clear(c->err);
	if (!c->lookup->lookup(c->lookup->ud, v->str, &json, &len, c->err))
	{
		if (c->err->code == SD_OK)
			sd_error_set(c->err, SD_E_INTERNAL, -1, "shape lookup failed");
		return -1;
	}
	if (!json)
		return dfail(c, &d->shapes[from], local, "shape \"%s\" does not exist", v->str), -1;

	int			fo = from;
	const char *flocal = owner_path(c, &fo, local);
	const dshape *f = &d->shapes[fo];
	char	   *text = sd_arena_strndup(c->a, json, len);

	if (!flocal)
		return nomem(c), -1;
	local = flocal;
	d->nnamed++;
	si = d->nshapes++;
	s = &d->shapes[si];
	memset(s, 0, sizeof(*s));
	s->name = sd_arena_strndup(c->a, v->str, v->len);
	if (!f->where_path)
	{
		s->where_path = local;
		s->where_prefix = arena_printf(c, "in shape \"%s\" at ", s->name ? s->name : "");
	}
	else
	{
		s->where_path = f->where_path;
		s->where_prefix = arena_printf(c, "%s%s: in shape \"%s\" at ", f->where_prefix, local,
									   s->name ? s->name : "");
	}
	if (!text || !s->name || !s->where_prefix)
		return nomem(c), -1;
	return build_shape(c, si, text, len) ? si : -1;
}

/* An inline object ({"object": v} at `local` of shape `from`): a private shape built from v. */
static int
inline_shape(dctx *c, int from, const char *column, const char *local, const sd_jnode *v)
{
	sd_descriptor *d = c->d;
	int			owner = from;
	const char *opath = owner_path(c, &owner, local);
	dshape	   *s;
	int			si;

	if (!opath)
		return nomem(c), -1;
	if (v->kind != SD_J_OBJECT)
		return dfail(c, &d->shapes[from], local,
					 "an inline object is a descriptor: an object with \"fields\" and their \"type\"s, not %s",
					 jkind_name(v->kind)), -1;
	if (d->ninline >= DESC_MAX_INLINE)
		return dfail(c, &d->shapes[from], local,
					 "too many inline objects: a descriptor and the shapes it refers to may have at most %d",
					 DESC_MAX_INLINE), -1;
	d->ninline++;
	si = d->nshapes++;
	s = &d->shapes[si];
	memset(s, 0, sizeof(*s));
	s->inline_obj = true;
	s->owner = owner;
	s->opath = opath;
	s->name = arena_printf(c, OBJ_PREFIX "%d", d->ninline);
	s->display = arena_printf(c, "%s.%s", d->shapes[from].inline_obj ? d->shapes[from].display :
							  d->shapes[from].name, column);
	if (!s->name || !s->display)
		return nomem(c), -1;
	return build_shape_node(c, si, v) ? si : -1;
}

/* The private shape of the entries of a map of shape `value` (one per value shape). */
static dshape *
map_entry_shape(dctx *c, int value)
{
	sd_descriptor *d = c->d;
	const char *vname = d->shapes[value].name;
	dshape	   *s;
	sd_type    *t;
	sd_column  *cols;
	sd_buf		b;

	for (int i = 0; i < d->nsynth; i++)
		if (strcmp(d->synth[i].name + strlen(SYNTH_PREFIX), vname) == 0)
			return &d->synth[i];
	s = &d->synth[d->nsynth];   /* at most one per shape: never full */
	memset(s, 0, sizeof(*s));
	s->synthetic = true;
	s->name = arena_printf(c, SYNTH_PREFIX "%s", vname);
	t = sd_arena_alloc(c->a, sizeof(sd_type));
	cols = sd_arena_alloc(c->a, sizeof(sd_column) * 2);
	if (!s->name || !t || !cols)
		return nomem(c), NULL;
	memset(t, 0, sizeof(*t));
	t->kind = SD_K_COMPOSITE;
	t->name = arena_printf(c, "map entry of %s", d->shapes[value].type->name);
	t->max_chars = -1;
	t->precision = t->scale = -1;
	cols[0].name = "key";
	cols[0].type = &scalar_types[0];
	cols[1].name = "value";
	cols[1].type = d->shapes[value].type;
	t->ncols = 2;
	t->cols = cols;
	s->type = t;
	sd_buf_init(&b, &c->a->hooks);
	sd_buf_put(&b, "{\"fields\": {\"value\": {\"shape\": ", 31);
	sd_buf_string(&b, vname, strlen(vname));
	sd_buf_put(&b, "}}}", 3);
	if (b.failed || !t->name)
	{
		sd_buf_free(&b);
		return nomem(c), NULL;
	}
	s->options = sd_arena_strndup(c->a, b.s, b.len);
	s->options_len = b.len;
	sd_buf_free(&b);
	if (!s->options)
		return nomem(c), NULL;
	d->nsynth++;
	return s;
}

/* ---- types ------------------------------------------------------------------------------- */

typedef struct label_ix
{
	const char *s;
	int			i;
} label_ix;

static int
label_cmp(const void *a, const void *b)
{
	return strcmp(((const label_ix *) a)->s, ((const label_ix *) b)->s);
}

static const sd_type *
enum_type(dctx *c, int si, const char *column, const sd_jnode *v, const char *path)
{
	const dshape *s = &c->d->shapes[si];
	sd_type    *t;
	const char **labels;
	int		   *order;
	label_ix   *ix;

	if (v->kind != SD_J_ARRAY || v->n == 0)
		return dfail(c, s, path, "an enum needs a non-empty array of labels, not %s",
					 v->kind == SD_J_ARRAY ? "an empty array" : jkind_name(v->kind)), NULL;
	t = sd_arena_alloc(c->a, sizeof(sd_type));
	labels = sd_arena_alloc(c->a, sizeof(char *) * (size_t) v->n);
	order = sd_arena_alloc(c->a, sizeof(int) * (size_t) v->n);
	ix = sd_hook_alloc(&c->a->hooks, sizeof(label_ix) * (size_t) v->n);
	if (!t || !labels || !order || !ix)
		return sd_hook_free(&c->a->hooks, ix), nomem(c), NULL;
	sd_arena	scratch;		/* the labels seen (duplicates) */
	sd_strtab	seen;

	sd_arena_init(&scratch, &c->a->hooks);
	sd_strtab_init(&seen, &scratch, false);
	for (int i = 0; i < v->n; i++)
	{
		const sd_jnode *l = v->items[i];
		char		lp[SD_PATH_MAX];
		int			dup;

		snprintf(lp, sizeof(lp), "%s", path);
		sd_path_index(lp, (uint64_t) i);
		if (l->kind != SD_J_STRING)
			return sd_arena_free(&scratch), sd_hook_free(&c->a->hooks, ix),
				dfail(c, s, lp, "enum labels must be strings, not %s", jkind_name(l->kind)), NULL;
		if (strlen(l->str) != l->len)
			return sd_arena_free(&scratch), sd_hook_free(&c->a->hooks, ix),
				dfail(c, s, lp, "enum labels cannot contain \\u0000"), NULL;
		if ((dup = sd_strtab_put(&seen, l->str, l->len, i)) != -1)
			return sd_arena_free(&scratch), sd_hook_free(&c->a->hooks, ix),
				dup == -2 ? nomem(c) : dfail(c, s, lp, "duplicate enum label \"%s\"", l->str), NULL;
		labels[i] = l->str;
		ix[i].s = l->str;
		ix[i].i = i;
	}
	sd_arena_free(&scratch);
	qsort(ix, (size_t) v->n, sizeof(label_ix), label_cmp);
	for (int i = 0; i < v->n; i++)
		order[i] = ix[i].i;
	sd_hook_free(&c->a->hooks, ix);
	memset(t, 0, sizeof(*t));
	t->kind = SD_K_ENUM;
	t->name = arena_printf(c, "%s.%s", s->inline_obj ? s->display : s->name, column);
	t->max_chars = -1;
	t->precision = t->scale = -1;
	t->nlabels = v->n;
	t->labels = labels;
	t->label_order = order;
	return t->name ? t : (nomem(c), NULL);
}

/* A type expression at `path` of shape si's field `column`.  inner: it is a list's element or
 * a map's value (where lists and maps cannot go). */
static const sd_type *
parse_type(dctx *c, int si, const char *column, const sd_jnode *v, const char *path, bool inner,
		   tref *r)
{
	const dshape *s = &c->d->shapes[si];

	if (v->kind == SD_J_STRING)
	{
		for (int i = 0; i < NSCALARS; i++)
			if (strcmp(scalar_types[i].name, v->str) == 0 && strlen(v->str) == v->len)
				return &scalar_types[i];
		return dfail(c, s, path, "unknown type \"%s\" (expected %s)", v->str, type_list), NULL;
	}
	if (v->kind != SD_J_OBJECT)
		return dfail(c, s, path, "must be a type name or an object, not %s", jkind_name(v->kind)), NULL;
	if (v->n != 1)
		return dfail(c, s, path, "a type object has exactly one member (enum, list, map, shape or object), not %d",
					 v->n), NULL;

	const char *key = v->keys[0];
	const sd_jnode *arg = v->items[0];
	const char *apath = path_join(c, path, key);

	if (!apath)
		return nomem(c), NULL;
	if (strcmp(key, "enum") == 0)
		return enum_type(c, si, column, arg, apath);
	if (strcmp(key, "shape") == 0 || strcmp(key, "object") == 0)
	{
		int			ti = key[0] == 's' ? get_shape(c, si, apath, arg) :
			inline_shape(c, si, column, apath, arg);

		if (ti < 0)
			return NULL;
		r->shape = c->d->shapes[ti].name;
		r->target = ti;
		r->ref_path = apath;
		return c->d->shapes[ti].type;
	}
	if (strcmp(key, "list") == 0 || strcmp(key, "map") == 0)
	{
		bool		is_map = key[1] == 'a';
		sd_type    *t;
		const sd_type *elem;

		if (inner)
			return dfail(c, s, path, "a list or map cannot be the element of a list or the value of a map "
						 "(declare it as json, or as a field of a shape)"), NULL;
		if (!(elem = parse_type(c, si, column, arg, apath, true, r)))
			return NULL;
		if (!(t = sd_arena_alloc(c->a, sizeof(sd_type))))
			return nomem(c), NULL;
		memset(t, 0, sizeof(*t));
		t->kind = SD_K_ARRAY;
		t->max_chars = -1;
		t->precision = t->scale = -1;
		t->name = arena_printf(c, "%s of %s", key, elem->name);
		if (!t->name)
			return nomem(c), NULL;
		if (!is_map)
		{
			t->elem = elem;
			return t;
		}
		r->map = true;
		if (r->target >= 0)
		{
			/* entries decoded by a private shape whose value column has the value's shape */
			dshape	   *e = map_entry_shape(c, r->target);

			if (!e)
				return NULL;
			t->elem = e->type;
			r->shape = e->name;
			return t;
		}

		sd_type    *et = sd_arena_alloc(c->a, sizeof(sd_type));
		sd_column  *cols = sd_arena_alloc(c->a, sizeof(sd_column) * 2);

		if (!et || !cols)
			return nomem(c), NULL;
		memset(et, 0, sizeof(*et));
		et->kind = SD_K_COMPOSITE;
		et->max_chars = -1;
		et->precision = et->scale = -1;
		et->name = arena_printf(c, "map entry of %s", elem->name);
		cols[0].name = "key";
		cols[0].type = &scalar_types[0];
		cols[1].name = "value";
		cols[1].type = elem;
		et->ncols = 2;
		et->cols = cols;
		t->elem = et;
		return et->name ? t : (nomem(c), NULL);
	}
	return dfail(c, s, path, "unknown type \"%s\" (expected %s)", key, type_list), NULL;
}

/* ---- one shape --------------------------------------------------------------------------- */

static void
put_member(sd_buf *b, int *count, const char *key, const char *text, size_t len)
{
	if ((*count)++)
		sd_buf_put(b, ", ", 2);
	sd_buf_string(b, key, strlen(key));
	sd_buf_put(b, ": ", 2);
	sd_buf_put(b, text, len);
}

static bool
add_remap(dctx *c, dshape *s, const char *from, const char *to)
{
	dremap	   *r = s->remaps;

	if (!from || !to)
		return nomem(c);
	if (s->nremaps == s->remaps_cap)
	{
		int			ncap = s->remaps_cap ? s->remaps_cap * 2 : 8;

		if (!(r = sd_arena_alloc(c->a, sizeof(dremap) * (size_t) ncap)))
			return nomem(c);
		if (s->nremaps)
			memcpy(r, s->remaps, sizeof(dremap) * (size_t) s->nremaps);
		s->remaps_cap = ncap;
	}
	r[s->nremaps].from = from;
	r[s->nremaps].to = to;
	s->remaps = r;
	s->nremaps++;
	return true;
}

static bool
add_ref(dctx *c, dshape *s, int target, const char *local)
{
	dref	   *r = s->refs;

	if (s->nrefs == s->refs_cap)
	{
		int			ncap = s->refs_cap ? s->refs_cap * 2 : 8;

		if (!(r = sd_arena_alloc(c->a, sizeof(dref) * (size_t) ncap)))
			return nomem(c);
		if (s->nrefs)
			memcpy(r, s->refs, sizeof(dref) * (size_t) s->nrefs);
		s->refs_cap = ncap;
	}
	r[s->nrefs].target = target;
	r[s->nrefs].local = local;
	s->refs = r;
	s->nrefs++;
	return true;
}

/* One field: its column (name, type) and its options (without "type", with what the type
 * implies) appended to the fields object in b. */
static bool
build_field(dctx *c, int si, const sd_jnode *fields, int i, sd_column *col, sd_buf *b,
			int *nfields, sd_strtab *names)
{
	const char *name = fields->keys[i];
	const sd_jnode *fo = fields->items[i];
	const char *base = path_join(c, "$.fields", name);
	const sd_jnode *tv,
			   *v;
	tref		r = {NULL, false, -1, NULL};
	bool		skip;

	if (!base)
		return nomem(c);
	if (!name[0])
		return dfail(c, &c->d->shapes[si], base, "field names must not be empty");
	int			dup = sd_strtab_put(names, name, strlen(name), i);

	if (dup == -2)
		return nomem(c);
	if (dup >= 0)
		return dfail(c, &c->d->shapes[si], base, "duplicate field \"%s\"", name);
	if (fo->kind != SD_J_OBJECT)
		return dfail(c, &c->d->shapes[si], base, "must be an object with the field's \"type\", not %s",
					 jkind_name(fo->kind));
	if (!(tv = sd_jget(fo, "type")))
		return dfail(c, &c->d->shapes[si], path_join(c, base, "type"),
					 "missing \"type\": every field of a descriptor has one (one of %s)", type_list);
	if (sd_jget(fo, "map"))
		return dfail(c, &c->d->shapes[si], path_join(c, base, "map"),
					 "option \"map\" is implied by \"type\": {\"map\": T} and cannot be given");
	col->name = name;
	if (!(col->type = parse_type(c, si, name, tv, path_join(c, base, "type"), false, &r)))
		return false;
	if ((v = sd_jget(fo, "shape")))
	{
		/* a json column validated against a shape: the shape is built (no type reference) */
		if (col->type->kind != SD_K_JSON)
			return dfail(c, &c->d->shapes[si], path_join(c, base, "shape"),
						 "option \"shape\" applies to json fields (it validates their value); "
						 "a field of a shape is written \"type\": {\"shape\": \"Name\"}");
		if (get_shape(c, si, path_join(c, base, "shape"), v) < 0)
			return false;
	}
	v = sd_jget(fo, "skip");
	skip = v && v->kind == SD_J_TRUE;

	/* the options: everything but "type", then what the type implies (a skipped column takes
	 * no option about how to decode) */
	sd_buf		fb;
	int			n = 0;

	sd_buf_init(&fb, &c->a->hooks);
	for (int k = 0; k < fo->n; k++)
		if (strcmp(fo->keys[k], "type") != 0)
			put_member(&fb, &n, fo->keys[k], fo->items[k]->text, fo->items[k]->text_len);
	/* inline nested options describe the shape's composite themselves (they replace the named
	 * shape's options for this field, docs/reference.md "Inline nested options") */
	bool		inline_opts = false;

	for (int k = 0; k < fo->n; k++)
		if (sd_cc_is_inline_key(fo, k))
			inline_opts = true;
	if (!skip && r.shape && !(inline_opts && !r.map))
	{
		sd_buf		sb;

		sd_buf_init(&sb, &c->a->hooks);
		sd_buf_string(&sb, r.shape, strlen(r.shape));
		if (!sb.failed)
			put_member(&fb, &n, "shape", sb.s, sb.len);
		fb.failed |= sb.failed;
		sd_buf_free(&sb);
		if (!add_remap(c, &c->d->shapes[si], path_join(c, base, "shape"), path_join(c, base, "type")))
			return sd_buf_free(&fb), false;
	}
	if (!skip && r.map)
	{
		put_member(&fb, &n, "map", "true", 4);
		if (!add_remap(c, &c->d->shapes[si], path_join(c, base, "map"), path_join(c, base, "type")))
			return sd_buf_free(&fb), false;
	}
	if (r.target >= 0 && !add_ref(c, &c->d->shapes[si], r.target, r.ref_path))
		return sd_buf_free(&fb), false;
	if (n && !fb.failed)
	{
		if ((*nfields)++)
			sd_buf_put(b, ", ", 2);
		sd_buf_string(b, name, strlen(name));
		sd_buf_put(b, ": {", 3);
		sd_buf_put(b, fb.s, fb.len);
		sd_buf_put(b, "}", 1);
	}
	if (fb.failed)
		b->failed = true;
	sd_buf_free(&fb);
	return b->failed ? nomem(c) : true;
}

static bool
build_shape(dctx *c, int si, const char *text, size_t len)
{
	dshape	   *s = &c->d->shapes[si];
	sd_error	jerr;
	sd_jnode   *root = sd_jparse(c->a, text, len, DESC_MAX_DEPTH, &jerr);

	if (!root)
	{
		if (jerr.code == SD_E_NOMEM)
			return nomem(c);
		if (jerr.code == SD_E_DEPTH)
			dfail(c, s, "$", "descriptor nests deeper than %d levels", DESC_MAX_DEPTH);
		else
			dfail(c, s, "$", "descriptor is not valid JSON: %s", jerr.problem);
		if (si == 0)
			c->err->offset = jerr.offset;
		return false;
	}
	return build_shape_node(c, si, root);
}

/* Shape si from its descriptor, parsed (a named shape's text, or an inline object). */
static bool
build_shape_node(dctx *c, int si, const sd_jnode *root)
{
	dshape	   *s = &c->d->shapes[si];
	const sd_jnode *fields;
	sd_type    *t;
	sd_column  *cols;
	sd_buf		b;
	int			n = 0,
				nf = 0;

	if (root->kind != SD_J_OBJECT)
		return dfail(c, s, "$", "a descriptor must be an object, not %s", jkind_name(root->kind));
	if (!(fields = sd_jget(root, "fields")))
		return dfail(c, s, "$.fields", "missing \"fields\": a descriptor lists its fields with their types");
	if (fields->kind != SD_J_OBJECT)
		return dfail(c, s, "$.fields", "must be an object, not %s", jkind_name(fields->kind));
	if (fields->n == 0)
		return dfail(c, s, "$.fields", "a shape needs at least one field");
	if (fields->n > SD_MAX_OBJECT_FIELDS)
		return dfail(c, s, "$.fields", "the shape has %d fields, more than %d (a limit of serde)",
					 fields->n, SD_MAX_OBJECT_FIELDS), c->err->code = SD_E_SIZE, false;
	if ((c->nfields += fields->n) > SD_MAX_PLAN_FIELDS)
		return dfail(c, s, "$.fields", "the shapes of the tree have more than %d fields together "
					 "(a limit of serde)", SD_MAX_PLAN_FIELDS), c->err->code = SD_E_SIZE, false;

	/* the composite exists before its fields, so that references to it find it */
	t = sd_arena_alloc(c->a, sizeof(sd_type));
	cols = sd_arena_alloc(c->a, sizeof(sd_column) * (size_t) fields->n);
	if (!t || !cols)
		return nomem(c);
	memset(t, 0, sizeof(*t));
	memset(cols, 0, sizeof(sd_column) * (size_t) fields->n);
	t->kind = SD_K_COMPOSITE;
	t->name = s->inline_obj ? "object" : s->name;
	t->max_chars = -1;
	t->precision = t->scale = -1;
	s->type = t;

	for (int k = 0, seen = 0; k < root->n; k++)
		if (strcmp(root->keys[k], "fields") == 0 && seen++)
			return dfail(c, s, "$.fields", "duplicate option \"fields\"");
	sd_buf_init(&b, &c->a->hooks);
	sd_buf_put(&b, "{", 1);
	for (int k = 0; k < root->n; k++)
	{
		if (strcmp(root->keys[k], "fields") != 0)
		{
			put_member(&b, &n, root->keys[k], root->items[k]->text, root->items[k]->text_len);
			continue;
		}
		if (n++)
			sd_buf_put(&b, ", ", 2);
		sd_buf_put(&b, "\"fields\": {", 11);

		sd_arena	scratch;	/* the field names seen (duplicates) */
		sd_strtab	names;

		sd_arena_init(&scratch, &c->a->hooks);
		sd_strtab_init(&names, &scratch, false);
		for (int i = 0; i < fields->n; i++)
			if (!build_field(c, si, fields, i, &cols[i], &b, &nf, &names))
				return sd_arena_free(&scratch), sd_buf_free(&b), false;
		sd_arena_free(&scratch);
		sd_buf_put(&b, "}", 1);
	}
	sd_buf_put(&b, "}", 1);
	t->ncols = fields->n;
	t->cols = cols;
	if (b.failed)
		return sd_buf_free(&b), nomem(c);
	s->options = sd_arena_strndup(c->a, b.s, b.len);
	s->options_len = b.len;
	sd_buf_free(&b);
	return s->options ? true : nomem(c);
}

/* ---- cycles ------------------------------------------------------------------------------ */

/* Depth-first over type references: a shape reached again while it is on the path contains
 * itself.  path[0..depth) are the shapes on the path. */
static bool
find_cycle(dctx *c, int si, int *path, int depth)
{
	dshape	   *s = &c->d->shapes[si];

	s->color = 1;
	path[depth] = si;
	for (int k = 0; k < s->nrefs; k++)
	{
		int			ti = s->refs[k].target;
		dshape	   *t = &c->d->shapes[ti];

		if (t->color == 1)
		{
			char		chain[SD_PROBLEM_MAX];
			size_t		used = 0;
			int			from = depth;

			while (from > 0 && path[from] != ti)
				from--;
			chain[0] = '\0';
			for (int i = from; i <= depth && used < sizeof(chain); i++)
				if (!c->d->shapes[path[i]].inline_obj)
					used += (size_t) snprintf(chain + used, sizeof(chain) - used, "%s -> ",
											  c->d->shapes[path[i]].name);
			if (used < sizeof(chain))
				snprintf(chain + used, sizeof(chain) - used, "%s", t->name);
			return dfail(c, s, s->refs[k].local,
						 "shape \"%s\" contains itself (%s); for recursive documents declare the field "
						 "\"json\" with a \"shape\" option", t->name, chain);
		}
		if (t->color == 0 && !find_cycle(c, ti, path, depth + 1))
			return false;
	}
	s->color = 2;
	return true;
}

/* ---- public API -------------------------------------------------------------------------- */

static bool
resolve(void *ud, const char *shape, const char **options_json, const sd_type **target,
		sd_error *err)
{
	sd_descriptor *d = ud;
	const dshape *s = NULL;
	int			i = find_shape(d, shape);

	if (i >= 0)
		s = &d->shapes[i];
	for (int k = 0; !s && k < d->nsynth; k++)
		if (strcmp(d->synth[k].name, shape) == 0)
			s = &d->synth[k];
	if (!s)
		return sd_error_set(err, SD_E_OPTIONS, -1, "shape \"%s\" does not exist", shape);
	*options_json = s->options;
	*target = s->type;
	return true;
}

/* A descriptor's composites are its shapes' types: a nested composite without "shape" (inline
 * options having replaced the options that named it) decodes by the shape it is the type of. */
static bool
resolve_type(void *ud, const sd_type *t, const char **shape_name, sd_error *err)
{
	sd_descriptor *d = ud;

	(void) err;
	*shape_name = NULL;
	for (int i = 0; i < d->nshapes; i++)
		if (d->shapes[i].type == t)
			*shape_name = d->shapes[i].name;
	return true;
}

sd_descriptor *
sd_descriptor_build(const char *shape, const char *json, size_t len,
					const sd_descriptor_lookup *lookup, const sd_hooks *hooks, sd_error *err)
{
	sd_arena	arena;
	sd_descriptor *d;
	dctx		c;
	int			path[DESC_MAX_ALL + 1];

	sd_error_clear(err);
	sd_arena_init(&arena, hooks);
	if (!(d = sd_arena_alloc(&arena, sizeof(sd_descriptor))))
	{
		sd_arena_free(&arena);
		sd_error_set(err, SD_E_NOMEM, -1, "out of memory while reading a descriptor");
		return NULL;
	}
	memset(d, 0, sizeof(*d));
	c.d = d;
	c.a = &arena;
	c.err = err;
	c.lookup = lookup;
	c.nfields = 0;
	shape = shape ? shape : "";
	d->nshapes = 1;
	d->nnamed = 1;
	d->shapes[0].name = sd_arena_strndup(&arena, shape, strlen(shape));
	if (!d->shapes[0].name)
	{
		nomem(&c);
		goto fail;
	}
	for (const char *p = shape; *p; p++)
		if ((unsigned char) *p < 0x20)
		{
			snprintf(err->path, sizeof(err->path), "$");
			sd_error_set(err, SD_E_OPTIONS, -1, "shape names cannot contain control characters");
			goto fail;
		}
	if (!build_shape(&c, 0, json ? json : "", json ? len : 0))
		goto fail;
	for (int i = 0; i < d->nshapes; i++)
		if (d->shapes[i].color == 0 && !find_cycle(&c, i, path, 0))
			goto fail;
	d->resolver.resolve = resolve;
	d->resolver.ud = d;
	d->resolver.resolve_type = resolve_type;
	d->arena = arena;
	return d;

fail:
	if (err->code == SD_OK)
		sd_error_set(err, SD_E_INTERNAL, -1, "descriptor could not be read");
	sd_arena_free(&arena);
	return NULL;
}

void
sd_descriptor_free(sd_descriptor *d)
{
	if (d)
	{
		sd_arena	a = d->arena;

		sd_arena_free(&a);
	}
}

const sd_type *
sd_descriptor_type(const sd_descriptor *d)
{
	return d->shapes[0].type;
}

const char *
sd_descriptor_options(const sd_descriptor *d, size_t *len)
{
	if (len)
		*len = d->shapes[0].options_len;
	return d->shapes[0].options;
}

const sd_resolver *
sd_descriptor_resolver(const sd_descriptor *d)
{
	return &d->resolver;
}

int
sd_descriptor_nshapes(const sd_descriptor *d)
{
	return d->nnamed;
}

/* The i-th named shape (inline objects are no shapes a host tracks). */
const char *
sd_descriptor_shape(const sd_descriptor *d, int i)
{
	for (int k = 0; i >= 0 && k < d->nshapes; k++)
		if (!d->shapes[k].inline_obj && i-- == 0)
			return d->shapes[k].name;
	return NULL;
}

/* An option path of shape s as the descriptor spells it. */
static const char *
remap_path(const dshape *s, const char *path)
{
	for (int i = 0; s && i < s->nremaps; i++)
		if (strcmp(s->remaps[i].from, path) == 0)
			return s->remaps[i].to;
	return path;
}

/* sd_compile reports an error inside a referenced shape as path = the reference, problem =
 * "in shape \"B\" at <path in B>: ..." (nested as deep as the references go): each path is
 * turned into the descriptor's, the segments of map-entry shapes are dropped, and those of
 * inline objects are folded into the path of the shape that holds them (the object's path plus
 * the path inside it). */
static void
remap_error(const sd_descriptor *d, sd_error *err)
{
	char		out[SD_PROBLEM_MAX];
	size_t		used = 0;
	const char *p = err->problem;
	char		root[SD_PATH_MAX];  /* the root shape's path (err->path) once a segment opens */
	char		cpath[SD_PATH_MAX]; /* the path in the current named shape, as the descriptor says */
	const char *cname = NULL;   /* the current named shape (NULL: the root) */

	snprintf(cpath, sizeof(cpath), "%s", remap_path(&d->shapes[0], err->path));
	root[0] = '\0';
	out[0] = '\0';
	while (strncmp(p, "in shape \"", 10) == 0)
	{
		const char *name = p + 10;
		const char *q = strstr(name, "\" at ");
		const char *path,
				   *end,
				   *np;
		char		nbuf[SD_SHAPE_NAME_MAX + 8];
		char		pbuf[SD_PATH_MAX];
		const dshape *next = NULL;

		if (!q || (size_t) (q - name) >= sizeof(nbuf) || !(end = strstr(q + 5, ": ")))
			break;
		memcpy(nbuf, name, (size_t) (q - name));
		nbuf[q - name] = '\0';
		path = q + 5;
		if ((size_t) (end - path) >= sizeof(pbuf))
			break;
		memcpy(pbuf, path, (size_t) (end - path));
		pbuf[end - path] = '\0';
		for (int i = 0; i < d->nshapes; i++)
			if (strcmp(d->shapes[i].name, nbuf) == 0)
				next = &d->shapes[i];
		for (int i = 0; !next && i < d->nsynth; i++)
			if (strcmp(d->synth[i].name, nbuf) == 0)
				next = &d->synth[i];
		if (!next)
			break;
		np = remap_path(next, pbuf);
		if (next->inline_obj)
		{
			/* within the current named shape: the object's path plus the path inside it */
			char		tmp[SD_PATH_MAX];

			snprintf(tmp, sizeof(tmp), "%s%s", next->opath, np[0] == '$' ? np + 1 : np);
			memcpy(cpath, tmp, sizeof(cpath));
		}
		else if (!next->synthetic)
		{
			if (!cname)
				memcpy(root, cpath, sizeof(root));
			else if (used < sizeof(out))
				used += (size_t) snprintf(out + used, sizeof(out) - used, "in shape \"%s\" at %s: ",
										  cname, cpath);
			cname = next->name;
			snprintf(cpath, sizeof(cpath), "%s", np);
		}
		p = end + 2;
	}
	if (cname && used < sizeof(out))
		used += (size_t) snprintf(out + used, sizeof(out) - used, "in shape \"%s\" at %s: ", cname,
								  cpath);
	snprintf(err->path, sizeof(err->path), "%s", cname ? root : cpath);
	if (p != err->problem)
	{
		if (used < sizeof(out))
			snprintf(out + used, sizeof(out) - used, "%s", p);
		sd_error_set(err, err->code, err->offset, "%s", out);
	}
}

sd_plan *
sd_descriptor_compile(const sd_descriptor *d, const sd_hooks *hooks, sd_error *err)
{
	sd_plan    *plan = sd_compile(d->shapes[0].name, d->shapes[0].options, d->shapes[0].options_len,
								  d->shapes[0].type, hooks, &d->resolver, err);

	if (!plan && err->code == SD_E_OPTIONS)
		remap_error(d, err);
	return plan;
}
