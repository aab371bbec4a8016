/*
 * fuzz_xml.c — libFuzzer target: the XML reader (src/core/xml_read.c) on arbitrary bytes.
 * Invariants checked on every input:
 *   - the events nest: every END closes the innermost open START (same local name, prefix and
 *     URI), depths count from 1, TEXT never comes outside the root, one root element only;
 *   - a document that ends well (0) closed every element it opened;
 *   - offsets point into the document (a START's at a '<'), only grow, and every attribute's
 *     line/column and value is readable (ASan checks the bytes);
 *   - the outcome (ok / the error's SQLSTATE) and, when ok, the event stream (text merged) do
 *     not depend on the chunk size the document is fed in;
 *   - every error carries a non-empty problem;
 *   - nothing is left behind in libxml2's process-wide state (error handlers, entity loader).
 *   - the XML walker (xml_walk.c), driven through its walker.h ops as the engine drives a
 *     walker (elements skipped or captured by a hash of their name), agrees with the reader:
 *     it ends well exactly when the reader does, a captured element's bytes start with '<'
 *     and end with '>', every string it hands out is readable;
 *   - the rule engine over the XML walker (sd_decode_xml, sd_check_xml_found) with shapes that
 *     use every XML rule (attributes, text, flattened and wrapped lists, `path`, `extra`, a union
 *     by tag attribute or element, map, an xml column, defaults): a decode succeeds only on a
 *     document the reader ends well; serde_errors' mode finds no violation exactly when the
 *     decode succeeds (or only the decode's fatal error); every error has a problem and an
 *     XPath starting with '/'.
 * Seeds: fixtures/xml (documents, mutated copies, hostile corpus), dictionary test/fuzz/xml.dict.
 */
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "internal.h"
#include "walker.h"
#include "xml_read.h"
#include "xml_walk.h"
#include "xml_decode.h"
#include "unit_support.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXD 64

typedef struct walk_result
{
	int			rc;             /* 0 ok, -1 error */
	sd_code		code;
	fz_buf		stream;         /* the events, text merged */
} walk_result;

static void
name_eq(const sd_xname *a, const sd_xname *b)
{
	FZ_ASSERT(a->local_len == b->local_len && memcmp(a->local, b->local, a->local_len) == 0,
			  "END local name differs from START");
	FZ_ASSERT(a->prefix_len == b->prefix_len &&
			  (a->prefix_len == 0 || memcmp(a->prefix, b->prefix, a->prefix_len) == 0),
			  "END prefix differs");
	FZ_ASSERT((a->uri == NULL) == (b->uri == NULL), "END namespace differs");
}

static void
walk(const uint8_t *data, size_t size, size_t chunk, walk_result *w)
{
	sd_error	err;
	sd_xr_options o = {MAXD, 0, chunk};
	sd_xreader *r = sd_xr_open(NULL, (const char *) data, size, &o, &err);
	sd_xev		ev;
	sd_xname	open[MAXD + 1];
	uint32_t	depth = 0;
	int			roots = 0;
	int64_t		last = -1;
	bool		in_text = false;

	fz_reset(&w->stream);
	if (!r)
	{
		FZ_ASSERT(err.problem[0] != '\0', "open error without a problem");
		w->rc = -1;
		w->code = err.code;
		return;
	}
	int			rc;

	while ((rc = sd_xr_next(r, &ev, &err)) == 1)
	{
		switch (ev.kind)
		{
			case SD_XEV_START:
				FZ_ASSERT(ev.depth == depth + 1, "START depth %u after %u", ev.depth, depth);
				FZ_ASSERT(ev.depth <= MAXD, "depth %u over the limit", ev.depth);
				FZ_ASSERT(ev.offset >= 0 && (size_t) ev.offset < size && data[ev.offset] == '<',
						  "START offset %lld is not a '<'", (long long) ev.offset);
				FZ_ASSERT(ev.offset > last, "offsets go backwards");
				uint32_t	sl,
							sc;

				/* positions are counted when asked, from the offsets */
				sd_xr_locate(r, ev.offset, &sl, &sc);
				FZ_ASSERT(sl >= 1 && sc >= 1, "START without a position");
				last = ev.offset;
				if (depth == 0)
					roots++;
				FZ_ASSERT(roots == 1, "a second root element");
				open[++depth] = ev.name;
				fz_printf(&w->stream, "<%.*s:%.*s{%.*s}", (int) ev.name.prefix_len,
						  ev.name.prefix ? ev.name.prefix : "", (int) ev.name.local_len,
						  ev.name.local, (int) ev.name.uri_len, ev.name.uri ? ev.name.uri : "");
				for (uint32_t i = 0; i < ev.nns; i++)
					fz_printf(&w->stream, " ns %.*s=%.*s", (int) ev.ns[i].prefix_len,
							  ev.ns[i].prefix ? ev.ns[i].prefix : "", (int) ev.ns[i].uri_len,
							  ev.ns[i].uri);
				for (uint32_t i = 0; i < ev.nattrs; i++)
				{
					const sd_xattr *a = &ev.attrs[i];

					FZ_ASSERT(a->offset > ev.offset && (size_t) a->offset < size,
							  "attribute offset %lld outside its tag", (long long) a->offset);
					uint32_t	al,
								ac;

					sd_xr_locate(r, a->offset, &al, &ac);
					FZ_ASSERT(al >= sl && (al > sl || ac > sc), "attribute before its element");
					fz_printf(&w->stream, " %.*s:%.*s=", (int) a->name.prefix_len,
							  a->name.prefix ? a->name.prefix : "", (int) a->name.local_len,
							  a->name.local);
					fz_put(&w->stream, a->value, a->value_len);
				}
				fz_put(&w->stream, ">", 1);
				in_text = false;
				break;
			case SD_XEV_END:
				FZ_ASSERT(depth > 0 && ev.depth == depth, "END depth %u with %u open", ev.depth,
						  depth);
				name_eq(&ev.name, &open[depth]);
				FZ_ASSERT(ev.offset > last && (size_t) ev.offset <= size, "END offset");
				last = ev.offset - 1;
				depth--;
				fz_put(&w->stream, "</>", 3);
				in_text = false;
				break;
			case SD_XEV_TEXT:
				FZ_ASSERT(depth > 0, "text outside the root");
				FZ_ASSERT(ev.text_len > 0, "empty TEXT event");
				if (!in_text)
					fz_put(&w->stream, "'", 1);
				fz_put(&w->stream, ev.text, ev.text_len);
				in_text = true;
				break;
			default:
				FZ_ASSERT(0, "unknown event kind %d", (int) ev.kind);
		}
	}
	if (rc == 0)
	{
		FZ_ASSERT(depth == 0 && roots == 1, "a document ended well with %u open", depth);
		w->rc = 0;
	}
	else
	{
		FZ_ASSERT(rc == -1, "sd_xr_next returned %d", rc);
		FZ_ASSERT(err.problem[0] != '\0', "error without a problem");
		FZ_ASSERT(err.code == SD_E_XML_SYNTAX || err.code == SD_E_DEPTH || err.code == SD_E_NOMEM,
				  "unexpected error code %d", (int) err.code);
		w->rc = -1;
		w->code = err.code;
		FZ_ASSERT(sd_xr_next(r, &ev, &err) == -1, "an error does not stay");
	}
	sd_xr_close(r);
}

/* Walks the value of t through the ops; returns 1, or -1 on the walker's error. */
static int
wwalk(sd_wcursor *c, const sd_wtok *t, uint32_t h, const uint8_t *data, size_t size)
{
	const sd_walker_ops *ops = c->ops;
	volatile char sink = 0;

	if (t->kind == SD_J_STRING)
	{
		for (size_t i = 0; i < t->len; i++)
			sink ^= t->s[i];
		return 1;
	}
	FZ_ASSERT(t->kind == SD_J_OBJECT, "walker token kind %d", (int) t->kind);
	if (h % 5 == 1)
		return ops->skip_fast(c, t, 1000) < 0 ? -1 : 1;
	if (ops->object_begin(c, t) < 0)
		return -1;
	sd_wkey		k;
	sd_wtok		v;
	int			r;
	bool		text_seen = false;

	while ((r = ops->object_next(c, &k, &v, NULL, 0)) == 1)
	{
		uint32_t	kh = h * 31 + (uint32_t) k.len;

		for (size_t i = 0; i < k.len; i++)
			kh = kh * 131 + (uint8_t) k.s[i];
		FZ_ASSERT(!text_seen, "a member after the text member");
		if (k.xml_kind == SD_XML_TEXT)
		{
			FZ_ASSERT(k.len == 0 && v.len > 0, "text member with a name or empty");
			text_seen = true;
		}
		if (wwalk(c, &v, kh, data, size) < 0)
			return -1;
	}
	if (r < 0)
		return -1;
	if (h % 7 == 3)
	{
		sd_val		span;

		memset(&span, 0, sizeof(span));
		FZ_ASSERT(ops->capture(c, t, SD_CAP_JSON, &span) == 1, "capture failed");
		FZ_ASSERT(span.len >= 2 && span.u.s[0] == '<' && span.u.s[span.len - 1] == '>',
				  "captured bytes are not an element");
		/* the document's own bytes, or a standalone copy (namespace declarations added, line
		 * ends LF): either way a well-formed document by itself, every prefix bound */
		if (!(span.u.s >= (const char *) data && span.u.s + span.len <= (const char *) data + size))
			FZ_ASSERT(memchr(span.u.s, '\r', span.len) == NULL, "a CR in a captured copy");
		{
			sd_limits	one = {MAXD, 0, 0};
			sd_error	e2;

			FZ_ASSERT(sd_xml_check_document(NULL, span.u.s, span.len, &one, &e2),
					  "a captured element is not well-formed by itself: %s", e2.problem);
		}
	}
	(void) sink;
	return 1;
}

static int
walker_walk(const uint8_t *data, size_t size)
{
	static sd_decoder *d;
	sd_hooks	h = {0};
	sd_limits	lim = {MAXD, 0, 0};
	sd_error	err;

	if (!d)
		d = sd_decoder_create(&h);
	sd_arena_reset(&d->arena);
	sd_xcursor *x = sd_xml_walker_open(d, (const char *) data, size, &lim, false, &err);

	if (!x)
		return -1;
	sd_wcursor *c = sd_xml_walker_cursor(x);
	sd_wtok		t;
	int			r = c->ops->peek(c, &t);

	if (r > 0)
		r = wwalk(c, &t, (uint32_t) size, data, size);
	if (r > 0)
		r = c->ops->finish(c);
	if (r < 0)
		FZ_ASSERT(sd_xml_walker_error(x)->problem[0] != '\0', "walker error without a problem");
	sd_xml_walker_close(x);
	return r < 0 ? -1 : 0;
}

/* ---- the engine over the XML walker ------------------------------------------------------- */

typedef struct xtarget
{
	const char *name;
	sd_plan    *plan;
} xtarget;

static xtarget xts[6];
static int	nxt;
static sd_decoder *xdec;

static void
xt_add(const char *name, const sd_type *type, const char *opts)
{
	sd_error	err;
	static fz_resolver_state st;
	sd_resolver res = fz_resolver(&st);
	xtarget    *t = &xts[nxt++];

	t->name = name;
	t->plan = sd_compile(name, opts, strlen(opts), type, NULL, &res, &err);
	if (!t->plan)
	{
		fprintf(stderr, "fuzz_xml: shape %s does not compile: %s %s: %s\n", name,
				sd_code_name(err.code), err.path, err.problem);
		abort();
	}
}

static void
xt_init(void)
{
	const fz_types *t = fz_get_types();
	const sd_type *row = ut_composite("xrow", "id:int4,name:text,tags:text[],items:item[],amt:numeric,"
									  "ok:bool,at:timestamptz,deep:text,lvl:int4,rest:jsonb");
	const sd_type *mixed = ut_composite("xmixed", "body:text,b:text[],raw:xml,grid:int4[][]");
	const sd_type *maps = ut_composite("xmaps", "m:kv[],id:text");

	xt_add("XRow", row, "{\"extra\": \"rest\", \"optional\": true, \"fields\": {"
		   "\"id\": {\"xml\": \"attribute\"}, \"tags\": {\"name\": \"tag\"}, "
		   "\"items\": {\"xml_item\": \"item\"}, \"deep\": {\"path\": [\"a\", \"b\"]}, "
		   "\"lvl\": {\"default\": 3}}}");
	xt_add("XStrict", t->item, "{\"unknown\": \"reject\", \"fields\": {\"b\": {\"xml\": \"attribute\"}, "
		   "\"c\": {\"xml\": \"text\", \"nullable\": false}}}");
	xt_add("XPay", t->payment, "{\"optional\": true, \"tag\": \"kind\", "
		   "\"variants\": {\"card\": \"card\", \"bank\": \"bank\"}}");
	xt_add("XMixed", mixed, "{\"optional\": true, \"fields\": {\"body\": {\"xml\": \"text\"}}}");
	xt_add("XMaps", maps, "{\"optional\": true, \"fields\": {\"m\": {\"map\": true}, "
		   "\"id\": {\"xml\": \"attribute\"}}}");
	xdec = sd_decoder_create(NULL);
}

static void
engine_check(const uint8_t *data, size_t size, int reader_rc)
{
	sd_limits	lim = {MAXD, 0, 0};

	for (int i = 0; i < nxt; i++)
	{
		sd_error	err;
		uint32_t	root;
		const sd_found *found;
		int			total = 0;
		bool		ok = sd_decode_xml(xdec, xts[i].plan, NULL, (const char *) data, size, &lim, &root,
									   &err);

		if (ok)
			FZ_ASSERT(reader_rc == 0, "%s: decoded a document the reader refuses", xts[i].name);
		else
		{
			FZ_ASSERT(err.problem[0] != '\0', "%s: error without a problem", xts[i].name);
			FZ_ASSERT(err.path[0] == '/', "%s: error path %s is not an XPath", xts[i].name, err.path);
		}
		int			n = sd_check_xml_found(xdec, xts[i].plan, NULL, (const char *) data, size, &lim,
										   100, &found, &total, &root);

		if (ok)
			FZ_ASSERT(n == 0, "%s: decodes, but serde_errors finds %d violation(s)", xts[i].name, n);
		else
			FZ_ASSERT(n >= 1, "%s: fails (%s), but serde_errors finds nothing", xts[i].name,
					  err.problem);
		for (int j = 0; j < n; j++)
			FZ_ASSERT(found[j].problem && found[j].problem[0] && found[j].path &&
					  found[j].path[0] == '/', "%s: a found violation without problem or XPath",
					  xts[i].name);
	}
}

static int	token;

static void
host_handler(void *ctx, xmlErrorPtr e)
{
	fz_fail(__FILE__, __LINE__, "host handler", "serde's libxml2 error reached the host: %s",
			e && e->message ? e->message : "?");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static walk_result a,
				b;

	if (size > 65536)
		return 0;
	xmlSetStructuredErrorFunc(&token, host_handler);
	walk(data, size, 0, &a);
	walk(data, size, 1 + size % 17, &b);
	FZ_ASSERT(xmlStructuredError == host_handler && xmlStructuredErrorContext == &token,
			  "libxml2's structured error handler was not restored");
	FZ_ASSERT(a.rc == b.rc, "outcome depends on the chunk size: %d vs %d", a.rc, b.rc);
	int			wr = walker_walk(data, size);

	FZ_ASSERT(wr == a.rc, "the walker ends %d where the reader ends %d", wr, a.rc);
	if (!nxt)
		xt_init();
	engine_check(data, size, a.rc);
	if (a.rc == 0)
		FZ_ASSERT(a.stream.len == b.stream.len &&
				  memcmp(a.stream.p, b.stream.p, a.stream.len) == 0,
				  "event stream depends on the chunk size");
	else
		FZ_ASSERT(a.code == b.code, "error code depends on the chunk size: %d vs %d",
				  (int) a.code, (int) b.code);
	return 0;
}
