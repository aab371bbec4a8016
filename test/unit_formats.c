/*
 * unit_formats.c — the formats of scalar_time.c and their plans: ISO 8601 timestamps, timestamp
 * patterns (compile errors, reading, zones, AM/PM, weekdays), MIME base64, and multi-dimensional
 * arrays through the engine (rectangular shapes, errors at the first index that differs).
 */
#include "unit.h"
#include "unit_support.h"
#include "scalar_time.h"

static char P[SD_PROBLEM_MAX];

#define US_DAY ((int64_t) 86400000000)
/* 2004-12-23T18:00:15Z in microseconds */
#define T0 ((int64_t) 1103824815 * 1000000)

static sd_code
iso(const char *s, bool req, int64_t *us)
{
	bool		had;

	P[0] = '\0';
	return sd_parse_iso8601(s, strlen(s), req, us, &had, P);
}

static void
iso8601(void)
{
	int64_t		us = 0;
	bool		had = false;

	/* a date alone: midnight UTC, whatever require_offset says */
	CHECK(iso("1970-01-02", true, &us) == SD_OK && us == US_DAY);
	CHECK(sd_parse_iso8601("1970-01-02", 10, true, &us, &had, P) == SD_OK && had);
	CHECK(iso("2004-12-23T18:00:15+00:00", true, &us) == SD_OK && us == T0);
	CHECK(iso("2004-12-23T18:00:15Z", true, &us) == SD_OK && us == T0);
	CHECK(iso("2004-12-23 18:00:15z", true, &us) == SD_OK && us == T0);
	CHECK(iso("2004-12-23T20:00:15+02", true, &us) == SD_OK && us == T0);
	CHECK(iso("2004-12-23T23:30:15+0530", true, &us) == SD_OK && us == T0);
	CHECK(iso("2004-12-23T12:30:15-05:30", true, &us) == SD_OK && us == T0);
	CHECK(iso("2004-12-23T18:00+00", true, &us) == SD_OK && us == T0 - 15000000);
	CHECK(iso("2004-12-23T18:00:15.5Z", true, &us) == SD_OK && us == T0 + 500000);
	CHECK(iso("2004-12-23T18:00:15,25Z", true, &us) == SD_OK && us == T0 + 250000);
	/* fraction rounded to µs as PostgreSQL rounds it, carrying into the next day */
	CHECK(iso("2004-12-23T18:00:15.0000005Z", true, &us) == SD_OK && us == T0);
	CHECK(iso("2004-12-23T18:00:15.0000015Z", true, &us) == SD_OK && us == T0 + 2);
	CHECK(iso("1970-01-01T23:59:59.9999999Z", true, &us) == SD_OK && us == US_DAY);
	/* without an offset: the wall time as is; an error when required */
	CHECK(sd_parse_iso8601("2004-12-23T18:00:15", 19, false, &us, &had, P) == SD_OK && us == T0 && !had);
	CHECK(iso("2004-12-23T18:00:15", true, &us) == SD_E_KIND);
	CHECK_STR(P, "timestamp \"2004-12-23T18:00:15\" has no time zone offset");
	/* leap years */
	CHECK(iso("2000-02-29", true, &us) == SD_OK);
	CHECK(iso("2024-02-29", true, &us) == SD_OK);
	CHECK(iso("1900-02-29", true, &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"1900-02-29\": day out of range");
	CHECK(iso("2023-02-29T00:00Z", true, &us) == SD_E_DATETIME);
	/* 24:00 is the next midnight; past it is not; a leap second rolls over */
	CHECK(iso("1970-01-01T24:00Z", true, &us) == SD_OK && us == US_DAY);
	CHECK(iso("1970-01-01T24:00:00.000Z", true, &us) == SD_OK && us == US_DAY);
	CHECK(iso("1970-01-01T24:00:00.000001Z", true, &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"1970-01-01T24:00:00.000001Z\": time of day past 24:00:00");
	CHECK(iso("1970-01-01T25:00Z", true, &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"1970-01-01T25:00Z\": hour out of range");
	CHECK(iso("1970-01-01T23:59:60Z", true, &us) == SD_OK && us == US_DAY);
	/* offsets: +-14:00 (the real world's limits) and PostgreSQL's +-15:59 fit; beyond not */
	CHECK(iso("1970-01-02T14:00+14:00", true, &us) == SD_OK && us == US_DAY);
	CHECK(iso("1970-01-01T10:00-14", true, &us) == SD_OK && us == US_DAY);
	CHECK(iso("1970-01-02T00:00-15:59", true, &us) == SD_OK);
	CHECK(iso("1970-01-02T00:00+16:00", true, &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"1970-01-02T00:00+16:00\": time zone offset out of range");
	CHECK(iso("1970-01-02T00:00+05:60", true, &us) == SD_E_DATETIME);
	/* years as the other formats: 0001 .. 9999 in UTC */
	CHECK(iso("0001-01-01", true, &us) == SD_OK);
	CHECK(iso("9999-12-31T23:59:59.999999Z", true, &us) == SD_OK);
	CHECK(iso("0000-01-01", true, &us) == SD_E_DATETIME);
	CHECK(iso("0001-01-01T00:30+01", true, &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"0001-01-01T00:30+01\": out of range (0001-01-01 .. 9999-12-31 in UTC)");
	CHECK(iso("9999-12-31T24:00Z", true, &us) == SD_E_DATETIME);
	/* the grammar */
	const char *const bad[] = {"", "2004", "2004-12", "2004-12-2", "20041223", "2004-12-23T",
		"2004-12-23T18", "2004-12-23T18:0", "2004-12-23T18:00:1", "2004-12-23T18:00:15.",
		"2004-12-23T18:00:15+1", "2004-12-23T18:00:15+05:3", "2004-12-23T18:00:15+053",
		"2004-12-23T18:00:15Zx", "2004-12-23X18:00", " 2004-12-23", "2004-12-23 ",
		"+2004-12-23", "2004-12-23T18:00:15 Z", "2004-12-23T18.5", NULL};

	for (int i = 0; bad[i]; i++)
	{
		CHECK(iso(bad[i], false, &us) == SD_E_KIND);
		CHECK(strstr(P, "expected ISO 8601 date or date-time") != NULL);
	}
}

static sd_arena A;

static const sd_tspattern *
pat(const char *text, const char *zone)
{
	bool		oom = false;
	sd_tspattern *p;

	P[0] = '\0';
	p = sd_tspattern_compile(&A, text, strlen(text), P, &oom);
	CHECK(!oom);
	if (p && zone && sd_tspattern_set_zone(&A, p, zone, P) != SD_OK)
		return NULL;
	return p;
}

static sd_code
rd(const sd_tspattern *p, const char *s, bool req, int64_t *us)
{
	P[0] = '\0';
	return sd_parse_pattern(p, s, strlen(s), req, us, P);
}

static void
patterns(void)
{
	const sd_tspattern *p;
	int64_t		us = 0;
	/* 2017-09-01T16:12:29Z */
	const int64_t cb = (int64_t) 1504282349 * 1000000;

	sd_arena_init(&A, NULL);
	/* AWS CodeBuild */
	CHECK((p = pat("MMM d, yyyy h:mm:ss a", "UTC")) != NULL);
	CHECK_STR(sd_tspattern_text(p), "MMM d, yyyy h:mm:ss a");
	CHECK_STR(sd_tspattern_zone(p), "UTC");
	CHECK_STR(sd_tspattern_expected(p), "string (timestamp as \"MMM d, yyyy h:mm:ss a\")");
	CHECK(!sd_tspattern_reads_offset(p));
	CHECK(rd(p, "Sep 1, 2017 4:12:29 PM", true, &us) == SD_OK && us == cb);
	CHECK(rd(p, "sep 01, 2017 04:12:29 pm", true, &us) == SD_OK && us == cb);
	CHECK(rd(p, "Sep 1, 2017 12:00:00 AM", true, &us) == SD_OK && us == cb - 16 * 3600000000LL - 12 * 60000000LL - 29000000LL);
	CHECK(rd(p, "Sep 1, 2017 12:00:00 PM", true, &us) == SD_OK && us == cb - 4 * 3600000000LL - 12 * 60000000LL - 29000000LL);
	CHECK(rd(p, "Sep 1, 2017 13:12:29 PM", true, &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"Sep 1, 2017 13:12:29 PM\": hour out of range (1-12 with AM/PM)");
	CHECK(rd(p, "Sep 1, 2017 0:12:29 AM", true, &us) == SD_E_DATETIME);
	CHECK(rd(p, "Sep 1, 2017 4:12:29 XM", true, &us) == SD_E_KIND);
	CHECK_STR(P, "invalid timestamp \"Sep 1, 2017 4:12:29 XM\": expected \"MMM d, yyyy h:mm:ss a\"");
	CHECK(rd(p, "Sep 1, 2017 4:12:29 PM ", true, &us) == SD_E_KIND);
	CHECK(rd(p, "Sep 123, 2017 4:12:29 PM", true, &us) == SD_E_KIND);
	CHECK(rd(p, "Sep 31, 2017 4:12:29 PM", true, &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"Sep 31, 2017 4:12:29 PM\": day out of range");
	CHECK(rd(p, "Feb 29, 2016 1:00:00 AM", true, &us) == SD_OK);
	CHECK(rd(p, "Feb 29, 2100 1:00:00 AM", true, &us) == SD_E_DATETIME);
	/* a fixed zone: the text is that wall time */
	CHECK((p = pat("MMM d, yyyy h:mm:ss a", "+02:00")) != NULL);
	CHECK(rd(p, "Sep 1, 2017 6:12:29 PM", true, &us) == SD_OK && us == cb);
	CHECK((p = pat("MMM d, yyyy h:mm:ss a", "-05:30")) != NULL);
	CHECK(rd(p, "Sep 1, 2017 10:42:29 AM", true, &us) == SD_OK && us == cb);
	/* no zone: required offset missing; else the wall time */
	CHECK((p = pat("yyyy/MM/dd HH:mm", NULL)) != NULL);
	CHECK(rd(p, "2017/09/01 16:12", false, &us) == SD_OK && us == cb - 29000000);
	CHECK(rd(p, "2017/09/01 16:12", true, &us) == SD_E_KIND);
	CHECK(rd(p, "2017/9/01 16:12", false, &us) == SD_E_KIND);
	/* offsets from the text */
	CHECK((p = pat("yyyy-MM-dd'T'HH:mm:ssXXX", NULL)) != NULL && sd_tspattern_reads_offset(p));
	CHECK(rd(p, "2017-09-01T16:12:29Z", true, &us) == SD_OK && us == cb);
	CHECK(rd(p, "2017-09-01T18:12:29+02:00", true, &us) == SD_OK && us == cb);
	CHECK(rd(p, "2017-09-01T18:12:29+0200", true, &us) == SD_E_KIND);
	CHECK(rd(p, "2017-09-02T06:12:29+14:00", true, &us) == SD_OK && us == cb);
	CHECK(rd(p, "2017-09-02T06:12:29+16:00", true, &us) == SD_E_DATETIME);
	CHECK((p = pat("yyyy-MM-dd HH:mm:ss Z", NULL)) != NULL);
	CHECK(rd(p, "2017-09-01 18:12:29 +0200", true, &us) == SD_OK && us == cb);
	CHECK(rd(p, "2017-09-01 16:12:29 Z", true, &us) == SD_E_KIND);
	CHECK((p = pat("yyyy-MM-dd HH:mm:ssX", NULL)) != NULL);
	CHECK(rd(p, "2017-09-01 18:12:29+02", true, &us) == SD_OK && us == cb);
	CHECK(rd(p, "2017-09-01 18:42:29+0230", true, &us) == SD_OK && us == cb);
	CHECK(rd(p, "2017-09-01 16:12:29Z", true, &us) == SD_OK && us == cb);
	/* fractions: exactly the letters' digits, rounded to µs */
	CHECK((p = pat("yyyy-MM-dd HH:mm:ss.SSS", NULL)) != NULL);
	CHECK(rd(p, "2017-09-01 16:12:29.500", false, &us) == SD_OK && us == cb + 500000);
	CHECK(rd(p, "2017-09-01 16:12:29.5", false, &us) == SD_E_KIND);
	CHECK(rd(p, "2017-09-01 16:12:29.5000", false, &us) == SD_E_KIND);
	CHECK((p = pat("yyyy-MM-dd HH:mm:ss.SSSSSSSSS", NULL)) != NULL);
	CHECK(rd(p, "2017-09-01 16:12:29.000000500", false, &us) == SD_OK && us == cb);
	CHECK(rd(p, "2017-09-01 16:12:29.000001500", false, &us) == SD_OK && us == cb + 2);
	CHECK(rd(p, "2017-09-01 23:59:59.999999999", false, &us) == SD_OK && us == cb - 16 * 3600000000LL - 12 * 60000000LL - 29000000LL + US_DAY);
	/* full month names, weekdays (checked), quoted text */
	CHECK((p = pat("EEEE, d MMMM yyyy 'at' H'h'", "UTC")) != NULL);
	CHECK(rd(p, "Friday, 1 September 2017 at 16h", true, &us) == SD_OK && us == cb - 12 * 60000000LL - 29000000LL);
	CHECK(rd(p, "Monday, 1 September 2017 at 16h", true, &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"Monday, 1 September 2017 at 16h\": day of the week does not match the date");
	CHECK(rd(p, "Friday, 31 September 2017 at 16h", true, &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"Friday, 31 September 2017 at 16h\": day out of range");
	CHECK((p = pat("EEE dd MMM yyyy ''HH''", "UTC")) != NULL);
	CHECK(rd(p, "Fri 01 Sep 2017 '16'", true, &us) == SD_OK);
	CHECK(rd(p, "Fri 01 September 2017 '16'", true, &us) == SD_E_KIND);
	CHECK((p = pat("d.M.yyyy", "UTC")) != NULL);
	CHECK(rd(p, "1.9.2017", true, &us) == SD_OK && us == cb - 16 * 3600000000LL - 12 * 60000000LL - 29000000LL);
	CHECK(rd(p, "01.09.2017", true, &us) == SD_OK);
	CHECK(rd(p, "1.9.17", true, &us) == SD_E_KIND);
	CHECK(rd(p, "1.9.0000", true, &us) == SD_E_DATETIME);
	CHECK_STR(P, "invalid timestamp \"1.9.0000\": year out of range");
	/* compile errors */
	{
		char		longp[300];

		memset(longp, '-', sizeof(longp));
		memcpy(longp, "yyyy-MM-dd", 10);
		P[0] = '\0';
		CHECK(sd_tspattern_compile(&A, longp, 257, P, &(bool) {false}) == NULL);
		CHECK_STR(P, "a pattern has at most 256 bytes, not 257");
		CHECK(sd_tspattern_compile(&A, longp, 256, P, &(bool) {false}) != NULL);
	}
	CHECK(pat("", NULL) == NULL);
	CHECK_STR(P, "must not be empty");
	CHECK(pat("yyyy-MM-dd Q", NULL) == NULL);
	CHECK(strncmp(P, "unknown pattern letter 'Q' at character 12", 42) == 0);
	CHECK(pat("yy-MM-dd", NULL) == NULL);
	CHECK(strncmp(P, "pattern field \"yy\" at character 1 is not supported", 50) == 0);
	CHECK(pat("yyyy-MM-dd SSSSSSSSSS", NULL) == NULL);
	CHECK(pat("yyyy-MM-dd 'x", NULL) == NULL);
	CHECK_STR(P, "quoted text that starts at character 12 has no closing quote");
	CHECK(pat("yyyy-MM-dd MMM", NULL) == NULL);
	CHECK_STR(P, "pattern field \"MMM\" at character 12 repeats a field read before");
	CHECK(pat("yyyy-MM-dd XXX Z", NULL) == NULL);
	CHECK(pat("yyyy-dd", NULL) == NULL);
	CHECK_STR(P, "the pattern needs a year (yyyy), a month (M, MM, MMM or MMMM) and a day (d or dd)");
	CHECK(pat("yyyy-MM-dd hh", NULL) == NULL);
	CHECK_STR(P, "h and hh (hours 1-12) need a (AM or PM)");
	CHECK(pat("yyyy-MM-dd HH a", NULL) == NULL);
	CHECK_STR(P, "a (AM or PM) needs h or hh (hours 1-12), not H or HH");
	CHECK(pat("yyyy-MM-dd H h a", NULL) == NULL);
	CHECK_STR(P, "the pattern reads the hour twice (H and h)");
	/* zones */
	CHECK(pat("yyyy-MM-dd", "CET") == NULL);
	CHECK_STR(P, "must be \"UTC\" or a fixed offset such as \"+02:00\" or \"-05:30\", not \"CET\"");
	CHECK(pat("yyyy-MM-dd", "+0200") == NULL);
	CHECK(pat("yyyy-MM-dd", "+16:00") == NULL);
	CHECK_STR(P, "offset \"+16:00\" out of range (-15:59 .. +15:59)");
	CHECK(pat("yyyy-MM-dd", "-14:00") != NULL);
	CHECK(pat("yyyy-MM-dd", "Z") != NULL);
	sd_arena_free(&A);
}

static sd_code
mime(const char *s, uint8_t *out, size_t *n)
{
	P[0] = '\0';
	return sd_decode_base64_mime(s, strlen(s), out, n, P);
}

static void
base64_mime(void)
{
	uint8_t		out[64];
	size_t		n = 0;

	CHECK(mime("SGVsbG8=", out, &n) == SD_OK && n == 5 && memcmp(out, "Hello", 5) == 0);
	CHECK(mime("SGVs\r\nbG8=\r\n", out, &n) == SD_OK && n == 5 && memcmp(out, "Hello", 5) == 0);
	CHECK(mime(" S G V s\tb G 8 ", out, &n) == SD_OK && n == 5 && memcmp(out, "Hello", 5) == 0);
	CHECK(mime("SGVsbG8=\n=", out, &n) == SD_E_KIND);
	CHECK(mime("SGVsbA=\n=", out, &n) == SD_OK && n == 4);
	CHECK(mime("", out, &n) == SD_OK && n == 0);
	CHECK(mime("\r\n", out, &n) == SD_OK && n == 0);
	CHECK(mime("QQ", out, &n) == SD_OK && n == 1 && out[0] == 'A');
	CHECK(mime("====", out, &n) == SD_E_KIND);
	CHECK(mime("QUJD\n==", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 5");
	CHECK(mime("Q===", out, &n) == SD_E_KIND);
	CHECK(mime("QQ=", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 2");
	CHECK(mime("Q", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 0");
	CHECK(mime("QUJD\nR", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 5");
	CHECK(mime("QQ==QQ==", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 2");
	CHECK(mime("QUJD\n-_8", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 5");
	CHECK(mime("QUJD\vQQ", out, &n) == SD_E_KIND);
	CHECK_STR(P, "invalid base64 at byte 4");
	/* unused low bits are ignored, as for base64 */
	CHECK(mime("QR==", out, &n) == SD_OK && n == 1 && out[0] == 'A');
	CHECK(sd_binary_max_decoded(SD_FMT_BASE64_MIME, 10) >= 6);
}

/* Multi-dimensional arrays: a float8[] / text[] of max_dims 6, through the engine. */
static void
md_arrays(void)
{
	/* static: reachable to the end (the helpers' types are never freed) */
	static sd_type mt,
				tt,
				rt;
	static sd_column cols[2];
	static const sd_type *keep[2];
	sd_type    *m = &mt,
			   *t = &tt,
			   *row = &rt;

	keep[0] = ut_array_of(&ut_float8);
	keep[1] = ut_array_of(&ut_text);
	*m = *keep[0];
	m->max_dims = 6;
	*t = *keep[1];
	t->max_dims = 6;
	cols[0] = (sd_column) {"m", m};
	cols[1] = (sd_column) {"t", t};
	row->kind = SD_K_COMPOSITE;
	row->name = "md";
	row->max_chars = -1;
	row->precision = row->scale = -1;
	row->ncols = 2;
	row->cols = cols;

	CHECK_STR(ut_decode(row, "{}", "{\"m\": [[1, 2], [3, 4]], \"t\": [\"a\"]}"), "{m:[[1,2],[3,4]],t:['a']}");
	CHECK_STR(ut_decode(row, "{}", "{\"m\": [[[1]], [[2]]], \"t\": [[\"a\", null]]}"), "{m:[[[1]],[[2]]],t:[['a',null]]}");
	CHECK_STR(ut_decode(row, "{}", "{\"m\": [[], []], \"t\": [[]]}"), "{m:[[],[]],t:[[]]}");
	CHECK_STR(ut_decode(row, "{}", "{\"m\": [[1, 2], [3]], \"t\": []}"),
			  "ERROR 22032 $.m[1]: expected an array of 2 elements, found 1 @15");
	CHECK_STR(ut_decode(row, "{}", "{\"m\": [[1], 3], \"t\": []}"),
			  "ERROR 22032 $.m[1]: expected an array of 1 element, found number 3 @12");
	CHECK_STR(ut_decode(row, "{}", "{\"m\": [1, [3]], \"t\": []}"),
			  "ERROR 22032 $.m[1]: expected number, found array @10");
	CHECK_STR(ut_decode(row, "{}", "{\"m\": [[[1]], [[1, 2]]], \"t\": []}"),
			  "ERROR 22032 $.m[1][0]: expected an array of 1 element, found 2 @15");
	CHECK_STR(ut_decode(row, "{}", "{\"m\": [[[1]], [2]], \"t\": []}"),
			  "ERROR 22032 $.m[1][0]: expected an array of 1 element, found number @15");
	CHECK_STR(ut_decode(row, "{}", "{\"m\": [[[[[[[1]]]]]]], \"t\": []}"),
			  "ERROR 22032 $.m[0]: an array of 7 dimensions: PostgreSQL arrays have at most 6 @7");
	CHECK_STR(ut_decode(row, "{}", "{\"m\": [[[[[[1]]]]]], \"t\": []}"), "{m:[[[[[[1]]]]]],t:[]}");
	/* a list (max_dims 0) refuses nested arrays as before */
	m->max_dims = 0;
	CHECK_STR(ut_decode(row, "{}", "{\"m\": [[1]], \"t\": []}"),
			  "ERROR 22032 $.m[0]: expected number, found array @7");
}

/* Two columns of one array type with two patterns: two nodes, each with its own pattern. */
static void
pattern_plans(void)
{
	const sd_type *row = ut_composite("fm_two", "a:timestamptz[],b:timestamptz[],c:timestamptz[]");
	const char *opts = "{\"fields\": {\"a\": {\"format\": {\"pattern\": \"d/M/yyyy\", \"zone\": \"UTC\"}},"
		"\"b\": {\"format\": {\"pattern\": \"M/d/yyyy\", \"zone\": \"UTC\"}}}}";
	const char *doc = "{\"a\": [\"2/1/2017\"], \"b\": [\"2/1/2017\"], \"c\": [\"2017-01-02T00:00:00Z\"]}";
	const char *got = ut_decode(row, opts, doc);

	/* 2017-01-02 and 2017-02-01 */
	CHECK_STR(got, "{a:[T1483315200000000],b:[T1485907200000000],c:[T1483315200000000]}");
	CHECK_STR(ut_compile(row, "{\"fields\": {\"a\": {\"format\": {\"pattern\": \"d/M/yyyy h\", \"zone\": \"UTC\"}}}}"),
			  "ERROR 22023 $.fields.a.format.pattern: h and hh (hours 1-12) need a (AM or PM)");
	CHECK_STR(ut_compile(row, "{\"fields\": {\"a\": {\"format\": {\"pattern\": \"d/M/yyyy\"}}}}"),
			  "ERROR 22023 $.fields.a.format: the pattern has no offset (X, XX, XXX or Z): type timestamp with time zone needs \"zone\" (\"UTC\" or an offset such as \"+02:00\")");
}

void
unit_formats(void)
{
	iso8601();
	patterns();
	base64_mime();
	md_arrays();
	pattern_plans();
}
