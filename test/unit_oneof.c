/*
 * unit_oneof.c — `one_of` (docs/reference.md, "Untagged unions (one_of)") through the core alone:
 * the column a value's kind selects for JSON text and XML (child elements found by looking ahead,
 * also past long text), null / missing / defaults, serde_errors' mode, and the compiler's option
 * errors at their paths.  Options and documents are written with ' for ".
 */
#include <stdlib.h>

#include "unit.h"
#include "unit_support.h"

/* s with ' as " (in a ring of 32 buffers: an options text outlives a few documents) */
static const char *
q(const char *s)
{
	static char buf[32][1024];
	static unsigned which;
	char	   *o = buf[which++ % 32];
	size_t		i;

	for (i = 0; s[i] && i < sizeof(buf[0]) - 1; i++)
		o[i] = s[i] == '\'' ? '"' : s[i];
	o[i] = '\0';
	return o;
}

static void
test_json(const sd_type *t)
{
	const char *opts = q("{'optional':true,'fields':{'a':{'name':'v','one_of':{'string':'s','number':'a','object':'o','array':'l','boolean':'b'}}}}");

	CHECK_STR(ut_decode(t, opts, q("{'v':'x'}")), "{s:'x',a:null,o:null,l:null,b:null}");
	CHECK_STR(ut_decode(t, opts, q("{'v':7}")), "{s:null,a:7,o:null,l:null,b:null}");
	CHECK_STR(ut_decode(t, opts, q("{'v':{'k':1}}")), "{s:null,a:null,o:{k:1},l:null,b:null}");
	CHECK_STR(ut_decode(t, opts, q("{'v':[1,2]}")), "{s:null,a:null,o:null,l:[1,2],b:null}");
	CHECK_STR(ut_decode(t, opts, q("{'v':true}")), "{s:null,a:null,o:null,l:null,b:true}");
	CHECK_STR(ut_decode(t, opts, q("{'v':null}")), "{s:null,a:null,o:null,l:null,b:null}");
	CHECK_STR(ut_decode(t, opts, q("{}")), "{s:null,a:null,o:null,l:null,b:null}");
	/* the selected column's rules, at the member's path */
	CHECK_STR(ut_decode(t, opts, q("{'v':1.5}")), "ERROR 22032 $.v: expected integer, found number 1.5 @5");
	CHECK_STR(ut_decode(t, opts, q("{'v':[1,'x']}")), "ERROR 22032 $.v[1]: expected integer, found string \"x\" @8");
	/* a kind with no column */
	opts = q("{'fields':{'a':{'name':'v','one_of':{'number':'a','object':'o'}}}}");
	CHECK_STR(ut_decode(t, opts, q("{'v':'x','s':'y'}")),
			  "ERROR 22032 $.v: expected one of number, object, found string \"x\" @5");
	CHECK_STR(ut_decode(t, opts, q("{'v':[],'s':'y'}")), "ERROR 22032 $.v: expected one of number, object, found array @5");
	/* the carrying field's rules: nullable, required */
	opts = q("{'optional':true,'fields':{'a':{'name':'v','optional':false,'nullable':false,'one_of':{'number':'a','string':'s'}}}}");
	CHECK_STR(ut_decode(t, opts, q("{'v':null}")), "ERROR 23502 $.v: null is not allowed for column \"a\" @5");
	CHECK_STR(ut_decode(t, opts, q("{'s':'x'}")), "ERROR 2203A $.v: missing required member @0");
}

static void
test_defaults(const sd_type *t)
{
	CHECK_STR(ut_decode(t, q("{'optional':true,'fields':{'a':{'name':'v','default':'d','one_of':{'string':'s','number':'a'}}}}"),
						"{}"), "{s:default(\"d\"),a:null,o:null,l:null,b:null}");
	CHECK_STR(ut_decode(t, q("{'optional':true,'fields':{'s':{'name':'v','default':[3],'one_of':{'string':'s','array':'l'}}}}"),
						"{}"), "{s:null,a:null,o:null,l:default([3]),b:null}");
	CHECK_STR(ut_decode(t, q("{'optional':true,'fields':{'s':{'name':'v','default':[3],'one_of':{'string':'s','array':'l'}}}}"),
						q("{'v':'x'}")), "{s:'x',a:null,o:null,l:null,b:null}");
	CHECK_STR(ut_compile(t, q("{'fields':{'s':{'default':true,'one_of':{'string':'s','array':'l'}}}}")),
			  "ERROR 22023 $.fields.s.default: default does not fit column \"s\": expected one of string, array, found boolean true");
	CHECK_STR(ut_compile(t, q("{'fields':{'s':{'default':['x'],'one_of':{'string':'s','array':'l'}}}}")),
			  "ERROR 22023 $.fields.s.default: default does not fit column \"s\": $[0]: expected integer, found string \"x\"");
}

static void
test_xml(const sd_type *t)
{
	const char *opts = q("{'optional':true,'fields':{'a':{'name':'v','one_of':{'number':'a','object':'o','boolean':'b'}}}}");
	size_t		n = 200000;
	char	   *doc = malloc(n + 64);

	CHECK_STR(ut_decode_xml(t, opts, "<r><v> 12 </v></r>"), "{s:null,a:12,o:null,l:[],b:null}");
	CHECK_STR(ut_decode_xml(t, opts, "<r><v>\n  <k>1</k></v></r>"), "{s:null,a:null,o:{k:1},l:[],b:null}");
	CHECK_STR(ut_decode_xml(t, opts, "<r><v><!-- c --><?p x?><k>2</k></v></r>"), "{s:null,a:null,o:{k:2},l:[],b:null}");
	CHECK_STR(ut_decode_xml(t, opts, "<r><v k='1'>x</v></r>"), "ERROR 2200N /r/v: expected integer, found text \"x\" @3 1:4");
	/* long text before the first child (the lookahead reads on past the reader's batch) */
	if (doc)
	{
		memcpy(doc, "<r><v>", 6);
		memset(doc + 6, ' ', n);
		strcpy(doc + 6 + n, "<k>3</k></v></r>");
		CHECK_STR(ut_decode_xml(t, opts, doc), "{s:null,a:null,o:{k:3},l:[],b:null}");
		memset(doc + 6, '4', n);
		strcpy(doc + 6 + n, "</v></r>");
		CHECK_STR(ut_decode_xml(t, opts, doc), "ERROR 22003 /r/v: value 4444444444444444444444444444444444444444... out of range for integer @3 1:4");
		free(doc);
	}
	/* no scalar kind: a text-only element is an object; no object nor array: children are an error */
	opts = q("{'optional':true,'fields':{'o':{'name':'v','one_of':{'object':'o'}}}}");
	CHECK_STR(ut_decode_xml(t, opts, "<r><v>x</v></r>"), "{s:null,a:null,o:{k:null},l:[],b:null}");
	opts = q("{'optional':true,'fields':{'s':{'name':'v','one_of':{'string':'s'}}}}");
	CHECK_STR(ut_decode_xml(t, opts, "<r><v><k/></v></r>"),
			  "ERROR 2200N /r/v: expected one of string, found an element with child elements @3 1:4");
	CHECK_STR(ut_decode_xml(t, opts, "<r><v/></r>"), "{s:'',a:null,o:null,l:[],b:null}");
	/* an array: every child element an item */
	opts = q("{'optional':true,'fields':{'s':{'name':'v','one_of':{'string':'s','array':'l'}}}}");
	CHECK_STR(ut_decode_xml(t, opts, "<r><v><i>1</i><j>2</j></v></r>"), "{s:null,a:null,o:null,l:[1,2],b:null}");
}

static void
test_errors_mode(const sd_type *t)
{
	sd_error	err;
	const char *opts = q("{'optional':true,'fields':{'a':{'name':'v','one_of':{'number':'a','object':'o'}}}}");
	sd_plan    *p = sd_compile("T", opts, strlen(opts), t, NULL, NULL, &err);

	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_STR(ut_check_with(p, q("{'v':'x','b':1}")),
			  "ERROR 22032 $.v: expected one of number, object, found string \"x\" @5 | ERROR 22032 $.b: expected boolean, found number 1 @13");
	CHECK_STR(ut_check_with(p, q("{'v':{'k':'y'}}")), "ERROR 22032 $.v.k: expected integer, found string \"y\" @10");
	CHECK_STR(ut_check_with(p, q("{'v':{'k':1}}")), "ok");
	sd_plan_free(p);
}

static void
test_options(const sd_type *t)
{
	static const struct
	{
		const char *opts;
		const char *want;
	}			cases[] = {
		{"{'fields':{'a':{'one_of':1}}}", "$.fields.a.one_of: must be an object, not a number"},
		{"{'fields':{'a':{'one_of':{}}}}", "$.fields.a.one_of: must list at least one kind (string, number, boolean, object, array)"},
		{"{'fields':{'a':{'one_of':{'strnig':'a'}}}}", "$.fields.a.one_of.strnig: unknown kind \"strnig\" (expected string, number, boolean, object or array)"},
		{"{'fields':{'a':{'one_of':{'number':'a','number':'s'}}}}", "$.fields.a.one_of.number: duplicate option \"number\""},
		{"{'fields':{'a':{'one_of':{'number':['a']}}}}", "$.fields.a.one_of.number: must be a column name, not an array"},
		{"{'fields':{'a':{'one_of':{'number':'z'}}}}", "$.fields.a.one_of.number: column \"z\" does not exist in type t1"},
		{"{'fields':{'a':{'one_of':{'string':'s'}}}}", "$.fields.a.one_of: column \"a\", which carries the one_of, must be one of its columns"},
		{"{'fields':{'a':{'one_of':{'number':'a','string':'a'}}}}", "$.fields.a.one_of.string: column \"a\" is listed for two kinds"},
		{"{'fields':{'a':{'one_of':{'number':'a','string':'s'}},'s':{'one_of':{'string':'s'}}}}", "$.fields.s.one_of.string: column \"s\" is already in the one_of of column \"a\""},
		{"{'fields':{'a':{'one_of':{'number':'a','object':'s'}}}}", "$.fields.a.one_of.object: a value of kind \"object\" never fits column \"s\""},
		{"{'fields':{'a':{'one_of':{'number':'a','array':'o'}}}}", "$.fields.a.one_of.array: a value of kind \"array\" never fits column \"o\""},
		{"{'fields':{'a':{'one_of':{'number':'a','boolean':'l'}}}}", "$.fields.a.one_of.boolean: a value of kind \"boolean\" never fits column \"l\""},
		{"{'fields':{'a':{'one_of':{'number':'a','string':'s'}},'s':{'format':'hex'}}}", "$.fields.s.format: format \"hex\" does not apply to type text"},
		{"{'fields':{'a':{'one_of':{'number':'a','string':'s'}},'s':{'xml':'attribute'}}}", "$.fields.s.xml: option \"xml\" does not apply to a column listed in another column's one_of"},
		{"{'extra':'s','fields':{'a':{'one_of':{'number':'a','string':'s'}}}}", "$.fields.a.one_of.string: column \"s\" is the \"extra\" column"},
	};
	char		want[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		snprintf(want, sizeof(want), "ERROR 22023 %s", cases[i].want);
		CHECK_STR(ut_compile(t, q(cases[i].opts)), want);
	}
	CHECK_STR(ut_compile(t, q("{'fields':{'a':{'one_of':{'number':'a'}}}}")), "ok");
	CHECK_STR(ut_compile(t, q("{'fields':{'a':{'one_of':{'number':'a','string':'s'}},'s':{}}}")), "ok");
}

void
unit_oneof(void)
{
	const sd_type *inner = ut_composite("oo_inner", "k:int4");
	const sd_type *t = ut_composite("t1", "s:text,a:int4,o:oo_inner,l:int4[],b:bool");

	test_json(t);
	test_defaults(t);
	test_xml(t);
	test_errors_mode(t);
	test_options(t);
	(void) inner;
}
