/*
 * scalar.h — fast, exact scalar parsers of the core: JSON number grammar, integers, exact
 * numerics, RFC 3339 timestamps, dates, times, epoch numbers, UUIDs, base64/base64url/hex,
 * UTF-8 character counting.  Pure functions over (pointer, length); no allocation, no locale,
 * no errno.  Each parser returns SD_OK or an sd_code and, on failure, writes a short problem
 * text ("expected integer, found number 1.5" is composed by the caller; these write the
 * specific reason, e.g. "value 70000 out of range for smallint") into problem[SD_PROBLEM_MAX].
 */
#ifndef SERDE_SCALAR_H
#define SERDE_SCALAR_H

#include "serde_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True when s[0..len) is exactly one JSON number (RFC 8259 grammar: -?(0|[1-9][0-9]*)
 * (\.[0-9]+)?([eE][+-]?[0-9]+)?), no surrounding whitespace. */
bool		sd_is_json_number(const char *s, size_t len);

/* Parses a JSON number literal (already known to satisfy sd_is_json_number, or - when
 * `lenient_text` - a string's content which is first checked against the same grammar after
 * trimming nothing) as an integer within [min, max].
 * Without `integral_forms`: only plain integer literals (no '.', no exponent) are accepted;
 *   otherwise SD_E_KIND ("not an integer").
 * With `integral_forms` (coerce): 1.0, 1e2, 1.50e1 are accepted when their value is integral;
 *   a non-integral value is SD_E_KIND.
 * Out of range (including huge exponents) is SD_E_RANGE with problem
 * "value <literal, cut at 40 chars> out of range for <typename>". */
sd_code		sd_parse_int(const char *s, size_t len, int64_t min, int64_t max, bool integral_forms,
						 const char *typname, int64_t *out, char *problem);

/* Checks a JSON number literal against numeric(precision, scale) exactly, from its digits
 * (never through a double).  precision < 0 means unconstrained (always OK).  More integer
 * digits than precision-scale -> SD_E_RANGE "numeric field overflow: ... precision P, scale S";
 * non-zero digits beyond `scale` -> SD_E_RANGE "value has more than S decimal places".
 * Exponents are honoured (1.5e3 has 4 integer digits, 0 fraction digits).  Leading zeros
 * and trailing fractional zeros do not count. */
sd_code		sd_check_numeric(const char *s, size_t len, int precision, int scale, char *problem);

/* Parses a JSON number literal as a double (correctly rounded).  Overflow to infinity is
 * SD_E_RANGE.  When as_float4, values beyond float4's range are SD_E_RANGE as well
 * (underflow of a non-zero value to 0 too, as PostgreSQL's float4in does). */
sd_code		sd_parse_float(const char *s, size_t len, bool as_float4, double *out, char *problem);

/* RFC 3339 date-time: YYYY-MM-DD(T|t| )hh:mm:ss[.fraction](Z|z|+hh:mm|-hh:mm).
 * require_offset: a missing offset is SD_E_KIND.  The fraction is rounded to microseconds
 * (half away from zero); any number of fraction digits accepted.  Result: microseconds since
 * 1970-01-01T00:00:00 after subtracting the offset (UTC); without offset, the wall time as is.
 * *had_offset tells which.  Seconds 60 (leap) are rejected (SD_E_DATETIME); an impossible date
 * (2024-02-30, month 13, hour 24) is SD_E_DATETIME; text that does not follow the grammar is
 * SD_E_KIND.  Years 0001-9999 only. */
sd_code		sd_parse_timestamp(const char *s, size_t len, bool require_offset, int64_t *us,
							   bool *had_offset, char *problem);
/* YYYY-MM-DD -> days since 1970-01-01.  Same error rules. */
sd_code		sd_parse_date(const char *s, size_t len, int32_t *days, char *problem);
/* hh:mm:ss[.fraction] -> microseconds since midnight (24:00:00 allowed as PostgreSQL does). */
sd_code		sd_parse_time(const char *s, size_t len, int64_t *us, char *problem);
/* A JSON number literal of seconds (unit_us = 1000000) or milliseconds (unit_us = 1000) since
 * the epoch, integer or with fraction (exact decimal arithmetic, rounded to microseconds) ->
 * microseconds since the epoch.  Outside 0001-01-01 .. 9999-12-31 is SD_E_DATETIME. */
sd_code		sd_parse_epoch(const char *s, size_t len, int64_t unit_us, int64_t *us, char *problem);

/* Canonical 8-4-4-4-12 hex, any case -> 16 bytes.  Anything else SD_E_KIND. */
sd_code		sd_parse_uuid(const char *s, size_t len, uint8_t out[16], char *problem);

/* Decoded size upper bound for a base64/base64url/hex input of len bytes. */
size_t		sd_binary_max_decoded(sd_format fmt, size_t len);
/* Decodes base64 (RFC 4648 §4, padding required unless the length makes it unambiguous: accept
 * both padded and unpadded), base64url (§5, padding optional), or hex (even number of hex
 * digits, any case) into out (sd_binary_max_decoded bytes).  Whitespace is not allowed.
 * Bad input SD_E_KIND with the position in problem. */
sd_code		sd_decode_binary(sd_format fmt, const char *s, size_t len, uint8_t *out,
							 size_t *outlen, char *problem);

/* Number of UTF-8 code points in valid UTF-8 s[0..len). */
size_t		sd_utf8_chars(const char *s, size_t len);

/* Days since 1970-01-01 of a proleptic Gregorian date (valid y/m/d assumed). */
int64_t		sd_days_from_civil(int y, int m, int d);

#ifdef __cplusplus
}
#endif

#endif							/* SERDE_SCALAR_H */
