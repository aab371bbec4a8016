/*
 * unit_errors.c — the core's one error model (error.c): SQLSTATEs by kind of document, the
 * "<shape>: <path>: <problem>" formatter and its cuts, locations (byte offset / line and column),
 * XPath building (1-based positions, prefixes as written, cut names) and found-value descriptions
 * cut at 40 characters that stay valid UTF-8; serde_errors' order: a missing member where its
 * object begins, before the errors inside the object.
 */
#include "unit.h"
#include "unit_support.h"
#include "serde_core.h"
#include "xml_decode.h"

#include <stdlib.h>

/* true when s is valid UTF-8 (no partial character, no stray continuation byte) */
static int
valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *) s;

	while (*p)
	{
		int			n = *p < 0x80 ? 1 : *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 0;

		if (n == 0)
			return 0;
		for (int i = 1; i < n; i++)
			if ((p[i] & 0xC0) != 0x80)
				return 0;
		p += n;
	}
	return 1;
}

static void
sqlstates(void)
{
	CHECK(sd_code_for_doc(SD_E_KIND, SD_DOC_JSON) == SD_E_KIND);
	CHECK(sd_code_for_doc(SD_E_KIND, SD_DOC_XML) == SD_E_XML_KIND);
	CHECK(sd_code_for_doc(SD_E_SYNTAX, SD_DOC_XML) == SD_E_XML_SYNTAX);
	CHECK(sd_code_for_doc(SD_E_SYNTAX, SD_DOC_JSON) == SD_E_SYNTAX);
	CHECK(sd_code_for_doc(SD_E_MISSING, SD_DOC_XML) == SD_E_MISSING);
	CHECK(sd_code_for_doc(SD_E_RANGE, SD_DOC_XML) == SD_E_RANGE);
	CHECK_STR(sd_code_sqlstate(sd_code_for_doc(SD_E_KIND, SD_DOC_XML)), "2200N");
	CHECK_STR(sd_code_sqlstate(sd_code_for_doc(SD_E_SYNTAX, SD_DOC_XML)), "2200M");
	CHECK_STR(sd_code_sqlstate(sd_code_for_doc(SD_E_KIND, SD_DOC_JSON)), "22032");
	CHECK_STR(sd_code_sqlstate(SD_E_UNKNOWN), "2203E");
	CHECK_STR(sd_code_sqlstate((sd_code) 999), "XX000");
}

static void
messages(void)
{
	char		buf[1024];
	sd_error	e;

	sd_error_clear(&e);
	CHECK(e.doc == SD_DOC_JSON && e.line == 0 && e.column == 0 && e.offset == -1);
	strcpy(e.path, "$.lines.data[2].amount");
	sd_error_set(&e, SD_E_KIND, 41, "expected integer, found %s", "string \"12.5\"");
	CHECK(sd_error_message(&e, "Invoice", buf, sizeof(buf)) == strlen(buf));
	CHECK_STR(buf, "Invoice: $.lines.data[2].amount: expected integer, found string \"12.5\"");
	sd_error_location(&e, buf, sizeof(buf));
	CHECK_STR(buf, "at byte offset 41");

	/* no path: left out */
	sd_message(buf, sizeof(buf), "Invoice", "", "out of memory");
	CHECK_STR(buf, "Invoice: out of memory");
	sd_message(buf, sizeof(buf), "Invoice", NULL, "x");
	CHECK_STR(buf, "Invoice: x");
	/* an empty problem gives the prefix the host puts before its own messages */
	sd_message(buf, sizeof(buf), "Invoice", "$.a", "");
	CHECK_STR(buf, "Invoice: $.a: ");

	/* a cut message ends in a whole character and "..." */
	{
		char		small[24];
		size_t		n = sd_message(small, sizeof(small), "S", "$.x", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");

		CHECK(n < sizeof(small) && valid_utf8(small));
		CHECK(n >= 3 && strcmp(small + n - 3, "...") == 0);
		CHECK(sd_message(small, 0, "S", "$", "p") == 0);
	}

	/* XML: line and column, and the SQLSTATEs of its codes */
	sd_error_clear(&e);
	e.doc = SD_DOC_XML;
	e.line = 3;
	e.column = 17;
	strcpy(e.path, "/ListBucketResult/Contents[3]/Size");
	sd_error_set(&e, sd_code_for_doc(SD_E_KIND, SD_DOC_XML), 120, "expected integer, found text \"12x\"");
	sd_error_message(&e, "S3List", buf, sizeof(buf));
	CHECK_STR(buf, "S3List: /ListBucketResult/Contents[3]/Size: expected integer, found text \"12x\"");
	sd_error_location(&e, buf, sizeof(buf));
	CHECK_STR(buf, "at line 3, column 17");
	CHECK_STR(sd_code_sqlstate(e.code), "2200N");
	e.column = 0;
	sd_error_location(&e, buf, sizeof(buf));
	CHECK_STR(buf, "at line 3");
	/* no location (jsonb, options) */
	e.line = 0;
	CHECK(sd_error_location(&e, buf, sizeof(buf)) == 0 && buf[0] == '\0');
	sd_error_clear(&e);
	CHECK(sd_error_location(&e, buf, sizeof(buf)) == 0 && buf[0] == '\0');
	{
		char		tiny[8];

		e.offset = 123456789;
		CHECK(sd_error_location(&e, tiny, sizeof(tiny)) == 7 && strlen(tiny) == 7);
	}
}

static void
xpaths(void)
{
	char		path[SD_PATH_MAX];

	path[0] = '\0';
	sd_xpath_element(path, "", 0, "ListBucketResult", 16, 0);
	sd_xpath_element(path, "", 0, "Contents", 8, 3);
	sd_xpath_element(path, "", 0, "Size", 4, 0);
	CHECK_STR(path, "/ListBucketResult/Contents[3]/Size");

	path[0] = '\0';
	sd_xpath_element(path, "", 0, "feed", 4, 0);
	sd_xpath_element(path, "atom", 4, "link", 4, 2);
	sd_xpath_attribute(path, "", 0, "href", 4);
	CHECK_STR(path, "/feed/atom:link[2]/@href");

	path[0] = '\0';
	sd_xpath_element(path, "soap", 4, "Envelope", 8, 0);
	sd_xpath_attribute(path, "xsi", 3, "nil", 3);
	CHECK_STR(path, "/soap:Envelope/@xsi:nil");
	sd_xpath_text(path);
	CHECK_STR(path, "/soap:Envelope/@xsi:nil/text()");

	/* a name longer than the path: cut to whole characters, the path ends in "..." and stays so */
	{
		size_t		n = 2000;
		char	   *big = malloc(n);

		for (size_t i = 0; i + 1 < n; i += 2)
		{
			big[i] = (char) 0xc3;
			big[i + 1] = (char) 0xa9;
		}
		path[0] = '\0';
		sd_xpath_element(path, "", 0, "a", 1, 0);
		sd_xpath_element(path, "", 0, big, n, 7);
		CHECK(strlen(path) < SD_PATH_MAX && valid_utf8(path));
		CHECK(strcmp(path + strlen(path) - 3, "...") == 0);
		sd_xpath_element(path, "", 0, "b", 1, 0);
		CHECK(strcmp(path + strlen(path) - 3, "...") == 0);
		path[0] = '\0';
		sd_xpath_element(path, big, n, "x", 1, 0);
		CHECK(strlen(path) < SD_PATH_MAX && valid_utf8(path));
		free(big);
	}
	/* many segments: the path fills up and ends in "..." */
	path[0] = '\0';
	for (int i = 0; i < 200; i++)
		sd_xpath_element(path, "p", 1, "element", 7, (uint64_t) i + 1);
	CHECK(strlen(path) < SD_PATH_MAX && strcmp(path + strlen(path) - 3, "...") == 0);
}

static void
found(void)
{
	char		buf[256];

	sd_describe_text(buf, sizeof(buf), "12x", 3);
	CHECK_STR(buf, "text \"12x\"");
	sd_describe_text(buf, sizeof(buf), "", 0);
	CHECK_STR(buf, "empty text");
	/* 45 two-byte characters: cut at 40, whole characters, "..." */
	{
		char		s[91];

		for (int i = 0; i < 90; i += 2)
		{
			s[i] = (char) 0xc3;
			s[i + 1] = (char) 0xa9;
		}
		s[90] = '\0';
		sd_describe_text(buf, sizeof(buf), s, 90);
		CHECK(valid_utf8(buf));
		CHECK(strlen(buf) == strlen("text \"") + 80 + 3 + 1);
		sd_describe_found(buf, sizeof(buf), "\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\"", 2 + 41 * 2);
		CHECK(valid_utf8(buf) && strstr(buf, "...\"") != NULL);
	}
	sd_describe_found(buf, sizeof(buf), "\"12.5\"", 6);
	CHECK_STR(buf, "string \"12.5\"");
	sd_describe_found(buf, sizeof(buf), "1.5 ", 4);
	CHECK_STR(buf, "number 1.5");
}

void		unit_errors(void);
/* serde_errors' mode: a value error whose value is skipped (without a full check) does not
 * hide that the document is malformed inside it: the one syntax error, as sd_decode_json says
 * (fuzz_json found it: "v3":[ "abc", "s": ... against a text column). */
static void
malformed_after_value_errors(void)
{
	const sd_type *t = ut_composite("emal", "t:text,v3:varchar(3),n:int4");
	const char *doc = "{\"t\": \"x\", \"v3\":[ \"abc\", \"s\": -3, 4], \"n\": \"y\"}";
	sd_error	err;
	sd_plan    *plan = sd_compile("T", "{}", 2, t, NULL, NULL, &err);

	CHECK(plan != NULL);
	if (!plan)
		return;
	CHECK_STR(ut_decode_with(plan, doc), "ERROR 22P02 $: malformed JSON: expected ',' or ']' @28");
	CHECK_STR(ut_check_with(plan, doc), "ERROR 22P02 $: malformed JSON: expected ',' or ']' @28");
	/* well-formed: every value error */
	CHECK_STR(ut_check_with(plan, "{\"t\":\"\", \"v3\":[1], \"n\": \"y\"}"),
			  "ERROR 22032 $.v3: expected string, found array @14 | "
			  "ERROR 22032 $.n: expected integer, found string \"y\" @24");
	sd_plan_free(plan);
}

/* serde_errors' rows as "path@offset | ...", at most max; false in *mono when a row's seq is
 * smaller than the row's before it (hosts merge their own violations by seq) */
static const char *
found_rows(const sd_plan *plan, const char *doc, bool xml, int max, bool *mono)
{
	static char out[1024];
	sd_decoder *d = sd_decoder_create(NULL);
	const sd_found *f = NULL;
	int			total = 0;
	uint32_t	root;
	int			n;
	size_t		o = 0;

	n = xml ? sd_check_xml_found(d, plan, NULL, doc, strlen(doc), NULL, max, &f, &total, &root)
		: sd_check_json_found(d, plan, NULL, doc, strlen(doc), NULL, max, &f, &total, &root);
	out[0] = '\0';
	*mono = true;
	for (int i = 0; i < n && o < sizeof(out) - 1; i++)
	{
		o += (size_t) snprintf(out + o, sizeof(out) - o, "%s%s@%lld", i ? " | " : "", f[i].path,
							   (long long) f[i].offset);
		if (o >= sizeof(out))
			o = sizeof(out) - 1;
		if (i > 0 && f[i].seq < f[i - 1].seq)
			*mono = false;
	}
	o += (size_t) snprintf(out + o, o < sizeof(out) ? sizeof(out) - o : 0, " (%d)", total);
	sd_decoder_destroy(d);
	return out;
}

/* issue 19: a missing member is located at the start of its object, so serde_errors lists it
 * before the errors inside that object's members (document order), in JSON and XML, nested, and
 * under the cap (max_errors) too; seq stays ordered. */
static void
missing_in_document_order(void)
{
	const sd_type *in = ut_composite("emin", "k:text,n:int4");
	const sd_type *t = ut_composite("emout", "t:text,inner_:emin,n:int4");
	sd_error	err;
	sd_plan    *plan = sd_compile("T", "{}", 2, t, NULL, NULL, &err);
	sd_plan    *xplan = sd_compile("T", "{\"xml\": {\"root\": \"r\"}}", 22, t, NULL, NULL, &err);
	const char *doc = "{\"n\": \"y\", \"inner_\": {\"n\": \"x\"}}";
	const char *xdoc = "<r><n>y</n><inner_><n>x</n></inner_></r>";
	bool		mono;

	(void) in;
	CHECK(plan != NULL && xplan != NULL);
	if (!plan || !xplan)
		return;
	CHECK_STR(found_rows(plan, doc, false, 100, &mono), "$.t@0 | $.n@6 | $.inner_.k@21 | $.inner_.n@27 (4)");
	CHECK(mono);
	/* the first two in document order, not the first two found */
	CHECK_STR(found_rows(plan, doc, false, 2, &mono), "$.t@0 | $.n@6 (4)");
	CHECK_STR(found_rows(plan, doc, false, 3, &mono), "$.t@0 | $.n@6 | $.inner_.k@21 (4)");
	CHECK_STR(found_rows(plan, "{\"inner_\": {\"k\": 1, \"n\": 2}, \"t\": 3, \"n\": 4}", false, 100, &mono),
			  "$.inner_.k@17 | $.t@34 (2)");
	CHECK_STR(found_rows(xplan, xdoc, true, 100, &mono),
			  "/r/t@0 | /r/n@3 | /r/inner_/k@11 | /r/inner_/n@19 (4)");
	CHECK(mono);
	CHECK_STR(found_rows(xplan, xdoc, true, 1, &mono), "/r/t@0 (4)");
	/* the first error alone (serde_decode) is unchanged: the first met in the walk */
	CHECK_STR(ut_decode_with(plan, doc), "ERROR 22032 $.n: expected integer, found string \"y\" @6");
	sd_plan_free(plan);
	sd_plan_free(xplan);
}

/* Malformed JSON (and every JSON error with an offset) located as line and column when it is
 * reported: LF ends a line, columns count UTF-8 characters, the byte offset stays */
static void
json_locations(void)
{
	uint32_t	line,
				col;
	char		buf[128];
	sd_error	e;
	const char *doc = "{\n  \"a\": 1,\n  \"\xc3\xa9\xe2\x82\xac\": tru\n}";

	sd_json_locate(doc, strlen(doc), 0, &line, &col);
	CHECK(line == 1 && col == 1);
	sd_json_locate(doc, strlen(doc), 1, &line, &col);     /* the LF itself ends line 1 */
	CHECK(line == 1 && col == 2);
	sd_json_locate(doc, strlen(doc), 2, &line, &col);
	CHECK(line == 2 && col == 1);
	/* "tru" after a 2- and a 3-byte character: byte 23, column 9 */
	CHECK(strstr(doc, "tru") - doc == 23);
	sd_json_locate(doc, strlen(doc), 23, &line, &col);
	CHECK(line == 3 && col == 9);
	/* past the end: the end; no document or no offset: no location */
	sd_json_locate(doc, strlen(doc), 999, &line, &col);
	CHECK(line == 4 && col == 2);
	sd_json_locate(NULL, 0, 3, &line, &col);
	CHECK(line == 0 && col == 0);
	sd_json_locate(doc, strlen(doc), -1, &line, &col);
	CHECK(line == 0 && col == 0);
	/* a CR is a character, not a line end (JSON's line end is LF) */
	sd_json_locate("[1,\r\n\r2]", 8, 6, &line, &col);
	CHECK(line == 2 && col == 2);

	/* the DETAIL: line, column and the byte offset */
	sd_error_clear(&e);
	sd_error_set(&e, SD_E_SYNTAX, 22, "malformed JSON: unexpected character");
	sd_error_locate_json(&e, doc, strlen(doc));
	sd_error_location(&e, buf, sizeof(buf));
	CHECK_STR(buf, "at line 3, column 8, byte offset 22");
	/* not located (serde_valid, serde_errors' rows): the byte offset alone, as before */
	e.line = e.column = 0;
	sd_error_location(&e, buf, sizeof(buf));
	CHECK_STR(buf, "at byte offset 22");
	/* an XML error is left alone; an error without offset gets none */
	e.doc = SD_DOC_XML;
	sd_error_locate_json(&e, doc, strlen(doc));
	CHECK(e.line == 0);
	sd_error_clear(&e);
	sd_error_locate_json(&e, doc, strlen(doc));
	CHECK(e.line == 0 && e.column == 0);

	/* through the decoder: the text it read is what the host locates the error in */
	{
		const sd_type *t = ut_composite("jl", "a:int4");
		sd_plan    *plan = sd_compile("T", "{}", 2, t, NULL, NULL, &e);
		sd_decoder *d = sd_decoder_create(NULL);
		const char *bad = "{\n\"a\": 1,\n\"b\": [1,\n 2,]}";
		uint32_t	root;

		CHECK(plan && d);
		CHECK(!sd_decode_json(d, plan, NULL, bad, strlen(bad), NULL, &root, &e));
		CHECK(e.code == SD_E_SYNTAX && e.line == 0);
		/* the host locates in the document it holds */
		sd_error_locate_json(&e, bad, strlen(bad));
		sd_error_location(&e, buf, sizeof(buf));
		CHECK_STR(buf, "at line 4, column 4, byte offset 22");
		/* NDJSON: the whole input, lines counted from its start */
		CHECK(sd_each_begin(d, plan, NULL, "{\"a\":1}\n\n{\"a\":\"x\"}\n", 21, NULL, &e));
		CHECK(sd_each_next(d, &root, &e) == 1);
		CHECK(sd_each_next(d, &root, &e) == -1);
		/* (a batch's offsets count from the start of the whole input, which the host holds) */
		sd_error_locate_json(&e, "{\"a\":1}\n\n{\"a\":\"x\"}\n", 21);
		sd_error_location(&e, buf, sizeof(buf));
		CHECK_STR(e.path, "line 3: $.a");
		CHECK_STR(buf, "at line 3, column 6, byte offset 14");
		sd_decoder_destroy(d);
		sd_plan_free(plan);
	}
}

void
unit_errors(void)
{
	json_locations();
	sqlstates();
	messages();
	xpaths();
	found();
	malformed_after_value_errors();
	missing_in_document_order();
}
