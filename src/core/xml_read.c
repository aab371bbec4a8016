/*
 * xml_read.c — the XML reader of xml_read.h: libxml2's SAX2 push parser fed in chunks, its
 * callbacks queueing compact events that sd_xr_next() hands out one at a time (pull), with
 * byte offsets and line/column positions, and the refusals that make hostile input harmless
 * (entity declarations, attribute defaults, namespace errors, depth, size, NUL bytes).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* memrchr */
#endif
#include "xml_read.h"
#include "internal.h"
#include "xml_messages.h"
#include "xml_scan.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

#include <stdarg.h>
#include <string.h>

#define XR_CHUNK_DEFAULT (64 * 1024)

struct sd_xreader
{
	sd_xr_head	h;              /* first: the queue and state (xml_read.h sd_xr_take) */
	sd_hooks	hooks;
	const char *doc;
	size_t		len;
	size_t		fed;            /* bytes handed to the parser so far */
	size_t		chunk;
	uint32_t	max_depth;
	uint32_t	depth;          /* elements open (SAX side) */
	xmlParserCtxtPtr ctxt;
	xmlSAXHandler sax;

	/* the queue of one batch (the events of one xmlParseChunk call); while a batch is being
	 * filled, string values are offsets into bytes (it may move), fixed into pointers after */
	uint32_t	qcap;
	sd_xattr   *attrs;
	uint32_t	alen;
	uint32_t	acap;
	sd_xnsdecl *ns;
	uint32_t	nlen;
	uint32_t	ncap;
	sd_xname   *names;          /* names[d - 1]: the name of the open element at depth d (an
								 * END takes its START's name: no strlen, no URI look-up) */
	uint32_t	names_cap;
	char	   *bytes;
	size_t		blen;
	size_t		bcap;
	uint32_t	qfixed;         /* q[0..qfixed) hold pointers (fixed up), the rest offsets */
	uint32_t   *fix;            /* the batch's events that hold offsets (a START with attributes
								 * or namespace declarations, a TEXT in bytes): xr_fixup's work */
	uint32_t	nfix;
	uint32_t	fix_cap;
	/* lookahead (sd_xr_peek) past the batch: the buffers the kept events point into */
	void	  **retired;
	uint32_t	nretired;
	uint32_t	cap_retired;
	uint32_t	extends;        /* chunks read ahead since the queue was last empty */
	uint64_t	accounted;      /* sd_xr_account's total */

	/* lengths of libxml2's names by pointer (it interns them: the same pointer recurs), a
	 * direct-mapped cache of XR_LENS slots */
	struct
	{
		const xmlChar *s;
		uint32_t	len;
	}			lens[64];
	/* the last namespace URI's length (libxml2 interns names: the same pointer recurs) */
	/* namespace URIs' lengths and forms as handed out (xr_uri) by libxml2's pointer (interned:
	 * the same pointer recurs), a direct-mapped cache of 8 slots */
	struct
	{
		const xmlChar *s;
		const char *fixed;
		uint32_t	len;
	}			uris_seen[8];
	/* namespace URIs that held '&' (libxml2 gives it as "&#38;"), unescaped copies by the
	 * dictionary's pointer: an open-addressing table of cap_uris (a power of two) slots */
	struct xr_urient *uris;
	uint32_t	nuris;
	uint32_t	cap_uris;

	/* forward line counting: the position of byte loc_off */
	size_t		loc_off;
	uint32_t	loc_line;
	uint32_t	loc_col;

	bool		drop_after_end; /* sd_xr_options.drop_text_after_end */
	bool		after_end;      /* the last element event was an END (text now: its parent's) */
	bool		text_on_end;    /* sd_xr_options.text_on_end */
	bool		text_on_start;  /* sd_xr_options.text_on_start */
	bool		terminated;     /* the final xmlParseChunk(terminate) was made */
	bool		root_seen;
	bool		failed_cb;      /* a callback or the error handler recorded err */
	bool		keep_queued;    /* batches: the events before a failure are handed out first */
	sd_error	err;
};

/* ---- small helpers ------------------------------------------------------------------------ */

static bool
xr_grow(sd_xreader *r, void **buf, uint32_t *cap, uint32_t need, size_t elem)
{
	return sd_grow(&r->hooks, buf, cap, need, elem);
}

/* Appends n bytes to r->bytes; returns their offset or SIZE_MAX on OOM. */
static size_t
xr_bytes(sd_xreader *r, const char *s, size_t n)
{
	if (r->blen + n + 1 > r->bcap)
	{
		size_t		want = r->bcap ? r->bcap : 4096;

		while (want < r->blen + n + 1)
			want *= 2;
		char	   *nb = sd_hook_realloc(&r->hooks, r->bytes, want);

		if (!nb)
			return SIZE_MAX;
		r->bytes = nb;
		r->bcap = want;
	}
	size_t		at = r->blen;

	memcpy(r->bytes + at, s, n);
	r->blen += n;
	r->bytes[r->blen] = '\0';
	return at;
}

static void
xr_fail(sd_xreader *r, sd_code code, uint32_t line, uint32_t col, const char *fmt, ...)
__attribute__((format(printf, 5, 6)));

static void
xr_fail(sd_xreader *r, sd_code code, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list		ap;

	if (r->failed_cb)
		return;
	r->failed_cb = true;
	sd_error_clear(&r->err);
	r->err.code = code;
	r->err.doc = SD_DOC_XML;
	r->err.offset = -1;
	r->err.line = line;
	r->err.column = col;
	strcpy(r->err.path, "/");   /* a document-level error: the document */
	va_start(ap, fmt);
	vsnprintf(r->err.problem, sizeof(r->err.problem), fmt, ap);
	va_end(ap);
	/* No xmlStopParser(): from inside libxml2 (the error handler, a start tag's callbacks) it
	 * frees the input buffer the parser is still reading.  The callbacks do nothing from now
	 * on and no further chunk is fed, so at most the rest of this chunk is parsed. */
}

static void
xr_nomem(sd_xreader *r)
{
	xr_fail(r, SD_E_NOMEM, 0, 0, "out of memory");
}

/* Byte offset of the parser's cursor in the document. */
static size_t
xr_pos(const sd_xreader *r)
{
	xmlParserInputPtr in = r->ctxt->input;

	if (!in || !in->cur || !in->base)
		return r->fed;
	size_t		p = (size_t) in->consumed + (size_t) (in->cur - in->base);

	return p > r->len ? r->len : p;
}

/* Character data ch[0..len) in the document when libxml2 handed it over in place (its input
 * holds the document's bytes as they are: the encoding is ignored); NULL when it comes from
 * elsewhere (an entity's or a character reference's replacement, a buffer of its own). */
static inline const char *
xr_in_doc(const sd_xreader *r, const xmlChar *ch, size_t len)
{
	xmlParserInputPtr in = r->ctxt->input;

	if (!in || !in->base || !in->end || ch < in->base || ch + len > in->end)
		return NULL;
	size_t		at = (size_t) in->consumed + (size_t) (ch - in->base);

	return at + len <= r->len ? r->doc + at : NULL;
}

/* A CDATA piece ch[0..len) ending in CR: whether the document's byte after that CR is an LF
 * (libxml2 may cut a section's content into pieces anywhere, between CR and LF too: the LF
 * then starts the next piece).  The piece points into the parser's input, which holds the
 * document's bytes as they are (the encoding is ignored), so its offset is known. */
static bool
xr_cr_before_lf(const sd_xreader *r, const xmlChar *ch, size_t len)
{
	xmlParserInputPtr in = r->ctxt->input;

	if (len == 0 || ch[len - 1] != '\r' || !in || !in->base || !in->end ||
		ch < in->base || ch + len > in->end)
		return false;
	size_t		at = (size_t) in->consumed + (size_t) (ch - in->base) + len;

	return at < r->len && r->doc[at - 1] == '\r' && r->doc[at] == '\n';
}

void
sd_xr_locate(sd_xreader *r, int64_t offset, uint32_t *line, uint32_t *column)
{
	size_t		to = offset < 0 ? 0 : (size_t) offset;

	if (to > r->len)
		to = r->len;
	if (to < r->loc_off)
	{
		/* backwards (rare: an attribute located again): count from the start */
		r->loc_off = 0;
		r->loc_line = 1;
		r->loc_col = 1;
	}
	sd_xml_count_position(r->doc, r->len, r->loc_off, to, &r->loc_line, &r->loc_col);
	r->loc_off = to;
	*line = r->loc_line;
	*column = r->loc_col;
}

bool
sd_xr_account(sd_xreader *r, size_t units)
{
	uint64_t	budget = 8 * (uint64_t) r->len + 1024 * 1024;

	if (units > budget || r->accounted > budget - units)
		return false;
	r->accounted += units;
	return true;
}

const char *
sd_xr_document(const sd_xreader *r, size_t *len)
{
	*len = r->len;
	return r->doc;
}

typedef struct xr_urient
{
	const xmlChar *orig;		/* libxml2's string (its dictionary's, or its namespace table's) */
	char	   *fixed;			/* hook-allocated, freed by sd_xr_close */
	uint32_t	len;
} xr_urient;

static uint32_t
xr_uri_slot(const xr_urient *t, uint32_t cap, const xmlChar *u)
{
	uint32_t	i = (uint32_t) (((uintptr_t) u >> 3) * 2654435761u) & (cap - 1);

	while (t[i].orig && t[i].orig != u)
		i = (i + 1) & (cap - 1);
	return i;
}

/*
 * A namespace URI as the document means it.  Without entity substitution libxml2 hands a
 * namespace URI over with every '&' it decoded written as "&#38;", as it does attribute values
 * (sd_xml_unescape_amp): a URI with '&' is turned back, once per string of libxml2's (the same
 * pointer recurs), into a copy that lives until sd_xr_close.  *len: in, strlen; out, the
 * copy's.
 */
static const char *
xr_uri(sd_xreader *r, const xmlChar *u, uint32_t *len)
{
	if (!memchr(u, '&', *len))
		return (const char *) u;
	if (r->nuris * 2 >= r->cap_uris)
	{
		uint32_t	ncap = r->cap_uris ? r->cap_uris * 2 : 16;
		xr_urient  *nt = sd_hook_alloc(&r->hooks, sizeof(xr_urient) * ncap);

		if (!nt)
		{
			xr_nomem(r);
			return (const char *) u;
		}
		memset(nt, 0, sizeof(xr_urient) * ncap);
		for (uint32_t i = 0; i < r->cap_uris; i++)
			if (r->uris[i].orig)
				nt[xr_uri_slot(nt, ncap, r->uris[i].orig)] = r->uris[i];
		sd_hook_free(&r->hooks, r->uris);
		r->uris = nt;
		r->cap_uris = ncap;
	}
	xr_urient  *e = &r->uris[xr_uri_slot(r->uris, r->cap_uris, u)];

	if (!e->orig)
	{
		char	   *c = sd_hook_alloc(&r->hooks, (size_t) *len + 1);

		if (!c)
		{
			xr_nomem(r);
			return (const char *) u;
		}
		memcpy(c, u, *len);
		e->len = (uint32_t) sd_xml_unescape_amp(c, *len);
		c[e->len] = '\0';
		e->fixed = c;
		e->orig = u;
		r->nuris++;
	}
	*len = e->len;
	return e->fixed;
}

/* strlen of one of libxml2's names (a string of its dictionary: its bytes never change while
 * the parser lives), through the reader's small cache */
static inline uint32_t
xr_len(sd_xreader *r, const xmlChar *s)
{
	uint32_t	h = (uint32_t) (((uint64_t) (uintptr_t) s * 0x9E3779B97F4A7C15ull) >> 58);

	if (r->lens[h].s != s)
	{
		r->lens[h].s = s;
		r->lens[h].len = (uint32_t) strlen((const char *) s);
	}
	return r->lens[h].len;
}

/* A namespace URI other than the last one seen: its length, unescaped (xr_uri), remembered. */
static __attribute__((noinline)) void
xr_name_uri(sd_xreader *r, sd_xname *n, const xmlChar *uri)
{
	n->uri_len = (uint32_t) strlen((const char *) uri);
	n->uri = xr_uri(r, uri, &n->uri_len);
	uint32_t	h = (uint32_t) (((uint64_t) (uintptr_t) uri * 0x9E3779B97F4A7C15ull) >> 61);

	r->uris_seen[h].s = uri;
	r->uris_seen[h].fixed = n->uri;
	r->uris_seen[h].len = n->uri_len;
}

/* *n = the name (lengths from the cache, the URI as the document means it; "" is none). */
static inline __attribute__((always_inline)) void
xr_name(sd_xreader *r, sd_xname *n, const xmlChar *local, const xmlChar *prefix,
		const xmlChar *uri)
{
	n->local = (const char *) local;
	n->local_len = local ? xr_len(r, local) : 0;
	n->prefix = (const char *) prefix;
	n->prefix_len = prefix ? xr_len(r, prefix) : 0;
	if (!uri)
	{
		n->uri = NULL;
		n->uri_len = 0;
		return;
	}
	uint32_t	h = (uint32_t) (((uint64_t) (uintptr_t) uri * 0x9E3779B97F4A7C15ull) >> 61);

	if (r->uris_seen[h].s == uri)
	{
		n->uri = r->uris_seen[h].fixed;
		n->uri_len = r->uris_seen[h].len;
	}
	else
		xr_name_uri(r, n, uri);
	if (n->uri_len == 0)
		n->uri = NULL;
}

/* Event q[i] of the batch holds offsets: xr_fixup turns them into pointers. */
static inline bool
xr_mark_fix(sd_xreader *r, uint32_t i)
{
	if (__builtin_expect(r->nfix == r->fix_cap, 0) &&
		!xr_grow(r, (void **) &r->fix, &r->fix_cap, r->nfix + 1, sizeof(uint32_t)))
	{
		xr_nomem(r);
		return false;
	}
	r->fix[r->nfix++] = i;
	return true;
}

static __attribute__((noinline)) bool
xr_push_grow(sd_xreader *r)
{
	if (!xr_grow(r, (void **) &r->h.q, &r->qcap, r->h.qlen + 1, sizeof(sd_xev)))
	{
		xr_nomem(r);
		return false;
	}
	return true;
}

static inline __attribute__((always_inline)) sd_xev *
xr_push(sd_xreader *r, sd_xev_kind kind)
{
	if (__builtin_expect(r->h.qlen == r->qcap, 0) && !xr_push_grow(r))
		return NULL;
	sd_xev	   *e = &r->h.q[r->h.qlen++];

	/* every field is set by the caller or here (no memset of the whole event) */
	e->kind = kind;
	e->attrs = NULL;
	e->ns = NULL;
	e->nattrs = 0;
	e->nns = 0;
	return e;
}

/* ---- SAX callbacks (userData is the reader) ------------------------------------------------- */

/* While a batch is filled, an attribute value in place in the document (a pointer, not an
 * offset into the bytes) is marked in its value_len (a document is under 2 GB). */
#define XR_VALUE_IN_DOC ((size_t) 1 << 62)

static void
sax_start(void *ud, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri,
		  int nb_ns, const xmlChar **namespaces, int nb_attrs, int nb_defaulted,
		  const xmlChar **attributes)
{
	sd_xreader *r = ud;

	if (r->failed_cb)
		return;
	r->depth++;
	r->root_seen = true;
	r->after_end = false;

	/* the '<' that starts this tag: the cursor is at its '>' (or "/>"), and no '<' can occur
	 * inside a start tag (attribute values may not hold one) */
	size_t		end = xr_pos(r);
	size_t		lt = end < r->len ? end : (r->len ? r->len - 1 : 0);

	const char *lp = memrchr(r->doc, '<', lt + 1);

	lt = lp ? (size_t) (lp - r->doc) : 0;
	if (r->depth > r->max_depth || nb_defaulted > 0)
	{
		uint32_t	line,
					col;

		/* positions are counted only for an error (sd_xr_locate) */
		sd_xr_locate(r, (int64_t) lt, &line, &col);
		if (r->depth > r->max_depth)
		{
			xr_fail(r, SD_E_DEPTH, line, col,
					"document nesting exceeds serde.max_depth (%u)", r->max_depth);
			r->err.offset = (int64_t) lt;
		}
		else					/* never: attribute defaults are refused at their declaration */
			xr_fail(r, SD_E_XML_SYNTAX, line, col, "attribute defaults from a DTD are not allowed");
		return;
	}
	if (r->depth > r->names_cap &&
		!xr_grow(r, (void **) &r->names, &r->names_cap, r->depth, sizeof(sd_xname)))
	{
		xr_nomem(r);
		return;
	}

	sd_xev	   *e = xr_push(r, SD_XEV_START);

	if (!e)
		return;
	e->depth = r->depth;
	e->offset = (int64_t) lt;
	xr_name(r, &e->name, local, prefix, uri);
	if ((nb_ns > 0 || nb_attrs > 0) && !xr_mark_fix(r, r->h.qlen - 1))
		return;
	e->text = NULL;
	e->text_len = 0;
	r->names[r->depth - 1] = e->name;

	if (nb_ns > 0)
	{
		if (!xr_grow(r, (void **) &r->ns, &r->ncap, r->nlen + nb_ns, sizeof(sd_xnsdecl)))
		{
			xr_nomem(r);
			return;
		}
		e->ns = (const sd_xnsdecl *) (uintptr_t) r->nlen;   /* fixed up after the batch */
		e->nns = (uint32_t) nb_ns;
		for (int i = 0; i < nb_ns; i++)
		{
			sd_xnsdecl *d = &r->ns[r->nlen++];
			const xmlChar *p = namespaces[2 * i],
					   *u = namespaces[2 * i + 1];

			d->prefix = (const char *) p;
			d->prefix_len = p ? (uint32_t) strlen((const char *) p) : 0;
			d->uri_len = u ? (uint32_t) strlen((const char *) u) : 0;
			d->uri = u ? xr_uri(r, u, &d->uri_len) : "";
		}
	}
	if (nb_attrs > 0)
	{
		if (!xr_grow(r, (void **) &r->attrs, &r->acap, r->alen + nb_attrs, sizeof(sd_xattr)))
		{
			xr_nomem(r);
			return;
		}
		sd_xattr   *a = &r->attrs[r->alen];

		e->attrs = (const sd_xattr *) (uintptr_t) r->alen;
		e->nattrs = (uint32_t) nb_attrs;
		r->alen += nb_attrs;
		bool		scan = false;

		for (int i = 0; i < nb_attrs; i++)
		{
			const xmlChar **at = attributes + 5 * i;
			size_t		vlen = (size_t) (at[4] - at[3]);
			const char *dv = xr_in_doc(r, at[3], vlen);

			xr_name(r, &a[i].name, at[0], at[1], at[2]);
			if (dv)
			{
				/* in place (libxml2 hands a value over in its input when it holds only
				 * printable ASCII without '&' or '<': nothing to normalise or unescape): the
				 * document's bytes, marked for xr_fixup; its name found back from it */
				a[i].value = dv;
				a[i].value_len = vlen | XR_VALUE_IN_DOC;
				a[i].offset = sd_xml_attr_name_at(r->doc, (size_t) (dv - r->doc), &a[i].name);
				scan |= a[i].offset < 0;
				continue;
			}
			size_t		off = xr_bytes(r, (const char *) at[3], vlen);

			if (off == SIZE_MAX)
			{
				xr_nomem(r);
				return;
			}
			vlen = sd_xml_unescape_amp(r->bytes + off, vlen);
			r->blen = off + vlen;
			a[i].value = (const char *) (uintptr_t) off;
			a[i].value_len = vlen;
			a[i].offset = -1;
			scan = true;
		}
		if (scan)
			sd_xml_attr_offsets(r->doc, lt, end, a, nb_attrs);
		for (int i = 0; i < nb_attrs; i++)
			if (a[i].offset < 0)
				a[i].offset = (int64_t) lt;
	}
}

static void
sax_end(void *ud, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri)
{
	sd_xreader *r = ud;

	if (r->failed_cb)
		return;
	sd_xev	   *e = xr_push(r, SD_XEV_END);

	if (!e)
		return;
	/* the name of its START (the same strings of libxml2's: they are interned) */
	e->name = r->names[r->depth - 1];
	e->depth = r->depth--;
	e->offset = (int64_t) xr_pos(r);
	e->text = NULL;
	e->text_len = 0;
	r->after_end = r->drop_after_end;
}

/* A TEXT event at the current depth: its text in place in the document (inb false) or an
 * offset into the batch's bytes (inb: marked by nns = 1 and on the fix list until the batch is
 * fixed up). */
static inline __attribute__((always_inline)) void
xr_push_text(sd_xreader *r, const char *text, size_t len, bool inb)
{
	sd_xev	   *e = xr_push(r, SD_XEV_TEXT);

	if (!e)
		return;
	e->depth = r->depth;
	e->offset = -1;
	memset(&e->name, 0, sizeof(e->name));
	e->text = text;
	e->text_len = len;
	if (inb)
	{
		e->nns = 1;
		xr_mark_fix(r, r->h.qlen - 1);
	}
}

static __attribute__((noinline)) void
xr_text_slow(sd_xreader *r, const xmlChar *ch, size_t len, bool cdata, const char *dp);

/* Text that libxml2 hands over in place is not copied: the event points into the document (a
 * TEXT in the batch's bytes is marked by nns = 1 until the batch is fixed up), as long as its
 * pieces follow each other there; otherwise the pieces are merged in the batch's bytes as
 * before.  The common cases inline (in place, after a START or on an END), the rest in
 * xr_text_slow. */
static inline __attribute__((always_inline)) void
xr_text(sd_xreader *r, const xmlChar *ch, size_t len, bool cdata)
{
	const char *dp = cdata ? NULL : xr_in_doc(r, ch, len);

	if (__builtin_expect(dp != NULL, 1))
	{
		sd_xev	   *last = r->h.qlen > r->qfixed ? &r->h.q[r->h.qlen - 1] : NULL;

		/* on the START or END before it (text_on_start / text_on_end), while the pieces
		 * follow each other in the document */
		if (last && (last->kind == SD_XEV_END ? r->text_on_end :
					 last->kind == SD_XEV_START && r->text_on_start) &&
			(last->text_len == 0 || last->text + last->text_len == dp))
		{
			if (last->text_len == 0)
				last->text = dp;
			last->text_len += len;
			return;
		}
		if (!last || last->kind == SD_XEV_START)
		{
			xr_push_text(r, dp, len, false);
			return;
		}
	}
	xr_text_slow(r, ch, len, cdata, dp);
}

static __attribute__((noinline)) void
xr_text_slow(sd_xreader *r, const xmlChar *ch, size_t len, bool cdata, const char *dp)
{
	sd_xev	   *last = r->h.qlen > r->qfixed ? &r->h.q[r->h.qlen - 1] : NULL;

	if (last && last->kind != SD_XEV_TEXT)
	{
		/* after an END: on the END itself while the pieces follow each other in place */
		if (last->kind == SD_XEV_END && r->text_on_end && dp &&
			(last->text_len == 0 || last->text + last->text_len == dp))
		{
			if (last->text_len == 0)
				last->text = dp;
			last->text_len += len;
			return;
		}
		last = NULL;
	}

	if (dp && !last)
	{
		xr_push_text(r, dp, len, false);
		return;
	}
	if (dp && !last->nns && last->text + last->text_len == dp)
	{
		last->text_len += len;
		return;
	}
	if (last && !last->nns)
	{
		/* the piece before was in place: into the bytes, for this one to join it */
		size_t		o = xr_bytes(r, last->text, last->text_len);

		if (o == SIZE_MAX)
		{
			xr_nomem(r);
			return;
		}
		last->text = (const char *) (uintptr_t) o;
		last->nns = 1;
		if (!xr_mark_fix(r, r->h.qlen - 1))
			return;
	}
	size_t		off = xr_bytes(r, (const char *) ch, len);

	if (off == SIZE_MAX)
	{
		xr_nomem(r);
		return;
	}
	if (cdata && memchr(r->bytes + off, '\r', len))
	{
		len = sd_xml_eol(r->bytes + off, len, xr_cr_before_lf(r, ch, len));
		r->blen = off + len;
		r->bytes[r->blen] = '\0';
		if (len == 0)
			return;
	}
	if (last && (size_t) (uintptr_t) last->text + last->text_len == off)
	{
		last->text_len += len;
		return;
	}
	xr_push_text(r, (const char *) (uintptr_t) off, len, true);
}

/* Text, entity and character references: libxml2 has normalised the line ends already (CR LF
 * and a lone CR are LF), and a CR that arrives here came from &#13; — it stays. */
static void
sax_text(void *ud, const xmlChar *ch, int len)
{
	sd_xreader *r = ud;

	if (r->failed_cb || len <= 0 || r->after_end)
		return;
	xr_text(r, ch, (size_t) len, false);
}

/* A CDATA section's content (or a piece of it): libxml2 hands it over as written, CRs
 * included, so its line ends are normalised here as XML says (CR LF and a lone CR are LF). */
static void
sax_cdata(void *ud, const xmlChar *ch, int len)
{
	sd_xreader *r = ud;

	if (r->failed_cb || len <= 0 || r->after_end)
		return;
	xr_text(r, ch, (size_t) len, true);
}

/* Where the parser is, for refusals raised from declaration callbacks. */
static void
xr_here(sd_xreader *r, uint32_t *line, uint32_t *col)
{
	*line = (uint32_t) xmlSAX2GetLineNumber(r->ctxt);
	*col = (uint32_t) xmlSAX2GetColumnNumber(r->ctxt);
}

static void
sax_entity_decl(void *ud, const xmlChar *name, int type, const xmlChar *publicId,
				const xmlChar *systemId, xmlChar *content)
{
	sd_xreader *r = ud;
	uint32_t	line,
				col;

	xr_here(r, &line, &col);
	xr_fail(r, SD_E_XML_SYNTAX, line, col,
			"entity declarations are not allowed (entity \"%.40s\"); only the predefined entities are",
			name ? (const char *) name : "");
}

static void
sax_unparsed_entity_decl(void *ud, const xmlChar *name, const xmlChar *publicId,
						 const xmlChar *systemId, const xmlChar *notationName)
{
	sax_entity_decl(ud, name, 0, publicId, systemId, NULL);
}

static void
sax_attribute_decl(void *ud, const xmlChar *elem, const xmlChar *fullname, int type, int def,
				   const xmlChar *defaultValue, xmlEnumerationPtr tree)
{
	sd_xreader *r = ud;

	if (tree)
		xmlFreeEnumeration(tree);   /* the callback owns it */
	if (defaultValue != NULL)
	{
		uint32_t	line,
					col;

		xr_here(r, &line, &col);
		xr_fail(r, SD_E_XML_SYNTAX, line, col,
				"attribute defaults in a DTD are not allowed (attribute \"%.40s\" of \"%.40s\")",
				fullname ? (const char *) fullname : "", elem ? (const char *) elem : "");
	}
}

static xmlEntityPtr
sax_get_entity(void *ud, const xmlChar *name)
{
	return xmlGetPredefinedEntity(name);
}

static xmlEntityPtr
sax_get_param_entity(void *ud, const xmlChar *name)
{
	return NULL;
}

static xmlParserInputPtr
sax_resolve_entity(void *ud, const xmlChar *publicId, const xmlChar *systemId)
{
	return NULL;
}

/* Legacy handlers, set only so that libxml2 always has a channel; the structured handler below
 * receives every error. */
static void
sax_ignore_msg(void *ud, const char *msg,...)
{
}

static void
xr_structured_error(void *ud, xmlErrorPtr e)
{
	sd_xreader *r = ud;

	if (!r || !e || e->level < XML_ERR_ERROR || e->code == XML_ERR_USER_STOP)
		return;
	if (e->code == XML_ERR_NO_MEMORY)
	{
		xr_nomem(r);
		return;
	}
	char		msg[SD_PROBLEM_MAX];
	size_t		n = 0;

	/* libxml2's messages end in a newline, and some carry one inside ("Comment not terminated
	 * \n<!--…", with document text after it): one line, whitespace runs as one space, none
	 * at either end */
	if (e->message)
	{
		bool		gap = false;

		for (const char *m = e->message; *m && n < sizeof(msg) - 1; m++)
		{
			if (sd_is_ws(*m))
			{
				gap = n > 0;
				continue;
			}
			if (gap && n < sizeof(msg) - 2)
				msg[n++] = ' ';
			gap = false;
			msg[n++] = *m;
		}
	}
	msg[n] = '\0';
	/* the common cases in plain words (xml_messages.c); the others as libxml2 says them */
	{
		char		plain[SD_PROBLEM_MAX];

		if (n && sd_xml_plain_message(msg, e->str1, e->str2, e->int1, plain, sizeof(plain)))
		{
			snprintf(msg, sizeof(msg), "%s", plain);
			n = strlen(msg);
		}
	}
	if ((e->code == XML_ERR_DOCUMENT_END || e->code == XML_ERR_DOCUMENT_EMPTY) && !r->root_seen)
	{
		snprintf(msg, sizeof(msg), "the document has no root element");
		n = strlen(msg);
	}
	else if (e->code == XML_ERR_DOCUMENT_END && r->depth > 0)
	{
		/* libxml2's push parser says "Extra content at the end of the document" when the
		 * input ends with elements open */
		snprintf(msg, sizeof(msg), "premature end of the document, %u element%s not closed",
				 r->depth, r->depth == 1 ? "" : "s");
		n = strlen(msg);
	}
	bool		first = !r->failed_cb;

	xr_fail(r, SD_E_XML_SYNTAX, e->line > 0 ? (uint32_t) e->line : 0,
			e->int2 > 0 ? (uint32_t) e->int2 : 0, "malformed XML: %s", n ? msg : "parse error");
	if (first && r->ctxt)
		r->err.offset = (int64_t) xr_pos(r);
}

/* ---- libxml2's process-wide state, saved and restored around every call ---------------------- */

typedef struct xr_saved
{
	xmlStructuredErrorFunc serr;
	void	   *serr_ctx;
	xmlGenericErrorFunc gerr;
	void	   *gerr_ctx;
	xmlExternalEntityLoader loader;
} xr_saved;

static xmlParserInputPtr
xr_deny_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
	return NULL;                /* nothing is ever loaded */
}

static void
xr_generic_ignore(void *ctx, const char *msg,...)
{
}

static void
xr_enter(sd_xreader *r, xr_saved *s)
{
	s->serr = xmlStructuredError;
	s->serr_ctx = xmlStructuredErrorContext;
	s->gerr = xmlGenericError;
	s->gerr_ctx = xmlGenericErrorContext;
	s->loader = xmlGetExternalEntityLoader();
	xmlSetStructuredErrorFunc(r, xr_structured_error);
	xmlSetGenericErrorFunc(r, xr_generic_ignore);
	xmlSetExternalEntityLoader(xr_deny_loader);
}

static void
xr_leave(const xr_saved *s)
{
	xmlSetExternalEntityLoader(s->loader);
	xmlSetGenericErrorFunc(s->gerr_ctx, s->gerr);
	xmlSetStructuredErrorFunc(s->serr_ctx, s->serr);
}

/* ---- buffers kept for the thread's next reader ---------------------------------------------- */

/* A reader with malloc hooks leaves its buffers (each up to XR_SPARE_MAX bytes) to the thread's
 * next reader instead of freeing them: a document then costs no buffer growth (realloc and
 * copy) and no first touch of fresh memory. */
#define XR_SPARE_MAX ((size_t) 1 << 20)

typedef struct xr_spare			/* the buffers of sd_xreader and their capacities */
{
	sd_xev	   *q;
	sd_xattr   *attrs;
	sd_xnsdecl *ns;
	sd_xname   *names;
	char	   *bytes;
	uint32_t   *fix;
	uint32_t	qcap, acap, ncap, names_cap, fix_cap;
	size_t		bcap;
	xmlParserCtxtPtr ctxt;		/* libxml2's parser context (xr_keep_ctxt) */
} xr_spare;

static _Thread_local xr_spare xr_kept;

static bool
xr_plain_hooks(const sd_hooks *h)
{
	return !h->alloc && !h->realloc && !h->free;
}

static void
xr_take_spare(sd_xreader *r)
{
	if (!xr_plain_hooks(&r->hooks))
		return;
	r->h.q = xr_kept.q;
	r->qcap = xr_kept.qcap;
	r->attrs = xr_kept.attrs;
	r->acap = xr_kept.acap;
	r->ns = xr_kept.ns;
	r->ncap = xr_kept.ncap;
	r->names = xr_kept.names;
	r->names_cap = xr_kept.names_cap;
	r->bytes = xr_kept.bytes;
	r->bcap = xr_kept.bcap;
	r->fix = xr_kept.fix;
	r->fix_cap = xr_kept.fix_cap;
	xmlParserCtxtPtr c = xr_kept.ctxt;	/* (taken by xr_take_ctxt) */

	memset(&xr_kept, 0, sizeof(xr_kept));
	xr_kept.ctxt = c;
}

/* At most this many names in a kept parser context's dictionary (it grows with the names of
 * every document the context reads). */
#define XR_DICT_KEEP_MAX 4096

/*
 * The parser context is kept too, as the floor's SAX2 loop keeps its own (bench/pgfloor): no
 * context, dictionary and tables made and freed per document.  Only after a document read to its
 * end, well-formed, with no internal subset (no attribute types or defaults declared: nothing of
 * it can reach the next document), and while its dictionary is small; xmlCtxtResetPush (at the
 * next sd_xr_open) clears everything else (stacks, input, well-formedness, counts, errors).
 */
static bool
xr_keep_ctxt(sd_xreader *r)
{
	xmlParserCtxtPtr c = r->ctxt;

	if (!xr_plain_hooks(&r->hooks) || xr_kept.ctxt || !r->terminated || r->failed_cb ||
		!c->wellFormed || !c->nsWellFormed || c->attsDefault || c->attsSpecial ||
		c->inputNr != 1 || c->nameNr != 0 || !c->dict || xmlDictSize(c->dict) > XR_DICT_KEEP_MAX)
		return false;
	c->userData = NULL;
	xr_kept.ctxt = c;
	r->ctxt = NULL;
	return true;
}

/* The thread's kept parser context, reset for a new document, or NULL. */
static xmlParserCtxtPtr
xr_take_ctxt(sd_xreader *r)
{
	xmlParserCtxtPtr c = xr_kept.ctxt;

	if (!c || !xr_plain_hooks(&r->hooks))
		return NULL;
	xr_kept.ctxt = NULL;
	if (xmlCtxtResetPush(c, NULL, 0, NULL, NULL) != 0)
	{
		xmlFreeParserCtxt(c);
		return NULL;
	}
	/* as xmlCreatePushParserCtxt without a first chunk: the encoding (a BOM) is found at the
	 * first chunk */
	c->charset = XML_CHAR_ENCODING_NONE;
	c->userData = r;
	return c;
}

/* Keeps *buf (of `bytes` bytes) for the next reader, or frees it (too large, or one is kept). */
static void
xr_keep(sd_xreader *r, void **slot, void *buf, size_t bytes)
{
	if (!buf)
		return;
	if (xr_plain_hooks(&r->hooks) && !*slot && bytes <= XR_SPARE_MAX)
		*slot = buf;
	else
		sd_hook_free(&r->hooks, buf);
}

static void
xr_leave_spare(sd_xreader *r)
{
#define XR_KEEP2(f, rf, capf, size) do { \
		xr_keep(r, (void **) &xr_kept.f, rf, (size)); \
		if (xr_kept.f == rf) \
			xr_kept.capf = r->capf; \
	} while (0)
#define XR_KEEP(f, capf, size) XR_KEEP2(f, r->f, capf, size)
	XR_KEEP2(q, r->h.q, qcap, sizeof(sd_xev) * r->qcap);
	XR_KEEP(attrs, acap, sizeof(sd_xattr) * r->acap);
	XR_KEEP(ns, ncap, sizeof(sd_xnsdecl) * r->ncap);
	XR_KEEP(names, names_cap, sizeof(sd_xname) * r->names_cap);
	XR_KEEP(bytes, bcap, r->bcap);
	XR_KEEP(fix, fix_cap, sizeof(uint32_t) * r->fix_cap);
#undef XR_KEEP
#undef XR_KEEP2
}

/* ---- the pull side ------------------------------------------------------------------------- */

sd_xreader *
sd_xr_open(const sd_hooks *hooks, const char *doc, size_t len, const sd_xr_options *opt,
		   sd_error *err)
{
	uint64_t	max_bytes = opt && opt->max_document_bytes ? opt->max_document_bytes
		: SD_DEFAULT_MAX_DOCUMENT_BYTES;

	sd_error_clear(err);
	err->doc = SD_DOC_XML;
	strcpy(err->path, "/");
	if ((uint64_t) len > max_bytes)
	{
		sd_error_set(err, SD_E_SIZE, -1,
					 "document of %zu bytes exceeds serde.max_document_bytes (%llu)",
					 len, (unsigned long long) max_bytes);
		return NULL;
	}
	const char *nul = memchr(doc, '\0', len);

	if (nul)
	{
		/* UTF-16 and other NUL-bearing input: the text must be UTF-8 */
		sd_error_set(err, SD_E_XML_SYNTAX, nul - doc,
					 "malformed XML: a NUL byte (the document must be UTF-8 text)");
		return NULL;
	}
	if (len > (size_t) INT32_MAX)
	{
		sd_error_set(err, SD_E_SIZE, -1, "document of %zu bytes is too large for XML", len);
		return NULL;
	}

	sd_xreader *r = sd_hook_alloc(hooks, sizeof(sd_xreader));

	if (!r)
	{
		sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
		return NULL;
	}
	memset(r, 0, sizeof(*r));
	if (hooks)
		r->hooks = *hooks;
	r->doc = doc;
	r->len = len;
	r->chunk = opt && opt->chunk ? opt->chunk : XR_CHUNK_DEFAULT;
	r->max_depth = opt && opt->max_depth ? opt->max_depth : SD_DEFAULT_MAX_DEPTH;
	r->drop_after_end = opt && opt->drop_text_after_end;
	r->text_on_end = opt && opt->text_on_end;
	r->text_on_start = opt && opt->text_on_start;
	r->loc_line = 1;
	r->loc_col = 1;
	xr_take_spare(r);

	xmlSAXHandler *s = &r->sax;

	s->initialized = XML_SAX2_MAGIC;
	s->startElementNs = sax_start;
	s->endElementNs = sax_end;
	s->characters = sax_text;
	s->cdataBlock = sax_cdata;
	s->ignorableWhitespace = sax_text;
	s->entityDecl = sax_entity_decl;
	s->unparsedEntityDecl = sax_unparsed_entity_decl;
	s->attributeDecl = sax_attribute_decl;
	s->getEntity = sax_get_entity;
	s->getParameterEntity = sax_get_param_entity;
	s->resolveEntity = sax_resolve_entity;
	s->warning = sax_ignore_msg;
	s->error = sax_ignore_msg;
	s->fatalError = sax_ignore_msg;
	s->serror = xr_structured_error;
	/* internalSubset / externalSubset / reference / comment / processingInstruction /
	 * startDocument stay NULL: no DTD is built or loaded, no tree is made */

	xr_saved	saved;

	xmlInitParser();
	xr_enter(r, &saved);
	r->ctxt = xr_take_ctxt(r);
	if (!r->ctxt)
		r->ctxt = xmlCreatePushParserCtxt(s, r, NULL, 0, NULL);
	if (r->ctxt)
	{
		xmlCtxtUseOptions(r->ctxt, XML_PARSE_NONET | XML_PARSE_IGNORE_ENC);
		/* An empty document of our own: without one, libxml2 "for expat compatibility in SAX
		 * mode" makes a document itself at the first <!ENTITY and registers the entity there
		 * (so that later references expand) whatever our entityDecl callback did.  With this
		 * one the entity is never registered anywhere: a reference is undeclared. */
		r->ctxt->myDoc = xmlNewDoc(BAD_CAST "1.0");
		if (!r->ctxt->myDoc)
		{
			xmlFreeParserCtxt(r->ctxt);
			r->ctxt = NULL;
		}
	}
	xr_leave(&saved);
	if (!r->ctxt)
	{
		sd_xr_close(r);
		sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
		return NULL;
	}
	r->ctxt->userData = r;
	return r;
}

/* Turns the offsets of a completed batch into pointers (nothing moves until the next batch). */
static void
xr_fixup(sd_xreader *r)
{
	/* only the events on the fix list hold offsets: the others are final as queued */
	for (uint32_t j = 0; j < r->nfix; j++)
	{
		sd_xev	   *e = &r->h.q[r->fix[j]];

		if (e->kind == SD_XEV_TEXT)
		{
			e->text = r->bytes + (uintptr_t) e->text;
			e->nns = 0;
		}
		else if (e->kind == SD_XEV_START)
		{
			if (e->nattrs)
			{
				sd_xattr   *a = r->attrs + (uintptr_t) e->attrs;

				for (uint32_t k = 0; k < e->nattrs; k++)
				{
					if (a[k].value_len & XR_VALUE_IN_DOC)
						a[k].value_len &= ~XR_VALUE_IN_DOC;	/* a pointer already */
					else
						a[k].value = r->bytes + (uintptr_t) a[k].value;
				}
				e->attrs = a;
			}
			else
				e->attrs = NULL;
			e->ns = e->nns ? r->ns + (uintptr_t) e->ns : NULL;
		}
	}
}

/* Parses chunks until events beyond q[0..qfixed) were queued (or the end, or a failure), then
 * fixes the new ones up. */
static void
xr_parse(sd_xreader *r)
{
	xr_saved	saved;

	while (r->h.qlen == r->qfixed && !r->failed_cb && !r->terminated)
	{
		size_t		n = r->len - r->fed;
		int			terminate = 0;

		size_t		want = r->chunk;

		if (r->fed == 0)
		{
			size_t		p = sd_xml_prolog_end(r->doc, r->len);

			if (p + 1 > want)
				want = p + 1;
		}
		if (n > want)
			n = want;
		else
			terminate = 1;
		xr_enter(r, &saved);
		xmlParseChunk(r->ctxt, r->doc + r->fed, (int) n, terminate);
		xr_leave(&saved);
		r->fed += n;
		if (terminate)
			r->terminated = true;
	}
	if (!r->failed_cb && r->ctxt->nsWellFormed == 0)
		xr_fail(r, SD_E_XML_SYNTAX, 0, 0, "malformed XML: namespace error");
	if (!r->failed_cb && r->terminated && (!r->ctxt->wellFormed || !r->root_seen))
	{
		uint32_t	line,
					col;

		sd_xr_locate(r, (int64_t) r->len, &line, &col);
		xr_fail(r, SD_E_XML_SYNTAX, line, col, "malformed XML: %s",
				r->root_seen ? "the document is not well-formed" : "no root element");
	}
	if (!r->failed_cb || r->keep_queued)
	{
		/* (a batch's reader hands out the events queued before a failure: sd_xr_keep_queued) */
		xr_fixup(r);
		r->qfixed = r->h.qlen;
	}
	r->nfix = 0;
}

static void
xr_free_retired(sd_xreader *r)
{
	for (uint32_t i = 0; i < r->nretired; i++)
		sd_hook_free(&r->hooks, r->retired[i]);
	r->nretired = 0;
}

/* Feeds the next chunk (or the end); the queue is empty on entry. */
static void
xr_feed(sd_xreader *r)
{
	r->h.qlen = r->h.qpos = r->qfixed = 0;
	r->alen = r->nlen = 0;
	r->blen = 0;
	r->extends = 0;
	xr_free_retired(r);			/* no event points into them any more */
	xr_parse(r);
}

static bool
xr_retire(sd_xreader *r, void *p)
{
	if (!p)
		return true;
	if (r->nretired == r->cap_retired &&
		!xr_grow(r, (void **) &r->retired, &r->cap_retired, r->nretired + 1, sizeof(void *)))
		return false;
	r->retired[r->nretired++] = p;
	return true;
}

/*
 * Reads on past the batch for sd_xr_peek: the events not yet handed out stay queued (moved to
 * the front; the buffers their strings point into are retired, kept until the queue is empty
 * again) and the next chunk's events follow them.  1: more events; 0: the document has no
 * more; -2: XR_LOOKAHEAD_CHUNKS were read ahead already; -1: the reader failed (err).
 */
#define XR_LOOKAHEAD_CHUNKS 256	/* 16 MB of document with the default chunk */
static int
xr_extend(sd_xreader *r, sd_error *err)
{
	uint32_t	keep = r->h.qlen - r->h.qpos;

	if (r->failed_cb)
	{
		*err = r->err;
		return -1;
	}
	if (r->terminated)
		return 0;
	if (r->extends >= XR_LOOKAHEAD_CHUNKS)
		return -2;
	if (!xr_retire(r, r->attrs) || !xr_retire(r, r->ns) || !xr_retire(r, r->bytes))
	{
		xr_nomem(r);
		*err = r->err;
		return -1;
	}
	r->extends++;
	r->attrs = NULL;
	r->ns = NULL;
	r->bytes = NULL;
	r->acap = r->ncap = 0;
	r->bcap = 0;
	r->alen = r->nlen = 0;
	r->blen = 0;
	memmove(r->h.q, r->h.q + r->h.qpos, sizeof(sd_xev) * keep);
	r->h.qpos = 0;
	r->h.qlen = r->qfixed = keep;
	xr_parse(r);
	if (r->failed_cb)
	{
		/* as in sd_xr_next: the failed batch's events are dropped, the error decides */
		r->h.qlen = r->qfixed = keep;
		*err = r->err;
		return -1;
	}
	return r->h.qlen > keep ? 1 : 0;
}

int
sd_xr_peek(sd_xreader *r, uint32_t n, const sd_xev **ev, sd_error *err)
{
	if (r->h.state < 0)
	{
		*err = r->err;
		return -1;
	}
	if (r->h.state > 0)
		return 0;
	while (r->h.qpos + (uint64_t) n >= r->h.qlen)
	{
		int			rc = xr_extend(r, err);

		if (rc <= 0)
			return rc;
	}
	*ev = &r->h.q[r->h.qpos + n];
	return 1;
}

int
sd_xr_next(sd_xreader *r, sd_xev *ev, sd_error *err)
{
	const sd_xev *e;
	int			rc = sd_xr_next_ref(r, &e, err);

	if (rc == 1)
		*ev = *e;
	return rc;
}

int
sd_xr_next_ref(sd_xreader *r, const sd_xev **ev, sd_error *err)
{
	for (;;)
	{
		if (__builtin_expect(r->h.qpos < r->h.qlen && r->h.state == 0, 1))
		{
			*ev = &r->h.q[r->h.qpos++];
			return 1;
		}
		if (r->h.state < 0)
		{
			*err = r->err;
			return -1;
		}
		if (r->h.state > 0)
			return 0;
		if (r->failed_cb)
		{
			/* the events queued before the failure were handed out: now the error */
			r->h.state = -1;
			continue;
		}
		if (r->terminated)
		{
			r->h.state = 1;
			continue;
		}
		xr_feed(r);
		if (r->failed_cb && !r->keep_queued)
		{
			/* a failure in this batch: its events are dropped (the document is malformed or
			 * over a limit, which decides the outcome; a batch of items keeps them:
			 * sd_xr_keep_queued) */
			r->h.qlen = r->h.qpos = 0;
		}
	}
}

void
sd_xr_keep_queued(sd_xreader *r)
{
	r->keep_queued = true;
}

void
sd_xr_close(sd_xreader *r)
{
	if (!r)
		return;
	if (r->ctxt)
	{
		xr_saved	saved;

		xr_enter(r, &saved);
		if (r->ctxt->myDoc)
			xmlFreeDoc(r->ctxt->myDoc);     /* the parser context does not own it */
		r->ctxt->myDoc = NULL;
		if (!xr_keep_ctxt(r))
			xmlFreeParserCtxt(r->ctxt);
		xr_leave(&saved);
	}
	xr_leave_spare(r);
	xr_free_retired(r);
	sd_hook_free(&r->hooks, r->retired);
	for (uint32_t i = 0; i < r->cap_uris; i++)
		sd_hook_free(&r->hooks, r->uris[i].fixed);
	sd_hook_free(&r->hooks, r->uris);
	sd_hook_free(&r->hooks, r);
}

int
sd_xr_drain(sd_xreader *r, sd_error *err)
{
	sd_xev		ev;
	uint32_t	n = 0;
	int			rc;

	while ((rc = sd_xr_next(r, &ev, err)) == 1)
	{
		if (++n >= 4096)
		{
			n = 0;
			if (r->hooks.should_stop && r->hooks.should_stop(r->hooks.ud))
			{
				sd_error_clear(err);
				err->doc = SD_DOC_XML;
				strcpy(err->path, "/");
				sd_error_set(err, SD_E_CANCELED, -1, "canceled");
				return -1;
			}
		}
	}
	return rc;
}

bool
sd_xml_check_document(const sd_hooks *hooks, const char *doc, size_t len,
					  const sd_limits *limits, sd_error *err)
{
	sd_xr_options o = {0, 0, 0};

	if (limits)
	{
		o.max_depth = limits->max_depth;
		o.max_document_bytes = limits->max_document_bytes;
	}
	sd_xreader *r = sd_xr_open(hooks, doc, len, &o, err);

	if (!r)
		return false;
	int			rc = sd_xr_drain(r, err);

	sd_xr_close(r);
	return rc == 0;
}
