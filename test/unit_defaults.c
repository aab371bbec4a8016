/*
 * unit_defaults.c — defaults compiled once (src/core/defaults.c): a plan's default values read
 * with no host and no decoder (sd_plan_default_value), their layout (rows, arrays, maps, unions,
 * `extra`, json text, a default inside a default), the same values and the same errors as the
 * JSON walker gives for the default's text, and the jwriter writing them.
 * Options are written with ' for ".
 */
#include "unit.h"
#include "unit_support.h"

#include <stdlib.h>

static const char *
unq(const char *s)
{
	static char buf[4096];
	size_t		i;

	for (i = 0; s[i] && i + 1 < sizeof(buf); i++)
		buf[i] = s[i] == '\'' ? '"' : s[i];
	buf[i] = '\0';
	return buf;
}

/* The canonical JSON of value (tape, root) against node (jwriter), or "ERROR ..." */
static const char *
canon_of(const sd_plan *plan, const sd_node *node, const sd_val *tape, uint32_t root)
{
	static char res[4096];
	sd_error	err;
	sd_jwriter *w = sd_jwriter_create(plan, NULL, &err);
	sd_buf		b;

	sd_buf_init(&b, NULL);
	if (!w || !sd_jwriter_write(w, node, tape, root, &b))
		snprintf(res, sizeof(res), "ERROR write");
	else
		snprintf(res, sizeof(res), "%s", b.s ? b.s : "");
	sd_buf_free(&b);
	sd_jwriter_free(w);
	return res;
}

/* Compiles options for t; the canonical JSON of default `index` from the plan alone, or the
 * compile error "ERROR <path>: <problem>". */
static const char *
dflt_res(const sd_type *t, const sd_resolver *resolver, const char *options, int index)
{
	static char res[4096];
	sd_error	err;
	const char *o = unq(options);
	sd_plan    *plan = sd_compile("T", o, strlen(o), t, NULL, resolver, &err);
	const sd_field *f;
	const sd_val *tape;
	uint32_t	root = 0;

	if (!plan)
	{
		snprintf(res, sizeof(res), "ERROR %s: %s", err.path, err.problem);
		return res;
	}
	f = sd_plan_default(plan, index);
	tape = sd_plan_default_value(plan, index, &root);
	if (!f || !tape)
		snprintf(res, sizeof(res), "NONE");
	else
		snprintf(res, sizeof(res), "%s", canon_of(plan, f->node, tape, root));
	sd_plan_free(plan);
	return res;
}

static const char *
dflt(const sd_type *t, const char *options, int index)
{
	return dflt_res(t, NULL, options, index);
}

/*
 * The same default two ways: compiled (from the plan) and decoded by the JSON walker from the
 * default's text against the field's node; both written by the jwriter.  Returns true when they
 * agree (values, or both fail with the same path and problem).
 */
static bool
agrees(const sd_type *t, const char *column, const char *field_opts, const char *json)
{
	char		opts[2048];
	char		compiled[4096];
	char		decoded[4096];
	sd_error	err;
	sd_plan    *vplan;
	sd_plan    *plan;
	const sd_node *root;
	const sd_node *node = NULL;
	const char *o;

	/* the plan without the default gives the field's node for the walker */
	snprintf(opts, sizeof(opts), "{'fields':{'%s':{%s}}}", column, field_opts);
	o = unq(opts);
	if (!(vplan = sd_compile("T", o, strlen(o), t, NULL, NULL, &err)))
	{
		fprintf(stderr, "agrees: %s: %s\n", err.path, err.problem);
		return false;
	}
	root = sd_plan_root(vplan);
	for (int i = 0; i < root->nfields; i++)
		if (strcmp(root->fields[i].column, column) == 0)
			node = root->fields[i].node;
	{
		sd_decoder *d = sd_decoder_create(NULL);
		uint32_t	r;
		const char *j = unq(json);

		if (!node)
			snprintf(decoded, sizeof(decoded), "no column");
		else if (sd_decode_json(d, vplan, node, j, strlen(j), NULL, &r, &err))
			snprintf(decoded, sizeof(decoded), "%s", canon_of(vplan, node, sd_decoder_tape(d), r));
		else
			snprintf(decoded, sizeof(decoded), "ERROR %s%s%s", strcmp(err.path, "$") ? err.path : "",
					 strcmp(err.path, "$") ? ": " : "", err.problem);
		sd_decoder_destroy(d);
	}
	snprintf(opts, sizeof(opts), "{'fields':{'%s':{%s%s'default':%s}}}", column, field_opts,
			 *field_opts ? "," : "", json);
	o = unq(opts);
	plan = sd_compile("T", o, strlen(o), t, NULL, NULL, &err);
	if (!plan)
	{
		char		prefix[256];
		size_t		pl;

		snprintf(prefix, sizeof(prefix), "default does not fit column \"%s\": ", column);
		pl = strlen(prefix);
		snprintf(compiled, sizeof(compiled), "ERROR %s",
				 strncmp(err.problem, prefix, pl) == 0 ? err.problem + pl : err.problem);
	}
	else
	{
		uint32_t	r = 0;
		const sd_val *tape = sd_plan_default_value(plan, 0, &r);
		const sd_field *f = sd_plan_default(plan, 0);

		snprintf(compiled, sizeof(compiled), "%s",
				 tape && f ? canon_of(plan, f->node, tape, r) : "NONE");
		sd_plan_free(plan);
	}
	sd_plan_free(vplan);
	if (strcmp(compiled, decoded) != 0)
		fprintf(stderr, "agrees(%s): compiled %s, decoded %s\n", json, compiled, decoded);
	return strcmp(compiled, decoded) == 0;
}

static void
test_values(void)
{
	const sd_type *inner = ut_composite("dinner", "n:int4,s:text");
	const sd_type *outer = ut_composite("douter", "in:dinner,list:dinner[],j:jsonb,m:int8[]");
	const sd_type *c = ut_composite("dc", "id:int4,name:text,amount:numeric(5,2),at:timestamptz,"
									"b:bytea,tags:text[],e:color,raw:json,f:float8,ok:bool,u:uuid,d:date");

	CHECK_STR(dflt(c, "{'fields':{'id':{'default':7}}}", 0), "7");
	CHECK_STR(dflt(c, "{'fields':{'name':{'default':'caf\\u00e9'}}}", 0), "\"caf\xc3\xa9\"");
	CHECK_STR(dflt(c, "{'fields':{'amount':{'default':-999.99}}}", 0), "-999.99");
	CHECK_STR(dflt(c, "{'fields':{'at':{'default':'2024-01-02T03:04:05+01:00'}}}", 0), "\"2024-01-02T02:04:05Z\"");
	CHECK_STR(dflt(c, "{'fields':{'at':{'format':'unix','default':1}}}", 0), "\"1970-01-01T00:00:01Z\"");
	CHECK_STR(dflt(c, "{'fields':{'b':{'format':'hex','default':'00ff'}}}", 0), "\"AP8=\"");
	CHECK_STR(dflt(c, "{'fields':{'tags':{'default':['a',null,'b']}}}", 0), "[\"a\",null,\"b\"]");
	CHECK_STR(dflt(c, "{'fields':{'tags':{'default':[]}}}", 0), "[]");
	CHECK_STR(dflt(c, "{'fields':{'e':{'default':'blue'}}}", 0), "\"blue\"");
	CHECK_STR(dflt(c, "{'fields':{'raw':{'default':{ 'any' : [1, null] }}}}", 0), "{\"any\":[1,null]}");
	CHECK_STR(dflt(c, "{'fields':{'f':{'default':-0.0}}}", 0), "-0");
	CHECK_STR(dflt(c, "{'fields':{'ok':{'default':false}}}", 0), "false");
	CHECK_STR(dflt(c, "{'fields':{'u':{'default':'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'}}}", 0),
			  "\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\"");
	CHECK_STR(dflt(c, "{'fields':{'d':{'default':'2024-02-29'}}}", 0), "\"2024-02-29\"");
	CHECK_STR(dflt(c, "{'fields':{'name':{'default':null}}}", 0), "null");
	CHECK_STR(dflt(c, "{'coerce':true,'fields':{'id':{'default':'12'}}}", 0), "12");
	/* composites, arrays of them, json, a default inside a default */
	CHECK_STR(dflt(outer, "{'fields':{'in':{'default':{'s':'x','n':1}}}}", 0), "{\"n\":1,\"s\":\"x\"}");
	CHECK_STR(dflt(outer, "{'fields':{'list':{'default':[{'n':1,'s':'a'},{'n':2,'s':null}]}}}", 0),
			  "[{\"n\":1,\"s\":\"a\"},{\"n\":2,\"s\":null}]");
	CHECK_STR(dflt(outer, "{'fields':{'j':{'default':{'k':[true,'\\u0041']}}}}", 0), "{\"k\":[true,\"\\u0041\"]}");
	CHECK_STR(dflt(outer, "{'fields':{'m':{'default':[9007199254740993]}}}", 0), "[9007199254740993]");
	{
		/* in's member s has a default of its own: the default of `in` refers to it */
		const char *o = unq("{'fields':{'in':{'shape':'DIn','default':{'n':5}}}}");
		ut_shapedef shapes[UT_SHAPES] = {{"DIn", "{\"fields\":{\"s\":{\"default\":\"dflt\"}}}", inner}, {NULL, NULL, NULL}};
		sd_resolver res = {ut_resolve, shapes};
		sd_error	err;
		sd_plan    *plan = sd_compile("T", o, strlen(o), outer, NULL, &res, &err);

		CHECK(plan != NULL);
		if (plan)
		{
			int			in_idx = -1,
						s_idx = -1;

			CHECK(sd_plan_ndefaults(plan) == 2);
			for (int i = 0; i < sd_plan_ndefaults(plan); i++)
			{
				if (strcmp(sd_plan_default(plan, i)->column, "in") == 0)
					in_idx = i;
				if (strcmp(sd_plan_default(plan, i)->column, "s") == 0)
					s_idx = i;
			}
			CHECK(in_idx >= 0 && s_idx >= 0);
			if (in_idx >= 0 && s_idx >= 0)
			{
				uint32_t	r = 0;
				const sd_val *tape = sd_plan_default_value(plan, in_idx, &r);

				CHECK(tape && tape[r].tag == SD_V_ROW && tape[r].len == 2);
				CHECK(tape && tape[tape[r].u.first].tag == SD_V_INT && tape[tape[r].u.first].u.i == 5);
				CHECK(tape && tape[tape[r].u.first + 1].tag == SD_V_DEFAULT &&
					  tape[tape[r].u.first + 1].len == (uint32_t) s_idx);
				CHECK_STR(canon_of(plan, sd_plan_default(plan, in_idx)->node, tape, r),
						  "{\"n\":5,\"s\":\"dflt\"}");
			}
			CHECK(sd_plan_default_value(plan, 2, &(uint32_t) {0}) == NULL);
			CHECK(sd_plan_default_value(plan, -1, &(uint32_t) {0}) == NULL);
			sd_plan_free(plan);
		}
	}
}

static void
test_layouts(void)
{
	const sd_type *pt = ut_composite("dpt", "x:int4,y:int4");
	(void) ut_composite("dkv", "key:text,value:int4");
	const sd_type *holder = ut_composite("dholder", "p:dpt,scores:dkv[],rest:jsonb");
	(void) ut_composite("dcard", "last4:text");
	(void) ut_composite("dbank", "iban:text");
	const sd_type *pay = ut_composite("dpay", "kind:text,amount:int4,card:dcard,bank:dbank");
	const sd_type *hp = ut_composite("dhp", "pay:dpay");
	const sd_type *nested = ut_composite("dnested", "a:int4,b:text");
	const sd_type *hn = ut_composite("dhn", "v:dnested");
	const sd_type *withx = ut_composite("dwithx", "a:int4,b:jsonb");
	const sd_type *hx = ut_composite("dhx", "v:dwithx");

	/* a map: (key, value) rows in document order */
	CHECK_STR(dflt(holder, "{'fields':{'scores':{'map':true,'default':{'b':2,'a':1}}}}", 0),
			  "{\"b\":2,\"a\":1}");
	CHECK_STR(dflt(holder, "{'fields':{'scores':{'map':true,'default':{}}}}", 0), "{}");
	CHECK_STR(dflt(holder, "{'fields':{'scores':{'map':true,'default':{'a':1,'b':2,'a':3}}}}", 0),
			  "ERROR $.fields.scores.default: default does not fit column \"scores\": $.a: duplicate member");
	CHECK_STR(dflt(holder, "{'fields':{'scores':{'map':true,'default':{'a':1,'b':'x','a':3}}}}", 0),
			  "ERROR $.fields.scores.default: default does not fit column \"scores\": $.b: expected integer, found string \"x\"");
	/* a union: the tag selects the variant column */
	{
		const char *u = "{'fields':{'pay':{'shape':'DPay','default':%s}}}";
		const char *popts = "{\"tag\":\"kind\",\"variants\":{\"card\":\"card\",\"bank\":\"bank\"}}";
		ut_shapedef shapes[UT_SHAPES] = {{"DPay", popts, pay}, {NULL, NULL, NULL}};
		sd_resolver res = {ut_resolve, shapes};
		struct
		{
			const char *dflt;
			const char *want;
		}			cases[] = {
			{"{'kind':'card','amount':3,'last4':'4242'}",
			 "{\"kind\":\"card\",\"amount\":3,\"card\":{\"last4\":\"4242\"},\"bank\":null}"},
			{"{'amount':3,'iban':'DE1','kind':'bank'}",
			 "{\"kind\":\"bank\",\"amount\":3,\"card\":null,\"bank\":{\"iban\":\"DE1\"}}"},
			{"{'kind':'cash','amount':3}",
			 "ERROR $.fields.pay.default: default does not fit column \"pay\": $.kind: unknown tag value \"cash\", expected one of: card, bank"},
			{"{'kind':1,'amount':3}",
			 "ERROR $.fields.pay.default: default does not fit column \"pay\": $.kind: expected string (the union's tag, one of: card, bank), found number 1"},
			{"{'amount':3}",
			 "ERROR $.fields.pay.default: default does not fit column \"pay\": $.kind: missing required member (the union's tag, one of: card, bank)"},
			{"{'kind':'card','amount':3}",
			 "ERROR $.fields.pay.default: default does not fit column \"pay\": $.last4: missing required member"},
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		{
			char		opts[512];

			snprintf(opts, sizeof(opts), u, cases[i].dflt);
			CHECK_STR(dflt_res(hp, &res, opts, 0), cases[i].want);
		}
	}
	/* `extra`: the unmapped members as an object, values as written */
	{
		const char *o = unq("{'fields':{'v':{'shape':'DNest','default':{'a':1,'z':[1, 2],'q\\\"':{}}}}}");
		ut_shapedef shapes[UT_SHAPES] = {{"DNest", "{\"extra\":\"b\"}", withx}, {NULL, NULL, NULL}};
		sd_resolver res = {ut_resolve, shapes};
		sd_error	err;
		sd_plan    *plan = sd_compile("T", o, strlen(o), hx, NULL, &res, &err);

		if (!plan)
			fprintf(stderr, "extra: %s: %s\n", err.path, err.problem);
		CHECK(plan != NULL);
		if (plan)
		{
			uint32_t	r = 0;
			const sd_val *tape = sd_plan_default_value(plan, 0, &r);

			CHECK(tape && tape[r].tag == SD_V_ROW);
			CHECK(tape && tape[tape[r].u.first + 1].tag == SD_V_JSON);
			CHECK(tape && tape[tape[r].u.first + 1].len == strlen("{\"z\":[1, 2],\"q\\\"\":{}}") &&
				  memcmp(tape[tape[r].u.first + 1].u.s, "{\"z\":[1, 2],\"q\\\"\":{}}",
						 tape[tape[r].u.first + 1].len) == 0);
			sd_plan_free(plan);
		}
	}
	/* paths (`path`), a null parent, a path through a scalar */
	{
		const char *base = "{'fields':{'v':{'shape':'DPath','default':%s}}}";
		const char *popts = "{\"fields\":{\"a\":{\"path\":[\"o\",\"a\"],\"nullable\":false},\"b\":{\"path\":[\"o\",\"b\"]}}}";
		ut_shapedef shapes[UT_SHAPES] = {{"DPath", popts, nested}, {NULL, NULL, NULL}};
		sd_resolver res = {ut_resolve, shapes};
		struct
		{
			const char *dflt;
			const char *want;
		}			cases[] = {
			{"{'o':{'b':'x','a':1}}", "{\"a\":1,\"b\":\"x\"}"},
			{"{'o':null}", "ERROR $.fields.v.default: default does not fit column \"v\": $.o.a: null is not allowed for column \"a\""},
			{"{'o':3}", "ERROR $.fields.v.default: default does not fit column \"v\": $.o: expected object (on the path of column \"b\"), found number 3"},
			{"{}", "ERROR $.fields.v.default: default does not fit column \"v\": $.o: missing required member"},
			{"{'o':{'a':1,'a':2}}", "ERROR $.fields.v.default: default does not fit column \"v\": $.o.a: duplicate member"},
			{"{'o':{'a':null}}", "ERROR $.fields.v.default: default does not fit column \"v\": $.o.a: null is not allowed for column \"a\""},
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		{
			char		opts[512];

			snprintf(opts, sizeof(opts), base, cases[i].dflt);
			CHECK_STR(dflt_res(hn, &res, opts, 0), cases[i].want);
		}
	}
	(void) pt;
}

/* The compiled default and the walker's decode of its text agree, values and errors. */
static void
test_agrees(void)
{
	(void) ut_composite("ainner", "n:int4,s:text");
	const sd_type *t = ut_composite("aall", "i2:int2,i8:int8,n:numeric(5,2),nn:numeric,f4:float4,"
									"f8:float8,s:varchar(3),e:color,ts:timestamptz,t:time,d:date,"
									"b:bytea,j:json,jb:jsonb,in:ainner,list:ainner[],arr:int4[],ip:inet");
	struct
	{
		const char *col;
		const char *fopts;
		const char *json;
	}			cases[] = {
		{"i2", "", "32767"}, {"i2", "", "32768"}, {"i2", "", "1e2"}, {"i2", "", "1.0"},
		{"i2", "", "'1'"}, {"i2", "", "true"}, {"i2", "", "[1]"},
		{"i8", "", "-9223372036854775808"}, {"i8", "", "9223372036854775808"},
		{"n", "", "123.45"}, {"n", "", "1000"}, {"n", "", "0.001"}, {"n", "", "-0.00"},
		{"nn", "", "1e400"}, {"nn", "", "-0"}, {"nn", "", "123456789012345678901234567890.5"},
		{"f4", "", "3.5e38"}, {"f4", "", "1e-50"}, {"f8", "", "1e309"}, {"f8", "", "-0"},
		{"f8", "", "0.1"}, {"s", "", "'abc'"}, {"s", "", "'abcd'"}, 
		{"e", "", "'red'"}, {"e", "", "'pink'"}, {"ts", "", "'2024-01-01T00:00:00Z'"},
		{"ts", "", "'2024-01-01'"}, {"ts", "'format':'unix_ms'", "1700000000123"},
		{"ts", "", "0"}, {"t", "", "'23:59:60'"}, {"t", "", "'24:00:01'"}, {"d", "", "'2023-02-29'"},
		{"b", "", "'AP8='"}, {"b", "", "'!!'"}, {"b", "'format':'base64url'", "'_-8'"},
		{"j", "", "{ 'a' : 1 }"}, {"jb", "", "[1, {'b': null}]"}, {"jb", "", "'\\u0000'"},
		{"jb", "", "{'a':[1e1000000]}"}, {"jb", "", "{'k\\u0000':1}"}, {"j", "", "'\\u0000'"},
		{"in", "", "{'n':1,'s':'x'}"}, {"in", "", "{'n':1}"}, {"in", "", "{'n':1,'s':'x','zz':1}"},
		{"in", "", "{'n':1,'s':'x','n':2}"},
		{"in", "", "[]"}, {"in", "", "'x'"}, {"in", "", "{'n':null,'s':null}"},
		{"list", "", "[{'n':1,'s':'a'},null,{'n':'2','s':'b'}]"}, {"arr", "", "[1,2,null]"},
		{"arr", "", "[1,'2']"}, {"arr", "", "{}"}, {"ip", "", "'10.0.0.1'"}, {"ip", "", "1"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(agrees(t, cases[i].col, cases[i].fopts, cases[i].json));
}

static int stop_calls;

static bool
stop_now(void *ud)
{
	(void) ud;
	stop_calls++;
	return true;
}

/* The engine decodes a default under the compiler's hooks: its should_stop poll (every 4,096
 * values) cancels the compile as the compiler's own poll does, never "default does not fit". */
static void
test_cancel(void)
{
	const sd_type *t = ut_composite("dcancel", "v:int4[]");
	size_t		n = 6000;
	char	   *o = malloc(64 + n * 2);
	size_t		len;
	sd_hooks	hooks = {NULL, NULL, NULL, stop_now, NULL};
	sd_error	err;
	sd_plan    *plan;

	if (!o)
		return;
	len = (size_t) sprintf(o, "{\"fields\":{\"v\":{\"default\":[");
	for (size_t i = 0; i < n; i++)
		o[len++] = i ? ',' : ' ', o[len++] = '7';
	len += (size_t) sprintf(o + len, "]}}}");
	plan = sd_compile("T", o, len, t, NULL, NULL, &err);
	CHECK(plan != NULL);
	if (plan)
		CHECK(sd_plan_default_value(plan, 0, &(uint32_t) {0}) != NULL);
	sd_plan_free(plan);
	stop_calls = 0;
	plan = sd_compile("T", o, len, t, &hooks, NULL, &err);
	CHECK(plan == NULL && stop_calls > 0);
	if (!plan)
	{
		CHECK(err.code == SD_E_CANCELED);
		CHECK_STR(err.path, "$");
		CHECK_STR(err.problem, "canceled while compiling a shape");
	}
	sd_plan_free(plan);
	free(o);
}

void
unit_defaults(void)
{
	test_values();
	test_layouts();
	test_agrees();
	test_cancel();
}
