/*
 * engine_xml.c — the rules of the plan that only XML documents have (DESIGN §3 XML, issue 13),
 * applied to the XML walker's members (walker.h (a)-(c)) and written into the value tape the
 * hosts already convert: members matched by (kind, namespace, local name) against the plan's
 * XML facts (sd_field xml_kind / xml_path / xml_item), an element's text as the scalar of a
 * scalar column (trimmed for non-text kinds, then sd_convert_string as for JSON strings),
 * nested composites from child elements, flattened lists (repeated elements, adjacent or not,
 * accumulated; none = []) and wrapped lists (xml_item), `path` through nested elements,
 * xsi:nil, attributes of the xml: / xsi: namespaces never unknown, unknown elements and
 * attributes per `unknown`, missing members, `map` over child elements, `xml` columns (the
 * element verbatim), and XPath error paths (1-based positions on list elements, prefixes as
 * written) with line and column.  The first error stops the decode (serde_errors on XML
 * reports that one).  Not handled yet (unsupported(): "decoding XML: ... is not supported yet",
 * which the PostgreSQL adapter raises as 0A000): `extra`, unions, json/jsonb columns, lists of
 * lists.  Scalars go through scalar_to_tape.c like JSON's: no rule of a column kind is repeated here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "walker.h"
#include "xml_walk.h"
#include "engine_xml.h"
#include "xmlnames.h"

#define XSI_NS "http://www.w3.org/2001/XMLSchema-instance"
#define XMLNS_XML "http://www.w3.org/XML/1998/namespace"
#define XP_MAX 256

typedef struct XStep
{
	uint8_t		kind;			/* sd_xml_kind */
	const char *prefix;
	size_t		plen;
	const char *local;
	size_t		llen;
	uint64_t	pos;			/* 1-based position in a list, 0 none */
} XStep;

typedef struct X
{
	sd_decoder *d;
	sd_xcursor *xc;
	sd_wcursor *cur;
	const sd_walker_ops *ops;
	sd_error   *err;
	XStep		path[XP_MAX];
	uint32_t	depth;
} X;

/* a list being accumulated: tape indexes of its elements */
typedef struct Acc
{
	uint32_t   *idx;
	uint32_t	n;
	uint32_t	cap;
} Acc;

static void
build_xpath(X *x)
{
	x->err->path[0] = '\0';
	for (uint32_t i = 0; i < x->depth && i < XP_MAX; i++)
	{
		const XStep *s = &x->path[i];

		if (s->kind == SD_XML_ATTRIBUTE)
			sd_xpath_attribute(x->err->path, s->prefix, s->plen, s->local, s->llen);
		else if (s->kind == SD_XML_TEXT)
			sd_xpath_text(x->err->path);
		else
			sd_xpath_element(x->err->path, s->prefix, s->plen, s->local, s->llen, s->pos);
	}
	if (!x->err->path[0])
		strcpy(x->err->path, "/");
}

static bool xfail(X *x, sd_code code, const sd_wtok *at, const char *fmt,...)
			__attribute__((format(printf, 4, 5)));

/* The error at the current path; at: the token whose line/column locate it (or NULL). */
static bool
xfail(X *x, sd_code code, const sd_wtok *at, const char *fmt,...)
{
	va_list		ap;

	build_xpath(x);
	x->err->code = sd_code_for_doc(code, SD_DOC_XML);
	x->err->doc = SD_DOC_XML;
	x->err->offset = at ? at->offset : -1;
	x->err->line = at ? (uint32_t) at->w[0] : 0;
	x->err->column = at ? (uint32_t) at->w[1] : 0;
	va_start(ap, fmt);
	vsnprintf(x->err->problem, sizeof(x->err->problem), fmt, ap);
	va_end(ap);
	return false;
}

/* a walker op failed: the reader's error (malformed XML, depth, memory) as it is */
static bool
walker_failed(X *x)
{
	const sd_error *re = sd_xml_walker_error(x->xc);

	if (re->code != SD_OK)
	{
		*x->err = *re;
		x->err->doc = SD_DOC_XML;
		return false;
	}
	return xfail(x, x->cur->fail.code, NULL, "%s",
				 x->cur->fail.problem ? x->cur->fail.problem : "XML walker error");
}

static bool
push(X *x, uint8_t kind, const sd_wkey *k, uint64_t pos)
{
	if (x->depth >= XP_MAX)
		return xfail(x, SD_E_DEPTH, NULL, "XML nesting deeper than %d", XP_MAX);
	XStep	   *s = &x->path[x->depth++];

	s->kind = kind;
	s->prefix = k ? k->prefix : NULL;
	s->plen = k ? k->prefix_len : 0;
	s->local = k ? k->s : NULL;
	s->llen = k ? k->len : 0;
	s->pos = pos;
	return true;
}

static bool
push_name(X *x, uint8_t kind, const sd_xml_name *nm)
{
	sd_wkey		k;
	const char *p = NULL;
	size_t		pl = 0;

	memset(&k, 0, sizeof(k));
	if (nm->ns && nm->ns[0] && kind == SD_XML_ELEMENT)
		sd_xml_walker_prefix(x->xc, nm->ns, strlen(nm->ns), &p, &pl);
	else if (nm->ns && nm->ns[0])
		sd_xml_walker_prefix(x->xc, nm->ns, strlen(nm->ns), &p, &pl);
	k.s = nm->local ? nm->local : "";
	k.len = strlen(k.s);
	k.prefix = p;
	k.prefix_len = p ? pl : 0;
	return push(x, kind, &k, 0);
}

static bool
reserve(X *x, uint32_t n, uint32_t *first)
{
	sd_decoder *d = x->d;
	uint32_t	need = d->tape_len + n;

	if (need < d->tape_len ||
		(need > d->tape_cap && !sd_grow(&d->hooks, (void **) &d->tape, &d->tape_cap, need, sizeof(sd_val))))
		return xfail(x, SD_E_NOMEM, NULL, "out of memory");
	*first = d->tape_len;
	memset(&d->tape[*first], 0, sizeof(sd_val) * n);
	d->tape_len = need;
	return true;
}

static bool
acc_add(X *x, Acc *a, uint32_t idx)
{
	if (a->n == a->cap)
	{
		uint32_t	ncap = a->cap ? a->cap * 2 : 8;
		uint32_t   *ni = sd_arena_alloc(&x->d->arena, sizeof(uint32_t) * ncap);

		if (!ni)
			return xfail(x, SD_E_NOMEM, NULL, "out of memory");
		if (a->n)
			memcpy(ni, a->idx, sizeof(uint32_t) * a->n);
		a->idx = ni;
		a->cap = ncap;
	}
	a->idx[a->n++] = idx;
	return true;
}

/* the accumulated elements as one contiguous array in slot */
static bool
acc_finish(X *x, Acc *a, uint32_t slot, int64_t off)
{
	uint32_t	first = 0;

	if (a->n && !reserve(x, a->n, &first))
		return false;
	for (uint32_t i = 0; i < a->n; i++)
		x->d->tape[first + i] = x->d->tape[a->idx[i]];
	sd_val	   *out = &x->d->tape[slot];

	out->tag = SD_V_ARRAY;
	out->u.first = first;
	out->len = a->n;
	out->offset = off < 0 ? 0 : (uint32_t) off;
	return true;
}

static bool
ns_eq(const char *want, const char *ns, size_t ns_len)
{
	if (!want || !want[0])
		return !ns || ns_len == 0;
	return ns && strlen(want) == ns_len && memcmp(want, ns, ns_len) == 0;
}

static bool
name_eq(const sd_xml_name *nm, const sd_wkey *k)
{
	return nm->local && strlen(nm->local) == k->len && memcmp(nm->local, k->s, k->len) == 0 &&
		ns_eq(nm->ns, k->ns, k->ns_len);
}

static bool
is_xsi_nil(const sd_wkey *k, const sd_wtok *t)
{
	return k->xml_kind == SD_XML_ATTRIBUTE && k->len == 3 && memcmp(k->s, "nil", 3) == 0 &&
		ns_eq(XSI_NS, k->ns, k->ns_len) &&
		((t->len == 4 && memcmp(t->s, "true", 4) == 0) || (t->len == 1 && t->s[0] == '1'));
}

static bool
never_unknown_attr(const sd_wkey *k)
{
	return ns_eq(XSI_NS, k->ns, k->ns_len) || ns_eq(XMLNS_XML, k->ns, k->ns_len);
}

static bool
skip_elem(X *x, const sd_wtok *t)
{
	int			r = x->ops->skip_fast ? x->ops->skip_fast(x->cur, t, UINT32_MAX) : 0;

	if (r < 0)
		return walker_failed(x);
	if (r > 0)
		return true;
	/* walk it through */
	if (x->ops->object_begin(x->cur, t) < 0)
		return walker_failed(x);
	sd_wkey		k;
	sd_wtok		c;

	while ((r = x->ops->object_next(x->cur, &k, &c, NULL, 0)) > 0)
		if (c.kind == SD_J_OBJECT && !skip_elem(x, &c))
			return false;
	return r < 0 ? walker_failed(x) : true;
}

static bool
unsupported(X *x, const sd_wtok *at, const char *what)
{
	return xfail(x, SD_E_INTERNAL, at, "decoding XML: %s is not supported yet", what);
}

/* ---- scalars ------------------------------------------------------------------------------ */

/* rewrites a conversion's "found string ..." into the XML description (sd_describe_text) */
static void
xml_describe_fix(sd_error *err)
{
	char	   *p = strstr(err->problem, "found string \"");

	if (!p)
		return;
	char		tail[SD_PROBLEM_MAX];
	const char *rest = p + 13;	/* at the opening quote */

	if (rest[0] == '"' && rest[1] == '"')
		snprintf(tail, sizeof(tail), "found empty text%s", rest + 2);
	else
		snprintf(tail, sizeof(tail), "found text %s", rest);
	size_t		room = sizeof(err->problem) - (size_t) (p - err->problem);

	snprintf(p, room, "%s", tail);
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool
text_kind_error(X *x, const sd_node *n, const char *s, size_t len, const sd_wtok *at)
{
	char		desc[256];

	sd_describe_text(desc, sizeof(desc), s, len);
	return xfail(x, SD_E_KIND, at, "expected %s, found %s", sd_expected_name(n), desc);
}

/* text s into slot as a scalar of node n; at locates errors */
static bool
scalar(X *x, const sd_node *n, const char *s, size_t len, uint32_t slot, const sd_wtok *at)
{
	sd_val		v;

	if (n->kind != SD_K_TEXT && n->kind != SD_K_OTHER)
	{
		while (len && is_space(s[0]))
			s++, len--;
		while (len && is_space(s[len - 1]))
			len--;
	}
	if (n->kind == SD_K_JSON || n->kind == SD_K_JSONB || n->kind == SD_K_ARRAY ||
		n->kind == SD_K_COMPOSITE)
		return unsupported(x, at, "this column kind from text");
	memset(&v, 0, sizeof(v));
	x->err->offset = at ? at->offset : -1;
	bool		ok;

	switch (n->kind)
	{
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
		case SD_K_FLOAT4:
		case SD_K_FLOAT8:
		case SD_K_NUMERIC:
			/* numbers from text: the JSON number rules (a text that is none is a kind error) */
			ok = len > 0 && sd_convert_number(n, s, len, &v, x->err);
			if (!ok && (len == 0 || x->err->code == SD_E_KIND || x->err->code == SD_E_SYNTAX))
				return text_kind_error(x, n, s, len, at);
			break;
		case SD_K_BOOL:
			if ((len == 4 && memcmp(s, "true", 4) == 0) || (len == 1 && s[0] == '1'))
				ok = sd_convert_bool(n, true, &v, x->err);
			else if ((len == 5 && memcmp(s, "false", 5) == 0) || (len == 1 && s[0] == '0'))
				ok = sd_convert_bool(n, false, &v, x->err);
			else
				return text_kind_error(x, n, s, len, at);
			break;
		default:
			ok = sd_convert_string(&x->d->arena, n, s, len, &v, x->err);
			break;
	}
	if (!ok)
	{
		char		problem[SD_PROBLEM_MAX];

		xml_describe_fix(x->err);
		memcpy(problem, x->err->problem, sizeof(problem));
		return xfail(x, x->err->code, at, "%s", problem);
	}
	v.offset = at && at->offset > 0 ? (uint32_t) at->offset : 0;
	x->d->tape[slot] = v;
	return true;
}

/* ---- elements ----------------------------------------------------------------------------- */

static bool elem_value(X *x, const sd_node *n, uint32_t slot, const sd_wtok *t);

/* An element (not begun) as a scalar: its text; xsi:nil -> NULL; child elements an error. */
static bool
elem_scalar(X *x, const sd_node *n, uint32_t slot, const sd_wtok *t)
{
	const char *text = "";
	size_t		tlen = 0;
	bool		nil = false;
	sd_wkey		k;
	sd_wtok		c;
	int			r;

	if (n->kind == SD_K_OTHER && n->type && n->type->name && strcmp(n->type->name, "xml") == 0)
	{
		/* an xml column: the element verbatim, from its '<' to the end of its end tag */
		sd_val		span;

		if (!skip_elem(x, t))
			return false;
		memset(&span, 0, sizeof(span));
		if (x->ops->capture(x->cur, t, SD_CAP_JSON, &span) < 0)
			return walker_failed(x);
		span.tag = SD_V_STR;
		span.offset = t->offset > 0 ? (uint32_t) t->offset : 0;
		x->d->tape[slot] = span;
		return true;
	}
	if (x->ops->object_begin(x->cur, t) < 0)
		return walker_failed(x);
	while ((r = x->ops->object_next(x->cur, &k, &c, NULL, 0)) > 0)
	{
		if (k.xml_kind == SD_XML_ATTRIBUTE)
		{
			if (is_xsi_nil(&k, &c))
				nil = true;
			continue;
		}
		if (k.xml_kind == SD_XML_TEXT)
		{
			text = c.s;
			tlen = c.len;
			continue;
		}
		if (!push(x, SD_XML_ELEMENT, &k, 0))
			return false;
		return xfail(x, SD_E_KIND, &c, "expected %s, found an element", sd_expected_name(n));
	}
	if (r < 0)
		return walker_failed(x);
	if (nil)
	{
		x->d->tape[slot].tag = SD_V_NULL;
		return true;
	}
	return scalar(x, n, text, tlen, slot, t);
}

/* the members of an element begun against the fields of n (below path step `level`) */
typedef struct Comp
{
	const sd_node *n;
	uint32_t	row;
	uint8_t    *seen;
	Acc		   *acc;
	bool		nil;
	const sd_wtok *at;			/* the element (missing members are located at it) */
} Comp;

static bool
prefix_eq(const sd_field *f, const sd_field *anchor, int level)
{
	for (int i = 0; i < level; i++)
		if (!anchor || !f->xml_path || f->npath <= i ||
			!f->xml_path[i].local || !anchor->xml_path[i].local ||
			strcmp(f->xml_path[i].local, anchor->xml_path[i].local) != 0 ||
			!ns_eq(f->xml_path[i].ns, anchor->xml_path[i].ns,
				   anchor->xml_path[i].ns ? strlen(anchor->xml_path[i].ns) : 0))
			return false;
	return true;
}

static bool
mapped(const sd_field *f)
{
	return !f->skip && !f->is_extra && f->node && (f->xml_kind == SD_XML_TEXT || f->xml_path);
}

/* a wrapped list: the element holds its items (f->xml_item) */
static bool
wrapped_list(X *x, const sd_field *f, uint32_t slot, const sd_wtok *t)
{
	Acc			a = {0};
	sd_wkey		k;
	sd_wtok		c;
	int			r;

	if (x->ops->object_begin(x->cur, t) < 0)
		return walker_failed(x);
	while ((r = x->ops->object_next(x->cur, &k, &c, NULL, 0)) > 0)
	{
		if (k.xml_kind != SD_XML_ELEMENT)
			continue;
		if (!name_eq(&f->xml_item, &k))
		{
			if (f->node->elem->kind == SD_K_COMPOSITE && f->node->elem->reject_unknown)
			{
				if (!push(x, SD_XML_ELEMENT, &k, 0))
					return false;
				return xfail(x, SD_E_UNKNOWN, &c, "unknown member");
			}
			if (!skip_elem(x, &c))
				return false;
			continue;
		}
		uint32_t	e = 0;

		if (!reserve(x, 1, &e) || !push(x, SD_XML_ELEMENT, &k, a.n + 1) ||
			!elem_value(x, f->node->elem, e, &c) || !acc_add(x, &a, e))
			return false;
		x->depth--;
	}
	if (r < 0)
		return walker_failed(x);
	return acc_finish(x, &a, slot, t->offset);
}

static bool members(X *x, Comp *cp, int level, const sd_field *anchor);

/* field fi of cp->n found as element k (value t, not begun) */
static bool
field_element(X *x, Comp *cp, int fi, const sd_wkey *k, const sd_wtok *t)
{
	const sd_field *f = &cp->n->fields[fi];
	uint32_t	slot = cp->row + (uint32_t) f->col;
	const sd_node *fn = f->node;

	if (fn->kind == SD_K_ARRAY && !fn->is_map && !f->xml_item.local)
	{
		/* a flattened list: this occurrence is one more element */
		uint32_t	e = 0;

		cp->seen[fi] = 1;
		if (!reserve(x, 1, &e) || !push(x, SD_XML_ELEMENT, k, cp->acc[fi].n + 1) ||
			!elem_value(x, fn->elem, e, t) || !acc_add(x, &cp->acc[fi], e))
			return false;
		x->depth--;
		return true;
	}
	if (!push(x, SD_XML_ELEMENT, k, 0))
		return false;
	if (cp->seen[fi])
		return xfail(x, SD_E_DUPLICATE, t, "duplicate member");
	cp->seen[fi] = 1;
	if (fn->kind == SD_K_ARRAY && !fn->is_map)
	{
		if (!wrapped_list(x, f, slot, t))
			return false;
	}
	else if (!elem_value(x, fn, slot, t))
		return false;
	if (!f->nullable && x->d->tape[slot].tag == SD_V_NULL)
		return xfail(x, SD_E_NOTNULL, t, "null is not allowed for column \"%s\"", f->column);
	x->depth--;
	return true;
}

static bool
members(X *x, Comp *cp, int level, const sd_field *anchor)
{
	const sd_node *n = cp->n;
	sd_wkey		k;
	sd_wtok		t;
	int			r;

	while ((r = x->ops->object_next(x->cur, &k, &t, NULL, 0)) > 0)
	{
		int			found = -1;
		bool		step = false;

		for (int i = 0; i < n->nfields && found < 0; i++)
		{
			const sd_field *f = &n->fields[i];

			if (!mapped(f) || f->npath <= level || !prefix_eq(f, anchor, level))
				continue;
			if (k.xml_kind == SD_XML_TEXT)
			{
				if (f->xml_kind == SD_XML_TEXT && f->npath == level + 1)
					found = i;
				continue;
			}
			if (!f->xml_path)
				continue;
			if (f->npath == level + 1)
			{
				if (f->xml_kind == k.xml_kind && name_eq(&f->xml_path[level], &k))
					found = i;
			}
			else if (k.xml_kind == SD_XML_ELEMENT && name_eq(&f->xml_path[level], &k))
			{
				found = i;
				step = true;
			}
		}
		if (k.xml_kind == SD_XML_TEXT)
		{
			if (found >= 0)
			{
				const sd_field *f = &n->fields[found];

				cp->seen[found] = 1;
				if (!scalar(x, f->node, t.s, t.len, cp->row + (uint32_t) f->col, cp->at))
					return false;
			}
			continue;
		}
		if (k.xml_kind == SD_XML_ATTRIBUTE)
		{
			if (found >= 0)
			{
				const sd_field *f = &n->fields[found];

				if (!push(x, SD_XML_ATTRIBUTE, &k, 0))
					return false;
				cp->seen[found] = 1;
				if (!scalar(x, f->node, t.s, t.len, cp->row + (uint32_t) f->col, &t))
					return false;
				x->depth--;
				continue;
			}
			if (level == 0 && is_xsi_nil(&k, &t))
				cp->nil = true;
			if (never_unknown_attr(&k) || !n->reject_unknown)
				continue;
			if (!push(x, SD_XML_ATTRIBUTE, &k, 0))
				return false;
			return xfail(x, SD_E_UNKNOWN, &t, "unknown member");
		}
		/* an element */
		if (found < 0)
		{
			if (n->reject_unknown)
			{
				if (!push(x, SD_XML_ELEMENT, &k, 0))
					return false;
				return xfail(x, SD_E_UNKNOWN, &t, "unknown member");
			}
			if (!skip_elem(x, &t))
				return false;
			continue;
		}
		if (step)
		{
			/* a `path` step: the fields below it are read from its members */
			if (!push(x, SD_XML_ELEMENT, &k, 0))
				return false;
			if (x->ops->object_begin(x->cur, &t) < 0)
				return walker_failed(x);
			if (!members(x, cp, level + 1, &n->fields[found]))
				return false;
			x->depth--;
			continue;
		}
		if (!field_element(x, cp, found, &k, &t))
			return false;
	}
	return r < 0 ? walker_failed(x) : true;
}

/* An element (not begun) as a composite row in slot. */
static bool
elem_composite(X *x, const sd_node *n, uint32_t slot, const sd_wtok *t)
{
	Comp		cp;
	uint32_t	row = 0;

	if (n->tag)
		return unsupported(x, t, "a union (tag)");
	if (n->extra_col >= 0)
		return unsupported(x, t, "an `extra` column");
	if (x->ops->object_begin(x->cur, t) < 0)
		return walker_failed(x);
	if (!reserve(x, (uint32_t) n->nfields, &row))
		return false;
	cp.n = n;
	cp.row = row;
	cp.nil = false;
	cp.at = t;
	cp.seen = sd_arena_alloc(&x->d->arena, (size_t) n->nfields + 1);
	cp.acc = sd_arena_alloc(&x->d->arena, sizeof(Acc) * ((size_t) n->nfields + 1));
	if (!cp.seen || !cp.acc)
		return xfail(x, SD_E_NOMEM, t, "out of memory");
	memset(cp.seen, 0, (size_t) n->nfields + 1);
	memset(cp.acc, 0, sizeof(Acc) * ((size_t) n->nfields + 1));
	{
		sd_val	   *out = &x->d->tape[slot];

		out->tag = SD_V_ROW;
		out->u.first = row;
		out->len = (uint32_t) n->nfields;
		out->offset = t->offset < 0 ? 0 : (uint32_t) t->offset;
	}
	if (!members(x, &cp, 0, NULL))
		return false;
	if (cp.nil)
	{
		x->d->tape[slot].tag = SD_V_NULL;
		return true;
	}
	for (int i = 0; i < n->nfields; i++)
	{
		const sd_field *f = &n->fields[i];
		sd_val	   *s = &x->d->tape[row + (uint32_t) f->col];

		if (!mapped(f))
			continue;			/* skipped: NULL */
		if (f->node->kind == SD_K_ARRAY && !f->node->is_map && !f->xml_item.local &&
			f->xml_kind == SD_XML_ELEMENT)
		{
			if (!acc_finish(x, &cp.acc[i], row + (uint32_t) f->col, t->offset))
				return false;
			continue;
		}
		if (cp.seen[i])
			continue;
		if (f->has_default)
		{
			s->tag = SD_V_DEFAULT;
			s->len = (uint32_t) f->default_index;
			s->offset = t->offset < 0 ? 0 : (uint32_t) t->offset;
			continue;
		}
		if (f->optional)
			continue;
		/* missing: at the element, its path written down to the field */
		uint32_t	depth = x->depth;

		for (int j = 0; j < f->npath && f->xml_path; j++)
			if (!push_name(x, j == f->npath - 1 ? (uint8_t) f->xml_kind : SD_XML_ELEMENT,
						   &f->xml_path[j]))
				return false;
		if (f->xml_kind == SD_XML_TEXT && !push(x, SD_XML_TEXT, NULL, 0))
			return false;
		xfail(x, SD_E_MISSING, t, "missing required member");
		x->depth = depth;
		return false;
	}
	return true;
}

/* map: true over the element's child elements: (local name, value) pairs in document order */
static bool
elem_map(X *x, const sd_node *n, uint32_t slot, const sd_wtok *t)
{
	const sd_node *pair = n->elem;
	Acc			a = {0};
	sd_wkey		k;
	sd_wtok		c;
	int			r;
	bool		nil = false;

	if (x->ops->object_begin(x->cur, t) < 0)
		return walker_failed(x);
	while ((r = x->ops->object_next(x->cur, &k, &c, NULL, 0)) > 0)
	{
		if (k.xml_kind == SD_XML_ATTRIBUTE)
		{
			nil = nil || is_xsi_nil(&k, &c);
			continue;
		}
		if (k.xml_kind != SD_XML_ELEMENT)
			continue;
		uint32_t	e = 0,
					kv = 0;

		if (!reserve(x, 1, &e) || !reserve(x, 2, &kv) || !push(x, SD_XML_ELEMENT, &k, 0))
			return false;
		x->d->tape[e].tag = SD_V_ROW;
		x->d->tape[e].u.first = kv;
		x->d->tape[e].len = 2;
		char	   *key = sd_arena_strndup(&x->d->arena, k.s, k.len);	/* names die with the reader */

		if (!key)
			return xfail(x, SD_E_NOMEM, &c, "out of memory");
		if (!scalar(x, pair->fields[0].node, key, k.len, kv, &c) ||
			!elem_value(x, pair->fields[1].node, kv + 1, &c) || !acc_add(x, &a, e))
			return false;
		x->depth--;
	}
	if (r < 0)
		return walker_failed(x);
	if (nil)
	{
		x->d->tape[slot].tag = SD_V_NULL;
		return true;
	}
	return acc_finish(x, &a, slot, t->offset);
}

static bool
elem_value(X *x, const sd_node *n, uint32_t slot, const sd_wtok *t)
{
	if (n->kind == SD_K_COMPOSITE)
		return elem_composite(x, n, slot, t);
	if (n->kind == SD_K_ARRAY && n->is_map)
		return elem_map(x, n, slot, t);
	if (n->kind == SD_K_ARRAY)
		return unsupported(x, t, "a list directly inside a list");
	if (n->kind == SD_K_JSON || n->kind == SD_K_JSONB)
		return unsupported(x, t, "a json/jsonb column");
	return elem_scalar(x, n, slot, t);
}

/* ---- entry point -------------------------------------------------------------------------- */

bool
sd_decode_xml(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
			  size_t len, const sd_limits *limits, uint32_t *root, sd_error *err)
{
	X			x;
	sd_wtok		t;
	sd_wkey		rk;
	uint32_t	first = 0;
	bool		ok;

	sd_error_clear(err);
	err->doc = SD_DOC_XML;
	strcpy(err->path, "/");
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
	memset(&x, 0, sizeof(x));
	x.d = d;
	x.err = err;
	x.xc = sd_xml_walker_open(d, doc, len, limits, err);
	if (!x.xc)
		return false;
	x.cur = sd_xml_walker_cursor(x.xc);
	x.ops = x.cur->ops;
	if (!node)
		node = sd_plan_root(plan);
	if (x.ops->peek(x.cur, &t) < 0)
	{
		ok = walker_failed(&x);
		goto done;
	}
	sd_xml_walker_root_key(x.xc, &rk);
	ok = push(&x, SD_XML_ELEMENT, &rk, 0);
	if (ok && node == sd_plan_root(plan))
	{
		const sd_xml_name *want = sd_plan_xml_root(plan);

		if (want && want->local && !name_eq(want, &rk))
		{
			char		a[300],
						b[300];
			sd_xml_name got = {NULL, NULL};
			char		gl[256],
						gn[256];

			snprintf(gl, sizeof(gl), "%.*s", (int) rk.len, rk.s);
			snprintf(gn, sizeof(gn), "%.*s", (int) rk.ns_len, rk.ns ? rk.ns : "");
			got.local = gl;
			got.ns = rk.ns_len ? gn : NULL;
			ok = xfail(&x, SD_E_KIND, &t, "expected root element %s, found %s",
					   sd_xml_clark(want, a, sizeof(a)), sd_xml_clark(&got, b, sizeof(b)));
		}
	}
	ok = ok && reserve(&x, 1, &first) && elem_value(&x, node, first, &t);
	if (ok && x.ops->finish && x.ops->finish(x.cur) < 0)
		ok = walker_failed(&x);
	if (ok)
		*root = first;
done:
	sd_xml_walker_close(x.xc);
	return ok;
}
