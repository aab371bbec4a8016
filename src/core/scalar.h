/*
 * scalar.h — fast, exact scalar parsers of the core: JSON number grammar, integers, exact
 * numerics, RFC 3339 timestamps, dates, times, epoch numbers, UUIDs, base64/base64url/hex,
 * UTF-8 character counting.  Pure functions over (pointer, length); no allocation, no locale,
 * no errno.  Each parser returns SD_OK or an sd_code and, on failure, writes a short problem
 * text ("expected integer, found number 1.5" is composed by the caller; these write the
 * specific reason, e.g. "value 70000 out of range for smallint") into problem[SD_PROBLEM_MAX]
 * (never NULL).  Problem texts are lower case without a trailing period; document text in them
 * is cut at 40 characters ("..." appended), and quoted text has '"', '\' and control
 * characters escaped JSON-style.  Any text that is not a JSON number where one is expected is
 * SD_E_KIND "invalid number \"<text>\"".  On failure the out parameters are left unspecified.
 */
#ifndef SERDE_SCALAR_H
#define SERDE_SCALAR_H

#include <string.h>

#include "serde_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True when s[0..len) is exactly one JSON number (RFC 8259 grammar: -?(0|[1-9][0-9]*)
 * (\.[0-9]+)?([eE][+-]?[0-9]+)?), no surrounding whitespace. */
bool		sd_is_json_number(const char *s, size_t len);

/* -?(0|[1-9][0-9]{0,17}): a short integer literal — valid JSON and within every numeric limit
 * (the walkers' and the engine's fast path before sd_is_json_number / sd_check_numeric). */
static inline bool
sd_plain_int(const char *s, size_t n)
{
	size_t		i = 0;

	if (n > 0 && s[0] == '-')
		i = 1;
	if (i >= n || n - i > 18)
		return false;
	if (s[i] == '0')
		return n - i == 1;
	for (; i < n; i++)
		if ((unsigned) (s[i] - '0') > 9)
			return false;
	return true;
}

/* Parses s[0..len) as an integer within [min, max].  The text is always checked against the
 * JSON number grammar (no whitespace, no "+1", "01", "1.", ".5"), so a string's content under
 * coerce goes through the same rules as a number token.
 * Without `integral_forms`: only plain integer literals (no '.', no exponent) are accepted;
 *   a non-integral value is SD_E_KIND "value 1.5 is not an integer", an integral one written
 *   with a fraction or exponent SD_E_KIND "value 1.0 is not an integer literal (it has a
 *   fraction)" / "(it has an exponent)" - even when it would also be out of range.
 * With `integral_forms` (coerce): 1.0, 1e2, 1.50e1, 100e-2 are accepted when their value is
 *   integral (decided exactly from the digits); a non-integral value is SD_E_KIND.
 * Out of range (including huge exponents such as 1e999999999999) is SD_E_RANGE with problem
 * "value <literal, cut at 40 chars> out of range for <typname>".  "-0" is 0. */
sd_code		sd_parse_int(const char *s, size_t len, int64_t min, int64_t max, bool integral_forms,
						 const char *typname, int64_t *out, char *problem);

/* Checks a JSON number literal against numeric(precision, scale) exactly, from its digits
 * (never through a double, never rounding).  Exponents are honoured (1.5e3 has 4 integer
 * digits, 0 fraction digits).  Leading zeros and trailing fractional zeros do not count; zero
 * always fits.  Problems (all SD_E_RANGE):
 *   more integer digits than precision-scale: "numeric field overflow: value 123.45 needs 3
 *     integer digits, numeric(4,2) allows 2" (when scale > precision, PostgreSQL 15+:
 *     "... value 0.001 must be less than 1e-3 in absolute value for numeric(2,5)");
 *   non-zero digits beyond scale: "value 1.005 has more than 2 decimal places" (scale 0:
 *     "value 1.5 has decimal places, numeric(3,0) allows none"; negative scale: "value 12345
 *     is not a multiple of 1e2 for numeric(3,-2)").
 * precision < 0 means unconstrained: only what PostgreSQL's numeric input itself refuses is
 * an error, "value 1e-16384 overflows numeric format": an exponent of magnitude >= 2^30-1
 * (with any typmod, even for zero), more than 131072 integer digits, or a display scale
 * (fraction digits minus exponent, trailing zeros included) above 16383. */
sd_code		sd_check_numeric(const char *s, size_t len, int precision, int scale, char *problem);
/* The one-pass form of sd_check_numeric for the common literal: true when s (a JSON number) is a
 * plain decimal (no exponent) with at most 18 digits after its leading zeros and at most 18
 * fraction digits, and fits numeric(precision, scale) (precision < 0: unconstrained); then
 * *digits is its digits as a signed integer and *nfrac the count of fraction digits written.
 * False says nothing: sd_check_numeric decides (and words the error). */
bool		sd_plain_decimal(const char *s, size_t len, int precision, int scale, int64_t *digits,
							 uint32_t *nfrac);
/* After sd_check_numeric accepted s: any literal (exponents too) whose value and display scale
 * (as numeric_in gives them: fraction digits written minus the exponent, at least 0) fit at most
 * 18 digits with scale <= 18, as *digits and *nfrac like sd_plain_decimal's; false otherwise. */
bool		sd_exp_decimal(const char *s, size_t len, int64_t *digits, uint32_t *nfrac);

/* ---- the checks of a value kept as jsonb (the engine's skip and the text walker's skip_events
 * both make them; the rules are stated here once) ---- */

#define SD_JSONB_NUL_PROBLEM "\\u0000 cannot be stored in jsonb"

/* A string or key inside a jsonb value: jsonb cannot hold \u0000. */
static inline bool
sd_jsonb_string_ok(const char *s, size_t len)
{
	return len == 0 || memchr(s, 0, len) == NULL;
}

/* A valid JSON number literal inside a jsonb value: jsonb stores numbers as numeric, so its
 * limits apply.  A literal without an exponent and shorter than numeric's scale limit (16383
 * fraction digits) always fits: only the others are checked (sd_check_numeric). */
static inline sd_code
sd_jsonb_number_check(const char *s, size_t len, char *problem)
{
	bool		safe = len < 16383;

	for (size_t i = 0; safe && i < len; i++)
		if ((s[i] | 0x20) == 'e')
			safe = false;
	return safe ? SD_OK : sd_check_numeric(s, len, -1, -1, problem);
}

/* Parses a JSON number literal as a double (correctly rounded; "-0" gives -0.0).  As
 * PostgreSQL's float8in does, overflow to infinity and underflow of a non-zero value to 0 are
 * SD_E_RANGE "value 1e400 out of range for double precision" (subnormal results are fine).
 * When as_float4, the literal is rounded once, directly to float (not through a double), and
 * *out holds that float exactly; overflow/underflow to 0 of float4 is SD_E_RANGE "value 1e39
 * out of range for real", as float4in does. */
sd_code		sd_parse_float(const char *s, size_t len, bool as_float4, double *out, char *problem);

/* RFC 3339 date-time: YYYY-MM-DD(T|t| )hh:mm:ss[.fraction](Z|z|+hh:mm|-hh:mm).
 * require_offset: a missing offset is SD_E_KIND "timestamp \"...\" has no time zone offset".
 * The fraction is rounded to microseconds exactly as PostgreSQL's timestamp input rounds it
 * (rint of the fraction's double times 1e6: ties go the way that double falls, then to even);
 * any number (>= 1) of fraction digits accepted; rounding carries into the next
 * second/minute/day/year.  Result:
 * microseconds since 1970-01-01T00:00:00 after subtracting the offset (UTC); without offset,
 * the wall time as is.  *had_offset tells which.  Text that does not follow the grammar is
 * SD_E_KIND "invalid timestamp \"hello\": expected RFC 3339 date-time" (checked first, then
 * the missing offset).  Out-of-range fields are SD_E_DATETIME "invalid timestamp \"...\":
 * <year|month|day|hour|minute|second> out of range": an impossible date (2024-02-30, month 13),
 * hour 24, second 61; a leap second (second 60) rolls into the next minute as in PostgreSQL,
 * but not past 24:00:00 ("time of day past 24:00:00" for 23:59:60.5).  Offsets are accepted up to +-15:59 as
 * PostgreSQL does ("time zone offset out of range" beyond); -00:00 is UTC.  Years 0001-9999
 * as written: a value that rounds past 9999-12-31 23:59:59.999999 is SD_E_DATETIME; so is one
 * whose offset moves the UTC instant outside 0001-01-01 .. 9999-12-31 ("out of range
 * (0001-01-01 .. 9999-12-31 in UTC)": 0001-01-01T00:30:00+01:00), as for every format. */
sd_code		sd_parse_timestamp(const char *s, size_t len, bool require_offset, int64_t *us,
							   bool *had_offset, char *problem);
/* A date-time's fields as a parser read them (RFC 3339 here; ISO 8601 and patterns in
 * scalar_time.c), turned into microseconds by sd_ts_finish with the rules and messages of
 * sd_parse_timestamp: the missing offset (when require_offset), impossible dates, hour / minute
 * / second, past 24:00:00, offsets beyond +-15:59, rounding past 9999-12-31, the UTC instant
 * outside 0001-01-01 .. 9999-12-31.  end_of_day: 24:00:00 (exactly) is the next midnight. */
typedef struct sd_ts_fields
{
	int			y,
				m,
				d,
				h,
				mi,
				sec;
	int64_t		frac_us;		/* 0 .. 1000000 after rounding */
	bool		has_off;
	bool		end_of_day;
	int			off_sign,		/* -1, 0 or 1 */
				off_h,
				off_m;
} sd_ts_fields;
sd_code		sd_ts_finish(const char *s, size_t len, const sd_ts_fields *F, bool require_offset,
						 int64_t *us, char *problem);
/* n >= 1 fraction digits at fp in microseconds, rounded as PostgreSQL rounds them (may be
 * 1000000). */
int64_t		sd_frac_digits_us(const char *fp, size_t n);
/* "invalid timestamp \"<s, cut>\": <why>" with code. */
sd_code		sd_bad_timestamp(sd_code code, const char *s, size_t len, const char *why, char *problem);
/* ISO 8601 (format "iso8601", scalar_time.c): YYYY-MM-DD, or YYYY-MM-DD(T|t| )hh:mm[:ss[(.|,)
 * fraction]][offset] with offset Z, z, +-hh, +-hhmm, +-hh:mm; 24:00[:00[.0...]] is the next
 * midnight.  A date alone is midnight UTC (*had_offset true).  Not the grammar: SD_E_KIND
 * "invalid timestamp \"...\": expected ISO 8601 date or date-time"; the rest as
 * sd_ts_finish. */
sd_code		sd_parse_iso8601(const char *s, size_t len, bool require_offset, int64_t *us,
							 bool *had_offset, char *problem);
/* base64 wrapped in lines (format "base64_mime", RFC 2045): CR, LF, space and tab anywhere are
 * ignored; the rest as sd_decode_binary's base64 (positions are of the text as written). */
sd_code		sd_decode_base64_mime(const char *s, size_t len, uint8_t *out, size_t *outlen,
								  char *problem);
/* An RFC 2822 / RFC 5322 date-time (RSS pubDate, e-mail and HTTP dates):
 * [Day ","] D[D] Mon YYYY hh:mm[:ss] zone, names case-insensitive, runs of blanks between the
 * parts; zone +hhmm / -hhmm (-0000 is UTC) or UT, GMT, Z, EST/EDT/CST/CDT/MST/MDT/PST/PDT;
 * 2- and 3-digit years read as RFC 5322 §4.3 says (49 -> 2049, 50 -> 1950, 103 -> 2003).  ->
 * microseconds since 1970-01-01 UTC.  Not the grammar: SD_E_KIND "invalid timestamp \"...\":
 * expected RFC 2822 date-time"; an impossible date or time, an offset beyond +-15:59, a day
 * of the week that is not the date's, or an instant outside 0001-01-01 .. 9999-12-31 in UTC
 * after the zone: SD_E_DATETIME as sd_parse_timestamp's. */
sd_code		sd_parse_rfc2822(const char *s, size_t len, int64_t *us, char *problem);
/* YYYY-MM-DD -> days since 1970-01-01.  Same error rules ("invalid date \"...\": expected
 * YYYY-MM-DD" / "...: day out of range"). */
sd_code		sd_parse_date(const char *s, size_t len, int32_t *days, char *problem);
/* hh:mm:ss[.fraction] -> microseconds since midnight (no offset), rounded as timestamps are.
 * 24:00:00 is allowed as PostgreSQL does, and so is anything that rounds to it (23:59:59.9999999,
 * 24:00:00.0000004) and the leap second 23:59:60 (second 60 rolls into the next minute); beyond it SD_E_DATETIME "invalid time \"24:00:01\": time out of range". */
sd_code		sd_parse_time(const char *s, size_t len, int64_t *us, char *problem);
/* A JSON number literal of seconds (unit_us = 1000000) or milliseconds (unit_us = 1000) since
 * the epoch, integer or with fraction or exponent (exact decimal arithmetic, rounded to
 * microseconds half away from zero: "-1.5" seconds = -1500000) -> microseconds since the
 * epoch.  Outside 0001-01-01T00:00:00 .. 9999-12-31T23:59:59.999999 (after rounding) is
 * SD_E_DATETIME "value 1e20 out of range for timestamp (0001-01-01 .. 9999-12-31)".
 * unit_us must be a power of ten (else SD_E_INTERNAL). */
sd_code		sd_parse_epoch(const char *s, size_t len, int64_t unit_us, int64_t *us, char *problem);

/* Canonical 8-4-4-4-12 hex, any case -> 16 bytes.  Anything else (braces, no dashes, other
 * dash positions) SD_E_KIND "invalid uuid \"xyz\"". */
sd_code		sd_parse_uuid(const char *s, size_t len, uint8_t out[16], char *problem);

/* Decoded size upper bound for a base64/base64url/hex input of len bytes (SD_FMT_NONE: base64). */
size_t		sd_binary_max_decoded(sd_format fmt, size_t len);
/* Decodes base64 (RFC 4648 §4; SD_FMT_NONE means base64 too), base64url (§5), or hex (even
 * number of hex digits, any case, no "\x" prefix) into out (sd_binary_max_decoded bytes).
 * Both base64 alphabets accept padded and unpadded input; padding must be complete ("QQ==" or
 * "QQ", not "QQ=") and only at the end.  Unused low bits of the last character are ignored
 * (as PostgreSQL's decode() does).  Whitespace is not allowed.  Bad input is SD_E_KIND with the
 * 0-based position of the first offending byte: "invalid base64 at byte 5" ("base64url",
 * "hex"; a lone final character counts as offending); "invalid hex: odd number of digits (5)".
 * Any other fmt is SD_E_INTERNAL. */
sd_code		sd_decode_binary(sd_format fmt, const char *s, size_t len, uint8_t *out,
							 size_t *outlen, char *problem);

/* Number of UTF-8 code points in valid UTF-8 s[0..len) (bytes that are not continuation
 * bytes; defined, though meaningless, for invalid input). */
size_t		sd_utf8_chars(const char *s, size_t len);

/* Days since 1970-01-01 of a proleptic Gregorian date (valid y/m/d assumed; any year,
 * year 0 = 1 BC). */
int64_t		sd_days_from_civil(int y, int m, int d);

#ifdef __cplusplus
}
#endif

#endif							/* SERDE_SCALAR_H */
