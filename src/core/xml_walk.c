/*
 * xml_walk.c — the XML walker: walker.h's ops over the events of the XML reader (xml_read.c),
 * so that the one rule engine can pull an XML document the way it pulls JSON (walker.h (a)).
 * The walker only READS: it applies no rule of the plan.
 *
 * The model handed to the engine:
 *   - every element is an object (token SD_J_OBJECT at the '<' of its start tag);
 *   - its members come in this order: its attributes, as members with xml_kind
 *     SD_XML_ATTRIBUTE and a string value; then its child elements in document order
 *     (SD_XML_ELEMENT, object values; the same name may come again, adjacent or not:
 *     SD_WF_REPEATED); then, when it has any, its character data as ONE member with xml_kind
 *     SD_XML_TEXT and an empty name — every text piece of the element itself (text, entities
 *     and character references replaced, CDATA content; between children too) concatenated;
 *   - keys carry the local name, the namespace URI and the prefix as written; namespace
 *     declarations are not members;
 *   - values: attribute values and text are SD_J_STRING tokens with SD_TOK_XML_TEXT, copied
 *     into the decoder's arena or, a leaf's text found in place, pointing into the document
 *     (not NUL-terminated there, as a jsonb string is not): valid until the document is
 *     released;
 *   - skip_fast skips an element without walking it (the reader checks well-formedness and
 *     depth of everything it reads anyway); capture gives an element as a standalone element (from
 *     its '<' to the end of its end tag, with the namespace declarations it needs: xml_capture.c)
 *     for an `xml` column, or a string's text.
 * Errors of the reader (malformed XML, depth, memory) are kept whole in the cursor (xerr) with
 * their line and column, for the engine to report as XML errors.
 *
 * The engine (engine.c, entry xml_decode.c's sd_decode_xml) pulls it: keys resolved through the
 * plan's XML member table, text scalars, flattened / wrapped lists, XPath errors located by
 * line/column (locate), the root element's segment (root_key), the prefix bound to a namespace
 * (ns_prefix), xsi:nil as a token flag (SD_TOK_XML_NIL / SD_TOK_XML_BADNIL).
 */
#include <string.h>

#include "internal.h"
#include "walker.h"
#include "xml_capture.h"
#include "xml_read.h"
#include "xml_walk.h"

typedef struct xframe
{
	uint32_t	depth;          /* the element's depth */
	uint8_t		phase;          /* 0 attributes, 1 children, 2 text given, 3 ended */
	bool		no_text;        /* the engine's last object_next said SD_KEY_NO_TEXT */
	const char *stext;          /* its first text, on its START (the reader's text_on_start):
								 * in the document, not yet read */
	size_t		stext_len;
	uint32_t	next_attr;
	uint32_t	nattrs;
	sd_xattr   *attrs;          /* copies (names in the reader's dictionary, values in arena) */
	sd_xnsdecl *ns;             /* namespace declarations written on it (arena copies) */
	uint32_t	nns;
	char	   *text;           /* the element's own text so far (hook-allocated, reused) */
	size_t		text_len;
	size_t		text_cap;
} xframe;

struct sd_xcursor
{
	sd_wcursor	head;
	sd_decoder *d;
	sd_xreader *r;
	const char *doc;
	size_t		len;
	sd_error	xerr;           /* the reader's error after an op returned -1 */
	/* the element at the cursor, its START read (peeked) but not begun */
	bool		at_elem;
	sd_xev		elem;
	sd_xattr   *elem_attrs;     /* arena copies of elem's attributes */
	sd_xnsdecl *elem_ns;        /* ... and of its namespace declarations */
	int64_t		last_end;       /* end offset of the last element that ended */
	bool		root_read;
	sd_xnsdecl *batch_ns;       /* batches: the root's namespace declarations (hook memory,
								 * they outlive the arena's reset between items) */
	sd_wkey		batch_key;      /* batches: the root element's name (the reader's dictionary) */
	xframe	   *frames;
	uint32_t	nframes;
	uint32_t	cap;
};

static int
xw_fail(sd_xcursor *c, const sd_error *err)
{
	c->xerr = *err;
	c->head.fail.code = err->code == SD_E_NOMEM ? SD_E_NOMEM : SD_E_SYNTAX;
	c->head.fail.problem = c->xerr.problem;
	c->head.fail.offset = err->offset;
	c->head.fail.err = &c->xerr;	/* reported as it is (path, line, column) */
	return -1;
}

static int
xw_nomem(sd_xcursor *c)
{
	sd_error	e;

	sd_error_clear(&e);
	e.doc = SD_DOC_XML;
	sd_error_set(&e, SD_E_NOMEM, -1, "out of memory");
	return xw_fail(c, &e);
}

/* The reader's end or error where the walker still expects events (xw_next's slow path): the
 * reader's error is in c->xerr already; the end is an error (the document cannot end inside an
 * element). */
static __attribute__((noinline)) int
xw_next_failed(sd_xcursor *c, int rc)
{
	if (rc < 0)
	{
		c->head.fail.code = c->xerr.code == SD_E_NOMEM ? SD_E_NOMEM : SD_E_SYNTAX;
		c->head.fail.problem = c->xerr.problem;
		c->head.fail.offset = c->xerr.offset;
		c->head.fail.err = &c->xerr;	/* reported as it is (path, line, column) */
		return -1;
	}

	sd_error	err;

	sd_error_clear(&err);
	err.doc = SD_DOC_XML;
	strcpy(err.path, "/");
	sd_error_set(&err, SD_E_XML_SYNTAX, -1, "malformed XML: unexpected end of the document");
	return xw_fail(c, &err);
}

/* The next event of the reader: 1, or -1 (the document cannot end inside an element, so 0 —
 * the end — is an error where the walker still expects events).  The reader writes its error
 * straight into the cursor's (only on -1): no error on the stack of the per-event path. */
static inline int
xw_next(sd_xcursor *c, const sd_xev **ev)
{
	if (__builtin_expect((*ev = sd_xr_take(c->r)) != NULL, 1))
		return 1;

	int			rc = sd_xr_next_ref(c->r, ev, &c->xerr);

	if (rc == 1)
		return 1;
	return xw_next_failed(c, rc);
}

/* The element of a START event becomes the value at the cursor: its attributes are copied
 * (their values live only until the reader's next event). */
static int
xw_take_element(sd_xcursor *c, const sd_xev *ev)
{
	c->elem = *ev;
	c->elem_attrs = NULL;
	if (ev->nattrs)
	{
		sd_xattr   *a = sd_arena_alloc(&c->d->arena, sizeof(sd_xattr) * ev->nattrs);

		if (!a)
			return xw_nomem(c);
		for (uint32_t i = 0; i < ev->nattrs; i++)
		{
			const char *v = ev->attrs[i].value;

			a[i] = ev->attrs[i];
			/* a value in place in the document lives as long as it (xw_object_next's leaf
			 * text too); one in the reader's bytes lives until its next batch */
			if (v < c->doc || v + a[i].value_len > c->doc + c->len)
				v = sd_arena_strndup(&c->d->arena, v, a[i].value_len);
			if (!v)
				return xw_nomem(c);
			a[i].value = v;
		}
		c->elem_attrs = a;
	}
	c->elem.attrs = c->elem_attrs;
	c->elem_ns = NULL;
	if (ev->nns)
	{
		sd_xnsdecl *n = sd_arena_alloc(&c->d->arena, sizeof(sd_xnsdecl) * ev->nns);

		if (!n)
			return xw_nomem(c);
		for (uint32_t i = 0; i < ev->nns; i++)
		{
			n[i] = ev->ns[i];
			n[i].uri = sd_arena_strndup(&c->d->arena, ev->ns[i].uri, ev->ns[i].uri_len);
			if (!n[i].uri)
				return xw_nomem(c);
			if (ev->ns[i].prefix &&
				!(n[i].prefix = sd_arena_strndup(&c->d->arena, ev->ns[i].prefix, ev->ns[i].prefix_len)))
				return xw_nomem(c);
		}
		c->elem_ns = n;
	}
	c->elem.ns = c->elem_ns;
	c->at_elem = true;
	return 1;
}

#define XSI_NS "http://www.w3.org/2001/XMLSchema-instance"

/* xsi:nil on the element at the cursor: SD_TOK_XML_NIL (true / 1), SD_TOK_XML_BADNIL (not a
 * boolean), 0 (absent, false / 0); whitespace around the value is trimmed */
static uint32_t
elem_nil(const sd_xcursor *c)
{
	for (uint32_t i = 0; i < c->elem.nattrs; i++)
	{
		const sd_xattr *a = &c->elem.attrs[i];

		if (a->name.local_len != 3 || memcmp(a->name.local, "nil", 3) != 0 ||
			a->name.uri_len != sizeof(XSI_NS) - 1 || memcmp(a->name.uri, XSI_NS, a->name.uri_len) != 0)
			continue;
		const char *v = a->value;
		size_t		n = a->value_len;

		while (n && sd_is_ws(v[0]))
			v++, n--;
		while (n && sd_is_ws(v[n - 1]))
			n--;
		if ((n == 4 && memcmp(v, "true", 4) == 0) || (n == 1 && v[0] == '1'))
			return SD_TOK_XML_NIL;
		if ((n == 5 && memcmp(v, "false", 5) == 0) || (n == 1 && v[0] == '0'))
			return 0;
		return SD_TOK_XML_BADNIL;
	}
	return 0;
}

static void
elem_token(const sd_xcursor *c, sd_wtok *tok)
{
	memset(tok, 0, sizeof(*tok));
	tok->kind = SD_J_OBJECT;
	tok->offset = c->elem.offset;
	if (c->elem.nattrs)
		tok->flags = elem_nil(c);
}

static void
text_token(sd_wtok *tok, const char *s, size_t len, int64_t off)
{
	memset(tok, 0, sizeof(*tok));
	tok->kind = SD_J_STRING;
	tok->flags = SD_TOK_XML_TEXT;
	tok->offset = off;
	tok->s = s;
	tok->len = len;
}

static void
name_key(sd_wkey *key, const sd_xname *n, uint8_t kind, int64_t off)
{
	memset(key, 0, sizeof(*key));
	key->s = n->local;
	key->len = n->local_len;
	key->ns = n->uri;
	key->ns_len = n->uri_len;
	key->prefix = n->prefix;
	key->prefix_len = n->prefix_len;
	key->xml_kind = kind;
	key->offset = off;
	key->in_doc = false;
	/* libxml2's names: strings of its parser's dictionary (xmlCreatePushParserCtxt always
	 * makes one; SAX2's startElementNs hands names and namespace URIs out of it), or the
	 * reader's unescaped URI copies (one per dictionary string): both live, unchanged, as long
	 * as the cursor (the engine caches members by these pointers) */
	key->interned = true;
}

void
sd_xml_walker_root_key(const sd_xcursor *c, sd_wkey *key)
{
	name_key(key, &c->elem.name, SD_XML_ELEMENT, c->elem.offset);
}

/* ---- the ops ------------------------------------------------------------------------------ */

static int
xw_peek(sd_wcursor *cur, sd_wtok *tok)
{
	sd_xcursor *c = (sd_xcursor *) cur;

	if (!c->root_read)
	{
		const sd_xev *ev;

		c->root_read = true;
		/* the reader gives no text outside the root: its first event is the root's START */
		if (xw_next(c, &ev) < 0)
			return -1;
		if (xw_take_element(c, ev) < 0)
			return -1;
	}
	elem_token(c, tok);
	return 1;
}

static int
xw_object_begin(sd_wcursor *cur, const sd_wtok *tok)
{
	sd_xcursor *c = (sd_xcursor *) cur;

	if (!c->at_elem)
	{
		c->head.fail.code = SD_E_INTERNAL;
		c->head.fail.err = NULL;
		c->head.fail.problem = "object_begin without an element at the cursor";
		c->head.fail.offset = tok->offset;
		return -1;
	}
	if (c->nframes == c->cap)
	{
		uint32_t	ncap = c->cap ? c->cap * 2 : 16;
		xframe	   *nf = sd_hook_realloc(&c->d->hooks, c->frames, sizeof(xframe) * ncap);

		if (!nf)
			return xw_nomem(c);
		memset(nf + c->cap, 0, sizeof(xframe) * (ncap - c->cap));
		c->frames = nf;
		c->cap = ncap;
	}
	xframe	   *f = &c->frames[c->nframes];

	/* a slot keeps its text buffer for reuse */
	f->depth = c->elem.depth;
	f->phase = 0;
	f->next_attr = 0;
	f->nattrs = c->elem.nattrs;
	f->attrs = c->elem_attrs;
	f->ns = c->elem_ns;
	f->nns = c->elem.nns;
	f->text_len = 0;
	f->no_text = false;
	f->stext = c->elem.text;
	f->stext_len = c->elem.text_len;
	c->nframes++;
	c->at_elem = false;
	return 1;
}

static int
frame_text(sd_xcursor *c, xframe *f, const char *s, size_t n)
{
	if (f->text_len + n > f->text_cap)
	{
		size_t		want = f->text_cap ? f->text_cap : 256;

		while (want < f->text_len + n)
			want *= 2;
		char	   *nb = sd_hook_realloc(&c->d->hooks, f->text, want);

		if (!nb)
			return xw_nomem(c);
		f->text = nb;
		f->text_cap = want;
	}
	memcpy(f->text + f->text_len, s, n);
	f->text_len += n;
	return 1;
}

static int
xw_object_next(sd_wcursor *cur, sd_wkey *key, sd_wtok *tok, const sd_member *expect,
			   unsigned want)
{
	sd_xcursor *c = (sd_xcursor *) cur;
	xframe	   *f = &c->frames[c->nframes - 1];
	const sd_xev *ev;

	f->no_text = (want & SD_KEY_NO_TEXT) != 0;
	if (f->phase == 0)
	{
		if (f->next_attr < f->nattrs)
		{
			const sd_xattr *a = &f->attrs[f->next_attr++];

			name_key(key, &a->name, SD_XML_ATTRIBUTE, a->offset);
			text_token(tok, a->value, a->value_len, a->offset);
			return 1;
		}
		f->phase = 1;
	}
	if (f->phase == 1)
	{
		/* A leaf's one text piece is not copied into the frame: it stays in the reader's
		 * queue while the event after it is queued already (sd_xr_queued: fetching that one
		 * feeds no chunk, so nothing moves); any other event after it flushes it first. */
		const char *pend = NULL;
		size_t		plen = 0;

		if (f->stext_len)
		{
			/* the text on its START: in the document, so it stays where it is whatever the
			 * reader does next (pending like a leaf's one piece) */
			if (!(want & SD_KEY_NO_TEXT))
			{
				pend = f->stext;
				plen = f->stext_len;
			}
			f->stext_len = 0;
		}
		for (;;)
		{
			if (xw_next(c, &ev) < 0)
				return -1;
			if (pend && ev->kind != SD_XEV_END)
			{
				if (frame_text(c, f, pend, plen) < 0)
					return -1;
				pend = NULL;
			}
			if (ev->kind == SD_XEV_TEXT)
			{
				if (want & SD_KEY_NO_TEXT)
					continue;	/* the engine ignores it (walker.h SD_KEY_NO_TEXT) */
				if (f->text_len == 0 && sd_xr_queued(c->r))
				{
					pend = ev->text;
					plen = ev->text_len;
				}
				else if (frame_text(c, f, ev->text, ev->text_len) < 0)
					return -1;
				continue;
			}
			if (ev->kind == SD_XEV_START)
			{
				if (xw_take_element(c, ev) < 0)
					return -1;
				name_key(key, &ev->name, SD_XML_ELEMENT, ev->offset);
				elem_token(c, tok);
				return 1;
			}
			/* the END of this element; the text after it (the reader's text_on_end) is its
			 * parent's */
			c->last_end = ev->offset;
			if (ev->text_len && c->nframes >= 2 && !f[-1].no_text &&
				frame_text(c, f - 1, ev->text, ev->text_len) < 0)
				return -1;
			break;
		}
		f->phase = 2;
		if (!pend)
			plen = f->text_len;	/* (a pending piece: the frame holds no text) */
		if (plen > 0)
		{
			/* a leaf's one piece in the document itself (in place: the reader's text as
			 * written) lives as long as the document, like the arena: no copy */
			const char *s = pend;

			if (!pend || pend < c->doc || pend + plen > c->doc + c->len)
				s = sd_arena_strndup(&c->d->arena, pend ? pend : f->text, plen);
			if (!s)
				return xw_nomem(c);
			memset(key, 0, sizeof(*key));
			key->s = "";
			key->interned = true;	/* a static string */
			key->xml_kind = SD_XML_TEXT;
			key->offset = -1;
			text_token(tok, s, plen, -1);
			return 1;
		}
	}
	/* ended */
	c->nframes--;
	return 0;
}

static int
xw_object_find(sd_wcursor *cur, const char *name, size_t len, unsigned kinds, sd_wtok *tok)
{
	sd_xcursor *c = (sd_xcursor *) cur;
	xframe	   *f = &c->frames[c->nframes - 1];

	/* a union's tag: an attribute (no namespace) ... */
	for (uint32_t i = 0; (kinds & SD_TAG_ATTRIBUTE) && i < f->nattrs; i++)
		if (f->attrs[i].name.uri == NULL && f->attrs[i].name.local_len == len &&
			memcmp(f->attrs[i].name.local, name, len) == 0)
		{
			text_token(tok, f->attrs[i].value, f->attrs[i].value_len, f->attrs[i].offset);
			return 1;
		}
	/* ... or a child element in the element's namespace, found by looking ahead in the reader's
	 * events (the element was just begun: none of its children is consumed; the reader reads on
	 * past its batch when it must, up to its bound).  Its text is the tag's value. */
	const sd_xname *en = &c->elem.name;
	const sd_xev *ev;
	sd_error	err;
	int			pr;

	if (!(kinds & SD_TAG_ELEMENT))
		return 0;
	for (uint32_t i = 0; (pr = sd_xr_peek(c->r, i, &ev, &err)) == 1; i++)
	{
		if (ev->kind == SD_XEV_END && ev->depth == f->depth)
			return 0;			/* the element ended: no tag element */
		if (ev->kind != SD_XEV_START || ev->depth != f->depth + 1 || ev->name.local_len != len ||
			memcmp(ev->name.local, name, len) != 0 || ev->name.uri_len != en->uri_len ||
			(en->uri_len && memcmp(ev->name.uri, en->uri, en->uri_len) != 0))
			continue;
		const sd_xev *tx;
		int64_t		off = ev->offset;
		const char *st = ev->text;	/* its first text on the START (text_on_start) */
		size_t		stl = ev->text_len;

		if ((pr = sd_xr_peek(c->r, i + 1, &tx, &err)) < 0 && pr != -2)
			return xw_fail(c, &err);
		if (pr == 1 && tx->kind == SD_XEV_TEXT && stl)
		{
			/* a piece on the START, the rest after it: joined */
			char	   *j = sd_arena_alloc(&c->d->arena, stl + tx->text_len + 1);

			if (!j)
				return xw_nomem(c);
			memcpy(j, st, stl);
			memcpy(j + stl, tx->text, tx->text_len);
			j[stl + tx->text_len] = '\0';
			text_token(tok, j, stl + tx->text_len, off);
		}
		else if (pr == 1 && tx->kind == SD_XEV_TEXT)
			text_token(tok, tx->text, tx->text_len, off);
		else if (stl)
			text_token(tok, st, stl, off);
		else
			text_token(tok, "", 0, off);
		tok->flags |= SD_TOK_XML_ELEMENT;
		return 1;
	}
	if (pr == -1)
		return xw_fail(c, &err);
	if (pr == 0)
		return 0;				/* the document ends inside the element: the walk reports it */
	c->head.fail.code = SD_E_UNSUPPORTED;
	c->head.fail.err = NULL;
	c->head.fail.problem = "decoding XML: a union's tag element more than 16 MB into its element is not supported";
	c->head.fail.offset = c->elem.offset;
	return -1;
}

/* Whether the element at the cursor has a child element: its next events, looked ahead, up to
 * the first child's start or its own end (text in between only). */
static int
xw_has_children(sd_wcursor *cur, const sd_wtok *tok)
{
	sd_xcursor *c = (sd_xcursor *) cur;
	const sd_xev *ev;
	sd_error	err;
	int			pr;

	if (!c->at_elem)
	{
		c->head.fail.code = SD_E_INTERNAL;
		c->head.fail.err = NULL;
		c->head.fail.problem = "has_children without an element at the cursor";
		c->head.fail.offset = tok->offset;
		return -1;
	}
	for (uint32_t i = 0; (pr = sd_xr_peek(c->r, i, &ev, &err)) == 1; i++)
	{
		if (ev->kind == SD_XEV_START)
			return 1;
		if (ev->kind == SD_XEV_END)
			return 0;
	}
	if (pr == -1)
		return xw_fail(c, &err);
	if (pr == 0)
		return 0;				/* the document ends inside the element: the walk reports it */
	c->head.fail.code = SD_E_UNSUPPORTED;
	c->head.fail.err = NULL;
	c->head.fail.problem = "decoding XML: a one_of element with more than 16 MB of text before its first child element is not supported";
	c->head.fail.offset = c->elem.offset;
	return -1;
}

static int
xw_array_begin(sd_wcursor *cur, const sd_wtok *tok)
{
	cur->fail.code = SD_E_INTERNAL;
	cur->fail.err = NULL;
	cur->fail.problem = "XML has no arrays (lists are repeated or wrapped elements)";
	cur->fail.offset = tok->offset;
	return -1;
}

static int
xw_array_next(sd_wcursor *cur, sd_wtok *tok)
{
	return xw_array_begin(cur, tok);
}

/* The element at the cursor, unread, skipped to its end (a string has nothing to skip). */
static int
xw_skip_fast(sd_wcursor *cur, const sd_wtok *tok, uint32_t room)
{
	sd_xcursor *c = (sd_xcursor *) cur;
	const sd_xev *ev;

	if (tok->kind != SD_J_OBJECT)
		return 1;
	if (!c->at_elem)
		return 0;
	uint32_t	depth = c->elem.depth;

	c->at_elem = false;
	for (;;)
	{
		if (xw_next(c, &ev) < 0)
			return -1;
		if (ev->kind == SD_XEV_END && ev->depth == depth)
		{
			c->last_end = ev->offset;
			/* the text after it is the open element's (the reader's text_on_end) */
			if (ev->text_len && c->nframes >= 1 && !c->frames[c->nframes - 1].no_text &&
				frame_text(c, &c->frames[c->nframes - 1], ev->text, ev->text_len) < 0)
				return -1;
			return 1;
		}
	}
}

/* The namespace declarations of the i-th open element (xml_capture.h's sd_xns_scope). */
static const sd_xnsdecl *
xw_scope(void *ud, uint32_t i, uint32_t *n)
{
	const sd_xcursor *c = ud;

	*n = c->frames[i].nns;
	return c->frames[i].ns;
}

/* After the value was walked: an element as a standalone element (its bytes, with the
 * namespace declarations in scope that it uses and its line ends normalised: xml_capture.c;
 * the open frames are the elements around it), or a string's text. */
static int
xw_capture(sd_wcursor *cur, const sd_wtok *tok, unsigned how, sd_val *out)
{
	sd_xcursor *c = (sd_xcursor *) cur;

	if (tok->kind == SD_J_OBJECT)
	{
		const char *s;
		size_t		n;
		sd_error	err;

		if (!sd_xml_standalone(c->r, &c->d->hooks, &c->d->arena, tok->offset, c->last_end,
							   xw_scope, c, c->nframes, &s, &n, &err))
			return xw_fail(c, &err);
		out->u.s = s;
		out->len = (uint32_t) n;
	}
	else
	{
		out->u.s = tok->s;
		out->len = (uint32_t) tok->len;
	}
	return 1;
}

static int
xw_number_text(sd_wcursor *cur, sd_wtok *tok)
{
	return 1;                   /* no native numbers: every scalar is text */
}

/* After the root: the rest of the document read (it must end well-formed). */
static int
xw_finish(sd_wcursor *cur)
{
	sd_xcursor *c = (sd_xcursor *) cur;
	sd_error	err;

	if (sd_xr_drain(c->r, &err) < 0)
		return xw_fail(c, &err);
	return 1;
}

static void
xw_locate(sd_wcursor *cur, int64_t offset, uint32_t *line, uint32_t *column)
{
	sd_xr_locate(((sd_xcursor *) cur)->r, offset, line, column);
}

static void
xw_root_key(sd_wcursor *cur, sd_wkey *key)
{
	sd_xml_walker_root_key((const sd_xcursor *) cur, key);
}

static void
xw_batch_key(sd_wcursor *cur, sd_wkey *key)
{
	*key = ((const sd_xcursor *) cur)->batch_key;
}

static int
xw_ns_prefix(sd_wcursor *cur, const char *uri, size_t len, const char **prefix, size_t *plen)
{
	return sd_xml_walker_prefix((const sd_xcursor *) cur, uri, len, prefix, plen);
}

static const sd_walker_ops xml_ops = {
	.flags = SD_WF_REPEATED | SD_WF_XML,
	.peek = xw_peek,
	.object_begin = xw_object_begin,
	.object_next = xw_object_next,
	.object_find = xw_object_find,
	.has_children = xw_has_children,
	.array_begin = xw_array_begin,
	.array_next = xw_array_next,
	.skip_fast = xw_skip_fast,
	.capture = xw_capture,
	.number_direct = NULL,
	.number_text = xw_number_text,
	.finish = xw_finish,
	.locate = xw_locate,
	.root_key = xw_root_key,
	.batch_key = xw_batch_key,
	.ns_prefix = xw_ns_prefix,
};

sd_xcursor *
sd_xml_walker_open(sd_decoder *d, const char *doc, size_t len, const sd_limits *limits,
				   bool leaf_text_only, sd_error *err)
{
	sd_xr_options o = {0, 0, 0, leaf_text_only, true, true};

	if (limits)
	{
		o.max_depth = limits->max_depth;
		o.max_document_bytes = limits->max_document_bytes;
	}
	sd_xcursor *c = sd_hook_alloc(&d->hooks, sizeof(sd_xcursor));

	if (!c)
	{
		sd_error_clear(err);
		err->doc = SD_DOC_XML;
		sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
		return NULL;
	}
	memset(c, 0, sizeof(*c));
	c->r = sd_xr_open(&d->hooks, doc, len, &o, err);
	if (!c->r)
	{
		sd_hook_free(&d->hooks, c);
		return NULL;
	}
	c->head.ops = &xml_ops;
	c->d = d;
	c->doc = doc;
	c->len = len;
	return c;
}

sd_wcursor *
sd_xml_walker_cursor(sd_xcursor *c)
{
	return &c->head;
}

const sd_error *
sd_xml_walker_error(const sd_xcursor *c)
{
	return &c->xerr;
}

static bool
same(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

int
sd_xml_walker_prefix(const sd_xcursor *c, const char *uri, size_t len, const char **prefix,
					 size_t *plen)
{
	for (uint32_t i = c->nframes; i-- > 0;)
	{
		const xframe *f = &c->frames[i];

		for (uint32_t k = 0; k < f->nns; k++)
		{
			const sd_xnsdecl *d = &f->ns[k];

			if (!same(d->uri, d->uri_len, uri, len))
				continue;
			/* usable unless an element inside rebinds that prefix */
			bool		shadowed = false;

			for (uint32_t j = i + 1; j < c->nframes && !shadowed; j++)
				for (uint32_t m = 0; m < c->frames[j].nns && !shadowed; m++)
				{
					const sd_xnsdecl *e = &c->frames[j].ns[m];

					shadowed = (e->prefix == NULL) == (d->prefix == NULL) &&
						(d->prefix == NULL || same(e->prefix, e->prefix_len, d->prefix, d->prefix_len));
				}
			if (shadowed)
				continue;
			*prefix = d->prefix;
			*plen = d->prefix ? d->prefix_len : 0;
			return 1;
		}
	}
	return 0;
}

void
sd_xml_walker_locate(sd_xcursor *c, int64_t offset, uint32_t *line, uint32_t *column)
{
	sd_xr_locate(c->r, offset, line, column);
}

void
sd_xml_walker_close(sd_xcursor *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->cap; i++)
		sd_hook_free(&c->d->hooks, c->frames[i].text);
	sd_hook_free(&c->d->hooks, c->frames);
	sd_hook_free(&c->d->hooks, c->batch_ns);
	sd_xr_close(c->r);
	sd_hook_free(&c->d->hooks, c);
}

/* ---- batches (xml_each.c) ------------------------------------------------------------------ */

int
sd_xml_walker_batch_begin(sd_xcursor *c)
{
	const sd_xev *ev;
	size_t		bytes = 0;
	char	   *p;

	c->root_read = true;
	sd_xr_keep_queued(c->r);
	if (xw_next(c, &ev) < 0)
		return -1;
	/* the root's namespace declarations, in one block of hook memory (names and URIs after
	 * the array), so that the items' captures and paths see them after any arena reset */
	for (uint32_t i = 0; i < ev->nns; i++)
		bytes += ev->ns[i].prefix_len + ev->ns[i].uri_len + 2;
	if (ev->nns)
	{
		c->batch_ns = sd_hook_alloc(&c->d->hooks, sizeof(sd_xnsdecl) * ev->nns + bytes);
		if (!c->batch_ns)
			return xw_nomem(c);
		p = (char *) (c->batch_ns + ev->nns);
		for (uint32_t i = 0; i < ev->nns; i++)
		{
			c->batch_ns[i] = ev->ns[i];
			memcpy(p, ev->ns[i].uri, ev->ns[i].uri_len);
			p[ev->ns[i].uri_len] = '\0';
			c->batch_ns[i].uri = p;
			p += ev->ns[i].uri_len + 1;
			if (ev->ns[i].prefix)
			{
				memcpy(p, ev->ns[i].prefix, ev->ns[i].prefix_len);
				p[ev->ns[i].prefix_len] = '\0';
				c->batch_ns[i].prefix = p;
			}
			p += ev->ns[i].prefix_len + 1;
		}
	}
	name_key(&c->batch_key, &ev->name, SD_XML_ELEMENT, ev->offset);
	if (c->cap == 0)
	{
		c->frames = sd_hook_realloc(&c->d->hooks, NULL, sizeof(xframe) * 16);
		if (!c->frames)
			return xw_nomem(c);
		memset(c->frames, 0, sizeof(xframe) * 16);
		c->cap = 16;
	}
	c->frames[0].depth = ev->depth;
	c->frames[0].phase = 1;
	c->frames[0].nattrs = 0;
	c->frames[0].attrs = NULL;
	c->frames[0].ns = c->batch_ns;
	c->frames[0].nns = ev->nns;
	c->frames[0].text_len = 0;
	c->frames[0].no_text = true;	/* the root's own text is no item's */
	c->frames[0].stext_len = 0;
	c->nframes = 1;
	c->at_elem = false;
	return 1;
}

int
sd_xml_walker_batch_next(sd_xcursor *c, sd_wkey *key)
{
	const sd_xev *ev;

	/* what is left of the item before (a failed item ends where its element ends) */
	if (c->at_elem || c->nframes > 1)
	{
		c->at_elem = false;
		for (;;)
		{
			if (xw_next(c, &ev) < 0)
				return -1;
			if (ev->kind == SD_XEV_END && ev->depth == c->frames[0].depth + 1)
				break;
		}
		c->nframes = 1;
	}
	for (;;)
	{
		if (xw_next(c, &ev) < 0)
			return -1;
		if (ev->kind == SD_XEV_TEXT)
			continue;			/* the root's own text, between items: not an item */
		if (ev->kind == SD_XEV_END)
		{
			c->last_end = ev->offset;
			c->nframes = 0;
			return 0;
		}
		if (xw_take_element(c, ev) < 0)
			return -1;
		name_key(key, &ev->name, SD_XML_ELEMENT, ev->offset);
		return 1;
	}
}
