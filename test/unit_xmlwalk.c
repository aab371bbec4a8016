/*
 * unit_xmlwalk.c - the XML walker (src/core/xml_walk.c) driven through its walker.h ops the way
 * the engine drives a walker, without the engine: the member model (attributes first, then
 * child elements in document order with repeats, then the element's own text as one member),
 * names with namespace URI and prefix, skip_fast of an element not walked, capture of an
 * element's bytes verbatim, finish over the rest of the document, and the reader's errors.
 */
#include <string.h>

#include "internal.h"
#include "unit.h"
#include "walker.h"
#include "xml_walk.h"

static char out[8192];
static sd_xcursor *cur_x;

static void
put(const char *s, size_t n)
{
	size_t		o = strlen(out);

	if (o + n + 1 < sizeof(out))
	{
		memcpy(out + o, s, n);
		out[o + n] = '\0';
	}
}

static void
puts0(const char *s)
{
	put(s, strlen(s));
}

/* Walks the value of t: elements as {members}, strings as 'text'.  Elements named "skip" are
 * skipped with skip_fast, elements named "cap" are walked and captured. */
static int
walk(sd_wcursor *c, sd_wtok *t, const char *name, size_t nlen)
{
	const sd_walker_ops *ops = c->ops;

	if (t->kind == SD_J_STRING)
	{
		puts0("'");
		put(t->s, t->len);
		puts0("'");
		return 1;
	}
	if (nlen == 4 && memcmp(name, "skip", 4) == 0)
	{
		puts0("~");
		return ops->skip_fast(c, t, 100);
	}
	if (ops->object_begin(c, t) < 0)
		return -1;
	puts0("{");
	if (nlen == 1 && name[0] == 'q')
	{
		static const char *const uris[] = {"urn:a", "urn:b", "urn:d", "urn:none"};

		for (int i = 0; i < 4; i++)
		{
			const char *p;
			size_t		pl;

			if (sd_xml_walker_prefix(cur_x, uris[i], strlen(uris[i]), &p, &pl))
			{
				puts0("<");
				put(p ? p : "(default)", p ? pl : 9);
				puts0(">");
			}
			else
				puts0("<none>");
		}
	}
	sd_wkey		k;
	sd_wtok		v;
	int			r;
	bool		first = true;

	while ((r = ops->object_next(c, &k, &v, NULL, 0)) == 1)
	{
		if (!first)
			puts0(",");
		first = false;
		puts0(k.xml_kind == SD_XML_ATTRIBUTE ? "@" : k.xml_kind == SD_XML_TEXT ? "#" : "");
		if (k.prefix)
		{
			put(k.prefix, k.prefix_len);
			puts0(":");
		}
		put(k.s, k.len);
		if (k.ns)
		{
			puts0("{");
			put(k.ns, k.ns_len);
			puts0("}");
		}
		puts0("=");
		if (walk(c, &v, k.s, k.len) < 0)
			return -1;
	}
	if (r < 0)
		return -1;
	puts0("}");
	if (nlen == 3 && memcmp(name, "cap", 3) == 0)
	{
		sd_val		span;

		memset(&span, 0, sizeof(span));
		ops->capture(c, t, SD_CAP_JSON, &span);
		puts0("[");
		put(span.u.s, span.len);
		puts0("]");
	}
	return 1;
}

static const char *
walk_doc(const char *doc)
{
	sd_hooks	h = {0};
	sd_decoder *d = sd_decoder_create(&h);
	sd_error	err;
	sd_xcursor *x = sd_xml_walker_open(d, doc, strlen(doc), NULL, false, &err);

	out[0] = '\0';
	if (!x)
	{
		snprintf(out, sizeof(out), "ERR %s", err.problem);
		sd_decoder_destroy(d);
		return out;
	}
	sd_wcursor *c = sd_xml_walker_cursor(x);
	sd_wtok		t;

	cur_x = x;
	int			r = c->ops->peek(c, &t);

	if (r > 0)
		r = walk(c, &t, "", 0);
	if (r > 0)
		r = c->ops->finish(c);
	if (r < 0)
	{
		const sd_error *e = sd_xml_walker_error(x);
		size_t		o = strlen(out);

		snprintf(out + o, sizeof(out) - o, "|ERR %s %u:%u %s", sd_code_sqlstate(e->code), e->line,
				 e->column, e->problem);
	}
	sd_xml_walker_close(x);
	sd_decoder_destroy(d);
	return out;
}

/* A leaf's text across a batch end (issue 23: the walker keeps a leaf's one text piece in the
 * reader's queue only while the event after it is queued too; an entity reference makes the
 * reader assemble it in its batch's bytes, which the next batch reuses): documents over the reader's
 * 64 KB chunk whose first chunk ends at every byte of a leaf (inside its text's end tag,
 * before it, after it), walked leaf by leaf, give every text whole. */
static void
test_text_across_batches(void)
{
	static char doc[300000];
	int			bad = 0;

	for (int shift = 0; shift <= 30; shift++)
	{
		size_t		len = 0;
		int			n = 0;

		/* leaves of 26 bytes ("<a>t%05d&amp;xxxxxxxx</a>"), the first chunk ending at byte
		 * 30 - shift of the first leaf after the padding */
		len += (size_t) sprintf(doc + len, "<r>");
		while (len < 65000)
			len += (size_t) sprintf(doc + len, "\n<a>t%05d&amp;xxxxxxxx</a>", n), n++;
		while (len < 65536 - 30 + (size_t) shift)
			doc[len++] = ' ';
		for (int k = 0; k < 3000; k++)
			len += (size_t) sprintf(doc + len, "<a>t%05d&amp;xxxxxxxx</a>", n), n++;
		len += (size_t) sprintf(doc + len, "</r>");

		sd_hooks	h = {0};
		sd_decoder *d = sd_decoder_create(&h);
		sd_error	err;
		sd_xcursor *x = sd_xml_walker_open(d, doc, len, NULL, false, &err);
		sd_wcursor *c = sd_xml_walker_cursor(x);
		const sd_walker_ops *ops = c->ops;
		sd_wtok		t,
					v;
		sd_wkey		k;
		int			seen = 0,
					r;

		if (ops->peek(c, &t) < 0 || ops->object_begin(c, &t) < 0)
		{
			bad++;
			continue;
		}
		while ((r = ops->object_next(c, &k, &t, NULL, 0)) == 1)
		{
			if (k.xml_kind == SD_XML_TEXT)
				continue;		/* the root's whitespace */
			char		want[64];
			int			wl = snprintf(want, sizeof(want), "t%05d&xxxxxxxx", seen);

			if (ops->object_begin(c, &t) < 0 || ops->object_next(c, &k, &v, NULL, 0) != 1 ||
				k.xml_kind != SD_XML_TEXT || v.len != (size_t) wl || memcmp(v.s, want, wl) != 0 ||
				ops->object_next(c, &k, &v, NULL, 0) != 0)
			{
				if (bad++ < 5)
					fprintf(stderr, "text across batches, shift %d: leaf %d wrong\n", shift, seen);
				break;
			}
			seen++;
		}
		if ((r != 0 || seen != n || ops->finish(c) < 0) && bad++ < 5)
			fprintf(stderr, "text across batches, shift %d: %d of %d leaves, rc %d\n", shift, seen, n, r);
		sd_xml_walker_close(x);
		sd_decoder_destroy(d);
	}
	CHECK(bad == 0);
}

/* Keys marked interned (the engine caches members by their pointers, engine.c xml_member): over
 * a document of several 64 KB chunks, a pointer once seen always holds the same name (checked
 * again at the end, before the cursor closes), and the parser does intern: a name or URI that
 * recurs comes with the pointer it had (a URI with '&' through the reader's one copy). */
static void
test_interned_names(void)
{
	static char doc[200000];
	static struct
	{
		const char *p;
		char		b[32];
		size_t		n;
	}			seen[64];
	int			nseen = 0,
				bad = 0,
				keys = 0;
	size_t		len = 0;

	len += (size_t) sprintf(doc + len, "<r xmlns:p='urn:p' xmlns:q='urn:a&amp;b'>");
	for (int i = 0; len < 150000; i++)
		len += (size_t) sprintf(doc + len, "<p:e%d q:a='1' b='2'><q:f>x</q:f><e%d/></p:e%d>\n", i % 7, i % 5, i % 7);
	len += (size_t) sprintf(doc + len, "</r>");

	sd_hooks	h = {0};
	sd_decoder *d = sd_decoder_create(&h);
	sd_error	err;
	sd_xcursor *x = sd_xml_walker_open(d, doc, len, NULL, false, &err);
	sd_wcursor *c = sd_xml_walker_cursor(x);
	const sd_walker_ops *ops = c->ops;
	sd_wtok		t;
	sd_wkey		k;
	int			r = ops->peek(c, &t);
	int			depth = 0;

	if (r > 0)
		r = ops->object_begin(c, &t);
	/* depth-first over every member, checking each key's two strings */
	while (r >= 0)
	{
		r = ops->object_next(c, &k, &t, NULL, 0);
		if (r < 0)
			break;
		if (r == 0)
		{
			if (depth-- == 0)
				break;
			continue;
		}
		keys++;
		if (!k.interned)
			bad++;
		const char *ps[2] = {k.s, k.ns};
		size_t		ls[2] = {k.len, k.ns_len};

		for (int j = 0; j < 2; j++)
		{
			int			i;

			if (!ps[j] || ls[j] >= sizeof(seen[0].b))
				continue;
			for (i = 0; i < nseen; i++)
				if (seen[i].n == ls[j] && memcmp(seen[i].b, ps[j], ls[j]) == 0)
					break;
			if (i == nseen && nseen < 64)
			{
				seen[nseen].p = ps[j];
				memcpy(seen[nseen].b, ps[j], ls[j]);
				seen[nseen++].n = ls[j];
			}
			else if (i < nseen && seen[i].p != ps[j] && k.xml_kind != SD_XML_TEXT && bad++ < 5)
				fprintf(stderr, "interned names: %.*s at another pointer\n", (int) ls[j], ps[j]);
		}
		if (t.kind == SD_J_OBJECT)
		{
			if ((r = ops->object_begin(c, &t)) < 0)
				break;
			depth++;
		}
	}
	for (int i = 0; i < nseen; i++)
		if (memcmp(seen[i].p, seen[i].b, seen[i].n) != 0)
			bad++;
	CHECK(r == 0 && ops->finish(c) == 1 && keys > 15000 && nseen == 13 && bad == 0);
	sd_xml_walker_close(x);
	sd_decoder_destroy(d);
}

void
unit_xmlwalk(void)
{
	test_text_across_batches();
	test_interned_names();
	/* attributes, then children in order (repeats kept), then the element's own text */
	CHECK_STR(walk_doc("<r a='1' b='x &amp; y'><v>1</v>t1<w/><v>2</v>t2</r>"),
			  "{@a='1',@b='x & y',v={#='1'},w={},v={#='2'},#='t1t2'}");
	/* namespaces: URI and prefix as written; namespace declarations are no members */
	CHECK_STR(walk_doc("<r xmlns='urn:d' xmlns:p='urn:p' p:a='1'><p:c>x</p:c><d xmlns=''/></r>"),
			  "{@p:a{urn:p}='1',p:c{urn:p}={#='x'},d={}}");
	/* whitespace between children is text of the element (the engine decides what it means) */
	CHECK_STR(walk_doc("<r>\n  <v>1</v>\n</r>"), "{v={#='1'},#='\n  \n'}");
	/* skip_fast, capture verbatim */
	CHECK_STR(walk_doc("<r><skip a='1'><x><y/></x>text</skip><cap k='v'><i>1</i> <!--c--></cap><z/></r>"),
			  "{skip=~,cap={@k='v',i={#='1'},#=' '}[<cap k='v'><i>1</i> <!--c--></cap>],z={}}");
	/* CDATA and entities are text; comments and PIs are not */
	CHECK_STR(walk_doc("<r><![CDATA[<a>]]>&lt;<!--x--><?p?>b</r>"), "{#='<a><b'}");
	/* the prefix bound to a namespace where the walk is: innermost binding, not one rebound
	 * inside, the default namespace */
	CHECK_STR(walk_doc("<r xmlns:a='urn:a' xmlns:x='urn:b' xmlns='urn:d'>"
					   "<s xmlns:x='urn:other' xmlns:b='urn:b'><q/></s></r>"),
			  "{s{urn:d}={q{urn:d}={<a><b><(default)><none>}}}");
	CHECK_STR(walk_doc("<r xmlns='urn:a'><s xmlns='urn:d'><q/></s></r>"),
			  "{s{urn:d}={q{urn:d}={<none><none><(default)><none>}}}");
	/* positions of byte offsets */
	{
		sd_hooks	h = {0};
		sd_decoder *d = sd_decoder_create(&h);
		sd_error	err;
		const char *doc = "<r>\n  <v a='1'/>\n</r>";
		sd_xcursor *x = sd_xml_walker_open(d, doc, strlen(doc), NULL, false, &err);
		uint32_t	l,
					col;

		sd_xml_walker_locate(x, 6, &l, &col);
		CHECK(l == 2 && col == 3);
		sd_xml_walker_locate(x, 0, &l, &col);
		CHECK(l == 1 && col == 1);
		sd_xml_walker_close(x);
		sd_decoder_destroy(d);
	}
	/* errors: malformed inside, after the root, depth; an entity declaration */
	CHECK_STR(walk_doc("<r><v>1</w></r>"),
			  "|ERR 2200M 1:12 malformed XML: mismatched end tag </w> for <v> opened at line 1");
	CHECK_STR(walk_doc("<r/><x/>"), "|ERR 2200M 1:5 malformed XML: content after the end of the root element (a document has one root element)");
	CHECK_STR(walk_doc("<!DOCTYPE r [<!ENTITY e 'x'>]><r>&e;</r>"),
			  "|ERR 2200M 1:28 entity declarations are not allowed (entity \"e\"); only the predefined entities are");
}
