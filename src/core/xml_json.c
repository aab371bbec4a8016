/*
 * xml_json.c — XML elements and attributes as JSON text, for an `extra` column decoded from XML:
 * the child elements and attributes of a composite that no field, `path` step or union tag uses
 * become one JSON object.  Names as the document writes them (prefix:local), attributes as
 * "@name".  An element with neither attributes nor child elements is the JSON string of its
 * text; any other is an object of its attributes ("@name"), its child elements by name and,
 * when it has non-blank text, "#text".  A name that occurs several times (adjacent or not)
 * becomes an array of its values in document order; names keep the order of their first
 * occurrence.  Texts are escaped as they are read (the reader's text buffer moves on).
 * It reads elements through the walker ops of the cursor it is given (walker.h) and applies no
 * rule of the plan: the engine decides what is unmapped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xml_json.h"

struct sd_xent
{
	const char *prefix;			/* the prefix as written, NULL for none */
	size_t		plen;
	const char *local;
	size_t		llen;
	bool		attr;
	uint32_t	ord;
	size_t		off;			/* the value's JSON text in the buffer */
	size_t		len;
};

/* a list of entries (one element's members) */
typedef struct XList
{
	sd_xent    *v;
	uint32_t	n;
	uint32_t	cap;
} XList;

static int
xadd(sd_arena *a, XList *l, const sd_wkey *k, bool attr, size_t off, size_t len)
{
	if (l->n == l->cap)
	{
		uint32_t	ncap = l->cap ? l->cap * 2 : 8;
		sd_xent    *nv = sd_arena_alloc(a, sizeof(sd_xent) * ncap);

		if (!nv)
			return SD_XJ_NOMEM;
		if (l->n)
			memcpy(nv, l->v, sizeof(sd_xent) * l->n);
		l->v = nv;
		l->cap = ncap;
	}
	sd_xent    *x = &l->v[l->n];

	x->prefix = k->prefix;
	x->plen = k->prefix ? k->prefix_len : 0;
	x->local = k->s;
	x->llen = k->len;
	x->attr = attr;
	x->ord = l->n++;
	x->off = off;
	x->len = len;
	return SD_XJ_OK;
}

static bool
xsame(const sd_xent *a, const sd_xent *b)
{
	return a->attr == b->attr && a->plen == b->plen && a->llen == b->llen &&
		memcmp(a->local, b->local, a->llen) == 0 &&
		(a->plen == 0 || memcmp(a->prefix, b->prefix, a->plen) == 0);
}

/* by name, then document order */
static int
xcmp(const void *pa, const void *pb)
{
	const sd_xent *a = pa,
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
group_cmp(const void *pa, const void *pb)
{
	const sd_xent *a = *(const sd_xent *const *) pa,
			   *b = *(const sd_xent *const *) pb;

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
xname(sd_buf *b, const sd_xent *x)
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

/* Appends {"name": value, ...} of l (values in b), repeated names as arrays; text: the buffer
 * offset of a "#text" value, or SIZE_MAX. */
static int
xobject(sd_arena *a, sd_buf *b, XList *l, size_t text, size_t tlen)
{
	sd_xent   **groups = NULL;
	uint32_t	ng = 0;

	if (l->n)
	{
		qsort(l->v, l->n, sizeof(sd_xent), xcmp);
		if (!(groups = sd_arena_alloc(a, sizeof(sd_xent *) * l->n)))
			return SD_XJ_NOMEM;
		for (uint32_t i = 0; i < l->n; i++)
			if (i == 0 || !xsame(&l->v[i - 1], &l->v[i]))
				groups[ng++] = &l->v[i];
		qsort(groups, ng, sizeof(sd_xent *), group_cmp);
	}
	if (!sd_buf_put(b, "{", 1))
		return SD_XJ_NOMEM;
	for (uint32_t g = 0; g < ng; g++)
	{
		const sd_xent *first = groups[g],
				   *end = l->v + l->n,
				   *x = first + 1;

		while (x < end && xsame(x, first))
			x++;
		if ((g && !sd_buf_put(b, ",", 1)) || !xname(b, first) || !sd_buf_put(b, ":", 1) ||
			(x - first > 1 && !sd_buf_put(b, "[", 1)))
			return SD_XJ_NOMEM;
		for (const sd_xent *y = first; y < x; y++)
			if ((y > first && !sd_buf_put(b, ",", 1)) || !buf_self(b, y->off, y->len))
				return SD_XJ_NOMEM;
		if (x - first > 1 && !sd_buf_put(b, "]", 1))
			return SD_XJ_NOMEM;
	}
	if (text != SIZE_MAX &&
		((ng && !sd_buf_put(b, ",", 1)) || !sd_buf_put(b, "\"#text\":", 8) || !buf_self(b, text, tlen)))
		return SD_XJ_NOMEM;
	if (!sd_buf_put(b, "}", 1))
		return SD_XJ_NOMEM;
	return SD_XJ_OK;
}

/* The element at t (not begun) as JSON, appended to x->b: *off / *len where it is. */
static int
render(sd_xjson *x, sd_wcursor *cur, const sd_wtok *t, size_t *off, size_t *len)
{
	sd_buf	   *b = &x->b;
	size_t		start = b->len,
				text = SIZE_MAX,
				tlen = 0;
	bool		blank_text = true;
	XList		ents = {0};
	sd_wkey		k;
	sd_wtok		c;
	int			r;
	char		here;

	/* depth: the reader's limit holds; the stack: the engine's budget */
	if ((size_t) (x->stack_start - &here) > x->stack_budget)
		return SD_XJ_DEEP;
	if (cur->ops->object_begin(cur, t) < 0)
		return SD_XJ_WALKER;
	while ((r = cur->ops->object_next(cur, &k, &c, NULL, 0)) > 0)
	{
		size_t		vo = b->len,
					vl;
		int			rc;

		if (k.xml_kind == SD_XML_ELEMENT)
		{
			if ((rc = render(x, cur, &c, &vo, &vl)) != SD_XJ_OK ||
				(rc = xadd(x->arena, &ents, &k, false, vo, vl)) != SD_XJ_OK)
				return rc;
			continue;
		}
		if (!sd_buf_string(b, c.s, c.len))
			return SD_XJ_NOMEM;
		vl = b->len - vo;
		if (k.xml_kind == SD_XML_TEXT)
		{
			text = vo;
			tlen = vl;
			blank_text = sd_is_blank(c.s, c.len);
		}
		else if ((rc = xadd(x->arena, &ents, &k, true, vo, vl)) != SD_XJ_OK)
			return rc;
	}
	if (r < 0)
		return SD_XJ_WALKER;
	size_t		obj = b->len;

	if (ents.n == 0)
	{
		/* text only: its string ("" for an empty element) */
		if (text == SIZE_MAX ? !sd_buf_put(b, "\"\"", 2) : !buf_self(b, text, tlen))
			return SD_XJ_NOMEM;
	}
	else
	{
		int			rc = xobject(x->arena, b, &ents, blank_text ? SIZE_MAX : text, tlen);

		if (rc != SD_XJ_OK)
			return rc;
	}
	/* the element's JSON replaces its parts */
	memmove(b->s + start, b->s + obj, b->len - obj);
	b->len = start + (b->len - obj);
	*off = start;
	*len = b->len - start;
	return SD_XJ_OK;
}

void
sd_xjson_init(sd_xjson *x, const sd_hooks *hooks, sd_arena *arena, const char *stack_start,
			  size_t stack_budget)
{
	memset(x, 0, sizeof(*x));
	sd_buf_init(&x->b, hooks);
	x->arena = arena;
	x->stack_start = stack_start;
	x->stack_budget = stack_budget;
}

void
sd_xjson_free(sd_xjson *x)
{
	sd_buf_free(&x->b);
}

int
sd_xjson_attribute(sd_xjson *x, const sd_wkey *k, const char *s, size_t len)
{
	size_t		vo = x->b.len;
	XList		l = {x->v, x->n, x->cap};
	int			rc;

	if (!sd_buf_string(&x->b, s, len))
		return SD_XJ_NOMEM;
	rc = xadd(x->arena, &l, k, true, vo, x->b.len - vo);
	x->v = l.v, x->n = l.n, x->cap = l.cap;
	return rc;
}

int
sd_xjson_element(sd_xjson *x, sd_wcursor *cur, const sd_wkey *k, const sd_wtok *t)
{
	size_t		vo,
				vl;
	XList		l = {x->v, x->n, x->cap};
	sd_wkey		key = *k;		/* (the name outlives the rendering: libxml2 interns it) */
	int			rc = render(x, cur, t, &vo, &vl);

	if (rc != SD_XJ_OK)
		return rc;
	rc = xadd(x->arena, &l, &key, false, vo, vl);
	x->v = l.v, x->n = l.n, x->cap = l.cap;
	return rc;
}

int
sd_xjson_finish(sd_xjson *x, char **out, size_t *len)
{
	size_t		start = x->b.len;
	XList		l = {x->v, x->n, x->cap};
	int			rc = xobject(x->arena, &x->b, &l, SIZE_MAX, 0);

	if (rc != SD_XJ_OK)
		return rc;
	*len = x->b.len - start;
	if (!(*out = sd_arena_alloc(x->arena, *len + 1)))
		return SD_XJ_NOMEM;
	memcpy(*out, x->b.s + start, *len);
	(*out)[*len] = '\0';
	return SD_XJ_OK;
}
