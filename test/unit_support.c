/*
 * unit_support.c — helpers for core unit tests (see unit_support.h).
 */
#include "unit_support.h"
#include "xml_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const color_labels[] = {"red", "green", "blue"};

const sd_type ut_text = {.kind = SD_K_TEXT, .name = "text", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_varchar3 = {.kind = SD_K_TEXT, .name = "character varying(3)", .max_chars = 3, .precision = -1, .scale = -1};
const sd_type ut_int2 = {.kind = SD_K_INT2, .name = "smallint", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_int4 = {.kind = SD_K_INT4, .name = "integer", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_int8 = {.kind = SD_K_INT8, .name = "bigint", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_float4 = {.kind = SD_K_FLOAT4, .name = "real", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_float8 = {.kind = SD_K_FLOAT8, .name = "double precision", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_numeric = {.kind = SD_K_NUMERIC, .name = "numeric", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_numeric_5_2 = {.kind = SD_K_NUMERIC, .name = "numeric(5,2)", .max_chars = -1, .precision = 5, .scale = 2};
const sd_type ut_bool = {.kind = SD_K_BOOL, .name = "boolean", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_tstz = {.kind = SD_K_TIMESTAMPTZ, .name = "timestamp with time zone", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_ts = {.kind = SD_K_TIMESTAMP, .name = "timestamp without time zone", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_date = {.kind = SD_K_DATE, .name = "date", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_time = {.kind = SD_K_TIME, .name = "time without time zone", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_uuid = {.kind = SD_K_UUID, .name = "uuid", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_bytea = {.kind = SD_K_BYTEA, .name = "bytea", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_json = {.kind = SD_K_JSON, .name = "json", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_jsonb = {.kind = SD_K_JSONB, .name = "jsonb", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_inet = {.kind = SD_K_OTHER, .name = "inet", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_xml = {.kind = SD_K_OTHER, .name = "xml", .max_chars = -1, .precision = -1, .scale = -1};
const sd_type ut_color = {.kind = SD_K_ENUM, .name = "color", .max_chars = -1, .precision = -1, .scale = -1,
.nlabels = 3, .labels = color_labels};
const sd_type ut_int4_array = {.kind = SD_K_ARRAY, .name = "integer[]", .max_chars = -1, .precision = -1, .scale = -1,
.elem = &ut_int4};

static const sd_type *made[256];
static int nmade;

const sd_type *
ut_array_of(const sd_type *elem)
{
	sd_type    *t = calloc(1, sizeof(sd_type));
	char	   *name = malloc(strlen(elem->name) + 3);

	sprintf(name, "%s[]", elem->name);
	t->kind = SD_K_ARRAY;
	t->name = name;
	t->max_chars = -1;
	t->precision = t->scale = -1;
	t->elem = elem;
	return t;
}

static const sd_type *
lookup(const char *name)
{
	static const sd_type *const builtin[] = {&ut_text, &ut_int2, &ut_int4, &ut_int8, &ut_float4,
		&ut_float8, &ut_numeric, &ut_numeric_5_2, &ut_bool, &ut_tstz, &ut_ts, &ut_date, &ut_time,
	&ut_uuid, &ut_bytea, &ut_json, &ut_jsonb, &ut_varchar3, &ut_color, &ut_int4_array, &ut_inet, &ut_xml};
	static const char *const names[] = {"text", "int2", "int4", "int8", "float4", "float8",
		"numeric", "numeric(5,2)", "bool", "timestamptz", "timestamp", "date", "time", "uuid",
	"bytea", "json", "jsonb", "varchar(3)", "color", "int4[]", "inet", "xml"};
	size_t		n = strlen(name);

	if (n > 2 && strcmp(name + n - 2, "[]") == 0)
	{
		char		inner[128];

		snprintf(inner, sizeof(inner), "%.*s", (int) (n - 2), name);
		if (strcmp(inner, "int4") == 0)
			return &ut_int4_array;
		return ut_array_of(lookup(inner));
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i], name) == 0)
			return builtin[i];
	for (int i = 0; i < nmade; i++)
		if (strcmp(made[i]->name, name) == 0)
			return made[i];

	int			a,
				b;
	char		tail;

	/* varchar(n), numeric(p,s): made on first use, found by their SQL names afterwards */
	if (sscanf(name, "varchar(%d%c", &a, &tail) == 2 && tail == ')' && a > 0)
	{
		sd_type    *t = calloc(1, sizeof(sd_type));
		char	   *sqlname = malloc(48);

		snprintf(sqlname, 48, "character varying(%d)", a);
		for (int i = 0; i < nmade; i++)
			if (strcmp(made[i]->name, sqlname) == 0)
				return free(t), free(sqlname), made[i];
		*t = (sd_type) {.kind = SD_K_TEXT, .name = sqlname, .max_chars = a, .precision = -1, .scale = -1};
		if (nmade < (int) (sizeof(made) / sizeof(made[0])))
			made[nmade++] = t;
		return t;
	}
	if (sscanf(name, "numeric(%d,%d%c", &a, &b, &tail) == 3 && tail == ')' && a > 0)
	{
		sd_type    *t = calloc(1, sizeof(sd_type));
		char	   *sqlname = malloc(48);

		snprintf(sqlname, 48, "numeric(%d,%d)", a, b);
		for (int i = 0; i < nmade; i++)
			if (strcmp(made[i]->name, sqlname) == 0)
				return free(t), free(sqlname), made[i];
		*t = (sd_type) {.kind = SD_K_NUMERIC, .name = sqlname, .max_chars = -1, .precision = (int16_t) a,
		.scale = (int16_t) b};
		if (nmade < (int) (sizeof(made) / sizeof(made[0])))
			made[nmade++] = t;
		return t;
	}
	fprintf(stderr, "unit_support: unknown type %s\n", name);
	abort();
}

const sd_type *
ut_type(const char *name)
{
	return lookup(name);
}

const sd_type *
ut_composite(const char *name, const char *cols)
{
	sd_type    *t = calloc(1, sizeof(sd_type));
	sd_column  *c = calloc(64, sizeof(sd_column));
	char	   *spec = strdup(cols);
	int			n = 0;

	for (char *save = NULL, *tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *colon = strchr(tok, ':');

		/* numeric(5,2) contains a comma: glue it back */
		if (colon && strcmp(colon + 1, "numeric(5") == 0)
		{
			strtok_r(NULL, ",", &save);
			colon[1] = '\0';
			c[n].type = &ut_numeric_5_2;
		}
		else if (colon && strncmp(colon + 1, "numeric(", 8) == 0 && !strchr(colon, ')'))
		{
			char		glued[64];
			const char *scale = strtok_r(NULL, ",", &save);

			snprintf(glued, sizeof(glued), "%s,%s", colon + 1, scale ? scale : "");
			c[n].type = lookup(glued);
		}
		*colon = '\0';
		c[n].name = strdup(tok);
		if (!c[n].type)
			c[n].type = lookup(colon + 1);
		n++;
	}
	t->kind = SD_K_COMPOSITE;
	t->name = strdup(name);
	t->max_chars = -1;
	t->precision = t->scale = -1;
	t->ncols = n;
	t->cols = c;
	free(spec);
	if (nmade < (int) (sizeof(made) / sizeof(made[0])))
		made[nmade++] = t;
	return t;
}

const sd_type *
ut_enum(const char *name, const char *labels)
{
	sd_type    *t = calloc(1, sizeof(sd_type));
	const char **l = calloc(256, sizeof(char *));
	char	   *spec = strdup(labels);
	int			n = 0;

	for (char *save = NULL, *tok = strtok_r(spec, ",", &save); tok && n < 256;
		 tok = strtok_r(NULL, ",", &save))
		l[n++] = strdup(tok);
	free(spec);
	*t = (sd_type) {.kind = SD_K_ENUM, .name = strdup(name), .max_chars = -1, .precision = -1,
	.scale = -1, .nlabels = n, .labels = l};
	if (nmade < (int) (sizeof(made) / sizeof(made[0])))
		made[nmade++] = t;
	return t;
}

/* ---- rendering ---------------------------------------------------------------------------- */

static char out[8192];
static size_t outlen;

static void
put(const char *s)
{
	size_t		n = strlen(s);

	if (outlen + n + 1 < sizeof(out))
	{
		memcpy(out + outlen, s, n + 1);
		outlen += n;
	}
}

static void
render(const sd_plan *plan, const sd_val *tape, const sd_val *v, const sd_node *node)
{
	char		buf[256];

	switch (v->tag)
	{
		case SD_V_NULL: put("null"); return;
		case SD_V_DEFAULT:
			snprintf(buf, sizeof(buf), "default(%s)", sd_plan_default(plan, (int) v->len)->default_json);
			put(buf);
			return;
		case SD_V_BOOL: put(v->u.b ? "true" : "false"); return;
		case SD_V_INT: snprintf(buf, sizeof(buf), "%lld", (long long) v->u.i); break;
		case SD_V_FLOAT: snprintf(buf, sizeof(buf), "%.17g", v->u.f); break;
		case SD_V_STR: snprintf(buf, sizeof(buf), "'%.*s'", (int) v->len, v->u.s); break;
		case SD_V_NUMERIC: snprintf(buf, sizeof(buf), "N%.*s", (int) v->len, v->u.s); break;
		case SD_V_DECIMAL: buf[0] = 'N'; sd_format_decimal(buf + 1, v->u.i, v->len); break;
		case SD_V_TIMESTAMP: snprintf(buf, sizeof(buf), "T%lld", (long long) v->u.i); break;
		case SD_V_DATE: snprintf(buf, sizeof(buf), "D%lld", (long long) v->u.i); break;
		case SD_V_TIME: snprintf(buf, sizeof(buf), "t%lld", (long long) v->u.i); break;
		case SD_V_ENUM: snprintf(buf, sizeof(buf), "E%lld", (long long) v->u.i); break;
		case SD_V_JSON: snprintf(buf, sizeof(buf), "J%.*s", (int) v->len, v->u.s); break;
		case SD_V_UUID:
		case SD_V_BYTES:
			{
				size_t		o = 0;

				buf[o++] = 'x';
				for (uint32_t i = 0; i < v->len && o < sizeof(buf) - 3; i++)
					o += (size_t) snprintf(buf + o, 3, "%02x", v->u.bytes[i]);
				buf[o] = '\0';
				break;
			}
		case SD_V_ARRAY:
			put("[");
			for (uint32_t i = 0; i < v->len; i++)
			{
				if (i)
					put(",");
				render(plan, tape, &tape[v->u.first + i], node ? node->elem : NULL);
			}
			put("]");
			return;
		case SD_V_ROW:
			put("{");
			for (uint32_t i = 0; i < v->len; i++)
			{
				if (i)
					put(",");
				if (node && node->kind == SD_K_COMPOSITE)
				{
					put(node->fields[i].column);
					put(":");
				}
				render(plan, tape, &tape[v->u.first + i],
					   node && node->kind == SD_K_COMPOSITE ? node->fields[i].node : NULL);
			}
			put("}");
			return;
		default:
			snprintf(buf, sizeof(buf), "?%d", v->tag);
	}
	put(buf);
}


static sd_decoder *dec;

/* ---- jsonb events ------------------------------------------------------------------------- */

/* Events of one value, compactly: { } [ ] for containers, K'key', S'str', N<literal>, T F Z. */
static void
render_events(const sd_jev *ev)
{
	char		buf[256];
	int			depth = 0;

	do
	{
		switch (ev->kind)
		{
			case SD_JEV_OBJECT: put("{"); depth++; break;
			case SD_JEV_ARRAY: put("["); depth++; break;
			case SD_JEV_END: put(")"); depth--; break;
			case SD_JEV_KEY:
				snprintf(buf, sizeof(buf), "K'%.*s'", (int) ev->len, ev->s);
				put(buf);
				break;
			case SD_JEV_STRING:
				snprintf(buf, sizeof(buf), "S'%.*s'", (int) ev->len, ev->s);
				put(buf);
				break;
			case SD_JEV_NUMBER:
				snprintf(buf, sizeof(buf), "N%.*s", (int) ev->len, ev->s);
				put(buf);
				break;
			case SD_JEV_TRUE: put("T"); break;
			case SD_JEV_FALSE: put("F"); break;
			case SD_JEV_NULL: put("Z"); break;
			default: put("?"); return;
		}
		if (depth > 0)
			put(" ");
		ev++;
	} while (depth > 0);
}

/* The SD_V_JSON values under v, depth first: their events, or "none". */
static void
collect_events(const sd_val *tape, const sd_val *v, bool *any)
{
	if (v->tag == SD_V_ARRAY || v->tag == SD_V_ROW)
	{
		for (uint32_t i = 0; i < v->len; i++)
			collect_events(tape, &tape[v->u.first + i], any);
		return;
	}
	if (v->tag != SD_V_JSON)
		return;
	if (*any)
		put(" | ");
	*any = true;
	if (v->aux == 0)
		put("none");
	else
		render_events(sd_decoder_events(dec) + (v->aux - 1));
}


static const char *
render_error(const sd_error *err)
{
	snprintf(out, sizeof(out), "ERROR %s %s: %s", sd_code_sqlstate(err->code), err->path, err->problem);
	if (err->offset >= 0)
	{
		size_t		n = strlen(out);

		snprintf(out + n, sizeof(out) - n, " @%lld", (long long) err->offset);
	}
	return out;
}

const char *
ut_compile(const sd_type *t, const char *options)
{
	sd_error	err;
	sd_plan    *plan = sd_compile("T", options, strlen(options), t, NULL, NULL, &err);

	if (!plan)
		return render_error(&err);
	sd_plan_free(plan);
	return "ok";
}

/* Compiles and decodes: NULL with *plan (to free) and *root, or the rendered error. */
static const char *
compile_decode(const sd_type *t, const char *options, const char *doc, sd_plan **plan,
			   uint32_t *root)
{
	sd_error	err;

	*plan = sd_compile("T", options, strlen(options), t, NULL, NULL, &err);
	if (!*plan)
		return render_error(&err);
	if (!dec)
		dec = sd_decoder_create(NULL);
	if (!sd_decode_json(dec, *plan, NULL, doc, strlen(doc), NULL, root, &err))
	{
		sd_plan_free(*plan);
		return render_error(&err);
	}
	outlen = 0;
	out[0] = '\0';
	return NULL;
}

const char *
ut_decode(const sd_type *t, const char *options, const char *doc)
{
	sd_plan    *plan;
	uint32_t	root;
	const char *e = compile_decode(t, options, doc, &plan, &root);

	if (e)
		return e;
	render(plan, sd_decoder_tape(dec), &sd_decoder_tape(dec)[root], sd_plan_root(plan));
	sd_plan_free(plan);
	return out;
}

/* Every SD_V_JSON value of the result (depth first): its events, or "none". */
const char *
ut_decode_events(const sd_type *t, const char *options, const char *doc)
{
	sd_plan    *plan;
	uint32_t	root;
	bool		any = false;
	const char *e = compile_decode(t, options, doc, &plan, &root);

	if (e)
		return e;
	collect_events(sd_decoder_tape(dec), &sd_decoder_tape(dec)[root], &any);
	sd_plan_free(plan);
	return out;
}

const char *
ut_decode_with(const sd_plan *plan, const char *doc)
{
	sd_error	err;
	uint32_t	root;

	if (!dec)
		dec = sd_decoder_create(NULL);
	if (!sd_decode_json(dec, plan, NULL, doc, strlen(doc), NULL, &root, &err))
		return render_error(&err);
	outlen = 0;
	out[0] = '\0';
	render(plan, sd_decoder_tape(dec), &sd_decoder_tape(dec)[root], sd_plan_root(plan));
	return out;
}

/* An XML document through the one rule engine (xml_decode.c, engine.c) with a compiled plan: the
 * row, or the error with its line:column. */
const char *
ut_decode_xml_with(const sd_plan *plan, const char *doc)
{
	sd_error	err;
	uint32_t	root;

	if (!dec)
		dec = sd_decoder_create(NULL);
	if (!sd_decode_xml(dec, plan, NULL, doc, strlen(doc), NULL, &root, &err))
	{
		render_error(&err);
		size_t		n = strlen(out);

		snprintf(out + n, sizeof(out) - n, " %u:%u", err.line, err.column);
		return out;
	}
	outlen = 0;
	out[0] = '\0';
	render(plan, sd_decoder_tape(dec), &sd_decoder_tape(dec)[root], sd_plan_root(plan));
	return out;
}

/* The same, compiling options for t first. */
const char *
ut_decode_xml(const sd_type *t, const char *options, const char *doc)
{
	sd_error	err;
	sd_plan    *plan = sd_compile("T", options, strlen(options), t, NULL, NULL, &err);
	const char *r;

	if (!plan)
		return render_error(&err);
	r = ut_decode_xml_with(plan, doc);
	sd_plan_free(plan);
	return r;
}

const char *
ut_check_with(const sd_plan *plan, const char *doc)
{
	static char all[8192];
	sd_error	errs[16];
	int			n;
	size_t		o = 0;

	if (!dec)
		dec = sd_decoder_create(NULL);
	n = sd_check_json(dec, plan, NULL, doc, strlen(doc), NULL, errs, 16, NULL);
	if (n == 0)
		return "ok";
	all[0] = '\0';
	for (int i = 0; i < n && o < sizeof(all) - 1; i++)
	{
		o += (size_t) snprintf(all + o, sizeof(all) - o, "%s%s", i ? " | " : "", render_error(&errs[i]));
		if (o >= sizeof(all))
			o = sizeof(all) - 1;
	}
	return all;
}

void ut_support_cleanup(void);
void
ut_support_cleanup(void)
{
	sd_decoder_destroy(dec);
	dec = NULL;
}

bool
ut_resolve(void *ud, const char *shape, const char **options_json, const sd_type **target,
		   sd_error *err)
{
	const ut_shapedef *shapes = ud;

	for (int i = 0; i < UT_SHAPES && shapes[i].name; i++)
		if (strcmp(shapes[i].name, shape) == 0)
		{
			*options_json = shapes[i].opts;
			*target = shapes[i].type;
			return true;
		}
	return sd_error_set(err, SD_E_OPTIONS, -1, "shape \"%s\" does not exist", shape);
}
