/*
 * infer_render.c — serde_infer's model turned into types and shapes, then written: the SQL script
 * for PostgreSQL (CREATE TYPE, serde_register) and the descriptors for SQLite.  Every decision
 * (column types, names, optional / nullable, maps, tagged unions, one_of, jsonb for what no type
 * fits) is made here once, in build(); the two writers only print what it decided.
 */
#include "infer_int.h"
#include "compile_names.h"
#include "scalar.h"

#include <stdio.h>
#include <string.h>

#define R_MAX_NESTING 32        /* composites deeper than this become jsonb */
#define R_MAP_WIDTH 200         /* objects with more distinct members than this are maps */

typedef enum r_base
{
	T_TEXT, T_INT4, T_INT8, T_NUMERIC, T_FLOAT8, T_BOOL, T_TZ, T_TS, T_DATE, T_UUID, T_JSONB,
	T_COMP, T_ENUM
} r_base;

typedef struct r_type r_type;

typedef struct r_ty
{
	r_base		base;
	bool		list;
	bool		map;            /* list of the pair type comp, `map: true` */
	const char *format;
	r_type	   *comp;           /* T_COMP / T_ENUM / the map's pair type */
} r_ty;

typedef struct r_field
{
	const char *col;
	const char *docname;        /* the document name (NULL: a one_of column with no member) */
	uint8_t		xkind;
	const char *xns;
	r_ty		ty;
	bool		optional;
	bool		notnull;
	bool		need_name;
	const char *xml_item;
	const char *item_ns;
	int			noneof;
	const char *oneof_kind[5];
	const char *oneof_col[5];
} r_field;

struct r_type
{
	char	   *name;
	bool		is_enum;
	bool		is_pair;
	const inf_node *enode;      /* enum labels */
	r_field    *f;
	int			nf, cap;
	const char *rename;
	const char *tag;
	int			nvar;
	const char *var_value[INF_TAG_VALUES];
	const char *var_col[INF_TAG_VALUES];
	bool		root;
	bool		unmapped;       /* a member no field maps: never unknown: "reject" */
	const char *ns;             /* XML: the element's namespace */
	r_type	   *next;           /* the order of the script */
	r_type	   *made;           /* every type made, named or not yet listed */
};

typedef struct anc
{
	const char *name;
	const struct anc *up;
} anc;

typedef struct rctx
{
	sd_infer   *inf;
	const sd_infer_options *o;
	sd_arena   *a;
	bool		xml;
	r_type	   *first, *last;
	r_type	   *made;           /* names are taken when a type is made, before it is listed */
	int			depth;
	sd_error   *err;
	char		prefix[64];
} rctx;

static bool r_oom(rctx *c)
{
	return sd_error_set(c->err, SD_E_NOMEM, -1, "out of memory");
}

/* ---- names -------------------------------------------------------------------------------- */

static bool
is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool
is_lower_digit(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* snake_case of a document name, at most 55 bytes (room for a "_2" suffix in 63) */
static char *
snake(rctx *c, const char *s, size_t len)
{
	char		out[64];
	size_t		o = 0;

	for (size_t i = 0; i < len && o < 55; i++)
	{
		char		ch = s[i];

		if (is_upper(ch))
		{
			bool		prev_ld = i > 0 && is_lower_digit(s[i - 1]);
			bool		next_l = i > 0 && is_upper(s[i - 1]) && i + 1 < len && s[i + 1] >= 'a' && s[i + 1] <= 'z';

			if ((prev_ld || next_l) && o > 0 && out[o - 1] != '_')
				out[o++] = '_';
			out[o++] = (char) (ch + 32);
		}
		else if (is_lower_digit(ch))
			out[o++] = ch;
		else if ((ch == '_' && o == 0 && i == 0) || (o > 0 && out[o - 1] != '_'))
			out[o++] = '_';
	}
	while (o > 1 && out[o - 1] == '_')
		o--;
	if (o == 0 || (o == 1 && out[0] == '_'))
	{
		memcpy(out, "f", 1);
		o = 1;
	}
	else if (out[0] >= '0' && out[0] <= '9')
	{
		if (o > 53)
			o = 53;
		memmove(out + 2, out, o);
		out[0] = 'f';
		out[1] = '_';
		o += 2;
	}
	return sd_arena_strndup(c->a, out, o);
}

/* name, or name_2, name_3 … so that taken(name) is false */
static char *
unique(rctx *c, char *name, bool (*taken) (void *, const char *), void *ud)
{
	char		buf[80];

	if (!name || !taken(ud, name))
		return name;
	for (int i = 2;; i++)
	{
		snprintf(buf, sizeof(buf), "%.56s_%d", name, i);
		if (!taken(ud, buf))
			return sd_arena_strndup(c->a, buf, strlen(buf));
	}
}

/* names the script's columns use for built-in types (found in pg_catalog first) */
static const char *const builtin_types[] = {
	"text", "int4", "int8", "numeric", "float8", "boolean", "timestamptz", "timestamp", "date",
	"uuid", "jsonb", "json", "bool", "int2", "int", "integer", "bigint", "smallint", "real",
	"float4", "time", "timetz", "interval", "money", "name", "char", "varchar", "xml", "bytea",
	"record", "inet", "oid", NULL
};

static bool
type_taken(void *ud, const char *name)
{
	rctx	   *c = ud;

	for (int i = 0; builtin_types[i]; i++)
		if (strcmp(builtin_types[i], name) == 0)
			return true;

	for (r_type *t = c->made; t; t = t->made)
		if (strcmp(t->name, name) == 0)
			return true;
	return false;
}

static bool
col_taken(void *ud, const char *name)
{
	r_type	   *t = ud;

	for (int i = 0; i < t->nf; i++)
		if (strcmp(t->f[i].col, name) == 0)
			return true;
	return false;
}

static r_type *
new_type(rctx *c, const char *base, bool root)
{
	r_type	   *t = sd_arena_alloc(c->a, sizeof(r_type));
	char		buf[128];

	if (!t)
		return r_oom(c), NULL;
	memset(t, 0, sizeof(*t));
	if (root)
		snprintf(buf, sizeof(buf), "%s", base);
	else
		snprintf(buf, sizeof(buf), "%s%.*s", c->prefix, 55 - (int) strlen(c->prefix) > 0 ? 55 - (int) strlen(c->prefix) : 1, base);
	if (!(t->name = unique(c, sd_arena_strndup(c->a, buf, strlen(buf)), type_taken, c)))
		return r_oom(c), NULL;
	t->root = root;
	t->made = c->made;
	c->made = t;
	return t;
}

static bool
same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Two types that would be written the same but for their names (their referenced types are
 * already shared, so pointers compare). */
static bool
same_type(const r_type *a, const r_type *b)
{
	if (a->is_enum != b->is_enum || a->is_pair != b->is_pair || a->nf != b->nf ||
		a->nvar != b->nvar || a->unmapped != b->unmapped || !same_str(a->rename, b->rename) ||
		!same_str(a->tag, b->tag) || !same_str(a->ns, b->ns))
		return false;
	if (a->is_enum)
	{
		if (a->enode->ndistinct != b->enode->ndistinct)
			return false;
		for (uint32_t i = 0; i < a->enode->ndistinct; i++)
			if (a->enode->dvlen[i] != b->enode->dvlen[i] ||
				memcmp(a->enode->dv[i], b->enode->dv[i], a->enode->dvlen[i]) != 0)
				return false;
	}
	for (int v = 0; v < a->nvar; v++)
		if (!same_str(a->var_value[v], b->var_value[v]) || !same_str(a->var_col[v], b->var_col[v]))
			return false;
	for (int i = 0; i < a->nf; i++)
	{
		const r_field *f = &a->f[i], *g = &b->f[i];

		if (!same_str(f->col, g->col) || !same_str(f->docname, g->docname) || f->xkind != g->xkind ||
			!same_str(f->xns, g->xns) || f->ty.base != g->ty.base || f->ty.list != g->ty.list ||
			f->ty.map != g->ty.map || !same_str(f->ty.format, g->ty.format) ||
			f->ty.comp != g->ty.comp || f->optional != g->optional || f->notnull != g->notnull ||
			f->need_name != g->need_name || !same_str(f->xml_item, g->xml_item) ||
			!same_str(f->item_ns, g->item_ns) || f->noneof != g->noneof)
			return false;
		for (int k = 0; k < f->noneof; k++)
			if (!same_str(f->oneof_kind[k], g->oneof_kind[k]) || !same_str(f->oneof_col[k], g->oneof_col[k]))
				return false;
	}
	return true;
}

/* Types are listed when complete, so that referenced types come first.  A type equal to one
 * listed before (a GitHub `user` met at ten places) is that one: its name is given back. */
static r_type *
emit(rctx *c, r_type *t)
{
	if (!t->root)
		for (r_type *o = c->first; o; o = o->next)
			if (same_type(o, t))
			{
				for (r_type **p = &c->made; *p; p = &(*p)->made)
					if (*p == t)
					{
						*p = t->made;
						break;
					}
				return o;
			}
	if (c->last)
		c->last->next = t;
	else
		c->first = t;
	c->last = t;
	return t;
}

static r_field *
add_field(rctx *c, r_type *t, const char *col)
{
	r_field    *f;

	if (t->nf == t->cap)
	{
		int			cap = t->cap ? t->cap * 2 : 8;
		r_field    *nf = sd_arena_alloc(c->a, (size_t) cap * sizeof(r_field));

		if (!nf)
			return r_oom(c), NULL;
		if (t->nf)
			memcpy(nf, t->f, (size_t) t->nf * sizeof(r_field));
		t->f = nf;
		t->cap = cap;
	}
	f = &t->f[t->nf];
	memset(f, 0, sizeof(*f));
	if (!(f->col = unique(c, (char *) col, col_taken, t)))
		return r_oom(c), NULL;
	t->nf++;
	return f;
}

/* ---- type decisions --------------------------------------------------------------------------- */

static bool
time_like(const char *name)
{
	size_t		n = name ? strlen(name) : 0;
	static const char *const exact[] = {"created", "updated", "timestamp", "time", "ts", "date", NULL};
	char		low[64];

	if (n == 0 || n >= sizeof(low))
		return false;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char) (is_upper(name[i]) ? name[i] + 32 : name[i]);
	for (int i = 0; exact[i]; i++)
		if (strcmp(low, exact[i]) == 0)
			return true;
	if (n > 3 && (strcmp(name + n - 3, "_at") == 0 || strcmp(name + n - 2, "At") == 0))
		return true;
	return (n > 5 && (strcmp(low + n - 5, "_time") == 0 || strcmp(name + n - 4, "Time") == 0)) ||
		(n > 9 && strcmp(low + n - 9, "timestamp") == 0);
}

#define UNIX_LO INT64_C(946684800)  /* 2000-01-01 */
#define UNIX_HI INT64_C(4102444800) /* 2100-01-01 */

static r_base
int_base(bool big, int64_t lo, int64_t hi, const char *name, const char **format)
{
	if (big)
		return T_NUMERIC;
	if (time_like(name))
	{
		if (lo >= UNIX_LO && hi <= UNIX_HI)
			return *format = "unix", T_TZ;
		if (lo >= UNIX_LO * 1000 && hi <= UNIX_HI * 1000)
			return *format = "unix_ms", T_TZ;
	}
	return lo >= INT32_MIN && hi <= INT32_MAX ? T_INT4 : T_INT8;
}

static int
kinds(const inf_node *n, bool xml)
{
	if (xml)
		return (n->n_str > 0) + (n->n_obj > 0);
	return (n->n_bool > 0) + (n->n_int + n->n_dec + n->n_float > 0) + (n->n_str > 0) +
		(n->n_obj > 0) + (n->n_arr > 0);
}

static bool build_object(rctx *c, const inf_node *n, const char *base, const anc *up,
						 bool root, r_type **out);

/* The string forms: every string must read as the type */
static r_base
string_base(rctx *c, const inf_node *n, const char **format)
{
	uint32_t	s = n->n_str;

	if (c->xml && n->t_empty == 0)
	{
		if (n->t_int == s)
			return int_base(n->tint_big, n->timin, n->timax, NULL, format);
		if (n->t_int + n->t_dec == s)
			return T_NUMERIC;
		if (n->t_int + n->t_dec + n->t_float == s)
			return T_FLOAT8;
		if (n->t_bool == s)
			return T_BOOL;
	}
	if (n->s_tz == s)
		return T_TZ;
	if (n->s_ts == s)
		return T_TS;
	if (n->s_date == s)
		return T_DATE;
	if (n->s_uuid == s)
		return T_UUID;
	if (n->s_2822 == s)
		return *format = "rfc2822", T_TZ;
	return T_TEXT;
}

/* A copy of n with only the values of one kind (one_of columns). */
static inf_node *
only_kind(rctx *c, const inf_node *n, const char *kind)
{
	inf_node   *k = sd_arena_alloc(c->a, sizeof(inf_node));

	if (!k)
		return r_oom(c), NULL;
	*k = *n;
	k->n_null = 0;
	if (strcmp(kind, "boolean") != 0)
		k->n_bool = 0;
	if (strcmp(kind, "number") != 0)
		k->n_int = k->n_dec = k->n_float = 0;
	if (strcmp(kind, "string") != 0)
		k->n_str = 0;
	if (strcmp(kind, "object") != 0)
		k->n_obj = 0;
	if (strcmp(kind, "array") != 0)
		k->n_arr = 0;
	return k;
}

static bool
data_key(const char *s, size_t len)
{
	char		problem[SD_PROBLEM_MAX];
	uint8_t		u[16];
	int32_t		d;

	if (len == 0)
		return false;
	if (s[0] >= '0' && s[0] <= '9')
		return true;
	return (len == 36 && sd_parse_uuid(s, len, u, problem) == SD_OK) ||
		(len == 10 && sd_parse_date(s, len, &d, problem) == SD_OK);
}

/* An object of data-like keys (or too many to be columns) whose values are of one kind. */
static bool
is_map(rctx *c, const inf_node *n, inf_node **merged)
{
	bool		data = true;
	inf_node   *m;

	if (c->xml || n->nmem < 1 || kinds(n, false) != 1)
		return false;
	for (int i = 0; i < n->nmem && data; i++)
		data = data_key(n->mem[i].name, n->mem[i].len);
	if (!data && n->nmem <= R_MAP_WIDTH)
		return false;
	if (!(m = inf_node_new(c->inf)))
		return false;
	for (int i = 0; i < n->nmem; i++)
		if (!inf_merge(c->inf, m, n->mem[i].val))
			return false;
	*merged = m;
	return true;
}

/* The type of the values at n (a member's, an element's, a map's values). */
static bool
decide(rctx *c, const inf_node *n, const char *name, const char *base, const anc *up, r_ty *ty)
{
	int			k = kinds(n, c->xml);

	memset(ty, 0, sizeof(*ty));
	ty->base = T_JSONB;
	if (k == 0)
		return true;
	if (c->xml && k == 2)
		k = 1;                  /* text-only occurrences of an element with members: its text */
	if (k > 1)
		return true;
	if (!c->xml && n->n_bool)
		ty->base = T_BOOL;
	else if (!c->xml && n->n_int + n->n_dec + n->n_float)
		ty->base = n->n_float ? T_FLOAT8 : n->n_dec ? T_NUMERIC :
			int_base(n->int_big, n->imin, n->imax, name, &ty->format);
	else if (n->n_str && !n->n_obj)
	{
		ty->base = string_base(c, n, &ty->format);
		if (ty->base == T_TEXT && c->o->enums && !n->distinct_over && n->ndistinct > 0 &&
			n->n_str > n->ndistinct && (!c->xml || n->t_empty == 0))
		{
			r_type	   *e = new_type(c, base, false);

			if (!e)
				return false;
			e->is_enum = true;
			e->enode = n;
			ty->base = T_ENUM;
			ty->comp = emit(c, e);
		}
	}
	else if (n->n_obj)
	{
		inf_node   *merged = NULL;
		anc			me = {name, up};
		bool		recursive = false;

		for (const anc *a = up; a && name && !recursive; a = a->up)
			recursive = a->name && strcmp(a->name, name) == 0;
		if (recursive || c->depth >= R_MAX_NESTING)
			return true;
		if (is_map(c, n, &merged))
		{
			r_type	   *pair = new_type(c, base, false);
			r_field    *f;
			char		pbase[80];

			if (!pair)
				return false;
			snprintf(pbase, sizeof(pbase), "%.50s_value", base);
			pair->is_pair = true;
			if (!(f = add_field(c, pair, "key")))
				return false;
			f->ty.base = T_TEXT;
			f->docname = "key";
			if (!(f = add_field(c, pair, "value")))
				return false;
			f->docname = "value";
			c->depth++;
			if (!decide(c, merged, NULL, pbase, &me, &f->ty))
				return false;
			c->depth--;
			if (f->ty.list && f->ty.base == T_COMP && f->ty.comp && f->ty.comp->is_pair)
				f->ty = (r_ty) {T_JSONB};
			ty->base = T_COMP;
			ty->list = ty->map = true;
			ty->comp = emit(c, pair);
			return true;
		}
		c->depth++;
		if (!build_object(c, n, base, &me, false, &ty->comp))
			return false;
		c->depth--;
		ty->base = T_COMP;
	}
	else if (n->n_arr)
	{
		r_ty		e;

		if (!n->elem || !decide(c, n->elem, name, base, up, &e))
			return n->elem ? false : true;
		if (e.base == T_JSONB || e.list)
			return true;
		*ty = e;
		ty->list = true;
	}
	return true;
}

/* ---- composites ------------------------------------------------------------------------------- */

static const char *const styles[] = {NULL, "camel", "pascal", "kebab", "upper"};

/* The rename style that fits most members (a tie: the earlier style), then `name` for the rest. */
static bool
choose_names(rctx *c, r_type *t)
{
	int			best = 0, best_n = -1;

	for (int s = 0; s < 5; s++)
	{
		int			fit = 0;

		for (int i = 0; i < t->nf; i++)
		{
			char	   *r;

			if (!t->f[i].docname || t->f[i].xkind == INF_K_TEXT)
				continue;
			if (!(r = sd_apply_rename(c->a, t->f[i].col, styles[s])))
				return r_oom(c);
			fit += strcmp(r, t->f[i].docname) == 0;
		}
		if (fit > best_n)
			best = s, best_n = fit;
	}
	t->rename = styles[best];
	for (int i = 0; i < t->nf; i++)
	{
		char	   *r;

		if (!t->f[i].docname || t->f[i].xkind == INF_K_TEXT)
			continue;
		if (!(r = sd_apply_rename(c->a, t->f[i].col, t->rename)))
			return r_oom(c);
		t->f[i].need_name = strcmp(r, t->f[i].docname) != 0;
	}
	return true;
}

static const char *const kind_order[] = {"object", "string", "array", "number", "boolean"};
static const char *const kind_suffix[] = {"obj", "text", "list", "num", "bool"};

static bool
has_kind(const inf_node *n, int k)
{
	switch (k)
	{
		case 0: return n->n_obj > 0;
		case 1: return n->n_str > 0;
		case 2: return n->n_arr > 0;
		case 3: return n->n_int + n->n_dec + n->n_float > 0;
		default: return n->n_bool > 0;
	}
}

/* One member into a field of t (or several: one_of). */
static bool
add_member(rctx *c, r_type *t, const inf_member *m, uint32_t nobj, const anc *up)
{
	char	   *col;
	r_field    *f;
	char		base[128];
	int			idx;

	if (m->len == 0 && m->kind != INF_K_TEXT)
	{
		t->unmapped = true;     /* a member named "": no column can map it */
		return true;
	}
	if (!(col = m->kind == INF_K_TEXT ? "text" : snake(c, m->name, m->len)))
		return r_oom(c);
	snprintf(base, sizeof(base), "%s", col);
	if (!(f = add_field(c, t, col)))
		return false;
	idx = (int) (f - t->f);
	f->docname = m->name;
	f->xkind = m->kind;
	f->xns = m->ns;
	f->optional = m->present < nobj && !(c->xml && m->max_repeat > 1);
	f->notnull = !c->xml && m->val->n_null == 0 && kinds(m->val, false) > 0;
	if (c->xml && m->max_repeat > 1)
	{
		if (!decide(c, m->val, m->name, base, up, &t->f[idx].ty))
			return false;
		f = &t->f[idx];
		if (f->ty.list || f->ty.map)
			f->ty = (r_ty) {T_JSONB};   /* not reached: XML has no arrays */
		else
			f->ty.list = true;
		return true;
	}
	if (c->xml && m->val->n_str == 0 && m->val->nmem == 1 && m->val->mem[0].kind == INF_K_ELEMENT &&
		m->val->mem[0].max_repeat > 1)
	{
		/* a wrapper of repeated items: a list with xml_item */
		const inf_member *item = &m->val->mem[0];

		if (!decide(c, item->val, item->name, base, up, &t->f[idx].ty))
			return false;
		f = &t->f[idx];
		f->ty.list = true;
		f->xml_item = item->name;
		f->item_ns = item->ns;
		return true;
	}
	if (!c->xml && kinds(m->val, false) > 1)
	{
		int			n = 0;
		int			cols[5];

		for (int k = 0; k < 5; k++)
		{
			inf_node   *only;
			r_field    *g;
			r_ty		ty;

			if (!has_kind(m->val, k))
				continue;
			if (!(only = only_kind(c, m->val, kind_order[k])))
				return false;
			snprintf(base, sizeof(base), "%.50s%s%s", col, n ? "_" : "", n ? kind_suffix[k] : "");
			if (!decide(c, only, m->name, base, up, &ty))
				return false;
			if (n == 0)
				g = &t->f[idx];
			else
			{
				char	   *extra = sd_arena_strndup(c->a, base, strlen(base));

				if (!extra || !(g = add_field(c, t, extra)))
					return r_oom(c);
			}
			g->ty = ty;
			cols[n] = (int) (g - t->f);
			t->f[idx].oneof_kind[n] = kind_order[k];
			n++;
		}
		for (int i = 0; i < n; i++)
			t->f[idx].oneof_col[i] = t->f[cols[i]].col;
		t->f[idx].noneof = n;
		return true;
	}
	return decide(c, m->val, m->name, base, up, &t->f[idx].ty);
}

/* A tagged union at n: the candidate whose values select disjoint member sets. */
static int
find_tag(const inf_node *n, int *common)
{
	for (int k = 0; k < n->ntagc; k++)
	{
		const inf_tagc *tc = &n->tagc[k];
		const inf_node *tv = n->mem[tc->member].val;
		int			nv = (int) tv->ndistinct, with_specific = 0;
		bool		ok = true;
		int			spec[INF_TAG_VALUES] = {0};

		/* at least one value seen twice: two objects with two values prove nothing */
		if (tc->dead || tv->distinct_over || nv < 2 || nv > INF_TAG_VALUES ||
			n->mem[tc->member].present != n->n_obj || n->n_obj <= (uint32_t) nv)
			continue;
		for (int j = 0; j < n->nmem && ok; j++)
		{
			int			in = 0, last = -1;

			if (j == tc->member)
			{
				common[j] = -1;
				continue;
			}
			for (int v = 0; v < nv; v++)
				if ((uint32_t) j / 64 < tc->words[v] && (tc->bits[v][j / 64] >> (j % 64)) & 1)
					in++, last = v;
			if (in == nv)
				common[j] = -1;
			else if (in == 1)
				common[j] = last, spec[last]++;
			else
				ok = false;
		}
		for (int v = 0; v < nv; v++)
			with_specific += spec[v] > 0;
		if (ok && with_specific >= 2)
			return k;
	}
	return -1;
}

static bool
build_object(rctx *c, const inf_node *n0, const char *base, const anc *up, bool root, r_type **out)
{
	r_type	   *t = new_type(c, base, root);
	const inf_node *n = n0;
	int		   *common = NULL;
	int			tag = -1;
	inf_node   *fixed = NULL;

	if (!t)
		return false;
	t->ns = n->ns;
	if (c->xml && n->n_str && n->n_obj)
	{
		/* text-only occurrences: objects whose text member is the text */
		int			j;

		if (!(fixed = inf_node_new(c->inf)) || !inf_merge(c->inf, fixed, n))
			return false;
		j = inf_member_get(c->inf, fixed, "", 0, INF_K_TEXT, NULL);
		if (j < 0)
			return false;
		fixed->mem[j].present += n->n_str;
		{
			inf_node   *s = only_kind(c, n, "string");

			if (!s || !inf_merge(c->inf, fixed->mem[j].val, s))
				return false;
		}
		fixed->n_obj += fixed->n_str;
		fixed->n_str = 0;
		n = fixed;
	}
	if (n->nmem > 0 && !(common = sd_arena_alloc(c->a, (size_t) n->nmem * sizeof(int))))
		return r_oom(c);
	if (!c->xml && n->ntagc)
		tag = find_tag(n, common);
	for (int i = 0; i < n->nmem; i++)
		if (tag < 0 || common[i] < 0)
			if (!add_member(c, t, &n->mem[i], n->n_obj, up))
				return false;
	if (tag >= 0)
	{
		const inf_tagc *tc = &n->tagc[tag];
		const inf_member *tm = &n->mem[tc->member];

		for (int i = 0; i < t->nf; i++)
			if (t->f[i].docname == tm->name)
				t->tag = t->f[i].col;
		t->nvar = (int) tm->val->ndistinct;
		for (int v = 0; v < t->nvar; v++)
		{
			char	   *vcol = snake(c, tm->val->dv[v], tm->val->dvlen[v]);
			char		vbase[128];
			r_type	   *vt;
			r_field    *f;

			if (!vcol || !(f = add_field(c, t, vcol)))
				return r_oom(c);
			if (root)
				snprintf(vbase, sizeof(vbase), "%s", f->col);
			else
				snprintf(vbase, sizeof(vbase), "%.40s_%s", base, f->col);
			t->var_value[v] = tm->val->dv[v];
			t->var_col[v] = f->col;
			if (!(vt = new_type(c, vbase, false)))
				return false;
			for (int j = 0; j < n->nmem; j++)
				if (common[j] == v && !add_member(c, vt, &n->mem[j], tc->nobj[v], up))
					return false;
			if (!choose_names(c, vt))
				return false;
			f = &t->f[t->nf - 1];
			f->ty.base = T_COMP;
			f->ty.comp = emit(c, vt);
		}
	}
	if (!choose_names(c, t))
		return false;
	*out = emit(c, t);
	return true;
}

/* ---- writing ---------------------------------------------------------------------------------- */

static const char *
pg_base(r_base b)
{
	static const char *const names[] = {"text", "int4", "int8", "numeric", "float8", "boolean",
	"timestamptz", "timestamp", "date", "uuid", "jsonb"};

	return names[b];
}

static const char *
sqlite_base(r_base b)
{
	static const char *const names[] = {"text", "integer", "integer", "numeric", "real", "boolean",
	"timestamp", "text", "date", "uuid", "json"};

	return names[b];
}

typedef struct wctx
{
	rctx	   *c;
	sd_quote_fn quote;
	void	   *ud;
	sd_buf	   *out;
} wctx;

static void
put(sd_buf *b, const char *s)
{
	sd_buf_put(b, s, strlen(s));
}

static void
qname(wctx *w, const char *name)
{
	if (w->c->o->schema)
	{
		w->quote(w->ud, w->c->o->schema, w->out);
		put(w->out, ".");
	}
	w->quote(w->ud, name, w->out);
}

static bool
same_uri(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* a document name as the shape writes it (XML: {uri}local outside the element's namespace) */
static void
doc_name(sd_buf *b, const r_type *t, const char *name, uint8_t kind, const char *ns, bool xml)
{
	char		tmp[1024];

	if (xml && ((kind == INF_K_ELEMENT && !(ns == t->ns || (ns && t->ns && strcmp(ns, t->ns) == 0))) ||
				(kind == INF_K_ATTRIBUTE && ns)))
	{
		snprintf(tmp, sizeof(tmp), "{%s}%s", ns ? ns : "", name);
		sd_buf_string(b, tmp, strlen(tmp));
	}
	else
		sd_buf_string(b, name, strlen(name));
}

static void
shape_name(wctx *w, sd_buf *b, const r_type *t)
{
	char		tmp[160];

	if (w->c->o->schema)
		snprintf(tmp, sizeof(tmp), "%s.%s", w->c->o->schema, t->name);
	else
		snprintf(tmp, sizeof(tmp), "%s", t->name);
	sd_buf_string(b, tmp, strlen(tmp));
}

/* The shape options of t as JSON (both hosts; sqlite: with the fields' types). */
static void
options_json(wctx *w, sd_buf *b, const r_type *t, bool sqlite);

static void
sqlite_type(wctx *w, sd_buf *b, const r_ty *ty)
{
	if (ty->map)
	{
		put(b, "{\"map\": ");
		sqlite_type(w, b, &ty->comp->f[1].ty);
		put(b, "}");
		return;
	}
	if (ty->list)
	{
		r_ty		e = *ty;

		e.list = false;
		put(b, "{\"list\": ");
		sqlite_type(w, b, &e);
		put(b, "}");
		return;
	}
	if (ty->base == T_ENUM)
	{
		const inf_node *n = ty->comp->enode;

		put(b, "{\"enum\": [");
		for (uint32_t i = 0; i < n->ndistinct; i++)
		{
			if (i)
				put(b, ", ");
			sd_buf_string(b, n->dv[i], n->dvlen[i]);
		}
		put(b, "]}");
	}
	else if (ty->base == T_COMP)
	{
		put(b, "{\"shape\": ");
		shape_name(w, b, ty->comp);
		put(b, "}");
	}
	else if (ty->base == T_INT8 && ty->format == NULL)
		put(b, "\"integer\"");
	else
	{
		put(b, "\"");
		put(b, sqlite_base(ty->base));
		put(b, "\"");
	}
}

/* true if some type of the script has a rename style */
static bool
any_rename(const rctx *c)
{
	for (const r_type *t = c->made; t; t = t->made)
		if (t->rename)
			return true;
	return false;
}

static void
options_json(wctx *w, sd_buf *b, const r_type *t, bool sqlite)
{
	bool		xml = w->c->xml;
	bool		any = false;
	int			nfo = 0;

#define SEP() (put(b, any ? ", " : ""), any = true)
	put(b, "{");
	if (t->rename)
	{
		SEP();
		put(b, "\"rename\": ");
		sd_buf_string(b, t->rename, strlen(t->rename));
	}
	else if (!t->root && any_rename(w->c))
	{
		/* a nested shape inherits the rename of the level above: say that its names are as
		 * written, whichever shape it is used from */
		SEP();
		put(b, "\"rename\": \"none\"");
	}
	if (w->c->o->strict && !t->is_pair && !t->unmapped)
	{
		SEP();
		put(b, "\"unknown\": \"reject\"");
	}
	if (xml && t->root)
	{
		SEP();
		put(b, "\"xml\": {\"root\": ");
		sd_buf_string(b, w->c->inf->root_local, strlen(w->c->inf->root_local));
		if (w->c->inf->root_ns)
		{
			put(b, ", \"namespace\": ");
			sd_buf_string(b, w->c->inf->root_ns, strlen(w->c->inf->root_ns));
		}
		put(b, "}");
	}
	if (t->tag)
	{
		SEP();
		put(b, "\"tag\": ");
		sd_buf_string(b, t->tag, strlen(t->tag));
		put(b, ", \"variants\": {");
		for (int v = 0; v < t->nvar; v++)
		{
			put(b, v ? ", " : "");
			sd_buf_string(b, t->var_value[v], strlen(t->var_value[v]));
			put(b, ": ");
			sd_buf_string(b, t->var_col[v], strlen(t->var_col[v]));
		}
		put(b, "}");
	}
	for (int i = 0; i < t->nf; i++)
	{
		const r_field *f = &t->f[i];
		bool		fany = false;

#define FSEP() (put(b, fany ? ", " : ""), fany = true)
		if (!sqlite && !f->need_name && !f->optional && !f->notnull && !f->ty.format &&
			f->ty.base != T_COMP && !f->ty.map && !f->noneof && !f->xml_item &&
			!(xml && f->xkind != INF_K_ELEMENT) && !(xml && !same_uri(f->xns, t->ns)))
			continue;
		if (nfo++ == 0)
		{
			SEP();
			put(b, "\"fields\": {");
		}
		else
			put(b, ", ");
		sd_buf_string(b, f->col, strlen(f->col));
		put(b, ": {");
		if (sqlite)
		{
			FSEP();
			put(b, "\"type\": ");
			sqlite_type(w, b, &f->ty);
		}
		if (f->need_name)
		{
			FSEP();
			put(b, "\"name\": ");
			doc_name(b, t, f->docname, f->xkind, f->xns, xml);
		}
		else if (xml && f->xkind == INF_K_ELEMENT && f->docname &&
				 !(f->xns == t->ns || (f->xns && t->ns && strcmp(f->xns, t->ns) == 0)))
		{
			FSEP();
			put(b, "\"name\": ");
			doc_name(b, t, f->docname, f->xkind, f->xns, xml);
		}
		else if (xml && f->xkind == INF_K_ATTRIBUTE && f->xns)
		{
			FSEP();
			put(b, "\"name\": ");
			doc_name(b, t, f->docname, f->xkind, f->xns, xml);
		}
		if (f->optional)
		{
			FSEP();
			put(b, "\"optional\": true");
		}
		if (f->notnull)
		{
			FSEP();
			put(b, "\"nullable\": false");
		}
		if (f->ty.format)
		{
			FSEP();
			put(b, "\"format\": ");
			sd_buf_string(b, f->ty.format, strlen(f->ty.format));
		}
		if (!sqlite && f->ty.base == T_COMP)
		{
			FSEP();
			put(b, "\"shape\": ");
			shape_name(w, b, f->ty.comp);
		}
		if (!sqlite && f->ty.map)
		{
			FSEP();
			put(b, "\"map\": true");
		}
		if (xml && f->xkind == INF_K_ATTRIBUTE)
		{
			FSEP();
			put(b, "\"xml\": \"attribute\"");
		}
		if (xml && f->xkind == INF_K_TEXT)
		{
			FSEP();
			put(b, "\"xml\": \"text\"");
		}
		if (f->xml_item)
		{
			r_type		wrap = {0};

			wrap.ns = f->xns;
			FSEP();
			put(b, "\"xml_item\": ");
			doc_name(b, &wrap, f->xml_item, INF_K_ELEMENT, f->item_ns, xml);
		}
		if (f->noneof)
		{
			FSEP();
			put(b, "\"one_of\": {");
			for (int k = 0; k < f->noneof; k++)
			{
				put(b, k ? ", " : "");
				sd_buf_string(b, f->oneof_kind[k], strlen(f->oneof_kind[k]));
				put(b, ": ");
				sd_buf_string(b, f->oneof_col[k], strlen(f->oneof_col[k]));
			}
			put(b, "}");
		}
		put(b, "}");
#undef FSEP
	}
	if (nfo)
		put(b, "}");
	put(b, "}");
#undef SEP
}

static void
pg_coltype(wctx *w, const r_ty *ty)
{
	if (ty->base == T_COMP || ty->base == T_ENUM)
		qname(w, ty->comp->name);
	else if (ty->base == T_JSONB && w->c->xml)
		put(w->out, "xml");		/* XML keeps what no type fits as the element, verbatim */
	else
		put(w->out, pg_base(ty->base));
	if (ty->list)
		put(w->out, "[]");
}

/* a SQL string literal of s (standard_conforming_strings) */
static void
literal(sd_buf *out, const char *s, size_t len)
{
	put(out, "'");
	for (size_t i = 0; i < len; i++)
		sd_buf_put(out, s[i] == '\'' ? "''" : &s[i], s[i] == '\'' ? 2 : 1);
	put(out, "'");
}

static bool
build(rctx *c, sd_infer *inf, const sd_infer_options *o, sd_arena *a, sd_error *err,
	  r_type **root)
{
	const inf_node *n = inf->root;

	memset(c, 0, sizeof(*c));
	c->inf = inf;
	c->o = o;
	c->a = a;
	c->err = err;
	c->xml = inf->format == 2;
	inf->err = err;
	if (o->prefix)
		snprintf(c->prefix, sizeof(c->prefix), "%s", o->prefix);
	else
		snprintf(c->prefix, sizeof(c->prefix), "%s_", o->name);
	if (!c->xml && n->n_arr && kinds(n, false) == 1 && n->elem)
		n = n->elem;            /* top-level arrays: the shape of their elements */
	if (kinds(n, c->xml) == 0 || (!c->xml && (kinds(n, false) != 1 || !n->n_obj)))
	{
		strcpy(err->path, "$");
		return sd_error_set(err, SD_E_OPTIONS, -1, "%s",
							"the samples are not all objects (or all arrays of objects): "
							"a shape decodes an object");
	}
	return build_object(c, n, o->name, NULL, true, root);
}

bool
sd_infer_render_sql(sd_infer *inf, const sd_infer_options *o, sd_quote_fn quote, void *ud,
					sd_buf *out, sd_error *err)
{
	sd_arena	a;
	rctx		c;
	r_type	   *root;
	wctx		w;
	sd_buf		opt;
	bool		ok;

	sd_error_clear(err);
	if (inf->samples == 0)
		return true;
	sd_arena_init(&a, &inf->hooks);
	if (!build(&c, inf, o, &a, err, &root))
	{
		sd_arena_free(&a);
		return false;
	}
	w.c = &c;
	w.quote = quote;
	w.ud = ud;
	w.out = out;
	{
		char		head[128];

		snprintf(head, sizeof(head), "-- serde_infer: %u %s sample%s\n", inf->samples,
				 c.xml ? "XML" : "JSON", inf->samples == 1 ? "" : "s");
		put(out, head);
	}
	for (r_type *t = c.first; t; t = t->next)
	{
		put(out, "CREATE TYPE ");
		qname(&w, t->name);
		if (t->is_enum)
		{
			put(out, " AS ENUM (");
			for (uint32_t i = 0; i < t->enode->ndistinct; i++)
			{
				put(out, i ? ", " : "");
				literal(out, t->enode->dv[i], t->enode->dvlen[i]);
			}
			put(out, ");\n");
			continue;
		}
		put(out, " AS (");
		for (int i = 0; i < t->nf; i++)
		{
			put(out, i ? ",\n    " : "\n    ");
			quote(ud, t->f[i].col, out);
			put(out, " ");
			pg_coltype(&w, &t->f[i].ty);
		}
		put(out, t->nf ? "\n);\n" : ");\n");
	}
	sd_buf_init(&opt, &inf->hooks);
	for (r_type *t = c.first; t; t = t->next)
	{
		sd_buf		reg;

		if (t->is_enum)
			continue;
		sd_buf_reset(&opt);
		options_json(&w, &opt, t, false);
		put(out, "SELECT serde_register(");
		sd_buf_init(&reg, &inf->hooks);
		shape_name(&w, &reg, t);
		/* the shape name as a SQL literal: the JSON string's content */
		literal(out, reg.s ? reg.s + 1 : "", reg.s ? reg.len - 2 : 0);
		sd_buf_reset(&reg);
		put(out, ", ");
		{
			sd_buf		q;

			sd_buf_init(&q, &inf->hooks);
			if (o->schema)
			{
				quote(ud, o->schema, &q);
				put(&q, ".");
			}
			quote(ud, t->name, &q);
			literal(out, q.s ? q.s : "", q.len);
			sd_buf_free(&q);
		}
		put(out, ", ");
		literal(out, opt.s ? opt.s : "{}", opt.len);
		put(out, ");\n");
		sd_buf_free(&reg);
	}
	ok = !opt.failed && !out->failed;
	sd_buf_free(&opt);
	sd_arena_free(&a);
	if (!ok)
		return sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
	return true;
}

static void
no_quote(void *ud, const char *ident, sd_buf *out)
{
	put(out, ident);
}

bool
sd_infer_render_sqlite(sd_infer *inf, const sd_infer_options *o, sd_buf *out, sd_error *err)
{
	sd_arena	a;
	rctx		c;
	r_type	   *root;
	wctx		w;
	bool		first = true;
	sd_infer_options o2 = *o;

	sd_error_clear(err);
	if (inf->samples == 0)
		return true;
	o2.schema = NULL;
	sd_arena_init(&a, &inf->hooks);
	if (!build(&c, inf, &o2, &a, err, &root))
	{
		sd_arena_free(&a);
		return false;
	}
	w.c = &c;
	w.quote = no_quote;
	w.ud = NULL;
	w.out = out;
	put(out, "{");
	for (r_type *t = c.first; t; t = t->next)
	{
		if (t->is_enum || t->is_pair)
			continue;
		put(out, first ? "" : ",\n ");
		first = false;
		shape_name(&w, out, t);
		put(out, ": ");
		options_json(&w, out, t, true);
	}
	put(out, "}");
	sd_arena_free(&a);
	if (out->failed)
		return sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
	return true;
}
