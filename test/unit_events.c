/*
 * unit_events.c - tests of the events the JSON walker writes for jsonb values (serde_core.h,
 * sd_decoder_events): the PostgreSQL adapter builds jsonb from them instead of parsing the
 * value's text again, so they must be exactly the value: every kind, keys and strings
 * unescaped, numbers as written, nesting, and none where they must not be (json columns, other
 * values, values with more than SD_JEV_MAX events, serde_errors' mode).
 *
 * Documents are written with ' for " (see unq()).
 */
#include <stdlib.h>
#include <string.h>

#include "serde_core.h"
#include "unit.h"
#include "unit_support.h"

static const char *
unq(const char *s)
{
	static char buf[2][4096];
	static int	k;
	char	   *o = buf[k ^= 1];
	size_t		i;

	for (i = 0; s[i] && i < sizeof(buf[0]) - 1; i++)
		o[i] = s[i] == '\'' ? '"' : s[i];
	o[i] = '\0';
	return o;
}

#define EV(t, doc, want) CHECK_STR(ut_decode_events(t, "{}", unq(doc)), want)

void		unit_events(void);

void
unit_events(void)
{
	const sd_type *jb = ut_composite("ev_jb", "v:jsonb");
	const sd_type *two = ut_composite("ev_two", "a:jsonb,j:json,b:jsonb,n:int4");
	const sd_type *arr = ut_composite("ev_arr", "v:int4,w:jsonb");

	/* every kind of scalar, as the root of the value */
	EV(jb, "{'v': 1}", "N1");
	EV(jb, "{'v': -0.5e+10}", "N-0.5e+10");
	EV(jb, "{'v':   12345678901234567890123 }", "N12345678901234567890123");
	EV(jb, "{'v': [0, -0, 7, -12, 123456789012345678, 1234567890123456789, 1.0, -0.0e0]}",
	   "[ N0 N-0 N7 N-12 N123456789012345678 N1234567890123456789 N1.0 N-0.0e0 )");
	/* malformed numbers inside a jsonb value are still found (the integer fast path) */
	EV(jb, "{'v': [01]}", "ERROR 22P02 $: malformed JSON: invalid number @7");
	EV(jb, "{'v': [-01]}", "ERROR 22P02 $: malformed JSON: invalid number @7");
	EV(jb, "{'v': [-]}", "ERROR 22P02 $: malformed JSON: invalid number @7");
	EV(jb, "{'v': [1-2]}", "ERROR 22P02 $: malformed JSON: invalid number @7");
	/* numbers and literals followed by blanks (an indented document: scalar_token() scans
	 * forward): the same events and errors as compact */
	EV(jb, "{'v': [\n  97 ,\n  -1.5e3\t,\r\n 0  \n ]}", "[ N97 N-1.5e3 N0 )");
	EV(jb, "{'v': [true \n, false\t, null  ]}", "[ T F Z )");
	EV(jb, "{'v': 12 \n }", "N12");
	EV(jb, "{'v': [01 \n]}", "ERROR 22P02 $: malformed JSON: invalid number @7");
	EV(jb, "{'v': [- \n]}", "ERROR 22P02 $: malformed JSON: invalid number @7");
	EV(jb, "{'v': [1-2\t]}", "ERROR 22P02 $: malformed JSON: invalid number @7");
	EV(jb, "{'v': [nul \n]}", "ERROR 22P02 $: malformed JSON: invalid literal @7");
	EV(jb, "{'v': true}", "T");
	EV(jb, "{'v': false}", "F");
	EV(jb, "{'v': 'x'}", "S'x'");
	EV(jb, "{'v': ''}", "S''");
	/* a null member is SQL NULL, not a jsonb value */
	CHECK_STR(ut_decode_events(jb, "{}", unq("{'v': null}")), "");
	/* containers, empty and nested, with blanks anywhere */
	EV(jb, "{'v': {}}", "{ )");
	EV(jb, "{'v': [ ]}", "[ )");
	EV(jb, "{'v': [null, [ {} , [] ], {'k': [1, 'a']}]}",
	   "[ Z [ { ) [ ) ) { K'k' [ N1 S'a' ) ) )");
	EV(jb, "{'v':\n {\n  'b' : 1 ,\n  'a' : [ true , false ]\n }\n}",
	   "{ K'b' N1 K'a' [ T F ) )");
	/* duplicate keys stay (jsonb's builder drops them), in document order */
	EV(jb, "{'v': {'k': 1, 'k': 2}}", "{ K'k' N1 K'k' N2 )");
	/* escapes: keys and strings unescaped (UTF-8), plain ones as they are */
	EV(jb, "{'v': {'a\\tb': 'x\\ny', 'q\\'': '\\u00e9\\ud83d\\ude00'}}",
	   "{ K'a\tb' S'x\ny' K'q\"' S'\xc3\xa9\xf0\x9f\x98\x80' )");
	EV(jb, "{'v': ['caf\xc3\xa9', '\\/', '\\\\/']}", "[ S'caf\xc3\xa9' S'/' S'\\/' )");
	/* several jsonb columns, a json column (no events) and the order of the tape */
	CHECK_STR(ut_decode_events(two, "{}", unq("{'a': [1], 'j': {'x': 1}, 'b': {'y': [2]}, 'n': 3}")),
			  "[ N1 ) | none | { K'y' [ N2 ) )");
	CHECK_STR(ut_decode_events(two, "{}", unq("{'b': 'late', 'a': {}, 'j': [], 'n': 1}")),
			  "{ ) | none | S'late'");
	/* unknown members skipped before a jsonb value write nothing into it */
	CHECK_STR(ut_decode_events(arr, "{}", unq("{'x': {'deep': [1, {'z': 2}]}, 'v': 1, 'w': [3]}")),
			  "[ N3 )");

	/* more than SD_JEV_MAX events: none (the host parses the text); the next value has its own */
	{
		size_t		n = (size_t) SD_JEV_MAX + 10;
		size_t		cap = 2 * n + 64;
		char	   *doc = malloc(cap);
		size_t		o = 0;

		CHECK(doc != NULL);
		if (doc)
		{
			o += (size_t) snprintf(doc + o, cap - o, "{\"a\": [");
			for (size_t i = 0; i < n; i++)
			{
				doc[o++] = '0';
				doc[o++] = i + 1 < n ? ',' : ']';
			}
			o += (size_t) snprintf(doc + o, cap - o, ", \"b\": [true], \"j\": 1, \"n\": 2}");
			CHECK_STR(ut_decode_events(two, "{}", doc), "none | none | [ T )");
			free(doc);
		}
	}
}
