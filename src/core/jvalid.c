/*
 * jvalid.c — a strict, non-recursive JSON (RFC 8259) validator that reports the exact byte
 * offset and reason of the first error.  The decoder calls it only after simdjson rejected a
 * document (simdjson's errors carry no position) or when nesting passed serde.max_depth (to tell
 * a deep but malformed document, which is a syntax error, from a deep valid one).  Its nesting
 * stack is one bit per level on the heap, so 1,000,000 '[' cost 125 KB, not the C stack.
 */
#include "internal.h"
#include "scalar.h"

#include <string.h>

typedef struct vstate
{
	const unsigned char *s;
	size_t		len;
	size_t		pos;
	sd_error   *err;
} vstate;

static bool
vfail(vstate *v, const char *what)
{
	return sd_error_set(v->err, SD_E_SYNTAX, (int64_t) v->pos, "%s", what);
}

static void
vskip_ws(vstate *v)
{
	while (v->pos < v->len)
	{
		unsigned char c = v->s[v->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		v->pos++;
	}
}

static bool
vhex4(vstate *v, unsigned *out)
{
	int			r = sd_hex4((const char *) v->s + v->pos, v->len - v->pos, out);

	if (r <= 0)
		return vfail(v, r < 0 ? "truncated \\u escape" : "bad \\u escape");
	v->pos += 4;
	return true;
}

/* v->pos at the opening quote */
static bool
vstring(vstate *v)
{
	v->pos++;
	while (v->pos < v->len)
	{
		unsigned char c = v->s[v->pos];

		if (c == '"')
		{
			v->pos++;
			return true;
		}
		if (c < 0x20)
			return vfail(v, "unescaped control character in a string");
		if (c == '\\')
		{
			unsigned	cp,
						lo;
			size_t		at = v->pos;

			if (v->pos + 1 >= v->len)
				return vfail(v, "unterminated string");
			c = v->s[++v->pos];
			v->pos++;
			if (c == 'u')
			{
				if (!vhex4(v, &cp))
					return false;
				if (cp >= 0xD800 && cp <= 0xDBFF)
				{
					if (v->pos + 2 > v->len || v->s[v->pos] != '\\' || v->s[v->pos + 1] != 'u')
					{
						v->pos = at;
						return vfail(v, "lone surrogate in \\u escape");
					}
					v->pos += 2;
					if (!vhex4(v, &lo))
						return false;
					if (lo < 0xDC00 || lo > 0xDFFF)
					{
						v->pos = at;
						return vfail(v, "lone surrogate in \\u escape");
					}
				}
				else if (cp >= 0xDC00 && cp <= 0xDFFF)
				{
					v->pos = at;
					return vfail(v, "lone surrogate in \\u escape");
				}
				continue;
			}
			if (!strchr("\"\\/bfnrt", c) || c == 0)
			{
				v->pos = at;
				return vfail(v, "bad escape in a string");
			}
			continue;
		}
		if (c < 0x80)
		{
			v->pos++;
			continue;
		}
		/* UTF-8 */
		size_t		n = sd_utf8_seq(v->s + v->pos, v->len - v->pos);

		if (n == 0)
			return vfail(v, "invalid UTF-8");
		v->pos += n;
	}
	return vfail(v, "unterminated string");
}

static bool
vscalar(vstate *v)
{
	unsigned char c = v->s[v->pos];

	if (c == '"')
		return vstring(v);
	if (c == 't' || c == 'f' || c == 'n')
	{
		const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
		size_t		n = strlen(word);

		if (v->pos + n > v->len || memcmp(v->s + v->pos, word, n) != 0)
			return vfail(v, "invalid literal");
		v->pos += n;
		return true;
	}
	if (c == '-' || (c >= '0' && c <= '9'))
	{
		size_t		e = v->pos;

		while (e < v->len && strchr("+-0123456789.eE", v->s[e]) && v->s[e])
			e++;
		if (!sd_is_json_number((const char *) v->s + v->pos, e - v->pos))
			return vfail(v, "invalid number");
		v->pos = e;
		return true;
	}
	return vfail(v, c >= 0x80 ? "invalid UTF-8 or unexpected character" : "unexpected character");
}

bool
sd_json_validate(const sd_hooks *hooks, const char *text, size_t len, sd_error *err)
{
	vstate		v = {(const unsigned char *) text, len, 0, err};
	uint8_t    *stack = NULL;       /* bit per level: 1 = object, 0 = array */
	size_t		cap = 0;
	size_t		depth = 0;
	bool		ok = false;

	sd_error_clear(err);
	vskip_ws(&v);
	if (v.pos >= len)
	{
		vfail(&v, len ? "empty document (only whitespace)" : "empty document");
		goto done;
	}
	for (;;)
	{
		/* expecting a value */
		vskip_ws(&v);
		if (v.pos >= len)
		{
			vfail(&v, "unexpected end of input");
			goto done;
		}
		unsigned char c = v.s[v.pos];

		if (c == '{' || c == '[')
		{
			if (depth / 8 >= cap)
			{
				size_t		ncap = cap ? cap * 2 : 64;
				uint8_t    *ns = sd_hook_realloc(hooks, stack, ncap);

				if (!ns)
				{
					sd_error_set(err, SD_E_NOMEM, (int64_t) v.pos, "out of memory");
					goto done;
				}
				memset(ns + cap, 0, ncap - cap);
				stack = ns;
				cap = ncap;
			}
			if (c == '{')
				stack[depth / 8] |= (uint8_t) (1u << (depth % 8));
			else
				stack[depth / 8] &= (uint8_t) ~(1u << (depth % 8));
			depth++;
			v.pos++;
			vskip_ws(&v);
			if (v.pos < len && v.s[v.pos] == (c == '{' ? '}' : ']'))
			{
				v.pos++;
				depth--;
				goto after_value;
			}
			if (c == '{')
			{
				if (v.pos >= len || v.s[v.pos] != '"')
				{
					vfail(&v, v.pos >= len ? "unexpected end of input" : "expected a member name");
					goto done;
				}
				if (!vstring(&v))
					goto done;
				vskip_ws(&v);
				if (v.pos >= len || v.s[v.pos] != ':')
				{
					vfail(&v, "expected ':'");
					goto done;
				}
				v.pos++;
			}
			continue;
		}
		if (!vscalar(&v))
			goto done;
after_value:
		for (;;)
		{
			bool		in_object;

			vskip_ws(&v);
			if (depth == 0)
			{
				if (v.pos < len)
				{
					vfail(&v, "unexpected data after the root value");
					goto done;
				}
				ok = true;
				goto done;
			}
			in_object = (stack[(depth - 1) / 8] >> ((depth - 1) % 8)) & 1;
			if (v.pos >= len)
			{
				vfail(&v, "unexpected end of input");
				goto done;
			}
			c = v.s[v.pos];
			if (c == ',')
			{
				v.pos++;
				if (in_object)
				{
					vskip_ws(&v);
					if (v.pos >= len || v.s[v.pos] != '"')
					{
						vfail(&v, v.pos >= len ? "unexpected end of input" : "expected a member name");
						goto done;
					}
					if (!vstring(&v))
						goto done;
					vskip_ws(&v);
					if (v.pos >= len || v.s[v.pos] != ':')
					{
						vfail(&v, "expected ':'");
						goto done;
					}
					v.pos++;
				}
				break;			/* next value */
			}
			if (c == (in_object ? '}' : ']'))
			{
				v.pos++;
				depth--;
				continue;
			}
			vfail(&v, in_object ? "expected ',' or '}'" : "expected ',' or ']'");
			goto done;
		}
	}
done:
	sd_hook_free(hooks, stack);
	return ok;
}
