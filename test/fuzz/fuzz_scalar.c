/*
 * fuzz_scalar.c — libFuzzer target: the scalar parsers of scalar.h on arbitrary bytes, each
 * compared with a small, slow, obviously-correct reference written here from scalar.h's
 * contract:
 *   sd_is_json_number     the RFC 8259 number grammar
 *   sd_parse_int          exact decimal value (int2/int4/int8 ranges, plain and integral forms)
 *   sd_parse_float        glibc strtod/strtof (correctly rounded), overflow/underflow errors
 *   sd_check_numeric      the digit rule for numeric(p,s) (several typmods)
 *   sd_parse_date/_time/_timestamp   field-by-field parsers with the documented rounding
 *   sd_parse_epoch        exact decimal scaling, rounding half away from zero, range
 *   sd_parse_uuid         8-4-4-4-12 hex
 *   sd_decode_binary      RFC 4648 base64/base64url and hex decoders (output into a buffer of
 *                         exactly sd_binary_max_decoded bytes: ASan catches any overrun)
 *   sd_parse_iso8601      every RFC 3339 date-time is read as sd_parse_timestamp reads it
 *   sd_decode_base64_mime base64 of the text without CR, LF, spaces and tabs (sd_decode_binary)
 *   sd_parse_pattern      a few compiled patterns: no crash, problem texts well formed
 *   sd_utf8_chars         bytes that are not continuation bytes
 *   sd_days_from_civil    the Fliegel–Van Flandern Julian day formula
 * Every failure must also leave a NUL-terminated, non-empty problem text in the
 * SD_PROBLEM_MAX-byte buffer (a heap buffer of exactly that size).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "scalar.h"
#include "scalar_time.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *problem;

static void
prep_problem(void)
{
	if (!problem)
		problem = malloc(SD_PROBLEM_MAX);
	memset(problem, 'x', SD_PROBLEM_MAX);
}

static void
check_problem(sd_code rc, const char *what)
{
	FZ_ASSERT(rc >= SD_OK && rc <= SD_E_INTERNAL, "%s returned %d", what, (int) rc);
	if (rc != SD_OK)
	{
		FZ_ASSERT(memchr(problem, '\0', SD_PROBLEM_MAX) != NULL, "%s: problem not terminated", what);
		FZ_ASSERT(problem[0] != '\0', "%s: empty problem", what);
		FZ_ASSERT(rc != SD_E_INTERNAL, "%s: internal error: %s", what, problem);
	}
}

static bool
isdig(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- the JSON number grammar, and its decimal value ------------------------------------- */
typedef struct num
{
	bool		neg;
	const char *ip;				/* integer digits */
	size_t		il;
	const char *fp;				/* fraction digits */
	size_t		fl;
	bool		has_frac;
	bool		has_exp;
	bool		exp_huge;		/* |exponent| does not fit comfortably in an int64 */
	int64_t		exp;
	/* the value as M * 10^e10, M without leading or trailing zeros (ml == 0: zero) */
	char	   *m;
	size_t		ml;
	int64_t		e10;
} num;

static bool
ref_number(const char *s, size_t len, num *n)
{
	size_t		i = 0;

	memset(n, 0, sizeof(*n));
	if (i < len && s[i] == '-')
		n->neg = true, i++;
	if (i >= len || !isdig(s[i]))
		return false;
	n->ip = s + i;
	if (s[i] == '0')
		i++;
	else
		while (i < len && isdig(s[i]))
			i++;
	n->il = (size_t) (s + i - n->ip);
	if (i < len && s[i] == '.')
	{
		i++;
		n->has_frac = true;
		n->fp = s + i;
		if (i >= len || !isdig(s[i]))
			return false;
		while (i < len && isdig(s[i]))
			i++;
		n->fl = (size_t) (s + i - n->fp);
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E'))
	{
		bool		eneg = false;
		size_t		digits = 0;

		i++;
		n->has_exp = true;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		if (i >= len || !isdig(s[i]))
			return false;
		while (i < len && isdig(s[i]))
		{
			if (digits > 0 || s[i] != '0')
				digits++;
			if (digits <= 15)
				n->exp = n->exp * 10 + (s[i] - '0');
			i++;
		}
		if (digits > 15)
			n->exp_huge = true, n->exp = 999999999999999LL;
		if (eneg)
			n->exp = -n->exp;
	}
	if (i != len)
		return false;
	/* M and e10 */
	n->m = malloc(n->il + n->fl + 1);
	memcpy(n->m, n->ip, n->il);
	if (n->fl)
		memcpy(n->m + n->il, n->fp, n->fl);
	n->ml = n->il + n->fl;
	n->e10 = n->exp - (int64_t) n->fl;
	{
		size_t		lead = 0;

		while (lead < n->ml && n->m[lead] == '0')
			lead++;
		memmove(n->m, n->m + lead, n->ml - lead);
		n->ml -= lead;
		while (n->ml > 0 && n->m[n->ml - 1] == '0')
			n->ml--, n->e10++;
	}
	return true;
}

static void
num_free(num *n)
{
	free(n->m);
	n->m = NULL;
}

/* ---- integers ---------------------------------------------------------------------------- */
static void
check_int(const char *s, size_t len, const num *n, bool isnum)
{
	static const struct
	{
		int64_t		min,
					max;
		const char *name;
	}			ranges[] = {
		{INT16_MIN, INT16_MAX, "smallint"},
		{INT32_MIN, INT32_MAX, "integer"},
		{INT64_MIN, INT64_MAX, "bigint"},
		{0, 100, "percent"},
	};

	for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++)
		for (int forms = 0; forms < 2; forms++)
		{
			int64_t		out = 0;
			sd_code		rc;
			bool		plain = isnum && !n->has_frac && !n->has_exp;
			/* exact value when it is an integer of at most 38 digits */
			bool		integral = isnum && (n->ml == 0 || n->e10 >= 0);
			bool		small = isnum && (n->ml == 0 || (int64_t) n->ml + n->e10 <= 38);
			__int128	v = 0;

			prep_problem();
			rc = sd_parse_int(s, len, ranges[r].min, ranges[r].max, forms, ranges[r].name, &out, problem);
			check_problem(rc, "sd_parse_int");
			if (!isnum)
			{
				FZ_ASSERT(rc == SD_E_KIND, "sd_parse_int accepted a non-number (rc %d)", rc);
				continue;
			}
			if (integral && small)
			{
				for (size_t i = 0; i < n->ml; i++)
					v = v * 10 + (n->m[i] - '0');
				for (int64_t e = 0; n->ml && e < n->e10; e++)
					v *= 10;
				if (n->neg)
					v = -v;
			}
			if (!plain && !forms)
			{
				FZ_ASSERT(rc == SD_E_KIND, "sd_parse_int (plain) accepted \"%.*s\" (rc %d)",
						  (int) (len > 60 ? 60 : len), s, rc);
				continue;
			}
			if (!integral)
			{
				/* non-integral: KIND, unless it is also out of range by far */
				FZ_ASSERT(rc == SD_E_KIND || rc == SD_E_RANGE, "non-integral value: rc %d", rc);
				if ((int64_t) n->ml + n->e10 <= 18)
					FZ_ASSERT(rc == SD_E_KIND, "non-integral small value gave rc %d", rc);
				continue;
			}
			if (!small || v < ranges[r].min || v > ranges[r].max)
			{
				FZ_ASSERT(rc == SD_E_RANGE, "\"%.*s\" for %s: want out of range, rc %d (out %lld)",
						  (int) (len > 60 ? 60 : len), s, ranges[r].name, rc, (long long) out);
				continue;
			}
			FZ_ASSERT(rc == SD_OK && out == (int64_t) v, "\"%.*s\" for %s (forms %d): rc %d out %lld, want %lld",
					  (int) (len > 60 ? 60 : len), s, ranges[r].name, forms, rc, (long long) out,
					  (long long) v);
		}
}

/* ---- floats ------------------------------------------------------------------------------ */
static void
check_float(const char *s, size_t len, const num *n, bool isnum)
{
	char	   *z = malloc(len + 1);

	memcpy(z, s, len);
	z[len] = '\0';
	for (int f4 = 0; f4 < 2; f4++)
	{
		double		out = 0;
		sd_code		rc;

		prep_problem();
		rc = sd_parse_float(s, len, f4, &out, problem);
		check_problem(rc, "sd_parse_float");
		if (!isnum)
		{
			FZ_ASSERT(rc == SD_E_KIND, "sd_parse_float accepted a non-number");
			continue;
		}
		{
			double		want = f4 ? (double) strtof(z, NULL) : strtod(z, NULL);
			bool		nonzero = n->ml > 0;

			if (isinf(want) || (want == 0 && nonzero))
			{
				FZ_ASSERT(rc == SD_E_RANGE, "\"%.*s\" (float4 %d): want out of range, rc %d out %.17g",
						  (int) (len > 60 ? 60 : len), s, f4, rc, out);
				continue;
			}
			FZ_ASSERT(rc == SD_OK && memcmp(&out, &want, sizeof(double)) == 0,
					  "\"%.*s\" (float4 %d): rc %d out %.17g (%a), want %.17g (%a)",
					  (int) (len > 80 ? 80 : len), s, f4, rc, out, out, want, want);
		}
	}
	free(z);
}

/* ---- numeric(p,s) ------------------------------------------------------------------------ */
static void
check_numeric(const char *s, size_t len, const num *n, bool isnum)
{
	static const int typmods[][2] = {{-1, -1}, {5, 2}, {10, 0}, {3, -2}, {2, 5}, {1, 0}, {38, 10}, {1000, 999}};

	for (size_t t = 0; t < sizeof(typmods) / sizeof(typmods[0]); t++)
	{
		int			p = typmods[t][0],
					sc = typmods[t][1];
		sd_code		rc;

		prep_problem();
		rc = sd_check_numeric(s, len, p, sc, problem);
		check_problem(rc, "sd_check_numeric");
		if (!isnum)
		{
			FZ_ASSERT(rc == SD_E_KIND, "sd_check_numeric accepted a non-number");
			continue;
		}
		FZ_ASSERT(rc == SD_OK || rc == SD_E_RANGE, "sd_check_numeric: rc %d", rc);
		if (p < 0 || n->exp_huge || n->exp >= 1073741823 || n->exp <= -1073741823)
			continue;			/* PostgreSQL's own format limits: not modelled here */
		if ((int64_t) n->il + n->exp > 131072 || (int64_t) n->fl - n->exp > 16383)
			continue;
		{
			/* most and least significant digit positions (powers of ten) */
			bool		fits = n->ml == 0 ||
				((int64_t) n->ml + n->e10 - 1 < (int64_t) p - sc && n->e10 >= -(int64_t) sc);

			FZ_ASSERT(fits == (rc == SD_OK), "\"%.*s\" numeric(%d,%d): rc %d, want %s (%s)",
					  (int) (len > 60 ? 60 : len), s, p, sc, rc, fits ? "ok" : "range error", problem);
		}
	}
}

/* ---- dates and times ----------------------------------------------------------------------- */
static int64_t
ref_days(int64_t y, int64_t m, int64_t d)
{
	/* Fliegel & Van Flandern, valid for Julian day numbers >= 0 (years > -4713) */
	int64_t		jdn = (1461 * (y + 4800 + (m - 14) / 12)) / 4 +
		(367 * (m - 2 - 12 * ((m - 14) / 12))) / 12 -
		(3 * ((y + 4900 + (m - 14) / 12) / 100)) / 4 + d - 32075;

	return jdn - 2440588;
}

static int
mdays(int64_t y, int64_t m)
{
	static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return dm[m - 1];
}

static bool
digits_at(const char *s, size_t len, size_t at, size_t n, int64_t *v)
{
	*v = 0;
	if (at + n > len)
		return false;
	for (size_t i = 0; i < n; i++)
	{
		if (!isdig(s[at + i]))
			return false;
		*v = *v * 10 + (s[at + i] - '0');
	}
	return true;
}

/* Grammar result: 0 = not the grammar (KIND), 1 = parsed (then *range tells field validity). */
static int
ref_date(const char *s, size_t len, size_t at, int64_t *days, bool *range_ok)
{
	int64_t		y,
				m,
				d;

	if (!digits_at(s, len, at, 4, &y) || at + 4 >= len || s[at + 4] != '-' ||
		!digits_at(s, len, at + 5, 2, &m) || at + 7 >= len || s[at + 7] != '-' ||
		!digits_at(s, len, at + 8, 2, &d))
		return 0;
	*range_ok = y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= mdays(y, m);
	if (*range_ok)
		*days = ref_days(y, m, d);
	return 1;
}

/* hh:mm:ss[.fraction] at s[at..end): microseconds, fields checked against hour <= max_hour and
 * second <= 60 (a leap second rolls into the next minute, as in PostgreSQL).  The fraction is
 * rounded as PostgreSQL's input rounds it: up to 6 digits exact; with more,
 * rint(strtod("0.<digits>") * 1e6) (ties to even on the double). */
static int
ref_time(const char *s, size_t end, size_t at, int max_hour, int64_t *us, bool *range_ok,
		 size_t *stop)
{
	int64_t		h,
				mi,
				se,
				frac = 0;
	size_t		i;

	if (!digits_at(s, end, at, 2, &h) || at + 2 >= end || s[at + 2] != ':' ||
		!digits_at(s, end, at + 3, 2, &mi) || at + 5 >= end || s[at + 5] != ':' ||
		!digits_at(s, end, at + 6, 2, &se))
		return 0;
	i = at + 8;
	if (i < end && s[i] == '.')
	{
		size_t		f0 = i + 1,
					nd;

		i++;
		if (i >= end || !isdig(s[i]))
			return 0;
		while (i < end && isdig(s[i]))
			i++;
		nd = i - f0;
		if (nd <= 6)
		{
			for (size_t k = 0; k < 6; k++)
				frac = frac * 10 + (k < nd ? s[f0 + k] - '0' : 0);
		}
		else
		{
			char	   *buf = malloc(nd + 3);

			buf[0] = '0';
			buf[1] = '.';
			memcpy(buf + 2, s + f0, nd);
			buf[nd + 2] = '\0';
			frac = (int64_t) rint(strtod(buf, NULL) * 1e6);
			free(buf);
		}
	}
	*stop = i;
	*range_ok = h <= max_hour && mi <= 59 && se <= 60;
	*us = ((h * 60 + mi) * 60 + se) * 1000000 + frac;
	return 1;
}

static void
check_dates(const char *s, size_t len)
{
	/* date */
	{
		int32_t		days = 0;
		int64_t		want = 0;
		bool		range_ok = false;
		int			g = len == 10 ? ref_date(s, len, 0, &want, &range_ok) : 0;
		sd_code		rc;

		prep_problem();
		rc = sd_parse_date(s, len, &days, problem);
		check_problem(rc, "sd_parse_date");
		if (!g)
			FZ_ASSERT(rc == SD_E_KIND, "sd_parse_date: not YYYY-MM-DD, rc %d", rc);
		else if (!range_ok)
			FZ_ASSERT(rc == SD_E_DATETIME, "sd_parse_date: bad field, rc %d", rc);
		else
			FZ_ASSERT(rc == SD_OK && days == want, "sd_parse_date: rc %d days %d want %lld", rc, days,
					  (long long) want);
	}
	/* time */
	{
		int64_t		us = 0,
					want = 0;
		bool		range_ok = false;
		size_t		stop = 0;
		int			g = ref_time(s, len, 0, 24, &want, &range_ok, &stop);
		sd_code		rc;

		if (g && stop != len)
			g = 0;
		prep_problem();
		rc = sd_parse_time(s, len, &us, problem);
		check_problem(rc, "sd_parse_time");
		if (!g)
			FZ_ASSERT(rc == SD_E_KIND, "sd_parse_time: not the grammar, rc %d", rc);
		else if (!range_ok || want > 86400LL * 1000000)
			FZ_ASSERT(rc == SD_E_DATETIME, "sd_parse_time \"%.*s\": want out of range, rc %d us %lld",
					  (int) len, s, rc, (long long) us);
		else
			FZ_ASSERT(rc == SD_OK && us == want, "sd_parse_time \"%.*s\": rc %d us %lld want %lld",
					  (int) len, s, rc, (long long) us, (long long) want);
	}
	/* timestamp, with and without a required offset */
	for (int req = 0; req < 2; req++)
	{
		int64_t		us = 0,
					days = 0,
					tus = 0,
					off = 0;
		bool		had = false,
					date_ok = false,
					time_ok = false,
					has_off = false,
					off_ok = true;
		size_t		stop = 0;
		int			g = ref_date(s, len, 0, &days, &date_ok);
		sd_code		rc;

		if (g && (len <= 10 || (s[10] != 'T' && s[10] != 't' && s[10] != ' ')))
			g = 0;
		if (g)
			g = ref_time(s, len, 11, 23, &tus, &time_ok, &stop);
		if (g && stop < len)
		{
			int64_t		oh,
						om;

			if ((s[stop] == 'Z' || s[stop] == 'z') && stop + 1 == len)
				has_off = true;
			else if ((s[stop] == '+' || s[stop] == '-') && stop + 6 == len &&
					 digits_at(s, len, stop + 1, 2, &oh) && s[stop + 3] == ':' &&
					 digits_at(s, len, stop + 4, 2, &om))
			{
				has_off = true;
				off_ok = oh <= 15 && om <= 59;
				off = (oh * 60 + om) * 60 * 1000000LL * (s[stop] == '-' ? -1 : 1);
			}
			else
				g = 0;
		}
		prep_problem();
		rc = sd_parse_timestamp(s, len, req, &us, &had, problem);
		check_problem(rc, "sd_parse_timestamp");
		if (!g)
		{
			FZ_ASSERT(rc == SD_E_KIND, "sd_parse_timestamp \"%.*s\": not the grammar, rc %d", (int) len, s, rc);
			continue;
		}
		if (req && !has_off)
		{
			FZ_ASSERT(rc == SD_E_KIND, "sd_parse_timestamp: missing offset accepted, rc %d", rc);
			continue;
		}
		if (!date_ok || !time_ok || tus > 86400LL * 1000000)	/* not past 24:00:00 */
		{
			FZ_ASSERT(rc == SD_E_DATETIME, "sd_parse_timestamp \"%.*s\": bad field, rc %d", (int) len, s, rc);
			continue;
		}
		if (!off_ok)
		{
			FZ_ASSERT(rc != SD_OK, "sd_parse_timestamp \"%.*s\": offset out of range accepted", (int) len, s);
			continue;
		}
		{
			int64_t		wall = days * 86400LL * 1000000 + tus;	/* rounding may carry into the next day */

			if (wall > 253402300799999999LL)
			{
				FZ_ASSERT(rc == SD_E_DATETIME, "sd_parse_timestamp \"%.*s\": past 9999-12-31 accepted (rc %d)",
						  (int) len, s, rc);
				continue;
			}
			if (wall - off < -62135596800LL * 1000000 || wall - off > 253402300799999999LL)
			{
				/* the offset moves the instant outside 0001..9999 in UTC */
				FZ_ASSERT(rc == SD_E_DATETIME, "sd_parse_timestamp \"%.*s\": outside 0001..9999 in UTC accepted (rc %d)",
						  (int) len, s, rc);
				continue;
			}
			FZ_ASSERT(rc == SD_OK && us == wall - off && had == has_off,
					  "sd_parse_timestamp \"%.*s\": rc %d us %lld had %d, want %lld had %d", (int) len, s,
					  rc, (long long) us, had, (long long) (wall - off), has_off);
		}
	}
}

/* ---- epoch numbers ------------------------------------------------------------------------- */
static void
check_epoch(const char *s, size_t len, const num *n, bool isnum)
{
	static const int64_t lo = -62135596800LL * 1000000,
				hi = 253402300799999999LL;

	for (int unit = 0; unit < 2; unit++)
	{
		int64_t		unit_us = unit ? 1000 : 1000000,
					us = 0;
		int			u = unit ? 3 : 6;
		sd_code		rc;

		prep_problem();
		rc = sd_parse_epoch(s, len, unit_us, &us, problem);
		check_problem(rc, "sd_parse_epoch");
		if (!isnum)
		{
			FZ_ASSERT(rc == SD_E_KIND, "sd_parse_epoch accepted a non-number");
			continue;
		}
		{
			/* value in microseconds = M * 10^(e10 + u), rounded half away from zero */
			bool		range = true;
			__int128	v = 0;

			if (n->ml == 0)
				v = 0;
			else if (n->exp_huge)
				range = n->exp < 0;	/* tiny: rounds to 0; huge: out of range */
			else
			{
				int64_t		shift = n->e10 + u;

				if (shift >= 0)
				{
					if ((int64_t) n->ml + shift > 19)
						range = false;
					else
					{
						for (size_t i = 0; i < n->ml; i++)
							v = v * 10 + (n->m[i] - '0');
						for (int64_t e = 0; e < shift; e++)
							v *= 10;
					}
				}
				else
				{
					int64_t		keep = (int64_t) n->ml + shift;	/* integer digits */

					if (keep > 19)
						range = false;
					else
					{
						for (int64_t i = 0; i < keep; i++)
							v = v * 10 + (n->m[i] - '0');
						if (keep >= 0 && n->m[keep] >= '5')
							v++;
					}
				}
			}
			if (n->exp_huge && n->exp < 0)
				v = 0;
			if (n->neg)
				v = -v;
			if (!range || v < lo || v > hi)
			{
				FZ_ASSERT(rc == SD_E_DATETIME, "sd_parse_epoch \"%.*s\" unit %lld: want out of range, rc %d us %lld",
						  (int) (len > 60 ? 60 : len), s, (long long) unit_us, rc, (long long) us);
				continue;
			}
			FZ_ASSERT(rc == SD_OK && us == (int64_t) v, "sd_parse_epoch \"%.*s\" unit %lld: rc %d us %lld want %lld",
					  (int) (len > 60 ? 60 : len), s, (long long) unit_us, rc, (long long) us,
					  (long long) v);
		}
	}
	{
		int64_t		us;
		sd_code		rc;

		prep_problem();
		rc = sd_parse_epoch(s, len, 7, &us, problem);
		FZ_ASSERT(rc == SD_E_INTERNAL || (!isnum && rc == SD_E_KIND), "unit 7: rc %d", rc);
	}
}

/* ---- uuid ---------------------------------------------------------------------------------- */
static int
hexv(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void
check_uuid(const char *s, size_t len)
{
	uint8_t		out[16],
				want[16];
	bool		ok = len == 36;
	int			k = 0;
	sd_code		rc;

	for (size_t i = 0; ok && i < 36; i++)
	{
		if (i == 8 || i == 13 || i == 18 || i == 23)
			ok = s[i] == '-';
		else if (hexv(s[i]) < 0)
			ok = false;
		else if (k % 2 == 0)
			want[k++ / 2] = (uint8_t) (hexv(s[i]) << 4);
		else
			want[k++ / 2] |= (uint8_t) hexv(s[i]);
	}
	prep_problem();
	rc = sd_parse_uuid(s, len, out, problem);
	check_problem(rc, "sd_parse_uuid");
	FZ_ASSERT((rc == SD_OK) == ok, "sd_parse_uuid: rc %d, want %s", rc, ok ? "ok" : "error");
	if (ok)
		FZ_ASSERT(memcmp(out, want, 16) == 0, "sd_parse_uuid: wrong bytes");
	if (!ok)
		FZ_ASSERT(rc == SD_E_KIND, "sd_parse_uuid: rc %d", rc);
}

/* ---- binary -------------------------------------------------------------------------------- */
static int
b64v(char c, bool url)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == (url ? '-' : '+'))
		return 62;
	if (c == (url ? '_' : '/'))
		return 63;
	return -1;
}

/* Returns true and the bytes for valid input. */
static bool
ref_binary(sd_format fmt, const char *s, size_t len, uint8_t *out, size_t *outlen)
{
	size_t		o = 0;

	if (fmt == SD_FMT_HEX)
	{
		if (len % 2)
			return false;
		for (size_t i = 0; i < len; i += 2)
		{
			if (hexv(s[i]) < 0 || hexv(s[i + 1]) < 0)
				return false;
			out[o++] = (uint8_t) (hexv(s[i]) << 4 | hexv(s[i + 1]));
		}
		*outlen = o;
		return true;
	}
	{
		bool		url = fmt == SD_FMT_BASE64URL;
		size_t		n = len;
		uint32_t	acc = 0;
		int			bits = 0;

		/* padding: complete groups only, at the very end */
		if (n % 4 == 0 && n >= 4)
		{
			if (s[n - 1] == '=' && s[n - 2] == '=')
				n -= 2;
			else if (s[n - 1] == '=')
				n -= 1;
			if (n % 4 == 1 || (len - n == 2 && n % 4 != 2) || (len - n == 1 && n % 4 != 3))
				return false;
		}
		if (n % 4 == 1)
			return false;
		for (size_t i = 0; i < n; i++)
		{
			int			v = b64v(s[i], url);

			if (v < 0)
				return false;
			acc = (acc << 6) | (uint32_t) v;
			bits += 6;
			if (bits >= 8)
			{
				bits -= 8;
				out[o++] = (uint8_t) (acc >> bits);
				acc &= (1u << bits) - 1;
			}
		}
		*outlen = o;
		return true;
	}
}

static void
check_binary(const char *s, size_t len)
{
	static const sd_format fmts[] = {SD_FMT_NONE, SD_FMT_BASE64, SD_FMT_BASE64URL, SD_FMT_HEX};

	for (size_t f = 0; f < 4; f++)
	{
		size_t		max = sd_binary_max_decoded(fmts[f], len);
		uint8_t    *out = malloc(max ? max : 1);
		uint8_t    *want = malloc(len + 1);
		size_t		outlen = (size_t) -1,
					wantlen = 0;
		bool		ok = ref_binary(fmts[f], s, len, want, &wantlen);
		sd_code		rc;

		prep_problem();
		rc = sd_decode_binary(fmts[f], s, len, max ? out : out + 1, &outlen, problem);
		check_problem(rc, "sd_decode_binary");
		FZ_ASSERT((rc == SD_OK) == ok, "sd_decode_binary fmt %d \"%.*s\": rc %d (%s), want %s", (int) fmts[f],
				  (int) (len > 60 ? 60 : len), s, rc, rc ? problem : "", ok ? "ok" : "error");
		if (ok)
			FZ_ASSERT(outlen == wantlen && outlen <= max && memcmp(max ? out : out + 1, want, outlen) == 0,
					  "sd_decode_binary fmt %d: %zu bytes (max %zu), want %zu", (int) fmts[f], outlen, max,
					  wantlen);
		else
			FZ_ASSERT(rc == SD_E_KIND, "sd_decode_binary: rc %d", rc);
		free(out);
		free(want);
	}
	{
		size_t		ol;
		uint8_t		b[4];

		prep_problem();
		FZ_ASSERT(sd_decode_binary(SD_FMT_UNIX, s, len < 2 ? len : 2, b, &ol, problem) == SD_E_INTERNAL,
				  "sd_decode_binary accepted a non-binary format");
	}
}

/* ---- the formats of scalar_time.c ----------------------------------------------------- */
static void
check_formats(const char *s, size_t len)
{
	int64_t		a = 0,
				b = 0;
	bool		ha = false,
				hb = false;
	sd_code		rc,
				rc2;
	size_t		max = sd_binary_max_decoded(SD_FMT_BASE64_MIME, len),
				wl = 0,
				n1 = 0,
				n2 = 0;
	char	   *w = malloc(len + 1);
	uint8_t    *o1 = malloc(max + 1),
			   *o2 = malloc(max + 1);
	static sd_arena arena;
	static const sd_tspattern *pats[4];
	static const char *const texts[4] = {"MMM d, yyyy h:mm:ss a", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
	"EEEE, d MMMM yyyy H'h'mm Z", "d.M.yyyy HH:mm:ss.SSSSSSSSSX"};

	prep_problem();
	rc = sd_parse_iso8601(s, len, false, &a, &ha, problem);
	check_problem(rc, "sd_parse_iso8601");
	prep_problem();
	rc2 = sd_parse_timestamp(s, len, false, &b, &hb, problem);
	if (rc2 == SD_OK)
		FZ_ASSERT(rc == SD_OK && a == b && ha == hb, "sd_parse_iso8601 \"%.*s\" differs from RFC 3339",
				  (int) (len > 60 ? 60 : len), s);
	for (size_t i = 0; i < len; i++)
		if (s[i] != '\r' && s[i] != '\n' && s[i] != ' ' && s[i] != '\t')
			w[wl++] = s[i];
	prep_problem();
	rc = sd_decode_base64_mime(s, len, o1, &n1, problem);
	check_problem(rc, "sd_decode_base64_mime");
	rc2 = sd_decode_binary(SD_FMT_BASE64, w, wl, o2, &n2, problem);
	FZ_ASSERT((rc == SD_OK) == (rc2 == SD_OK), "sd_decode_base64_mime \"%.*s\": rc %d, base64 %d",
			  (int) (len > 60 ? 60 : len), s, rc, rc2);
	if (rc == SD_OK)
		FZ_ASSERT(n1 == n2 && n1 <= max && memcmp(o1, o2, n1) == 0, "sd_decode_base64_mime: bytes differ");
	if (!pats[0])
	{
		bool		oom;

		sd_arena_init(&arena, NULL);
		for (int i = 0; i < 4; i++)
			pats[i] = sd_tspattern_compile(&arena, texts[i], strlen(texts[i]), problem, &oom);
	}
	for (int i = 0; i < 4; i++)
	{
		prep_problem();
		rc = sd_parse_pattern(pats[i], s, len, i == 0, &a, problem);
		check_problem(rc, "sd_parse_pattern");
	}
	/* the pattern compiler on the input itself */
	{
		sd_arena	pa;
		bool		oom = false;

		sd_arena_init(&pa, NULL);
		prep_problem();
		if (!sd_tspattern_compile(&pa, s, len, problem, &oom))
			FZ_ASSERT(oom || (memchr(problem, '\0', SD_PROBLEM_MAX) && problem[0]), "pattern compile: no problem text");
		sd_arena_free(&pa);
	}
	free(w);
	free(o1);
	free(o2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data;
	num			n;
	bool		isnum = ref_number(s, size, &n);
	size_t		chars = 0;

	FZ_ASSERT(sd_is_json_number(s, size) == isnum, "sd_is_json_number(\"%.*s\") = %d",
			  (int) (size > 60 ? 60 : size), s, !isnum);
	check_int(s, size, &n, isnum);
	check_float(s, size, &n, isnum);
	check_numeric(s, size, &n, isnum);
	check_epoch(s, size, &n, isnum);
	num_free(&n);
	check_dates(s, size);
	check_uuid(s, size);
	check_binary(s, size);
	check_formats(s, size);

	for (size_t i = 0; i < size; i++)
		chars += (data[i] & 0xC0) != 0x80;
	FZ_ASSERT(sd_utf8_chars(s, size) == chars, "sd_utf8_chars %zu, want %zu", sd_utf8_chars(s, size), chars);

	/* days from civil, on y/m/d taken from the first bytes */
	if (size >= 4)
	{
		int			y = (int) ((data[0] | data[1] << 8) % 14700) - 4700,
					m = data[2] % 12 + 1,
					d = data[3] % mdays(y, m) + 1;

		FZ_ASSERT(sd_days_from_civil(y, m, d) == ref_days(y, m, d), "sd_days_from_civil(%d, %d, %d) = %lld, want %lld",
				  y, m, d, (long long) sd_days_from_civil(y, m, d), (long long) ref_days(y, m, d));
	}
	return 0;
}
