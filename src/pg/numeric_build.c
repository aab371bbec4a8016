/*
 * numeric_build.c — the one place that knows numeric's on-disk layout: a stored numeric (a jsonb
 * number) read and re-encoded directly, without numeric_out and a second parse, and numerics
 * written without numeric_in (a small integer, an exact decimal of up to 19 digits: the jsonb
 * builder's and the tape converter's fast paths).  The on-disk format is numeric.c's (not
 * exported): a 4-byte varlena header, then either the short header (uint16: 0x8000 | sign 0x2000
 * | display scale << 7 | weight, 7 bits two's complement) or the long one (uint16 sign 0x4000 |
 * display scale, int16 weight), then base-10000 digits (int16), most significant first, without
 * leading or trailing zero digits; zero has no digits and weight 0; 0xC000 marks NaN and the
 * infinities.  What this file does not understand it declines, so that the caller takes the text
 * path.
 */
#include "postgres.h"

#include "common/int.h"

#include "numeric_build.h"

#define NB_SIGN_MASK			0xC000
#define NB_NEG					0x4000
#define NB_SHORT				0x8000
#define NB_SPECIAL				0xC000
#define NB_SHORT_SIGN			0x2000
#define NB_SHORT_DSCALE_MASK	0x1F80
#define NB_SHORT_DSCALE_SHIFT	7
#define NB_SHORT_DSCALE_MAX		(NB_SHORT_DSCALE_MASK >> NB_SHORT_DSCALE_SHIFT)
#define NB_SHORT_WEIGHT_SIGN	0x0040
#define NB_SHORT_WEIGHT_MASK	0x003F
#define NB_DSCALE_MASK			0x3FFF

typedef struct NbParts
{
	bool		neg;
	int			weight;			/* of the first digit, in base-10000 places */
	int			dscale;
	int			ndigits;
	const char *digits;			/* int16 each, possibly unaligned */
} NbParts;

static inline int
nb_digit(const NbParts *p, int i)
{
	int16		d;

	memcpy(&d, p->digits + 2 * i, 2);
	return d;
}

/* The parts of a finite numeric with a 4-byte header and well-formed digits; false otherwise. */
static bool
nb_parts(Numeric num, NbParts *p)
{
	const char *b = (const char *) num;
	uint16		h;
	Size		size;
	int			hdr;

	if (!VARATT_IS_4B_U(num))
		return false;
	size = VARSIZE(num);
	if (size < VARHDRSZ + 2)
		return false;
	memcpy(&h, b + VARHDRSZ, 2);
	if ((h & NB_SIGN_MASK) == NB_SPECIAL)
		return false;
	if (h & NB_SHORT)
	{
		p->neg = (h & NB_SHORT_SIGN) != 0;
		p->dscale = (h & NB_SHORT_DSCALE_MASK) >> NB_SHORT_DSCALE_SHIFT;
		p->weight = (h & NB_SHORT_WEIGHT_MASK) - ((h & NB_SHORT_WEIGHT_SIGN) ? 64 : 0);
		hdr = VARHDRSZ + 2;
	}
	else
	{
		int16		w;

		if (size < VARHDRSZ + 4)
			return false;
		p->neg = (h & NB_SIGN_MASK) == NB_NEG;
		p->dscale = h & NB_DSCALE_MASK;
		memcpy(&w, b + VARHDRSZ + 2, 2);
		p->weight = w;
		hdr = VARHDRSZ + 4;
	}
	if ((size - hdr) % 2 != 0)
		return false;
	p->ndigits = (int) ((size - hdr) / 2);
	p->digits = b + hdr;
	for (int i = 0; i < p->ndigits; i++)
	{
		int			d = nb_digit(p, i);

		if (d < 0 || d >= 10000)
			return false;
	}
	/* canonical form only: no leading or trailing zero digit (make_result strips them) */
	if (p->ndigits > 0 && (nb_digit(p, 0) == 0 || nb_digit(p, p->ndigits - 1) == 0))
		return false;
	return true;
}

bool
sd_numeric_int64(Numeric num, int64 *out)
{
	NbParts		p;
	uint64		mag = 0;
	const char *b = (const char *) num;

	/*
	 * The common case first: a short-header integer of 1..4 base-10000 digits in canonical form
	 * (what nb_parts and the loop below accept, with the same value); anything else below.
	 */
	if (VARATT_IS_4B_U(num) && VARSIZE(num) >= VARHDRSZ + 4 && VARSIZE(num) <= VARHDRSZ + 10 &&
		VARSIZE(num) % 2 == 0)
	{
		uint16		h;
		int			nd = (int) (VARSIZE(num) - VARHDRSZ - 2) / 2;

		memcpy(&h, b + VARHDRSZ, 2);
		if ((h & (NB_SIGN_MASK | NB_SHORT_DSCALE_MASK | NB_SHORT_WEIGHT_SIGN)) == NB_SHORT &&
			(int) (h & NB_SHORT_WEIGHT_MASK) <= 3 && nd <= (int) (h & NB_SHORT_WEIGHT_MASK) + 1)
		{
			int			weight = h & NB_SHORT_WEIGHT_MASK;
			bool		ok = true;

			for (int i = 0; i <= weight; i++)
			{
				int16		d = 0;

				if (i < nd)
				{
					memcpy(&d, b + VARHDRSZ + 2 + 2 * i, 2);
					if (d < 0 || d >= 10000 || (d == 0 && (i == 0 || i == nd - 1)))
						ok = false;
				}
				mag = mag * 10000 + (uint64) (d > 0 ? d : 0);
			}
			if (ok)
			{
				*out = (h & NB_SHORT_SIGN) ? -(int64) mag : (int64) mag;
				return true;
			}
			mag = 0;
		}
	}
	if (!nb_parts(num, &p) || p.dscale != 0)
		return false;
	if (p.ndigits == 0)
	{
		*out = 0;
		return true;
	}
	/* digits after the decimal point, or more than 10000^5 > 2^64 */
	if (p.ndigits > p.weight + 1 || p.weight > 4)
		return false;
	for (int i = 0; i <= p.weight; i++)
	{
		if (pg_mul_u64_overflow(mag, 10000, &mag) ||
			pg_add_u64_overflow(mag, (uint64) (i < p.ndigits ? nb_digit(&p, i) : 0), &mag))
			return false;
	}
	if (p.neg)
	{
		if (mag > (uint64) PG_INT64_MAX + 1)
			return false;
		*out = mag == (uint64) PG_INT64_MAX + 1 ? PG_INT64_MIN : -(int64) mag;
	}
	else
	{
		if (mag > (uint64) PG_INT64_MAX)
			return false;
		*out = (int64) mag;
	}
	return true;
}

/* decimal digits of 1 <= d <= 9999 */
static inline int
nb_width(int d)
{
	return d >= 1000 ? 4 : d >= 100 ? 3 : d >= 10 ? 2 : 1;
}

bool
sd_numeric_fits(Numeric num, int precision, int scale)
{
	NbParts		p;
	int			int_digits = 0;
	int			frac_digits = 0;
	int			last_weight;

	if (!nb_parts(num, &p))
		return false;
	if (precision < 0)
		return true;
	if (scale < 0 || scale > precision)
		return false;
	if (p.ndigits == 0)
		return true;			/* zero fits any numeric(p,s) */
	if (p.weight >= 0)
		int_digits = p.weight * 4 + nb_width(nb_digit(&p, 0));
	last_weight = p.weight - (p.ndigits - 1);
	if (last_weight < 0)
	{
		int			d = nb_digit(&p, p.ndigits - 1);
		int			tz = 0;

		while (d % 10 == 0)
		{
			d /= 10;
			tz++;
		}
		frac_digits = -last_weight * 4 - tz;
	}
	return frac_digits <= scale && int_digits <= precision - scale;
}

Numeric
sd_numeric_with_typmod(Numeric num, int32 typmod)
{
	NbParts		p;
	int			dscale;
	Size		size;
	char	   *out;

	if (!nb_parts(num, &p))
		elog(ERROR, "serde: unexpected numeric format");
	dscale = p.dscale;
	if (typmod >= (int32) VARHDRSZ)
		dscale = (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;
	if (p.ndigits == 0)
	{
		p.neg = false;
		p.weight = 0;
	}
	if (dscale <= NB_SHORT_DSCALE_MAX && p.weight <= NB_SHORT_WEIGHT_MASK &&
		p.weight >= -(NB_SHORT_WEIGHT_MASK + 1))
	{
		uint16		h = NB_SHORT | (p.neg ? NB_SHORT_SIGN : 0) |
			(uint16) (dscale << NB_SHORT_DSCALE_SHIFT) |
			(p.weight < 0 ? NB_SHORT_WEIGHT_SIGN : 0) |
			(uint16) (p.weight & NB_SHORT_WEIGHT_MASK);

		size = VARHDRSZ + 2 + 2 * (Size) p.ndigits;
		out = palloc(size);
		memcpy(out + VARHDRSZ, &h, 2);
		memcpy(out + VARHDRSZ + 2, p.digits, 2 * (Size) p.ndigits);
	}
	else
	{
		uint16		sd = (p.neg ? NB_NEG : 0) | (uint16) (dscale & NB_DSCALE_MASK);
		int16		w = (int16) p.weight;

		size = VARHDRSZ + 4 + 2 * (Size) p.ndigits;
		out = palloc(size);
		memcpy(out + VARHDRSZ, &sd, 2);
		memcpy(out + VARHDRSZ + 2, &w, 2);
		memcpy(out + VARHDRSZ + 4, p.digits, 2 * (Size) p.ndigits);
	}
	SET_VARSIZE(out, size);
	return (Numeric) out;
}

/* ---- writing numerics ------------------------------------------------------------------------ */

static const int64 nb_pow10[19] = {
	INT64CONST(1), INT64CONST(10), INT64CONST(100), INT64CONST(1000), INT64CONST(10000),
	INT64CONST(100000), INT64CONST(1000000), INT64CONST(10000000), INT64CONST(100000000),
	INT64CONST(1000000000), INT64CONST(10000000000), INT64CONST(100000000000),
	INT64CONST(1000000000000), INT64CONST(10000000000000), INT64CONST(100000000000000),
	INT64CONST(1000000000000000), INT64CONST(10000000000000000),
	INT64CONST(100000000000000000), INT64CONST(1000000000000000000)
};


/* The numeric of ±mag, 1 <= mag <= 9999 (display scale 0): varlena header, short numeric header,
 * one base-10000 digit of weight 0 — VARHDRSZ + 4 bytes. */
void
sd_numeric_small_int(char *out, bool neg, uint16 mag)
{
	uint16		h = NB_SHORT | (neg ? NB_SHORT_SIGN : 0);
	int16		dg = (int16) mag;

	SET_VARSIZE(out, VARHDRSZ + 4);
	memcpy(out + VARHDRSZ, &h, 2);
	memcpy(out + VARHDRSZ + 2, &dg, 2);
}

/*
 * Writes to out the numeric that numeric_in gives for the value mag * 10^e with display scale
 * dscale (make_result's canonical form: base-10000 digits without leading or trailing zero
 * digits, zero positive with weight 0, the short header when dscale and weight allow it).
 * mag < 10^19; -2 * SD_FAST_MAX_SCALE <= e <= SD_FAST_MAX_SCALE; 0 <= dscale <=
 * 2 * SD_FAST_MAX_SCALE.  Returns the size written (at most SD_NUMERIC_MAX_FAST).
 */
int
sd_numeric_encode(bool neg, uint64 mag, int e, int dscale, char *out)
{
	uint16		g[8];			/* base-10000 digits, least significant first */
	int			k = 0;
	int			t = 0;
	int			q;
	int			r;
	int			weight;
	int			n;
	int			size;
	char	   *d;

	if (e == 0 && dscale == 0 && mag < 10000 && mag != 0)
	{
		/* the common small integer: one digit, weight 0 */
		sd_numeric_small_int(out, neg, (uint16) mag);
		return VARHDRSZ + 4;
	}
	if (mag == 0)
	{
		neg = false;
		weight = 0;
		n = 0;
	}
	else
	{
		/* mag * 10^e = (mag * 10^r) * 10000^q, 0 <= r < 4 */
		q = e >= 0 ? e / 4 : -((-e + 3) / 4);
		r = e - 4 * q;
		if (r != 0)
		{
			uint64		div = (uint64) nb_pow10[4 - r];

			g[k++] = (uint16) ((mag % div) * (uint64) nb_pow10[r]);
			mag /= div;
		}
		while (mag != 0)
		{
			g[k++] = (uint16) (mag % 10000);
			mag /= 10000;
		}
		weight = k - 1 + q;
		while (g[t] == 0)
			t++;				/* trailing zero digits (g[k - 1] is not zero) */
		n = k - t;
	}
	if (dscale <= NB_SHORT_DSCALE_MAX && weight <= NB_SHORT_WEIGHT_MASK &&
		weight >= -(NB_SHORT_WEIGHT_MASK + 1))
	{
		uint16		h = NB_SHORT | (neg ? NB_SHORT_SIGN : 0) |
			(uint16) (dscale << NB_SHORT_DSCALE_SHIFT) |
			(weight < 0 ? NB_SHORT_WEIGHT_SIGN : 0) |
			(uint16) (weight & NB_SHORT_WEIGHT_MASK);

		size = VARHDRSZ + 2 + 2 * n;
		memcpy(out + VARHDRSZ, &h, 2);
		d = out + VARHDRSZ + 2;
	}
	else
	{
		uint16		sd = (neg ? NB_NEG : 0) | (uint16) (dscale & NB_DSCALE_MASK);
		int16		w = (int16) weight;

		size = VARHDRSZ + 4 + 2 * n;
		memcpy(out + VARHDRSZ, &sd, 2);
		memcpy(out + VARHDRSZ + 2, &w, 2);
		d = out + VARHDRSZ + 4;
	}
	SET_VARSIZE(out, size);
	for (int i = k - 1; i >= t; i--)
	{
		int16		dg = (int16) g[i];

		memcpy(d, &dg, 2);
		d += 2;
	}
	return size;
}

bool
sd_numeric_fast(const char *s, size_t len, int32 typmod, Numeric *out)
{
	const char *p = s;
	const char *end = s + len;
	bool		neg = false;
	uint64		mag = 0;
	int			ndigits = 0;	/* significant digits in mag */
	int			scale = 0;
	int64		val;
	char		buf[SD_NUMERIC_MAX_FAST];
	int			size;

	if (p < end && *p == '-')
	{
		neg = true;
		p++;
	}
	if (p == end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9')
	{
		if (mag != 0 || *p != '0')
		{
			if (++ndigits > 19)
				return false;
			mag = mag * 10 + (uint64) (*p - '0');
		}
		p++;
	}
	if (p < end && *p == '.')
	{
		p++;
		if (p == end || *p < '0' || *p > '9')
			return false;
		while (p < end && *p >= '0' && *p <= '9')
		{
			if (++scale > SD_FAST_MAX_SCALE)
				return false;
			if (mag != 0 || *p != '0')
			{
				if (++ndigits > 19)
					return false;
				mag = mag * 10 + (uint64) (*p - '0');
			}
			p++;
		}
	}
	if (p != end)
		return false;			/* an exponent, a sign, blanks, ...: numeric_in decides */
	if (neg)
	{
		if (mag > (uint64) PG_INT64_MAX + 1)
			return false;
		val = mag == (uint64) PG_INT64_MAX + 1 ? PG_INT64_MIN : -(int64) mag;
	}
	else
	{
		if (mag > (uint64) PG_INT64_MAX)
			return false;
		val = (int64) mag;
	}

	if (typmod >= (int32) VARHDRSZ)
	{
		/* numeric(precision, tscale), as numeric.c encodes it */
		int			precision = ((typmod - VARHDRSZ) >> 16) & 0xffff;
		int			tscale = (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;
		uint64		absval;

		if (tscale < 0 || tscale > precision)
			return false;
		if (scale < tscale)
		{
			if (tscale - scale > 18 ||
				pg_mul_s64_overflow(val, nb_pow10[tscale - scale], &val))
				return false;
		}
		else if (scale > tscale)
		{
			/* only trailing zeros go; anything to round is left to numeric_in */
			if (scale - tscale > 18 || val % nb_pow10[scale - tscale] != 0)
				return false;
			val /= nb_pow10[scale - tscale];
		}
		scale = tscale;
		/* numeric_in raises "numeric field overflow" beyond precision - scale integer digits */
		absval = val < 0 ? (uint64) 0 - (uint64) val : (uint64) val;
		if (precision < 19 && absval >= (uint64) nb_pow10[precision])
			return false;
	}
	size = sd_numeric_encode(val < 0, val < 0 ? (uint64) 0 - (uint64) val : (uint64) val,
							 -scale, scale, buf);
	*out = (Numeric) palloc(size);
	memcpy(*out, buf, size);
	return true;
}

bool
sd_numeric_from_decimal(bool neg, uint64 mag, int scale, int32 typmod, Numeric *out)
{
	char		buf[SD_NUMERIC_MAX_FAST];
	int			dscale = scale;
	int			size;

	if (mag >= (uint64) nb_pow10[18] || scale < 0 || scale > 18)
		return false;
	if (typmod >= (int32) VARHDRSZ)
	{
		int			precision = ((typmod - VARHDRSZ) >> 16) & 0xffff;
		int			tscale = (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;

		if (tscale < 0 || tscale > precision || tscale > 2 * SD_FAST_MAX_SCALE)
			return false;
		dscale = tscale;		/* what numeric_in's rounding to the typmod shows */
	}
	size = sd_numeric_encode(neg, mag, -scale, dscale, buf);
	*out = (Numeric) palloc(size);
	memcpy(*out, buf, size);
	return true;
}
