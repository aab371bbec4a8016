/*
 * decimal.c — exact numerics parsed once (issue 12 item 8): the digits and display scale of a
 * JSON number literal that fits a plain decimal of at most 18 digits, for SD_V_DECIMAL (the host
 * builds its numeric from them, no text parsed twice).  sd_plain_decimal is the one-pass parse
 * and typmod check of the common literal; sd_exp_decimal the exponent forms, after
 * sd_check_numeric (scalar.c) accepted them.  Contracts in scalar.h.
 */
#include "scalar.h"

static inline bool
is_digit(char c)
{
	return (unsigned) (c - '0') <= 9;
}

/* One digit of a plain decimal into mag (leading zeros skipped): false past 18 digits. */
static inline bool
decimal_digit(char ch, uint64_t *mag, int *nsig, int *tz)
{
	if (*mag == 0 && ch == '0')
		return true;
	if (++*nsig > 18)
		return false;
	*mag = *mag * 10 + (uint64_t) (ch - '0');
	*tz = ch == '0' ? *tz + 1 : 0;
	return true;
}

bool
sd_plain_decimal(const char *s, size_t len, int precision, int scale, int64_t *digits,
				 uint32_t *nfrac)
{
	const char *p = s,
			   *end = s + len;
	bool		neg = false;
	uint64_t	mag = 0;
	int			nsig = 0;		/* digits in mag (after leading zeros) */
	int			nint = 0;		/* significant integer digits */
	int			frac = 0;
	int			tz = 0;			/* trailing zeros of mag */

	if (p < end && *p == '-')
	{
		neg = true;
		p++;
	}
	if (p == end || !is_digit(*p) || (*p == '0' && p + 1 < end && is_digit(p[1])))
		return false;
	for (; p < end && is_digit(*p); p++)
	{
		if (mag != 0 || *p != '0')
			nint++;
		if (!decimal_digit(*p, &mag, &nsig, &tz))
			return false;
	}
	if (p < end && *p == '.')
	{
		p++;
		if (p == end || !is_digit(*p))
			return false;
		for (; p < end && is_digit(*p); p++)
		{
			if (++frac > 18 || !decimal_digit(*p, &mag, &nsig, &tz))
				return false;
		}
	}
	if (p != end)
		return false;			/* an exponent (or not a number): the general path */
	if (precision >= 0 && mag != 0)
	{
		/* sd_check_numeric's rule on the exponents of the first (k) and last (j) non-zero digit */
		int64_t		k = nint > 0 ? nint - 1 : (int64_t) (nsig - frac) - 1;
		int64_t		j = (int64_t) tz - frac;
		int64_t		int_allowed = (int64_t) precision - scale;

		if (int_allowed >= 0 ? (k >= 0 ? k + 1 : 0) > int_allowed : k >= int_allowed)
			return false;
		if (j < -(int64_t) scale)
			return false;
	}
	*digits = neg ? -(int64_t) mag : (int64_t) mag;
	*nfrac = (uint32_t) frac;
	return true;
}

/* The exponent form, once sd_check_numeric accepted it: a JSON number literal with at most 18
 * significant digits whose value and display scale numeric_in would give (scale = fraction
 * digits written minus the exponent, at least 0) fit a plain decimal of at most 18 digits and
 * scale 18: "1.5e3" is 1500 (scale 0), "1.50e1" 15.0, "15e-1" 1.5. */
bool
sd_exp_decimal(const char *s, size_t len, int64_t *digits, uint32_t *nfrac)
{
	const char *p = s,
			   *end = s + len;
	bool		neg = false;
	uint64_t	mag = 0;
	int			nsig = 0,
				tz = 0;
	int64_t		frac = 0,
				x = 0,
				sc;

	if (p < end && *p == '-')
	{
		neg = true;
		p++;
	}
	for (; p < end && is_digit(*p); p++)
		if (!decimal_digit(*p, &mag, &nsig, &tz))
			return false;
	if (p < end && *p == '.')
		for (p++; p < end && is_digit(*p); p++, frac++)
			if (!decimal_digit(*p, &mag, &nsig, &tz))
				return false;
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		bool		xneg = false;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			xneg = *p++ == '-';
		if (p == end)
			return false;
		for (; p < end && is_digit(*p); p++)
			if ((x = x * 10 + (*p - '0')) > 100)
				return false;	/* far beyond 18 digits either way */
		if (xneg)
			x = -x;
	}
	if (p != end)
		return false;
	sc = frac - x;
	if (sc > 18)
		return false;
	for (; sc < 0; sc++)
	{
		if (mag > 99999999999999999ULL)
			return false;		/* more than 18 digits */
		mag *= 10;
	}
	*digits = neg ? -(int64_t) mag : (int64_t) mag;
	*nfrac = (uint32_t) sc;
	return true;
}
