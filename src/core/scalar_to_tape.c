/*
 * scalar_to_tape.c — the column rules of docs/reference.md, "Types", for one JSON scalar: a string's content, a number
 * literal or a boolean becomes a tape value for a plan node, or an error (code + problem).
 * Shared by every input walker (simdjson over text, PostgreSQL's jsonb) so that they agree.
 */
#include "internal.h"
#include "scalar.h"
#include "scalar_time.h"

#include <stdio.h>
#include <string.h>

/* "string \"abc\"", "number 1.5", "boolean true" — the found-value part of kind errors. */
void
sd_describe_scalar(char *buf, size_t size, sd_jkind kind, const char *s, size_t len)
{
	char		cut[200];
	size_t		i = 0,
				chars = 0,
				n = 0;

	while (i < len && chars < 40 && n + 8 < sizeof(cut))
	{
		unsigned char c = (unsigned char) s[i];
		size_t		clen = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;

		if (i + clen > len)
			clen = len - i;
		if (c < 0x20)
		{
			n += (size_t) snprintf(cut + n, 7, "\\u%04x", c);
			i++;
		}
		else
		{
			memcpy(cut + n, s + i, clen);
			n += clen;
			i += clen;
		}
		chars++;
	}
	cut[n] = '\0';
	switch (kind)
	{
		case SD_J_STRING:
			snprintf(buf, size, "string \"%s%s\"", cut, i < len ? "..." : "");
			break;
		case SD_J_NUMBER:
			snprintf(buf, size, "number %s%s", cut, i < len ? "..." : "");
			break;
		case SD_J_TRUE:
			snprintf(buf, size, "boolean true");
			break;
		case SD_J_FALSE:
			snprintf(buf, size, "boolean false");
			break;
		case SD_J_NULL:
			snprintf(buf, size, "null");
			break;
		case SD_J_ARRAY:
			snprintf(buf, size, "array");
			break;
		case SD_J_OBJECT:
			snprintf(buf, size, "object");
			break;
	}
}

const char *
sd_expected_name(const sd_node *n)
{
	switch (n->kind)
	{
		case SD_K_TEXT:
		case SD_K_OTHER:
		case SD_K_ENUM:
			return "string";
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
			return "integer";
		case SD_K_FLOAT4:
		case SD_K_FLOAT8:
		case SD_K_NUMERIC:
			return "number";
		case SD_K_BOOL:
			return "boolean";
		case SD_K_TIMESTAMPTZ:
		case SD_K_TIMESTAMP:
			if (n->format == SD_FMT_UNIX)
				return "number of seconds since the epoch";
			if (n->format == SD_FMT_UNIX_MS)
				return "number of milliseconds since the epoch";
			if (n->format == SD_FMT_RFC2822)
				return "string (RFC 2822 timestamp)";
			if (n->format == SD_FMT_ISO8601)
				return "string (ISO 8601 timestamp)";
			if (n->format == SD_FMT_PATTERN)
				return sd_tspattern_expected(n->pattern);
			return "string (RFC 3339 timestamp)";
		case SD_K_DATE:
			return "string (date)";
		case SD_K_TIME:
			return "string (time)";
		case SD_K_UUID:
			return "string (uuid)";
		case SD_K_BYTEA:
			return n->format == SD_FMT_HEX ? "string (hex)" : "string (base64)";
		case SD_K_JSON:
		case SD_K_JSONB:
			return "JSON value";
		case SD_K_ARRAY:
			return n->is_map ? "object" : "array";
		case SD_K_COMPOSITE:
			return "object";
	}
	return "value";
}

bool
sd_kind_error(const sd_node *n, sd_jkind found, const char *s, size_t len, sd_error *err)
{
	char		desc[256];

	sd_describe_scalar(desc, sizeof(desc), found, s, len);
	return sd_error_set(err, SD_E_KIND, err->offset, "expected %s, found %s", sd_expected_name(n), desc);
}

static bool
convert_int(const sd_node *n, sd_jkind found, const char *lit, size_t len, sd_val *out,
			sd_error *err)
{
	static const int64_t mins[] = {INT16_MIN, INT32_MIN, INT64_MIN};
	static const int64_t maxs[] = {INT16_MAX, INT32_MAX, INT64_MAX};
	static const char *const names[] = {"smallint", "integer", "bigint"};
	int			k = n->kind - SD_K_INT2;
	char		problem[SD_PROBLEM_MAX];
	int64_t		v;
	sd_code		c = sd_parse_int(lit, len, mins[k], maxs[k], n->coerce, names[k], &v, problem);

	if (c == SD_E_KIND)
	{
		char		desc[256];

		sd_describe_scalar(desc, sizeof(desc), found, lit, len);
		return sd_error_set(err, SD_E_KIND, err->offset, "expected integer, found %s%s",
							n->coerce ? "non-integral " : "", desc);
	}
	if (c != SD_OK)
		return sd_error_set(err, c, err->offset, "%s", problem);
	out->tag = SD_V_INT;
	out->u.i = v;
	return true;
}

/* Number-like kinds from a literal that satisfies the JSON number grammar (found: what the
 * document held, a number or - under coerce - a string). */
static bool
convert_numeric_literal(const sd_node *n, sd_jkind found, const char *lit, size_t len,
						sd_val *out, sd_error *err)
{
	char		problem[SD_PROBLEM_MAX];
	sd_code		c = SD_OK;

	switch (n->kind)
	{
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
			return convert_int(n, found, lit, len, out, err);
		case SD_K_FLOAT4:
		case SD_K_FLOAT8:
			c = sd_parse_float(lit, len, n->kind == SD_K_FLOAT4, &out->u.f, problem);
			out->tag = SD_V_FLOAT;
			break;
		case SD_K_NUMERIC:
			{
				int64_t		digits;
				uint32_t	nfrac;

				/* the common literal, parsed once: the host builds its numeric from the digits */
				if (sd_plain_decimal(lit, len, n->type->precision, n->type->scale, &digits, &nfrac))
				{
					out->tag = SD_V_DECIMAL;
					out->u.i = digits;
					out->len = nfrac | (lit[0] == '-' ? SD_DECIMAL_NEG : 0);
					return true;
				}
			}
			c = sd_check_numeric(lit, len, n->type->precision, n->type->scale, problem);
			{
				int64_t		digits;
				uint32_t	nfrac;

				/* an exponent form that still fits: parsed once too */
				if (c == SD_OK && sd_exp_decimal(lit, len, &digits, &nfrac))
				{
					out->tag = SD_V_DECIMAL;
					out->u.i = digits;
					out->len = nfrac | (lit[0] == '-' ? SD_DECIMAL_NEG : 0);
					return true;
				}
			}
			out->tag = SD_V_NUMERIC;
			out->u.s = lit;
			out->len = (uint32_t) len;
			break;
		case SD_K_TIMESTAMPTZ:
		case SD_K_TIMESTAMP:
			c = sd_parse_epoch(lit, len, n->format == SD_FMT_UNIX ? 1000000 : 1000, &out->u.i, problem);
			out->tag = SD_V_TIMESTAMP;
			break;
		default:
			return sd_kind_error(n, found, lit, len, err);
	}
	if (c != SD_OK)
		return sd_error_set(err, c, err->offset, "%s", problem);
	return true;
}

static bool
is_epoch(const sd_node *n)
{
	return (n->kind == SD_K_TIMESTAMPTZ || n->kind == SD_K_TIMESTAMP) &&
		(n->format == SD_FMT_UNIX || n->format == SD_FMT_UNIX_MS);
}

bool
sd_convert_number(const sd_node *n, const char *lit, size_t len, sd_val *out, sd_error *err)
{
	if (n->kind == SD_K_TEXT && n->coerce)
	{
		if (n->type->max_chars >= 0 && len > (size_t) n->type->max_chars)
			return sd_error_set(err, SD_E_LENGTH, err->offset,
								"string of %zu characters is too long for %s", len, n->type->name);
		out->tag = SD_V_STR;
		out->u.s = lit;
		out->len = (uint32_t) len;
		return true;
	}
	if (n->kind == SD_K_INT2 || n->kind == SD_K_INT4 || n->kind == SD_K_INT8 ||
		n->kind == SD_K_FLOAT4 || n->kind == SD_K_FLOAT8 || n->kind == SD_K_NUMERIC || is_epoch(n))
		return convert_numeric_literal(n, SD_J_NUMBER, lit, len, out, err);
	return sd_kind_error(n, SD_J_NUMBER, lit, len, err);
}

bool
sd_convert_bool(const sd_node *n, bool b, sd_val *out, sd_error *err)
{
	if (n->kind != SD_K_BOOL)
		return sd_kind_error(n, b ? SD_J_TRUE : SD_J_FALSE, "", 0, err);
	out->tag = SD_V_BOOL;
	out->u.b = b;
	return true;
}

/* The index of label s[0..len) (no NUL inside) of an enum, or -1: a binary search when the host
 * gave the labels' strcmp order, else a scan. */
static int
enum_find(const sd_type *t, const char *s, size_t len)
{
	int			lo = 0,
				hi = t->nlabels - 1;

	if (!t->label_order)
	{
		for (int i = 0; i < t->nlabels; i++)
			if (strncmp(t->labels[i], s, len) == 0 && t->labels[i][len] == '\0')
				return i;
		return -1;
	}
	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		const char *l = t->labels[t->label_order[mid]];
		int			cmp = strncmp(l, s, len);

		if (cmp == 0 && l[len] != '\0')
			cmp = 1;			/* s is a proper prefix of l */
		if (cmp == 0)
			return t->label_order[mid];
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

bool
sd_convert_string(sd_arena *arena, const sd_node *n, const char *s, size_t len, sd_val *out,
				  sd_error *err)
{
	char		problem[SD_PROBLEM_MAX];
	sd_code		c = SD_OK;

	if ((n->kind == SD_K_TEXT || n->kind == SD_K_OTHER || n->kind == SD_K_ENUM) && memchr(s, 0, len))
		return sd_error_set(err, SD_E_KIND, err->offset, "\\u0000 cannot be stored in %s", n->type->name);
	switch (n->kind)
	{
		case SD_K_TEXT:
			if (n->type->max_chars >= 0 && len > (size_t) n->type->max_chars)
			{
				size_t		chars = sd_utf8_chars(s, len);

				if (chars > (size_t) n->type->max_chars)
					return sd_error_set(err, SD_E_LENGTH, err->offset,
										"string of %zu characters is too long for %s", chars,
										n->type->name);
			}
			/* fall through */
		case SD_K_OTHER:
			out->tag = SD_V_STR;
			out->u.s = s;
			out->len = (uint32_t) len;
			return true;
		case SD_K_ENUM:
			{
				int			li = enum_find(n->type, s, len);

				if (li >= 0)
				{
					out->tag = SD_V_ENUM;
					out->u.i = li;
					return true;
				}
			}
			{
				char		list[256];
				char		desc[256];
				size_t		used = 0;
				int			i;

				/* whole labels only; the rest as ", ... (N labels)" */
				list[0] = '\0';
				for (i = 0; i < n->type->nlabels; i++)
				{
					size_t		ll = strlen(n->type->labels[i]);

					if (used + ll + 2 + 24 >= sizeof(list))
						break;
					used += (size_t) snprintf(list + used, sizeof(list) - used, "%s%s",
											  i ? ", " : "", n->type->labels[i]);
				}
				if (i < n->type->nlabels)
					snprintf(list + used, sizeof(list) - used, "%s... (%d labels)", i ? ", " : "",
							 n->type->nlabels);
				sd_describe_scalar(desc, sizeof(desc), SD_J_STRING, s, len);
				return sd_error_set(err, SD_E_KIND, err->offset,
									"unknown label %s for enum %s, expected one of: %s",
									desc + 7, n->type->name, list);
			}
		case SD_K_TIMESTAMPTZ:
		case SD_K_TIMESTAMP:
			if (is_epoch(n))
			{
				if (!n->coerce || !sd_is_json_number(s, len))
					return sd_kind_error(n, SD_J_STRING, s, len, err);
				return convert_numeric_literal(n, SD_J_STRING, s, len, out, err);
			}
			{
				bool		had_offset;

				if (n->format == SD_FMT_RFC2822)
					c = sd_parse_rfc2822(s, len, &out->u.i, problem);
				else if (n->format == SD_FMT_ISO8601)
					c = sd_parse_iso8601(s, len, n->kind == SD_K_TIMESTAMPTZ, &out->u.i,
										 &had_offset, problem);
				else if (n->format == SD_FMT_PATTERN)
					c = sd_parse_pattern(n->pattern, s, len, n->kind == SD_K_TIMESTAMPTZ,
										 &out->u.i, problem);
				else
					c = sd_parse_timestamp(s, len, n->kind == SD_K_TIMESTAMPTZ, &out->u.i,
										   &had_offset, problem);
				out->tag = SD_V_TIMESTAMP;
			}
			break;
		case SD_K_DATE:
			{
				int32_t		days = 0;

				c = sd_parse_date(s, len, &days, problem);
				out->tag = SD_V_DATE;
				out->u.i = days;
				break;
			}
		case SD_K_TIME:
			c = sd_parse_time(s, len, &out->u.i, problem);
			out->tag = SD_V_TIME;
			break;
		case SD_K_UUID:
			{
				uint8_t    *b = sd_arena_alloc(arena, 16);

				if (!b)
					return sd_error_set(err, SD_E_NOMEM, err->offset, "out of memory");
				c = sd_parse_uuid(s, len, b, problem);
				out->tag = SD_V_UUID;
				out->u.bytes = b;
				out->len = 16;
				break;
			}
		case SD_K_BYTEA:
			{
				sd_format	f = n->format == SD_FMT_NONE ? SD_FMT_BASE64 : n->format;
				size_t		max = sd_binary_max_decoded(f, len);
				uint8_t    *b = sd_arena_alloc(arena, max ? max : 1);
				size_t		outlen = 0;

				if (!b)
					return sd_error_set(err, SD_E_NOMEM, err->offset, "out of memory");
				c = f == SD_FMT_BASE64_MIME ? sd_decode_base64_mime(s, len, b, &outlen, problem) :
					sd_decode_binary(f, s, len, b, &outlen, problem);
				out->tag = SD_V_BYTES;
				out->u.bytes = b;
				out->len = (uint32_t) outlen;
				break;
			}
		case SD_K_BOOL:
			if (n->coerce && len == 4 && memcmp(s, "true", 4) == 0)
				return sd_convert_bool(n, true, out, err);
			if (n->coerce && len == 5 && memcmp(s, "false", 5) == 0)
				return sd_convert_bool(n, false, out, err);
			return sd_kind_error(n, SD_J_STRING, s, len, err);
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
		case SD_K_FLOAT4:
		case SD_K_FLOAT8:
		case SD_K_NUMERIC:
			if (!n->coerce || !sd_is_json_number(s, len))
				return sd_kind_error(n, SD_J_STRING, s, len, err);
			return convert_numeric_literal(n, SD_J_STRING, s, len, out, err);
		default:
			return sd_kind_error(n, SD_J_STRING, s, len, err);
	}
	if (c != SD_OK)
		return sd_error_set(err, c, err->offset, "%s", problem);
	return true;
}

void
sd_variant_list(const sd_node *n, char *buf, size_t size)
{
	size_t		used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n->nvariants && used + 8 < size; i++)
		used += (size_t) snprintf(buf + used, size - used, "%s%s", i ? ", " : "", n->variants[i].value);
}
