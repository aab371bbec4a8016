/*
 * unit_xmlread.c - the XML reader (src/core/xml_read.c): the event stream (names, prefixes,
 * namespaces, attributes, merged text, depth, offsets, line/column of '<' and of attribute
 * names), the same stream whatever the chunk size, CDATA/entities/character references, the
 * encoding declaration ignored and a BOM allowed, every refusal of hostile input (entity and
 * parameter-entity declarations, attribute defaults, external entities: nothing read, billion
 * laughs in well under a second), namespace errors, malformed input with its line and column,
 * the depth and size limits, and libxml2's process-wide state left as it was found.
 */
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit.h"
#include "xml_read.h"

static char out[16384];

static void
cat(const char *fmt, const char *a, size_t alen)
{
	size_t		n = strlen(out);

	snprintf(out + n, sizeof(out) - n, fmt, (int) alen, a);
}

/* The events of doc as text: "<p:local{uri}@l:c a=v@l:c>", "'text'", "</local>", then
 * "|ok" or "|ERR <sqlstate> l:c <problem>". */
static const char *
events(const char *doc, size_t len, uint32_t max_depth, size_t chunk)
{
	sd_error	err;
	sd_xr_options o = {max_depth, 0, chunk};
	sd_xreader *r = sd_xr_open(NULL, doc, len, &o, &err);
	sd_xev		ev;
	int			rc;
	char		num[64];

	out[0] = '\0';
	if (!r)
	{
		snprintf(out, sizeof(out), "|ERR %s %u:%u %s", sd_code_sqlstate(err.code), err.line,
				 err.column, err.problem);
		return out;
	}
	while ((rc = sd_xr_next(r, &ev, &err)) == 1)
	{
		if (ev.kind == SD_XEV_START)
		{
			cat("<%.*s", "", 0);
			if (ev.name.prefix)
				cat("%.*s:", ev.name.prefix, ev.name.prefix_len);
			cat("%.*s", ev.name.local, ev.name.local_len);
			if (ev.name.uri)
				cat("{%.*s}", ev.name.uri, ev.name.uri_len);
			uint32_t	ln,
						co;

			/* positions are counted when asked (sd_xr_locate), from the event's offset */
			sd_xr_locate(r, ev.offset, &ln, &co);
			snprintf(num, sizeof(num), "@%u:%u/%u", ln, co, ev.depth);
			cat("%.*s", num, strlen(num));
			for (uint32_t i = 0; i < ev.nns; i++)
			{
				cat(" xmlns%.*s", ev.ns[i].prefix ? ":" : "", ev.ns[i].prefix ? 1 : 0);
				if (ev.ns[i].prefix)
					cat("%.*s", ev.ns[i].prefix, ev.ns[i].prefix_len);
				cat("=%.*s", ev.ns[i].uri, ev.ns[i].uri_len);
			}
			for (uint32_t i = 0; i < ev.nattrs; i++)
			{
				const sd_xattr *a = &ev.attrs[i];

				cat(" %.*s", "", 0);
				if (a->name.prefix)
					cat("%.*s:", a->name.prefix, a->name.prefix_len);
				cat("%.*s", a->name.local, a->name.local_len);
				cat("=%.*s", a->value, a->value_len);
				sd_xr_locate(r, a->offset, &ln, &co);
				snprintf(num, sizeof(num), "@%u:%u", ln, co);
				cat("%.*s", num, strlen(num));
			}
			cat(">%.*s", "", 0);
		}
		else if (ev.kind == SD_XEV_TEXT)
			cat("'%.*s'", ev.text, ev.text_len);
		else
		{
			cat("</%.*s>", ev.name.local, ev.name.local_len);
		}
	}
	if (rc == 0)
		cat("|ok%.*s", "", 0);
	else
	{
		size_t		n = strlen(out);

		snprintf(out + n, sizeof(out) - n, "|ERR %s %u:%u %s", sd_code_sqlstate(err.code),
				 err.line, err.column, err.problem);
	}
	sd_xr_close(r);
	return out;
}

static const char *
ev0(const char *doc)
{
	return events(doc, strlen(doc), 0, 0);
}

/* true when the result starts with want */
static int
starts(const char *got, const char *want)
{
	if (strncmp(got, want, strlen(want)) == 0)
		return 1;
	fprintf(stderr, "  got:  %s\n  want: %s...\n", got, want);
	return 0;
}

static void
merges_text_of_consecutive_texts(void)
{
	/* a walker concatenates consecutive TEXT events; in one batch they arrive merged */
	CHECK_STR(ev0("<a>x&amp;y&#233;<![CDATA[<z>]]></a>"),
			  "<a@1:1/1>'x&y\xc3\xa9<z>'</a>|ok");
}

static void
test_events(void)
{
	const char *doc =
		"<?xml version=\"1.0\"?>\n"
		"<r xmlns=\"urn:d\" xmlns:p=\"urn:p\" a=\"1\"\n"
		"   p:b='x &lt; y'>\n"
		"  <p:c>t</p:c><d/>caf\xc3\xa9 <e xmlns=\"\">u</e>\n"
		"</r>";
	const char *want =
		"<r{urn:d}@2:1/1 xmlns=urn:d xmlns:p=urn:p a=1@2:34 p:b=x < y@3:4>'\n  '"
		"<p:c{urn:p}@4:3/2>'t'</c><d{urn:d}@4:15/2></d>'caf\xc3\xa9 '<e@4:24/2 xmlns=>'u'</e>'\n'"
		"</r>|ok";

	CHECK_STR(ev0(doc), want);
	/* the same stream whatever the chunk size (text may come in more pieces: compare merged) */
	char		whole[4096];

	strcpy(whole, events(doc, strlen(doc), 0, 0));
	CHECK_STR(events(doc, strlen(doc), 0, 1), whole);
	CHECK_STR(events(doc, strlen(doc), 0, 7), whole);
	merges_text_of_consecutive_texts();

	/* offsets: START at its '<', END just past its '>' */
	sd_error	err;
	const char *d2 = "<a><b x='1'/>\xc3\xa9<c>t</c></a>";
	sd_xreader *r = sd_xr_open(NULL, d2, strlen(d2), NULL, &err);
	sd_xev		ev;
	int64_t		offs[16];
	int			n = 0;

	while (r && sd_xr_next(r, &ev, &err) == 1 && n < 16)
		offs[n++] = ev.kind == SD_XEV_TEXT ? -2 : ev.offset;
	CHECK(n == 8);
	CHECK(offs[0] == 0 && offs[1] == 3 && offs[2] == 13 && offs[3] == -2);
	CHECK(offs[4] == 15 && offs[5] == -2 && offs[6] == 23 && offs[7] == 27);
	if (!(offs[6] == 23 && offs[7] == 27))
		fprintf(stderr, "  %lld %lld %lld\n", (long long) offs[4], (long long) offs[6], (long long) offs[7]);
	size_t		dl;

	CHECK(r && sd_xr_document(r, &dl) == d2 && dl == strlen(d2));
	sd_xr_close(r);

	/* line ends: CR LF and CR count once; columns in characters; a BOM takes no column */
	CHECK_STR(ev0("\xef\xbb\xbf<r>\r\n<a/>\r<b/>\xc3\xa9<c/></r>"),
			  "<r@1:1/1>'\n'<a@2:1/2></a>'\n'<b@3:1/2></b>'\xc3\xa9'<c@3:6/2></c></r>|ok");
}

static void
test_encodings(void)
{
	/* the declaration is ignored: the text is UTF-8 (as PostgreSQL's xml type reads it) */
	CHECK_STR(ev0("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>caf\xc3\xa9</r>"),
			  "<r@1:44/1>'caf\xc3\xa9'</r>|ok");
	CHECK_STR(ev0("<?xml version=\"1.0\" encoding=\"UTF-16\"?><r>ok</r>"),
			  "<r@1:40/1>'ok'</r>|ok");
	/* a NUL byte (UTF-16 text, binary) is refused before parsing */
	CHECK(starts(events("<r>\0</r>", 8, 0, 0), "|ERR 2200M 0:0 malformed XML: a NUL byte"));
	/* bad UTF-8 */
	CHECK(starts(ev0("<r>\xc3\x28</r>"), "|ERR 2200M 1:"));
}

static void
test_malformed(void)
{
	/* the events of the batch that failed are not handed out: the failure decides */
	CHECK_STR(ev0("<r><v>x</v>"),
			  "|ERR 2200M 1:12 malformed XML: premature end of the document, 1 element not closed");
	CHECK(starts(ev0("<r>\n<v>x</w>\n</r>"), "|ERR 2200M 2:"));
	CHECK(starts(ev0(""), "|ERR 2200M 1:1 malformed XML: the document has no root element"));
	CHECK(starts(ev0("   \n "), "|ERR 2200M 2:2 malformed XML: the document has no root element"));
	CHECK(starts(ev0("<?xml version=\"1.0\"?>"), "|ERR 2200M 1:22 malformed XML: the document has no root element"));
	CHECK(starts(ev0("<r/><r/>"), "|ERR 2200M 1:5 "));
	CHECK(starts(ev0("<r/>x"), "|ERR 2200M 1:5 "));
	CHECK(starts(ev0("<r a='1' a='2'/>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r a=1/>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r a='<'/>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r>&</r>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r>&nbsp;</r>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r>&#1;</r>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r>&#xD800;</r>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r>\x01</r>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r><![CDATA[x</r>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r><!-- a -- b --></r>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r/><!DOCTYPE r>"), "|ERR 2200M"));
	/* namespace errors: libxml2 leaves wellFormed set, the reader does not accept them */
	CHECK(starts(ev0("<r><x:v/></r>"), "|ERR 2200M 1:"));
	CHECK(starts(ev0("<r xmlns:xml='urn:x'/>"), "|ERR 2200M"));
	CHECK(starts(ev0("<r xmlns:p=''/>"), "|ERR 2200M"));
	/* accepted oddities */
	CHECK_STR(ev0("<!--c--><?pi x?><r>a<!--c-->b<?p?>c</r><!--d-->"), "<r@1:17/1>'abc'</r>|ok");
	CHECK_STR(ev0("<r a='x\ny'/>"), "<r@1:1/1 a=x y@1:4></r>|ok");
	/* an '&' in an attribute value, however written, is an '&' (libxml2 hands it over as
	 * "&#38;" when it does not substitute entities) */
	CHECK_STR(ev0("<r a='x &amp; y' b='&#38;&#x26;&amp;#38;' c='&lt;&gt;&quot;&apos;'/>"),
			  "<r@1:1/1 a=x & y@1:4 b=&&&#38;@1:18 c=<>\"'@1:43></r>|ok");
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
test_hostile(void)
{
	/* every entity declaration is refused, before any expansion */
	CHECK(starts(ev0("<!DOCTYPE r [<!ENTITY e \"x\">]><r>&e;</r>"),
				 "|ERR 2200M 1:28 entity declarations are not allowed (entity \"e\")"));
	CHECK(starts(ev0("<!DOCTYPE r [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><r>&e;</r>"),
				 "|ERR 2200M 1:"));
	CHECK(starts(ev0("<!DOCTYPE r [<!ENTITY e SYSTEM \"http://127.0.0.1:9/\">]><r a='&e;'/>"),
				 "|ERR 2200M"));
	CHECK(starts(ev0("<!DOCTYPE r [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]><r/>"),
				 "|ERR 2200M"));
	CHECK(starts(ev0("<!DOCTYPE r [<!ENTITY % p \"<!ENTITY e 'x'>\"> %p;]><r>&e;</r>"),
				 "|ERR 2200M"));
	CHECK(starts(ev0("<!DOCTYPE r [<!ENTITY e \"x\">]><r/>"), "|ERR 2200M"));
	/* attribute defaults (plain, #FIXED, xmlns) */
	CHECK(starts(ev0("<!DOCTYPE r [<!ATTLIST r a CDATA \"1\">]><r/>"),
				 "|ERR 2200M 1:"));
	CHECK(starts(ev0("<!DOCTYPE r [<!ATTLIST r a CDATA #FIXED \"1\">]><r/>"), "|ERR 2200M"));
	CHECK(starts(ev0("<!DOCTYPE r [<!ATTLIST r xmlns CDATA \"urn:x\">]><r/>"), "|ERR 2200M"));
	/* harmless DTDs: declarations without defaults; an external DTD that is never loaded */
	CHECK_STR(ev0("<!DOCTYPE r [<!ELEMENT r ANY><!ATTLIST r a CDATA #IMPLIED><!--c--><?p?>]>"
				  "<r a='1'/>"), "<r@1:74/1 a=1@1:77></r>|ok");
	CHECK_STR(ev0("<!DOCTYPE r SYSTEM \"file:///etc/passwd\"><r>ok</r>"), "<r@1:41/1>'ok'</r>|ok");
	CHECK_STR(ev0("<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" "
				  "\"http://my.netscape.com/publish/formats/rss-0.91.dtd\"><r/>"),
			  "<r@1:123/1></r>|ok");

	/* billion laughs and quadratic blow-up: refused at once */
	char	   *bl = malloc(1 << 16);
	size_t		n = 0;

	n += sprintf(bl + n, "<!DOCTYPE r [<!ENTITY l0 \"lol\">");
	for (int i = 1; i < 10; i++)
		n += sprintf(bl + n, "<!ENTITY l%d \"&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;\">",
					 i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	n += sprintf(bl + n, "]><r>&l9;</r>");
	double		t0 = now();

	CHECK(starts(events(bl, n, 0, 0), "|ERR 2200M"));
	CHECK(now() - t0 < 0.2);

	size_t		qn = 200000;
	char	   *qb = malloc(qn * 3 + 1000);

	n = (size_t) sprintf(qb, "<!DOCTYPE r [<!ENTITY a \"");
	memset(qb + n, 'x', 50000);
	n += 50000;
	n += sprintf(qb + n, "\">]><r>");
	for (size_t i = 0; i < qn / 3; i++)
	{
		memcpy(qb + n, "&a;", 3);
		n += 3;
	}
	n += sprintf(qb + n, "</r>");
	t0 = now();
	CHECK(starts(events(qb, n, 0, 0), "|ERR 2200M"));
	CHECK(now() - t0 < 0.2);
	free(bl);
	free(qb);
}

static void
test_limits(void)
{
	CHECK_STR(events("<a><b><c>x</c></b></a>", 22, 3, 0),
			  "<a@1:1/1><b@1:4/2><c@1:7/3>'x'</c></b></a>|ok");
	CHECK(starts(events("<a><b><c><d/></c></b></a>", 25, 3, 0),
				 "|ERR 54001 1:10 document nesting exceeds serde.max_depth (3)"));
	/* 100,000 levels: refused at the limit, in well under a second */
	size_t		levels = 100000;
	char	   *deep = malloc(levels * 3 + 1);

	for (size_t i = 0; i < levels; i++)
		memcpy(deep + 3 * i, "<a>", 3);
	double		t0 = now();

	CHECK(starts(events(deep, levels * 3, 0, 0), "|ERR 54001 1:1537 "));
	CHECK(now() - t0 < 0.5);
	free(deep);

	sd_error	err;
	sd_xr_options o = {0, 10, 0};

	CHECK(sd_xr_open(NULL, "<r>0123456789</r>", 17, &o, &err) == NULL);
	CHECK(err.code == SD_E_SIZE);
	CHECK_STR(err.problem, "document of 17 bytes exceeds serde.max_document_bytes (10)");
}

static int	outer_errors;

static void
outer_handler(void *ctx, xmlErrorPtr e)
{
	outer_errors++;
}

static xmlParserInputPtr
outer_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
	return NULL;
}

static void
test_globals_restored(void)
{
	int			token;
	xmlExternalEntityLoader before = xmlGetExternalEntityLoader();

	xmlSetStructuredErrorFunc(&token, outer_handler);
	xmlSetExternalEntityLoader(outer_loader);
	outer_errors = 0;
	(void) ev0("<r><x:v/></r>");
	(void) ev0("<r>");
	(void) ev0("<!DOCTYPE r [<!ENTITY e \"x\">]><r>&e;</r>");
	CHECK(outer_errors == 0);   /* serde's errors never reached the host's handler */
	CHECK(xmlStructuredError == outer_handler);
	CHECK(xmlStructuredErrorContext == &token);
	CHECK(xmlGetExternalEntityLoader() == outer_loader);
	/* and the host's own parse still reports to its handler */
	xmlDocPtr	d = xmlReadMemory("<r>", 3, NULL, NULL, XML_PARSE_NONET);

	CHECK(d == NULL && outer_errors > 0);
	xmlSetStructuredErrorFunc(NULL, NULL);
	xmlSetExternalEntityLoader(before);
}

/* sd_xr_locate (eight bytes at a time between line ends) against a byte-by-byte count: random
 * text of ASCII, 2- to 4-byte UTF-8, LF, CR LF and lone CR, located at increasing offsets */
static void
test_locate(void)
{
	static const char *const pieces[] = {"a", "<x>", "\n", "\r\n", "\r", "\xc3\xa9", "\xe2\x82\xac",
		"\xf0\x9f\x98\x80", "abcdefghij", "        ", "\t"};
	uint32_t	seed = 11;
	int			bad = 0;

	for (int n = 0; n < 300; n++)
	{
		char		doc[4096];
		size_t		len = 0;
		sd_error	err;

		if (n % 7 == 0)
		{
			memcpy(doc, "\xef\xbb\xbf", 3);	/* a BOM takes no column */
			len = 3;
		}
		while (len < 3000)
		{
			seed = seed * 1103515245u + 12345u;
			const char *p = pieces[(seed >> 16) % (sizeof(pieces) / sizeof(pieces[0]))];
			size_t		pl = strlen(p);

			memcpy(doc + len, p, pl);
			len += pl;
		}
		sd_xreader *r = sd_xr_open(NULL, doc, len, NULL, &err);

		CHECK(r != NULL);
		if (!r)
			return;
		uint32_t	ln = 1,
					col = 1;
		size_t		at = (n % 7 == 0) ? 3 : 0;

		for (size_t off = 0; off <= len; off += 1 + (seed >> 20) % 97)
		{
			uint32_t	gl,
						gc;

			seed = seed * 1103515245u + 12345u;
			for (; at < off; at++)
			{
				unsigned char c = (unsigned char) doc[at];

				if (c == '\n' || (c == '\r' && !(at + 1 < len && doc[at + 1] == '\n')))
					ln++, col = 1;
				else if (c != '\r' && (c & 0xC0) != 0x80)
					col++;
			}
			if (off < 3 && n % 7 == 0)
				continue;		/* inside the BOM */
			sd_xr_locate(r, (int64_t) off, &gl, &gc);
			if ((gl != ln || gc != col) && bad++ < 5)
				fprintf(stderr, "locate doc %d offset %zu: %u:%u, want %u:%u\n", n, off, gl, gc, ln, col);
		}
		sd_xr_close(r);
	}
	CHECK(bad == 0);
}

/* Line and column by the byte-by-byte rule (CR LF one line end, a column per character). */
static void
count_pos(const char *doc, size_t len, size_t off, uint32_t *line, uint32_t *col)
{
	uint32_t	ln = 1,
				co = 1;

	for (size_t at = 0; at < off; at++)
	{
		unsigned char c = (unsigned char) doc[at];

		if (c == '\n' || (c == '\r' && !(at + 1 < len && doc[at + 1] == '\n')))
			ln++, co = 1;
		else if (c != '\r' && (c & 0xC0) != 0x80)
			co++;
	}
	*line = ln;
	*col = co;
}

/* Positions are counted only when asked (issue 23): events carry byte offsets, and an error
 * deep in a large document (multi-byte characters, CR LF, attributes before it) gets the same
 * line:column at every chunk size as the byte-by-byte count; every START's and attribute's
 * offset, located, agrees with that count too. */
static void
test_lazy_positions(void)
{
	static char doc[40000];
	size_t		len = 0;
	int			bad = 0;

	len += (size_t) sprintf(doc + len, "<r xmlns:p=\"urn:p\">");
	for (int i = 0; i < 300; i++)
	{
		if (i % 3 == 0)
			len += (size_t) sprintf(doc + len, "\r\n  <i a=\"\xc3\xa9%d\" p:b='x'>t\xe2\x82\xac%d</i>", i, i);
		else if (i % 3 == 1)
			len += (size_t) sprintf(doc + len, "\n\t<j>\xf0\x9f\x98\x80 &amp; %d</j>", i);
		else
			len += (size_t) sprintf(doc + len, "\r<k\n c=\"%d\"/>", i);
	}
	size_t		deep = 0;

	len += (size_t) sprintf(doc + len, "\r\n \xc3\xa9 <d1><d2><d3>");
	deep = len;
	len += (size_t) sprintf(doc + len, "<d4>x</d4></d3></d2></d1></r>");

	uint32_t	wl,
				wc;

	count_pos(doc, len, deep, &wl, &wc);
	for (size_t chunk = 0; chunk <= 700; chunk += chunk < 40 ? 1 : 37)
	{
		sd_xr_options o = {4, 0, chunk};	/* <d4> is at depth 5 */
		sd_error	err;
		sd_xreader *r = sd_xr_open(NULL, doc, len, &o, &err);

		CHECK(r != NULL);
		if (!r)
			return;
		int			rc = sd_xr_drain(r, &err);

		if ((rc != -1 || err.code != SD_E_DEPTH || err.line != wl || err.column != wc ||
			 err.offset != (int64_t) deep) && bad++ < 5)
			fprintf(stderr, "lazy positions, chunk %zu: rc %d code %d at %u:%u offset %lld, want %u:%u offset %zu\n",
					chunk, rc, (int) err.code, err.line, err.column, (long long) err.offset, wl, wc, deep);
		sd_xr_close(r);
	}
	for (size_t chunk = 0; chunk <= 700; chunk += 101)
	{
		sd_xr_options o = {0, 0, chunk};
		sd_error	err;
		sd_xreader *r = sd_xr_open(NULL, doc, len, &o, &err);
		sd_xev		ev;
		int			starts = 0;

		CHECK(r != NULL);
		if (!r)
			return;
		while (sd_xr_next(r, &ev, &err) == 1)
		{
			if (ev.kind != SD_XEV_START)
				continue;
			starts++;
			uint32_t	gl,
						gc,
						el,
						ec;

			sd_xr_locate(r, ev.offset, &gl, &gc);
			count_pos(doc, len, (size_t) ev.offset, &el, &ec);
			if ((doc[ev.offset] != '<' || gl != el || gc != ec) && bad++ < 5)
				fprintf(stderr, "start at %lld: %u:%u, want %u:%u\n", (long long) ev.offset, gl, gc, el, ec);
			for (uint32_t k = 0; k < ev.nattrs; k++)
			{
				const sd_xattr *a = &ev.attrs[k];
				size_t		pl = a->name.prefix ? a->name.prefix_len + 1 : 0;

				sd_xr_locate(r, a->offset, &gl, &gc);
				count_pos(doc, len, (size_t) a->offset, &el, &ec);
				if ((gl != el || gc != ec ||
					 memcmp(doc + a->offset + pl, a->name.local, a->name.local_len) != 0) && bad++ < 5)
					fprintf(stderr, "attribute at %lld: %u:%u, want %u:%u\n", (long long) a->offset, gl, gc, el, ec);
			}
		}
		CHECK(starts == 305);
		sd_xr_close(r);
	}
	CHECK(bad == 0);
}

void
unit_xmlread(void)
{
	test_lazy_positions();
	test_locate();
	test_events();
	test_encodings();
	test_malformed();
	test_hostile();
	test_limits();
	test_globals_restored();
}
