/*
 * jwrite.c — JSON output of the core: a growable buffer over hooks, locale-free formatters for
 * timestamps, dates, times, uuids, floats, base64 and numerics (numeric's canonical text), and the tape -> canonical JSON writer that
 * SQLite's serde_decode returns.  Strings are escaped by jescape.c's escaper.
 */
#include "internal.h"
#include "scalar.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the buffer -------------------------------------------------------------------------- */

void
sd_buf_init(sd_buf *b, const sd_hooks *hooks)
{
	memset(b, 0, sizeof(*b));
	if (hooks)
		b->hooks = *hooks;
}

static bool
buf_reserve(sd_buf *b, size_t n)
{
	if (b->failed)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	if (n > SIZE_MAX / 4 - b->len)
		return b->failed = true, false;

	size_t		ncap = b->cap ? b->cap : 256;

	while (ncap < b->len + n + 1)
		ncap *= 2;

	char	   *ns = sd_hook_realloc(&b->hooks, b->s, ncap);

	if (!ns)
		return b->failed = true, false;
	b->s = ns;
	b->cap = ncap;
	return true;
}

bool
sd_buf_put(sd_buf *b, const char *s, size_t n)
{
	if (!buf_reserve(b, n))
		return false;
	if (n)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return true;
}

bool
sd_buf_string(sd_buf *b, const char *s, size_t len)
{
	size_t		done = 0;

	if (!sd_buf_put(b, "\"", 1))
		return false;
	while (done < len)
	{
		/* escape in pieces of at most 4 KB of input, so that the reservation stays small */
		size_t		piece = len - done < 4096 ? len - done : 4096;
		size_t		used;

		if (!buf_reserve(b, piece * 6))
			return false;

		size_t		n = sd_json_escape(b->s + b->len, piece * 6, s + done, piece, &used);

		if (used == 0)			/* cannot happen: one character always fits in 6 * piece */
			return b->failed = true, false;
		b->len += n;
		done += used;
	}
	return sd_buf_put(b, "\"", 1);
}

void
sd_buf_reset(sd_buf *b)
{
	b->len = 0;
	b->failed = false;
	if (b->s)
		b->s[0] = '\0';
}

void
sd_buf_free(sd_buf *b)
{
	sd_hook_free(&b->hooks, b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

/* ---- formatters -------------------------------------------------------------------------- */

/* v in decimal, zero-padded to at least width digits (no NUL; snprintf costs more than the
 * rest of writing a small value): two digits at a time, from the end */
static size_t
put_uint(char *out, uint64_t v, int width)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	int			n = 1;
	char	   *p;

	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	if (n < width)
		n = width;
	p = out + n;
	while (v >= 100)
	{
		unsigned	d = (unsigned) (v % 100) * 2;

		v /= 100;
		*--p = pairs[d + 1];
		*--p = pairs[d];
	}
	if (v >= 10)
	{
		*--p = pairs[v * 2 + 1];
		*--p = pairs[v * 2];
	}
	else
		*--p = (char) ('0' + v);
	while (p > out)
		*--p = '0';
	return (size_t) n;
}

/* Proleptic Gregorian date of a day number (days since 1970-01-01); the inverse of
 * sd_days_from_civil, by 400-year eras of 146097 days counted from 0000-03-01. */
static void
civil_from_days(int64_t days, int64_t *y, int *m, int *d)
{
	int64_t		z = days + 719468;
	int64_t		era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t		doe = z - era * 146097;                 /* 0 .. 146096 */
	int64_t		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;   /* 0 .. 399 */
	int64_t		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);     /* 0 .. 365, from March 1 */
	int64_t		mp = (5 * doy + 2) / 153;               /* 0 = March .. 11 = February */

	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static size_t
put_date(char *out, int64_t days)
{
	int64_t		y;
	int			m,
				d;

	civil_from_days(days, &y, &m, &d);
	if (y >= 0 && y <= 9999)
	{
		size_t		n = put_uint(out, (uint64_t) y, 4);

		out[n++] = '-';
		n += put_uint(out + n, (uint64_t) m, 2);
		out[n++] = '-';
		n += put_uint(out + n, (uint64_t) d, 2);
		out[n] = '\0';
		return n;
	}
	return (size_t) snprintf(out, 32, "%c%04lld-%02d-%02d", y < 0 ? '-' : '+',
							 (long long) (y < 0 ? -y : y), m, d);
}

/* hh:mm:ss[.ffffff] of microseconds within a day (0 .. 24:00:00) */
static size_t
put_clock(char *out, int64_t us)
{
	int64_t		secs = us / 1000000;
	int			frac = (int) (us % 1000000);
	size_t		n = put_uint(out, (uint64_t) (secs / 3600), 2);

	out[n++] = ':';
	n += put_uint(out + n, (uint64_t) (secs / 60 % 60), 2);
	out[n++] = ':';
	n += put_uint(out + n, (uint64_t) (secs % 60), 2);
	if (frac)
	{
		out[n++] = '.';
		n += put_uint(out + n, (uint64_t) frac, 6);
	}
	out[n] = '\0';
	return n;
}

size_t
sd_format_date(char *out, int64_t days)
{
	return put_date(out, days);
}

size_t
sd_format_time(char *out, int64_t us)
{
	if (us < 0)
		us = 0;
	if (us > (int64_t) 86400 * 1000000)
		us = (int64_t) 86400 * 1000000;
	return put_clock(out, us);
}

size_t
sd_format_timestamp(char *out, int64_t us, bool utc)
{
	const int64_t day_us = (int64_t) 86400 * 1000000;
	int64_t		days = us / day_us;
	int64_t		rem = us % day_us;
	size_t		n;

	if (rem < 0)
	{
		rem += day_us;
		days--;
	}
	n = put_date(out, days);
	out[n++] = 'T';
	n += put_clock(out + n, rem);
	if (utc)
		out[n++] = 'Z';
	out[n] = '\0';
	return n;
}

size_t
sd_format_uuid(char *out, const uint8_t bytes[16])
{
	static const char hexdig[] = "0123456789abcdef";
	size_t		n = 0;

	for (int i = 0; i < 16; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[n++] = '-';
		out[n++] = hexdig[bytes[i] >> 4];
		out[n++] = hexdig[bytes[i] & 15];
	}
	out[n] = '\0';
	return n;
}

size_t
sd_base64_len(size_t n)
{
	return (n + 2) / 3 * 4;
}

size_t
sd_format_base64(char *out, const uint8_t *bytes, size_t n)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t		o = 0,
				i = 0;

	for (; i + 3 <= n; i += 3)
	{
		uint32_t	v = (uint32_t) bytes[i] << 16 | (uint32_t) bytes[i + 1] << 8 | bytes[i + 2];

		out[o++] = alphabet[v >> 18];
		out[o++] = alphabet[(v >> 12) & 63];
		out[o++] = alphabet[(v >> 6) & 63];
		out[o++] = alphabet[v & 63];
	}
	if (i < n)
	{
		uint32_t	v = (uint32_t) bytes[i] << 16 | (i + 1 < n ? (uint32_t) bytes[i + 1] << 8 : 0);

		out[o++] = alphabet[v >> 18];
		out[o++] = alphabet[(v >> 12) & 63];
		out[o++] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
		out[o++] = '=';
	}
	out[o] = '\0';
	return o;
}

/* "%.*e" / "%.*g" in the C locale: whatever the process locale writes for the decimal point
 * becomes '.' */
static size_t
c_format(char *out, double v, int prec, bool sci)
{
	char		tmp[64];
	int			r = snprintf(tmp, sizeof(tmp), sci ? "%.*e" : "%.*g", prec, v);
	size_t		o = 0;

	if (r < 0 || r >= (int) sizeof(tmp))
		return 0;
	for (int i = 0; i < r;)
	{
		char		c = tmp[i];

		if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e')
		{
			out[o++] = c;
			i++;
			continue;
		}
		/* a decimal point, of any length in bytes */
		out[o++] = '.';
		while (i < r && !((tmp[i] >= '0' && tmp[i] <= '9') || tmp[i] == 'e'))
			i++;
	}
	out[o] = '\0';
	return o;
}

/* digit k of the literal's digits (integer part, then fraction), '0' outside them */
static char
lit_digit(const char *ip, size_t il, const char *fp, size_t fl, int64_t k)
{
	if (k < 0 || k >= (int64_t) (il + fl))
		return '0';
	return k < (int64_t) il ? ip[k] : fp[k - (int64_t) il];
}

bool
sd_numeric_canonical(sd_buf *b, const char *s, size_t len)
{
	size_t		i = 0,
				il = 0,
				fl = 0;
	const char *ip,
			   *fp = "";
	bool		neg = false,
				zero = true,
				eneg = false;
	int64_t		exp = 0,
				point,
				dscale,
				k;
	char		c;

	if (i < len && s[i] == '-')
		neg = true, i++;
	ip = s + i;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++, il++;
	if (i < len && s[i] == '.')
	{
		fp = s + ++i;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++, fl++;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E'))
	{
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			if (exp < 1000000000)
				exp = exp * 10 + (s[i] - '0');
		if (eneg)
			exp = -exp;
	}
	for (k = 0; k < (int64_t) (il + fl) && zero; k++)
		zero = lit_digit(ip, il, fp, fl, k) == '0';
	point = (int64_t) il + exp;	/* the decimal point sits before digit `point` */
	dscale = (int64_t) fl - exp;
	if (dscale < 0)
		dscale = 0;
	if (neg && !zero && !sd_buf_put(b, "-", 1))
		return false;
	/* the integer part, without leading zeros */
	k = 0;
	while (k < point && lit_digit(ip, il, fp, fl, k) == '0')
		k++;
	if (k >= point && !sd_buf_put(b, "0", 1))
		return false;
	for (; k < point; k++)
		if ((c = lit_digit(ip, il, fp, fl, k)), !sd_buf_put(b, &c, 1))
			return false;
	if (dscale > 0 && !sd_buf_put(b, ".", 1))
		return false;
	for (k = point; k < point + dscale; k++)
		if ((c = lit_digit(ip, il, fp, fl, k)), !sd_buf_put(b, &c, 1))
			return false;
	return true;
}

/*
 * The fewest significant digits p that read back to v (exactly, through the core's correctly
 * rounded parser), written as PostgreSQL's float8out/float4out write them: plain notation for
 * decimal exponents -4 .. 14 (float4: .. 5), else d.ddde+XX.  Plain notation with more digits
 * than p only adds zeros before the decimal point: such a value is an integer below 10^15
 * (10^6), exactly representable, so it is that integer.
 */
size_t
sd_format_float(char *out, double v, bool as_float4)
{
	int			maxp = as_float4 ? 9 : 17;
	int			plain_max = as_float4 ? 6 : 15;
	size_t		n = 0;
	int			p;

	if (!isfinite(v))
	{
		memcpy(out, "null", 5);
		return 4;
	}
	for (p = 1; p <= maxp; p++)
	{
		char		problem[SD_PROBLEM_MAX];
		double		back;

		n = c_format(out, v, p - 1, true);
		if (n && sd_parse_float(out, n, as_float4, &back, problem) == SD_OK &&
			back == v && signbit(back) == signbit(v))
			break;
	}
	if (p > maxp)
		p = maxp;

	const char *e = strchr(out, 'e');
	int			exp10 = e ? atoi(e + 1) : 0;

	if (exp10 >= -4 && exp10 < plain_max)
		n = c_format(out, v, p > exp10 + 1 ? p : exp10 + 1, false);
	return n;
}

size_t
sd_format_decimal(char *out, int64_t digits, uint32_t scale_and_sign)
{
	uint32_t	scale = scale_and_sign & SD_DECIMAL_SCALE;
	uint64_t	mag = digits < 0 ? (uint64_t) 0 - (uint64_t) digits : (uint64_t) digits;
	char		d[24];
	size_t		nd = 0,
				o = 0;

	if (scale > 18)
		scale = 18;
	do
	{
		d[nd++] = (char) ('0' + mag % 10);
		mag /= 10;
	} while (mag);
	while (nd < scale + 1)
		d[nd++] = '0';
	if (digits != 0 && (digits < 0 || (scale_and_sign & SD_DECIMAL_NEG)))
		out[o++] = '-';			/* numeric has no negative zero */
	while (nd > 0)
	{
		if (nd == scale && scale > 0)
			out[o++] = '.';
		out[o++] = d[--nd];
	}
	out[o] = '\0';
	return o;
}

/* ---- the canonical JSON writer ----------------------------------------------------------- */

/* The keys of one composite node's fields, escaped once when the writer is created: `"c0":`,
 * `,"c1":`, ... one after the other in text, key k at text[off[k] .. off[k + 1]). */
typedef struct jw_keys
{
	const sd_node *node;        /* NULL: an empty slot */
	char	   *text;           /* NULL: none (write_row escapes the names itself) */
	uint32_t   *off;
} jw_keys;

struct sd_jwriter
{
	sd_hooks	hooks;
	const sd_plan *plan;        /* its defaults are written from their compiled values */
	jw_keys    *keys;           /* open addressing by node; cap a power of two, or 0 */
	uint32_t	cap;
	uint32_t	n;
};

typedef struct wctx
{
	const sd_jwriter *w;
	sd_buf	   *out;
} wctx;

/* sd_buf_put, the common case (room left) without a call */
static inline bool
put(wctx *c, const char *s, size_t n)
{
	sd_buf	   *b = c->out;

	if (!b->failed && b->len + n + 1 <= b->cap)
	{
		memcpy(b->s + b->len, s, n);
		b->len += n;
		b->s[b->len] = '\0';
		return true;
	}
	return sd_buf_put(b, s, n);
}

/* a quoted, escaped string (sd_buf_string: the same bytes), reserved at once when it is short;
 * plain ASCII copied here eight bytes at a time (sd_json_escape's test), the rest from the first
 * byte that needs a look by sd_json_escape */
static bool
put_string(wctx *c, const char *s, size_t len)
{
	const uint64_t ones = 0x0101010101010101ull,
				high = 0x8080808080808080ull;
	sd_buf	   *b = c->out;
	char	   *o;
	size_t		i = 0;

	if (len > 4096 || !buf_reserve(b, len * 6 + 2))
		return sd_buf_string(b, s, len);
	o = b->s + b->len;
	*o++ = '"';
	while (i + 8 <= len)
	{
		uint64_t	w;

		memcpy(&w, s + i, 8);
		if (((w | ((w - ones * 0x20) & ~w) | ((w ^ (ones * '"')) - ones) |
			  ((w ^ (ones * '\\')) - ones)) & high) != 0)
			break;
		memcpy(o + i, &w, 8);
		i += 8;
	}
	for (; i < len; i++)
	{
		unsigned char ch = (unsigned char) s[i];

		if (ch < 0x20 || ch >= 0x80 || ch == '"' || ch == '\\')
			break;
		o[i] = (char) ch;
	}
	if (i < len)
		i += sd_json_escape(o + i, (len - i) * 6, s + i, len - i, NULL);
	o[i] = '"';
	b->len += i + 2;
	b->s[b->len] = '\0';
	return true;
}

static bool
put_quoted(wctx *c, const char *s, size_t n)
{
	sd_buf	   *b = c->out;

	if (!buf_reserve(b, n + 2))
		return false;
	b->s[b->len] = '"';
	memcpy(b->s + b->len + 1, s, n);
	b->s[b->len + n + 1] = '"';
	b->len += n + 2;
	b->s[b->len] = '\0';
	return true;
}

static inline uint32_t
node_hash(const sd_node *n, uint32_t cap)
{
	return (uint32_t) (((uintptr_t) n >> 4) * 0x9E3779B1u) & (cap - 1);
}

static const jw_keys *
keys_of(const sd_jwriter *w, const sd_node *n)
{
	if (w->cap == 0)
		return NULL;
	for (uint32_t i = node_hash(n, w->cap);; i = (i + 1) & (w->cap - 1))
	{
		if (w->keys[i].node == n)
			return &w->keys[i];
		if (!w->keys[i].node)
			return NULL;
	}
}

/* the slot of n: found (*fresh false) or new (true); NULL when out of memory */
static jw_keys *
keys_slot(sd_jwriter *w, const sd_node *n, bool *fresh)
{
	uint32_t	i;

	if ((w->n + 1) * 2 > w->cap)
	{
		uint32_t	ncap = w->cap ? w->cap * 2 : 16;
		jw_keys    *nk = sd_hook_alloc(&w->hooks, sizeof(jw_keys) * ncap);

		if (!nk)
			return NULL;
		memset(nk, 0, sizeof(jw_keys) * ncap);
		for (uint32_t k = 0; k < w->cap; k++)
			if (w->keys[k].node)
			{
				for (i = node_hash(w->keys[k].node, ncap); nk[i].node; i = (i + 1) & (ncap - 1))
					;
				nk[i] = w->keys[k];
			}
		sd_hook_free(&w->hooks, w->keys);
		w->keys = nk;
		w->cap = ncap;
	}
	for (i = node_hash(n, w->cap); w->keys[i].node; i = (i + 1) & (w->cap - 1))
		if (w->keys[i].node == n)
		{
			*fresh = false;
			return &w->keys[i];
		}
	*fresh = true;
	w->n++;
	w->keys[i].node = n;
	return &w->keys[i];
}

/* The keys of composite node n into k; false when out of memory. */
static bool
keys_build(sd_jwriter *w, jw_keys *k, const sd_node *n)
{
	size_t		total = 1;
	size_t		o = 0;

	for (int i = 0; i < n->nfields; i++)
		total += strlen(n->fields[i].column) * 6 + 4;
	if (!(k->off = sd_hook_alloc(&w->hooks, sizeof(uint32_t) * ((size_t) n->nfields + 1))) ||
		total > UINT32_MAX || !(k->text = sd_hook_alloc(&w->hooks, total)))
		return false;
	for (int i = 0; i < n->nfields; i++)
	{
		const char *col = n->fields[i].column;

		k->off[i] = (uint32_t) o;
		if (i)
			k->text[o++] = ',';
		k->text[o++] = '"';
		o += sd_json_escape(k->text + o, total - o, col, strlen(col), NULL);
		k->text[o++] = '"';
		k->text[o++] = ':';
	}
	k->off[n->nfields] = (uint32_t) o;
	if (o + 1 < total)
	{
		/* room for the worst case (every byte \u-escaped) was reserved: give back the rest */
		char	   *t = sd_hook_realloc(&w->hooks, k->text, o + 1);

		if (t)
			k->text = t;
	}
	return true;
}

/* pushes n on the stack of keys_all (growing it); false when out of memory */
static bool
keys_push(sd_jwriter *w, const sd_node ***stack, size_t *depth, size_t *cap, const sd_node *n)
{
	if (!n)
		return true;
	if (*depth == *cap)
	{
		size_t		nc = *cap ? *cap * 2 : 32;
		const sd_node **ns = sd_hook_alloc(&w->hooks, sizeof(*ns) * nc);

		if (!ns)
			return false;
		if (*depth)
			memcpy(ns, *stack, sizeof(*ns) * *depth);
		sd_hook_free(&w->hooks, (void *) *stack);
		*stack = ns;
		*cap = nc;
	}
	(*stack)[(*depth)++] = n;
	return true;
}

/* The keys of every composite node the plan's root reaches (through fields, elements and union
 * variants), each node once (a recursive shape reaches itself again).  A node it does not reach
 * has none: write_row escapes its names as it writes them.  false when out of memory. */
static bool
keys_all(sd_jwriter *w, const sd_node *root)
{
	const sd_node **stack = NULL;
	size_t		depth = 0,
				cap = 0;
	bool		ok = keys_push(w, &stack, &depth, &cap, root);

	while (ok && depth > 0)
	{
		const sd_node *n = stack[--depth];
		bool		fresh;
		jw_keys    *k = keys_slot(w, n, &fresh);

		if (!k)
			ok = false;
		else if (fresh)
		{
			bool		composite = n->kind == SD_K_COMPOSITE && n->fields != NULL;

			if (composite && n->nfields > 0)
				ok = keys_build(w, k, n);
			for (int i = 0; ok && composite && i < n->nfields; i++)
				ok = keys_push(w, &stack, &depth, &cap, n->fields[i].node);
			for (int i = 0; ok && n->variants && i < n->nvariants; i++)
				ok = keys_push(w, &stack, &depth, &cap, n->variants[i].merged);
			if (ok)
				ok = keys_push(w, &stack, &depth, &cap, n->elem);
		}
	}
	sd_hook_free(&w->hooks, (void *) stack);
	return ok;
}

/* A validated JSON text without the whitespace between its tokens (strings, escapes and
 * numbers as written). */
static bool
put_json_text(wctx *c, const char *s, size_t len)
{
	char	   *o;
	size_t		n = 0;

	if (!buf_reserve(c->out, len))
		return false;
	o = c->out->s + c->out->len;
	for (size_t i = 0; i < len; i++)
	{
		char		ch = s[i];

		if (sd_is_ws(ch))
			continue;
		o[n++] = ch;
		if (ch != '"')
			continue;
		/* a string: copied up to its closing quote */
		for (i++; i < len && s[i] != '"'; i++)
		{
			o[n++] = s[i];
			if (s[i] == '\\' && i + 1 < len)
				o[n++] = s[++i];
		}
		if (i < len)
			o[n++] = '"';
	}
	if (n == 0)
		return put(c, "null", 4);	/* cannot happen: the text is a JSON value */
	c->out->len += n;
	c->out->s[c->out->len] = '\0';
	return true;
}

static bool write_value(wctx *c, const sd_node *n, const sd_val *tape, uint32_t i);

static bool
write_row(wctx *c, const sd_node *n, const sd_val *tape, const sd_val *v)
{
	if (!put(c, "{", 1))
		return false;
	const jw_keys *ks = keys_of(c->w, n);

	for (uint32_t k = 0; k < v->len && k < (uint32_t) n->nfields; k++)
	{
		const sd_field *f = &n->fields[k];
		size_t		clen;
		char		key[256];

		if (ks && ks->text)
		{
			if (!put(c, ks->text + ks->off[k], ks->off[k + 1] - ks->off[k]))
				return false;
		}
		else if ((clen = strlen(f->column)) * 6 + 4 <= sizeof(key))
		{
			/* `,"column":` in one piece (escaped: a column name is any text) */
			size_t		o = 0;

			if (k)
				key[o++] = ',';
			key[o++] = '"';
			o += sd_json_escape(key + o, sizeof(key) - o, f->column, clen, NULL);
			key[o++] = '"';
			key[o++] = ':';
			if (!put(c, key, o))
				return false;
		}
		else if ((k && !put(c, ",", 1)) || !put_string(c, f->column, clen) ||
				 !put(c, ":", 1))
			return false;
		if (!write_value(c, f->node, tape, v->u.first + k))
			return false;
	}
	return put(c, "}", 1);
}

static bool
write_array(wctx *c, const sd_node *n, const sd_val *tape, const sd_val *v)
{
	const sd_node *en = n->elem;

	if (n->is_map && en && en->kind == SD_K_COMPOSITE && en->nfields == 2)
	{
		/* (key, value) entries as one object, in document order */
		if (!put(c, "{", 1))
			return false;
		for (uint32_t k = 0; k < v->len; k++)
		{
			const sd_val *e = &tape[v->u.first + k];
			const sd_val *key = &tape[e->u.first];

			if (e->tag != SD_V_ROW || e->len != 2 || key->tag != SD_V_STR)
				continue;		/* not a map entry (cannot happen) */
			if ((k && !put(c, ",", 1)) || !put_string(c, key->u.s, key->len) ||
				!put(c, ":", 1) || !write_value(c, en->fields[1].node, tape, e->u.first + 1))
				return false;
		}
		return put(c, "}", 1);
	}
	if (!put(c, "[", 1))
		return false;
	for (uint32_t k = 0; k < v->len; k++)
		if ((k && !put(c, ",", 1)) || !write_value(c, en ? en : n, tape, v->u.first + k))
			return false;
	return put(c, "]", 1);
}

static bool
write_value(wctx *c, const sd_node *n, const sd_val *tape, uint32_t i)
{
	const sd_val *v = &tape[i];
	char		tmp[64];
	size_t		len;

	switch ((sd_vtag) v->tag)
	{
		case SD_V_NULL:
			return put(c, "null", 4);
		case SD_V_DEFAULT:
			{
				const sd_field *f = sd_plan_default(c->w->plan, (int) v->len);
				uint32_t	root;
				const sd_val *dt = sd_plan_default_value(c->w->plan, (int) v->len, &root);

				if (!f || !dt)
					return put(c, "null", 4);	/* a default of a deferred shape (cannot happen) */
				return write_value(c, f->node, dt, root);
			}
		case SD_V_BOOL:
			return v->u.b ? put(c, "true", 4) : put(c, "false", 5);
		case SD_V_INT:
			{
				sd_buf	   *b = c->out;
				char	   *o;

				if (!buf_reserve(b, 24))
					return false;
				o = b->s + b->len;
				if (v->u.i < 0)
				{
					o[0] = '-';
					len = 1 + put_uint(o + 1, (uint64_t) 0 - (uint64_t) v->u.i, 1);
				}
				else
					len = put_uint(o, (uint64_t) v->u.i, 1);
				b->len += len;
				b->s[b->len] = '\0';
				return true;
			}
		case SD_V_FLOAT:
			len = sd_format_float(tmp, v->u.f, n->kind == SD_K_FLOAT4);
			return put(c, tmp, len);
		case SD_V_STR:
			return put_string(c, v->u.s, v->len);
		case SD_V_NUMERIC:
			return sd_numeric_canonical(c->out, v->u.s, v->len);
		case SD_V_DECIMAL:
			len = sd_format_decimal(tmp, v->u.i, v->len);
			return put(c, tmp, len);
		case SD_V_TIMESTAMP:
		case SD_V_DATE:
		case SD_V_TIME:
			{
				/* formatted in place, between its quotes (each writes less than 64 bytes) */
				sd_buf	   *b = c->out;
				char	   *o;

				if (!buf_reserve(b, 64 + 2))
					return false;
				o = b->s + b->len;
				o[0] = '"';
				len = v->tag == SD_V_TIMESTAMP ?
					sd_format_timestamp(o + 1, v->u.i, n->kind != SD_K_TIMESTAMP) :
					v->tag == SD_V_DATE ? sd_format_date(o + 1, v->u.i) : sd_format_time(o + 1, v->u.i);
				o[len + 1] = '"';
				b->len += len + 2;
				b->s[b->len] = '\0';
				return true;
			}
		case SD_V_UUID:
			len = sd_format_uuid(tmp, v->u.bytes);
			return put_quoted(c, tmp, len);
		case SD_V_BYTES:
			{
				size_t		need = sd_base64_len(v->len);

				if (!put(c, "\"", 1) || !buf_reserve(c->out, need + 1))
					return false;
				c->out->len += sd_format_base64(c->out->s + c->out->len, v->u.bytes, v->len);
				return put(c, "\"", 1);
			}
		case SD_V_ENUM:
			{
				const sd_type *t = n->type;

				if (!t || v->u.i < 0 || v->u.i >= t->nlabels)
					return put(c, "null", 4);	/* cannot happen */
				return put_string(c, t->labels[v->u.i], strlen(t->labels[v->u.i]));
			}
		case SD_V_JSON:
			return put_json_text(c, v->u.s, v->len);
		case SD_V_ARRAY:
			return write_array(c, n, tape, v);
		case SD_V_ROW:
			return write_row(c, n, tape, v);
	}
	return put(c, "null", 4);
}

sd_jwriter *
sd_jwriter_create(const sd_plan *plan, const sd_hooks *hooks, sd_error *err)
{
	sd_hooks	h = {0};
	sd_jwriter *w;

	sd_error_clear(err);
	if (hooks)
		h = *hooks;
	if (!(w = sd_hook_alloc(&h, sizeof(sd_jwriter))))
	{
		sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
		return NULL;
	}
	memset(w, 0, sizeof(*w));
	w->hooks = h;
	w->plan = plan;
	if (!keys_all(w, sd_plan_root(plan)))
	{
		sd_jwriter_free(w);
		sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
		return NULL;
	}
	return w;
}

bool
sd_jwriter_write(const sd_jwriter *w, const sd_node *node, const sd_val *tape, uint32_t root,
				 sd_buf *out)
{
	wctx		c = {w, out};

	return write_value(&c, node, tape, root) && !out->failed;
}

void
sd_jwriter_free(sd_jwriter *w)
{
	if (!w)
		return;
	for (uint32_t i = 0; i < w->cap; i++)
	{
		sd_hook_free(&w->hooks, w->keys[i].text);
		sd_hook_free(&w->hooks, w->keys[i].off);
	}
	sd_hook_free(&w->hooks, w->keys);
	sd_hook_free(&w->hooks, w);
}
