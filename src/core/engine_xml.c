/*
 * engine_xml.c — the rule engine's XML branch (DESIGN §3 XML, issue 13; walker.h (a)-(c)).
 * engine.c's decode_object takes it once per object when the walker is XML (SD_WF_XML): an
 * element's members are matched here by (xml_kind, namespace, local name) against the plan's
 * XML facts (sd_field xml_kind / xml_path / xml_item, xmlnames.c), and every rule is applied by
 * engine.c through engine_int.h: missing / default / optional, NOT NULL, unknown (xml: and xsi:
 * attributes never unknown; a union's tag attribute neither), duplicates, unions (the tag is an
 * attribute: select_variant), serde_errors' collection and recovery, limits, XPath and line /
 * column.  What only XML has is here: flattened lists (repeated elements, adjacent or not,
 * accumulated; none = []), wrapped lists (xml_item), a list directly inside a list (every
 * child element of its element is an item), `path` steps through nested elements, the text
 * member, xsi:nil, scalars from text (trimmed for non-text kinds, booleans true/false/1/0, an
 * empty element '' for text and an error for other kinds, "found text ..." descriptions),
 * `map` over child elements, `xml` columns (the element verbatim), the missing element's XPath
 * with the prefix bound in scope, `extra` (the unmapped elements and attributes as a JSON
 * object).  Refused with "decoding XML: ... is not supported" (the PostgreSQL adapter raises
 * 0A000): json/jsonb columns other than `extra` (an `xml` column keeps the element verbatim).  Entry points: sd_decode_xml (first error) and sd_check_xml_found (every
 * violation), with the root element check.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "walker.h"
#include "engine_int.h"
#include "xml_walk.h"
#include "engine_xml.h"
#include "xmlnames.h"

#define XSI_NS "http://www.w3.org/2001/XMLSchema-instance"
#define XMLNS_XML "http://www.w3.org/XML/1998/namespace"

/* a list being accumulated: tape indexes of its elements */
typedef struct Acc
{
	uint32_t   *idx;
	uint32_t	n;
	uint32_t	cap;
} Acc;

static bool xv(Eng *e, sd_wtok *t, const sd_node *n, Dest dst, int64_t at);

static bool
unsupported(Eng *e, int64_t off, const char *what)
{
	return sd_eng_fail(e, SD_E_UNSUPPORTED, off, "decoding XML: %s is not supported yet", what);
}

static bool
acc_add(Eng *e, Acc *a, uint32_t idx, int64_t off)
{
	if (a->n == a->cap)
	{
		uint32_t	ncap = a->cap ? a->cap * 2 : 8;
		uint32_t   *ni = sd_arena_alloc(&e->d->arena, sizeof(uint32_t) * ncap);

		if (!ni)
			return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
		if (a->n)
			memcpy(ni, a->idx, sizeof(uint32_t) * a->n);
		a->idx = ni;
		a->cap = ncap;
	}
	a->idx[a->n++] = idx;
	return true;
}

/* the accumulated elements as one contiguous array in dst */
static bool
acc_finish(Eng *e, Acc *a, Dest dst, int64_t off)
{
	uint32_t	first = 0;

	if (a->n && !sd_eng_reserve_tape(e, a->n, &first, off))
		return false;
	for (uint32_t i = 0; i < a->n; i++)
		e->d->tape[first + i] = e->d->tape[a->idx[i]];
	sd_val	   *out = slot(e, dst);

	out->tag = SD_V_ARRAY;
	out->u.first = first;
	out->len = a->n;
	out->offset = tape_off(off);
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

/* ---- paths ------------------------------------------------------------------------------- */

/* XPath from the same stack (walker.h (c)): elements with their prefix and 1-based position,
 * attributes, text; "/" alone for the document */
void
sd_eng_xpath(Eng *e)
{
	const sd_pathent *pe = (const sd_pathent *) e->d->path;

	e->err->path[0] = '\0';
	for (uint32_t i = 0; i < e->depth && i < e->d->path_cap; i++)
	{
		if (pe[i].seg == SD_SEG_ATTRIBUTE)
			sd_xpath_attribute(e->err->path, pe[i].prefix, pe[i].prefix_len, pe[i].name, pe[i].len);
		else if (pe[i].seg == SD_SEG_TEXT)
			sd_xpath_text(e->err->path);
		else
			sd_xpath_element(e->err->path, pe[i].prefix, pe[i].prefix_len, pe[i].name, pe[i].len,
							 pe[i].index);
	}
	if (!e->err->path[0])
		strcpy(e->err->path, "/");
}

/* ---- scalars from text -------------------------------------------------------------------- */

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
text_kind_error(Eng *e, const sd_node *n, const char *s, size_t len, int64_t at)
{
	char		desc[256];

	sd_describe_text(desc, sizeof(desc), s, len);
	return sd_eng_fail(e, SD_E_KIND, at, "expected %s, found %s", sd_expected_name(n), desc);
}

/* text s into dst as a scalar of node n; at locates errors */
static bool
text_value(Eng *e, const sd_node *n, const char *s, size_t len, Dest dst, int64_t at)
{
	sd_val		v;
	bool		ok;

	if (n->kind != SD_K_TEXT && n->kind != SD_K_OTHER)
	{
		while (len && is_space(s[0]))
			s++, len--;
		while (len && is_space(s[len - 1]))
			len--;
	}
	if (n->kind == SD_K_JSON || n->kind == SD_K_JSONB || n->kind == SD_K_ARRAY ||
		n->kind == SD_K_COMPOSITE)
		return unsupported(e, at, "this column kind from text");
	memset(&v, 0, sizeof(v));
	e->err->offset = at;
	switch (n->kind)
	{
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
		case SD_K_FLOAT4:
		case SD_K_FLOAT8:
		case SD_K_NUMERIC:
			/* numbers from text: the JSON number rules (a text that is none is a kind error) */
			ok = len > 0 && sd_convert_number(n, s, len, &v, e->err);
			if (!ok && (len == 0 || e->err->code == SD_E_KIND || e->err->code == SD_E_SYNTAX))
				return text_kind_error(e, n, s, len, at);
			break;
		case SD_K_BOOL:
			if ((len == 4 && memcmp(s, "true", 4) == 0) || (len == 1 && s[0] == '1'))
				ok = sd_convert_bool(n, true, &v, e->err);
			else if ((len == 5 && memcmp(s, "false", 5) == 0) || (len == 1 && s[0] == '0'))
				ok = sd_convert_bool(n, false, &v, e->err);
			else
				return text_kind_error(e, n, s, len, at);
			break;
		default:
			ok = sd_convert_string(&e->d->arena, n, s, len, &v, e->err);
			break;
	}
	if (!ok)
	{
		char		problem[SD_PROBLEM_MAX];

		xml_describe_fix(e->err);
		memcpy(problem, e->err->problem, sizeof(problem));
		return sd_eng_fail(e, e->err->code, at, "%s", problem);
	}
	v.offset = tape_off(at);
	*slot(e, dst) = v;
	return true;
}

/* ---- elements as values ------------------------------------------------------------------- */

/* An element (not begun) as a scalar: its text; xsi:nil -> NULL; a child element an error. */
static bool
element_scalar(Eng *e, const sd_node *n, Dest dst, sd_wtok *t)
{
	const char *text = "";
	size_t		tlen = 0;
	bool		nil = false;
	bool		bad = false;
	uint32_t	depth = e->depth;
	sd_wkey		k;
	sd_wtok		c;
	int			r;

	if (e->ops->object_begin(e->cur, t) < 0)
		return sd_eng_walker_failed(e);
	while ((r = e->object_next(e->cur, &k, &c, NULL, 0)) > 0)
	{
		if (k.xml_kind == SD_XML_ATTRIBUTE)
		{
			nil = nil || is_xsi_nil(&k, &c);
			continue;
		}
		if (k.xml_kind == SD_XML_TEXT)
		{
			text = c.s;
			tlen = c.len;
			continue;
		}
		if (!bad)
		{
			if (!sd_eng_enter_xml(e, SD_SEG_ELEMENT, &k, 0, c.offset))
				return false;
			sd_eng_fail(e, SD_E_KIND, c.offset, "expected %s, found an element", sd_expected_name(n));
			e->depth = depth;
			bad = true;
			if (!e->collect)
				return false;
		}
		/* serde_errors: the rest of the element is still walked */
		if (!sd_eng_skip_value(e, &c))
			return false;
	}
	if (r < 0)
		return sd_eng_walker_failed(e);
	e->consumed = true;
	if (bad)
		return false;
	if (nil)
	{
		slot(e, dst)->tag = SD_V_NULL;
		return true;
	}
	return text_value(e, n, text, tlen, dst, t->offset);
}

/* An `xml` column: the element verbatim, from its '<' to the end of its end tag. */
static bool
element_verbatim(Eng *e, Dest dst, sd_wtok *t)
{
	sd_val		span;

	if (!sd_eng_skip_value(e, t))
		return false;
	e->consumed = true;
	memset(&span, 0, sizeof(span));
	if (e->ops->capture(e->cur, t, SD_CAP_JSON, &span) < 0)
		return sd_eng_walker_failed(e);
	span.tag = SD_V_STR;
	span.offset = tape_off(t->offset);
	*slot(e, dst) = span;
	return true;
}

/* The items of a list element (not begun) into dst: its child elements named item (a wrapped
 * list, xml_item), or with item NULL every child element (a list directly inside a list). */
static bool
element_items(Eng *e, const sd_node *elem, const sd_xml_name *item, Dest dst, sd_wtok *t)
{
	Acc			a = {0};
	uint32_t	depth = e->depth;
	sd_wkey		k;
	sd_wtok		c;
	int			r;

	if (e->ops->object_begin(e->cur, t) < 0)
		return sd_eng_walker_failed(e);
	while ((r = e->object_next(e->cur, &k, &c, NULL, 0)) > 0)
	{
		uint32_t	ei = 0;

		if (k.xml_kind != SD_XML_ELEMENT)
			continue;
		if (item && !name_eq(item, &k))
		{
			if (elem->kind == SD_K_COMPOSITE && elem->reject_unknown)
			{
				if (!sd_eng_enter_xml(e, SD_SEG_ELEMENT, &k, 0, c.offset) ||
					!sd_eng_unknown(e, &c, c.offset, depth))
					return false;
			}
			else if (!sd_eng_skip_value(e, &c))
				return false;
			e->depth = depth;
			continue;
		}
		if (!sd_eng_reserve_tape(e, 1, &ei, c.offset) ||
			!sd_eng_enter_xml(e, SD_SEG_ELEMENT, &k, a.n + 1, c.offset) ||
			!acc_add(e, &a, ei, c.offset))
			return false;
		if (!xv(e, &c, elem, (Dest) {false, ei}, c.offset) &&
			!sd_eng_recover_value(e, &c, depth, depth + 1))
			return false;
		e->depth = depth;
	}
	if (r < 0)
		return sd_eng_walker_failed(e);
	e->consumed = true;
	return acc_finish(e, &a, dst, t->offset);
}

/* map: true over the element's (not begun) child elements: (local name, value) pairs in
 * document order */
static bool
element_map(Eng *e, const sd_node *n, Dest dst, sd_wtok *t)
{
	const sd_node *pair = n->elem;
	Acc			a = {0};
	uint32_t	depth = e->depth;
	bool		nil = false;
	sd_wkey		k;
	sd_wtok		c;
	int			r;

	if (e->ops->object_begin(e->cur, t) < 0)
		return sd_eng_walker_failed(e);
	while ((r = e->object_next(e->cur, &k, &c, NULL, 0)) > 0)
	{
		uint32_t	ei = 0,
					kv = 0;

		if (k.xml_kind == SD_XML_ATTRIBUTE)
		{
			nil = nil || is_xsi_nil(&k, &c);
			continue;
		}
		if (k.xml_kind != SD_XML_ELEMENT)
			continue;
		if (!sd_eng_reserve_tape(e, 1, &ei, c.offset) || !sd_eng_reserve_tape(e, 2, &kv, c.offset) ||
			!sd_eng_enter_xml(e, SD_SEG_ELEMENT, &k, 0, c.offset) || !acc_add(e, &a, ei, c.offset))
			return false;
		e->d->tape[ei].tag = SD_V_ROW;
		e->d->tape[ei].u.first = kv;
		e->d->tape[ei].len = 2;
		e->d->tape[ei].offset = tape_off(c.offset);

		char	   *key = sd_arena_strndup(&e->d->arena, k.s, k.len);	/* names die with the reader */

		if (!key)
			return sd_eng_fail(e, SD_E_NOMEM, c.offset, "out of memory");
		e->consumed = false;
		if (!text_value(e, pair->fields[0].node, key, k.len, (Dest) {false, kv}, c.offset) ||
			!xv(e, &c, pair->fields[1].node, (Dest) {false, kv + 1}, c.offset))
		{
			if (!sd_eng_recover_value(e, &c, depth, depth + 1))
				return false;
		}
		e->depth = depth;
	}
	if (r < 0)
		return sd_eng_walker_failed(e);
	e->consumed = true;
	if (nil)
	{
		slot(e, dst)->tag = SD_V_NULL;
		return true;
	}
	return acc_finish(e, &a, dst, t->offset);
}

static bool
xv_in(Eng *e, sd_wtok *t, const sd_node *n, Dest dst, int64_t at)
{
	e->consumed = false;
	if (!sd_eng_poll(e, at))
		return false;
	slot(e, dst)->offset = tape_off(at);
	if (t->kind == SD_J_STRING)
	{
		/* an attribute's value or an element's text */
		e->consumed = true;
		return text_value(e, n, t->s, t->len, dst, at);
	}
	switch (n->kind)
	{
		case SD_K_JSON:
		case SD_K_JSONB:
			return sd_eng_fail(e, SD_E_INTERNAL, t->offset, "decoding XML: a json/jsonb column is "
							   "not supported (an xml column keeps the element verbatim)");
		case SD_K_ARRAY:
			if (n->is_map)
				return element_map(e, n, dst, t);
			return element_items(e, n->elem, NULL, dst, t);
		case SD_K_OTHER:
			if (n->type && n->type->name && strcmp(n->type->name, "xml") == 0)
				return element_verbatim(e, dst, t);
			break;
		default:
			break;
	}
	return element_scalar(e, n, dst, t);
}

/* The value of an XML member t (an element, or an attribute's / the text's string; at locates
 * errors about it); in serde_errors' mode its slot gets its mark, as engine.c's value() does. */
static bool
xv(Eng *e, sd_wtok *t, const sd_node *n, Dest dst, int64_t at)
{
	if (n->kind == SD_K_COMPOSITE && t->kind == SD_J_OBJECT)
		return sd_eng_value(e, t, n, dst);	/* decode_object, which comes back below */

	int			before = e->collect ? e->collect->total : 0;
	bool		ok = xv_in(e, t, n, dst, at);

	sd_eng_mark(e, dst, ok, before);
	return ok;
}

/* ---- an element's members ----------------------------------------------------------------- */

typedef struct Comp
{
	const sd_node *n;			/* the fields (a union's: its variant merged) */
	const char *tag;			/* a union's tag attribute (never unknown), else NULL */
	uint32_t	row;
	uint8_t    *seen;
	Acc		   *acc;			/* flattened lists being accumulated, per field */
	bool		nil;
	int64_t		off;			/* the element (missing members are located at it) */
	struct sd_buf *xb;			/* `extra`: the unmapped members' JSON, else NULL */
	struct XEnts *xents;
} Comp;

/* ---- `extra`: the unmapped elements and attributes as one JSON object ---------------------
 * DESIGN §3 `extra` for XML: the composite's child elements and attributes that no field, path
 * step or union tag uses, as {name: value}.  Names as the document writes them (prefix:local),
 * attributes as "@name".  An element with neither attributes nor child elements is the JSON
 * string of its text; any other is an object of its attributes ("@name"), its child elements
 * by name and, when it has non-blank text, "#text".  A name that occurs several times (adjacent
 * or not) becomes an array of its values in document order; names keep the order of their
 * first occurrence.  Texts are escaped as they are read (the reader's text buffer moves on). */

typedef struct XEnt
{
	const char *prefix;			/* the prefix as written, NULL for none */
	size_t		plen;
	const char *local;
	size_t		llen;
	bool		attr;
	uint32_t	ord;
	size_t		off;			/* the value's JSON text in the buffer */
	size_t		len;
} XEnt;

typedef struct XEnts
{
	XEnt	   *v;
	uint32_t	n;
	uint32_t	cap;
} XEnts;

static bool
xnomem(Eng *e, int64_t at)
{
	return sd_eng_fail(e, SD_E_NOMEM, at, "out of memory");
}

static bool
xent_add(Eng *e, XEnts *a, const sd_wkey *k, bool attr, size_t off, size_t len, int64_t at)
{
	if (a->n == a->cap)
	{
		uint32_t	ncap = a->cap ? a->cap * 2 : 8;
		XEnt	   *nv = sd_arena_alloc(&e->d->arena, sizeof(XEnt) * ncap);

		if (!nv)
			return xnomem(e, at);
		if (a->n)
			memcpy(nv, a->v, sizeof(XEnt) * a->n);
		a->v = nv;
		a->cap = ncap;
	}
	XEnt	   *x = &a->v[a->n];

	x->prefix = k->prefix;
	x->plen = k->prefix ? k->prefix_len : 0;
	x->local = k->s;
	x->llen = k->len;
	x->attr = attr;
	x->ord = a->n++;
	x->off = off;
	x->len = len;
	return true;
}

static bool
xent_same(const XEnt *a, const XEnt *b)
{
	return a->attr == b->attr && a->plen == b->plen && a->llen == b->llen &&
		memcmp(a->local, b->local, a->llen) == 0 &&
		(a->plen == 0 || memcmp(a->prefix, b->prefix, a->plen) == 0);
}

/* by name, then document order */
static int
xent_cmp(const void *pa, const void *pb)
{
	const XEnt *a = pa,
			   *b = pb;
	int			c;

	if (a->attr != b->attr)
		return a->attr ? -1 : 1;
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	if (a->llen != b->llen)
		return a->llen < b->llen ? -1 : 1;
	if ((a->plen && (c = memcmp(a->prefix, b->prefix, a->plen)) != 0) ||
		(c = memcmp(a->local, b->local, a->llen)) != 0)
		return c;
	return a->ord < b->ord ? -1 : a->ord > b->ord;
}

/* groups (their first entries) in the order of their first occurrence */
static int
xgroup_cmp(const void *pa, const void *pb)
{
	const XEnt *a = *(const XEnt *const *) pa,
			   *b = *(const XEnt *const *) pb;

	return a->ord < b->ord ? -1 : a->ord > b->ord;
}

/* b gets len bytes of its own content from off (copied through the stack: b may move) */
static bool
buf_self(sd_buf *b, size_t off, size_t len)
{
	char		tmp[512];

	while (len)
	{
		size_t		n = len < sizeof(tmp) ? len : sizeof(tmp);

		memcpy(tmp, b->s + off, n);
		if (!sd_buf_put(b, tmp, n))
			return false;
		off += n;
		len -= n;
	}
	return true;
}

static bool
xent_name(sd_buf *b, const XEnt *x)
{
	char		name[520];
	int			n = snprintf(name, sizeof(name), "%s%.*s%s%.*s", x->attr ? "@" : "",
							 (int) x->plen, x->plen ? x->prefix : "", x->plen ? ":" : "",
							 (int) x->llen, x->local);

	if (n < 0)
		n = 0;
	if ((size_t) n >= sizeof(name))
		n = (int) sizeof(name) - 1;		/* names are far shorter (libxml2 limits them) */
	return sd_buf_string(b, name, (size_t) n);
}

/* Appends {"name": value, ...} of ents (values in b), repeated names as arrays; text: the
 * buffer offset of a "#text" value, or SIZE_MAX. */
static bool
xent_object(Eng *e, sd_buf *b, XEnts *ents, size_t text, size_t tlen, int64_t at)
{
	XEnt	  **groups = NULL;
	uint32_t	ng = 0;

	if (ents->n)
	{
		qsort(ents->v, ents->n, sizeof(XEnt), xent_cmp);
		if (!(groups = sd_arena_alloc(&e->d->arena, sizeof(XEnt *) * ents->n)))
			return xnomem(e, at);
		for (uint32_t i = 0; i < ents->n; i++)
			if (i == 0 || !xent_same(&ents->v[i - 1], &ents->v[i]))
				groups[ng++] = &ents->v[i];
		qsort(groups, ng, sizeof(XEnt *), xgroup_cmp);
	}
	if (!sd_buf_put(b, "{", 1))
		return xnomem(e, at);
	for (uint32_t g = 0; g < ng; g++)
	{
		const XEnt *first = groups[g],
				   *end = ents->v + ents->n,
				   *x = first + 1;

		while (x < end && xent_same(x, first))
			x++;
		if ((g && !sd_buf_put(b, ",", 1)) || !xent_name(b, first) || !sd_buf_put(b, ":", 1) ||
			(x - first > 1 && !sd_buf_put(b, "[", 1)))
			return xnomem(e, at);
		for (const XEnt *y = first; y < x; y++)
			if ((y > first && !sd_buf_put(b, ",", 1)) || !buf_self(b, y->off, y->len))
				return xnomem(e, at);
		if (x - first > 1 && !sd_buf_put(b, "]", 1))
			return xnomem(e, at);
	}
	if (text != SIZE_MAX &&
		((ng && !sd_buf_put(b, ",", 1)) || !sd_buf_put(b, "\"#text\":", 8) || !buf_self(b, text, tlen)))
		return xnomem(e, at);
	if (!sd_buf_put(b, "}", 1))
		return xnomem(e, at);
	return true;
}

static bool
blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_space(s[i]))
			return false;
	return true;
}

/* The element at t (not begun) as JSON, appended to b: *off / *len where it is. */
static bool
xml_render(Eng *e, sd_wtok *t, sd_buf *b, size_t *off, size_t *len)
{
	size_t		start = b->len,
				text = SIZE_MAX,
				tlen = 0;
	bool		blank_text = true;
	XEnts		ents = {0};
	sd_wkey		k;
	sd_wtok		c;
	int			r;

	/* depth: the reader's limit holds; the stack: the engine's budget */
	if (!sd_eng_container_guard(e, t->offset))
		return false;
	if (e->ops->object_begin(e->cur, t) < 0)
		return sd_eng_walker_failed(e);
	while ((r = e->object_next(e->cur, &k, &c, NULL, 0)) > 0)
	{
		size_t		vo = b->len,
					vl;

		if (k.xml_kind == SD_XML_ELEMENT)
		{
			if (!xml_render(e, &c, b, &vo, &vl) || !xent_add(e, &ents, &k, false, vo, vl, c.offset))
				return false;
			continue;
		}
		if (!sd_buf_string(b, c.s, c.len))
			return xnomem(e, c.offset);
		vl = b->len - vo;
		if (k.xml_kind == SD_XML_TEXT)
		{
			text = vo;
			tlen = vl;
			blank_text = blank(c.s, c.len);
		}
		else if (!xent_add(e, &ents, &k, true, vo, vl, c.offset))
			return false;
	}
	if (r < 0)
		return sd_eng_walker_failed(e);
	size_t		obj = b->len;

	if (ents.n == 0)
	{
		/* text only: its string ("" for an empty element) */
		if (text == SIZE_MAX ? !sd_buf_put(b, "\"\"", 2) : !buf_self(b, text, tlen))
			return xnomem(e, t->offset);
	}
	else if (!xent_object(e, b, &ents, blank_text ? SIZE_MAX : text, tlen, t->offset))
		return false;
	/* the element's JSON replaces its parts */
	memmove(b->s + start, b->s + obj, b->len - obj);
	b->len = start + (b->len - obj);
	*off = start;
	*len = b->len - start;
	return true;
}

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

static bool
flattened(const sd_field *f)
{
	return f->node->kind == SD_K_ARRAY && !f->node->is_map && !f->xml_item.local;
}

/* The field member k names below path step `level` (fields sharing anchor's steps): its index,
 * *step when k is a `path` step on the way to it; -1 none. */
static int
find_field(const sd_node *n, const sd_wkey *k, int level, const sd_field *anchor, bool *step)
{
	*step = false;
	for (int i = 0; i < n->nfields; i++)
	{
		const sd_field *f = &n->fields[i];

		if (!mapped(f) || f->npath <= level || !prefix_eq(f, anchor, level))
			continue;
		if (k->xml_kind == SD_XML_TEXT)
		{
			if (f->xml_kind == SD_XML_TEXT && f->npath == level + 1)
				return i;
			continue;
		}
		if (!f->xml_path)
			continue;
		if (f->npath == level + 1)
		{
			if (f->xml_kind == k->xml_kind && name_eq(&f->xml_path[level], k))
				return i;
		}
		else if (k->xml_kind == SD_XML_ELEMENT && name_eq(&f->xml_path[level], k))
		{
			*step = true;
			return i;
		}
	}
	return -1;
}

/* field fi found as element k (value t, not begun); the caller's depth is depth */
static bool
field_element(Eng *e, Comp *cp, int fi, const sd_wkey *k, sd_wtok *t, uint32_t depth)
{
	const sd_field *f = &cp->n->fields[fi];
	Dest		dst = {false, cp->row + (uint32_t) f->col};
	const sd_node *fn = f->node;

	if (flattened(f))
	{
		/* walker.h (b): this occurrence is one more element of the list */
		uint32_t	ei = 0;

		cp->seen[fi] = 1;
		if (!sd_eng_reserve_tape(e, 1, &ei, t->offset) ||
			!sd_eng_enter_xml(e, SD_SEG_ELEMENT, k, cp->acc[fi].n + 1, t->offset) ||
			!acc_add(e, &cp->acc[fi], ei, t->offset))
			return false;
		return xv(e, t, fn->elem, (Dest) {false, ei}, t->offset) ||
			sd_eng_recover_value(e, t, depth, depth + 1);
	}
	if (!sd_eng_enter_xml(e, SD_SEG_ELEMENT, k, 0, t->offset))
		return false;
	if (cp->seen[fi])
		return sd_eng_duplicate(e, t, t->offset, depth);
	cp->seen[fi] = 1;
	if (fn->kind == SD_K_ARRAY && !fn->is_map)
	{
		/* a wrapped list: its items (errors inside are recorded there) */
		int			before = e->collect ? e->collect->total : 0;
		bool		ok = element_items(e, fn->elem, &f->xml_item, dst, t);

		sd_eng_mark(e, dst, ok, before);
		if (!ok)
			return sd_eng_recover_value(e, t, depth, depth + 1);
	}
	else if (!xv(e, t, fn, dst, t->offset))
		return sd_eng_recover_value(e, t, depth, depth + 1);
	if (!f->nullable && e->d->tape[dst.idx].tag == SD_V_NULL)
		return sd_eng_not_null(e, f, dst.idx, t->offset, depth);
	return true;
}

static bool
members(Eng *e, Comp *cp, int level, const sd_field *anchor)
{
	const sd_node *n = cp->n;
	sd_wkey		k;
	sd_wtok		t;
	int			r;

	while ((r = e->object_next(e->cur, &k, &t, NULL, 0)) > 0)
	{
		uint32_t	depth = e->depth;
		bool		step;
		int			fi = find_field(n, &k, level, anchor, &step);
		const sd_field *f = fi >= 0 ? &n->fields[fi] : NULL;

		if (k.xml_kind == SD_XML_TEXT)
		{
			/* the element's text: located at the element, at its path */
			if (f)
			{
				cp->seen[fi] = 1;
				if (!xv(e, &t, f->node, (Dest) {false, cp->row + (uint32_t) f->col}, cp->off) &&
					!sd_eng_recover(e, depth))
					return false;
			}
			continue;
		}
		if (k.xml_kind == SD_XML_ATTRIBUTE)
		{
			if (f)
			{
				cp->seen[fi] = 1;
				if (!sd_eng_enter_xml(e, SD_SEG_ATTRIBUTE, &k, 0, t.offset))
					return false;
				if (!xv(e, &t, f->node, (Dest) {false, cp->row + (uint32_t) f->col}, t.offset) &&
					!sd_eng_recover(e, depth))
					return false;
				e->depth = depth;
				continue;
			}
			if (level == 0 && is_xsi_nil(&k, &t))
				cp->nil = true;
			if (never_unknown_attr(&k) ||
				(level == 0 && cp->tag && !k.ns_len && strlen(cp->tag) == k.len &&
				 memcmp(cp->tag, k.s, k.len) == 0))
				continue;
			if (level == 0 && cp->xb)
			{
				size_t		vo = cp->xb->len;

				if (!sd_buf_string(cp->xb, t.s, t.len))
					return xnomem(e, t.offset);
				if (!xent_add(e, cp->xents, &k, true, vo, cp->xb->len - vo, t.offset))
					return false;
				continue;
			}
			if (!n->reject_unknown)
				continue;
			if (!sd_eng_enter_xml(e, SD_SEG_ATTRIBUTE, &k, 0, t.offset) ||
				!sd_eng_unknown(e, &t, t.offset, depth))
				return false;
			e->depth = depth;
			continue;
		}
		/* an element */
		if (!f && level == 0 && cp->tag && strlen(cp->tag) == k.len &&
			memcmp(cp->tag, k.s, k.len) == 0)
		{
			/* the union's tag element (xml_walk.c found it by looking ahead): never unknown */
			if (!sd_eng_skip_value(e, &t))
				return false;
			e->depth = depth;
			continue;
		}
		if (!f && level == 0 && cp->xb)
		{
			size_t		vo,
						vl;

			if (!xml_render(e, &t, cp->xb, &vo, &vl) ||
				!xent_add(e, cp->xents, &k, false, vo, vl, t.offset))
				return false;
			continue;
		}
		if (!f)
		{
			if (n->reject_unknown)
			{
				if (!sd_eng_enter_xml(e, SD_SEG_ELEMENT, &k, 0, t.offset) ||
					!sd_eng_unknown(e, &t, t.offset, depth))
					return false;
			}
			else if (!sd_eng_skip_value(e, &t))
				return false;
			e->depth = depth;
			continue;
		}
		if (step)
		{
			/* a `path` step: the fields below it are read from its members */
			if (!sd_eng_enter_xml(e, SD_SEG_ELEMENT, &k, 0, t.offset))
				return false;
			if (e->ops->object_begin(e->cur, &t) < 0)
				return sd_eng_walker_failed(e);
			if (!members(e, cp, level + 1, f))
				return false;
			e->depth = depth;
			continue;
		}
		if (!field_element(e, cp, fi, &k, &t, depth))
			return false;
		e->depth = depth;
	}
	return r < 0 ? sd_eng_walker_failed(e) : true;
}

/* The path of a missing field, written down from the element: each step with the prefix the
 * document binds to its namespace where the walk is (none: no prefix) */
static bool
enter_missing(Eng *e, const sd_field *f, int64_t off)
{
	for (int j = 0; j < f->npath && f->xml_path; j++)
	{
		const sd_xml_name *nm = &f->xml_path[j];
		const char *p = NULL;
		size_t		pl = 0;
		uint8_t		seg = j == f->npath - 1 && f->xml_kind == SD_XML_ATTRIBUTE ?
			SD_SEG_ATTRIBUTE : SD_SEG_ELEMENT;

		/* the cursor is the XML walker's (sd_xml_walker_cursor: its head) */
		if (nm->ns && nm->ns[0])
			sd_xml_walker_prefix((const sd_xcursor *) e->cur, nm->ns, strlen(nm->ns), &p, &pl);
		if (!sd_eng_enter_xml_name(e, seg, p, p ? pl : 0, nm->local ? nm->local : "",
								   nm->local ? strlen(nm->local) : 0, off))
			return false;
	}
	if (f->xml_kind == SD_XML_TEXT && !sd_eng_enter_xml(e, SD_SEG_TEXT, NULL, 0, off))
		return false;
	return true;
}

/* The extra column: the object of the unmapped members, its text in the arena (the tape's). */
static bool
extra_value(Eng *e, Comp *cp, Dest dst, int64_t off)
{
	size_t		start = cp->xb->len;

	if (!xent_object(e, cp->xb, cp->xents, SIZE_MAX, 0, off))
		return false;
	size_t		len = cp->xb->len - start;
	char	   *text = sd_arena_alloc(&e->d->arena, len + 1);

	if (!text)
		return xnomem(e, off);
	memcpy(text, cp->xb->s + start, len);
	text[len] = '\0';
	sd_val	   *x = slot(e, dst);

	x->tag = SD_V_JSON;
	x->u.s = text;
	x->len = (uint32_t) len;
	x->aux = 0;
	x->offset = tape_off(off);
	return true;
}

bool
sd_eng_xml_members(Eng *e, const sd_node *n, const sd_node *members_of, Dest dst, uint32_t row,
				   int64_t off)
{
	const sd_node *fn = members_of;
	Comp		cp;

	sd_buf		xb;
	XEnts		xents = {0};
	bool		ok;

	cp.xb = NULL;
	cp.xents = &xents;
	if (n->extra_col >= 0)
	{
		sd_buf_init(&xb, e->hooks);
		cp.xb = &xb;
	}
	cp.n = fn;
	cp.tag = n->tag;
	cp.row = row;
	cp.nil = false;
	cp.off = off;
	cp.seen = sd_arena_alloc(&e->d->arena, (size_t) fn->nfields + 1);
	cp.acc = sd_arena_alloc(&e->d->arena, sizeof(Acc) * ((size_t) fn->nfields + 1));
	ok = cp.seen && cp.acc;
	if (!ok)
		sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
	else
	{
		memset(cp.seen, 0, (size_t) fn->nfields + 1);
		memset(cp.acc, 0, sizeof(Acc) * ((size_t) fn->nfields + 1));
		ok = members(e, &cp, 0, NULL);
	}
	if (ok && cp.xb)
		ok = extra_value(e, &cp, (Dest) {false, row + (uint32_t) n->extra_col}, off);
	if (cp.xb)
		sd_buf_free(cp.xb);
	if (!ok)
		return false;
	if (cp.nil)
	{
		slot(e, dst)->tag = SD_V_NULL;
		return true;
	}
	for (int i = 0; i < fn->nfields; i++)
	{
		const sd_field *f = &fn->fields[i];
		uint32_t	depth = e->depth;

		if (!mapped(f))
			continue;			/* skipped: NULL */
		if (flattened(f) && f->xml_kind == SD_XML_ELEMENT)
		{
			if (!acc_finish(e, &cp.acc[i], (Dest) {false, row + (uint32_t) f->col}, off))
				return false;
			continue;
		}
		if (cp.seen[i] || sd_eng_absent_filled(e, f, row, off))
			continue;
		if (!enter_missing(e, f, off) || !sd_eng_missing(e, off, depth))
			return false;
		e->depth = depth;
	}
	return true;
}

/* ---- entry points -------------------------------------------------------------------------- */

static bool
xml_run(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc, size_t len,
		const sd_limits *limits, sd_collect *col, uint32_t *root, sd_error *err)
{
	char		here;
	Eng			e;
	sd_wtok		t;
	sd_wkey		rk;
	uint32_t	first = 0;
	bool		ok;
	sd_limits	lim = sd_limits_or_defaults(limits, (sd_limits) {0, 0, 0});
	sd_limits	elim;
	sd_xcursor *xc;

	/* the reader enforces max_depth on elements (its own error); the engine's guard, one level
	 * further, only backs it up */
	elim = lim;
	elim.max_depth = lim.max_depth + 1;
	sd_error_clear(err);
	err->doc = SD_DOC_XML;
	strcpy(err->path, "/");
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
	xc = sd_xml_walker_open(d, doc, len, limits ? &lim : NULL, err);
	if (!xc)
		return false;
	sd_eng_init(&e, d, sd_xml_walker_cursor(xc), &elim, col, err, &here);
	if (!node)
		node = sd_plan_root(plan);
	if (e.ops->peek(e.cur, &t) < 0)
	{
		ok = sd_eng_walker_failed(&e);
		goto done;
	}
	sd_xml_walker_root_key(xc, &rk);
	ok = sd_eng_enter_xml(&e, SD_SEG_ELEMENT, &rk, 0, t.offset) &&
		sd_eng_reserve_tape(&e, 1, &first, t.offset);
	if (!ok)
		goto done;
	if (node == sd_plan_root(plan))
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
			sd_eng_fail(&e, SD_E_KIND, t.offset, "expected root element %s, found %s",
						sd_xml_clark(want, a, sizeof(a)), sd_xml_clark(&got, b, sizeof(b)));
			/* serde_errors: that one violation, the document still read to its end */
			ok = sd_eng_recover(&e, 1) && sd_eng_skip_value(&e, &t);
			if (ok && e.ops->finish(e.cur) < 0)
				ok = sd_eng_walker_failed(&e);
			goto done;
		}
	}
	ok = xv(&e, &t, node, (Dest) {false, first}, t.offset) || sd_eng_recover_value(&e, &t, 1, 1);
	if (ok && e.ops->finish(e.cur) < 0)
		ok = sd_eng_walker_failed(&e);
	if (ok)
		*root = first;
done:
	sd_xml_walker_close(xc);
	return ok;
}

bool
sd_decode_xml(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
			  size_t len, const sd_limits *limits, uint32_t *root, sd_error *err)
{
	return xml_run(d, plan, node, doc, len, limits, NULL, root, err);
}

int
sd_check_xml_found(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
				   size_t len, const sd_limits *limits, int max_errors, const sd_found **found,
				   int *total, uint32_t *root)
{
	sd_collect	col = {d, max_errors > 0 ? max_errors : 1, 0, 0, 0, false};
	sd_error	err;

	*root = UINT32_MAX;
	if (!xml_run(d, plan, node, doc, len, limits, &col, root, &err) || col.oom)
		return sd_engine_found_fatal(d, &err, col.oom, found, total, root);
	*found = d->found;
	*total = col.total;
	return col.n;
}
