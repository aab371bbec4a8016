/*
 * unit_scalar.c — unit tests of the core's scalar parsers (src/core/scalar.c): JSON number
 * grammar, integers, numeric(p,s), floats, timestamps/dates/times, epoch numbers, UUIDs,
 * base64/base64url/hex and UTF-8 counting, with sweeps against the C library and the calendar.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "scalar.h"
#include "unit.h"

#define US_PER_SEC INT64_C(1000000)
#define US_PER_DAY (INT64_C(86400) * US_PER_SEC)
#define MIN_TS (INT64_C(-719162) * US_PER_DAY)			/* 0001-01-01T00:00:00 */
#define END_TS (INT64_C(2932897) * US_PER_DAY)			/* 10000-01-01T00:00:00 */

static char P[SD_PROBLEM_MAX];

/* ---- helpers: NUL-terminated test inputs ------------------------------------------------- */

static bool
is_num(const char *s)
{
	return sd_is_json_number(s, strlen(s));
}

static sd_code
pint(const char *s, int64_t min, int64_t max, bool forms, const char *typname, int64_t *out)
{
	P[0] = '\0';
	return sd_parse_int(s, strlen(s), min, max, forms, typname, out, P);
}

/* as bigint, strict or with integral forms */
static sd_code
i8(const char *s, bool forms, int64_t *out)
{
	return pint(s, INT64_MIN, INT64_MAX, forms, "bigint", out);
}

static sd_code
num(const char *s, int p, int sc)
{
	P[0] = '\0';
	return sd_check_numeric(s, strlen(s), p, sc, P);
}

static sd_code
flt(const char *s, bool f4, double *out)
{
	P[0] = '\0';
	return sd_parse_float(s, strlen(s), f4, out, P);
}

static sd_code
ts(const char *s, bool req, int64_t *us, bool *had)
{
	P[0] = '\0';
	return sd_parse_timestamp(s, strlen(s), req, us, had, P);
}

static sd_code
dt(const char *s, int32_t *days)
{
	P[0] = '\0';
	return sd_parse_date(s, strlen(s), days, P);
}

static sd_code
tm(const char *s, int64_t *us)
{
	P[0] = '\0';
	return sd_parse_time(s, strlen(s), us, P);
}

static sd_code
ep(const char *s, int64_t unit, int64_t *us)
{
	P[0] = '\0';
	return sd_parse_epoch(s, strlen(s), unit, us, P);
}

static sd_code
bin(sd_format fmt, const char *s, uint8_t *out, size_t *outlen)
{
	P[0] = '\0';
	return sd_decode_binary(fmt, s, strlen(s), out, outlen, P);
}

/* deterministic generator for the sweep tests */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- JSON number grammar ----------------------------------------------------------------- */

static void
test_json_number(void)
{
	static const char *const good[] = {
		"0", "-0", "1", "-1", "10", "1.5", "0.5", "-0.0", "1e5", "1E5", "1e+5", "1e-5",
		"1.25E-07", "-0.0e-0", "123456789012345678901234567890", "0e0", "9.99e999999999999"
	};
	static const char *const bad[] = {
		"", "-", "00", "01", "-01", "1.", ".5", "+1", "1e", "1e+", "1E-", "--1", " 1", "1 ",
		"0x10", "NaN", "Infinity", "-Infinity", "1.5.5", "1e5e5", "1,5", "1.e5", "-.5",
		"\xd9\xa1", "1_000", "e5", "0.", "-0."
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(is_num(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(!is_num(bad[i]));
	/* the length is honoured: an embedded NUL or trailing bytes beyond len */
	CHECK(!sd_is_json_number("1\0", 2));
	CHECK(sd_is_json_number("12x", 2));
	CHECK(!sd_is_json_number("1.", 2));
}

/* ---- integers ---------------------------------------------------------------------------- */

static void
test_int(void)
{
	int64_t		v = 0;

	/* int64 bounds, exactly */
	CHECK(i8("9223372036854775807", false, &v) == SD_OK && v == INT64_MAX);
	CHECK(i8("-9223372036854775808", false, &v) == SD_OK && v == INT64_MIN);
	CHECK(i8("9223372036854775808", false, &v) == SD_E_RANGE);
	CHECK_STR(P, "value 9223372036854775808 out of range for bigint");
	CHECK(i8("-9223372036854775809", false, &v) == SD_E_RANGE);
	CHECK(i8("18446744073709551615", false, &v) == SD_E_RANGE);
	CHECK(i8("18446744073709551616", false, &v) == SD_E_RANGE);
	CHECK(i8("99999999999999999999", false, &v) == SD_E_RANGE);
	CHECK(i8("-99999999999999999999", false, &v) == SD_E_RANGE);
	CHECK(i8("1000000000000000000", false, &v) == SD_OK && v == INT64_C(1000000000000000000));
	CHECK(i8("9999999999999999999", false, &v) == SD_E_RANGE);		/* 19 digits, > max */

	/* plain forms */
	CHECK(i8("0", false, &v) == SD_OK && v == 0);
	CHECK(i8("-0", false, &v) == SD_OK && v == 0);
	CHECK(i8("7", false, &v) == SD_OK && v == 7);
	CHECK(i8("-42", false, &v) == SD_OK && v == -42);
	CHECK(i8("1234567890123", false, &v) == SD_OK && v == INT64_C(1234567890123));

	/* not JSON numbers */
	CHECK(i8("00", false, &v) == SD_E_KIND);
	CHECK_STR(P, "invalid number \"00\"");
	CHECK(i8("007", true, &v) == SD_E_KIND);
	CHECK(i8("-00", false, &v) == SD_E_KIND);
	CHECK(i8("+1", false, &v) == SD_E_KIND);
	CHECK(i8("1.", true, &v) == SD_E_KIND);
	CHECK(i8(".5", true, &v) == SD_E_KIND);
	CHECK(i8("", false, &v) == SD_E_KIND);
	CHECK(i8("-", false, &v) == SD_E_KIND);
	CHECK(i8(" 1", false, &v) == SD_E_KIND);
	CHECK(i8("1 ", false, &v) == SD_E_KIND);
	CHECK(i8("12a", false, &v) == SD_E_KIND);
	CHECK(i8("abc", true, &v) == SD_E_KIND);
	CHECK_STR(P, "invalid number \"abc\"");
	CHECK(i8("a\"b", true, &v) == SD_E_KIND);
	CHECK_STR(P, "invalid number \"a\\\"b\"");

	/* smallint / integer ranges and the typname in the problem */
	CHECK(pint("32767", -32768, 32767, false, "smallint", &v) == SD_OK && v == 32767);
	CHECK(pint("-32768", -32768, 32767, false, "smallint", &v) == SD_OK && v == -32768);
	CHECK(pint("32768", -32768, 32767, false, "smallint", &v) == SD_E_RANGE);
	CHECK(pint("70000", -32768, 32767, false, "smallint", &v) == SD_E_RANGE);
	CHECK_STR(P, "value 70000 out of range for smallint");
	CHECK(pint("-32769", -32768, 32767, false, "smallint", &v) == SD_E_RANGE);
	CHECK(pint("2147483647", INT32_MIN, INT32_MAX, false, "integer", &v) == SD_OK &&
		  v == INT32_MAX);
	CHECK(pint("-2147483648", INT32_MIN, INT32_MAX, false, "integer", &v) == SD_OK &&
		  v == INT32_MIN);
	CHECK(pint("2147483648", INT32_MIN, INT32_MAX, false, "integer", &v) == SD_E_RANGE);
	CHECK_STR(P, "value 2147483648 out of range for integer");
	CHECK(pint("1e4", -32768, 32767, true, "smallint", &v) == SD_OK && v == 10000);
	CHECK(pint("1e5", -32768, 32767, true, "smallint", &v) == SD_E_RANGE);
	CHECK_STR(P, "value 1e5 out of range for smallint");

	/* strict: no fraction, no exponent, even when integral */
	CHECK(i8("1.0", false, &v) == SD_E_KIND);
	CHECK_STR(P, "value 1.0 is not an integer literal (it has a fraction)");
	CHECK(i8("1e2", false, &v) == SD_E_KIND);
	CHECK_STR(P, "value 1e2 is not an integer literal (it has an exponent)");
	CHECK(i8("0.0", false, &v) == SD_E_KIND);
	CHECK(i8("1.5", false, &v) == SD_E_KIND);
	CHECK_STR(P, "value 1.5 is not an integer");
	CHECK(i8("1e20", false, &v) == SD_E_KIND);
	CHECK(i8("1.5e30", false, &v) == SD_E_KIND);

	/* integral forms (coerce) */
	CHECK(i8("1.0", true, &v) == SD_OK && v == 1);
	CHECK(i8("-1.0", true, &v) == SD_OK && v == -1);
	CHECK(i8("1e2", true, &v) == SD_OK && v == 100);
	CHECK(i8("1E+2", true, &v) == SD_OK && v == 100);
	CHECK(i8("1.50e1", true, &v) == SD_OK && v == 15);
	CHECK(i8("100e-2", true, &v) == SD_OK && v == 1);
	CHECK(i8("12300e-2", true, &v) == SD_OK && v == 123);
	CHECK(i8("0.0", true, &v) == SD_OK && v == 0);
	CHECK(i8("-0.0e5", true, &v) == SD_OK && v == 0);
	CHECK(i8("0e999999999999", true, &v) == SD_OK && v == 0);
	CHECK(i8("0e-999999999999", true, &v) == SD_OK && v == 0);
	CHECK(i8("0.000000000000000000000001e24", true, &v) == SD_OK && v == 1);
	CHECK(i8("9.223372036854775807e18", true, &v) == SD_OK && v == INT64_MAX);
	CHECK(i8("-9.223372036854775808e18", true, &v) == SD_OK && v == INT64_MIN);
	CHECK(i8("9.223372036854775808e18", true, &v) == SD_E_RANGE);
	CHECK(i8("9223372036854775807.000", true, &v) == SD_OK && v == INT64_MAX);
	CHECK(i8("00000000000000000000000000000000000000001", true, &v) == SD_E_KIND);
	CHECK(i8("1.5", true, &v) == SD_E_KIND);
	CHECK_STR(P, "value 1.5 is not an integer");
	CHECK(i8("1e-1", true, &v) == SD_E_KIND);
	CHECK(i8("1.05e1", true, &v) == SD_E_KIND);
	CHECK(i8("1e-999999999999", true, &v) == SD_E_KIND);
	CHECK(i8("1e20", true, &v) == SD_E_RANGE);
	CHECK_STR(P, "value 1e20 out of range for bigint");
	CHECK(i8("1e19", true, &v) == SD_E_RANGE);
	CHECK(i8("1e18", true, &v) == SD_OK && v == INT64_C(1000000000000000000));
	CHECK(i8("-1e18", true, &v) == SD_OK && v == -INT64_C(1000000000000000000));
	CHECK(i8("1e999999999999", true, &v) == SD_E_RANGE);
	CHECK(i8("-1e999999999999999999999999999", true, &v) == SD_E_RANGE);
	CHECK(i8("1.5e30", true, &v) == SD_E_RANGE);
	CHECK(i8("12345678901234567890123.5", true, &v) == SD_E_KIND);	/* not integral first */

	/* long literals are cut at 40 characters in the problem */
	CHECK(i8("12345678901234567890123456789012345678901234567890", false, &v) == SD_E_RANGE);
	CHECK_STR(P, "value 1234567890123456789012345678901234567890... out of range for bigint");
	CHECK(i8("1234567890123456789012345678901234567890", false, &v) == SD_E_RANGE);
	CHECK_STR(P, "value 1234567890123456789012345678901234567890 out of range for bigint");

	/* a very long literal */
	{
		static char big[100002];

		memset(big, '9', 100000);
		big[100000] = '\0';
		CHECK(i8(big, true, &v) == SD_E_RANGE);
		big[0] = '1';
		memset(big + 1, '0', 99999);
		memcpy(big + 100000, "e", 2);
		CHECK(i8(big, true, &v) == SD_E_KIND);			/* "1000...0e": bad grammar */
	}
	/* lengths are honoured */
	CHECK(sd_parse_int("123456", 3, INT64_MIN, INT64_MAX, false, "bigint", &v, P) == SD_OK &&
		  v == 123);
}

/* ---- numeric(p, s) ----------------------------------------------------------------------- */

static void
test_numeric(void)
{
	CHECK(num("123.45", -1, -1) == SD_OK);
	CHECK(num("1e99999", -1, -1) == SD_OK);
	CHECK(num("123.45", 5, 2) == SD_OK);
	CHECK(num("-123.45", 5, 2) == SD_OK);
	CHECK(num("123.45", 4, 2) == SD_E_RANGE);
	CHECK_STR(P, "numeric field overflow: value 123.45 needs 3 integer digits, numeric(4,2) allows 2");
	CHECK(num("1.005", 5, 2) == SD_E_RANGE);
	CHECK_STR(P, "value 1.005 has more than 2 decimal places");
	CHECK(num("1.000", 3, 2) == SD_OK);			/* trailing fraction zeros do not count */
	CHECK(num("1.50000000000000000000", 2, 1) == SD_OK);
	CHECK(num("000.5", 1, 1) == SD_E_KIND);		/* not a JSON number */
	CHECK(num("0.5", 1, 1) == SD_OK);
	CHECK(num("-99.99", 4, 2) == SD_OK);
	CHECK(num("-100", 4, 2) == SD_E_RANGE);
	CHECK(num("99.995", 4, 2) == SD_E_RANGE);		/* no rounding: decimal places */
	CHECK_STR(P, "value 99.995 has more than 2 decimal places");

	/* exponents */
	CHECK(num("1.5e3", 4, 0) == SD_OK);
	CHECK(num("1.5e3", 3, 0) == SD_E_RANGE);
	CHECK_STR(P, "numeric field overflow: value 1.5e3 needs 4 integer digits, numeric(3,0) allows 3");
	CHECK(num("100.0e-2", 1, 0) == SD_OK);
	CHECK(num("12345e-2", 5, 2) == SD_OK);
	CHECK(num("12345e-2", 4, 2) == SD_E_RANGE);
	CHECK(num("1e-2", 3, 1) == SD_E_RANGE);
	CHECK_STR(P, "value 1e-2 has more than 1 decimal place");
	CHECK(num("1e-2", 3, 2) == SD_OK);
	CHECK(num("0.000", 1, 0) == SD_OK);
	CHECK(num("0e999999999999", 1, 0) == SD_E_RANGE);	/* PostgreSQL refuses such exponents */
	CHECK(num("1e-99999999999", 3, 1) == SD_E_RANGE);
	CHECK_STR(P, "value 1e-99999999999 has more than 1 decimal place");
	CHECK(num("1e99999999999", 3, 1) == SD_E_RANGE);
	CHECK(num("1e-99999999999999999999999999999999", 3, 1) == SD_E_RANGE);
	CHECK(num("1.5", 3, 0) == SD_E_RANGE);
	CHECK_STR(P, "value 1.5 has decimal places, numeric(3,0) allows none");

	/* integer digits vs precision - scale, scale = precision */
	CHECK(num("0.99", 2, 2) == SD_OK);
	CHECK(num("1", 2, 2) == SD_E_RANGE);
	CHECK_STR(P, "numeric field overflow: value 1 needs 1 integer digit, numeric(2,2) allows 0");
	CHECK(num("0.0012", 2, 4) == SD_OK);
	/* scale > precision (PostgreSQL 15+): |value| < 10^(p-s) */
	CHECK(num("0.00012", 2, 5) == SD_OK);
	CHECK(num("0.001", 2, 5) == SD_E_RANGE);
	CHECK_STR(P, "numeric field overflow: value 0.001 must be less than 1e-3 in absolute value for numeric(2,5)");
	CHECK(num("0.000123", 2, 5) == SD_E_RANGE);
	/* negative scale: multiples of 10^-s */
	CHECK(num("12300", 3, -2) == SD_OK);
	CHECK(num("-12300.000", 3, -2) == SD_OK);
	CHECK(num("12345", 3, -2) == SD_E_RANGE);
	CHECK_STR(P, "value 12345 is not a multiple of 1e2 for numeric(3,-2)");
	CHECK(num("123400", 3, -2) == SD_E_RANGE);
	CHECK(num("1.234e4", 3, -2) == SD_E_RANGE);
	CHECK(num("1.23e4", 3, -2) == SD_OK);

	/* unconstrained: only PostgreSQL's numeric storage limits */
	CHECK(num("1e-16383", -1, 0) == SD_OK);
	CHECK(num("1e-16384", -1, 0) == SD_E_RANGE);
	CHECK_STR(P, "value 1e-16384 overflows numeric format");
	CHECK(num("1e131071", -1, 0) == SD_OK);
	CHECK(num("1e131072", -1, 0) == SD_E_RANGE);
	CHECK(num("1e-99999999999", -1, 0) == SD_E_RANGE);
	CHECK(num("0e-99999999999", -1, 0) == SD_E_RANGE);

	/* bad text */
	CHECK(num("abc", 5, 2) == SD_E_KIND);
	CHECK_STR(P, "invalid number \"abc\"");
	CHECK(num("1.", -1, 0) == SD_E_KIND);
	CHECK(num("", 5, 2) == SD_E_KIND);
}

/* true when the literal's digits before any exponent are all zero */
static bool
all_zero(const char *lit)
{
	for (; *lit && *lit != 'e'; lit++)
		if (*lit >= '1' && *lit <= '9')
			return false;
	return true;
}

/* ---- floating point ---------------------------------------------------------------------- */

/* 5^1075 in decimal (752 digits): 5^1075 * 10^-1075 = 2^-1075, half the least subnormal. */
static void
pow5_1075(char *out)
{
	uint8_t		d[800];
	int			n = 1;

	d[0] = 1;
	for (int k = 0; k < 1075; k++)
	{
		int			carry = 0;

		for (int i = 0; i < n; i++)
		{
			int			x = d[i] * 5 + carry;

			d[i] = (uint8_t) (x % 10);
			carry = x / 10;
		}
		if (carry)
			d[n++] = (uint8_t) carry;
	}
	for (int i = 0; i < n; i++)
		out[i] = (char) ('0' + d[n - 1 - i]);
	out[n] = '\0';
}

static void
test_float(void)
{
	double		d = 1;

	CHECK(flt("0", false, &d) == SD_OK && d == 0 && !signbit(d));
	CHECK(flt("-0", false, &d) == SD_OK && d == 0 && signbit(d));
	CHECK(flt("-0.0e10", true, &d) == SD_OK && d == 0 && signbit(d));
	CHECK(flt("0e999999999999", false, &d) == SD_OK && d == 0);
	CHECK(flt("1.5", false, &d) == SD_OK && d == 1.5);
	CHECK(flt("-2.25", false, &d) == SD_OK && d == -2.25);
	CHECK(flt("0.1", false, &d) == SD_OK && d == 0.1);
	CHECK(flt("3.141592653589793", false, &d) == SD_OK && d == 3.141592653589793);
	CHECK(flt("3.14159265358979323846264338327950288", false, &d) == SD_OK &&
		  d == 3.14159265358979323846264338327950288);
	CHECK(flt("1e22", false, &d) == SD_OK && d == 1e22);
	CHECK(flt("1e23", false, &d) == SD_OK && d == 1e23);
	CHECK(flt("1.5e30", false, &d) == SD_OK && d == 1.5e30);
	CHECK(flt("9007199254740993", false, &d) == SD_OK && d == 9007199254740992.0);
	CHECK(flt("123456789012345678901234567890", false, &d) == SD_OK &&
		  d == 123456789012345678901234567890.0);
	CHECK(flt("1.7976931348623157e308", false, &d) == SD_OK && d == DBL_MAX);
	CHECK(flt("1.7976931348623158e308", false, &d) == SD_OK && d == DBL_MAX);
	CHECK(flt("1.7976931348623159e308", false, &d) == SD_E_RANGE);
	CHECK(flt("2.2250738585072014e-308", false, &d) == SD_OK && d == DBL_MIN);
	CHECK(flt("4.9406564584124654e-324", false, &d) == SD_OK && d == 4.9406564584124654e-324);
	CHECK(flt("2.5e-324", false, &d) == SD_OK && d == 4.9406564584124654e-324);
	CHECK(flt("2.4e-324", false, &d) == SD_E_RANGE);		/* underflow to 0 */

	CHECK(flt("1e400", false, &d) == SD_E_RANGE);
	CHECK_STR(P, "value 1e400 out of range for double precision");
	CHECK(flt("-1e400", false, &d) == SD_E_RANGE);
	CHECK(flt("1e-400", false, &d) == SD_E_RANGE);
	CHECK_STR(P, "value 1e-400 out of range for double precision");
	CHECK(flt("1e999999999999999999999", false, &d) == SD_E_RANGE);
	CHECK(flt("1e-999999999999999999999", false, &d) == SD_E_RANGE);
	CHECK(flt("NaN", false, &d) == SD_E_KIND);
	CHECK(flt("Infinity", false, &d) == SD_E_KIND);
	CHECK(flt("1.", false, &d) == SD_E_KIND);
	CHECK(flt(".5", false, &d) == SD_E_KIND);
	CHECK(flt("+1", false, &d) == SD_E_KIND);
	CHECK(flt("0x1p3", false, &d) == SD_E_KIND);
	CHECK_STR(P, "invalid number \"0x1p3\"");

	/* float4 */
	CHECK(flt("1.5", true, &d) == SD_OK && d == 1.5);
	CHECK(flt("0.1", true, &d) == SD_OK && d == (double) 0.1f);
	CHECK(flt("3.14159", true, &d) == SD_OK && d == (double) 3.14159f);
	CHECK(flt("0.123456789", true, &d) == SD_OK && d == (double) 0.123456789f);
	CHECK(flt("3.4028235e38", true, &d) == SD_OK && d == (double) FLT_MAX);
	CHECK(flt("3.5e38", true, &d) == SD_E_RANGE);
	CHECK_STR(P, "value 3.5e38 out of range for real");
	CHECK(flt("-1e39", true, &d) == SD_E_RANGE);
	CHECK(flt("1e300", true, &d) == SD_E_RANGE);
	CHECK(flt("1.4e-45", true, &d) == SD_OK && d == (double) 1.4e-45f && d > 0);
	CHECK(flt("1e-46", true, &d) == SD_E_RANGE);
	CHECK_STR(P, "value 1e-46 out of range for real");
	CHECK(flt("1e-300", true, &d) == SD_E_RANGE);
	CHECK(flt("1.17549435e-38", true, &d) == SD_OK && d == (double) FLT_MIN);
	/* correctly rounded to float directly, not through a double: the double nearest this is
	 * the midpoint 1 + 2^-24, which would then round to even (1.0) */
	CHECK(flt("1.0000000596046448", true, &d) == SD_OK && d == (double) 1.00000012f);
	CHECK(flt("1.0000000596046447", true, &d) == SD_OK && d == 1.0);

	/* halfway cases longer than the 800 digits kept: the sticky digit decides */
	{
		static char lit[2000];
		char		p5[800];
		size_t		n;

		pow5_1075(p5);
		CHECK(strlen(p5) == 752);
		snprintf(lit, sizeof(lit), "%se-1075", p5);			/* exactly 2^-1075: ties to 0 */
		CHECK(flt(lit, false, &d) == SD_E_RANGE);
		n = (size_t) snprintf(lit, sizeof(lit), "0.");
		for (int i = 0; i < 323; i++)
			lit[n++] = '0';
		n += (size_t) snprintf(lit + n, sizeof(lit) - n, "%s", p5);
		for (int i = 0; i < 200; i++)
			lit[n++] = '0';
		memcpy(lit + n, "1", 2);						/* a hair above: rounds up */
		CHECK(strlen(lit) > 1000);
		CHECK(flt(lit, false, &d) == SD_OK && d == 4.9406564584124654e-324);
		lit[n] = '\0';									/* exactly half again */
		CHECK(flt(lit, false, &d) == SD_E_RANGE);
		CHECK(strtod(lit, NULL) == 0.0);
	}

	/* sweep against the C library (this test runs in the C locale) */
	{
		int			bad64 = 0,
					bad32 = 0,
					fast = 0;

		for (int it = 0; it < 200000; it++)
		{
			char		lit[80];
			size_t		n = 0;
			int			nint = 1 + (int) (rng() % 12),
						nfrac = (int) (rng() % 13),
						ex = (it % 4 == 0) ? (int) (rng() % 60) - 30 : (int) (rng() % 700) - 350;
			double		want,
						got = 0;
			float		want4;
			sd_code		rc;

			if (it % 3 == 1)
			{
				/* short mantissas, small exponents: the float4 fast path */
				nint = 1 + (int) (rng() % 4);
				nfrac = (int) (rng() % 4);
				ex = (int) (rng() % 25) - 12;
			}
			if (rng() & 1)
				lit[n++] = '-';
			if (rng() % 8 == 0)
				lit[n++] = '0';				/* 0.xxx */
			else
				for (int i = 0; i < nint; i++)
					lit[n++] = (char) ('0' + (i == 0 ? 1 + rng() % 9 : rng() % 10));
			if (nfrac)
			{
				lit[n++] = '.';
				for (int i = 0; i < nfrac; i++)
					lit[n++] = (char) ('0' + rng() % 10);
			}
			if (rng() % 4)
				n += (size_t) snprintf(lit + n, sizeof(lit) - n, "e%d", ex);
			lit[n] = '\0';
			if (!sd_is_json_number(lit, n))
				continue;
			want = strtod(lit, NULL);
			rc = sd_parse_float(lit, n, false, &got, P);
			if (want == 0.0 && !all_zero(lit))
				bad64 += (rc != SD_E_RANGE);
			else if (isinf(want))
				bad64 += (rc != SD_E_RANGE);
			else
			{
				bad64 += (rc != SD_OK || memcmp(&got, &want, sizeof(double)) != 0);
				fast += (ex >= -30 && ex <= 30);
			}
			want4 = strtof(lit, NULL);
			rc = sd_parse_float(lit, n, true, &got, P);
			if (want4 == 0.0f && !all_zero(lit))
				bad32 += (rc != SD_E_RANGE);
			else if (isinf(want4))
				bad32 += (rc != SD_E_RANGE);
			else
				bad32 += (rc != SD_OK || got != (double) want4 || !signbit(got) != !signbit(want4));
		}
		CHECK(bad64 == 0);
		CHECK(bad32 == 0);
		CHECK(fast > 10000);
	}
}

/* ---- timestamps, dates, times ------------------------------------------------------------ */

static void
test_days_from_civil(void)
{
	static const uint8_t mdays[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int64_t		expect = -719162;
	int			mismatches = 0;

	CHECK(sd_days_from_civil(1970, 1, 1) == 0);
	CHECK(sd_days_from_civil(1969, 12, 31) == -1);
	CHECK(sd_days_from_civil(2024, 1, 1) == 19723);
	CHECK(sd_days_from_civil(2024, 2, 29) == 19782);
	CHECK(sd_days_from_civil(2000, 3, 1) == 11017);
	CHECK(sd_days_from_civil(1900, 3, 1) == -25508);
	CHECK(sd_days_from_civil(1600, 2, 29) == -135081);
	CHECK(sd_days_from_civil(1, 1, 1) == -719162);
	CHECK(sd_days_from_civil(9999, 12, 31) == 2932896);
	CHECK(sd_days_from_civil(0, 3, 1) == -719468);
	/* every day of 0001..9999 is the day before plus one */
	for (int y = 1; y <= 9999; y++)
		for (int m = 1; m <= 12; m++)
		{
			int			nd = mdays[m] + (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));

			for (int d = 1; d <= nd; d++)
			{
				char		txt[11];
				int32_t		days = 0;

				txt[0] = (char) ('0' + y / 1000);
				txt[1] = (char) ('0' + y / 100 % 10);
				txt[2] = (char) ('0' + y / 10 % 10);
				txt[3] = (char) ('0' + y % 10);
				txt[4] = txt[7] = '-';
				txt[5] = (char) ('0' + m / 10);
				txt[6] = (char) ('0' + m % 10);
				txt[8] = (char) ('0' + d / 10);
				txt[9] = (char) ('0' + d % 10);
				mismatches += (sd_days_from_civil(y, m, d) != expect);
				mismatches += (sd_parse_date(txt, 10, &days, P) != SD_OK || days != expect);
				expect++;
			}
			/* the day after the last of the month is refused */
			{
				char		txt[11];
				int32_t		days;

				memcpy(txt, "0000-00-00", 11);
				txt[0] = (char) ('0' + y / 1000);
				txt[1] = (char) ('0' + y / 100 % 10);
				txt[2] = (char) ('0' + y / 10 % 10);
				txt[3] = (char) ('0' + y % 10);
				txt[5] = (char) ('0' + m / 10);
				txt[6] = (char) ('0' + m % 10);
				txt[8] = (char) ('0' + (nd + 1) / 10);
				txt[9] = (char) ('0' + (nd + 1) % 10);
				mismatches += (sd_parse_date(txt, 10, &days, P) != SD_E_DATETIME);
			}
		}
	CHECK(mismatches == 0);
	CHECK(expect == 2932897);
}

static void
test_timestamp(void)
{
	int64_t		us = 0;
	bool		had = false;
	const int64_t t2024 = INT64_C(1704067200) * US_PER_SEC;

	CHECK(ts("2024-01-01T00:00:00Z", true, &us, &had) == SD_OK && us == t2024 && had);
	CHECK(ts("1970-01-01T00:00:00Z", true, &us, &had) == SD_OK && us == 0);
	CHECK(ts("1970-01-01t00:00:00z", true, &us, &had) == SD_OK && us == 0 && had);
	CHECK(ts("1970-01-01 00:00:00Z", true, &us, &had) == SD_OK && us == 0);
	CHECK(ts("1970-01-01T00:00:00+00:00", true, &us, &had) == SD_OK && us == 0);
	CHECK(ts("1970-01-01T00:00:00-00:00", true, &us, &had) == SD_OK && us == 0);
	CHECK(ts("2024-03-15T13:45:30Z", true, &us, &had) == SD_OK &&
		  us == (INT64_C(19797) * 86400 + 13 * 3600 + 45 * 60 + 30) * US_PER_SEC);

	/* without an offset: wall time as is, unless required */
	had = true;
	CHECK(ts("2024-01-01T00:00:00", false, &us, &had) == SD_OK && us == t2024 && !had);
	CHECK(ts("2024-01-01T00:00:00", true, &us, &had) == SD_E_KIND);
	CHECK_STR(P, "timestamp \"2024-01-01T00:00:00\" has no time zone offset");
	CHECK(ts("2024-01-01T00:00:00.5", false, &us, &had) == SD_OK && us == t2024 + 500000);

	/* offsets */
	CHECK(ts("1970-01-01T00:00:00+01:00", true, &us, &had) == SD_OK && us == -3600 * US_PER_SEC);
	CHECK(ts("1970-01-01T00:00:00-05:30", true, &us, &had) == SD_OK && us == 19800 * US_PER_SEC);
	CHECK(ts("1970-01-01T00:00:00+01:00", false, &us, &had) == SD_OK && us == -3600 * US_PER_SEC &&
		  had);
	CHECK(ts("2024-01-01T00:00:00+14:00", true, &us, &had) == SD_OK &&
		  us == t2024 - 14 * 3600 * US_PER_SEC);
	CHECK(ts("2024-01-01T00:00:00-12:00", true, &us, &had) == SD_OK &&
		  us == t2024 + 12 * 3600 * US_PER_SEC);
	CHECK(ts("2024-01-01T00:00:00+15:59", true, &us, &had) == SD_OK &&
		  us == t2024 - (15 * 3600 + 59 * 60) * US_PER_SEC);
	CHECK(ts("2024-01-01T00:00:00-15:59", true, &us, &had) == SD_OK);
	CHECK(ts("2024-01-01T00:00:00+16:00", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"2024-01-01T00:00:00+16:00\": time zone offset out of range");
	CHECK(ts("2024-01-01T00:00:00-23:59", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("2024-01-01T00:00:00+01:60", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("2024-01-01T00:00:00+1:00", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00:00:00+0100", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00:00:00+01", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00:00:00+01:00:00", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00:00:00+01:0a", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00:00:00ZZ", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00:00:00 Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00:00:00UTC", true, &us, &had) == SD_E_KIND);

	/* fractions: 1..9+ digits, rounded to microseconds as PostgreSQL rounds them (the double of
	 * the fraction times 1e6, then ties to even): exact up to 6 digits */
	CHECK(ts("1970-01-01T00:00:00.5Z", true, &us, &had) == SD_OK && us == 500000);
	CHECK(ts("1970-01-01T00:00:00.12Z", true, &us, &had) == SD_OK && us == 120000);
	CHECK(ts("1970-01-01T00:00:00.123Z", true, &us, &had) == SD_OK && us == 123000);
	CHECK(ts("1970-01-01T00:00:00.1234Z", true, &us, &had) == SD_OK && us == 123400);
	CHECK(ts("1970-01-01T00:00:00.12345Z", true, &us, &had) == SD_OK && us == 123450);
	CHECK(ts("1970-01-01T00:00:00.123456Z", true, &us, &had) == SD_OK && us == 123456);
	CHECK(ts("1970-01-01T00:00:00.1234564Z", true, &us, &had) == SD_OK && us == 123456);
	CHECK(ts("1970-01-01T00:00:00.1234565Z", true, &us, &had) == SD_OK && us == 123456);	/* double below the tie */
	CHECK(ts("1970-01-01T00:00:00.0000015Z", true, &us, &had) == SD_OK && us == 2);
	CHECK(ts("1970-01-01T00:00:00.0000025Z", true, &us, &had) == SD_OK && us == 2);	/* tie to even */
	CHECK(ts("1970-01-01T00:00:00.0000035Z", true, &us, &had) == SD_OK && us == 4);
	CHECK(ts("1970-01-01T00:00:00.0000005Z", true, &us, &had) == SD_OK && us == 0);
	CHECK(ts("1970-01-01T00:00:00.0000005000000000000000000000000000001Z", true, &us, &had) == SD_OK &&
		  us == 0);	/* its double is below the tie */
	CHECK(ts("1970-01-01T00:00:00.00000050000000001Z", true, &us, &had) == SD_OK && us == 1);
	CHECK(ts("1970-01-01T00:00:00.12345649999Z", true, &us, &had) == SD_OK && us == 123456);
	CHECK(ts("1970-01-01T00:00:00.123456789Z", true, &us, &had) == SD_OK && us == 123457);
	CHECK(ts("1970-01-01T00:00:00.000000500000000000000000000000Z", true, &us, &had) == SD_OK &&
		  us == 0);
	CHECK(ts("1970-01-01T00:00:00.0000004999Z", true, &us, &had) == SD_OK && us == 0);
	CHECK(ts("1970-01-01T00:00:00.000000Z", true, &us, &had) == SD_OK && us == 0);
	/* rounding carries into the next second, minute, day, year */
	CHECK(ts("1970-01-01T00:00:00.9999995Z", true, &us, &had) == SD_OK && us == US_PER_SEC);
	CHECK(ts("1970-01-01T00:00:59.9999995Z", true, &us, &had) == SD_OK && us == 60 * US_PER_SEC);
	CHECK(ts("1970-01-01T23:59:59.9999999Z", true, &us, &had) == SD_OK && us == US_PER_DAY);
	CHECK(ts("1999-12-31T23:59:59.99999999Z", true, &us, &had) == SD_OK &&
		  us == INT64_C(946684800) * US_PER_SEC);
	CHECK(ts("1969-12-31T23:59:59.9999995Z", true, &us, &had) == SD_OK && us == 0);
	CHECK(ts("1969-12-31T23:59:59.5Z", true, &us, &had) == SD_OK && us == -500000);
	CHECK(ts("1970-01-01T00:00:00.Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("1970-01-01T00:00:00,5Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("1970-01-01T00:00:00.5.5Z", true, &us, &had) == SD_E_KIND);

	/* calendar */
	CHECK(ts("2024-02-29T12:00:00Z", true, &us, &had) == SD_OK);
	CHECK(ts("2023-02-29T12:00:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"2023-02-29T12:00:00Z\": day out of range");
	CHECK(ts("1900-02-29T00:00:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("2000-02-29T00:00:00Z", true, &us, &had) == SD_OK &&
		  us == INT64_C(11016) * US_PER_DAY);
	CHECK(ts("2024-02-30T00:00:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("2024-04-31T00:00:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("2024-12-31T00:00:00Z", true, &us, &had) == SD_OK);
	CHECK(ts("2024-12-32T00:00:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("2024-01-00T00:00:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("2024-13-01T00:00:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"2024-13-01T00:00:00Z\": month out of range");
	CHECK(ts("2024-00-01T00:00:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("2024-01-01T24:00:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"2024-01-01T24:00:00Z\": hour out of range");
	CHECK(ts("2024-01-01T23:60:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"2024-01-01T23:60:00Z\": minute out of range");
	/* a leap second rolls into the next minute (as PostgreSQL does), not past 24:00:00 */
	CHECK(ts("2016-12-31T23:59:60Z", true, &us, &had) == SD_OK && us == INT64_C(1483228800) * US_PER_SEC);
	CHECK(ts("2016-12-31T23:59:60.0000005Z", true, &us, &had) == SD_OK && us == INT64_C(1483228800) * US_PER_SEC);
	CHECK(ts("2016-12-31T12:30:60.25+01:00", true, &us, &had) == SD_OK &&
		  us == INT64_C(1483183860) * US_PER_SEC + 250000);
	CHECK(ts("2016-12-31T23:59:60.5Z", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"2016-12-31T23:59:60.5Z\": time of day past 24:00:00");
	CHECK(ts("2016-12-31T23:59:60.0000006Z", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("2016-12-31T23:59:61Z", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"2016-12-31T23:59:61Z\": second out of range");
	CHECK(ts("9999-12-31T23:59:60Z", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"9999-12-31T23:59:60Z\": rounds past 9999-12-31 23:59:59.999999");
	CHECK(ts("0000-01-01T00:00:00Z", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"0000-01-01T00:00:00Z\": year out of range");
	CHECK(ts("0001-01-01T00:00:00Z", true, &us, &had) == SD_OK && us == MIN_TS);
	CHECK(ts("9999-12-31T23:59:59.999999Z", true, &us, &had) == SD_OK && us == END_TS - 1);
	CHECK(ts("9999-12-31T23:59:59.9999994Z", true, &us, &had) == SD_OK && us == END_TS - 1);
	CHECK(ts("9999-12-31T23:59:59.9999995Z", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("9999-12-31T23:59:59.9999999Z", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"9999-12-31T23:59:59.9999999Z\": rounds past 9999-12-31 23:59:59.999999");
	/* an offset that moves the instant outside 0001..9999 in UTC is refused (issue 19),
	 * for timestamptz and timestamp alike; up to the bounds it is accepted */
	CHECK(ts("9999-12-31T23:00:00-05:00", true, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"9999-12-31T23:00:00-05:00\": out of range (0001-01-01 .. 9999-12-31 in UTC)");
	CHECK(ts("0001-01-01T00:00:00+01:00", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("0001-01-01T00:30:00+01:00", false, &us, &had) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"0001-01-01T00:30:00+01:00\": out of range (0001-01-01 .. 9999-12-31 in UTC)");
	CHECK(ts("0001-01-01T00:59:59.9999994+01:00", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("0001-01-01T00:59:59.9999999+01:00", true, &us, &had) == SD_OK && us == MIN_TS);
	CHECK(ts("0001-01-01T00:59:59.9999995+01:00", true, &us, &had) == SD_OK && us == MIN_TS);
	CHECK(ts("0001-01-01T01:00:00+01:00", true, &us, &had) == SD_OK && us == MIN_TS);
	CHECK(ts("0001-01-01T00:00:00-15:59", true, &us, &had) == SD_OK &&
		  us == MIN_TS + (15 * 60 + 59) * 60 * US_PER_SEC);
	CHECK(ts("9999-12-31T18:59:59.999999-05:00", true, &us, &had) == SD_OK && us == END_TS - 1);
	CHECK(ts("9999-12-31T19:00:00-05:00", false, &us, &had) == SD_E_DATETIME);
	CHECK(ts("9999-12-31T23:59:59+00:00", true, &us, &had) == SD_OK);
	CHECK(ts("9999-12-31T23:59:59-00:01", true, &us, &had) == SD_E_DATETIME);
	CHECK(ts("9999-12-31T23:59:59", false, &us, &had) == SD_OK && !had);

	/* grammar */
	CHECK(ts("hello", true, &us, &had) == SD_E_KIND);
	CHECK_STR(P, "invalid timestamp \"hello\": expected RFC 3339 date-time");
	CHECK(ts("", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00:00Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-1-01T00:00:00Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("24-01-01T00:00:00Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("12024-01-01T00:00:00Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024/01/01T00:00:00Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01X00:00:00Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00-00-00Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T0:00:00Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts(" 2024-01-01T00:00:00Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00:00:00Z ", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-01-01T00:00:00+", true, &us, &had) == SD_E_KIND);
	CHECK(ts("+2024-01-01T00:00:00Z", true, &us, &had) == SD_E_KIND);
	CHECK(ts("2024-13-01", true, &us, &had) == SD_E_KIND);			/* grammar before range */
	/* problem texts cut at 40 characters and escaped */
	CHECK(ts("hello hello hello hello hello hello hello hello", true, &us, &had) == SD_E_KIND);
	CHECK_STR(P, "invalid timestamp \"hello hello hello hello hello hello hell...\": expected RFC 3339 date-time");
	CHECK(ts("a\"b\\c\x01", true, &us, &had) == SD_E_KIND);
	CHECK_STR(P, "invalid timestamp \"a\\\"b\\\\c\\u0001\": expected RFC 3339 date-time");
	{
		char		s[200] = "";
		char		want[300];

		for (int i = 0; i < 45; i++)
			strcat(s, "\xc3\xa9");	/* é */
		CHECK(ts(s, true, &us, &had) == SD_E_KIND);
		strcpy(want, "invalid timestamp \"");
		for (int i = 0; i < 40; i++)
			strcat(want, "\xc3\xa9");
		strcat(want, "...\": expected RFC 3339 date-time");
		CHECK_STR(P, want);
		CHECK(ts("\xff\xc3", true, &us, &had) == SD_E_KIND);	/* not UTF-8: shown as '?' */
		CHECK_STR(P, "invalid timestamp \"??\": expected RFC 3339 date-time");
	}
	/* lengths are honoured (no read past len) */
	CHECK(sd_parse_timestamp("2024-01-01T00:00:00Zjunk", 20, true, &us, &had, P) == SD_OK &&
		  us == t2024);
	CHECK(sd_parse_timestamp("2024-01-01T00:00:00.123", 20, false, &us, &had, P) == SD_E_KIND);
}

static void
test_date(void)
{
	int32_t		d = 0;

	CHECK(dt("1970-01-01", &d) == SD_OK && d == 0);
	CHECK(dt("2024-02-29", &d) == SD_OK && d == 19782);
	CHECK(dt("2000-02-29", &d) == SD_OK && d == 11016);
	CHECK(dt("0001-01-01", &d) == SD_OK && d == -719162);
	CHECK(dt("9999-12-31", &d) == SD_OK && d == 2932896);
	CHECK(dt("1969-12-31", &d) == SD_OK && d == -1);
	CHECK(dt("2023-02-29", &d) == SD_E_DATETIME);
	CHECK_STR(P, "invalid date \"2023-02-29\": day out of range");
	CHECK(dt("1900-02-29", &d) == SD_E_DATETIME);
	CHECK(dt("2024-02-30", &d) == SD_E_DATETIME);
	CHECK(dt("2024-06-31", &d) == SD_E_DATETIME);
	CHECK(dt("2024-13-01", &d) == SD_E_DATETIME);
	CHECK_STR(P, "invalid date \"2024-13-01\": month out of range");
	CHECK(dt("0000-01-01", &d) == SD_E_DATETIME);
	CHECK_STR(P, "invalid date \"0000-01-01\": year out of range");
	CHECK(dt("2024-1-1", &d) == SD_E_KIND);
	CHECK_STR(P, "invalid date \"2024-1-1\": expected YYYY-MM-DD");
	CHECK(dt("20240101", &d) == SD_E_KIND);
	CHECK(dt("2024-01-01T00:00:00Z", &d) == SD_E_KIND);
	CHECK(dt("2024-01-01 ", &d) == SD_E_KIND);
	CHECK(dt("", &d) == SD_E_KIND);
	CHECK(dt("2024-01-0a", &d) == SD_E_KIND);
	CHECK(dt("-024-01-01", &d) == SD_E_KIND);
}

static void
test_time(void)
{
	int64_t		us = 0;

	CHECK(tm("00:00:00", &us) == SD_OK && us == 0);
	CHECK(tm("12:34:56", &us) == SD_OK && us == (12 * 3600 + 34 * 60 + 56) * US_PER_SEC);
	CHECK(tm("23:59:59.999999", &us) == SD_OK && us == US_PER_DAY - 1);
	CHECK(tm("12:00:00.5", &us) == SD_OK && us == 12 * 3600 * US_PER_SEC + 500000);
	CHECK(tm("12:00:00.1234565", &us) == SD_OK && us == 12 * 3600 * US_PER_SEC + 123456);
	CHECK(tm("12:00:00.1234575", &us) == SD_OK && us == 12 * 3600 * US_PER_SEC + 123458);
	CHECK(tm("24:00:00", &us) == SD_OK && us == US_PER_DAY);
	CHECK(tm("24:00:00.000000", &us) == SD_OK && us == US_PER_DAY);
	CHECK(tm("24:00:00.0000004", &us) == SD_OK && us == US_PER_DAY);	/* rounds to 24:00 */
	CHECK(tm("23:59:59.9999995", &us) == SD_OK && us == US_PER_DAY);
	CHECK(tm("24:00:00.0000005", &us) == SD_OK && us == US_PER_DAY);	/* rounds down, as in PostgreSQL */
	CHECK(tm("24:00:00.0000006", &us) == SD_E_DATETIME);
	CHECK(tm("24:00:01", &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid time \"24:00:01\": time out of range");
	CHECK(tm("24:01:00", &us) == SD_E_DATETIME);
	CHECK(tm("25:00:00", &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid time \"25:00:00\": hour out of range");
	CHECK(tm("12:60:00", &us) == SD_E_DATETIME);
	CHECK(tm("12:00:60", &us) == SD_OK && us == (12 * 3600 + 60) * US_PER_SEC);	/* leap second */
	CHECK(tm("23:59:60", &us) == SD_OK && us == US_PER_DAY);
	CHECK(tm("23:59:60.5", &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid time \"23:59:60.5\": time out of range");
	CHECK(tm("12:00:61", &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid time \"12:00:61\": second out of range");
	CHECK(tm("12:00", &us) == SD_E_KIND);
	CHECK_STR(P, "invalid time \"12:00\": expected hh:mm:ss[.fraction]");
	CHECK(tm("12:00:00Z", &us) == SD_E_KIND);
	CHECK(tm("12:00:00+01:00", &us) == SD_E_KIND);
	CHECK(tm("12:00:00.", &us) == SD_E_KIND);
	CHECK(tm("1:00:00", &us) == SD_E_KIND);
	CHECK(tm("12:00:00 ", &us) == SD_E_KIND);
	CHECK(tm("", &us) == SD_E_KIND);
	CHECK(tm("12.00.00", &us) == SD_E_KIND);
}

static void
test_epoch(void)
{
	int64_t		us = 1;

	CHECK(ep("0", US_PER_SEC, &us) == SD_OK && us == 0);
	CHECK(ep("-0", US_PER_SEC, &us) == SD_OK && us == 0);
	CHECK(ep("0.000e5", US_PER_SEC, &us) == SD_OK && us == 0);
	CHECK(ep("1", US_PER_SEC, &us) == SD_OK && us == US_PER_SEC);
	CHECK(ep("1704067200", US_PER_SEC, &us) == SD_OK && us == INT64_C(1704067200) * US_PER_SEC);
	CHECK(ep("-1.5", US_PER_SEC, &us) == SD_OK && us == -1500000);
	CHECK(ep("1.5", US_PER_SEC, &us) == SD_OK && us == 1500000);
	CHECK(ep("1.0000005", US_PER_SEC, &us) == SD_OK && us == 1000001);
	CHECK(ep("-1.0000005", US_PER_SEC, &us) == SD_OK && us == -1000001);
	CHECK(ep("1.0000004999", US_PER_SEC, &us) == SD_OK && us == 1000000);
	CHECK(ep("1e3", US_PER_SEC, &us) == SD_OK && us == 1000 * US_PER_SEC);
	CHECK(ep("1.5e-6", US_PER_SEC, &us) == SD_OK && us == 2);
	CHECK(ep("-1.5e-6", US_PER_SEC, &us) == SD_OK && us == -2);
	CHECK(ep("5e-7", US_PER_SEC, &us) == SD_OK && us == 1);
	CHECK(ep("4.9e-7", US_PER_SEC, &us) == SD_OK && us == 0);
	CHECK(ep("1e-999999999999", US_PER_SEC, &us) == SD_OK && us == 0);
	CHECK(ep("1704067200.123456789", US_PER_SEC, &us) == SD_OK &&
		  us == INT64_C(1704067200) * US_PER_SEC + 123457);
	/* milliseconds */
	CHECK(ep("1500", 1000, &us) == SD_OK && us == 1500000);
	CHECK(ep("1.5", 1000, &us) == SD_OK && us == 1500);
	CHECK(ep("-1.5", 1000, &us) == SD_OK && us == -1500);
	CHECK(ep("0.0005", 1000, &us) == SD_OK && us == 1);
	CHECK(ep("-0.0005", 1000, &us) == SD_OK && us == -1);
	CHECK(ep("0.0004", 1000, &us) == SD_OK && us == 0);
	CHECK(ep("1704067200000", 1000, &us) == SD_OK && us == INT64_C(1704067200) * US_PER_SEC);
	CHECK(ep("1.704067200e12", 1000, &us) == SD_OK && us == INT64_C(1704067200) * US_PER_SEC);
	/* bounds: 0001-01-01 .. 9999-12-31 */
	CHECK(ep("-62135596800", US_PER_SEC, &us) == SD_OK && us == MIN_TS);
	CHECK(ep("-62135596800.000001", US_PER_SEC, &us) == SD_E_DATETIME);
	CHECK(ep("-62135596800.0000004", US_PER_SEC, &us) == SD_OK && us == MIN_TS);
	CHECK(ep("253402300799.999999", US_PER_SEC, &us) == SD_OK && us == END_TS - 1);
	CHECK(ep("253402300799.9999995", US_PER_SEC, &us) == SD_E_DATETIME);
	CHECK(ep("253402300800", US_PER_SEC, &us) == SD_E_DATETIME);
	CHECK_STR(P, "value 253402300800 out of range for timestamp (0001-01-01 .. 9999-12-31)");
	CHECK(ep("-62135596800000", 1000, &us) == SD_OK && us == MIN_TS);
	CHECK(ep("253402300800000", 1000, &us) == SD_E_DATETIME);
	CHECK(ep("1e20", US_PER_SEC, &us) == SD_E_DATETIME);
	CHECK(ep("-1e20", US_PER_SEC, &us) == SD_E_DATETIME);
	CHECK(ep("1e999999999999", US_PER_SEC, &us) == SD_E_DATETIME);
	CHECK(ep("99999999999999999999999999", 1000, &us) == SD_E_DATETIME);
	/* bad text, bad unit */
	CHECK(ep("abc", US_PER_SEC, &us) == SD_E_KIND);
	CHECK_STR(P, "invalid number \"abc\"");
	CHECK(ep("1.", US_PER_SEC, &us) == SD_E_KIND);
	CHECK(ep("01", US_PER_SEC, &us) == SD_E_KIND);
	CHECK(ep("1", 7, &us) == SD_E_INTERNAL);
	CHECK(ep("1", 0, &us) == SD_E_INTERNAL);
	CHECK(ep("1", 1, &us) == SD_OK && us == 1);
}

/* ---- UUIDs ------------------------------------------------------------------------------- */

static sd_code
uu(const char *s, uint8_t *out)
{
	P[0] = '\0';
	return sd_parse_uuid(s, strlen(s), out, P);
}

static void
test_uuid(void)
{
	static const uint8_t want[16] = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3,
		0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00};
	uint8_t		u[16];

	memset(u, 0, 16);
	CHECK(uu("123e4567-e89b-12d3-a456-426614174000", u) == SD_OK && memcmp(u, want, 16) == 0);
	memset(u, 0, 16);
	CHECK(uu("123E4567-E89B-12D3-A456-426614174000", u) == SD_OK && memcmp(u, want, 16) == 0);
	CHECK(uu("123e4567-E89b-12D3-a456-426614174000", u) == SD_OK && memcmp(u, want, 16) == 0);
	CHECK(uu("00000000-0000-0000-0000-000000000000", u) == SD_OK);
	CHECK(uu("ffffffff-ffff-ffff-ffff-ffffffffffff", u) == SD_OK && u[0] == 0xff && u[15] == 0xff);
	CHECK(uu("xyz", u) == SD_E_KIND);
	CHECK_STR(P, "invalid uuid \"xyz\"");
	CHECK(uu("", u) == SD_E_KIND);
	CHECK(uu("123e4567e89b12d3a456426614174000", u) == SD_E_KIND);
	CHECK(uu("{123e4567-e89b-12d3-a456-426614174000}", u) == SD_E_KIND);
	CHECK(uu("123e4567-e89b-12d3-a456-42661417400", u) == SD_E_KIND);
	CHECK(uu("123e4567-e89b-12d3-a456-4266141740000", u) == SD_E_KIND);
	CHECK(uu("123e456-7e89b-12d3-a456-426614174000", u) == SD_E_KIND);
	CHECK(uu("123e4567-e89b1-2d3-a456-426614174000", u) == SD_E_KIND);
	CHECK(uu("123e4567-e89b-12d3a-456-426614174000", u) == SD_E_KIND);
	CHECK(uu("123e4567-e89b-12d3-a4564-26614174000", u) == SD_E_KIND);
	CHECK(uu("123e4567-e89b-12d3-a456-42661417400g", u) == SD_E_KIND);
	CHECK(uu("g23e4567-e89b-12d3-a456-426614174000", u) == SD_E_KIND);
	CHECK(uu("123e4567-e89b-12d3-a456-4266 4174000", u) == SD_E_KIND);
	CHECK(uu("123e4567-e89b-12d3-a456-42661417400\xc3", u) == SD_E_KIND);
	CHECK(uu("123e4567+e89b-12d3-a456-426614174000", u) == SD_E_KIND);
	CHECK(uu(" 123e4567-e89b-12d3-a456-426614174000", u) == SD_E_KIND);
}

/* ---- base64, base64url, hex -------------------------------------------------------------- */

static size_t
b64_encode(const uint8_t *in, size_t n, bool url, bool pad, char *out)
{
	const char *a = url ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
		: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t		o = 0,
				i;

	for (i = 0; i + 3 <= n; i += 3)
	{
		uint32_t	v = (uint32_t) in[i] << 16 | (uint32_t) in[i + 1] << 8 | in[i + 2];

		out[o++] = a[v >> 18];
		out[o++] = a[(v >> 12) & 63];
		out[o++] = a[(v >> 6) & 63];
		out[o++] = a[v & 63];
	}
	if (n - i == 1)
	{
		out[o++] = a[in[i] >> 2];
		out[o++] = a[(in[i] & 3) << 4];
		if (pad)
		{
			out[o++] = '=';
			out[o++] = '=';
		}
	}
	else if (n - i == 2)
	{
		out[o++] = a[in[i] >> 2];
		out[o++] = a[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
		out[o++] = a[(in[i + 1] & 15) << 2];
		if (pad)
			out[o++] = '=';
	}
	out[o] = '\0';
	return o;
}

static void
test_binary(void)
{
	uint8_t		out[64];
	size_t		n = 99;

	CHECK(sd_binary_max_decoded(SD_FMT_BASE64, 0) == 0);
	CHECK(sd_binary_max_decoded(SD_FMT_BASE64, 2) == 1);
	CHECK(sd_binary_max_decoded(SD_FMT_BASE64, 3) == 2);
	CHECK(sd_binary_max_decoded(SD_FMT_BASE64, 4) == 3);
	CHECK(sd_binary_max_decoded(SD_FMT_BASE64URL, 6) == 4);
	CHECK(sd_binary_max_decoded(SD_FMT_HEX, 4) == 2);
	CHECK(sd_binary_max_decoded(SD_FMT_HEX, 5) == 2);

	/* base64, padded and unpadded */
	CHECK(bin(SD_FMT_BASE64, "", out, &n) == SD_OK && n == 0);
	CHECK(bin(SD_FMT_BASE64, "QQ==", out, &n) == SD_OK && n == 1 && out[0] == 'A');
	CHECK(bin(SD_FMT_BASE64, "QQ", out, &n) == SD_OK && n == 1 && out[0] == 'A');
	CHECK(bin(SD_FMT_BASE64, "QUI=", out, &n) == SD_OK && n == 2 && memcmp(out, "AB", 2) == 0);
	CHECK(bin(SD_FMT_BASE64, "QUI", out, &n) == SD_OK && n == 2 && memcmp(out, "AB", 2) == 0);
	CHECK(bin(SD_FMT_BASE64, "QUJD", out, &n) == SD_OK && n == 3 && memcmp(out, "ABC", 3) == 0);
	CHECK(bin(SD_FMT_BASE64, "aGVsbG8gd29ybGQ=", out, &n) == SD_OK && n == 11 &&
		  memcmp(out, "hello world", 11) == 0);
	CHECK(bin(SD_FMT_NONE, "aGVsbG8gd29ybGQ", out, &n) == SD_OK && n == 11 &&
		  memcmp(out, "hello world", 11) == 0);
	CHECK(bin(SD_FMT_BASE64, "+/8=", out, &n) == SD_OK && n == 2 && out[0] == 0xfb && out[1] == 0xff);
	CHECK(bin(SD_FMT_BASE64, "QR==", out, &n) == SD_OK && n == 1 && out[0] == 'A');	/* spare bits */
	/* bad base64 */
	CHECK(bin(SD_FMT_BASE64, "QUJ$RA==", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 3");
	CHECK(bin(SD_FMT_BASE64, "QUJDR", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 4");
	CHECK(bin(SD_FMT_BASE64, "Q", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 0");
	CHECK(bin(SD_FMT_BASE64, "QQ=", out, &n) == SD_E_KIND);		/* partial padding */
	CHECK_STR(P, "invalid base64 at byte 2");
	CHECK(bin(SD_FMT_BASE64, "Q===", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 1");
	CHECK(bin(SD_FMT_BASE64, "====", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 0");
	CHECK(bin(SD_FMT_BASE64, "QQ==QUJD", out, &n) == SD_E_KIND);	/* padding inside */
	CHECK_STR(P, "invalid base64 at byte 2");
	CHECK(bin(SD_FMT_BASE64, "QUJDRA=A", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 6");
	CHECK(bin(SD_FMT_BASE64, "QUJDR===", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 5");
	CHECK(bin(SD_FMT_BASE64, "QU JD", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 2");
	CHECK(bin(SD_FMT_BASE64, "QUJD\n", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 4");
	CHECK(bin(SD_FMT_BASE64, "-_8=", out, &n) == SD_E_KIND);		/* url alphabet */
	CHECK_STR(P, "invalid base64 at byte 0");
	CHECK(bin(SD_FMT_BASE64, "QUJ\xc3\xa9", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 3");

	/* base64url */
	CHECK(bin(SD_FMT_BASE64URL, "-_8", out, &n) == SD_OK && n == 2 && out[0] == 0xfb && out[1] == 0xff);
	CHECK(bin(SD_FMT_BASE64URL, "-_8=", out, &n) == SD_OK && n == 2 && out[0] == 0xfb);
	CHECK(bin(SD_FMT_BASE64URL, "QQ", out, &n) == SD_OK && n == 1 && out[0] == 'A');
	CHECK(bin(SD_FMT_BASE64URL, "QQ==", out, &n) == SD_OK && n == 1 && out[0] == 'A');
	CHECK(bin(SD_FMT_BASE64URL, "+/8=", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64url at byte 0");
	CHECK(bin(SD_FMT_BASE64URL, "QUJDRA-/", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64url at byte 7");

	/* hex */
	CHECK(bin(SD_FMT_HEX, "", out, &n) == SD_OK && n == 0);
	CHECK(bin(SD_FMT_HEX, "00ff", out, &n) == SD_OK && n == 2 && out[0] == 0 && out[1] == 0xff);
	CHECK(bin(SD_FMT_HEX, "DEADbeef", out, &n) == SD_OK && n == 4 &&
		  memcmp(out, "\xde\xad\xbe\xef", 4) == 0);
	CHECK(bin(SD_FMT_HEX, "abc", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid hex: odd number of digits (3)");
	CHECK(bin(SD_FMT_HEX, "0g", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid hex at byte 1");
	CHECK(bin(SD_FMT_HEX, "g0", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid hex at byte 0");
	CHECK(bin(SD_FMT_HEX, "abx", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid hex at byte 2");
	CHECK(bin(SD_FMT_HEX, "ab cd", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid hex at byte 2");
	CHECK(bin(SD_FMT_HEX, "\\x00", out, &n) == SD_E_KIND);
	CHECK(bin(SD_FMT_RFC3339, "00", out, &n) == SD_E_INTERNAL);

	/* round trips of every length 0..48, padded or not, both alphabets; the decoder never
	 * writes past sd_binary_max_decoded (checked with a guard byte) */
	{
		int			bad = 0;

		for (size_t len = 0; len <= 48; len++)
			for (int variant = 0; variant < 4; variant++)
			{
				uint8_t		src[48],
							dst[64];
				char		enc[80];
				size_t		elen,
							dlen = 0,
							max;
				bool		url = variant & 1,
							pad = variant & 2;
				sd_format	fmt = url ? SD_FMT_BASE64URL : SD_FMT_BASE64;

				for (size_t i = 0; i < len; i++)
					src[i] = (uint8_t) rng();
				elen = b64_encode(src, len, url, pad, enc);
				max = sd_binary_max_decoded(fmt, elen);
				memset(dst, 0xA5, sizeof(dst));
				if (sd_decode_binary(fmt, enc, elen, dst, &dlen, P) != SD_OK ||
					dlen != len || memcmp(dst, src, len) != 0 || max < len ||
					dst[max] != 0xA5)
					bad++;
			}
		CHECK(bad == 0);
	}
}

/* ---- UTF-8 ------------------------------------------------------------------------------- */

static void
test_utf8(void)
{
	char		buf[256] = "";

	CHECK(sd_utf8_chars("", 0) == 0);
	CHECK(sd_utf8_chars("abc", 3) == 3);
	CHECK(sd_utf8_chars("\xc3\xa9", 2) == 1);				/* é */
	CHECK(sd_utf8_chars("\xe2\x82\xac", 3) == 1);			/* € */
	CHECK(sd_utf8_chars("\xf0\x9f\x98\x80", 4) == 1);		/* 😀 */
	CHECK(sd_utf8_chars("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10) == 4);
	CHECK(sd_utf8_chars("abcdefgh", 8) == 8);
	CHECK(sd_utf8_chars("abcdefghi", 9) == 9);
	CHECK(sd_utf8_chars("\0\0", 2) == 2);
	/* sequences straddling the 8-byte blocks, at every alignment */
	for (int i = 0; i < 5; i++)
		strcat(buf, "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	CHECK(sd_utf8_chars(buf, strlen(buf)) == 20);
	{
		int			bad = 0;

		for (size_t start = 0; start < 10; start++)
			for (size_t len = 0; start + len <= strlen(buf); len++)
			{
				size_t		want = 0;

				for (size_t i = start; i < start + len; i++)
					want += ((unsigned char) buf[i] & 0xC0) != 0x80;
				bad += sd_utf8_chars(buf + start, len) != want;
			}
		CHECK(bad == 0);
	}
	memset(buf, 0, sizeof(buf));
	for (int i = 0; i < 60; i++)
		strcat(buf, "\xe6\x97\xa5");							/* 日 */
	CHECK(sd_utf8_chars(buf, strlen(buf)) == 60);
}


/* RFC 2822 date-times (format "rfc2822"): RSS pubDate, e-mail and HTTP dates. */
static sd_code
r2822(const char *s, int64_t *us)
{
	return sd_parse_rfc2822(s, strlen(s), us, P);
}

static void
test_rfc2822(void)
{
	int64_t		us = 0,
				want = 0;
	bool		had;

	/* the RSS 2.0 specification's example = 2003-06-10T04:00:00Z */
	sd_parse_timestamp("2003-06-10T04:00:00Z", 20, true, &want, &had, P);
	CHECK(r2822("Tue, 10 Jun 2003 04:00:00 GMT", &us) == SD_OK && us == want);
	CHECK(r2822("10 Jun 2003 04:00:00 GMT", &us) == SD_OK && us == want);
	CHECK(r2822("Tue, 10 Jun 2003 04:00:00 +0000", &us) == SD_OK && us == want);
	CHECK(r2822("Tue, 10 Jun 2003 04:00:00 -0000", &us) == SD_OK && us == want);
	CHECK(r2822("tue, 10 jun 2003 04:00:00 gmt", &us) == SD_OK && us == want);
	CHECK(r2822("Tue,10 Jun 2003 04:00:00 UT", &us) == SD_OK && us == want);
	CHECK(r2822("  Tue, 10  Jun  2003 04:00:00 Z \n", &us) == SD_OK && us == want);
	CHECK(r2822("Tue, 10 Jun 2003 00:00:00 EDT", &us) == SD_OK && us == want);
	CHECK(r2822("Tue, 10 Jun 2003 04:00 GMT", &us) == SD_OK && us == want);
	CHECK(r2822("Mon, 09 Jun 2003 21:00:00 PDT", &us) == SD_OK && us == want);
	CHECK(r2822("Tue, 10 Jun 2003 06:30:00 +0230", &us) == SD_OK && us == want);
	CHECK(r2822("Tue, 10 Jun 03 04:00:00 GMT", &us) == SD_OK && us == want);
	CHECK(r2822("Tue, 10 Jun 103 04:00:00 GMT", &us) == SD_OK && us == want);
	CHECK(r2822("Sat, 1 Jan 1970 00:00:00 GMT", &us) == SD_E_DATETIME);	/* a Thursday */
	CHECK(r2822("Thu, 1 Jan 1970 00:00:01 GMT", &us) == SD_OK && us == 1000000);
	CHECK(r2822("Thu, 1 Jan 1970 00:00:60 GMT", &us) == SD_OK && us == 60000000);	/* leap second */
	CHECK(r2822("Fri, 31 Dec 1999 23:59:59 -1559", &us) == SD_OK);
	CHECK(r2822("Thu, 1 Jan 70 00:00:00 GMT", &us) == SD_OK && us == 0);
	CHECK(r2822("1 Jan 49 00:00:00 GMT", &us) == SD_OK && us > 0);	/* 2049 */
	/* the zone may not move the instant outside 0001..9999 in UTC (issue 19), nor may the
	 * last day's leap second */
	CHECK(r2822("Mon, 1 Jan 0001 00:30:00 +0100", &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"Mon, 1 Jan 0001 00:30:00 +0100\": out of range (0001-01-01 .. 9999-12-31 in UTC)");
	CHECK(r2822("Mon, 1 Jan 0001 01:00:00 +0100", &us) == SD_OK && us == MIN_TS);
	CHECK(r2822("1 Jan 0001 00:00:00 GMT", &us) == SD_OK && us == MIN_TS);
	CHECK(r2822("Fri, 31 Dec 9999 23:30:00 EST", &us) == SD_E_DATETIME);
	CHECK(r2822("Fri, 31 Dec 9999 18:59:59 EST", &us) == SD_OK);
	CHECK(r2822("Fri, 31 Dec 9999 23:59:60 GMT", &us) == SD_E_DATETIME);
	CHECK(r2822("Fri, 31 Dec 9999 23:59:59 GMT", &us) == SD_OK);
	CHECK(r2822("1 Jan 0000 12:00:00 GMT", &us) == SD_E_DATETIME);
	/* not the grammar: 22032-class kind errors with the RFC 2822 wording */
	CHECK(r2822("2003-06-10T04:00:00Z", &us) == SD_E_KIND);
	CHECK_STR(P, "invalid timestamp \"2003-06-10T04:00:00Z\": expected RFC 2822 date-time");
	CHECK(r2822("", &us) == SD_E_KIND);
	CHECK(r2822("Tue 10 Jun 2003 04:00:00 GMT", &us) == SD_E_KIND);	/* no comma */
	CHECK(r2822("Tue, 10 Foo 2003 04:00:00 GMT", &us) == SD_E_KIND);
	CHECK(r2822("Tue, 100 Jun 2003 04:00:00 GMT", &us) == SD_E_KIND);
	CHECK(r2822("Tue, 10 Jun 20031 04:00:00 GMT", &us) == SD_E_KIND);
	CHECK(r2822("Tue, 10 Jun 2 04:00:00 GMT", &us) == SD_E_KIND);
	CHECK(r2822("Tue, 10 Jun 2003 4:00:00 GMT", &us) == SD_E_KIND);
	CHECK(r2822("Tue, 10 Jun 2003 04:00:00", &us) == SD_E_KIND);	/* a zone is required */
	CHECK(r2822("Tue, 10 Jun 2003 04:00:00 CET", &us) == SD_E_KIND);
	CHECK(r2822("Tue, 10 Jun 2003 04:00:00 +00", &us) == SD_E_KIND);
	CHECK(r2822("Tue, 10 Jun 2003 04:00:00 GMT junk", &us) == SD_E_KIND);
	CHECK(r2822("Tue, 10 Jun 2003 04:00:00.5 GMT", &us) == SD_E_KIND);
	CHECK(r2822("Tue, 10 Jun 2003 04:00:00GMT", &us) == SD_E_KIND);
	/* out of range: 22008-class */
	CHECK(r2822("Fri, 30 Feb 2024 04:00:00 GMT", &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"Fri, 30 Feb 2024 04:00:00 GMT\": day out of range");
	CHECK(r2822("10 Jun 2003 24:00:00 GMT", &us) == SD_E_DATETIME);
	CHECK(r2822("10 Jun 2003 04:60:00 GMT", &us) == SD_E_DATETIME);
	CHECK(r2822("10 Jun 2003 04:00:61 GMT", &us) == SD_E_DATETIME);
	CHECK(r2822("10 Jun 2003 04:00:00 +1600", &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"10 Jun 2003 04:00:00 +1600\": time zone offset out of range");
	CHECK(r2822("10 Jun 2003 04:00:00 +0060", &us) == SD_E_DATETIME);
	CHECK(r2822("Wed, 10 Jun 2003 04:00:00 GMT", &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"Wed, 10 Jun 2003 04:00:00 GMT\": day of the week does not match the date");
	CHECK(r2822("0 Jun 2003 04:00:00 GMT", &us) == SD_E_DATETIME);
	CHECK(r2822("29 Feb 2023 04:00:00 GMT", &us) == SD_E_DATETIME);
	CHECK(r2822("29 Feb 2024 04:00:00 GMT", &us) == SD_OK);
	/* a long text is cut in the message, still valid */
	{
		char		big[300];

		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		CHECK(r2822(big, &us) == SD_E_KIND && strlen(P) < 120);
	}
}

void
unit_scalar(void)
{
	test_json_number();
	test_int();
	test_numeric();
	test_float();
	test_days_from_civil();
	test_timestamp();
	test_rfc2822();
	test_date();
	test_time();
	test_epoch();
	test_uuid();
	test_binary();
	test_utf8();
}
