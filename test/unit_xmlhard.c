/*
 * unit_xmlhard.c - XML hardening (issue 19): line ends normalised everywhere the document's
 * bytes reach a value (CDATA content, whatever the chunk size; text and attributes as libxml2
 * gives them; &#13; stays a CR; an xml column's element), libxml2's messages on one line, and
 * an xml column's element made standalone (the namespace declarations in scope it uses).
 */
#include "unit.h"
#include "unit_support.h"
#include "xml_read.h"
#include "xml_messages.h"

#include <stdlib.h>

void		unit_xmlhard(void);

static char xh_out[8192];

/* The document's text (every TEXT event, concatenated) and attribute values ("@v|"), read in
 * chunks of `chunk` bytes; "ERR <problem>" on an error. */
static const char *
xh_read(const char *doc, size_t chunk)
{
	sd_error	err;
	sd_xr_options o = {0, 0, chunk};
	sd_xreader *r = sd_xr_open(NULL, doc, strlen(doc), &o, &err);
	sd_xev		ev;
	size_t		n = 0;
	int			rc;

	xh_out[0] = '\0';
	if (!r)
	{
		snprintf(xh_out, sizeof(xh_out), "ERR %s", err.problem);
		return xh_out;
	}
	while ((rc = sd_xr_next(r, &ev, &err)) == 1)
	{
		if (ev.kind == SD_XEV_TEXT && n + ev.text_len + 1 < sizeof(xh_out))
		{
			memcpy(xh_out + n, ev.text, ev.text_len);
			n += ev.text_len;
		}
		else if (ev.kind == SD_XEV_START)
			for (uint32_t k = 0; k < ev.nattrs; k++)
				if (n + ev.attrs[k].value_len + 3 < sizeof(xh_out))
				{
					xh_out[n++] = '@';
					memcpy(xh_out + n, ev.attrs[k].value, ev.attrs[k].value_len);
					n += ev.attrs[k].value_len;
					xh_out[n++] = '|';
				}
	}
	xh_out[n] = '\0';
	if (rc < 0)
		snprintf(xh_out, sizeof(xh_out), "ERR %s", err.problem);
	sd_xr_close(r);
	return xh_out;
}

static const char *
xh_read0(const char *doc)
{
	return xh_read(doc, 0);
}

/* The same result at every chunk size from 1 to 700 bytes (and the default). */
static int
xh_chunks(const char *doc, const char *want)
{
	for (size_t ch = 1; ch < 700; ch += (ch < 64 ? 1 : 29))
		if (strcmp(xh_read(doc, ch), want) != 0)
		{
			fprintf(stderr, "  chunk %zu: got %zu bytes, want %zu\n", ch, strlen(xh_out), strlen(want));
			return 0;
		}
	return strcmp(xh_read0(doc), want) == 0;
}

static void
line_ends(void)
{
	/* CDATA: CR LF and a lone CR are LF, as in text */
	CHECK_STR(xh_read0("<a><![CDATA[x\r\ny]]></a>"), "x\ny");
	CHECK_STR(xh_read0("<a><![CDATA[x\ry]]></a>"), "x\ny");
	CHECK_STR(xh_read0("<a><![CDATA[\r]]>\n</a>"), "\n\n");
	CHECK_STR(xh_read0("<a><![CDATA[x\r]]><![CDATA[\ny]]></a>"), "x\n\ny");
	CHECK_STR(xh_read0("<a><![CDATA[\r\r\n\n\r]]></a>"), "\n\n\n\n");
	CHECK_STR(xh_read0("<a>p<![CDATA[x\r\ny]]>q\r\nr</a>"), "px\nyq\nr");
	/* text (libxml2 does it) and character references: &#13; is the one CR that stays */
	CHECK_STR(xh_read0("<a>x\r\ny\rz&#13;w&#xD;\r\n</a>"), "x\ny\nz\rw\r\n");
	CHECK_STR(xh_read0("<a>&amp;\r\n&lt;\r</a>"), "&\n<\n");
	CHECK_STR(xh_read0("<a><![CDATA[&#13;]]></a>"), "&#13;");
	/* attributes: line ends, then whitespace characters, are one space each; &#13; stays */
	CHECK_STR(xh_read0("<a b='x\r\ny\rz&#13;w'/>"), "@x y z\rw|");
	/* long CDATA and text cut anywhere, between CR and LF too */
	{
		char	   *d = malloc(8192),
				   *t = malloc(8192),
				   *w = malloc(4096);

		strcpy(d, "<a><![CDATA[");
		strcpy(t, "<a>");
		w[0] = '\0';
		for (int i = 0; i < 150; i++)
		{
			strcat(d, "ab\r\ncd\re");
			strcat(t, "ab\r\ncd\re");
			strcat(w, "ab\ncd\ne");
		}
		strcat(d, "]]></a>");
		strcat(t, "</a>");
		CHECK(xh_chunks(d, w));
		CHECK(xh_chunks(t, w));
		free(d);
		free(t);
		free(w);
	}
}

/* libxml2's messages come on one line: no newline inside or at the end */
static void
one_line_messages(void)
{
	static const char *const bad[] = {
		"<a><![CDATA[x\ny \x01 z ]]></a>",
		"<a><!-- x\ny -- z --></a>",
		"<a><!-- x\ny \x01 z --></a>",
		"<a>x</a><!-- abc\ndef",
		"<a>x\ny \x01 z </a>",
		"<a b=\"x\ny \x01 z \"/>",
		"<a>x</b>",
		"<a>&#0;</a>",
		"<a b='1' b='2'/>",
		"<a:b/>",
		"<a><?pi x\ny \x02?></a>",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
	{
		const char *r = xh_read0(bad[i]);

		CHECK(strncmp(r, "ERR malformed XML: ", 19) == 0);
		CHECK(strchr(r, '\n') == NULL && strchr(r, '\r') == NULL && strchr(r, '\t') == NULL);
		CHECK(r[strlen(r) - 1] != ' ');
		if (strchr(r, '\n'))
			fprintf(stderr, "  %s\n", r);
	}
	CHECK_STR(xh_read0("<a><![CDATA[x\ny \x01 z ]]></a>"),
			  "ERR malformed XML: invalid UTF-8 in bytes 0x01 0x20 0x7A 0x20 (the document must be UTF-8 text)");
}

/* an xml column: the element standalone (declarations in scope it uses), line ends LF */
static void
standalone_elements(void)
{
	const sd_type *row = ut_composite("xhrow", "x:xml,t:text");
	const char *none = "{\"xml\": {\"root\": \"r\"}, \"optional\": true}";
	const char *ns = "{\"xml\": {\"root\": \"r\", \"namespace\": \"u\"}, \"optional\": true}";

	/* the prefix the subtree uses is declared on the element; line ends LF everywhere in it
	 * (text, attribute values, comments, PIs, CDATA), &#13; kept as written */
	CHECK_STR(ut_decode_xml(row, none, "<r xmlns:p='v' xmlns:q='w'><x><p:y/>\r\n<z a='1\r\n2'/>"
							"<!--c\r\n--><?pi a\r\nb?><![CDATA[c\rd]]>&#13;</x><t>a\r\nb</t></r>"),
			  "{x:'<x xmlns:p=\"v\"><p:y/>\n<z a='1\n2'/><!--c\n--><?pi a\nb?><![CDATA[c\nd]]>&#13;</x>',"
			  "t:'a\nb'}");
	/* the default namespace, inherited: declared; a prefix the element declares itself is not
	 * added again; xmlns="" inside needs nothing */
	CHECK_STR(ut_decode_xml(row, ns, "<r xmlns='u' xmlns:p='v'><x xmlns:p='v2' p:a='1'><y xmlns=''/></x></r>"),
			  "{x:'<x xmlns=\"u\" xmlns:p='v2' p:a='1'><y xmlns=''/></x>',t:null}");
	/* the innermost declaration wins; a prefixed attribute uses its prefix; unprefixed
	 * attributes and xml: use nothing; names inside CDATA, comments and attribute values are
	 * not names */
	{
		const sd_type *inner = ut_composite("xhin", "x:xml");
		const sd_type *outer = ut_composite("xhout", "m:xhin");

		(void) inner;
		CHECK_STR(ut_decode_xml(outer, ns, "<r xmlns='u' xmlns:p='v1' xmlns:q='w'><m xmlns:p='v2'>"
								"<x a='&lt;q:n/>' p:b='1' xml:lang='en'><!--<q:c/>--><![CDATA[<q:d>]]></x></m></r>"),
				  "{m:{x:'<x xmlns=\"u\" xmlns:p=\"v2\" a='&lt;q:n/>' p:b='1' xml:lang='en'><!--<q:c/>-->"
				  "<![CDATA[<q:d>]]></x>'}}");
	}
	/* a namespace URI with '&' is the document's (libxml2 hands it over as "&#38;"): it
	 * matches the shape's namespace, and is written escaped on a captured element */
	{
		const char *amp = "{\"xml\": {\"root\": \"r\", \"namespace\": \"http://e/?a=1&b=2\"}, \"optional\": true}";

		CHECK_STR(ut_decode_xml(row, amp, "<r xmlns='http://e/?a=1&amp;b=2'><x/><t>1</t></r>"),
				  "{x:'<x xmlns=\"http://e/?a=1&amp;b=2\"/>',t:'1'}");
		CHECK_STR(ut_decode_xml(row, amp, "<p:r xmlns:p='http://e/?a=1&#38;b=2'><p:x><p:y/></p:x></p:r>"),
				  "{x:'<p:x xmlns:p=\"http://e/?a=1&amp;b=2\"><p:y/></p:x>',t:null}");
		CHECK_STR(ut_decode_xml(row, amp, "<r xmlns='http://e/?a=1&amp;amp;b=2'/>"),
				  "ERROR 2200N /r: expected root element {http://e/?a=1&b=2}r, found {http://e/?a=1&amp;b=2}r @0 1:1");
	}
	/* nothing to add, no CR: the document's bytes as they are */
	CHECK_STR(ut_decode_xml(row, none, "<r xmlns:p='v'><x a=\"1\" ><y>t</y ></x ></r>"),
			  "{x:'<x a=\"1\" ><y>t</y ></x >',t:null}");
	CHECK_STR(ut_decode_xml(row, ns, "<r xmlns='u' xmlns:p='v'><p:x xmlns:p='u'><p:y/></p:x></r>"),
			  "{x:'<p:x xmlns:p='u'><p:y/></p:x>',t:null}");
	CHECK_STR(ut_decode_xml(row, ns, "<r xmlns='u' xmlns:p='u'><p:x><p:y/></p:x></r>"),
			  "{x:'<p:x xmlns:p=\"u\"><p:y/></p:x>',t:null}");
	/* a list of xml items: each one standalone */
	{
		const sd_type *lrow = ut_composite("xhlist", "x:xml[]");

		CHECK_STR(ut_decode_xml(lrow, ns, "<r xmlns='u'><x/><x>\r</x></r>"),
				  "{x:['<x xmlns=\"u\"/>','<x xmlns=\"u\">\n</x>']}");
	}
	/* the added declarations are bounded by the document's size: 8 times it, plus 1 MB */
	{
		size_t		ulen = 200000,
					items = 20000;
		char	   *d = malloc(ulen + items * 16 + 200);
		const sd_type *lrow = ut_composite("xhlist2", "x:xml[]");
		size_t		o = 0;

		o += (size_t) sprintf(d, "<r xmlns:p='");
		memset(d + o, 'a', ulen);
		o += ulen;
		o += (size_t) sprintf(d + o, "'>");
		for (size_t i = 0; i < items; i++)
			o += (size_t) sprintf(d + o, "<x><p:y/></x>");
		sprintf(d + o, "</r>");
		const char *r = ut_decode_xml(lrow, none, d);

		CHECK(strncmp(r, "ERROR 54000 /: decoding XML: the namespace declarations added to xml columns", 76) == 0);
		if (strncmp(r, "ERROR 54000", 11) != 0)
			fprintf(stderr, "  %.200s\n", r);
		free(d);
	}
}

/* libxml2's common messages in plain words (xml_messages.c), through the reader: what is wrong
 * and how to write it; the location stays the error's (line and column, checked elsewhere) */
static void
plain_messages(void)
{
	static const char *const cases[][2] = {
		{"<a>x & y</a>", "an unescaped '&' (write &amp;)"},
		{"<a>x &amp y</a>", "an unescaped '&' or an entity reference without its ';' (write &amp; for '&')"},
		{"<a><b>x</a>", "mismatched end tag </a> for <b> opened at line 1"},
		{"<a>\n<b>x</c></b></a>", "mismatched end tag </c> for <b> opened at line 2"},
		{"<a/><b/>", "content after the end of the root element (a document has one root element)"},
		{"<a>x</a>y", "content after the end of the root element (a document has one root element)"},
		{"<a><1x/></a>", "an invalid element name after '<' (in text, write &lt; for '<')"},
		{"<a x=1/>", "an attribute value without quotes (write name=\"value\")"},
		{"<a x=\"<\"/>", "an unescaped '<' in an attribute value (write &lt;)"},
		{"<a>&nbsp;</a>", "undefined entity &nbsp; (only &amp; &lt; &gt; &quot; &apos; are predefined: "
		 "write the character itself or a character reference such as &#160;)"},
		{"<a b='1'c='2'/>", "a malformed attribute in a start tag (write name=\"value\", separated by white space)"},
		{"<a x='1' y>", "attribute y has no value (write y=\"value\")"},
		{"<a x='1' x='2'/>", "attribute x appears twice in one element"},
		{"<a><!-- x</a>", "a comment not closed by '-->'"},
		{"<a>\xff</a>", "invalid UTF-8 in bytes 0xFF 0x3C 0x2F 0x61 (the document must be UTF-8 text)"},
		/* not in the table: libxml2's words, one line */
		{"<a>x</a", "expected '>'"},
		{"<a>&#0;</a>", "xmlParseCharRef: invalid xmlChar value 0"},
		/* the reader's own words for a document cut short */
		{"<a><b>x", "premature end of the document, 2 elements not closed"},
	};
	char		out[SD_PROBLEM_MAX];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		char		want[SD_PROBLEM_MAX + 32];

		snprintf(want, sizeof(want), "ERR malformed XML: %s", cases[i][1]);
		CHECK_STR(xh_read0(cases[i][0]), want);
	}
	/* the table itself: messages the push reader does not produce, fields libxml2 did not fill,
	 * look-alikes, unknown messages */
	CHECK(sd_xml_plain_message("Premature end of data in tag item line 3", "item", NULL, 3, out,
							   sizeof(out)));
	CHECK_STR(out, "the document ends inside <item> opened at line 3 (its end tag is missing)");
	CHECK(sd_xml_plain_message("EndTag: '</' not found", NULL, NULL, 0, out, sizeof(out)));
	CHECK_STR(out, "the document ends before an end tag (an element is not closed)");
	CHECK(sd_xml_plain_message("Couldn't find end of Start Tag item", "item", NULL, 0, out, sizeof(out)));
	CHECK_STR(out, "the start tag <item> is not closed by '>'");
	CHECK(sd_xml_plain_message("Input is not proper UTF-8, indicate encoding !", NULL, NULL, 0, out,
							   sizeof(out)));
	CHECK_STR(out, "invalid UTF-8 (the document must be UTF-8 text)");
	CHECK(!sd_xml_plain_message("Opening and ending tag mismatch: a line 1 and b", "a", NULL, 1, out,
								sizeof(out)));
	CHECK(!sd_xml_plain_message("Opening and ending tag mismatch: a line 1 and b", "a", "b", 0, out,
								sizeof(out)));
	CHECK(!sd_xml_plain_message("Attribute x is not declared", "x", NULL, 0, out, sizeof(out)));
	CHECK(!sd_xml_plain_message("xmlParseEntityRef: no name at all", NULL, NULL, 0, out, sizeof(out)));
	CHECK(!sd_xml_plain_message("Comment not terminated", NULL, NULL, 0, out, 0));
	CHECK(!sd_xml_plain_message(NULL, NULL, NULL, 0, out, sizeof(out)));
	/* cut to fit, NUL-terminated */
	{
		char		small[12];

		CHECK(sd_xml_plain_message("xmlParseEntityRef: no name", NULL, NULL, 0, small, sizeof(small)));
		CHECK_STR(small, "an unescape");
	}
}

void
unit_xmlhard(void)
{
	line_ends();
	one_line_messages();
	plain_messages();
	standalone_elements();
}

