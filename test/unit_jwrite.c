/*
 * unit_jwrite.c — the one JSON string escaper, the formatters and the tape -> canonical JSON
 * writer (src/core/jwrite.c).
 */
#include "unit.h"
#include "unit_support.h"
#include "scalar.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>

/* ---- a hook that fails after N allocations (OOM paths) ----------------------------------- */

static long allow_allocs = -1;      /* < 0: unlimited */

static void *
lim_alloc(void *ud, size_t n)
{
	if (allow_allocs == 0)
		return NULL;
	if (allow_allocs > 0)
		allow_allocs--;
	return malloc(n);
}

static void *
lim_realloc(void *ud, void *p, size_t n)
{
	if (allow_allocs == 0)
		return NULL;
	if (allow_allocs > 0)
		allow_allocs--;
	return realloc(p, n);
}

static void
lim_free(void *ud, void *p)
{
	free(p);
}

static const sd_hooks lim_hooks = {lim_alloc, lim_realloc, lim_free, NULL, NULL};

/* ---- helpers ----------------------------------------------------------------------------- */

static const char *
esc(const char *s, size_t len)
{
	static char out[512];
	size_t		n = sd_json_escape(out, sizeof(out) - 1, s, len, NULL);

	out[n] = '\0';
	return out;
}

/* compile (options) + decode (doc) + write: the canonical JSON, or "ERROR <problem>" */
static const char *
canon(const sd_type *t, const char *options, const char *doc)
{
	static char res[8192];
	sd_error	err;
	sd_plan    *plan = sd_compile("T", options, strlen(options), t, NULL, NULL, &err);
	sd_decoder *d;
	sd_jwriter *w;
	sd_buf		b;
	uint32_t	root;

	if (!plan)
	{
		snprintf(res, sizeof(res), "ERROR compile %s: %s", err.path, err.problem);
		return res;
	}
	d = sd_decoder_create(NULL);
	if (!sd_decode_json(d, plan, NULL, doc, strlen(doc), NULL, &root, &err))
	{
		snprintf(res, sizeof(res), "ERROR %s: %s", err.path, err.problem);
		sd_decoder_destroy(d);
		sd_plan_free(plan);
		return res;
	}
	w = sd_jwriter_create(plan, NULL, &err);
	sd_buf_init(&b, NULL);
	if (!w || !sd_jwriter_write(w, sd_plan_root(plan), sd_decoder_tape(d), root, &b))
		snprintf(res, sizeof(res), "ERROR write");
	else
		snprintf(res, sizeof(res), "%s", b.s);
	sd_buf_free(&b);
	sd_jwriter_free(w);
	sd_decoder_destroy(d);
	sd_plan_free(plan);
	return res;
}

/* ---- tests ------------------------------------------------------------------------------- */

static void
test_escape(void)
{
	char		out[64];
	size_t		used;

	CHECK_STR(esc("plain", 5), "plain");
	CHECK_STR(esc("a\"b\\c", 5), "a\\\"b\\\\c");
	CHECK_STR(esc("\n\t\r\b\f", 5), "\\u000a\\u0009\\u000d\\u0008\\u000c");
	CHECK_STR(esc("\x01\x1f\x20", 3), "\\u0001\\u001f ");
	CHECK_STR(esc("a\0b", 3), "a\\u0000b");
	CHECK_STR(esc("\x7f", 1), "\x7f");                          /* DEL is not a control to JSON */
	CHECK_STR(esc("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	CHECK_STR(esc("\xe2\x80\xa8\xe2\x80\xa9", 6), "\xe2\x80\xa8\xe2\x80\xa9");  /* U+2028/9 kept */
	CHECK_STR(esc("/", 1), "/");
	/* whole characters only within cap */
	CHECK(sd_json_escape(out, 3, "ab\xc3\xa9", 4, &used) == 2 && used == 2);
	CHECK(sd_json_escape(out, 4, "ab\xc3\xa9", 4, &used) == 4 && used == 4);
	CHECK(sd_json_escape(out, 6, "a\n", 2, &used) == 1 && used == 1);
	CHECK(sd_json_escape(out, 7, "a\n", 2, &used) == 7 && used == 2);
	CHECK(sd_json_escape(out, 2, "\"", 1, &used) == 2 && used == 1 && memcmp(out, "\\\"", 2) == 0);
	CHECK(sd_json_escape(out, 1, "\"", 1, &used) == 0 && used == 0);
	/* a sequence cut short by the end of the input: copied byte by byte, nothing lost */
	CHECK(sd_json_escape(out, sizeof(out), "x\xe2\x82", 3, &used) == 3 && used == 3);
	/* not UTF-8: a quote or control byte after a lead byte is still escaped */
	CHECK_STR(esc("\xc3\"\xe2\n", 4), "\xc3\\\"\xe2\\u000a");
	/* the quoted form */
	{
		sd_buf		b;

		sd_buf_init(&b, NULL);
		CHECK(sd_buf_string(&b, "k\"\x02", 3));
		CHECK_STR(b.s, "\"k\\\"\\u0002\"");
		sd_buf_reset(&b);
		CHECK(sd_buf_string(&b, "", 0));
		CHECK_STR(b.s, "\"\"");
		/* long strings go in pieces */
		{
			char	   *big = malloc(10001);

			memset(big, '\n', 10000);
			big[10000] = '\0';
			sd_buf_reset(&b);
			CHECK(sd_buf_string(&b, big, 10000));
			CHECK(b.len == 60002 && memcmp(b.s + 59995, "\\u000a\"", 7) == 0);
			free(big);
		}
		sd_buf_free(&b);
	}
	/* the fast paths (a run of plain ASCII copied at once, eight bytes at a time) agree with a
	 * byte-by-byte reference on every position of every special byte, at every cap */
	{
		static const unsigned char special[] = {'"', '\\', 0x00, 0x01, 0x1f, 0x7f, 0x80, 0xc3, 0xa9, 0xff, 0x20, 0x5b, 0x5d};
		char		in[40],
					got[256],
					want[256];

		for (size_t n = 0; n <= sizeof(in); n++)
			for (size_t pos = 0; pos < n; pos++)
				for (size_t k = 0; k < sizeof(special); k++)
				{
					size_t		wl = 0,
								gl,
								gu,
								cap = (n * 7 + pos + k) % 60;

					memset(in, 'a' + (int) (pos % 26), sizeof(in));
					in[pos] = (char) special[k];
					if (pos + 9 < n)
						in[pos + 9] = '"';      /* a second one, eight bytes later */
					/* reference: the same rules, one byte at a time, unbounded */
					for (size_t i = 0; i < n; i++)
					{
						unsigned char c = (unsigned char) in[i];

						if (c == '"' || c == '\\')
							want[wl++] = '\\', want[wl++] = (char) c;
						else if (c < 0x20)
							wl += (size_t) sprintf(want + wl, "\\u%04x", c);
						else
							want[wl++] = (char) c;
					}
					gl = sd_json_escape(got, sizeof(got), in, n, &gu);
					if (special[k] != 0xc3)     /* 0xc3 'x' is not UTF-8: byte by byte, as here */
					{
						CHECK(gl == wl && gu == n && memcmp(got, want, wl) == 0);
					}
					/* a cap: a prefix of the whole output, whole characters */
					gl = sd_json_escape(got, cap, in, n, &gu);
					CHECK(gl <= cap && gu <= n);
					{
						char		whole[256];
						size_t		full = sd_json_escape(whole, sizeof(whole), in, gu, NULL);

						CHECK(full == gl && memcmp(whole, got, gl) == 0);
					}
				}
	}
	/* paths use it: a member name that is not an identifier */
	{
		char		path[SD_PATH_MAX] = "$";

		sd_path_member(path, "a\"b\n\xc3\xa9", 6);
		CHECK_STR(path, "$.\"a\\\"b\\u000a\xc3\xa9\"");
	}
}

static void
test_formatters(void)
{
	char		b[SD_FMT_TIMESTAMP_MAX];
	char		problem[SD_PROBLEM_MAX];
	const int64_t S = 1000000;

	sd_format_timestamp(b, 0, true);
	CHECK_STR(b, "1970-01-01T00:00:00Z");
	sd_format_timestamp(b, 1704164645 * S, true);
	CHECK_STR(b, "2024-01-02T03:04:05Z");
	sd_format_timestamp(b, 1704164645 * S + 123456, true);
	CHECK_STR(b, "2024-01-02T03:04:05.123456Z");
	sd_format_timestamp(b, 1704164645 * S + 500000, true);
	CHECK_STR(b, "2024-01-02T03:04:05.500000Z");
	sd_format_timestamp(b, -1, true);
	CHECK_STR(b, "1969-12-31T23:59:59.999999Z");
	sd_format_timestamp(b, 1704164645 * S, false);
	CHECK_STR(b, "2024-01-02T03:04:05");
	sd_format_timestamp(b, sd_days_from_civil(1, 1, 1) * 86400 * S, true);
	CHECK_STR(b, "0001-01-01T00:00:00Z");
	sd_format_timestamp(b, (sd_days_from_civil(10000, 1, 1) * 86400 - 1) * S + 999999, true);
	CHECK_STR(b, "9999-12-31T23:59:59.999999Z");
	/* an offset can move an instant just outside 0001..9999 */
	sd_format_timestamp(b, sd_days_from_civil(10000, 1, 1) * 86400 * S + 3600 * S, true);
	CHECK_STR(b, "+10000-01-01T01:00:00Z");
	sd_format_timestamp(b, sd_days_from_civil(0, 12, 31) * 86400 * S, true);
	CHECK_STR(b, "0000-12-31T00:00:00Z");
	sd_format_timestamp(b, sd_days_from_civil(-1, 12, 31) * 86400 * S, true);
	CHECK_STR(b, "-0001-12-31T00:00:00Z");

	sd_format_date(b, 0);
	CHECK_STR(b, "1970-01-01");
	sd_format_date(b, sd_days_from_civil(2024, 2, 29));
	CHECK_STR(b, "2024-02-29");
	sd_format_date(b, sd_days_from_civil(2000, 3, 1));
	CHECK_STR(b, "2000-03-01");
	sd_format_date(b, sd_days_from_civil(1900, 2, 28) + 1);
	CHECK_STR(b, "1900-03-01");          /* 1900 is not a leap year */
	/* every 7th day from 0001-01-01 to 9999-12-31 reads back to itself */
	{
		int			bad = 0;

		for (int64_t d = sd_days_from_civil(1, 1, 1); d <= sd_days_from_civil(9999, 12, 31); d += 7)
		{
			int32_t		back;
			size_t		n = sd_format_date(b, d);

			if (sd_parse_date(b, n, &back, problem) != SD_OK || back != d)
				bad++;
		}
		CHECK(bad == 0);
	}
	/* timestamps over the range: format, parse, compare (microseconds included) */
	{
		int			bad = 0;
		int64_t		lo = sd_days_from_civil(1, 1, 1) * 86400 * S;
		int64_t		hi = sd_days_from_civil(9999, 12, 31) * 86400 * S;
		uint64_t	x = 88172645463325252ull;

		for (int i = 0; i < 20000; i++)
		{
			int64_t		us,
						back;
			bool		had;
			size_t		n;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			us = lo + (int64_t) (x % (uint64_t) (hi - lo));
			if (i % 3 == 0)
				us -= us % S;
			n = sd_format_timestamp(b, us, true);
			if (sd_parse_timestamp(b, n, true, &back, &had, problem) != SD_OK || back != us ||
				(us % S == 0) != (strchr(b, '.') == NULL))
				bad++;
		}
		CHECK(bad == 0);
	}

	sd_format_time(b, 0);
	CHECK_STR(b, "00:00:00");
	sd_format_time(b, 1500000);
	CHECK_STR(b, "00:00:01.500000");
	sd_format_time(b, (int64_t) 86400 * S);
	CHECK_STR(b, "24:00:00");
	sd_format_time(b, (23 * 3600 + 59 * 60 + 59) * S + 1);
	CHECK_STR(b, "23:59:59.000001");

	{
		static const uint8_t u[16] = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56,
		0x42, 0x66, 0x14, 0x17, 0x40, 0x00};

		CHECK(sd_format_uuid(b, u) == 36);
		CHECK_STR(b, "123e4567-e89b-12d3-a456-426614174000");
	}
	/* RFC 4648 §10 */
	{
		static const char *const want[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};

		for (int n = 0; n <= 6; n++)
		{
			CHECK(sd_base64_len((size_t) n) == strlen(want[n]));
			CHECK(sd_format_base64(b, (const uint8_t *) "foobar", (size_t) n) == strlen(want[n]));
			CHECK_STR(b, want[n]);
		}
		/* every byte value reads back */
		{
			uint8_t		all[256],
						back[256];
			char		enc[400];
			size_t		n,
						blen;

			for (int i = 0; i < 256; i++)
				all[i] = (uint8_t) (255 - i);
			n = sd_format_base64(enc, all, 256);
			CHECK(sd_decode_binary(SD_FMT_BASE64, enc, n, back, &blen, problem) == SD_OK &&
				  blen == 256 && memcmp(all, back, 256) == 0);
		}
	}
}

static const char *
flt(double v, bool f4)
{
	static char b[32];

	sd_format_float(b, v, f4);
	return b;
}

static void
test_floats(void)
{
	char		problem[SD_PROBLEM_MAX];

	CHECK_STR(flt(0.1, false), "0.1");
	CHECK_STR(flt(1.5, false), "1.5");
	CHECK_STR(flt(100, false), "100");
	CHECK_STR(flt(0, false), "0");
	CHECK_STR(flt(-0.0, false), "-0");
	CHECK_STR(flt(1e20, false), "1e+20");
	CHECK_STR(flt(1.5e-7, false), "1.5e-07");
	CHECK_STR(flt(0.1 + 0.2, false), "0.30000000000000004");
	CHECK_STR(flt(1.7976931348623157e308, false), "1.7976931348623157e+308");
	CHECK_STR(flt(5e-324, false), "5e-324");
	CHECK_STR(flt(123456789012345678.0, false), "1.2345678901234568e+17");
	CHECK_STR(flt(123456789012345.0, false), "123456789012345");
	CHECK_STR(flt(1e15, false), "1e+15");
	CHECK_STR(flt(1234.5678, false), "1234.5678");
	CHECK_STR(flt(0.0001, false), "0.0001");
	CHECK_STR(flt(0.00001, false), "1e-05");
	CHECK_STR(flt(-2.5e-5, false), "-2.5e-05");
	CHECK_STR(flt((double) 123456.0f, true), "123456");
	CHECK_STR(flt((double) 1234567.0f, true), "1.234567e+06");
	CHECK_STR(flt((double) 0.1f, true), "0.1");
	CHECK_STR(flt((double) 3.4028235e38f, true), "3.4028235e+38");
	CHECK_STR(flt(NAN, false), "null");
	CHECK_STR(flt(INFINITY, false), "null");
	/* shortest and exact: random doubles read back bit for bit, and are valid JSON numbers */
	{
		uint64_t	x = 0x9E3779B97F4A7C15ull;
		int			bad = 0;

		for (int i = 0; i < 20000; i++)
		{
			double		v,
						back;
			uint64_t	bits;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			bits = x;
			memcpy(&v, &bits, 8);
			if (!isfinite(v))
				continue;
			const char *s = flt(v, false);

			if (!sd_is_json_number(s, strlen(s)) ||
				sd_parse_float(s, strlen(s), false, &back, problem) != SD_OK ||
				memcmp(&back, &v, 8) != 0)
				bad++;
		}
		CHECK(bad == 0);
	}
	/* the process locale does not leak into JSON (a comma decimal point) */
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8"))
	{
		CHECK_STR(flt(2.5, false), "2.5");
		setlocale(LC_NUMERIC, "C");
	}
}

static void
test_writer_scalars(void)
{
	const sd_type *t = ut_composite("jw_all",
									"t:text,i2:int2,i4:int4,i8:int8,f4:float4,f8:float8,n:numeric,b:bool,"
									"tz:timestamptz,ts:timestamp,d:date,tm:time,u:uuid,by:bytea,j:json,"
									"jb:jsonb,c:color,a:int4[],o:inet");

	CHECK_STR(canon(t, "{}",
					"{\"t\": \"x\\n\\\"y\\\" \\u00e9\", \"i2\": -5, \"i4\": 2147483647, \"i8\": -9223372036854775808,"
					" \"f4\": 0.1, \"f8\": 1e300, \"n\": -12.3400e2, \"b\": false,"
					" \"tz\": \"2024-01-02T04:04:05.5+01:00\", \"ts\": \"2024-01-02 03:04:05\","
					" \"d\": \"2024-02-29\", \"tm\": \"23:59:59.25\","
					" \"u\": \"123E4567-E89B-12D3-A456-426614174000\", \"by\": \"3q2+7w==\","
					" \"j\": \n [1, {\"a\" : 2}] \n, \"jb\": {\"z\":1,\"a\":[true]}, \"c\": \"green\","
					" \"a\": [1, -2, 3], \"o\": \"10.0.0.1\"}"),
			  "{\"t\":\"x\\u000a\\\"y\\\" \xc3\xa9\",\"i2\":-5,\"i4\":2147483647,\"i8\":-9223372036854775808,"
			  "\"f4\":0.1,\"f8\":1e+300,\"n\":-1234.00,\"b\":false,"
			  "\"tz\":\"2024-01-02T03:04:05.500000Z\",\"ts\":\"2024-01-02T03:04:05\","
			  "\"d\":\"2024-02-29\",\"tm\":\"23:59:59.250000\","
			  "\"u\":\"123e4567-e89b-12d3-a456-426614174000\",\"by\":\"3q2+7w==\","
			  "\"j\":[1,{\"a\":2}],\"jb\":{\"z\":1,\"a\":[true]},\"c\":\"green\","
			  "\"a\":[1,-2,3],\"o\":\"10.0.0.1\"}");
	/* nulls, and missing members under optional */
	CHECK_STR(canon(t, "{\"optional\": true}", "{\"t\": null, \"a\": [null, 1], \"j\": null}"),
			  "{\"t\":null,\"i2\":null,\"i4\":null,\"i8\":null,\"f4\":null,\"f8\":null,\"n\":null,"
			  "\"b\":null,\"tz\":null,\"ts\":null,\"d\":null,\"tm\":null,\"u\":null,\"by\":null,"
			  "\"j\":null,\"jb\":null,\"c\":null,\"a\":[null,1],\"o\":null}");
	/* empty bytea, empty array, a number coerced into text, a string coerced into a number */
	{
		const sd_type *t2 = ut_composite("jw_small", "by:bytea,a:int4[],t:text,n:numeric,f:float8");

		CHECK_STR(canon(t2, "{\"coerce\": true}",
						"{\"by\": \"\", \"a\": [], \"t\": 12.50, \"n\": \"7.25\", \"f\": \"2\"}"),
				  "{\"by\":\"\",\"a\":[],\"t\":\"12.50\",\"n\":7.25,\"f\":2}");
	}
	/* a non-composite root */
	CHECK_STR(canon(&ut_int4_array, "{}", "[3, 2, 1]"), "[3,2,1]");
	CHECK_STR(canon(&ut_json, "{}", "  {\"k\": [ ]}  "), "{\"k\":[]}");
	CHECK_STR(canon(&ut_json, "{}", "{ \"a b\\\" \\\\\" : \" x \\u0020 \", \"n\" : 1.50E+3 , \"n\":[ -0 ]}"),
			  "{\"a b\\\" \\\\\":\" x \\u0020 \",\"n\":1.50E+3,\"n\":[-0]}");
	CHECK_STR(canon(&ut_text, "{}", "\"\\u2028\""), "\"\xe2\x80\xa8\"");
}

/* put_string's fast path (plain ASCII eight bytes at a time, then byte by byte) and its handing
 * over to sd_json_escape at the first byte that needs a look, at every position of strings of
 * 0 to 40 bytes, and a string too long for one reservation: the same bytes as sd_json_escape */
static void
test_writer_strings(void)
{
	static const char *const specials[] = {"\"", "\\", "\n", "\x01", "\x7f", "\xc3\xa9", "\xe2\x82\xac",
		"\xf0\x9f\x98\x80"};
	static char raw[6000],
				doc[40000],
				want[40000];
	int			bad = 0;

	for (size_t k = 0; k < sizeof(specials) / sizeof(specials[0]); k++)
		for (size_t len = 0; len <= 40; len++)
			for (size_t at = 0; at <= len; at++)
			{
				size_t		n = 0,
							d = 0;
				const char *got;

				for (size_t i = 0; i < len; i++)
				{
					if (i == at)
						for (const char *p = specials[k]; *p; p++)
							raw[n++] = *p;
					else
						raw[n++] = (char) ('a' + i % 26);
				}
				if (at == len)
					for (const char *p = specials[k]; *p; p++)
						raw[n++] = *p;
				/* the document: raw as a JSON string (quote, backslash, controls escaped) */
				doc[d++] = '"';
				for (size_t i = 0; i < n; i++)
				{
					unsigned char c = (unsigned char) raw[i];

					if (c == '"' || c == '\\')
						d += (size_t) sprintf(doc + d, "\\%c", c);
					else if (c < 0x20)
						d += (size_t) sprintf(doc + d, "\\u%04x", c);
					else
						doc[d++] = (char) c;
				}
				doc[d++] = '"';
				doc[d] = '\0';
				snprintf(want, sizeof(want), "\"%s\"", esc(raw, n));
				got = canon(&ut_text, "{}", doc);
				if (strcmp(got, want) != 0 && bad++ < 3)
					printf("  string %zu/%zu/%zu: got %s, want %s\n", k, len, at, got, want);
			}
	CHECK(bad == 0);
	/* longer than one reservation (4 KB): sd_buf_string, the same bytes */
	{
		size_t		n = 5000,
					d = 0,
					w = 0;

		doc[d++] = '"';
		want[w++] = '"';
		for (size_t i = 0; i < n; i++)
		{
			if (i % 997 == 5)
			{
				d += (size_t) sprintf(doc + d, "\\\"");
				w += (size_t) sprintf(want + w, "\\\"");
			}
			else
				doc[d++] = want[w++] = (char) ('a' + i % 26);
		}
		doc[d++] = want[w++] = '"';
		doc[d] = want[w] = '\0';
		CHECK_STR(canon(&ut_text, "{}", doc), want);
	}
}

static void
test_writer_structure(void)
{
	(void) ut_composite("jw_inner", "x:int4,y:text");
	const sd_type *outer = ut_composite("jw_outer", "id:int8,in:jw_inner,skipme:text,rest:json");

	/* nested composite as an object; skipped column null; extra as its object */
	CHECK_STR(canon(outer, "{\"extra\": \"rest\", \"fields\": {\"skipme\": {\"skip\": true}}}",
					"{\"id\": 1, \"in\": {\"y\": \"b\", \"x\": 2}, \"z\": [1, 2], \"q\\n\": null}"),
			  "{\"id\":1,\"in\":{\"x\":2,\"y\":\"b\"},\"skipme\":null,\"rest\":{\"z\":[1,2],\"q\\u000a\":null}}");
	CHECK_STR(canon(outer, "{\"extra\": \"rest\", \"fields\": {\"skipme\": {\"skip\": true}}}",
					"{\"id\": 1, \"in\": {\"y\": \"b\", \"x\": 2}}"),
			  "{\"id\":1,\"in\":{\"x\":2,\"y\":\"b\"},\"skipme\":null,\"rest\":{}}");
	/* defaults: scalar, object (with its own members' defaults inside), null */
	CHECK_STR(canon(outer,
					"{\"fields\": {\"id\": {\"default\": 42}, \"in\": {\"default\": {\"x\": 7}},"
					" \"skipme\": {\"default\": null}, \"rest\": {\"default\": {\"a\" :  [1]}}},"
					" \"optional\": true}",
					"{}"),
			  "{\"id\":42,\"in\":{\"x\":7,\"y\":null},\"skipme\":null,\"rest\":{\"a\":[1]}}");
	/* a default that decodes through a node: the timestamp is written canonically */
	{
		const sd_type *t = ut_composite("jw_dflt", "at:timestamptz,u:uuid,c:color");

		CHECK_STR(canon(t,
						"{\"fields\": {\"at\": {\"default\": \"2024-01-02T03:04:05+02:00\"},"
						" \"u\": {\"default\": \"AAAAAAAA-0000-0000-0000-00000000000F\"},"
						" \"c\": {\"default\": \"blue\"}}}", "{}"),
				  "{\"at\":\"2024-01-02T01:04:05Z\",\"u\":\"aaaaaaaa-0000-0000-0000-00000000000f\",\"c\":\"blue\"}");
		CHECK_STR(canon(t,
						"{\"fields\": {\"at\": {\"default\": 0, \"format\": \"unix\"}}, \"optional\": true}",
						"{\"u\": null}"),
				  "{\"at\":\"1970-01-01T00:00:00Z\",\"u\":null,\"c\":null}");
	}
	/* arrays of composites; nested defaults inside array elements */
	{
		const sd_type *t = ut_composite("jw_list", "items:jw_inner[]");

		CHECK_STR(canon(t, "{\"fields\": {\"items\": {\"default\": []}}}", "{\"items\": [{\"x\": 1, \"y\": \"a\"}, {\"x\": 2, \"y\": null}]}"),
				  "{\"items\":[{\"x\":1,\"y\":\"a\"},{\"x\":2,\"y\":null}]}");
		CHECK_STR(canon(t, "{\"fields\": {\"items\": {\"default\": []}}}", "{}"), "{\"items\":[]}");
	}
	/* maps as objects, in document order */
	{
		const sd_type *kv = ut_composite("jw_kv", "key:text,value:int8");
		const sd_type *t = ut_composite("jw_map", "labels:jw_kv[]");

		(void) kv;
		CHECK_STR(canon(t, "{\"fields\": {\"labels\": {\"map\": true}}}",
						"{\"labels\": {\"b\": 2, \"a\\\"\": 1, \"\": null}}"),
				  "{\"labels\":{\"b\":2,\"a\\\"\":1,\"\":null}}");
		CHECK_STR(canon(t, "{\"fields\": {\"labels\": {\"map\": true}}}", "{\"labels\": {}}"),
				  "{\"labels\":{}}");
	}
	/* a union: the selected variant is an object, the others null */
	{
		const sd_type *card = ut_composite("jw_card", "number:text,cvc:int4");
		const sd_type *bank = ut_composite("jw_bank", "iban:text");
		const sd_type *t = ut_composite("jw_pay", "kind:text,amount:int8,card:jw_card,bank:jw_bank");
		const char *opts = "{\"tag\": \"kind\", \"variants\": {\"card\": \"card\", \"bank\": \"bank\"}}";

		(void) card;
		(void) bank;
		CHECK_STR(canon(t, opts, "{\"kind\": \"card\", \"amount\": 5, \"number\": \"4242\", \"cvc\": 123}"),
				  "{\"kind\":\"card\",\"amount\":5,\"card\":{\"number\":\"4242\",\"cvc\":123},\"bank\":null}");
		CHECK_STR(canon(t, opts, "{\"kind\": \"bank\", \"amount\": 6, \"iban\": \"DE00\"}"),
				  "{\"kind\":\"bank\",\"amount\":6,\"card\":null,\"bank\":{\"iban\":\"DE00\"}}");
	}
	/* column names that need escaping */
	{
		const sd_type *t = ut_composite("jw_names", "a\"b:int4,c\\d:int4");

		CHECK_STR(canon(t, "{}", "{\"a\\\"b\": 1, \"c\\\\d\": 2}"), "{\"a\\\"b\":1,\"c\\\\d\":2}");
	}
}

static void
test_writer_oom(void)
{
	const sd_type *t = ut_composite("jw_oom", "a:text,b:int4[],c:jw_inner");
	const char *opts = "{\"fields\": {\"c\": {\"default\": {\"x\": 1, \"y\": \"zz\"}}}}";
	const char *doc = "{\"a\": \"hello\", \"b\": [1, 2, 3]}";
	sd_error	err;
	sd_plan    *plan = sd_compile("T", opts, strlen(opts), t, NULL, NULL, &err);
	sd_decoder *d = sd_decoder_create(NULL);
	uint32_t	root;
	bool		ok_create = false,
				failed_create = false,
				ok_write = false,
				failed_write = false;

	CHECK(plan && sd_decode_json(d, plan, NULL, doc, strlen(doc), NULL, &root, &err));
	for (long n = 0; n < 40 && plan; n++)
	{
		sd_jwriter *w;

		allow_allocs = n;
		w = sd_jwriter_create(plan, &lim_hooks, &err);
		allow_allocs = -1;
		if (!w)
		{
			failed_create = true;
			CHECK(err.code == SD_E_NOMEM);
			continue;
		}
		ok_create = true;
		for (long m = 0; m < 4; m++)
		{
			sd_buf		b;
			bool		ok;

			sd_buf_init(&b, &lim_hooks);
			allow_allocs = m;
			ok = sd_jwriter_write(w, sd_plan_root(plan), sd_decoder_tape(d), root, &b);
			allow_allocs = -1;
			if (ok)
			{
				ok_write = true;
				CHECK_STR(b.s, "{\"a\":\"hello\",\"b\":[1,2,3],\"c\":{\"x\":1,\"y\":\"zz\"}}");
			}
			else
				failed_write = true;
			sd_buf_free(&b);
		}
		sd_jwriter_free(w);
	}
	CHECK(ok_create && failed_create && ok_write && failed_write);
	sd_decoder_destroy(d);
	sd_plan_free(plan);
}

void unit_jwrite(void);
void
unit_jwrite(void)
{
	test_escape();
	test_formatters();
	test_floats();
	test_writer_scalars();
	test_writer_strings();
	test_writer_structure();
	test_writer_oom();
}
