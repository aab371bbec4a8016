/*
 * unit_compile.c - tests of the plan compiler (src/core/compile.c): option validation with the
 * exact option path in every error (docs/reference.md, "Shape options"; 22023), defaults checked against their
 * columns, the compiled plan's structure, sd_plan_describe and shape references (resolver).
 *
 * Options are written with ' for " (see unquote()).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "unit.h"
#include "unit_support.h"

static const sd_type posint = {.kind = SD_K_INT4, .name = "posint", .max_chars = -1,
.precision = -1, .scale = -1, .not_null = true};
static const sd_type ts_array = {.kind = SD_K_ARRAY, .name = "timestamp with time zone[]",
.max_chars = -1, .precision = -1, .scale = -1, .elem = &ut_tstz};

static const sd_type *c1;			/* most columns */
static const sd_type *small;		/* for describe */
static const sd_type *inner;
static const sd_type *outer;
static const sd_type *odd;
static sd_type nncomp;

static void
setup(void)
{
	static bool done;
	static sd_column nncols[3];

	if (done)
		return;
	done = true;
	c1 = ut_composite("c1", "id:int4,name:text,amount:numeric(5,2),at:timestamptz,b:bytea,"
					  "meta:jsonb,e:color,tags:text[],note:varchar(3),raw:json,small:int2");
	small = ut_composite("smallshape", "id:int8,first_name:text,at:timestamptz,tags:text[],e:color,extra:jsonb");
	inner = ut_composite("cinner", "n:int4,s:text");
	outer = ut_composite("couter", "in:cinner,list:cinner[],j:jsonb");
	odd = ut_composite("codd", "odd key:int4,q\"uote:int4");
	/* a composite with a NOT NULL domain column and a timestamptz[] column */
	nncols[0] = (sd_column) {"v", &posint};
	nncols[1] = (sd_column) {"ats", &ts_array};
	nncols[2] = (sd_column) {"w", &ut_int4};
	nncomp = (sd_type) {.kind = SD_K_COMPOSITE, .name = "nncomp", .max_chars = -1, .precision = -1,
	.scale = -1, .ncols = 3, .cols = nncols};
}

static char *
unquote(const char *s)
{
	char	   *o = strdup(s);

	for (char *p = o; *p; p++)
		if (*p == '\'')
			*p = '"';
	return o;
}

typedef struct ccase
{
	int			line;
	int			target;			/* index into targets() */
	const char *opts;
	const char *want;
} ccase;

enum
{
	T_C1, T_SMALL, T_INNER, T_OUTER, T_ODD, T_NN, T_INT4, T_INT4ARR, T_JSON, T_INNERARR
};

static const sd_type *
targets(int i)
{
	static const sd_type *inner_arr;

	if (!inner_arr)
		inner_arr = ut_array_of(inner);
	switch (i)
	{
		case T_C1: return c1;
		case T_SMALL: return small;
		case T_INNER: return inner;
		case T_OUTER: return outer;
		case T_ODD: return odd;
		case T_NN: return &nncomp;
		case T_INT4: return &ut_int4;
		case T_INT4ARR: return &ut_int4_array;
		case T_JSON: return &ut_json;
		case T_INNERARR: return inner_arr;
	}
	return NULL;
}

#define CC(t, o, w) {__LINE__, t, o, w}

static const ccase cases[] = {
	/* well-formed */
	CC(T_C1, "{}", "ok"),
	CC(T_C1, "{'fields':{},'rename':'camel','unknown':'ignore','coerce':false,'optional':true}", "ok"),
	CC(T_C1, "{'unknown':'reject','fields':{'id':{'name':'ID','optional':false,'nullable':false},"
	   "'at':{'format':'unix_ms','default':0},'b':{'format':'hex','default':'00ff'},'tags':{'path':['x','y'],"
	   "'default':['a']},'meta':{'skip':true},'e':{'default':'blue'},'amount':{'default':-999.99},"
	   "'note':{'default':'\\u00e9\\u00e9\\u00e9'},'raw':{'default':{'any':[1,null]}},'small':{'default':null}}}", "ok"),
	CC(T_C1, "{'fields':{'at':{'format':'rfc3339'}}}", "ok"),
	CC(T_C1, "{'fields':{'b':{'format':'base64url'}}}", "ok"),
	CC(T_C1, "{'fields':{'id':{'map':false,'xml':'attribute'},'tags':{'xml_item':'member'}}}", "ok"),
	CC(T_C1, "{'xml':{'root':'R','namespace':'urn:x'}}", "ok"),
	CC(T_C1, "{'extra':'meta'}", "ok"),
	CC(T_C1, "{'extra':'raw','unknown':'ignore'}", "ok"),
	CC(T_NN, "{'fields':{'ats':{'format':'unix'}}}", "ok"),
	CC(T_INT4, "{'coerce':true}", "ok"),
	CC(T_INT4, "{'fields':{}}", "ok"),
	CC(T_INNERARR, "{'fields':{'n':{'name':'N'}},'unknown':'reject'}", "ok"),
	/* options that are not an object / not valid JSON */
	CC(T_C1, "", "ERROR 22023 $: options are not valid JSON: invalid JSON: unexpected end of input @0"),
	CC(T_C1, "{", "ERROR 22023 $: options are not valid JSON: invalid JSON: expected member name @1"),
	CC(T_C1, "{'fields':{'id':{'name':'x'}}", "ERROR 22023 $: options are not valid JSON: invalid JSON: expected ',' or '}' @29"),
	CC(T_C1, "{} x", "ERROR 22023 $: options are not valid JSON: invalid JSON: unexpected data after the value @3"),
	CC(T_C1, "{'coerce':tru}", "ERROR 22023 $: options are not valid JSON: invalid JSON: unexpected character @10"),
	CC(T_C1, "[]", "ERROR 22023 $: must be an object, not an array"),
	CC(T_C1, "'x'", "ERROR 22023 $: must be an object, not a string"),
	CC(T_C1, "null", "ERROR 22023 $: must be an object, not null"),
	CC(T_C1, "1", "ERROR 22023 $: must be an object, not a number"),
	CC(T_INT4, "[]", "ERROR 22023 $: must be an object, not an array"),
	/* unknown keys */
	CC(T_C1, "{'foo':1}", "ERROR 22023 $.foo: unknown option \"foo\""),
	CC(T_C1, "{'Fields':{}}", "ERROR 22023 $.Fields: unknown option \"Fields\""),
	CC(T_C1, "{'odd key':1}", "ERROR 22023 $.\"odd key\": unknown option \"odd key\""),
	CC(T_C1, "{'fields':{'id':{'nam':'x'}}}", "ERROR 22023 $.fields.id.nam: unknown option \"nam\""),
	CC(T_C1, "{'fields':{'id':{'name':'x','defualt':1}}}", "ERROR 22023 $.fields.id.defualt: unknown option \"defualt\""),
	CC(T_C1, "{'xml':{'rooot':'R'}}", "ERROR 22023 $.xml.rooot: unknown option \"rooot\""),
	CC(T_ODD, "{'fields':{'odd key':{'nam':1}}}", "ERROR 22023 $.fields.\"odd key\".nam: unknown option \"nam\""),
	CC(T_ODD, "{'fields':{'q\\'uote':{'x':1}}}", "ERROR 22023 $.fields.\"q\\\"uote\".x: unknown option \"x\""),
	CC(T_INNER, "{'fields':{'in':{'coerce':true}}}", "ERROR 22023 $.fields.in: column \"in\" does not exist in type cinner"),
	/* a column not in the type */
	CC(T_C1, "{'fields':{'nope':{}}}", "ERROR 22023 $.fields.nope: column \"nope\" does not exist in type c1"),
	CC(T_C1, "{'fields':{'ID':{}}}", "ERROR 22023 $.fields.ID: column \"ID\" does not exist in type c1"),
	CC(T_INT4, "{'fields':{'x':{}}}", "ERROR 22023 $.fields: type integer has no columns"),
	CC(T_INT4, "{'extra':'x'}", "ERROR 22023 $.extra: type integer has no columns"),
	CC(T_INT4ARR, "{'fields':{'x':{}}}", "ERROR 22023 $.fields: type integer has no columns"),
	/* wrong JSON kinds, shape level */
	CC(T_C1, "{'fields':[]}", "ERROR 22023 $.fields: must be an object, not an array"),
	CC(T_C1, "{'fields':null}", "ERROR 22023 $.fields: must be an object, not null"),
	CC(T_C1, "{'rename':1}", "ERROR 22023 $.rename: must be a string, not a number"),
	CC(T_C1, "{'rename':null}", "ERROR 22023 $.rename: must be a string, not null"),
	CC(T_C1, "{'unknown':true}", "ERROR 22023 $.unknown: must be a string, not a boolean"),
	CC(T_C1, "{'coerce':'yes'}", "ERROR 22023 $.coerce: must be a boolean, not a string"),
	CC(T_C1, "{'coerce':1}", "ERROR 22023 $.coerce: must be a boolean, not a number"),
	CC(T_C1, "{'optional':'true'}", "ERROR 22023 $.optional: must be a boolean, not a string"),
	CC(T_C1, "{'extra':1}", "ERROR 22023 $.extra: must be a string, not a number"),
	CC(T_C1, "{'extra':['meta']}", "ERROR 22023 $.extra: must be a string, not an array"),
	CC(T_C1, "{'xml':'R'}", "ERROR 22023 $.xml: must be an object, not a string"),
	CC(T_C1, "{'xml':{'root':1}}", "ERROR 22023 $.xml.root: must be a string, not a number"),
	/* wrong JSON kinds, field level */
	CC(T_C1, "{'fields':{'id':1}}", "ERROR 22023 $.fields.id: must be an object, not a number"),
	CC(T_C1, "{'fields':{'id':null}}", "ERROR 22023 $.fields.id: must be an object, not null"),
	CC(T_C1, "{'fields':{'id':{'name':1}}}", "ERROR 22023 $.fields.id.name: must be a string, not a number"),
	CC(T_C1, "{'fields':{'id':{'name':''}}}", "ERROR 22023 $.fields.id.name: must not be empty"),
	CC(T_C1, "{'fields':{'id':{'path':'a'}}}", "ERROR 22023 $.fields.id.path: must be an array of member names, not a string"),
	CC(T_C1, "{'fields':{'id':{'path':[1]}}}", "ERROR 22023 $.fields.id.path: must be an array of non-empty member names"),
	CC(T_C1, "{'fields':{'id':{'path':['a','']}}}", "ERROR 22023 $.fields.id.path: must be an array of non-empty member names"),
	CC(T_C1, "{'fields':{'id':{'path':[]}}}", "ERROR 22023 $.fields.id.path: must not be empty"),
	CC(T_C1, "{'fields':{'id':{'optional':'true'}}}", "ERROR 22023 $.fields.id.optional: must be a boolean, not a string"),
	CC(T_C1, "{'fields':{'id':{'nullable':0}}}", "ERROR 22023 $.fields.id.nullable: must be a boolean, not a number"),
	CC(T_C1, "{'fields':{'id':{'skip':null}}}", "ERROR 22023 $.fields.id.skip: must be a boolean, not null"),
	CC(T_C1, "{'fields':{'at':{'format':1}}}", "ERROR 22023 $.fields.at.format: must be a string or an object {\"pattern\": ..., \"zone\": ...}, not a number"),
	CC(T_C1, "{'fields':{'id':{'shape':1}}}", "ERROR 22023 $.fields.id.shape: must be a string, not a number"),
	CC(T_C1, "{'fields':{'id':{'map':'x'}}}", "ERROR 22023 $.fields.id.map: must be a boolean, not a string"),
	CC(T_C1, "{'fields':{'id':{'xml':1}}}", "ERROR 22023 $.fields.id.xml: must be a string, not a number"),
	CC(T_C1, "{'fields':{'id':{'xml':'attr'}}}", "ERROR 22023 $.fields.id.xml: must be \"element\", \"attribute\", \"text\" or \"presence\", not \"attr\""),
	CC(T_C1, "{'fields':{'id':{'xml_item':[]}}}", "ERROR 22023 $.fields.id.xml_item: must be a string, not an array"),
	/* bad values */
	CC(T_C1, "{'rename':'snake'}", "ERROR 22023 $.rename: unknown rename style \"snake\" (expected camel, pascal, kebab, upper or none)"),
	CC(T_C1, "{'rename':'Camel'}", "ERROR 22023 $.rename: unknown rename style \"Camel\" (expected camel, pascal, kebab, upper or none)"),
	CC(T_C1, "{'unknown':'deny'}", "ERROR 22023 $.unknown: must be \"ignore\" or \"reject\", not \"deny\""),
	CC(T_C1, "{'unknown':''}", "ERROR 22023 $.unknown: must be \"ignore\" or \"reject\", not \"\""),
	/* extra */
	CC(T_C1, "{'extra':'nope'}", "ERROR 22023 $.extra: column \"nope\" does not exist in type c1"),
	CC(T_C1, "{'extra':'name'}", "ERROR 22023 $.extra: column \"name\" must be json or jsonb, not text"),
	CC(T_C1, "{'extra':'tags'}", "ERROR 22023 $.extra: column \"tags\" must be json or jsonb, not text[]"),
	CC(T_C1, "{'extra':'meta','unknown':'reject'}", "ERROR 22023 $.extra: \"extra\" cannot be combined with unknown: \"reject\""),
	CC(T_C1, "{'unknown':'reject','extra':'meta'}", "ERROR 22023 $.extra: \"extra\" cannot be combined with unknown: \"reject\""),
	/* format on a wrong type */
	CC(T_C1, "{'fields':{'id':{'format':'unix'}}}", "ERROR 22023 $.fields.id.format: format \"unix\" does not apply to type integer"),
	CC(T_C1, "{'fields':{'at':{'format':'hex'}}}", "ERROR 22023 $.fields.at.format: format \"hex\" does not apply to type timestamp with time zone"),
	CC(T_C1, "{'fields':{'b':{'format':'unix'}}}", "ERROR 22023 $.fields.b.format: format \"unix\" does not apply to type bytea"),
	CC(T_C1, "{'fields':{'at':{'format':'iso'}}}", "ERROR 22023 $.fields.at.format: format \"iso\" does not apply to type timestamp with time zone"),
	CC(T_C1, "{'fields':{'b':{'format':'Base64'}}}", "ERROR 22023 $.fields.b.format: format \"Base64\" does not apply to type bytea"),
	CC(T_C1, "{'fields':{'tags':{'format':'base64'}}}", "ERROR 22023 $.fields.tags.format: format \"base64\" does not apply to type text[]"),
	CC(T_C1, "{'fields':{'meta':{'format':'rfc3339'}}}", "ERROR 22023 $.fields.meta.format: format \"rfc3339\" does not apply to type jsonb"),
	/* name + path, two columns on one member */
	CC(T_C1, "{'fields':{'id':{'name':'x','path':['x']}}}", "ERROR 22023 $.fields.id.name: use either \"name\" or \"path\", not both"),
	CC(T_C1, "{'fields':{'id':{'name':'name'}}}", "ERROR 22023 $.fields.name: member \"name\" is already mapped by column \"id\""),
	CC(T_C1, "{'fields':{'id':{'name':'x'},'name':{'name':'x'}}}", "ERROR 22023 $.fields.name: member \"x\" is already mapped by column \"id\""),
	CC(T_C1, "{'fields':{'id':{'path':['a','b']},'name':{'path':['a','b']}}}", "ERROR 22023 $.fields.name: member \"b\" is already mapped by column \"id\""),
	CC(T_C1, "{'fields':{'id':{'path':['a','b']},'name':{'name':'a'}}}", "ERROR 22023 $.fields.name: member \"a\" is already mapped by column \"id\""),
	CC(T_C1, "{'fields':{'id':{'name':'a'},'name':{'path':['a','b']}}}", "ERROR 22023 $.fields.name: member \"a\" is already mapped by column \"id\""),
	CC(T_C1, "{'rename':'upper','fields':{'id':{'name':'NAME'}}}", "ERROR 22023 $.fields.name: member \"NAME\" is already mapped by column \"id\""),
	CC(T_C1, "{'fields':{'id':{'path':['a','b']},'name':{'path':['a','c']}}}", "ok"),
	CC(T_C1, "{'fields':{'id':{'name':'name'},'name':{'skip':true}}}", "ok"),
	CC(T_C1, "{'extra':'meta','fields':{'id':{'name':'meta'}}}", "ok"),
	/* defaults that do not fit */
	CC(T_C1, "{'fields':{'id':{'default':'x'}}}", "ERROR 22023 $.fields.id.default: default does not fit column \"id\": expected integer, found string \"x\""),
	CC(T_C1, "{'fields':{'id':{'default':1.5}}}", "ERROR 22023 $.fields.id.default: default does not fit column \"id\": expected integer, found number 1.5"),
	CC(T_C1, "{'fields':{'small':{'default':40000}}}", "ERROR 22023 $.fields.small.default: default does not fit column \"small\": value 40000 out of range for smallint"),
	CC(T_C1, "{'fields':{'id':{'default':2147483648}}}", "ERROR 22023 $.fields.id.default: default does not fit column \"id\": value 2147483648 out of range for integer"),
	CC(T_C1, "{'fields':{'amount':{'default':1000}}}", "ERROR 22023 $.fields.amount.default: default does not fit column \"amount\": numeric field overflow: value 1000 needs 4 integer digits, numeric(5,2) allows 3"),
	CC(T_C1, "{'fields':{'amount':{'default':0.001}}}", "ERROR 22023 $.fields.amount.default: default does not fit column \"amount\": value 0.001 has more than 2 decimal places"),
	CC(T_C1, "{'fields':{'e':{'default':'purple'}}}", "ERROR 22023 $.fields.e.default: default does not fit column \"e\": unknown label \"purple\" for enum color, expected one of: red, green, blue"),
	CC(T_C1, "{'fields':{'note':{'default':'abcd'}}}", "ERROR 22023 $.fields.note.default: default does not fit column \"note\": string of 4 characters is too long for character varying(3)"),
	CC(T_C1, "{'fields':{'at':{'default':'2024-01-01'}}}", "ERROR 22023 $.fields.at.default: default does not fit column \"at\": invalid timestamp \"2024-01-01\": expected RFC 3339 date-time"),
	CC(T_C1, "{'fields':{'at':{'default':'2024-01-01T00:00:00'}}}", "ERROR 22023 $.fields.at.default: default does not fit column \"at\": timestamp \"2024-01-01T00:00:00\" has no time zone offset"),
	CC(T_C1, "{'fields':{'at':{'format':'unix','default':'2024-01-01T00:00:00Z'}}}", "ERROR 22023 $.fields.at.default: default does not fit column \"at\": expected number of seconds since the epoch, found string \"2024-01-01T00:00:00Z\""),
	CC(T_C1, "{'fields':{'b':{'default':'***'}}}", "ERROR 22023 $.fields.b.default: default does not fit column \"b\": invalid base64 at byte 0"),
	CC(T_C1, "{'fields':{'tags':{'default':['a',1]}}}", "ERROR 22023 $.fields.tags.default: default does not fit column \"tags\": $[1]: expected string, found number 1"),
	CC(T_C1, "{'fields':{'tags':{'default':'a'}}}", "ERROR 22023 $.fields.tags.default: default does not fit column \"tags\": expected array, found string \"a\""),
	CC(T_C1, "{'fields':{'name':{'default':'a\\u0000'}}}", "ERROR 22023 $.fields.name.default: default does not fit column \"name\": \\u0000 cannot be stored in text"),
	CC(T_C1, "{'fields':{'name':{'default':null,'nullable':false}}}", "ERROR 22023 $.fields.name.default: default null does not fit non-nullable column \"name\""),
	CC(T_NN, "{'fields':{'v':{'default':null}}}", "ERROR 22023 $.fields.v.default: default null does not fit non-nullable column \"v\""),
	CC(T_C1, "{'fields':{'name':{'default':'x','skip':true}}}", "ERROR 22023 $.fields.name.default: option \"default\" does not apply to a skipped column"),
	CC(T_C1, "{'fields':{'name':{'skip':true,'name':'x'}}}", "ERROR 22023 $.fields.name.name: option \"name\" does not apply to a skipped column"),
	CC(T_OUTER, "{'fields':{'in':{'default':{'n':'1','s':'x'}}}}", "ERROR 22023 $.fields.in.default: default does not fit column \"in\": $.n: expected integer, found string \"1\""),
	CC(T_OUTER, "{'fields':{'in':{'default':{'n':1}}}}", "ERROR 22023 $.fields.in.default: default does not fit column \"in\": $.s: missing required member"),
	CC(T_OUTER, "{'coerce':true,'fields':{'in':{'default':{'n':'1','s':2}}}}", "ok"),
	CC(T_OUTER, "{'unknown':'reject','fields':{'in':{'default':{'n':1,'s':'x','t':0}}}}", "ERROR 22023 $.fields.in.default: default does not fit column \"in\": $.t: unknown member"),
	/* nullable and domains, unsupported options */
	CC(T_NN, "{'fields':{'v':{'nullable':true}}}", "ERROR 22023 $.fields.v.nullable: column \"v\" has a NOT NULL domain type posint"),
	CC(T_NN, "{'fields':{'v':{'nullable':false}}}", "ok"),
	CC(T_C1, "{'fields':{'tags':{'map':true}}}", "ERROR 22023 $.fields.tags.map: \"map\" needs an array of a composite (key text, value T), not text[]"),
	/* a shape option needs a resolver (tested with one below) */
	CC(T_OUTER, "{'fields':{'in':{'shape':'Inner'}}}", "ERROR 22023 $.fields.in.shape: shape \"Inner\" cannot be resolved here"),
	CC(T_C1, "{'fields':{'id':{'shape':'Inner'}}}", "ERROR 22023 $.fields.id.shape: option \"shape\" needs a composite, composite array, json or jsonb column, not integer"),
	/* options nested beyond the parser's limit */
	CC(T_C1, "{'fields':{'raw':{'default':[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}}",
	   "ERROR 22023 $: options nest deeper than 64 levels (a limit of shape options, defaults included) @89"),
};

/* ---- the plan itself ------------------------------------------------------------------------- */

static sd_plan *
compile(const sd_type *t, const char *opts_q, const sd_resolver *r, sd_error *err)
{
	char	   *opts = unquote(opts_q);
	sd_plan    *p = sd_compile("Shape", opts, strlen(opts), t, NULL, r, err);

	free(opts);
	return p;
}

static void
test_plan(void)
{
	sd_error	err;
	sd_plan    *p;
	const sd_node *root;

	p = compile(small, "{'rename':'camel','optional':true,'extra':'extra','fields':{"
				"'id':{'optional':false,'nullable':false},'at':{'format':'unix','default':1.5},"
				"'tags':{'path':['meta','tag_list']},'e':{'default':'green'}}}", NULL, &err);
	CHECK(p != NULL);
	if (!p)
	{
		fprintf(stderr, "    compile: %s %s\n", err.path, err.problem);
		return;
	}
	CHECK(sd_plan_bytes(p) > 0);
	CHECK_STR(sd_plan_shape(p), "Shape");
	root = sd_plan_root(p);
	CHECK(root->kind == SD_K_COMPOSITE && root->nfields == 6 && root->extra_col == 5);
	CHECK_STR(root->rename, "camel");
	CHECK(root->all_optional && !root->coerce && !root->reject_unknown);
	CHECK(root->members && root->members->n == 5);
	CHECK_STR(root->fields[0].name, "id");
	CHECK(!root->fields[0].optional && !root->fields[0].nullable);
	CHECK_STR(root->fields[1].name, "firstName");
	CHECK(root->fields[1].optional && root->fields[1].nullable && root->fields[1].npath == 1);
	CHECK(root->fields[2].has_default && root->fields[2].node->format == SD_FMT_UNIX);
	CHECK_STR(root->fields[2].default_json, "1.5");
	CHECK(root->fields[3].npath == 2 && strcmp(root->fields[3].path[0], "meta") == 0 &&
		  strcmp(root->fields[3].path[1], "tag_list") == 0 && strcmp(root->fields[3].name, "tag_list") == 0);
	CHECK(root->fields[3].node->kind == SD_K_ARRAY && root->fields[3].node->elem->kind == SD_K_TEXT);
	CHECK(root->fields[5].is_extra);
	CHECK(sd_plan_ndefaults(p) == 2);
	CHECK(sd_plan_default(p, 0) && sd_plan_default(p, 1) &&
		  sd_plan_default(p, 0)->default_index == 0 && sd_plan_default(p, 1)->default_index == 1);
	CHECK(sd_plan_default(p, 2) == NULL && sd_plan_default(p, -1) == NULL);
	{
		size_t		len = 0;
		char	   *d = sd_plan_describe(p, &len);
		sd_error	jerr;

		CHECK(d != NULL && len == strlen(d));
		/* the description is valid JSON */
		CHECK(d && sd_jparse(NULL, d, len, 64, &jerr) != NULL);
		CHECK_STR(d,
				  "{\"shape\": \"Shape\", \"type\": \"smallshape\", \"xml\": {\"root\": null, \"namespace\": null}, "
				  "\"unknown\": \"ignore\", \"coerce\": false, \"rename\": \"camel\", \"fields\": ["
				  "{\"column\": \"id\", \"name\": \"id\", \"xml\": {\"kind\": \"element\", \"name\": \"id\"}, "
				  "\"optional\": false, \"nullable\": false, \"default\": null, \"type\": \"bigint\"}, "
				  "{\"column\": \"first_name\", \"name\": \"firstName\", \"xml\": {\"kind\": \"element\", \"name\": \"firstName\"}, "
				  "\"optional\": true, \"nullable\": true, \"default\": null, \"type\": \"text\"}, "
				  "{\"column\": \"at\", \"name\": \"at\", \"xml\": {\"kind\": \"element\", \"name\": \"at\"}, "
				  "\"optional\": true, \"nullable\": true, \"default\": 1.5, "
				  "\"type\": \"timestamp with time zone\", \"format\": \"unix\"}, "
				  "{\"column\": \"tags\", \"name\": \"tag_list\", \"path\": [\"meta\", \"tag_list\"], "
				  "\"xml\": {\"kind\": \"element\", \"name\": \"tag_list\", \"path\": [\"meta\", \"tag_list\"]}, "
				  "\"optional\": true, \"nullable\": true, \"default\": null, \"type\": \"text[]\", \"element\": {\"type\": \"text\"}}, "
				  "{\"column\": \"e\", \"name\": \"e\", \"xml\": {\"kind\": \"element\", \"name\": \"e\"}, "
				  "\"optional\": true, \"nullable\": true, \"default\": \"green\", "
				  "\"type\": \"color\", \"labels\": [\"red\", \"green\", \"blue\"]}, "
				  "{\"column\": \"extra\", \"extra\": true, \"type\": \"jsonb\"}], "
				  "\"fields_optional\": true, \"from\": {\"rename\": \"Shape\", \"optional\": \"Shape\"}}");
		free(d);
	}
	sd_plan_free(p);

	/* policies reach nested composites and array elements; a skip column maps no member */
	p = compile(outer, "{'coerce':true,'unknown':'reject','rename':'upper','optional':true,"
				"'fields':{'j':{'skip':true}}}", NULL, &err);
	CHECK(p != NULL);
	if (p)
	{
		root = sd_plan_root(p);
		const sd_node *in = root->fields[0].node;
		const sd_node *el = root->fields[1].node->elem;

		CHECK(in->kind == SD_K_COMPOSITE && in->coerce && in->reject_unknown && in->all_optional);
		CHECK_STR(in->rename, "upper");
		CHECK_STR(in->fields[0].name, "N");
		CHECK(in->fields[0].optional);
		CHECK(el->kind == SD_K_COMPOSITE && el->coerce && el->reject_unknown);
		CHECK_STR(el->fields[1].name, "S");
		CHECK(root->fields[2].skip && root->members->n == 2);
		{
			char	   *d = sd_plan_describe(p, NULL);
			sd_error	jerr;

			CHECK(d && sd_jparse(NULL, d, strlen(d), 64, &jerr) != NULL);
			CHECK(d && strstr(d, "{\"column\": \"j\", \"skip\": true, \"type\": \"jsonb\"}") != NULL);
			free(d);
		}
		sd_plan_free(p);
	}

	/* a non-composite target */
	p = compile(&ut_int4_array, "{'coerce':true}", NULL, &err);
	CHECK(p && sd_plan_root(p)->kind == SD_K_ARRAY && sd_plan_root(p)->elem->coerce);
	if (p)
	{
		char	   *d = sd_plan_describe(p, NULL);

		CHECK_STR(d, "{\"shape\": \"Shape\", \"type\": \"integer[]\", \"xml\": {\"root\": null, \"namespace\": null}, "
				  "\"element\": {\"type\": \"integer\"}}");
		free(d);
		sd_plan_free(p);
	}

	/* NULL options mean {} */
	{
		sd_plan    *p2 = sd_compile(NULL, NULL, 0, inner, NULL, NULL, &err);

		CHECK(p2 != NULL);
		if (p2)
		{
			CHECK_STR(sd_plan_shape(p2), "");
			sd_plan_free(p2);
		}
	}

	/* describe output is valid JSON even with odd names */
	p = compile(odd, "{'fields':{'odd key':{'name':'a\\\\b\\'c\\n'}}}", NULL, &err);
	CHECK(p != NULL);
	if (p)
	{
		char	   *d = sd_plan_describe(p, NULL);
		sd_error	jerr;

		CHECK(d && sd_jparse(NULL, d, strlen(d), 64, &jerr) != NULL);
		CHECK(d && strstr(d, "\"name\": \"a\\\\b\\\"c\\u000a\"") != NULL);
		free(d);
		sd_plan_free(p);
	}
}

/* ---- shape references --------------------------------------------------------------------- */

static ut_shapedef shapes[UT_SHAPES];

static const char *
decode_with(const sd_plan *p, const char *doc)
{
	static char buf[1024];
	static sd_decoder *d;
	sd_error	err;
	uint32_t	root;

	if (!p)
	{
		/* cleanup call */
		sd_decoder_destroy(d);
		d = NULL;
		return "";
	}
	if (!d)
		d = sd_decoder_create(NULL);
	if (!sd_decode_json(d, p, NULL, doc, strlen(doc), NULL, &root, &err))
		snprintf(buf, sizeof(buf), "ERROR %s %s: %s @%lld", sd_code_sqlstate(err.code), err.path,
				 err.problem, (long long) err.offset);
	else
		snprintf(buf, sizeof(buf), "ok");
	return buf;
}

static void
test_shapes(void)
{
	static const sd_column node_cols[] = {{"name", &ut_text}, {"kids", &ut_jsonb}};
	static const sd_type node_type = {.kind = SD_K_COMPOSITE, .name = "tnode", .max_chars = -1,
	.precision = -1, .scale = -1, .ncols = 2, .cols = node_cols};
	sd_resolver r = {ut_resolve, shapes};
	sd_error	err;
	sd_plan    *p;

	shapes[0] = (ut_shapedef) {"Inner", "{\"coerce\":true,\"fields\":{\"n\":{\"name\":\"N\"}}}", inner};
	shapes[1] = (ut_shapedef) {"Bad", "{\"foo\":1}", inner};
	shapes[2] = (ut_shapedef) {"Node", "{\"optional\":true,\"fields\":{\"kids\":{\"shape\":\"Node\"}}}", &node_type};
	shapes[3] = (ut_shapedef) {"Other", "{}", c1};
	shapes[4] = (ut_shapedef) {"Later", NULL, NULL};

	/* the referenced shape's own options apply; what it leaves unset (unknown) is inherited */
	p = compile(outer, "{'unknown':'reject','fields':{'in':{'shape':'Inner'},'list':{'shape':'Inner'}}}", &r, &err);
	CHECK(p != NULL);
	if (p)
	{
		const sd_node *in = sd_plan_root(p)->fields[0].node;

		CHECK(in->coerce && in->reject_unknown);
		CHECK_STR(in->shape, "Inner");
		CHECK_STR(in->from->unknown, "Shape");	/* set by the referring shape */
		CHECK_STR(in->from->coerce, "Inner");
		CHECK(sd_plan_root(p)->fields[1].node->elem == in);	/* compiled once */
		CHECK_STR(decode_with(p, "{\"in\":{\"N\":\"5\",\"s\":\"x\",\"zz\":1},\"list\":[],\"j\":null}"),
				  "ERROR 2203E $.in.zz: unknown member @23");
		CHECK_STR(decode_with(p, "{\"in\":{\"N\":\"5\",\"s\":\"x\"},\"list\":[{\"N\":1,\"s\":\"\"}],\"j\":null}"), "ok");
		CHECK_STR(decode_with(p, "{\"in\":null,\"list\":null,\"j\":null,\"k\":1}"),
				  "ERROR 2203E $.k: unknown member @32");
		sd_plan_free(p);
	}
	p = compile(outer, "{'fields':{'in':{'shape':'Nope'}}}", &r, &err);
	CHECK(!p && err.code == SD_E_OPTIONS);
	CHECK_STR(err.path, "$.fields.in.shape");
	CHECK_STR(err.problem, "shape \"Nope\" does not exist");
	p = compile(outer, "{'fields':{'in':{'shape':'Bad'}}}", &r, &err);
	CHECK(!p);
	CHECK_STR(err.path, "$.fields.in.shape");
	CHECK_STR(err.problem, "in shape \"Bad\" at $.foo: unknown option \"foo\"");
	p = compile(outer, "{'fields':{'in':{'shape':'Other'}}}", &r, &err);
	CHECK(!p);
	CHECK_STR(err.problem, "shape \"Other\" decodes into c1, not the column's type");
	sd_plan_free(p);

	/* a reference the host defers (options NULL): only it waits, every other option is checked,
	 * and a default decoded through it is left for later */
	p = compile(outer, "{'fields':{'in':{'shape':'Later','default':{'zz':1}},'list':{'shape':'Later'}}}", &r, &err);
	CHECK(p != NULL && sd_plan_ndefaults(p) == 0);
	sd_plan_free(p);
	p = compile(outer, "{'fields':{'in':{'shape':'Later'},'j':{'default':{}},'list':{'format':'hex'}}}", &r, &err);
	CHECK(!p);
	CHECK_STR(err.path, "$.fields.list.format");
	p = compile(outer, "{'fields':{'in':{'shape':'Later'},'list':{'default':[1]}}}", &r, &err);
	CHECK(!p);
	CHECK_STR(err.path, "$.fields.list.default");

	/* a recursive shape on a jsonb column: validated to any depth, kept as text */
	p = compile(&node_type, "{'fields':{'kids':{'shape':'Node'}}}", &r, &err);
	CHECK(p != NULL);
	if (p)
	{
		CHECK_STR(decode_with(p, "{\"name\":\"a\",\"kids\":[{\"name\":\"b\",\"kids\":[{\"name\":\"c\"}]}]}"), "ok");
		CHECK_STR(decode_with(p, "{\"name\":\"a\",\"kids\":[{\"name\":\"b\",\"kids\":[{\"name\":3}]}]}"),
				  "ERROR 22032 $.kids[0].kids[0].name: expected string, found number 3 @48");
		CHECK_STR(decode_with(p, "{\"name\":\"a\",\"kids\":{\"name\":\"b\",\"kids\":null}}"), "ok");
		sd_plan_free(p);
	}
	decode_with(NULL, NULL);	/* frees the decoder */
}

/* ---- duplicate option keys ------------------------------------------------------------------ */

static void
test_duplicate_keys(void)
{
	/* PostgreSQL hands options over as jsonb, where the last duplicate wins; SQLite descriptors
	 * are text.  The same text must not mean different things: either reject duplicates or let
	 * the last one win, never the first. */
	sd_error	err;
	sd_plan    *p = compile(&ut_int4, "{'coerce':true,'coerce':false}", NULL, &err);

	if (!p)
		CHECK(err.code == SD_E_OPTIONS);
	else
	{
		CHECK(!sd_plan_root(p)->coerce);
		if (sd_plan_root(p)->coerce)
			fprintf(stderr, "    duplicate option key: the first of {\"coerce\":true,\"coerce\":false} wins\n");
		sd_plan_free(p);
	}
}

/* ---- messages cut at a buffer's end stay valid UTF-8 ------------------------------------- */

static bool
utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *) s;

	while (*p)
	{
		size_t		n = *p < 0x80 ? 1 : *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 0;

		if (n == 0)
			return false;
		for (size_t i = 1; i < n; i++)
			if ((p[i] & 0xC0) != 0x80)
				return false;
		p += n;
	}
	return true;
}

static void
test_utf8_cuts(void)
{
	char		long_e[2 * 400 + 1];
	char		path[SD_PATH_MAX];
	sd_error	err;
	size_t		n;

	for (int i = 0; i < 400; i++)
		memcpy(long_e + 2 * i, "\xc3\xa9", 2);	/* é */
	long_e[800] = '\0';
	/* formatted past the buffer: a whole last character, then "..." */
	for (int pre = 0; pre < 3; pre++)
	{
		sd_error_set(&err, SD_E_OPTIONS, -1, "%.*sunknown style \"%s\"", pre, "xxx", long_e);
		n = strlen(err.problem);
		CHECK(utf8_ok(err.problem) && n < SD_PROBLEM_MAX && n >= SD_PROBLEM_MAX - 5);
		CHECK_STR(err.problem + n - 5, "\xc3\xa9...");
	}
	/* an argument already cut in the middle of a character */
	sd_error_set(&err, SD_E_OPTIONS, -1, "in shape: %s", "ab\xc3");
	CHECK_STR(err.problem, "in shape: ab...");
	sd_error_set(&err, SD_E_OPTIONS, -1, "%s", "caf\xc3\xa9");
	CHECK_STR(err.problem, "caf\xc3\xa9");
	/* a member name longer than the path: cut at a character, ending in "..." */
	for (int skew = 0; skew < 2; skew++)
	{
		strcpy(path, skew ? "$.a" : "$");
		sd_path_member(path, long_e, 800);
		n = strlen(path);
		CHECK(utf8_ok(path) && n < SD_PATH_MAX);
		CHECK_STR(path + n - 6, "\xc3\xa9\"...");
		sd_path_member(path, "next", 4);		/* nothing after the "..." */
		CHECK(strlen(path) == n);
	}
}

/* resolve_type for test_nested: cinner has the shape Inner, or (ambiguous) two shapes */
static bool nested_ambiguous;

static bool
nested_resolve_type(void *ud, const sd_type *t, const char **shape_name, sd_error *err)
{
	(void) ud;
	*shape_name = NULL;
	if (t != inner)
		return true;
	if (nested_ambiguous)
		return sd_error_set(err, SD_E_OPTIONS, -1, "several shapes decode into type cinner: Inner, Inner2");
	*shape_name = "Inner";
	return true;
}

/* Nested composites (docs/reference.md 3.6): by type, inheritance and its origins, inline
 * options, field-level coerce. */
static void
test_nested(void)
{
	sd_resolver r = {ut_resolve, shapes, nested_resolve_type};
	sd_error	err;
	sd_plan    *p;

	shapes[0] = (ut_shapedef) {"Inner", "{\"rename\":\"upper\"}", inner};
	shapes[1] = (ut_shapedef) {NULL, NULL, NULL};
	nested_ambiguous = false;
	/* by type, inheriting coerce and unknown from the referring shape */
	p = compile(outer, "{'coerce':true,'unknown':'reject'}", &r, &err);
	CHECK(p != NULL);
	if (p)
	{
		const sd_node *in = sd_plan_root(p)->fields[0].node;

		CHECK_STR(in->shape, "Inner");
		CHECK(in->coerce && in->reject_unknown && strcmp(in->rename, "upper") == 0);
		CHECK_STR(in->from->rename, "Inner");
		CHECK_STR(in->from->coerce, "Shape");
		CHECK(sd_plan_root(p)->fields[1].node->elem == in);
		CHECK_STR(decode_with(p, "{\"in\":{\"N\":\"5\",\"S\":\"x\"},\"list\":[],\"j\":null}"), "ok");
		CHECK_STR(decode_with(p, "{\"in\":{\"n\":5,\"S\":\"x\"},\"list\":[],\"j\":null}"),
				  "ERROR 2203E $.in.n: unknown member @7");
		sd_plan_free(p);
	}
	/* several shapes: at the column's option path */
	nested_ambiguous = true;
	p = compile(outer, "{}", &r, &err);
	CHECK(!p && err.code == SD_E_OPTIONS);
	CHECK_STR(err.path, "$.fields.in");
	CHECK_STR(err.problem, "several shapes decode into type cinner: Inner, Inner2");
	nested_ambiguous = false;
	/* inline options replace the type's shape; field-level coerce */
	p = compile(outer, "{'fields':{'in':{'fields':{'n':{'coerce':true}}},'list':{'shape':'Inner','coerce':true}}}", &r, &err);
	CHECK(p != NULL);
	if (p)
	{
		const sd_node *in = sd_plan_root(p)->fields[0].node;
		const sd_node *el = sd_plan_root(p)->fields[1].node->elem;

		CHECK(in->shape == NULL && in->rename == NULL && !in->coerce && in->fields[0].node->coerce);
		CHECK_STR(in->fields[0].node->from->coerce, "Shape at $.fields.in.fields.n");
		CHECK(el->coerce && strcmp(el->shape, "Inner") == 0);
		CHECK_STR(decode_with(p, "{\"in\":{\"n\":\"5\",\"s\":\"x\"},\"list\":[{\"N\":\"1\",\"S\":2}],\"j\":null}"), "ok");
		sd_plan_free(p);
	}
	/* errors at the real nested option paths */
	p = compile(outer, "{'fields':{'in':{'fields':{'n':{'coerce':'y'}}}}}", &r, &err);
	CHECK(!p && strcmp(err.path, "$.fields.in.fields.n.coerce") == 0);
	p = compile(outer, "{'fields':{'in':{'shape':'Inner','rename':'camel'}}}", &r, &err);
	CHECK(!p && strcmp(err.path, "$.fields.in.shape") == 0);
	p = compile(outer, "{'fields':{'j':{'fields':{}}}}", &r, &err);
	CHECK(!p && strcmp(err.path, "$.fields.j.fields") == 0);
	nested_ambiguous = false;
	memset(shapes, 0, sizeof(shapes));
}

void		unit_compile(void);

void
unit_compile(void)
{
	setup();
	test_utf8_cuts();
	test_nested();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		char	   *opts = unquote(cases[i].opts);
		const char *got = ut_compile(targets(cases[i].target), opts);

		if (strcmp(got, cases[i].want) == 0)
			unit_passed++;
		else
		{
			unit_failed++;
			fprintf(stderr, "FAIL %s:%d: %s\n    got  %s\n    want %s\n", __FILE__, cases[i].line,
					opts, got, cases[i].want);
		}
		free(opts);
	}
	test_plan();
	test_shapes();
	test_duplicate_keys();
}
