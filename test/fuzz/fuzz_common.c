/*
 * fuzz_common.c — fixed types, shapes, resolver and tape checks for the fuzz targets
 * (see fuzz_common.h).
 */
#include "fuzz_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "scalar.h"
#include "unit_support.h"

void
fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list		ap;

	fprintf(stderr, "\n==== fuzz invariant violated at %s:%d: %s\n     ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	fflush(stderr);
	abort();
}

/* ---- buffers ------------------------------------------------------------------------------- */

void
fz_put(fz_buf *b, const void *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
	{
		size_t		cap = b->cap ? b->cap : 256;

		while (cap < b->len + n + 1)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void
fz_printf(fz_buf *b, const char *fmt, ...)
{
	char		tmp[1024];
	va_list		ap;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	fz_put(b, tmp, (size_t) n < sizeof(tmp) ? (size_t) n : sizeof(tmp) - 1);
}

void
fz_reset(fz_buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

void
fz_free(fz_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* ---- types and shapes ---------------------------------------------------------------------- */

const char *const FZ_OPTS_FLAT_STRICT =
	"{\"fields\": {\"tu\": {\"format\": \"unix\"}, \"tms\": {\"format\": \"unix_ms\"},"
	" \"bh\": {\"format\": \"hex\"}, \"bu\": {\"format\": \"base64url\"}}}";

const char *const FZ_OPTS_FLAT_LOOSE =
	"{\"optional\": true, \"coerce\": true, \"unknown\": \"reject\", \"fields\": {"
	" \"tu\": {\"format\": \"unix\"}, \"tms\": {\"format\": \"unix_ms\"},"
	" \"bh\": {\"format\": \"hex\"}, \"bu\": {\"format\": \"base64url\"},"
	" \"s\": {\"default\": 7}, \"t\": {\"nullable\": false}, \"d\": {\"default\": \"2024-02-29\"},"
	" \"ip\": {\"skip\": true}, \"n52\": {\"default\": -999.99}, \"e\": {\"default\": \"blue\"},"
	" \"jb\": {\"default\": {\"a\": [1, {}]}}, \"f\": {\"name\": \"float\"},"
	" \"a\": {\"default\": [1, 2, 3]}, \"by\": {\"default\": \"QUJD\"}}}";

const char *const FZ_OPTS_DOC =
	"{\"optional\": true, \"extra\": \"meta\", \"rename\": \"camel\", \"fields\": {"
	" \"labels\": {\"map\": true}, \"things\": {\"map\": true},"
	" \"pay\": {\"shape\": \"Payment\"}, \"pays\": {\"shape\": \"Payment\"},"
	" \"head_sha\": {\"path\": [\"head\", \"sha\"], \"optional\": false, \"nullable\": false},"
	" \"head_n\": {\"path\": [\"head\", \"repo\", \"n\"]},"
	" \"tree\": {\"shape\": \"Node\"}, \"tree_b\": {\"shape\": \"Node\"},"
	" \"opt\": {\"default\": 1.5}, \"id\": {\"nullable\": false},"
	" \"first_name\": {\"name\": \"first name\"}}}";

const char *const FZ_OPTS_PAYMENT_ROOT =
	"{\"tag\": \"type\", \"variants\": {\"card\": \"card\", \"bank_transfer\": \"bank\"},"
	" \"unknown\": \"reject\", \"fields\": {\"bank\": {\"shape\": \"Bank\"}}}";

static const char *const OPTS_PAYMENT =
	"{\"tag\": \"type\", \"variants\": {\"card\": \"card\", \"bank_transfer\": \"bank\"},"
	" \"fields\": {\"bank\": {\"shape\": \"Bank\"}}}";
static const char *const OPTS_BANK = "{\"fields\": {\"bic\": {\"optional\": true}}}";
static const char *const OPTS_NODE = "{\"optional\": true, \"fields\": {\"kids\": {\"shape\": \"Node\"}}}";
static const char *const OPTS_ITEM = "{\"unknown\": \"reject\", \"fields\": {\"c\": {\"default\": \"none\"}}}";

static fz_types types;
const fz_types *
fz_get_types(void)
{
	if (types.flat)
		return &types;
	types.flat = ut_composite("flat",
							  "t:text,v3:varchar(3),s:int2,i:int4,l:int8,r:float4,f:float8,n:numeric,"
							  "n52:numeric(5,2),b:bool,tz:timestamptz,ts:timestamp,d:date,tm:time,"
							  "u:uuid,by:bytea,e:color,j:json,jb:jsonb,a:int4[],ip:inet,"
							  "tu:timestamptz,tms:timestamp,bh:bytea,bu:bytea,fa:float8[]");
	types.item = ut_composite("item", "b:int4,c:text");
	types.item_array = ut_array_of(types.item);
	ut_composite("kv", "key:text,value:int8");
	ut_composite("kvs", "key:text,value:item");
	ut_composite("card", "last4:text,exp:int2");
	types.bank = ut_composite("bank", "iban:text,bic:text");
	types.payment = ut_composite("payment", "id:text,amount:int8,card:card,bank:bank");
	types.node = ut_composite("node", "name:text,kids:json");
	ut_composite("inner", "n:int4,s:text,deep:item[]");
	types.doc = ut_composite("doc",
							 "id:int8,items:item[],grid:int4[][],labels:kv[],things:kvs[],pay:payment,"
							 "pays:payment[],head_sha:text,head_n:int4,tree:json,tree_b:jsonb,"
							 "inner:inner,opt:float8,first_name:text,meta:jsonb");
	return &types;
}

static bool
resolve(void *ud, const char *shape, const char **options_json, const sd_type **target,
		sd_error *err)
{
	fz_resolver_state *st = ud;
	const fz_types *t = fz_get_types();

	if (strcmp(shape, "Payment") == 0)
		*options_json = OPTS_PAYMENT, *target = t->payment;
	else if (strcmp(shape, "Bank") == 0)
		*options_json = OPTS_BANK, *target = t->bank;
	else if (strcmp(shape, "Node") == 0)
		*options_json = OPTS_NODE, *target = t->node;
	else if (strcmp(shape, "Item") == 0)
		*options_json = OPTS_ITEM, *target = t->item;
	else if (strcmp(shape, "Flat") == 0)
		*options_json = FZ_OPTS_FLAT_LOOSE, *target = t->flat;
	else if (strcmp(shape, "Self") == 0 && st && st->self_options)
		*options_json = st->self_options, *target = st->self_target;
	else
	{
		snprintf(err->problem, sizeof(err->problem), "shape \"%.100s\" does not exist", shape);
		err->code = SD_E_OPTIONS;
		return false;
	}
	return true;
}

sd_resolver
fz_resolver(fz_resolver_state *st)
{
	return (sd_resolver) {resolve, st};
}

/* ---- checks ---------------------------------------------------------------------------------- */

bool
fz_valid_utf8(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *) str;
	size_t		i = 0;

	while (i < len)
	{
		unsigned char c = s[i];
		uint32_t	cp;
		int			n;

		if (c < 0x80)
		{
			i++;
			continue;
		}
		else if ((c & 0xE0) == 0xC0)
			n = 1, cp = c & 0x1F;
		else if ((c & 0xF0) == 0xE0)
			n = 2, cp = c & 0x0F;
		else if ((c & 0xF8) == 0xF0)
			n = 3, cp = c & 0x07;
		else
			return false;
		if (len - i - 1 < (size_t) n)
			return false;	/* fewer than n continuation bytes left */
		for (int k = 1; k <= n; k++)
		{
			if ((s[i + k] & 0xC0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
			cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += (size_t) n + 1;
	}
	return true;
}

static void
render_bytes(fz_buf *out, const void *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
	{
		char		two[2] = {hex[s[i] >> 4], hex[s[i] & 15]};

		fz_put(out, two, 2);
	}
}

static const char *
kind_name(sd_kind k)
{
	static const char *const names[] = {"text", "int2", "int4", "int8", "float4", "float8",
		"numeric", "bool", "timestamptz", "timestamp", "date", "time", "uuid", "bytea", "enum",
	"json", "jsonb", "array", "composite", "other"};

	return (unsigned) k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

typedef struct walkctx
{
	const sd_plan *plan;
	const sd_val *tape;
	uint32_t	tape_len;
	size_t		doclen;
	fz_buf	   *out;
	const sd_jev *jev;
	uint32_t	jev_len;
} walkctx;

/* (the fuzz targets' depth limits are far below) */
#define FZ_EVENT_DEPTH 1024

/* The values in valid JSON text: containers, scalars, strings that are not keys. */
static uint64_t
count_values(const char *s, size_t n)
{
	uint64_t	c = 0;

	for (size_t i = 0; i < n; i++)
	{
		char		ch = s[i];

		if (ch == '{' || ch == '[')
			c++;
		else if (ch == '"')
		{
			size_t		j = i + 1;
			size_t		k;

			while (j < n && s[j] != '"')
				j += s[j] == '\\' ? 2 : 1;
			for (k = j + 1; k < n && strchr(" \n\r\t", s[k]) && s[k]; k++)
				;
			if (!(k < n && s[k] == ':'))
				c++;
			i = j;
		}
		else if (ch == '-' || (ch >= '0' && ch <= '9') || ch == 't' || ch == 'f' || ch == 'n')
		{
			c++;
			while (i + 1 < n && !strchr(",]} \n\r\t", s[i + 1]))
				i++;
		}
	}
	return c;
}

/*
 * The events of one jsonb value (sd_decoder_events): in range, one value (a scalar, or a
 * container with balanced ends), keys only as object members each followed by a value, numbers
 * valid JSON number literals, strings and keys without NUL (jsonb cannot hold \u0000), and as
 * many values as the value's JSON text holds (count_values).
 */
static void
check_events(const walkctx *w, const sd_val *v)
{
	uint32_t	i = v->aux - 1;
	int			depth = 0;
	bool		in_object[FZ_EVENT_DEPTH + 1];
	bool		want_value = false;
	uint64_t	values = 0;

	do
	{
		const sd_jev *e;

		FZ_ASSERT(i < w->jev_len, "event %u past the %u events", i, w->jev_len);
		e = &w->jev[i++];
		if (depth > 0 && in_object[depth] && !want_value)
		{
			FZ_ASSERT(e->kind == SD_JEV_KEY || e->kind == SD_JEV_END,
					  "object member without a key (event kind %u)", e->kind);
			if (e->kind == SD_JEV_KEY)
			{
				FZ_ASSERT(e->s != NULL || e->len == 0, "key without bytes");
				FZ_ASSERT(e->len == 0 || memchr(e->s, 0, e->len) == NULL, "NUL in a jsonb key");
				want_value = true;
				continue;
			}
		}
		FZ_ASSERT(e->kind != SD_JEV_KEY, "key outside an object");
		if (e->kind == SD_JEV_END)
		{
			FZ_ASSERT(depth > 0 && !want_value, "unbalanced end");
			depth--;
			continue;
		}
		want_value = false;
		values++;
		switch (e->kind)
		{
			case SD_JEV_OBJECT:
			case SD_JEV_ARRAY:
				FZ_ASSERT(depth < FZ_EVENT_DEPTH, "events nest %d deep", depth);
				in_object[++depth] = e->kind == SD_JEV_OBJECT;
				break;
			case SD_JEV_NUMBER:
				FZ_ASSERT(e->s && sd_is_json_number(e->s, e->len), "number event %.*s",
						  (int) e->len, e->s ? e->s : "");
				break;
			case SD_JEV_STRING:
				FZ_ASSERT(e->len == 0 || memchr(e->s, 0, e->len) == NULL, "NUL in a jsonb string");
				break;
			case SD_JEV_TRUE:
			case SD_JEV_FALSE:
			case SD_JEV_NULL:
				break;
			default:
				FZ_ASSERT(false, "event kind %u", e->kind);
		}
	} while (depth > 0);
	FZ_ASSERT(values == count_values(v->u.s, v->len), "%llu events for %llu values",
			  (unsigned long long) values, (unsigned long long) count_values(v->u.s, v->len));
}

static void
walk(walkctx *w, uint32_t idx, const sd_node *n, int depth)
{
	const sd_val *v;
	char		tmp[64];

	FZ_ASSERT(idx < w->tape_len, "tape index %u out of range (tape length %u)", idx, w->tape_len);
	FZ_ASSERT(depth < 100000, "tape nesting %d", depth);
	v = &w->tape[idx];
	FZ_ASSERT(v->offset <= w->doclen, "value offset %u beyond the document (%zu bytes)", v->offset,
			  w->doclen);
	if (w->out)
		fz_printf(w->out, "@%u", v->offset);

	if (v->tag == SD_V_NULL)
	{
		if (w->out)
			fz_put(w->out, "null", 4);
		return;
	}
	if (v->tag == SD_V_DEFAULT)
	{
		FZ_ASSERT((int) v->len < sd_plan_ndefaults(w->plan), "default index %u of %d", v->len,
				  sd_plan_ndefaults(w->plan));
		FZ_ASSERT(sd_plan_default(w->plan, (int) v->len) != NULL, "default %u missing", v->len);
		if (w->out)
			fz_printf(w->out, "default(%u)", v->len);
		return;
	}
	if (!n)
		FZ_ASSERT(0, "no node for tag %d", v->tag);

	switch (n->kind)
	{
		case SD_K_TEXT:
		case SD_K_OTHER:
			FZ_ASSERT(v->tag == SD_V_STR, "%s value with tag %d", kind_name(n->kind), v->tag);
			FZ_ASSERT(v->len == 0 || v->u.s, "NULL string of length %u", v->len);
			FZ_ASSERT(fz_valid_utf8(v->u.s, v->len), "string is not valid UTF-8");
			if (n->kind == SD_K_TEXT && n->type->max_chars >= 0)
				FZ_ASSERT(sd_utf8_chars(v->u.s, v->len) <= (size_t) n->type->max_chars,
						  "string of %zu characters in %s", sd_utf8_chars(v->u.s, v->len),
						  n->type->name);
			if (w->out)
			{
				fz_put(w->out, "S", 1);
				render_bytes(w->out, v->u.s, v->len);
			}
			break;
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
			{
				int64_t		lo = n->kind == SD_K_INT2 ? INT16_MIN : n->kind == SD_K_INT4 ? INT32_MIN : INT64_MIN;
				int64_t		hi = n->kind == SD_K_INT2 ? INT16_MAX : n->kind == SD_K_INT4 ? INT32_MAX : INT64_MAX;

				FZ_ASSERT(v->tag == SD_V_INT, "%s value with tag %d", kind_name(n->kind), v->tag);
				FZ_ASSERT(v->u.i >= lo && v->u.i <= hi, "%lld out of range for %s",
						  (long long) v->u.i, kind_name(n->kind));
				if (w->out)
					fz_printf(w->out, "I%lld", (long long) v->u.i);
				break;
			}
		case SD_K_FLOAT4:
		case SD_K_FLOAT8:
			FZ_ASSERT(v->tag == SD_V_FLOAT, "%s value with tag %d", kind_name(n->kind), v->tag);
			FZ_ASSERT(isfinite(v->u.f), "non-finite float %g", v->u.f);
			if (n->kind == SD_K_FLOAT4)
				FZ_ASSERT((double) (float) v->u.f == v->u.f, "float4 value %.17g is not a float",
						  v->u.f);
			if (w->out)
			{
				memcpy(tmp, &v->u.f, sizeof(double));
				fz_put(w->out, "F", 1);
				render_bytes(w->out, tmp, sizeof(double));
			}
			break;
		case SD_K_NUMERIC:
			if (v->tag == SD_V_DECIMAL)
			{
				char		lit[SD_FMT_TIMESTAMP_MAX];
				size_t		ll = sd_format_decimal(lit, v->u.i, v->len);
				char		problem[SD_PROBLEM_MAX];

				FZ_ASSERT((v->len & SD_DECIMAL_SCALE) <= 18 && v->u.i > -1000000000000000000LL &&
						  v->u.i < 1000000000000000000LL && sd_is_json_number(lit, ll),
						  "decimal value %lld/%u malformed", (long long) v->u.i, v->len);
				FZ_ASSERT(sd_check_numeric(lit, ll, n->type->precision, n->type->scale, problem) == SD_OK,
						  "decimal value %s does not fit %s", lit, n->type->name);
				if (w->out)
					fz_printf(w->out, "N%s", lit);
				break;
			}
			FZ_ASSERT(v->tag == SD_V_NUMERIC, "numeric value with tag %d", v->tag);
			FZ_ASSERT(v->len > 0 && v->u.s && sd_is_json_number(v->u.s, v->len),
					  "numeric value \"%.*s\" is not a JSON number", (int) v->len, v->u.s ? v->u.s : "");
			if (n->type->precision >= 0)
			{
				char		problem[SD_PROBLEM_MAX];

				FZ_ASSERT(sd_check_numeric(v->u.s, v->len, n->type->precision, n->type->scale,
										   problem) == SD_OK,
						  "numeric value \"%.*s\" does not fit %s", (int) v->len, v->u.s, n->type->name);
			}
			if (w->out)
				fz_printf(w->out, "N%.*s", (int) v->len, v->u.s);
			break;
		case SD_K_BOOL:
			FZ_ASSERT(v->tag == SD_V_BOOL, "bool value with tag %d", v->tag);
			if (w->out)
				fz_put(w->out, v->u.b ? "T" : "F", 1);
			break;
		case SD_K_TIMESTAMPTZ:
		case SD_K_TIMESTAMP:
			/* 0001-01-01 .. 9999-12-31 (+- a day for offsets), in microseconds */
			FZ_ASSERT(v->tag == SD_V_TIMESTAMP, "timestamp value with tag %d", v->tag);
			FZ_ASSERT(v->u.i >= (-62135596800LL - 86400) * 1000000LL &&
					  v->u.i <= (253402300800LL + 86400) * 1000000LL,
					  "timestamp %lld out of range", (long long) v->u.i);
			if (w->out)
				fz_printf(w->out, "TS%lld", (long long) v->u.i);
			break;
		case SD_K_DATE:
			FZ_ASSERT(v->tag == SD_V_DATE, "date value with tag %d", v->tag);
			FZ_ASSERT(v->u.i >= -719162 && v->u.i <= 2932896, "date %lld out of range",
					  (long long) v->u.i);
			if (w->out)
				fz_printf(w->out, "D%lld", (long long) v->u.i);
			break;
		case SD_K_TIME:
			FZ_ASSERT(v->tag == SD_V_TIME, "time value with tag %d", v->tag);
			FZ_ASSERT(v->u.i >= 0 && v->u.i <= 86400LL * 1000000LL, "time %lld out of range",
					  (long long) v->u.i);
			if (w->out)
				fz_printf(w->out, "TM%lld", (long long) v->u.i);
			break;
		case SD_K_UUID:
			FZ_ASSERT(v->tag == SD_V_UUID && v->len == 16 && v->u.bytes, "uuid value tag %d len %u",
					  v->tag, v->len);
			if (w->out)
			{
				fz_put(w->out, "U", 1);
				render_bytes(w->out, v->u.bytes, 16);
			}
			break;
		case SD_K_BYTEA:
			FZ_ASSERT(v->tag == SD_V_BYTES, "bytea value with tag %d", v->tag);
			FZ_ASSERT(v->len == 0 || v->u.bytes, "NULL bytes of length %u", v->len);
			if (w->out)
			{
				fz_put(w->out, "B", 1);
				render_bytes(w->out, v->u.bytes, v->len);
			}
			break;
		case SD_K_ENUM:
			FZ_ASSERT(v->tag == SD_V_ENUM, "enum value with tag %d", v->tag);
			FZ_ASSERT(v->u.i >= 0 && v->u.i < n->type->nlabels, "enum index %lld of %d labels",
					  (long long) v->u.i, n->type->nlabels);
			if (w->out)
				fz_printf(w->out, "E%lld", (long long) v->u.i);
			break;
		case SD_K_JSON:
		case SD_K_JSONB:
			{
				sd_error	err;

				FZ_ASSERT(v->tag == SD_V_JSON, "json value with tag %d", v->tag);
				FZ_ASSERT(v->len > 0 && v->u.s, "empty json value");
				FZ_ASSERT(sd_json_validate(NULL, v->u.s, v->len, &err),
						  "json value is not valid JSON (%s at %lld): %.*s", err.problem,
						  (long long) err.offset, (int) (v->len > 200 ? 200 : v->len), v->u.s);
				FZ_ASSERT(v->aux == 0 || n->type->kind == SD_K_JSONB, "events for a json column");
				if (v->aux != 0)
					check_events(w, v);
				if (w->out)
				{
					fz_put(w->out, "J", 1);
					fz_put(w->out, v->u.s, v->len);
				}
				break;
			}
		case SD_K_ARRAY:
			FZ_ASSERT(v->tag == SD_V_ARRAY, "array value with tag %d", v->tag);
			FZ_ASSERT(v->len == 0 || ((uint64_t) v->u.first + v->len <= w->tape_len),
					  "array elements [%u, +%u) beyond the tape (%u)", v->u.first, v->len, w->tape_len);
			FZ_ASSERT(n->elem, "array node without element node");
			if (w->out)
				fz_put(w->out, "[", 1);
			for (uint32_t i = 0; i < v->len; i++)
			{
				if (w->out && i)
					fz_put(w->out, ",", 1);
				walk(w, v->u.first + i, n->elem, depth + 1);
			}
			if (w->out)
				fz_put(w->out, "]", 1);
			break;
		case SD_K_COMPOSITE:
			FZ_ASSERT(v->tag == SD_V_ROW, "composite value with tag %d", v->tag);
			FZ_ASSERT(v->len == (uint32_t) n->nfields, "row of %u slots for %d columns", v->len,
					  n->nfields);
			FZ_ASSERT(v->len == 0 || ((uint64_t) v->u.first + v->len <= w->tape_len),
					  "row slots [%u, +%u) beyond the tape (%u)", v->u.first, v->len, w->tape_len);
			if (w->out)
				fz_put(w->out, "{", 1);
			for (uint32_t i = 0; i < v->len; i++)
			{
				const sd_field *f = &n->fields[i];

				if (w->out && i)
					fz_put(w->out, ",", 1);
				if (f->skip)
					FZ_ASSERT(w->tape[v->u.first + i].tag == SD_V_NULL, "skipped column %s is not NULL",
							  f->column);
				walk(w, v->u.first + i, f->node, depth + 1);
			}
			if (w->out)
				fz_put(w->out, "}", 1);
			break;
		default:
			FZ_ASSERT(0, "node of unknown kind %d", n->kind);
	}
}

void
fz_check_tape(const sd_plan *plan, const sd_decoder *d, uint32_t root, const sd_node *node,
			  size_t doclen, fz_buf *out)
{
	walkctx		w = {plan, d->tape, d->tape_len, doclen, out, d->jev, d->jev_len};

	FZ_ASSERT(d->tape != NULL || d->tape_len == 0, "no tape");
	walk(&w, root, node, 0);
}

void
fz_check_error(const sd_error *err, size_t doclen)
{
	FZ_ASSERT(err->code > SD_OK && err->code <= SD_E_INTERNAL, "error code %d", (int) err->code);
	FZ_ASSERT(err->code != SD_E_INTERNAL, "internal error: %s: %.*s", err->path,
			  (int) sizeof(err->problem), err->problem);
	FZ_ASSERT(memchr(err->path, '\0', sizeof(err->path)) != NULL, "path not terminated");
	FZ_ASSERT(memchr(err->problem, '\0', sizeof(err->problem)) != NULL, "problem not terminated");
	FZ_ASSERT(err->problem[0] != '\0', "empty problem (code %s, path %s)", sd_code_name(err->code),
			  err->path);
	FZ_ASSERT(err->offset == -1 || (err->offset >= 0 && (uint64_t) err->offset <= doclen),
			  "error offset %lld outside the document (%zu bytes): %s: %s", (long long) err->offset,
			  doclen, err->path, err->problem);
}

void
fz_render_error(fz_buf *out, const sd_error *err)
{
	fz_printf(out, "ERROR %s @%lld %s: %s", sd_code_name(err->code), (long long) err->offset,
			  err->path, err->problem);
}
