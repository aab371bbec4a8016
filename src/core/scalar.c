/*
 * scalar.c — the core's fast, exact, locale-free scalar parsers: JSON number grammar, integers,
 * numeric(p,s) checks, correctly rounded floats, RFC 3339 timestamps, dates, times, epoch
 * numbers, UUIDs, base64/base64url/hex and UTF-8 counting.  Contracts are in scalar.h.
 */
#include "scalar.h"

#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Problem texts                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Room for 40 characters rendered at most 6 bytes each (\u00XX), "..." and the NUL. */
#define CUT_BUF 256
#define CUT_CHARS 40

/* Length of the well-formed UTF-8 sequence at s[0..n), or 0 when it is not well formed. */
static size_t
utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t		need;
	unsigned char lo = 0x80,
				hi = 0xBF;

	if (c >= 0xC2 && c <= 0xDF)
		need = 2;
	else if (c >= 0xE0 && c <= 0xEF)
	{
		need = 3;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
	}
	else if (c >= 0xF0 && c <= 0xF4)
	{
		need = 4;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	}
	else
		return 0;
	if (n < need || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < need; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return need;
}

/*
 * Renders document text for a problem: at most 40 characters, '"' and '\' escaped, control
 * characters as \u00XX, bytes that are not UTF-8 as '?', and "..." appended when cut.  Returns
 * buf (CUT_BUF bytes).
 */
static const char *
cut_text(char *buf, const char *s, size_t len)
{
	static const char hexdig[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *) s;
	size_t		i = 0,
				o = 0;
	int			chars = 0;

	while (i < len && chars < CUT_CHARS)
	{
		unsigned char c = u[i];

		if (c == '"' || c == '\\')
		{
			buf[o++] = '\\';
			buf[o++] = (char) c;
			i++;
		}
		else if (c < 0x20 || c == 0x7F)
		{
			buf[o++] = '\\';
			buf[o++] = 'u';
			buf[o++] = '0';
			buf[o++] = '0';
			buf[o++] = hexdig[c >> 4];
			buf[o++] = hexdig[c & 15];
			i++;
		}
		else if (c < 0x80)
			buf[o++] = (char) u[i++];
		else
		{
			size_t		n = utf8_seq_len(u + i, len - i);

			if (n == 0)
			{
				buf[o++] = '?';
				i++;
			}
			else
			{
				memcpy(buf + o, u + i, n);
				o += n;
				i += n;
			}
		}
		chars++;
	}
	if (i < len)
	{
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

/* Writes a problem text and returns code (failure paths only). */
static sd_code fail(char *problem, sd_code code, const char *fmt,...)
			__attribute__((format(printf, 3, 4), cold, noinline));

static sd_code
fail(char *problem, sd_code code, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(problem, SD_PROBLEM_MAX, fmt, ap);
	va_end(ap);
	return code;
}

static sd_code invalid_number(const char *s, size_t len, char *problem)
			__attribute__((cold, noinline));

static sd_code
invalid_number(const char *s, size_t len, char *problem)
{
	char		cut[CUT_BUF];

	return fail(problem, SD_E_KIND, "invalid number \"%s\"", cut_text(cut, s, len));
}

/* ------------------------------------------------------------------------------------------ */
/* JSON number literals                                                                       */
/* ------------------------------------------------------------------------------------------ */

static inline bool
is_digit(char c)
{
	return (unsigned char) (c - '0') < 10;
}

/*
 * Exponents are saturated at this magnitude while scanning: far beyond any exponent that can
 * matter, and small enough that adding a digit count (bounded by the document size) to it
 * never overflows an int64_t.
 */
#define EXP_CLAMP ((int64_t) 1000000000000000)	/* 1e15 */

/* A JSON number literal taken apart. */
typedef struct numlit
{
	bool		neg;
	bool		has_frac;
	bool		has_exp;
	const char *ip;				/* integer digits */
	size_t		nint;
	const char *fp;				/* fraction digits */
	size_t		nfrac;
	int64_t		exp;			/* saturated at +-EXP_CLAMP */
} numlit;

/* Checks s[0..len) against the RFC 8259 number grammar and takes it apart. */
static bool
parse_numlit(const char *s, size_t len, numlit *L)
{
	const char *p = s,
			   *end = s + len;

	L->neg = false;
	L->has_frac = false;
	L->has_exp = false;
	L->exp = 0;
	if (p < end && *p == '-')
	{
		L->neg = true;
		p++;
	}
	if (p == end)
		return false;
	L->ip = p;
	if (*p == '0')
		p++;
	else if (is_digit(*p))
		while (p < end && is_digit(*p))
			p++;
	else
		return false;
	L->nint = (size_t) (p - L->ip);
	L->fp = p;
	L->nfrac = 0;
	if (p < end && *p == '.')
	{
		p++;
		L->fp = p;
		while (p < end && is_digit(*p))
			p++;
		L->nfrac = (size_t) (p - L->fp);
		if (L->nfrac == 0)
			return false;
		L->has_frac = true;
	}
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		bool		eneg = false;
		const char *e0;
		int64_t		e = 0;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
		{
			eneg = (*p == '-');
			p++;
		}
		e0 = p;
		while (p < end && is_digit(*p))
		{
			e = e * 10 + (*p - '0');
			if (e > EXP_CLAMP)
				e = EXP_CLAMP;
			p++;
		}
		if (p == e0)
			return false;
		L->has_exp = true;
		L->exp = eneg ? -e : e;
	}
	return p == end;
}

bool
sd_is_json_number(const char *s, size_t len)
{
	numlit		L;

	return parse_numlit(s, len, &L);
}

/* Digit i (0-based) of the literal's integer digits followed by its fraction digits. */
static inline int
lit_digit(const numlit *L, size_t i)
{
	return (i < L->nint ? L->ip[i] : L->fp[i - L->nint]) - '0';
}

/*
 * The significant digits of a literal: digit indexes f..l (first and last non-zero) and the
 * powers of ten they stand for (k for the most significant, j for the least).  The value's
 * magnitude is the digits f..l read as an integer, times 10^j.
 */
typedef struct sigspan
{
	bool		zero;
	size_t		f;
	size_t		l;
	int64_t		k;
	int64_t		j;
} sigspan;

static void
find_sig(const numlit *L, sigspan *S)
{
	size_t		f,
				l;

	S->zero = false;
	S->k = S->j = 0;
	/* the grammar allows one leading zero only, alone: "0", "0.xxx" */
	if (L->ip[0] != '0')
		f = 0;
	else
	{
		size_t		i = 0;

		while (i < L->nfrac && L->fp[i] == '0')
			i++;
		if (i == L->nfrac)
		{
			S->zero = true;
			S->f = S->l = 0;
			return;
		}
		f = L->nint + i;
	}
	l = L->nfrac;
	while (l > 0 && L->fp[l - 1] == '0')
		l--;
	if (l > 0)
		l = L->nint + l - 1;
	else
	{
		l = L->nint;
		while (L->ip[l - 1] == '0')	/* stops: ip[f] is non-zero here */
			l--;
		l--;
	}
	S->f = f;
	S->l = l;
	S->k = (int64_t) L->nint - 1 - (int64_t) f + L->exp;
	S->j = (int64_t) L->nint - 1 - (int64_t) l + L->exp;
}

/* The integer made of cnt (<= 19) digits from index `from`. */
static uint64_t
lit_digits_value(const numlit *L, size_t from, size_t cnt)
{
	uint64_t	v = 0;
	size_t		to = from + cnt;

	for (size_t i = from; i < to && i < L->nint; i++)
		v = v * 10 + (uint64_t) (L->ip[i] - '0');
	for (size_t i = from > L->nint ? from - L->nint : 0; i + L->nint < to; i++)
		v = v * 10 + (uint64_t) (L->fp[i] - '0');
	return v;
}

static const uint64_t pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL
};

/* ------------------------------------------------------------------------------------------ */
/* Integers                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static sd_code int_range(const char *s, size_t len, const char *typname, char *problem)
			__attribute__((cold, noinline));

static sd_code
int_range(const char *s, size_t len, const char *typname, char *problem)
{
	char		cut[CUT_BUF];

	return fail(problem, SD_E_RANGE, "value %s out of range for %s", cut_text(cut, s, len),
				typname);
}

/* Applies the sign to a magnitude and checks [min, max]. */
static inline sd_code
int_finish(bool neg, uint64_t mag, int64_t min, int64_t max, const char *s, size_t len,
		   const char *typname, int64_t *out, char *problem)
{
	int64_t		v;

	if (!neg)
	{
		if (mag > (uint64_t) INT64_MAX)
			return int_range(s, len, typname, problem);
		v = (int64_t) mag;
	}
	else
	{
		if (mag > (uint64_t) INT64_MAX + 1)
			return int_range(s, len, typname, problem);
		v = (mag == (uint64_t) INT64_MAX + 1) ? INT64_MIN : -(int64_t) mag;
	}
	if (v < min || v > max)
		return int_range(s, len, typname, problem);
	*out = v;
	return SD_OK;
}

/* Everything but a plain literal of 1..19 digits: grammar, fraction/exponent forms, long ones. */
static sd_code
parse_int_slow(const char *s, size_t len, int64_t min, int64_t max, bool integral_forms,
			   const char *typname, int64_t *out, char *problem)
{
	numlit		L;
	sigspan		S;
	char		cut[CUT_BUF];

	if (!parse_numlit(s, len, &L))
		return invalid_number(s, len, problem);
	find_sig(&L, &S);
	if (!S.zero && S.j < 0)
		return fail(problem, SD_E_KIND, "value %s is not an integer", cut_text(cut, s, len));
	if (!integral_forms && (L.has_frac || L.has_exp))
		return fail(problem, SD_E_KIND, "value %s is not an integer literal (it has %s)",
					cut_text(cut, s, len), L.has_exp ? "an exponent" : "a fraction");
	if (S.zero)
		return int_finish(false, 0, min, max, s, len, typname, out, problem);
	if (S.k >= 19)				/* 10^19 and beyond: no int64_t */
		return int_range(s, len, typname, problem);
	/* k <= 18 and j >= 0: at most 19 digits, and digits * 10^j < 10^19 fits a uint64_t */
	return int_finish(L.neg, lit_digits_value(&L, S.f, S.l - S.f + 1) * pow10_u64[S.j],
					  min, max, s, len, typname, out, problem);
}

sd_code
sd_parse_int(const char *s, size_t len, int64_t min, int64_t max, bool integral_forms,
			 const char *typname, int64_t *out, char *problem)
{
	const char *p = s,
			   *end = s + len;
	bool		neg = false;

	if (p < end && *p == '-')
	{
		neg = true;
		p++;
	}
	/* Fast path: 1..19 plain digits, no leading zero; 19 digits cannot overflow a uint64_t. */
	if (end - p >= 1 && end - p <= 19 && (*p != '0' || end - p == 1))
	{
		uint64_t	v = 0;

		/* two digits per step halves the multiply-add dependency chain */
		for (; end - p >= 2; p += 2)
		{
			unsigned	a = (unsigned char) p[0] - '0',
						b = (unsigned char) p[1] - '0';

			if (a > 9 || b > 9)
				break;
			v = v * 100 + a * 10 + b;
		}
		if (p < end && is_digit(*p))
			v = v * 10 + (unsigned) (*p++ - '0');
		if (p == end)
			return int_finish(neg, v, min, max, s, len, typname, out, problem);
	}
	return parse_int_slow(s, len, min, max, integral_forms, typname, out, problem);
}

/* ------------------------------------------------------------------------------------------ */
/* Exact numeric(precision, scale)                                                            */
/* ------------------------------------------------------------------------------------------ */

/* PostgreSQL's numeric limits: input exponents (numeric.c of PostgreSQL 15 rejects
 * |e| >= INT_MAX/2, 16+ |e| > INT_MAX/2; we take the stricter), the weight (an int16 count of
 * base-10000 digits) and the display scale (14 bits), both checked by make_result(). */
#define PG_NUMERIC_EXP_LIMIT 1073741823
#define PG_NUMERIC_MAX_INT_DIGITS 131072
#define PG_NUMERIC_DSCALE_MAX 16383

sd_code
sd_check_numeric(const char *s, size_t len, int precision, int scale, char *problem)
{
	numlit		L;
	sigspan		S;
	char		cut[CUT_BUF];

	if (!parse_numlit(s, len, &L))
		return invalid_number(s, len, problem);
	find_sig(&L, &S);
	if (precision >= 0 && !S.zero)
	{
		int64_t		int_allowed = (int64_t) precision - scale;

		if (int_allowed >= 0)
		{
			int64_t		need = S.k >= 0 ? S.k + 1 : 0;

			if (need > int_allowed)
				return fail(problem, SD_E_RANGE,
							"numeric field overflow: value %s needs %lld integer digit%s, "
							"numeric(%d,%d) allows %lld", cut_text(cut, s, len),
							(long long) need, need == 1 ? "" : "s", precision, scale,
							(long long) int_allowed);
		}
		else if (S.k >= int_allowed)
			return fail(problem, SD_E_RANGE,
						"numeric field overflow: value %s must be less than 1e%lld in absolute "
						"value for numeric(%d,%d)", cut_text(cut, s, len),
						(long long) int_allowed, precision, scale);
		if (S.j < -(int64_t) scale)
		{
			if (scale > 0)
				return fail(problem, SD_E_RANGE, "value %s has more than %d decimal place%s",
							cut_text(cut, s, len), scale, scale == 1 ? "" : "s");
			if (scale == 0)
				return fail(problem, SD_E_RANGE,
							"value %s has decimal places, numeric(%d,0) allows none",
							cut_text(cut, s, len), precision);
			return fail(problem, SD_E_RANGE, "value %s is not a multiple of 1e%d for numeric(%d,%d)",
						cut_text(cut, s, len), -scale, precision, scale);
		}
	}
	/* What PostgreSQL's numeric input itself refuses (typmod or not). */
	if (L.exp >= PG_NUMERIC_EXP_LIMIT || L.exp <= -PG_NUMERIC_EXP_LIMIT ||
		(precision < 0 &&
		 ((!S.zero && S.k >= PG_NUMERIC_MAX_INT_DIGITS) ||
		  (int64_t) L.nfrac - L.exp > PG_NUMERIC_DSCALE_MAX)))
		return fail(problem, SD_E_RANGE, "value %s overflows numeric format",
					cut_text(cut, s, len));
	return SD_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Floating point                                                                             */
/* ------------------------------------------------------------------------------------------ */

/* Powers of ten that doubles (up to 1e22) and floats (up to 1e10) hold exactly. */
static const double pow10_dbl[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};
static const float pow10_flt[11] = {
	1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f
};

/*
 * The exact fast path needs arithmetic in the declared type (one correctly rounded operation
 * on exact operands); x87 extended evaluation would round twice.
 */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define SD_EXACT_FAST_PATH 1
#else
#define SD_EXACT_FAST_PATH 0
#endif

/* Significant digits passed to the slow path: a decimal halfway between two doubles has at
 * most 767 significant digits, so keeping 800 and a sticky non-zero digit for the rest
 * rounds exactly as the full literal would. */
#define FLOAT_KEEP_DIGITS 800

static sd_code float_range(const char *s, size_t len, bool as_float4, char *problem)
			__attribute__((cold, noinline));

static sd_code
float_range(const char *s, size_t len, bool as_float4, char *problem)
{
	char		cut[CUT_BUF];

	return fail(problem, SD_E_RANGE, "value %s out of range for %s", cut_text(cut, s, len),
				as_float4 ? "real" : "double precision");
}

/*
 * The slow path: the significant digits as an integer with an exponent ("DDDDe-42"), handed
 * to strtod/strtof on a NUL-terminated local copy.  The copy holds only ASCII digits, 'e' and
 * '-' — no decimal point — so the result does not depend on LC_NUMERIC (PostgreSQL backends
 * run with LC_NUMERIC=C anyway); glibc's strtod/strtof are correctly rounded.
 */
static double
float_slow(const numlit *L, const sigspan *S, bool as_float4)
{
	char		buf[FLOAT_KEEP_DIGITS + 32];
	size_t		n = S->l - S->f + 1,
				o = 0;
	int64_t		e = S->j;
	char		ebuf[24];
	int			en = 0;
	uint64_t	ue;

	if (n > FLOAT_KEEP_DIGITS)
	{
		n = FLOAT_KEEP_DIGITS;
		/* digit l (non-zero) is among those dropped: a sticky 1 stands for all of them */
		buf[FLOAT_KEEP_DIGITS] = '1';
		e = S->k - FLOAT_KEEP_DIGITS;
	}
	for (size_t i = 0; i < n; i++)
		buf[i] = (char) ('0' + lit_digit(L, S->f + i));
	o = (S->l - S->f + 1 > FLOAT_KEEP_DIGITS) ? FLOAT_KEEP_DIGITS + 1 : n;
	buf[o++] = 'e';
	if (e < 0)
	{
		buf[o++] = '-';
		ue = (uint64_t) (-e);
	}
	else
		ue = (uint64_t) e;
	do
	{
		ebuf[en++] = (char) ('0' + ue % 10);
		ue /= 10;
	} while (ue);
	while (en)
		buf[o++] = ebuf[--en];
	buf[o] = '\0';
	if (as_float4)
		return (double) strtof(buf, NULL);
	return strtod(buf, NULL);
}

sd_code
sd_parse_float(const char *s, size_t len, bool as_float4, double *out, char *problem)
{
	numlit		L;
	sigspan		S;
	double		d;

	if (!parse_numlit(s, len, &L))
		return invalid_number(s, len, problem);
	find_sig(&L, &S);
	if (S.zero)
	{
		*out = L.neg ? -0.0 : 0.0;
		return SD_OK;
	}
	/* Far out of range either way: no need to look at the digits. */
	if (S.k > (as_float4 ? 39 : 310) || S.k < (as_float4 ? -50 : -330))
		return float_range(s, len, as_float4, problem);
#if SD_EXACT_FAST_PATH
	if (S.l - S.f < 19)
	{
		uint64_t	m = lit_digits_value(&L, S.f, S.l - S.f + 1);

		if (as_float4)
		{
			if (m <= ((uint64_t) 1 << 24) && S.j >= -10 && S.j <= 10)
			{
				float		f = (float) m;

				f = S.j < 0 ? f / pow10_flt[-S.j] : f * pow10_flt[S.j];
				*out = L.neg ? -(double) f : (double) f;
				return SD_OK;
			}
		}
		else if (m <= ((uint64_t) 1 << 53))
		{
			if (S.j >= -22 && S.j <= 22)
			{
				d = (double) m;
				d = S.j < 0 ? d / pow10_dbl[-S.j] : d * pow10_dbl[S.j];
				*out = L.neg ? -d : d;
				return SD_OK;
			}
			/* 1.5e30: move the surplus powers into the mantissa while it stays exact */
			if (S.j > 22 && S.j <= 22 + 15 &&
				m <= ((uint64_t) 1 << 53) / pow10_u64[S.j - 22])
			{
				d = (double) (m * pow10_u64[S.j - 22]) * pow10_dbl[22];
				*out = L.neg ? -d : d;
				return SD_OK;
			}
		}
	}
#endif
	d = float_slow(&L, &S, as_float4);
	if (d == 0.0 || d > (as_float4 ? (double) FLT_MAX : DBL_MAX))
		return float_range(s, len, as_float4, problem);
	*out = L.neg ? -d : d;
	return SD_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Dates and times                                                                            */
/* ------------------------------------------------------------------------------------------ */

#define USECS_PER_SEC ((int64_t) 1000000)
#define USECS_PER_MIN (60 * USECS_PER_SEC)
#define USECS_PER_HOUR (60 * USECS_PER_MIN)
#define USECS_PER_DAY (24 * USECS_PER_HOUR)

/* 0001-01-01T00:00:00 and 9999-12-31T23:59:59.999999 in microseconds since 1970-01-01. */
#define DAYS_0001_01_01 ((int64_t) -719162)
#define DAYS_10000_01_01 ((int64_t) 2932897)
#define MIN_TS_US (DAYS_0001_01_01 * USECS_PER_DAY)
#define END_TS_US (DAYS_10000_01_01 * USECS_PER_DAY)	/* exclusive */

/* Why an instant outside [MIN_TS_US, END_TS_US) is refused (after its offset). */
#define OUTSIDE_UTC_YEARS "out of range (0001-01-01 .. 9999-12-31 in UTC)"

/* PostgreSQL accepts time zone displacements up to 15:59 (MAX_TZDISP_HOUR). */
#define MAX_OFFSET_HOUR 15

int64_t
sd_days_from_civil(int y, int m, int d)
{
	/*
	 * Count years from March, so that February's leap day is the last day of a year; then
	 * whole 400-year cycles of 146097 days, years within the cycle (with their leap days),
	 * and days within the March-based year (153 days per 5 months).  719468 is the number of
	 * days from 0000-03-01 to 1970-01-01.
	 */
	int64_t		yy = (int64_t) y - (m <= 2 ? 1 : 0);
	int64_t		cycle = (yy >= 0 ? yy : yy - 399) / 400;
	int64_t		yoc = yy - cycle * 400;
	int64_t		mar = (m + 9) % 12;
	int64_t		doy = (153 * mar + 2) / 5 + d - 1;
	int64_t		doc = yoc * 365 + yoc / 4 - yoc / 100 + doy;

	return cycle * 146097 + doc - 719468;
}

/* The same for years 1..9999 (the parsers' range), in unsigned arithmetic: no sign fix-ups
 * in the divisions. */
static inline int64_t
days_from_civil_ad(int y, int m, int d)
{
	uint32_t	yy = (uint32_t) y - (m <= 2 ? 1u : 0u);
	uint32_t	cycle = yy / 400,
				yoc = yy - cycle * 400;
	uint32_t	mar = (uint32_t) (m > 2 ? m - 3 : m + 9);
	uint32_t	doy = (153 * mar + 2) / 5 + (uint32_t) d - 1;
	uint32_t	doc = yoc * 365 + yoc / 4 - yoc / 100 + doy;

	return (int64_t) (cycle * 146097 + doc) - 719468;
}

static inline bool
is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static const uint8_t days_in_month[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

/* Two ASCII digits at p, or -1. */
static inline int
two_digits(const char *p)
{
	unsigned	a = (unsigned char) p[0] - '0',
				b = (unsigned char) p[1] - '0';

	return (a < 10 && b < 10) ? (int) (a * 10 + b) : -1;
}

typedef struct date_fields
{
	int			y,
				m,
				d;
} date_fields;

/* YYYY-MM-DD at p (10 bytes available). */
static inline bool
scan_date(const char *p, date_fields *D)
{
	int			y1 = two_digits(p),
				y2 = two_digits(p + 2),
				m = two_digits(p + 5),
				d = two_digits(p + 8);

	if ((y1 | y2 | m | d) < 0 || p[4] != '-' || p[7] != '-')
		return false;
	D->y = y1 * 100 + y2;
	D->m = m;
	D->d = d;
	return true;
}

/* The first field of a date that is out of range, or NULL. */
static const char *
check_date(const date_fields *D)
{
	if (D->y < 1)
		return "year out of range";
	if (D->m < 1 || D->m > 12)
		return "month out of range";
	if (D->d < 1 ||
		D->d > days_in_month[D->m] + (D->m == 2 && is_leap(D->y) ? 1 : 0))
		return "day out of range";
	return NULL;
}

typedef struct clock_fields
{
	int			h,
				mi,
				sec;
	int64_t		frac_us;		/* 0 .. 1000000 after rounding */
} clock_fields;

static const int64_t frac_scale[7] = {1000000, 100000, 10000, 1000, 100, 10, 1};

/*
 * A fraction of a second of more than 6 digits in microseconds, as PostgreSQL's own input
 * rounds it (ParseFractionalSecond: rint(strtod(".ddd") * 1000000) in doubles): the digits
 * correctly rounded to a double, times 1e6 in double arithmetic, then to the nearest integer,
 * ties to even.  So a tie such as .0000005 goes the way the double of the fraction falls.
 */
static int64_t
frac_us_as_postgres(const char *fp, size_t n)
{
	numlit		L = {.has_frac = true, .ip = "0", .nint = 1, .fp = fp, .nfrac = n};
	sigspan		S;
	double		x,
				y,
				whole;

	find_sig(&L, &S);
	if (S.zero)
		return 0;
	x = -1;
#if SD_EXACT_FAST_PATH
	if (S.l - S.f < 19 && S.j >= -22)
	{
		uint64_t	m = lit_digits_value(&L, S.f, S.l - S.f + 1);

		if (m <= ((uint64_t) 1 << 53))
			x = (double) m / pow10_dbl[-S.j];
	}
#endif
	if (x < 0)
		x = float_slow(&L, &S, false);
	y = x * 1e6;
	whole = (double) (int64_t) y;	/* y < 1e6: exact */
	if (y - whole > 0.5 || (y - whole == 0.5 && ((int64_t) whole & 1)))
		whole += 1;
	return (int64_t) whole;
}

/*
 * hh:mm:ss[.fraction] at s[pos..len).  Returns the position after it, or 0 when the text does
 * not follow the grammar.  The fraction is rounded to microseconds as PostgreSQL rounds it: up
 * to 6 digits are exact; with more, see frac_us_as_postgres.
 */
static inline size_t
scan_clock(const char *s, size_t len, size_t pos, clock_fields *C)
{
	const char *p = s + pos;

	if (len - pos < 8)
		return 0;
	C->h = two_digits(p);
	C->mi = two_digits(p + 3);
	C->sec = two_digits(p + 6);
	if ((C->h | C->mi | C->sec) < 0 || p[2] != ':' || p[5] != ':')
		return 0;
	pos += 8;
	C->frac_us = 0;
	if (pos < len && s[pos] == '.')
	{
		size_t		f0 = ++pos,
					n;
		int64_t		us = 0;

		while (pos < len && pos - f0 < 6 && is_digit(s[pos]))
			us = us * 10 + (s[pos++] - '0');
		while (pos < len && is_digit(s[pos]))
			pos++;
		n = pos - f0;
		if (n == 0)
			return 0;
		C->frac_us = n <= 6 ? us * frac_scale[n] : frac_us_as_postgres(s + f0, n);
	}
	return pos;
}

static inline int64_t
clock_us(const clock_fields *C)
{
	return C->h * USECS_PER_HOUR + C->mi * USECS_PER_MIN + C->sec * USECS_PER_SEC + C->frac_us;
}

static sd_code bad_datetime(sd_code code, const char *what, const char *s, size_t len,
							const char *why, char *problem) __attribute__((cold, noinline));

static sd_code
bad_datetime(sd_code code, const char *what, const char *s, size_t len, const char *why,
			 char *problem)
{
	char		cut[CUT_BUF];

	return fail(problem, code, "invalid %s \"%s\": %s", what, cut_text(cut, s, len), why);
}

sd_code
sd_parse_timestamp(const char *s, size_t len, bool require_offset, int64_t *us,
				   bool *had_offset, char *problem)
{
	date_fields D;
	clock_fields C;
	size_t		pos;
	sd_ts_fields F = {0};

	if (len < 19 || !scan_date(s, &D) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
		(pos = scan_clock(s, len, 11, &C)) == 0)
		goto syntax;
	if (pos < len)
	{
		char		c = s[pos];

		if ((c == 'Z' || c == 'z') && pos + 1 == len)
			F.has_off = true;
		else if ((c == '+' || c == '-') && len - pos == 6 && s[pos + 3] == ':' &&
				 (F.off_h = two_digits(s + pos + 1)) >= 0 &&
				 (F.off_m = two_digits(s + pos + 4)) >= 0)
		{
			F.has_off = true;
			F.off_sign = (c == '-') ? -1 : 1;
		}
		else
			goto syntax;
	}
	F.y = D.y, F.m = D.m, F.d = D.d;
	F.h = C.h, F.mi = C.mi, F.sec = C.sec, F.frac_us = C.frac_us;
	*had_offset = F.has_off;
	return sd_ts_finish(s, len, &F, require_offset, us, problem);

syntax:
	return bad_datetime(SD_E_KIND, "timestamp", s, len, "expected RFC 3339 date-time", problem);
}

int64_t
sd_frac_digits_us(const char *fp, size_t n)
{
	int64_t		us = 0;

	if (n > 6)
		return frac_us_as_postgres(fp, n);
	for (size_t i = 0; i < n; i++)
		us = us * 10 + (fp[i] - '0');
	return us * frac_scale[n];
}

sd_code
sd_bad_timestamp(sd_code code, const char *s, size_t len, const char *why, char *problem)
{
	return bad_datetime(code, "timestamp", s, len, why, problem);
}

sd_code
sd_ts_finish(const char *s, size_t len, const sd_ts_fields *F, bool require_offset, int64_t *us,
			 char *problem)
{
	date_fields D = {F->y, F->m, F->d};
	clock_fields C = {F->h, F->mi, F->sec, F->frac_us};
	const char *why;
	int64_t		local;

	if (!F->has_off && require_offset)
	{
		char		cut[CUT_BUF];

		return fail(problem, SD_E_KIND, "timestamp \"%s\" has no time zone offset",
					cut_text(cut, s, len));
	}
	if ((why = check_date(&D)) != NULL)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, why, problem);
	/* 24:00:00 only where the grammar allows it (ISO 8601's end of the day) */
	if (C.h > 23 && !(F->end_of_day && C.h == 24 && C.mi == 0 && C.sec == 0 && C.frac_us == 0))
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, F->end_of_day && C.h == 24 ?
							"time of day past 24:00:00" : "hour out of range", problem);
	if (C.mi > 59)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, "minute out of range", problem);
	/* a leap second (:60) rolls into the next minute, as in PostgreSQL; not past 24:00:00 */
	if (C.sec > 60)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, "second out of range", problem);
	if (clock_us(&C) > USECS_PER_DAY)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, "time of day past 24:00:00", problem);
	if (F->off_h > MAX_OFFSET_HOUR || F->off_m > 59)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len,
							"time zone offset out of range", problem);
	/* rounding may carry into the next second, minute, day, ... year */
	local = days_from_civil_ad(D.y, D.m, D.d) * USECS_PER_DAY + clock_us(&C);
	if (local >= END_TS_US)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len,
							"rounds past 9999-12-31 23:59:59.999999", problem);
	local -= F->off_sign * (F->off_h * USECS_PER_HOUR + F->off_m * USECS_PER_MIN);
	/* the offset may move the instant out of the years 0001..9999 (0001-01-01T00:30:00+01:00
	 * is 0000-12-31T23:30:00Z): refused, as the epoch formats refuse it */
	if (local < MIN_TS_US || local >= END_TS_US)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, OUTSIDE_UTC_YEARS, problem);
	*us = local;
	return SD_OK;
}

/* Case-insensitive match of a three-letter name at p against names[0..n): its index or -1. */
static int
name3(const char *p, size_t avail, const char *const *names, int n)
{
	if (avail < 3)
		return -1;
	for (int i = 0; i < n; i++)
	{
		int			k;

		for (k = 0; k < 3; k++)
			if ((p[k] | 0x20) != names[i][k])
				break;
		if (k == 3)
			return i;
	}
	return -1;
}

static size_t
skip_fws(const char *s, size_t len, size_t pos)
{
	while (pos < len && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\r' || s[pos] == '\n'))
		pos++;
	return pos;
}

sd_code
sd_parse_rfc2822(const char *s, size_t len, int64_t *us, char *problem)
{
	static const char *const wdays[7] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
	static const char *const months[12] = {"jan", "feb", "mar", "apr", "may", "jun",
	"jul", "aug", "sep", "oct", "nov", "dec"};
	date_fields D;
	clock_fields C = {0, 0, 0, 0};
	size_t		pos = skip_fws(s, len, 0),
				start;
	int			wday = -1,
				off_min = 0;
	const char *why;
	int64_t		days;

	/* [ day-of-week "," ] */
	if ((wday = name3(s + pos, len - pos, wdays, 7)) >= 0)
	{
		pos = skip_fws(s, len, pos + 3);
		if (pos >= len || s[pos] != ',')
			goto syntax;
		pos = skip_fws(s, len, pos + 1);
	}
	/* day: 1 or 2 digits */
	start = pos;
	D.d = 0;
	while (pos < len && pos - start < 2 && is_digit(s[pos]))
		D.d = D.d * 10 + (s[pos++] - '0');
	if (pos == start || pos >= len || !(s[pos] == ' ' || s[pos] == '\t'))
		goto syntax;
	pos = skip_fws(s, len, pos);
	/* month name */
	if ((D.m = name3(s + pos, len - pos, months, 12) + 1) == 0)
		goto syntax;
	pos += 3;
	if (pos >= len || !(s[pos] == ' ' || s[pos] == '\t'))
		goto syntax;
	pos = skip_fws(s, len, pos);
	/* year: 4 digits; the obsolete 2- and 3-digit years as RFC 5322 §4.3 reads them */
	start = pos;
	D.y = 0;
	while (pos < len && pos - start < 4 && is_digit(s[pos]))
		D.y = D.y * 10 + (s[pos++] - '0');
	if (pos - start < 2 || (pos < len && is_digit(s[pos])))
		goto syntax;
	if (pos - start == 2)
		D.y += D.y < 50 ? 2000 : 1900;
	else if (pos - start == 3)
		D.y += 1900;
	if (pos >= len || !(s[pos] == ' ' || s[pos] == '\t'))
		goto syntax;
	pos = skip_fws(s, len, pos);
	/* hh:mm[:ss] */
	if (len - pos < 5 || (C.h = two_digits(s + pos)) < 0 || s[pos + 2] != ':' ||
		(C.mi = two_digits(s + pos + 3)) < 0)
		goto syntax;
	pos += 5;
	if (pos < len && s[pos] == ':')
	{
		if (len - pos < 3 || (C.sec = two_digits(s + pos + 1)) < 0)
			goto syntax;
		pos += 3;
	}
	if (pos >= len || !(s[pos] == ' ' || s[pos] == '\t'))
		goto syntax;
	pos = skip_fws(s, len, pos);
	/* zone: +hhmm / -hhmm, or UT, GMT, Z and the US zones of RFC 822 */
	if (pos < len && (s[pos] == '+' || s[pos] == '-'))
	{
		int			hh,
					mm;

		if (len - pos < 5 || (hh = two_digits(s + pos + 1)) < 0 ||
			(mm = two_digits(s + pos + 3)) < 0)
			goto syntax;
		if (hh > MAX_OFFSET_HOUR || mm > 59)
			return bad_datetime(SD_E_DATETIME, "timestamp", s, len,
								"time zone offset out of range", problem);
		off_min = (s[pos] == '-' ? -1 : 1) * (hh * 60 + mm);
		pos += 5;
	}
	else
	{
		static const struct
		{
			const char *name;
			int			off;
		}			zones[] = {
			{"gmt", 0}, {"ut", 0}, {"z", 0}, {"edt", -240}, {"est", -300}, {"cdt", -300},
			{"cst", -360}, {"mdt", -360}, {"mst", -420}, {"pdt", -420}, {"pst", -480}
		};
		size_t		n = 0;
		bool		found = false;

		while (pos + n < len && ((s[pos + n] | 0x20) >= 'a' && (s[pos + n] | 0x20) <= 'z'))
			n++;
		for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]) && !found; i++)
		{
			size_t		zl = strlen(zones[i].name),
						k;

			if (zl != n)
				continue;
			for (k = 0; k < n && (s[pos + k] | 0x20) == zones[i].name[k]; k++)
				;
			if (k == n)
			{
				found = true;
				off_min = zones[i].off;
			}
		}
		if (!found)
			goto syntax;
		pos += n;
	}
	if (skip_fws(s, len, pos) != len)
		goto syntax;
	if ((why = check_date(&D)) != NULL)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, why, problem);
	if (C.h > 23)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, "hour out of range", problem);
	if (C.mi > 59)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, "minute out of range", problem);
	if (C.sec > 60)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, "second out of range", problem);
	days = days_from_civil_ad(D.y, D.m, D.d);
	/* 1970-01-01 was a Thursday (index 3, Monday = 0) */
	if (wday >= 0 && (int) (((days % 7) + 7 + 3) % 7) != wday)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len,
							"day of the week does not match the date", problem);
	/* the zone (or the leap second of 9999-12-31 23:59:60) may move the instant out of the
	 * years 0001..9999 */
	days = days * USECS_PER_DAY + clock_us(&C) - (int64_t) off_min * USECS_PER_MIN;
	if (days < MIN_TS_US || days >= END_TS_US)
		return bad_datetime(SD_E_DATETIME, "timestamp", s, len, OUTSIDE_UTC_YEARS, problem);
	*us = days;
	return SD_OK;

syntax:
	return bad_datetime(SD_E_KIND, "timestamp", s, len, "expected RFC 2822 date-time", problem);
}

sd_code
sd_parse_date(const char *s, size_t len, int32_t *days, char *problem)
{
	date_fields D;
	const char *why;

	if (len != 10 || !scan_date(s, &D))
		return bad_datetime(SD_E_KIND, "date", s, len, "expected YYYY-MM-DD", problem);
	if ((why = check_date(&D)) != NULL)
		return bad_datetime(SD_E_DATETIME, "date", s, len, why, problem);
	*days = (int32_t) days_from_civil_ad(D.y, D.m, D.d);
	return SD_OK;
}

sd_code
sd_parse_time(const char *s, size_t len, int64_t *us, char *problem)
{
	clock_fields C;
	int64_t		t;

	if (len == 0 || scan_clock(s, len, 0, &C) != len)
		return bad_datetime(SD_E_KIND, "time", s, len, "expected hh:mm:ss[.fraction]", problem);
	if (C.h > 24)
		return bad_datetime(SD_E_DATETIME, "time", s, len, "hour out of range", problem);
	if (C.mi > 59)
		return bad_datetime(SD_E_DATETIME, "time", s, len, "minute out of range", problem);
	if (C.sec > 60)
		return bad_datetime(SD_E_DATETIME, "time", s, len, "second out of range", problem);
	/* 24:00:00 is allowed, as PostgreSQL does, and so is what rounds to it (and 23:59:60) */
	t = clock_us(&C);
	if (t > USECS_PER_DAY)
		return bad_datetime(SD_E_DATETIME, "time", s, len, "time out of range", problem);
	*us = t;
	return SD_OK;
}

sd_code
sd_parse_epoch(const char *s, size_t len, int64_t unit_us, int64_t *us, char *problem)
{
	numlit		L;
	sigspan		S;
	int			unit_pow = 0;
	int64_t		K,
				J,
				v;
	uint64_t	mag;
	char		cut[CUT_BUF];

	/* the common literal: a whole number of seconds or milliseconds in range, as below */
	if ((unit_us == 1000000 || unit_us == 1000) && len >= 1 && len <= 15 &&
		(s[0] != '0' || len == 1))
	{
		uint64_t	w = 0;
		size_t		i = 0;

		while (i < len && is_digit(s[i]))
			w = w * 10 + (uint64_t) (s[i++] - '0');
		if (i == len && w <= (uint64_t) (END_TS_US - 1) / (uint64_t) unit_us)
		{
			*us = (int64_t) w * unit_us;
			return SD_OK;
		}
	}
	for (int64_t u = unit_us; u > 1 && u % 10 == 0; u /= 10)
		unit_pow++;
	if (unit_us < 1 || unit_pow > 18 || (int64_t) pow10_u64[unit_pow] != unit_us)
		return fail(problem, SD_E_INTERNAL, "epoch unit %lld is not a power of ten",
					(long long) unit_us);
	if (!parse_numlit(s, len, &L))
		return invalid_number(s, len, problem);
	find_sig(&L, &S);
	if (S.zero)
	{
		*us = 0;
		return SD_OK;
	}
	/* microseconds = digits f..l * 10^J, the most significant at 10^K */
	K = S.k + unit_pow;
	J = S.j + unit_pow;
	if (K >= 18)				/* >= 1e18 us: far beyond year 9999 (2.5e17) */
		goto range;
	if (J >= 0)
		mag = lit_digits_value(&L, S.f, S.l - S.f + 1) * pow10_u64[J];
	else
	{
		/* keep the digits at 10^0 and above; the one at 10^-1 rounds (half away from zero) */
		size_t		keep = K >= 0 ? (size_t) (K + 1) : 0;
		int			next = K >= -1 ? lit_digit(&L, S.f + keep) : 0;

		mag = lit_digits_value(&L, S.f, keep) + (next >= 5 ? 1 : 0);
	}
	v = L.neg ? -(int64_t) mag : (int64_t) mag;
	if (v < MIN_TS_US || v >= END_TS_US)
		goto range;
	*us = v;
	return SD_OK;

range:
	return fail(problem, SD_E_DATETIME, "value %s out of range for timestamp "
				"(0001-01-01 .. 9999-12-31)", cut_text(cut, s, len));
}

/* ------------------------------------------------------------------------------------------ */
/* UUID and binary                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* RFC 4648 section 4 alphabet: sextet value of each byte, 255 = not in the alphabet */
static const uint8_t b64_std[256] = {
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,  62, 255, 255, 255,  63,
	 52,  53,  54,  55,  56,  57,  58,  59,  60,  61, 255, 255, 255, 255, 255, 255,
	255,   0,   1,   2,   3,   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,  14,
	 15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25, 255, 255, 255, 255, 255,
	255,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,
	 41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
};
/* RFC 4648 section 5 (URL and filename safe) alphabet, 255 = not in the alphabet */
static const uint8_t b64_url[256] = {
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,  62, 255, 255,
	 52,  53,  54,  55,  56,  57,  58,  59,  60,  61, 255, 255, 255, 255, 255, 255,
	255,   0,   1,   2,   3,   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,  14,
	 15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25, 255, 255, 255, 255,  63,
	255,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,
	 41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
};
/* hex digit value of each byte (either case), 255 = not a hex digit */
static const uint8_t hex_val[256] = {
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	  0,   1,   2,   3,   4,   5,   6,   7,   8,   9, 255, 255, 255, 255, 255, 255,
	255,  10,  11,  12,  13,  14,  15, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255,  10,  11,  12,  13,  14,  15, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
};

/* Offsets of the 16 hex pairs in 8-4-4-4-12 text. */
static const uint8_t uuid_pair_at[16] = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};

sd_code
sd_parse_uuid(const char *s, size_t len, uint8_t out[16], char *problem)
{
	const unsigned char *u = (const unsigned char *) s;
	unsigned	bad = 0;

	if (len != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
		goto invalid;
	for (int i = 0; i < 16; i++)
	{
		unsigned	hi = hex_val[u[uuid_pair_at[i]]],
					lo = hex_val[u[uuid_pair_at[i] + 1]];

		bad |= hi | lo;
		out[i] = (uint8_t) ((hi << 4) | (lo & 15));
	}
	if (bad & 0x80)
		goto invalid;
	return SD_OK;

invalid:
	{
		char		cut[CUT_BUF];

		return fail(problem, SD_E_KIND, "invalid uuid \"%s\"", cut_text(cut, s, len));
	}
}

size_t
sd_binary_max_decoded(sd_format fmt, size_t len)
{
	if (fmt == SD_FMT_HEX)
		return len / 2;
	return (len / 4) * 3 + ((len % 4) * 3) / 4;
}

static sd_code bad_binary(const char *what, size_t at, char *problem)
			__attribute__((cold, noinline));

static sd_code
bad_binary(const char *what, size_t at, char *problem)
{
	return fail(problem, SD_E_KIND, "invalid %s at byte %zu", what, at);
}

/* base64 / base64url with alphabet T: padded or not, '=' only as the final padding. */
static sd_code
decode_base64(const uint8_t *T, const char *what, const char *s, size_t len, uint8_t *out,
			  size_t *outlen, char *problem)
{
	const unsigned char *u = (const unsigned char *) s;
	size_t		n = len,
				i,
				o = 0;

	/* padding: a full final group ending in "=" or "==" */
	if (n >= 4 && n % 4 == 0 && u[n - 1] == '=')
		n -= (u[n - 2] == '=') ? 2 : 1;
	for (i = 0; i + 4 <= n; i += 4)
	{
		unsigned	a = T[u[i]],
					b = T[u[i + 1]],
					c = T[u[i + 2]],
					d = T[u[i + 3]];

		if ((a | b | c | d) & 0x80)
			goto bad_char;
		out[o] = (uint8_t) ((a << 2) | (b >> 4));
		out[o + 1] = (uint8_t) ((b << 4) | (c >> 2));
		out[o + 2] = (uint8_t) ((c << 6) | d);
		o += 3;
	}
	if (n - i == 1)
	{
		/* one character cannot encode a byte */
		return bad_binary(what, i, problem);
	}
	if (n - i >= 2)
	{
		unsigned	a = T[u[i]],
					b = T[u[i + 1]],
					c = (n - i == 3) ? T[u[i + 2]] : 0;

		if ((a | b | c) & 0x80)
			goto bad_char;
		out[o++] = (uint8_t) ((a << 2) | (b >> 4));
		if (n - i == 3)
			out[o++] = (uint8_t) ((b << 4) | (c >> 2));
	}
	*outlen = o;
	return SD_OK;

bad_char:
	while (!(T[u[i]] & 0x80))
		i++;
	return bad_binary(what, i, problem);
}

sd_code
sd_decode_binary(sd_format fmt, const char *s, size_t len, uint8_t *out, size_t *outlen,
				 char *problem)
{
	const unsigned char *u = (const unsigned char *) s;

	switch (fmt)
	{
		case SD_FMT_HEX:
			{
				size_t		i;

				for (i = 0; i + 2 <= len; i += 2)
				{
					unsigned	hi = hex_val[u[i]],
								lo = hex_val[u[i + 1]];

					if ((hi | lo) & 0x80)
						return bad_binary("hex", (hi & 0x80) ? i : i + 1, problem);
					out[i / 2] = (uint8_t) ((hi << 4) | lo);
				}
				if (i < len)
				{
					if (hex_val[u[i]] & 0x80)
						return bad_binary("hex", i, problem);
					return fail(problem, SD_E_KIND, "invalid hex: odd number of digits (%zu)",
								len);
				}
				*outlen = len / 2;
				return SD_OK;
			}
		case SD_FMT_BASE64URL:
			return decode_base64(b64_url, "base64url", s, len, out, outlen, problem);
		case SD_FMT_NONE:
		case SD_FMT_BASE64:
			return decode_base64(b64_std, "base64", s, len, out, outlen, problem);
		default:
			return fail(problem, SD_E_INTERNAL, "format %d is not a binary format", (int) fmt);
	}
}

/* ------------------------------------------------------------------------------------------ */
/* UTF-8                                                                                      */
/* ------------------------------------------------------------------------------------------ */

size_t
sd_utf8_chars(const char *s, size_t len)
{
	const uint64_t hi_bits = 0x8080808080808080ULL;
	size_t		i = 0,
				cont = 0;

	/* A code point starts at every byte that is not a continuation byte (10xxxxxx).  Eight at
	 * a time: bit 7 set and bit 6 clear, summed across the word by one multiplication. */
	for (; i + 8 <= len; i += 8)
	{
		uint64_t	w;

		memcpy(&w, s + i, 8);
		w = (w & ~(w << 1) & hi_bits) >> 7;
		cont += (size_t) ((w * 0x0101010101010101ULL) >> 56);
	}
	for (; i < len; i++)
		cont += ((unsigned char) s[i] & 0xC0) == 0x80;
	return len - cont;
}
