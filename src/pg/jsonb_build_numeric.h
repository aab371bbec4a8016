/*
 * jsonb_build_numeric.h — part of jsonb_build.c's translation unit (include it nowhere else): the
 * numeric fast path — numeric.c's on-disk header, the numeric of a small integer and of an exact
 * decimal of up to 18 digits written without numeric_in (sd_numeric_fast), used by the jsonb
 * writer and by the tape converter.
 */
#ifndef SD_JSONB_BUILD_NUMERIC_H
#define SD_JSONB_BUILD_NUMERIC_H

/* numeric.c's on-disk header (not exported) */
#define SD_NUMERIC_NEG			0x4000
#define SD_NUMERIC_SHORT		0x8000
#define SD_NUMERIC_SHORT_SIGN	0x2000
#define SD_NUMERIC_SHORT_DSCALE_SHIFT 7
#define SD_NUMERIC_SHORT_DSCALE_MAX 0x3F
#define SD_NUMERIC_SHORT_WEIGHT_SIGN 0x0040
#define SD_NUMERIC_SHORT_WEIGHT_MASK 0x003F
#define SD_NUMERIC_DSCALE_MASK	0x3FFF
/* the largest numeric jb_numeric_encode writes: varlena + long header + 6 base-10000 digits */
#define SD_NUMERIC_MAX_FAST		(VARHDRSZ + 4 + 6 * 2)

static const int64 sd_pow10[19] = {
	INT64CONST(1), INT64CONST(10), INT64CONST(100), INT64CONST(1000), INT64CONST(10000),
	INT64CONST(100000), INT64CONST(1000000), INT64CONST(10000000), INT64CONST(100000000),
	INT64CONST(1000000000), INT64CONST(10000000000), INT64CONST(100000000000),
	INT64CONST(1000000000000), INT64CONST(10000000000000), INT64CONST(100000000000000),
	INT64CONST(1000000000000000), INT64CONST(10000000000000000),
	INT64CONST(100000000000000000), INT64CONST(1000000000000000000)
};

/* ---- numeric ------------------------------------------------------------------------------- */

/* The numeric of ±mag, 1 <= mag <= 9999 (display scale 0): varlena header, short numeric header,
 * one base-10000 digit of weight 0 — VARHDRSZ + 4 bytes. */
static inline void
jb_small_int(char *out, bool neg, uint16 mag)
{
	uint16		h = SD_NUMERIC_SHORT | (neg ? SD_NUMERIC_SHORT_SIGN : 0);
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
static inline int
jb_numeric_encode(bool neg, uint64 mag, int e, int dscale, char *out)
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
		jb_small_int(out, neg, (uint16) mag);
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
			uint64		div = (uint64) sd_pow10[4 - r];

			g[k++] = (uint16) ((mag % div) * (uint64) sd_pow10[r]);
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
	if (dscale <= SD_NUMERIC_SHORT_DSCALE_MAX && weight <= SD_NUMERIC_SHORT_WEIGHT_MASK &&
		weight >= -(SD_NUMERIC_SHORT_WEIGHT_MASK + 1))
	{
		uint16		h = SD_NUMERIC_SHORT | (neg ? SD_NUMERIC_SHORT_SIGN : 0) |
			(uint16) (dscale << SD_NUMERIC_SHORT_DSCALE_SHIFT) |
			(weight < 0 ? SD_NUMERIC_SHORT_WEIGHT_SIGN : 0) |
			(uint16) (weight & SD_NUMERIC_SHORT_WEIGHT_MASK);

		size = VARHDRSZ + 2 + 2 * n;
		memcpy(out + VARHDRSZ, &h, 2);
		d = out + VARHDRSZ + 2;
	}
	else
	{
		uint16		sd = (neg ? SD_NUMERIC_NEG : 0) | (uint16) (dscale & SD_NUMERIC_DSCALE_MASK);
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
				pg_mul_s64_overflow(val, sd_pow10[tscale - scale], &val))
				return false;
		}
		else if (scale > tscale)
		{
			/* only trailing zeros go; anything to round is left to numeric_in */
			if (scale - tscale > 18 || val % sd_pow10[scale - tscale] != 0)
				return false;
			val /= sd_pow10[scale - tscale];
		}
		scale = tscale;
		/* numeric_in raises "numeric field overflow" beyond precision - scale integer digits */
		absval = val < 0 ? (uint64) 0 - (uint64) val : (uint64) val;
		if (precision < 19 && absval >= (uint64) sd_pow10[precision])
			return false;
	}
	size = jb_numeric_encode(val < 0, val < 0 ? (uint64) 0 - (uint64) val : (uint64) val,
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

	if (mag >= (uint64) sd_pow10[18] || scale < 0 || scale > 18)
		return false;
	if (typmod >= (int32) VARHDRSZ)
	{
		int			precision = ((typmod - VARHDRSZ) >> 16) & 0xffff;
		int			tscale = (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;

		if (tscale < 0 || tscale > precision || tscale > 2 * SD_FAST_MAX_SCALE)
			return false;
		dscale = tscale;		/* what numeric_in's rounding to the typmod shows */
	}
	size = jb_numeric_encode(neg, mag, -scale, dscale, buf);
	*out = (Numeric) palloc(size);
	memcpy(*out, buf, size);
	return true;
}

#endif /* SD_JSONB_BUILD_NUMERIC_H */
