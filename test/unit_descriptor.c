/*
 * unit_descriptor.c — typed descriptors (src/core/descriptor.c): every type, every error, shape
 * references (shared, cyclic, missing), the options handed to sd_compile, errors sd_compile
 * finds inside referenced shapes, OOM; and the acceptance test of issue 12: the Stripe invoice
 * decoded with no host from fixtures/descriptors/stripe_invoice.json to canonical JSON equal to
 * fixtures/descriptors/stripe_invoice.expected.json.
 */
#include "unit.h"
#include "internal.h"

#include <stdlib.h>

/* ---- a lookup over a NULL-terminated table {name, descriptor, ...} ------------------------ */

typedef struct table
{
	const char *const *entries;
	int			calls;
	bool		fail;           /* the host's lookup fails */
} table;

static bool
table_lookup(void *ud, const char *shape, const char **json, size_t *len, sd_error *err)
{
	table	   *t = ud;

	t->calls++;
	if (t->fail)
		return sd_error_set(err, SD_E_INTERNAL, -1, "catalog is locked");
	*json = NULL;
	for (int i = 0; t->entries && t->entries[i]; i += 2)
		if (strcmp(t->entries[i], shape) == 0)
		{
			*json = t->entries[i + 1];
			*len = strlen(*json);
		}
	return true;
}

static char res[8192];

static const char *
render_err(const sd_error *err)
{
	snprintf(res, sizeof(res), "ERROR %s %s: %s", sd_code_sqlstate(err->code), err->path, err->problem);
	return res;
}

/* builds (and compiles, when compile) "T": "ok" or the error */
static const char *
build(const char *json, const char *const *entries, bool compile)
{
	table		t = {entries, 0, false};
	sd_descriptor_lookup lk = {table_lookup, &t};
	sd_error	err;
	sd_descriptor *d = sd_descriptor_build("T", json, strlen(json), &lk, NULL, &err);

	if (!d)
		return render_err(&err);
	if (compile)
	{
		sd_plan    *p = sd_descriptor_compile(d, NULL, &err);

		if (!p)
		{
			sd_descriptor_free(d);
			return render_err(&err);
		}
		sd_plan_free(p);
	}
	sd_descriptor_free(d);
	return "ok";
}

#define BUILD_ERR(json, want) CHECK_STR(build(json, NULL, false), want)

/* builds, compiles, decodes doc, writes canonical JSON */
static const char *
decode(const char *json, const char *const *entries, const char *doc)
{
	table		t = {entries, 0, false};
	sd_descriptor_lookup lk = {table_lookup, &t};
	sd_error	err;
	sd_descriptor *d = sd_descriptor_build("T", json, strlen(json), &lk, NULL, &err);
	sd_plan    *p;
	sd_decoder *dec;
	sd_jwriter *w;
	sd_buf		b;
	uint32_t	root;

	if (!d)
		return render_err(&err);
	if (!(p = sd_descriptor_compile(d, NULL, &err)))
	{
		sd_descriptor_free(d);
		return render_err(&err);
	}
	dec = sd_decoder_create(NULL);
	if (!sd_decode_json(dec, p, NULL, doc, strlen(doc), NULL, &root, &err))
		render_err(&err);
	else if (!(w = sd_jwriter_create(p, NULL, &err)))
		render_err(&err);
	else
	{
		sd_buf_init(&b, NULL);
		snprintf(res, sizeof(res), "%s", sd_jwriter_write(w, sd_plan_root(p), sd_decoder_tape(dec), root, &b) ?
				 b.s : "ERROR write");
		sd_buf_free(&b);
		sd_jwriter_free(w);
	}
	sd_decoder_destroy(dec);
	sd_plan_free(p);
	sd_descriptor_free(d);
	return res;
}

/* ---- the type tree ----------------------------------------------------------------------- */

static void
test_types(void)
{
	static const char *const shapes[] = {
		"Addr", "{\"fields\": {\"city\": {\"type\": \"text\"}}}",
		NULL
	};
	const char *json =
		"{\"optional\": true, \"rename\": \"camel\", \"fields\": {"
		"\"t\": {\"type\": \"text\"}, \"i\": {\"type\": \"integer\", \"default\": 3},"
		"\"r\": {\"type\": \"real\"}, \"n\": {\"type\": \"numeric\"}, \"b\": {\"type\": \"boolean\"},"
		"\"ts\": {\"type\": \"timestamp\", \"format\": \"unix\"}, \"d\": {\"type\": \"date\"},"
		"\"u\": {\"type\": \"uuid\"}, \"bl\": {\"type\": \"blob\"}, \"j\": {\"type\": \"json\"},"
		"\"e\": {\"type\": {\"enum\": [\"red\", \"green\", \"blue\"]}},"
		"\"li\": {\"type\": {\"list\": \"integer\"}, \"name\": \"L\"},"
		"\"m\": {\"type\": {\"map\": {\"enum\": [\"x\", \"y\"]}}},"
		"\"a\": {\"type\": {\"shape\": \"Addr\"}},"
		"\"la\": {\"type\": {\"list\": {\"shape\": \"Addr\"}}},"
		"\"ma\": {\"type\": {\"map\": {\"shape\": \"Addr\"}}},"
		"\"sk\": {\"type\": {\"shape\": \"Addr\"}, \"skip\": true}"
		"}, \"unknown\": \"ignore\"}";
	table		tb = {shapes, 0, false};
	sd_descriptor_lookup lk = {table_lookup, &tb};
	sd_error	err;
	sd_descriptor *d = sd_descriptor_build("Row", json, strlen(json), &lk, NULL, &err);
	const sd_type *t;
	size_t		olen;

	CHECK(d != NULL);
	if (!d)
	{
		fprintf(stderr, "%s\n", render_err(&err));
		return;
	}
	t = sd_descriptor_type(d);
	CHECK(t->kind == SD_K_COMPOSITE && strcmp(t->name, "Row") == 0 && t->ncols == 17);
	{
		static const char *const names[] = {"t", "i", "r", "n", "b", "ts", "d", "u", "bl", "j", "e",
		"li", "m", "a", "la", "ma", "sk"};
		static const sd_kind kinds[] = {SD_K_TEXT, SD_K_INT8, SD_K_FLOAT8, SD_K_NUMERIC, SD_K_BOOL,
			SD_K_TIMESTAMPTZ, SD_K_DATE, SD_K_UUID, SD_K_BYTEA, SD_K_JSON, SD_K_ENUM, SD_K_ARRAY,
		SD_K_ARRAY, SD_K_COMPOSITE, SD_K_ARRAY, SD_K_ARRAY, SD_K_COMPOSITE};
		static const char *const tnames[] = {"text", "integer", "real", "numeric", "boolean",
			"timestamp", "date", "uuid", "blob", "json", "Row.e", "list of integer", "map of Row.m",
		"Addr", "list of Addr", "map of Addr", "Addr"};

		for (int i = 0; i < 17 && i < t->ncols; i++)
		{
			CHECK_STR(t->cols[i].name, names[i]);
			CHECK(t->cols[i].type->kind == kinds[i]);
			CHECK_STR(t->cols[i].type->name, tnames[i]);
			CHECK(t->cols[i].type->max_chars == -1 && t->cols[i].type->precision == -1 &&
				  t->cols[i].type->scale == -1 && !t->cols[i].type->not_null);
		}
	}
	/* enum: labels in the order given, label_order in strcmp order */
	{
		const sd_type *e = t->cols[10].type;

		CHECK(e->nlabels == 3 && strcmp(e->labels[0], "red") == 0 && strcmp(e->labels[2], "blue") == 0);
		CHECK(e->label_order && e->label_order[0] == 2 && e->label_order[1] == 1 && e->label_order[2] == 0);
	}
	/* list, map (an array of a (key text, value T) composite), shared shape composites */
	CHECK(t->cols[11].type->elem->kind == SD_K_INT8);
	{
		const sd_type *m = t->cols[12].type;

		CHECK(m->elem->kind == SD_K_COMPOSITE && m->elem->ncols == 2);
		CHECK_STR(m->elem->cols[0].name, "key");
		CHECK(m->elem->cols[0].type->kind == SD_K_TEXT);
		CHECK_STR(m->elem->cols[1].name, "value");
		CHECK(m->elem->cols[1].type->kind == SD_K_ENUM && m->elem->cols[1].type->nlabels == 2);
	}
	CHECK(t->cols[13].type == t->cols[14].type->elem);
	CHECK(t->cols[13].type == t->cols[15].type->elem->cols[1].type);
	CHECK(t->cols[13].type == t->cols[16].type);
	CHECK(t->cols[13].type->ncols == 1 && t->cols[13].type->cols[0].type->kind == SD_K_TEXT);
	CHECK(tb.calls == 1);       /* Addr looked up once */
	CHECK(sd_descriptor_nshapes(d) == 2);
	CHECK_STR(sd_descriptor_shape(d, 0), "Row");
	CHECK_STR(sd_descriptor_shape(d, 1), "Addr");
	CHECK(sd_descriptor_shape(d, 2) == NULL);
	/* the options: no "type", the shapes and maps the types imply, in the order written */
	CHECK_STR(sd_descriptor_options(d, &olen),
			  "{\"optional\": true, \"rename\": \"camel\", \"fields\": {"
			  "\"i\": {\"default\": 3}, \"ts\": {\"format\": \"unix\"}, \"li\": {\"name\": \"L\"}, "
			  "\"m\": {\"map\": true}, \"a\": {\"shape\": \"Addr\"}, \"la\": {\"shape\": \"Addr\"}, "
			  "\"ma\": {\"shape\": \"\\u0001map:Addr\", \"map\": true}, \"sk\": {\"skip\": true}}, "
			  "\"unknown\": \"ignore\"}");
	CHECK(olen == strlen(sd_descriptor_options(d, NULL)));
	/* and they compile */
	{
		sd_plan    *p = sd_descriptor_compile(d, NULL, &err);

		CHECK(p != NULL);
		if (p)
		{
			const sd_node *r = sd_plan_root(p);

			CHECK(r->nfields == 17 && r->all_optional && r->fields[12].node->is_map &&
				  r->fields[15].node->is_map && r->fields[16].skip);
			CHECK_STR(r->fields[11].name, "L");
			CHECK_STR(r->fields[14].name, "la");
			CHECK_STR(r->fields[15].node->elem->fields[1].node->shape, "Addr");
			sd_plan_free(p);
		}
		else
			fprintf(stderr, "%s\n", render_err(&err));
	}
	sd_descriptor_free(d);
}

/* ---- decoding through descriptor plans ---------------------------------------------------- */

static void
test_decode(void)
{
	static const char *const shapes[] = {
		"Addr", "{\"fields\": {\"city\": {\"type\": \"text\"}, \"zip\": {\"type\": \"text\", \"optional\": true}}}",
		"Node", "{\"fields\": {\"v\": {\"type\": \"integer\"}, \"kids\": {\"type\": \"json\", \"shape\": \"Node\", \"default\": []}}}",
		NULL
	};

	CHECK_STR(decode("{\"fields\": {\"id\": {\"type\": \"integer\"}, \"price\": {\"type\": \"numeric\"},"
					 " \"at\": {\"type\": \"timestamp\"}, \"on\": {\"type\": \"date\"}, \"u\": {\"type\": \"uuid\"},"
					 " \"raw\": {\"type\": \"blob\"}, \"ok\": {\"type\": \"boolean\"}, \"x\": {\"type\": \"real\"},"
					 " \"c\": {\"type\": {\"enum\": [\"a\", \"b\"]}}, \"tags\": {\"type\": {\"list\": \"text\"}},"
					 " \"meta\": {\"type\": \"json\"}}}", shapes,
					 "{\"id\": 7, \"price\": 19.990, \"at\": \"2024-01-02T03:04:05.25-01:30\", \"on\": \"2024-12-31\","
					 " \"u\": \"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11\", \"raw\": \"aGk=\", \"ok\": true, \"x\": 2.5,"
					 " \"c\": \"b\", \"tags\": [\"p\", \"q\"], \"meta\": {\"k\": [1, 2]}}"),
			  "{\"id\":7,\"price\":19.990,\"at\":\"2024-01-02T04:34:05.250000Z\",\"on\":\"2024-12-31\","
			  "\"u\":\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\",\"raw\":\"aGk=\",\"ok\":true,\"x\":2.5,"
			  "\"c\":\"b\",\"tags\":[\"p\",\"q\"],\"meta\":{\"k\":[1,2]}}");
	/* timestamp behaves like timestamptz: an offset is required */
	CHECK_STR(decode("{\"fields\": {\"at\": {\"type\": \"timestamp\"}}}", NULL, "{\"at\": \"2024-01-02T03:04:05\"}"),
			  "ERROR 22032 $.at: timestamp \"2024-01-02T03:04:05\" has no time zone offset");
	/* nested shapes, lists of shapes, maps of scalars and of shapes */
	CHECK_STR(decode("{\"fields\": {\"home\": {\"type\": {\"shape\": \"Addr\"}},"
					 " \"old\": {\"type\": {\"list\": {\"shape\": \"Addr\"}}},"
					 " \"by_name\": {\"type\": {\"map\": {\"shape\": \"Addr\"}}},"
					 " \"counts\": {\"type\": {\"map\": \"integer\"}}}}", shapes,
					 "{\"home\": {\"city\": \"Oslo\"}, \"old\": [{\"city\": \"Bergen\", \"zip\": \"5003\"}],"
					 " \"by_name\": {\"w\": {\"city\": \"Work\"}, \"h\": {\"city\": \"Home\"}},"
					 " \"counts\": {\"b\": 2, \"a\": 1}}"),
			  "{\"home\":{\"city\":\"Oslo\",\"zip\":null},\"old\":[{\"city\":\"Bergen\",\"zip\":\"5003\"}],"
			  "\"by_name\":{\"w\":{\"city\":\"Work\",\"zip\":null},\"h\":{\"city\":\"Home\",\"zip\":null}},"
			  "\"counts\":{\"b\":2,\"a\":1}}");
	/* a map value decodes by its shape: Addr's zip is optional, its city required */
	CHECK_STR(decode("{\"fields\": {\"by_name\": {\"type\": {\"map\": {\"shape\": \"Addr\"}}}}}", shapes,
					 "{\"by_name\": {\"w\": {\"zip\": \"1\"}}}"),
			  "ERROR 2203A $.by_name.w.city: missing required member");
	CHECK_STR(decode("{\"fields\": {\"counts\": {\"type\": {\"map\": \"integer\"}}}}", NULL,
					 "{\"counts\": {\"a\": 1, \"a\": 2}}"),
			  "ERROR 22030 $.counts.a: duplicate member");
	/* recursion through a json column with a shape */
	CHECK_STR(decode("{\"fields\": {\"tree\": {\"type\": \"json\", \"shape\": \"Node\"}}}", shapes,
					 "{\"tree\": {\"v\": 1, \"kids\": [{\"v\": 2}, {\"v\": 3, \"kids\": []}]}}"),
			  "{\"tree\":{\"v\":1,\"kids\":[{\"v\":2},{\"v\":3,\"kids\":[]}]}}");
	CHECK_STR(decode("{\"fields\": {\"tree\": {\"type\": \"json\", \"shape\": \"Node\"}}}", shapes,
					 "{\"tree\": {\"v\": 1, \"kids\": [{\"v\": \"2\"}]}}"),
			  "ERROR 22032 $.tree.kids[0].v: expected integer, found string \"2\"");
	/* the shape itself as a validator of one of its json fields */
	{
		table		t = {NULL, 0, false};
		sd_descriptor_lookup lk = {table_lookup, &t};
		const char *self = "{\"fields\": {\"v\": {\"type\": \"integer\"}, \"next\": {\"type\": \"json\", \"shape\": \"Self\"}}}";
		sd_error	err;
		sd_descriptor *d = sd_descriptor_build("Self", self, strlen(self), &lk, NULL, &err);
		sd_plan    *p = d ? sd_descriptor_compile(d, NULL, &err) : NULL;

		CHECK(d && p && t.calls == 0);
		sd_plan_free(p);
		sd_descriptor_free(d);
	}
	/* defaults, extra, union variants through descriptors */
	{
		static const char *const pay[] = {
			"Card", "{\"fields\": {\"number\": {\"type\": \"text\"}}}",
			"Bank", "{\"fields\": {\"iban\": {\"type\": \"text\"}}}",
			NULL
		};
		const char *desc = "{\"tag\": \"kind\", \"variants\": {\"card\": \"card\", \"bank\": \"bank\"}, \"extra\": \"rest\","
			" \"fields\": {\"kind\": {\"type\": \"text\"}, \"n\": {\"type\": \"integer\", \"default\": 5},"
			" \"card\": {\"type\": {\"shape\": \"Card\"}}, \"bank\": {\"type\": {\"shape\": \"Bank\"}},"
			" \"rest\": {\"type\": \"json\"}}}";

		CHECK_STR(decode(desc, pay, "{\"kind\": \"card\", \"number\": \"4242\", \"note\": \"hi\"}"),
				  "{\"kind\":\"card\",\"n\":5,\"card\":{\"number\":\"4242\"},\"bank\":null,\"rest\":{\"note\":\"hi\"}}");
		CHECK_STR(decode(desc, pay, "{\"kind\": \"bank\", \"n\": 1, \"iban\": \"DE\"}"),
				  "{\"kind\":\"bank\",\"n\":1,\"card\":null,\"bank\":{\"iban\":\"DE\"},\"rest\":{}}");
	}
	/* coerce inherited by a map's values (no shape of their own) */
	CHECK_STR(decode("{\"coerce\": true, \"fields\": {\"m\": {\"type\": {\"map\": \"integer\"}}}}", NULL,
					 "{\"m\": {\"a\": \"1\"}}"),
			  "{\"m\":{\"a\":1}}");
}

/* ---- errors ------------------------------------------------------------------------------ */

static void
test_errors(void)
{
	static const char *const tl = "(expected text, integer, real, numeric, boolean, timestamp, date, uuid, blob, json, "
		"{\"enum\": [labels]}, {\"list\": T}, {\"map\": T}, {\"shape\": \"Name\"} or {\"object\": {\"fields\": ...}})";
	char		want[1024];

	snprintf(want, sizeof(want), "ERROR 22023 $.fields.total.type: unknown type \"money\" %s", tl);
	BUILD_ERR("{\"fields\": {\"total\": {\"type\": \"money\"}}}", want);
	snprintf(want, sizeof(want), "ERROR 22023 $.fields.total.type: unknown type \"int\" %s", tl);
	BUILD_ERR("{\"fields\": {\"total\": {\"type\": \"int\"}}}", want);
	snprintf(want, sizeof(want), "ERROR 22023 $.fields.total.type: unknown type \"Text\" %s", tl);
	BUILD_ERR("{\"fields\": {\"total\": {\"type\": \"Text\"}}}", want);
	snprintf(want, sizeof(want), "ERROR 22023 $.fields.total.type: missing \"type\": every field of a descriptor has one (one of %s", tl + 10);
	BUILD_ERR("{\"fields\": {\"id\": {\"type\": \"text\"}, \"total\": {\"name\": \"t\"}}}", want);
	snprintf(want, sizeof(want), "ERROR 22023 $.fields.x.type: unknown type \"array\" %s", tl);
	BUILD_ERR("{\"fields\": {\"x\": {\"type\": {\"array\": \"text\"}}}}", want);
	snprintf(want, sizeof(want), "ERROR 22023 $.fields.x.type.list: unknown type \"txt\" %s", tl);
	BUILD_ERR("{\"fields\": {\"x\": {\"type\": {\"list\": \"txt\"}}}}", want);
	BUILD_ERR("{\"fields\": {\"x\": {\"type\": 5}}}",
			  "ERROR 22023 $.fields.x.type: must be a type name or an object, not a number");
	BUILD_ERR("{\"fields\": {\"x\": {\"type\": null}}}",
			  "ERROR 22023 $.fields.x.type: must be a type name or an object, not null");
	BUILD_ERR("{\"fields\": {\"x\": {\"type\": {}}}}",
			  "ERROR 22023 $.fields.x.type: a type object has exactly one member (enum, list, map, shape or object), not 0");
	BUILD_ERR("{\"fields\": {\"x\": {\"type\": {\"list\": \"text\", \"map\": \"text\"}}}}",
			  "ERROR 22023 $.fields.x.type: a type object has exactly one member (enum, list, map, shape or object), not 2");
	BUILD_ERR("{\"fields\": {\"x\": \"text\"}}",
			  "ERROR 22023 $.fields.x: must be an object with the field's \"type\", not a string");
	/* enums */
	BUILD_ERR("{\"fields\": {\"s\": {\"type\": {\"enum\": []}}}}",
			  "ERROR 22023 $.fields.s.type.enum: an enum needs a non-empty array of labels, not an empty array");
	BUILD_ERR("{\"fields\": {\"s\": {\"type\": {\"enum\": \"a\"}}}}",
			  "ERROR 22023 $.fields.s.type.enum: an enum needs a non-empty array of labels, not a string");
	BUILD_ERR("{\"fields\": {\"s\": {\"type\": {\"enum\": [\"a\", \"b\", \"a\"]}}}}",
			  "ERROR 22023 $.fields.s.type.enum[2]: duplicate enum label \"a\"");
	BUILD_ERR("{\"fields\": {\"s\": {\"type\": {\"enum\": [\"a\", 1]}}}}",
			  "ERROR 22023 $.fields.s.type.enum[1]: enum labels must be strings, not a number");
	BUILD_ERR("{\"fields\": {\"s\": {\"type\": {\"enum\": [\"a\\u0000b\"]}}}}",
			  "ERROR 22023 $.fields.s.type.enum[0]: enum labels cannot contain \\u0000");
	/* nested lists and maps */
	BUILD_ERR("{\"fields\": {\"x\": {\"type\": {\"list\": {\"list\": \"integer\"}}}}}",
			  "ERROR 22023 $.fields.x.type.list: a list or map cannot be the element of a list or the value of a map "
			  "(declare it as json, or as a field of a shape)");
	BUILD_ERR("{\"fields\": {\"x\": {\"type\": {\"list\": {\"map\": \"integer\"}}}}}",
			  "ERROR 22023 $.fields.x.type.list: a list or map cannot be the element of a list or the value of a map "
			  "(declare it as json, or as a field of a shape)");
	BUILD_ERR("{\"fields\": {\"x\": {\"type\": {\"map\": {\"list\": \"integer\"}}}}}",
			  "ERROR 22023 $.fields.x.type.map: a list or map cannot be the element of a list or the value of a map "
			  "(declare it as json, or as a field of a shape)");
	BUILD_ERR("{\"fields\": {\"x\": {\"type\": {\"map\": {\"map\": \"integer\"}}}}}",
			  "ERROR 22023 $.fields.x.type.map: a list or map cannot be the element of a list or the value of a map "
			  "(declare it as json, or as a field of a shape)");
	/* the descriptor itself */
	BUILD_ERR("[]", "ERROR 22023 $: a descriptor must be an object, not an array");
	BUILD_ERR("{}", "ERROR 22023 $.fields: missing \"fields\": a descriptor lists its fields with their types");
	BUILD_ERR("{\"fields\": []}", "ERROR 22023 $.fields: must be an object, not an array");
	BUILD_ERR("{\"fields\": {}}", "ERROR 22023 $.fields: a shape needs at least one field");
	BUILD_ERR("{\"fields\": {\"a\": {\"type\": \"text\"}}, \"fields\": {\"b\": {\"type\": \"text\"}}}",
			  "ERROR 22023 $.fields: duplicate option \"fields\"");
	BUILD_ERR("{\"fields\": {\"a\": {\"type\": \"text\"}, \"a\": {\"type\": \"integer\"}}}",
			  "ERROR 22023 $.fields.a: duplicate field \"a\"");
	BUILD_ERR("{\"fields\": {\"\": {\"type\": \"text\"}}}",
			  "ERROR 22023 $.fields.\"\": field names must not be empty");
	BUILD_ERR("{\"fields\": {\"a\": {\"type\": {\"map\": \"text\"}, \"map\": true}}}",
			  "ERROR 22023 $.fields.a.map: option \"map\" is implied by \"type\": {\"map\": T} and cannot be given");
	BUILD_ERR("{\"fields\": {\"a\": {\"type\": \"text\", \"shape\": \"X\"}}}",
			  "ERROR 22023 $.fields.a.shape: option \"shape\" applies to json fields (it validates their value); "
			  "a field of a shape is written \"type\": {\"shape\": \"Name\"}");
	BUILD_ERR("{\"fields\": {\"a\": {\"type\": \"text\"}", "ERROR 22023 $: descriptor is not valid JSON: invalid JSON: expected ',' or '}'");
	{
		table		t = {NULL, 0, false};
		sd_descriptor_lookup lk = {table_lookup, &t};
		sd_error	err;
		const char *bad = "{\"fields\": {\"a\": {\"type\": tru}}}";

		CHECK(sd_descriptor_build("T", bad, strlen(bad), &lk, NULL, &err) == NULL &&
			  err.code == SD_E_OPTIONS && err.offset == 26);
		CHECK(sd_descriptor_build("T\x01", "{}", 2, &lk, NULL, &err) == NULL &&
			  strcmp(err.problem, "shape names cannot contain control characters") == 0);
	}
	/* nested too deep: a default of 70 levels */
	{
		char		deep[512];
		size_t		n = 0;

		n += (size_t) snprintf(deep + n, sizeof(deep) - n, "{\"fields\": {\"j\": {\"type\": \"json\", \"default\": ");
		for (int i = 0; i < 70; i++)
			deep[n++] = '[';
		for (int i = 0; i < 70; i++)
			deep[n++] = ']';
		snprintf(deep + n, sizeof(deep) - n, "}}}");
		BUILD_ERR(deep, "ERROR 22023 $: descriptor nests deeper than 64 levels");
	}
	/* option errors sd_compile finds keep their descriptor paths */
	CHECK_STR(build("{\"fields\": {\"a\": {\"type\": \"text\", \"format\": \"unix\"}}}", NULL, true),
			  "ERROR 22023 $.fields.a.format: format \"unix\" does not apply to type text");
	CHECK_STR(build("{\"fields\": {\"a\": {\"type\": \"integer\", \"default\": \"x\"}}}", NULL, true),
			  "ERROR 22023 $.fields.a.default: default does not fit column \"a\": expected integer, found string \"x\"");
	CHECK_STR(build("{\"fields\": {\"a\": {\"type\": \"integer\", \"nmae\": \"x\"}}}", NULL, true),
			  "ERROR 22023 $.fields.a.nmae: unknown option \"nmae\"");
	CHECK_STR(build("{\"fields\": {\"a\": {\"type\": \"integer\"}}, \"strict\": true}", NULL, true),
			  "ERROR 22023 $.strict: unknown option \"strict\"");
	CHECK_STR(build("{\"extra\": \"a\", \"fields\": {\"a\": {\"type\": \"text\"}}}", NULL, true),
			  "ERROR 22023 $.extra: column \"a\" must be json or jsonb, not text");
	CHECK_STR(build("{\"fields\": {\"a\": {\"type\": {\"enum\": [\"x\"]}, \"default\": \"y\"}}}", NULL, true),
			  "ERROR 22023 $.fields.a.default: default does not fit column \"a\": unknown label \"y\" for enum T.a, expected one of: x");
}

static void
test_references(void)
{
	static const char *const shapes[] = {
		"A", "{\"fields\": {\"b\": {\"type\": {\"shape\": \"B\"}}}}",
		"B", "{\"fields\": {\"a\": {\"type\": {\"shape\": \"A\"}}}}",
		"C", "{\"fields\": {\"x\": {\"type\": \"integer\"}, \"d\": {\"type\": {\"list\": {\"shape\": \"D\"}}}}}",
		"D", "{\"fields\": {\"c\": {\"type\": {\"map\": {\"shape\": \"C\"}}}}}",
		"Bad", "{\"fields\": {\"x\": {\"type\": \"float\"}}}",
		"BadJson", "{\"fields\": ",
		"Fmt", "{\"fields\": {\"x\": {\"type\": \"text\", \"format\": \"unix\"}}}",
		"Outer", "{\"fields\": {\"f\": {\"type\": {\"shape\": \"Fmt\"}}}}",
		"Leaf", "{\"fields\": {\"v\": {\"type\": \"integer\"}}}",
		"JsonA", "{\"fields\": {\"j\": {\"type\": \"json\", \"shape\": \"JsonB\"}}}",
		"JsonB", "{\"fields\": {\"a\": {\"type\": {\"shape\": \"JsonA\"}}}}",
		"Long", "{\"fields\": {\"x\": {\"type\": {\"shape\": \"ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKL\"}}}}",
		NULL
	};

	CHECK_STR(build("{\"fields\": {\"x\": {\"type\": {\"shape\": \"Nope\"}}}}", shapes, false),
			  "ERROR 22023 $.fields.x.type.shape: shape \"Nope\" does not exist");
	CHECK_STR(build("{\"fields\": {\"x\": {\"type\": {\"list\": {\"shape\": \"Nope\"}}}}}", shapes, false),
			  "ERROR 22023 $.fields.x.type.list.shape: shape \"Nope\" does not exist");
	CHECK_STR(build("{\"fields\": {\"x\": {\"type\": \"json\", \"shape\": \"Nope\"}}}", shapes, false),
			  "ERROR 22023 $.fields.x.shape: shape \"Nope\" does not exist");
	CHECK_STR(build("{\"fields\": {\"x\": {\"type\": {\"shape\": \"\"}}}}", shapes, false),
			  "ERROR 22023 $.fields.x.type.shape: shape name must not be empty");
	CHECK_STR(build("{\"fields\": {\"x\": {\"type\": {\"shape\": 1}}}}", shapes, false),
			  "ERROR 22023 $.fields.x.type.shape: must be a shape name (a string), not a number");
	CHECK_STR(build("{\"fields\": {\"x\": {\"type\": {\"shape\": \"a\\u0001\"}}}}", shapes, false),
			  "ERROR 22023 $.fields.x.type.shape: shape names cannot contain control characters");
	CHECK_STR(build("{\"fields\": {\"x\": {\"type\": {\"shape\": \"Long\"}}}}", shapes, false),
			  "ERROR 22023 $.fields.x.type.shape: in shape \"Long\" at $.fields.x.type.shape: shape names have at most 63 bytes, not 64");
	/* errors inside referenced shapes name the reference and the place inside */
	CHECK_STR(build("{\"fields\": {\"x\": {\"type\": {\"shape\": \"Bad\"}}}}", shapes, false),
			  "ERROR 22023 $.fields.x.type.shape: in shape \"Bad\" at $.fields.x.type: unknown type \"float\" "
			  "(expected text, integer, real, numeric, boolean, timestamp, date, uuid, blob, json, "
			  "{\"enum\": [labels]}, {\"list\": T}, {\"map\": T}, {\"shape\": \"Name\"} or {\"object\": {\"fields\": ...}})");
	CHECK_STR(build("{\"fields\": {\"x\": {\"type\": {\"shape\": \"BadJson\"}}}}", shapes, false),
			  "ERROR 22023 $.fields.x.type.shape: in shape \"BadJson\" at $: descriptor is not valid JSON: invalid JSON: unexpected end of input");
	/* cycles: A -> B -> A, from the root and from inside; C -> D -> C through a list and a map */
	CHECK_STR(build("{\"fields\": {\"a\": {\"type\": {\"shape\": \"A\"}}}}", shapes, false),
			  "ERROR 22023 $.fields.a.type.shape: in shape \"A\" at $.fields.b.type.shape: in shape \"B\" at "
			  "$.fields.a.type.shape: shape \"A\" contains itself (A -> B -> A); for recursive documents "
			  "declare the field \"json\" with a \"shape\" option");
	CHECK_STR(build("{\"fields\": {\"me\": {\"type\": {\"list\": {\"shape\": \"T\"}}}}}", shapes, false),
			  "ERROR 22023 $.fields.me.type.list.shape: shape \"T\" contains itself (T -> T); for recursive "
			  "documents declare the field \"json\" with a \"shape\" option");
	CHECK_STR(build("{\"fields\": {\"c\": {\"type\": {\"shape\": \"C\"}}}}", shapes, false),
			  "ERROR 22023 $.fields.c.type.shape: in shape \"C\" at $.fields.d.type.list.shape: in shape \"D\" at "
			  "$.fields.c.type.map.shape: shape \"C\" contains itself (C -> D -> C); for recursive documents "
			  "declare the field \"json\" with a \"shape\" option");
	/* ... but a json column's shape is no containment: JsonA -json-> JsonB -> JsonA is fine */
	CHECK_STR(build("{\"fields\": {\"a\": {\"type\": {\"shape\": \"JsonA\"}}}}", shapes, true), "ok");
	CHECK_STR(build("{\"fields\": {\"a\": {\"type\": {\"shape\": \"JsonB\"}}}}", shapes, true), "ok");
	/* sd_compile's errors inside referenced shapes get descriptor paths */
	CHECK_STR(build("{\"fields\": {\"f\": {\"type\": {\"shape\": \"Fmt\"}}}}", shapes, true),
			  "ERROR 22023 $.fields.f.type: in shape \"Fmt\" at $.fields.x.format: format \"unix\" does not apply to type text");
	CHECK_STR(build("{\"fields\": {\"o\": {\"type\": {\"list\": {\"shape\": \"Outer\"}}}}}", shapes, true),
			  "ERROR 22023 $.fields.o.type: in shape \"Outer\" at $.fields.f.type: in shape \"Fmt\" at $.fields.x.format: "
			  "format \"unix\" does not apply to type text");
	CHECK_STR(build("{\"fields\": {\"m\": {\"type\": {\"map\": {\"shape\": \"Outer\"}}}}}", shapes, true),
			  "ERROR 22023 $.fields.m.type: in shape \"Outer\" at $.fields.f.type: in shape \"Fmt\" at $.fields.x.format: "
			  "format \"unix\" does not apply to type text");
	CHECK_STR(build("{\"fields\": {\"j\": {\"type\": \"json\", \"shape\": \"Fmt\"}}}", shapes, true),
			  "ERROR 22023 $.fields.j.shape: in shape \"Fmt\" at $.fields.x.format: format \"unix\" does not apply to type text");
	/* a skipped column of a shape type takes no "shape" option (it is not decoded) */
	CHECK_STR(build("{\"fields\": {\"l\": {\"type\": {\"shape\": \"Leaf\"}, \"skip\": true}, \"k\": {\"type\": \"text\"}}}", shapes, true), "ok");
	/* the host's lookup failing is passed on */
	{
		table		t = {shapes, 0, true};
		sd_descriptor_lookup lk = {table_lookup, &t};
		sd_error	err;
		const char *j = "{\"fields\": {\"x\": {\"type\": {\"shape\": \"Leaf\"}}}}";

		CHECK(sd_descriptor_build("T", j, strlen(j), &lk, NULL, &err) == NULL &&
			  err.code == SD_E_INTERNAL && strcmp(err.problem, "catalog is locked") == 0);
		CHECK(sd_descriptor_build("T", j, strlen(j), NULL, NULL, &err) == NULL &&
			  strcmp(err.problem, "shape \"Leaf\" cannot be looked up here") == 0);
	}
	/* too many shapes: S0 -> S1 -> ... -> S40 */
	{
		static char names[41][8];
		static char descs[41][96];
		const char *entries[84];

		for (int i = 0; i <= 40; i++)
		{
			snprintf(names[i], sizeof(names[i]), "S%d", i);
			if (i < 40)
				snprintf(descs[i], sizeof(descs[i]), "{\"fields\": {\"n\": {\"type\": {\"shape\": \"S%d\"}}}}", i + 1);
			else
				snprintf(descs[i], sizeof(descs[i]), "{\"fields\": {\"v\": {\"type\": \"integer\"}}}");
			entries[2 * i] = names[i];
			entries[2 * i + 1] = descs[i];
		}
		entries[82] = NULL;
		CHECK_STR(build("{\"fields\": {\"n\": {\"type\": {\"shape\": \"S0\"}}}}", entries, false),
				  "ERROR 22023 $.fields.n.type.shape: in shape \"S0\" at $.fields.n.type.shape: ...: in shape \"S30\" at "
				  "$.fields.n.type.shape: too many shapes: a descriptor may refer to at most 31 shapes, directly and indirectly");
		CHECK_STR(build("{\"fields\": {\"n\": {\"type\": {\"shape\": \"S20\"}}}}", entries, true), "ok");
		/* the most a descriptor may have: the shape and 31 more, nested 31 deep */
		CHECK_STR(build("{\"fields\": {\"n\": {\"type\": {\"shape\": \"S10\"}}}}", entries, true), "ok");
	}
}

/* ---- out of memory ----------------------------------------------------------------------- */

static long allow = -1;

static void *
lim_alloc(void *ud, size_t n)
{
	if (allow == 0)
		return NULL;
	if (allow > 0)
		allow--;
	return malloc(n);
}

static void *
lim_realloc(void *ud, void *p, size_t n)
{
	if (allow == 0)
		return NULL;
	if (allow > 0)
		allow--;
	return realloc(p, n);
}

static void
lim_free(void *ud, void *p)
{
	free(p);
}

static void
test_oom(void)
{
	static const char *const shapes[] = {
		"Addr", "{\"fields\": {\"city\": {\"type\": \"text\"}}}",
		NULL
	};
	const sd_hooks h = {lim_alloc, lim_realloc, lim_free, NULL, NULL};
	const char *json = "{\"fields\": {\"e\": {\"type\": {\"enum\": [\"b\", \"a\"]}}, \"m\": {\"type\": {\"map\": {\"shape\": \"Addr\"}}},"
		" \"l\": {\"type\": {\"list\": \"integer\"}, \"default\": [1]}}}";
	int			ok = 0,
				nomem = 0,
				other = 0;

	for (long n = 0; n < 200; n++)
	{
		table		t = {shapes, 0, false};
		sd_descriptor_lookup lk = {table_lookup, &t};
		sd_error	err;
		sd_descriptor *d;

		allow = n;
		d = sd_descriptor_build("T", json, strlen(json), &lk, &h, &err);
		allow = -1;
		if (d)
		{
			ok++;
			sd_descriptor_free(d);
		}
		else if (err.code == SD_E_NOMEM)
			nomem++;
		else
		{
			other++;
			fprintf(stderr, "oom %ld: %s\n", n, render_err(&err));
		}
	}
	CHECK(ok > 0 && nomem > 0 && other == 0);
}

/* ---- the acceptance test: Stripe, no host ------------------------------------------------- */

static char *
read_file(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	char	   *s;
	long		n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t) n + 1);
	if (fread(s, 1, (size_t) n, f) != (size_t) n)
		n = 0;
	s[n] = '\0';
	fclose(f);
	*len = (size_t) n;
	return s;
}

/* lookup over the fixture's {"Shape": descriptor, ...} */
static bool
fixture_lookup(void *ud, const char *shape, const char **json, size_t *len, sd_error *err)
{
	const sd_jnode *all = ud;
	const sd_jnode *v = sd_jget(all, shape);

	*json = v ? v->text : NULL;
	*len = v ? v->text_len : 0;
	return true;
}

static void
test_stripe(void)
{
	size_t		dlen,
				doclen,
				wantlen;
	char	   *descs = read_file("fixtures/descriptors/stripe_invoice.json", &dlen);
	char	   *doc = read_file("fixtures/json/stripe_invoice.json", &doclen);
	char	   *want = read_file("fixtures/descriptors/stripe_invoice.expected.json", &wantlen);
	sd_arena	a;
	sd_error	err;
	const sd_jnode *all,
			   *root;

	CHECK(descs && doc && want);
	if (!descs || !doc || !want)
	{
		fprintf(stderr, "unit_descriptor: run from the repository root (fixtures/ not found)\n");
		free(descs);
		free(doc);
		free(want);
		return;
	}
	while (wantlen && (want[wantlen - 1] == '\n' || want[wantlen - 1] == '\r'))
		want[--wantlen] = '\0';
	sd_arena_init(&a, NULL);
	all = sd_jparse(&a, descs, dlen, 64, &err);
	root = all ? sd_jget(all, "StripeInvoice") : NULL;
	CHECK(root != NULL);
	if (root)
	{
		sd_descriptor_lookup lk = {fixture_lookup, (void *) all};
		sd_descriptor *d = sd_descriptor_build("StripeInvoice", root->text, root->text_len, &lk, NULL, &err);
		sd_plan    *p = d ? sd_descriptor_compile(d, NULL, &err) : NULL;

		CHECK(d && p);
		if (!p)
			fprintf(stderr, "stripe: %s\n", render_err(&err));
		if (p)
		{
			sd_decoder *dec = sd_decoder_create(NULL);
			sd_jwriter *w = sd_jwriter_create(p, NULL, &err);
			uint32_t	r;
			sd_buf		b;

			sd_buf_init(&b, NULL);
			CHECK(sd_decode_json(dec, p, NULL, doc, doclen, NULL, &r, &err));
			CHECK(w && sd_jwriter_write(w, sd_plan_root(p), sd_decoder_tape(dec), r, &b));
			CHECK(b.s && b.len == wantlen && memcmp(b.s, want, wantlen) == 0);
			if (b.s && (b.len != wantlen || memcmp(b.s, want, wantlen) != 0))
			{
				FILE	   *f = fopen("test/stripe_invoice.actual.json", "wb");

				if (f)
				{
					fwrite(b.s, 1, b.len, f);
					fputc('\n', f);
					fclose(f);
				}
				fprintf(stderr, "stripe: canonical JSON differs; written to test/stripe_invoice.actual.json\n");
			}
			/* the shapes it was built from, for a host's dependency tracking */
			CHECK(sd_descriptor_nshapes(d) == 6);
			sd_buf_free(&b);
			sd_jwriter_free(w);
			sd_decoder_destroy(dec);
			sd_plan_free(p);
		}
		sd_descriptor_free(d);
	}
	sd_arena_free(&a);
	free(descs);
	free(doc);
	free(want);
}

/* ---- inline objects ({"object": {...}}) ------------------------------------------------------ */

/* The plan's serde_describe of a descriptor (into res), or the error. */
static const char *
describe(const char *json)
{
	sd_error	err;
	sd_descriptor *d = sd_descriptor_build("T", json, strlen(json), NULL, NULL, &err);
	sd_plan    *p;
	size_t		len;
	char	   *s;

	if (!d)
		return render_err(&err);
	if (!(p = sd_descriptor_compile(d, NULL, &err)))
	{
		sd_descriptor_free(d);
		return render_err(&err);
	}
	s = sd_plan_describe(p, &len);
	snprintf(res, sizeof(res), "%s", s ? s : "ERROR describe");
	free(s);
	sd_plan_free(p);
	sd_descriptor_free(d);
	return res;
}

static void
test_inline_objects(void)
{
	static const char *const shapes[] = {
		"Bad", "{\"fields\": {\"x\": {\"type\": \"float\"}}}",
		"Leaf", "{\"fields\": {\"v\": {\"type\": \"integer\"}}}",
		"HoldsBad", "{\"fields\": {\"o\": {\"type\": {\"object\": {\"fields\": {\"x\": {\"type\": \"text\", \"format\": \"unix\"}}}}}}}",
		"HoldsLeaf", "{\"fields\": {\"o\": {\"type\": {\"object\": {\"fields\": {\"l\": {\"type\": {\"shape\": \"Leaf\"}}}}}}}}",
		"Cy", "{\"fields\": {\"o\": {\"type\": {\"object\": {\"fields\": {\"back\": {\"type\": {\"shape\": \"Cy\"}}}}}}}}",
		NULL
	};
	/* three levels: an object, a list of objects in it, an object in those; a map of objects */
	const char *deep =
		"{\"optional\": true, \"fields\": {\"id\": {\"type\": \"integer\"},"
		" \"detail\": {\"type\": {\"object\": {\"rename\": \"camel\", \"fields\": {"
		"   \"build_phases\": {\"type\": {\"list\": {\"object\": {\"rename\": \"camel\", \"fields\": {"
		"       \"phase_type\": {\"type\": \"text\"}, \"duration\": {\"type\": \"real\"},"
		"       \"ctx\": {\"type\": {\"object\": {\"fields\": {\"status\": {\"type\": {\"enum\": [\"OK\", \"FAIL\"]}}}}}}}}}}},"
		"   \"started\": {\"type\": \"timestamp\", \"format\": \"unix\"}}}}},"
		" \"tags\": {\"type\": {\"map\": {\"object\": {\"optional\": true, \"fields\": {\"n\": {\"type\": \"integer\"}, \"s\": {\"type\": \"text\"}}}}}}}}";

	CHECK_STR(decode(deep, NULL,
					 "{\"id\": 7, \"detail\": {\"buildPhases\": [{\"phaseType\": \"BUILD\", \"duration\": 1.5,"
					 " \"ctx\": {\"status\": \"OK\"}}, {\"phaseType\": \"TEST\", \"duration\": 2, \"ctx\": {\"status\": \"FAIL\"}}],"
					 " \"started\": 1700000000}, \"tags\": {\"a\": {\"n\": 1}, \"b\": {\"s\": \"x\"}}}"),
			  "{\"id\":7,\"detail\":{\"build_phases\":[{\"phase_type\":\"BUILD\",\"duration\":1.5,\"ctx\":{\"status\":\"OK\"}},"
			  "{\"phase_type\":\"TEST\",\"duration\":2,\"ctx\":{\"status\":\"FAIL\"}}],\"started\":\"2023-11-14T22:13:20Z\"},"
			  "\"tags\":{\"a\":{\"n\":1,\"s\":null},\"b\":{\"n\":null,\"s\":\"x\"}}}");
	/* errors of the document: paths through the inline objects as through shapes */
	CHECK_STR(decode(deep, NULL, "{\"detail\": {\"buildPhases\": [{\"phaseType\": \"B\", \"duration\": 1, \"ctx\": {\"status\": \"MAYBE\"}}], \"started\": 1}}"),
			  "ERROR 22032 $.detail.buildPhases[0].ctx.status: unknown label \"MAYBE\" for enum T.detail.build_phases.ctx.status, expected one of: OK, FAIL");
	CHECK_STR(decode(deep, NULL, "{\"tags\": {\"a\": {\"n\": \"1\"}}}"),
			  "ERROR 22032 $.tags.a.n: expected integer, found string \"1\"");

	/* the type tree and the options: private shapes the user cannot name */
	{
		sd_error	err;
		sd_descriptor *d = sd_descriptor_build("T", deep, strlen(deep), NULL, NULL, &err);
		const sd_type *t;

		CHECK(d != NULL);
		if (d)
		{
			t = sd_descriptor_type(d);
			CHECK(t->cols[1].type->kind == SD_K_COMPOSITE && t->cols[1].type->ncols == 2);
			CHECK_STR(t->cols[1].type->name, "object");
			CHECK_STR(t->cols[1].type->cols[0].type->name, "list of object");
			CHECK(t->cols[1].type->cols[0].type->elem->cols[2].type->kind == SD_K_COMPOSITE);
			CHECK_STR(t->cols[2].type->name, "map of object");
			CHECK_STR(t->cols[2].type->elem->name, "map entry of object");
			CHECK_STR(sd_descriptor_options(d, NULL),
					  "{\"optional\": true, \"fields\": {\"detail\": {\"shape\": \"\\u0001obj:1\"}, "
					  "\"tags\": {\"shape\": \"\\u0001map:\\u0001obj:4\", \"map\": true}}}");
			/* no named shape but the root: nothing for a host to track */
			CHECK(sd_descriptor_nshapes(d) == 1);
			CHECK_STR(sd_descriptor_shape(d, 0), "T");
			CHECK(sd_descriptor_shape(d, 1) == NULL);
			sd_descriptor_free(d);
		}
	}
	/* serde_describe: an inline object is described in place (no shape name) */
	describe("{\"fields\": {\"o\": {\"type\": {\"object\": {\"unknown\": \"reject\", \"fields\": {"
			 "\"p\": {\"type\": {\"object\": {\"fields\": {\"q\": {\"type\": \"integer\"}}}}}}}}}}}");
	CHECK(strstr(res, "\"type\": \"object\", \"unknown\": \"reject\"") != NULL);
	CHECK(strstr(res, "\"column\": \"q\"") != NULL);
	CHECK(strstr(res, "\"from\": {\"unknown\": \"an inline object\"}") != NULL);
	/* the root's "shape" only */
	CHECK(strstr(res, "\\u0001") == NULL && strncmp(res, "{\"shape\": \"T\"", 13) == 0 &&
		  strstr(res + 2, "\"shape\"") == NULL);

	/* descriptor errors at descriptor paths, through the objects */
	BUILD_ERR("{\"fields\": {\"d\": {\"type\": {\"object\": 1}}}}",
			  "ERROR 22023 $.fields.d.type.object: an inline object is a descriptor: an object with \"fields\" and their \"type\"s, not a number");
	BUILD_ERR("{\"fields\": {\"d\": {\"type\": {\"object\": {}}}}}",
			  "ERROR 22023 $.fields.d.type.object.fields: missing \"fields\": a descriptor lists its fields with their types");
	BUILD_ERR("{\"fields\": {\"detail\": {\"type\": {\"object\": {\"fields\": {\"x\": {\"type\": \"float\"}}}}}}}",
			  "ERROR 22023 $.fields.detail.type.object.fields.x.type: unknown type \"float\" (expected text, integer, real, "
			  "numeric, boolean, timestamp, date, uuid, blob, json, {\"enum\": [labels]}, {\"list\": T}, {\"map\": T}, "
			  "{\"shape\": \"Name\"} or {\"object\": {\"fields\": ...}})");
	BUILD_ERR("{\"fields\": {\"a\": {\"type\": {\"object\": {\"fields\": {\"b\": {\"type\": {\"list\": {\"object\": {\"fields\": "
			  "{\"c\": {\"type\": {\"map\": {\"object\": {\"fields\": {\"e\": {\"type\": {\"enum\": []}}}}}}}}}}}}}}}}}}",
			  "ERROR 22023 $.fields.a.type.object.fields.b.type.list.object.fields.c.type.map.object.fields.e.type.enum: "
			  "an enum needs a non-empty array of labels, not an empty array");
	BUILD_ERR("{\"fields\": {\"d\": {\"type\": {\"object\": {\"fields\": {\"x\": {\"type\": \"text\"}, \"x\": {\"type\": \"text\"}}}}}}}",
			  "ERROR 22023 $.fields.d.type.object.fields.x: duplicate field \"x\"");
	BUILD_ERR("{\"fields\": {\"d\": {\"type\": {\"object\": {\"fields\": {\"x\": {\"type\": \"text\"}}}, \"list\": \"text\"}}}}",
			  "ERROR 22023 $.fields.d.type: a type object has exactly one member (enum, list, map, shape or object), not 2");
	CHECK_STR(build("{\"fields\": {\"d\": {\"type\": {\"object\": {\"fields\": {\"r\": {\"type\": {\"shape\": \"Nope\"}}}}}}}}", shapes, false),
			  "ERROR 22023 $.fields.d.type.object.fields.r.type.shape: shape \"Nope\" does not exist");
	/* compile errors (sd_compile's, through the synthesized options): the same paths */
	CHECK_STR(build("{\"fields\": {\"d\": {\"type\": {\"object\": {\"fields\": {\"x\": {\"type\": \"text\", \"format\": \"unix\"}}}}}}}", NULL, true),
			  "ERROR 22023 $.fields.d.type.object.fields.x.format: format \"unix\" does not apply to type text");
	CHECK_STR(build("{\"fields\": {\"m\": {\"type\": {\"map\": {\"object\": {\"fields\": {\"l\": {\"type\": {\"list\": {\"object\": {\"unknown\": \"maybe\", "
					"\"fields\": {\"x\": {\"type\": \"text\"}}}}}}}}}}}}}", NULL, true),
			  "ERROR 22023 $.fields.m.type.map.object.fields.l.type.list.object.unknown: must be \"ignore\" or \"reject\", not \"maybe\"");
	/* in a referenced shape: named there, at the path in it */
	CHECK_STR(build("{\"fields\": {\"h\": {\"type\": {\"shape\": \"HoldsBad\"}}}}", shapes, true),
			  "ERROR 22023 $.fields.h.type: in shape \"HoldsBad\" at $.fields.o.type.object.fields.x.format: "
			  "format \"unix\" does not apply to type text");
	CHECK_STR(build("{\"fields\": {\"o\": {\"type\": {\"object\": {\"fields\": {\"b\": {\"type\": {\"shape\": \"Bad\"}}}}}}}}", shapes, false),
			  "ERROR 22023 $.fields.o.type.object.fields.b.type.shape: in shape \"Bad\" at $.fields.x.type: unknown type \"float\" "
			  "(expected text, integer, real, numeric, boolean, timestamp, date, uuid, blob, json, {\"enum\": [labels]}, "
			  "{\"list\": T}, {\"map\": T}, {\"shape\": \"Name\"} or {\"object\": {\"fields\": ...}})");
	CHECK_STR(build("{\"fields\": {\"o\": {\"type\": {\"object\": {\"fields\": {\"h\": {\"type\": {\"shape\": \"HoldsLeaf\"}}}}}}}}", shapes, true),
			  "ok");
	/* inline -> named -> inline: each inline path folded into its named shape's */
	CHECK_STR(build("{\"fields\": {\"o\": {\"type\": {\"object\": {\"fields\": {\"h\": {\"type\": {\"list\": {\"shape\": \"HoldsBad\"}}}}}}}}}", shapes, true),
			  "ERROR 22023 $.fields.o.type.object.fields.h.type: in shape \"HoldsBad\" at $.fields.o.type.object.fields.x.format: "
			  "format \"unix\" does not apply to type text");
	/* a cycle through an inline object: the named shapes of the chain */
	CHECK_STR(build("{\"fields\": {\"c\": {\"type\": {\"shape\": \"Cy\"}}}}", shapes, false),
			  "ERROR 22023 $.fields.c.type.shape: in shape \"Cy\" at $.fields.o.type.object.fields.back.type.shape: "
			  "shape \"Cy\" contains itself (Cy -> Cy); for recursive documents declare the field \"json\" with a \"shape\" option");
	/* at most 64 inline objects in a tree */
	{
		char		big[8192];
		size_t		n = 0;

		n += (size_t) snprintf(big + n, sizeof(big) - n, "{\"fields\": {");
		for (int i = 0; i < 65; i++)
			n += (size_t) snprintf(big + n, sizeof(big) - n, "%s\"f%d\": {\"type\": {\"object\": {\"fields\": {\"x\": {\"type\": \"text\"}}}}}",
								   i ? ", " : "", i);
		snprintf(big + n, sizeof(big) - n, "}}");
		CHECK_STR(build(big, NULL, false),
				  "ERROR 22023 $.fields.f64.type.object: too many inline objects: a descriptor and the shapes it refers to may have at most 64");
		/* 64 compile */
		n = (size_t) (strstr(big, ", \"f64\"") - big);
		snprintf(big + n, sizeof(big) - n, "}}");
		CHECK_STR(build(big, NULL, true), "ok");
	}
}

void unit_descriptor(void);
void
unit_descriptor(void)
{
	test_inline_objects();
	test_types();
	test_decode();
	test_errors();
	test_references();
	test_oom();
	test_stripe();
}
