/*
 * unit_jtree.c - tests of sd_jparse (src/core/jtree.c), the strict RFC 8259 parser used for
 * shape options and to locate syntax errors exactly: trees, escapes, surrogates, UTF-8, numbers,
 * exact error offsets, the depth limit, and validate-only mode (arena == NULL), which must agree
 * with the tree mode on every error.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "unit.h"

static char out[512];

/* "ok" or "<sqlstate> @<offset>: <problem>"; validate-only mode must give the same answer */
static const char *
jp_len(const char *text, size_t len, uint32_t max_depth)
{
	sd_arena	a;
	sd_error	e1,
				e2;
	sd_jnode   *tree;
	sd_jnode   *val;
	char		r1[512];

	sd_error_clear(&e1);
	sd_error_clear(&e2);
	sd_arena_init(&a, NULL);
	tree = sd_jparse(&a, text, len, max_depth, &e1);
	val = sd_jparse(NULL, text, len, max_depth, &e2);
	if (tree)
		snprintf(r1, sizeof(r1), "ok");
	else
		snprintf(r1, sizeof(r1), "%s @%lld: %s", sd_code_sqlstate(e1.code), (long long) e1.offset,
				 e1.problem);
	if ((tree != NULL) != (val != NULL) || (!tree && (e1.code != e2.code || e1.offset != e2.offset ||
													  strcmp(e1.problem, e2.problem) != 0)))
		snprintf(out, sizeof(out), "MODES DIFFER: tree %s / validate %s @%lld: %s", r1,
				 val ? "ok" : sd_code_sqlstate(e2.code), (long long) e2.offset, e2.problem);
	else
		snprintf(out, sizeof(out), "%s", r1);
	sd_arena_free(&a);
	return out;
}

static const char *
jp(const char *text)
{
	return jp_len(text, strlen(text), 0);
}

typedef struct jcase
{
	int			line;
	const char *text;
	const char *want;
} jcase;

#define J(t, w) {__LINE__, t, w}

static const jcase cases[] = {
	/* valid documents */
	J("null", "ok"),
	J("true", "ok"),
	J("false", "ok"),
	J("0", "ok"),
	J("-0", "ok"),
	J("1.5", "ok"),
	J("-1.5e10", "ok"),
	J("1E+5", "ok"),
	J("1e-5", "ok"),
	J("123456789012345678901234567890", "ok"),
	J("\"\"", "ok"),
	J("\"abc\"", "ok"),
	J("[]", "ok"),
	J("{}", "ok"),
	J(" \t\r\n[ 1 , \"a\" , { } , [ ] ] \n", "ok"),
	J("{\"a\":{\"b\":[null,true,false]},\"c\":\"\"}", "ok"),
	J("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "ok"),
	J("\"\\u0000\\u00e9\\u20AC\\ud83d\\ude00\"", "ok"),
	J("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", "ok"),
	J("\"\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\"", "ok"),
	J("{\"a\":1,\"a\":2}", "ok"),
	/* literals */
	J("tru", "22P02 @0: invalid JSON: unexpected character"),
	J("nul", "22P02 @0: invalid JSON: unexpected character"),
	J("fals", "22P02 @0: invalid JSON: unexpected character"),
	J("True", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("truex", "22P02 @4: invalid JSON: unexpected data after the value"),
	J("[nulll]", "22P02 @5: invalid JSON: expected ',' or ']'"),
	/* numbers */
	J("01", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("1.", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J(".1", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("+1", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("-", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("1e", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("1e+", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("-01", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("0x1", "22P02 @1: invalid JSON: unexpected data after the value"),
	J("NaN", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("Infinity", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("- 1", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("[1,-]", "22P02 @3: invalid JSON: bad number or unexpected character"),
	/* structure */
	J("", "22P02 @0: invalid JSON: unexpected end of input"),
	J("   ", "22P02 @3: invalid JSON: unexpected end of input"),
	J("[", "22P02 @1: invalid JSON: unexpected end of input"),
	J("{", "22P02 @1: invalid JSON: expected member name"),
	J("[1", "22P02 @2: invalid JSON: expected ',' or ']'"),
	J("[1,", "22P02 @3: invalid JSON: unexpected end of input"),
	J("[1,]", "22P02 @3: invalid JSON: bad number or unexpected character"),
	J("[,]", "22P02 @1: invalid JSON: bad number or unexpected character"),
	J("[1 2]", "22P02 @3: invalid JSON: expected ',' or ']'"),
	J("[1,2}", "22P02 @4: invalid JSON: expected ',' or ']'"),
	J("{\"a\"}", "22P02 @4: invalid JSON: expected ':'"),
	J("{\"a\":}", "22P02 @5: invalid JSON: bad number or unexpected character"),
	J("{\"a\":1,}", "22P02 @7: invalid JSON: expected member name"),
	J("{,}", "22P02 @1: invalid JSON: expected member name"),
	J("{1:2}", "22P02 @1: invalid JSON: expected member name"),
	J("{'a':1}", "22P02 @1: invalid JSON: expected member name"),
	J("{\"a\":1]", "22P02 @6: invalid JSON: expected ',' or '}'"),
	J("]", "22P02 @0: invalid JSON: bad number or unexpected character"),
	J("1 2", "22P02 @2: invalid JSON: unexpected data after the value"),
	J("{} {}", "22P02 @3: invalid JSON: unexpected data after the value"),
	J("[]]", "22P02 @2: invalid JSON: unexpected data after the value"),
	/* strings: escapes */
	J("\"abc", "22P02 @1: invalid JSON: unterminated string"),
	J("\"\\\"", "22P02 @1: invalid JSON: unterminated string"),
	J("\"\\q\"", "22P02 @2: invalid JSON: bad escape"),
	J("\"ab\\x41\"", "22P02 @4: invalid JSON: bad escape"),
	J("\"\\u12\"", "22P02 @3: invalid JSON: truncated \\u escape"),
	J("\"\\u12", "22P02 @1: invalid JSON: unterminated string"),
	J("\"\\uZZZZ\"", "22P02 @3: invalid JSON: bad \\u escape"),
	J("[\"\\u00", "22P02 @2: invalid JSON: unterminated string"),
	J("\"\\u00\"]", "22P02 @3: invalid JSON: bad \\u escape"),
	/* surrogates: pairs decode, lone halves are rejected */
	J("\"\\ud800\"", "22P02 @7: invalid JSON: lone surrogate"),
	J("\"\\udbff\\udfff\"", "ok"),
	J("\"\\udc00\"", "22P02 @7: invalid JSON: lone surrogate"),
	J("\"\\udfff\\ud800\"", "22P02 @7: invalid JSON: lone surrogate"),
	J("\"\\ud800x\"", "22P02 @7: invalid JSON: lone surrogate"),
	J("\"\\ud800\\u0041\"", "22P02 @13: invalid JSON: lone surrogate"),
	J("\"\\ud800\\ud800\"", "22P02 @13: invalid JSON: lone surrogate"),
	J("\"\\ud800\\n\"", "22P02 @7: invalid JSON: lone surrogate"),
	J("\"\\ud800\"      ", "22P02 @7: invalid JSON: lone surrogate"),
	/* strings: raw bytes */
	J("\"a\x01\"", "22P02 @2: invalid JSON: control character in string"),
	J("\"a\tb\"", "22P02 @2: invalid JSON: control character in string"),
	J("\"a\nb\"", "22P02 @2: invalid JSON: control character in string"),
	J("\"\x1f\"", "22P02 @1: invalid JSON: control character in string"),
	J("\"\x7f\"", "ok"),
	J("\"\xff\"", "22P02 @1: invalid JSON: invalid UTF-8"),
	J("\"ab\x80\"", "22P02 @3: invalid JSON: invalid UTF-8"),
	J("\"\xc0\x80\"", "22P02 @1: invalid JSON: invalid UTF-8"),
	J("\"\xc1\xbf\"", "22P02 @1: invalid JSON: invalid UTF-8"),
	J("\"\xe0\x80\x80\"", "22P02 @1: invalid JSON: invalid UTF-8"),
	J("\"\xed\xa0\x80\"", "22P02 @1: invalid JSON: invalid UTF-8"),
	J("\"\xf0\x80\x80\x80\"", "22P02 @1: invalid JSON: invalid UTF-8"),
	J("\"\xf4\x90\x80\x80\"", "22P02 @1: invalid JSON: invalid UTF-8"),
	J("\"\xf5\x80\x80\x80\"", "22P02 @1: invalid JSON: invalid UTF-8"),
	J("\"x\xe2\x82\"", "22P02 @2: invalid JSON: invalid UTF-8"),
	J("\"\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf\"", "ok"),
	J("{\"k\xff\":1}", "22P02 @3: invalid JSON: invalid UTF-8"),
	J("\xff", "22P02 @0: invalid JSON: bad number or unexpected character"),
};

/* ---- trees ---------------------------------------------------------------------------------- */

static void
test_tree(void)
{
	sd_arena	a;
	sd_error	err;
	const char *text = " {\"a\": [1, -2.5e3, \"x\\ny\"], \"b\" : {\"c\": null, \"d\": true}, \"e\": false,"
		" \"n\\u0061me\": \"\\u00e9\\ud83d\\ude00\", \"z\": \"a\\u0000b\", \"a\": 9 } ";
	sd_jnode   *root;

	sd_arena_init(&a, NULL);
	root = sd_jparse(&a, text, strlen(text), 0, &err);
	CHECK(root != NULL);
	if (!root)
	{
		sd_arena_free(&a);
		return;
	}
	CHECK(root->kind == SD_J_OBJECT && root->n == 6 && root->offset == 1);
	CHECK_STR(root->keys[0], "a");
	CHECK_STR(root->keys[3], "name");		/* keys are unescaped */
	CHECK_STR(root->keys[5], "a");
	{
		const sd_jnode *arr = sd_jget(root, "a");	/* the first of two "a" members */

		CHECK(arr && arr->kind == SD_J_ARRAY && arr->n == 3 && arr->offset == 7);
		CHECK(arr && arr->text_len == 19 && strncmp(arr->text, "[1, -2.5e3, \"x\\ny\"]", 19) == 0);
		CHECK(arr && arr->items[0]->kind == SD_J_NUMBER && strcmp(arr->items[0]->str, "1") == 0);
		CHECK(arr && arr->items[1]->kind == SD_J_NUMBER && strcmp(arr->items[1]->str, "-2.5e3") == 0 &&
			  arr->items[1]->len == 6 && arr->items[1]->offset == 11);
		CHECK(arr && arr->items[2]->kind == SD_J_STRING && strcmp(arr->items[2]->str, "x\ny") == 0 &&
			  arr->items[2]->len == 3 && arr->items[2]->offset == 19 && arr->items[2]->text_len == 6);
	}
	{
		const sd_jnode *b = sd_jget(root, "b");

		CHECK(b && b->kind == SD_J_OBJECT && b->n == 2);
		CHECK(b && sd_jget(b, "c") && sd_jget(b, "c")->kind == SD_J_NULL);
		CHECK(b && sd_jget(b, "d") && sd_jget(b, "d")->kind == SD_J_TRUE);
		CHECK(b && sd_jget(b, "nope") == NULL);
		CHECK(b && b->text_len == 22 && strncmp(b->text, "{\"c\": null, \"d\": true}", 22) == 0);
	}
	CHECK(sd_jget(root, "e") && sd_jget(root, "e")->kind == SD_J_FALSE);
	CHECK(sd_jget(root, "name") && strcmp(sd_jget(root, "name")->str, "\xc3\xa9\xf0\x9f\x98\x80") == 0 &&
		  sd_jget(root, "name")->len == 6);
	CHECK(sd_jget(root, "z") && sd_jget(root, "z")->len == 3 && memcmp(sd_jget(root, "z")->str, "a\0b", 4) == 0);
	CHECK(sd_jget(sd_jget(root, "a"), "x") == NULL);		/* not an object */
	CHECK(sd_jget(NULL, "x") == NULL);
	sd_arena_free(&a);

	/* every escape */
	sd_arena_init(&a, NULL);
	root = sd_jparse(&a, "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20ac\\udbff\\udfff\"", 48, 0, &err);
	CHECK(root && root->kind == SD_J_STRING);
	CHECK(root && root->len == 18 &&
		  memcmp(root->str, "\"\\/\b\f\n\r\tA\xc3\xa9\xe2\x82\xac\xf4\x8f\xbf\xbf", 19) == 0);
	sd_arena_free(&a);

	/* a big array (items are copied as the array grows) */
	{
		size_t		n = 1000;
		char	   *s = malloc(n * 2 + 2);
		size_t		o = 0;

		s[o++] = '[';
		for (size_t i = 0; i < n; i++)
		{
			s[o++] = (char) ('0' + i % 10);
			s[o++] = ',';
		}
		s[o - 1] = ']';
		sd_arena_init(&a, NULL);
		root = sd_jparse(&a, s, o, 0, &err);
		CHECK(root && root->n == 1000 && root->items[999]->str[0] == '9' && root->items[999]->offset == 1999);
		sd_arena_free(&a);
		free(s);
	}
}

/* ---- depth ------------------------------------------------------------------------------------ */

static char *
brackets(size_t n, bool close)
{
	char	   *s = malloc(2 * n + 2);
	size_t		o = 0;

	for (size_t i = 0; i < n; i++)
		s[o++] = '[';
	s[o++] = '1';
	if (close)
		for (size_t i = 0; i < n; i++)
			s[o++] = ']';
	s[o] = '\0';
	return s;
}

static void
test_depth(void)
{
	char	   *s;

	CHECK_STR(jp_len("[[[1]]]", 7, 3), "ok");
	CHECK_STR(jp_len("[[[[1]]]]", 9, 3), "54001 @3: nesting deeper than 3 levels");
	CHECK_STR(jp_len("[{\"a\":[1]}]", 11, 3), "ok");
	CHECK_STR(jp_len("[{\"a\":{\"b\":1}}]", 15, 2), "54001 @6: nesting deeper than 2 levels");
	CHECK_STR(jp_len("1", 1, 1), "ok");
	CHECK_STR(jp_len("[1]", 3, 1), "ok");
	CHECK_STR(jp_len("[[1]]", 5, 1), "54001 @1: nesting deeper than 1 levels");
	/* max_depth 0 means 64 */
	s = brackets(64, true);
	CHECK_STR(jp(s), "ok");
	free(s);
	s = brackets(65, true);
	CHECK_STR(jp(s), "54001 @64: nesting deeper than 64 levels");
	free(s);
	/* far beyond any limit, closed or not: a clean error, no stack overflow */
	s = brackets(1000000, true);
	CHECK_STR(jp_len(s, strlen(s), 512), "54001 @512: nesting deeper than 512 levels");
	free(s);
	s = brackets(1000000, false);
	CHECK_STR(jp_len(s, strlen(s), 512), "54001 @512: nesting deeper than 512 levels");
	free(s);
}

/* ---- validate-only mode ----------------------------------------------------------------------- */

static void
test_validate_only(void)
{
	sd_error	err;
	const char *ok = "{\"a\":[\"\\ud83d\\ude00\\ud83d\\ude00\\u00e9x\",1.5e3,{}]}";
	const sd_jnode *r = sd_jparse(NULL, ok, strlen(ok), 0, &err);

	/* valid: a non-NULL dummy, nothing allocated */
	CHECK(r != NULL);
	/* NUL bytes within the given length are not JSON */
	CHECK(sd_jparse(NULL, "[1,\0]", 5, 0, &err) == NULL && err.code == SD_E_SYNTAX && err.offset == 3);
	CHECK(sd_jparse(NULL, "\"a\0\"", 4, 0, &err) == NULL && err.code == SD_E_SYNTAX && err.offset == 2);
	CHECK(sd_jparse(NULL, "1\0", 2, 0, &err) == NULL && err.code == SD_E_SYNTAX && err.offset == 1);
	/* the length is honoured */
	CHECK(sd_jparse(NULL, "[1]xyz", 3, 0, &err) != NULL);
	CHECK(sd_jparse(NULL, "[1]", 2, 0, &err) == NULL && err.offset == 2);
	CHECK(sd_jparse(NULL, "\"ab\"", 3, 0, &err) == NULL && err.offset == 1);
	CHECK(sd_jparse(NULL, "tru", 3, 0, &err) == NULL && err.offset == 0);
	CHECK(sd_jparse(NULL, "true", 3, 0, &err) == NULL && err.offset == 0);
	CHECK(sd_jparse(NULL, "12", 1, 0, &err) != NULL);
	/* a long string of escapes in validate-only mode (its scratch buffer is tiny) */
	{
		size_t		n = 500;
		char	   *s = malloc(n * 12 + 3);
		size_t		o = 0;

		s[o++] = '"';
		for (size_t i = 0; i < n; i++)
		{
			memcpy(s + o, "\\ud83d\\ude00", 12);
			o += 12;
		}
		s[o++] = '"';
		s[o] = '\0';
		CHECK_STR(jp(s), "ok");
		s[o - 2] = '1';			/* \ude01: still a valid pair */
		CHECK_STR(jp(s), "ok");
		s[o - 6] = '0';			/* "\\0de01": the last high surrogate is alone */
		CHECK_STR(jp(s), "22P02 @5995: invalid JSON: lone surrogate");
		free(s);
	}
}

void		unit_jtree(void);

void
unit_jtree(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const char *got = jp(cases[i].text);

		if (strcmp(got, cases[i].want) == 0)
			unit_passed++;
		else
		{
			unit_failed++;
			fprintf(stderr, "FAIL %s:%d: sd_jparse(%s)\n    got  %s\n    want %s\n", __FILE__,
					cases[i].line, cases[i].text, got, cases[i].want);
		}
	}
	test_tree();
	test_depth();
	test_validate_only();
}
