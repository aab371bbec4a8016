/*
 * numeric_build.c — a stored numeric (a jsonb number) read and re-encoded directly, without
 * numeric_out and a second parse (issue 12 item 7).  The on-disk format is numeric.c's (not
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
