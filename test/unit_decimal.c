/*
 * unit_decimal.c — exact numerics parsed once (issue 12 item 8): sd_plain_decimal (the one-pass
 * parse and typmod check of the common literal) agrees with sd_check_numeric, SD_V_DECIMAL's
 * digits and scale give back the literal exactly (sd_format_decimal), and the walker puts
 * SD_V_DECIMAL in the tape for plain literals and SD_V_NUMERIC (the literal) for the rest.
 */
#include "unit.h"
#include "unit_support.h"
#include "scalar.h"

#include <stdlib.h>

static bool
plain(const char *s, int p, int sc, long long want_digits, unsigned want_frac)
{
	int64_t		d = 0;
	uint32_t	f = 0;

	return sd_plain_decimal(s, strlen(s), p, sc, &d, &f) && d == want_digits && f == want_frac;
}

static bool
not_plain(const char *s, int p, int sc)
{
	int64_t		d;
	uint32_t	f;

	return !sd_plain_decimal(s, strlen(s), p, sc, &d, &f);
}

static const char *
fmt(long long digits, unsigned len)
{
	static char out[SD_FMT_TIMESTAMP_MAX];

	sd_format_decimal(out, (int64_t) digits, len);
	return out;
}

static void
test_plain(void)
{
	CHECK(plain("123.45", -1, -1, 12345, 2));
	CHECK(plain("0", -1, -1, 0, 0));
	CHECK(plain("-0", -1, -1, 0, 0));
	CHECK(plain("-0.00", -1, -1, 0, 2));
	CHECK(plain("0.001", -1, -1, 1, 3));
	CHECK(plain("-7", -1, -1, -7, 0));
	CHECK(plain("100.10", -1, -1, 10010, 2));
	CHECK(plain("123456789012345678", -1, -1, 123456789012345678LL, 0));
	CHECK(plain("-0.123456789012345678", -1, -1, -123456789012345678LL, 18));
	CHECK(plain("0.000000000000000001", -1, -1, 1, 18));
	CHECK(not_plain("1234567890123456789", -1, -1));    /* 19 digits */
	CHECK(not_plain("0.0000000000000000001", -1, -1));  /* 19 fraction digits */
	CHECK(not_plain("0.0000000000000000000", -1, -1));
	CHECK(not_plain("1e2", -1, -1));
	CHECK(not_plain("1.5E3", -1, -1));
	CHECK(not_plain("-", -1, -1));
	CHECK(not_plain("1.", -1, -1));
	CHECK(not_plain("01", -1, -1));
	CHECK(not_plain("", -1, -1));
	/* with a typmod: what fits, exactly as sd_check_numeric decides */
	CHECK(plain("123.45", 5, 2, 12345, 2));
	CHECK(not_plain("1234.5", 5, 2));
	CHECK(plain("1.50", 5, 1, 150, 2));
	CHECK(not_plain("1.55", 5, 1));
	CHECK(plain("99999", 5, 0, 99999, 0));
	CHECK(not_plain("100000", 5, 0));
	CHECK(plain("0.0001", 2, 5, 1, 4));
	CHECK(not_plain("0.001", 2, 5));
	CHECK(plain("12300", 3, -2, 12300, 0));
	CHECK(not_plain("12345", 3, -2));
	CHECK(plain("0.000", 1, 0, 0, 3));     /* zero fits everything */
}

static void
test_format(void)
{
	CHECK_STR(fmt(12345, 2), "123.45");
	CHECK_STR(fmt(0, 0), "0");
	CHECK_STR(fmt(0, SD_DECIMAL_NEG), "0");          /* numeric has no negative zero */
	CHECK_STR(fmt(0, 2 | SD_DECIMAL_NEG), "0.00");
	CHECK_STR(fmt(1, 3), "0.001");
	CHECK_STR(fmt(-5, 1), "-0.5");
	CHECK_STR(fmt(-123456789012345678LL, 18), "-0.123456789012345678");
	CHECK_STR(fmt(999999999999999999LL, 0), "999999999999999999");
}

/* sd_numeric_canonical: numeric's output for any literal (numeric_in then numeric_out) */
static const char *
canon(const char *lit)
{
	static char out[2048];
	sd_buf		b;

	sd_buf_init(&b, NULL);
	if (!sd_numeric_canonical(&b, lit, strlen(lit)) || b.len >= sizeof(out))
		strcpy(out, "(fail)");
	else
	{
		memcpy(out, b.s, b.len);
		out[b.len] = '\0';
	}
	sd_buf_free(&b);
	return out;
}

static void
test_canonical(void)
{
	CHECK_STR(canon("1.50e1"), "15.0");
	CHECK_STR(canon("1e-20"), "0.00000000000000000001");
	CHECK_STR(canon("15e-1"), "1.5");
	CHECK_STR(canon("1.5E+3"), "1500");
	CHECK_STR(canon("-0"), "0");
	CHECK_STR(canon("-0.0e5"), "0");
	CHECK_STR(canon("-0.000"), "0.000");
	CHECK_STR(canon("0.10"), "0.10");
	CHECK_STR(canon("-12.345e-2"), "-0.12345");
	CHECK_STR(canon("123456789012345678901"), "123456789012345678901");
	CHECK_STR(canon("1234567890123456789.01e1"), "12345678901234567890.1");
	CHECK_STR(canon("0e-3"), "0.000");
	CHECK(strlen(canon("1e400")) == 401 && canon("1e400")[0] == '1');
}

/* random plain literals and typmods: sd_plain_decimal agrees with sd_check_numeric and its
 * digits give the literal back */
static void
test_agreement(void)
{
	unsigned	seed = 12345;
	int			bad_agree = 0,
				bad_round = 0,
				taken = 0;

	for (int n = 0; n < 40000; n++)
	{
		char		lit[64];
		size_t		o = 0;
		int			nint,
					nfrac,
					p,
					sc;
		int64_t		d;
		uint32_t	f;
		char		problem[SD_PROBLEM_MAX];
		bool		fast,
					ok;

		seed = seed * 1103515245u + 12345u;
		if (seed >> 31)
			lit[o++] = '-';
		seed = seed * 1103515245u + 12345u;
		nint = (int) ((seed >> 16) % 21);
		seed = seed * 1103515245u + 12345u;
		nfrac = (int) ((seed >> 16) % 22) - 1;	/* -1: no fraction */
		if (nint == 0)
			lit[o++] = '0';
		for (int i = 0; i < nint; i++)
		{
			seed = seed * 1103515245u + 12345u;
			lit[o++] = (char) ('0' + (i == 0 ? 1 + (seed >> 16) % 9 : (seed >> 16) % (seed & 4 ? 10 : 2)));
		}
		if (nfrac >= 1)
		{
			lit[o++] = '.';
			for (int i = 0; i < nfrac; i++)
			{
				seed = seed * 1103515245u + 12345u;
				lit[o++] = (char) ('0' + (seed >> 16) % ((seed & 8) ? 10 : 1));
			}
		}
		lit[o] = '\0';
		seed = seed * 1103515245u + 12345u;
		p = (seed >> 16) % 4 == 0 ? -1 : 1 + (int) ((seed >> 8) % 25);
		sc = p < 0 ? -1 : (int) ((seed >> 20) % 30) - 3;
		fast = sd_plain_decimal(lit, o, p, sc, &d, &f);
		ok = sd_check_numeric(lit, o, p, sc, problem) == SD_OK;
		if (fast)
		{
			char		back[SD_FMT_TIMESTAMP_MAX];

			taken++;
			sd_format_decimal(back, d, f | (lit[0] == '-' ? SD_DECIMAL_NEG : 0));
			/* a negative zero comes back without its sign, as numeric writes it */
			if (strcmp(back, lit + (lit[0] == '-' && d == 0 ? 1 : 0)) != 0)
			{
				if (bad_round++ < 5)
					fprintf(stderr, "decimal %s came back as %s\n", lit, back);
			}
		}
		/* plain and short enough: the fast answer is the exact one */
		{
			size_t		sig = 0;
			bool		seen = false;

			for (size_t i = 0; i < o; i++)
				if (lit[i] >= '1' && lit[i] <= '9')
					seen = true, sig++;
				else if (lit[i] == '0' && seen)
					sig++;
			if ((fast && !ok) || (!fast && ok && sig <= 18 && (nfrac < 0 ? 0 : nfrac) <= 18))
			{
				if (bad_agree++ < 5)
					fprintf(stderr, "decimal %s numeric(%d,%d): plain %d, check %d\n", lit, p, sc,
							fast, ok);
			}
		}
	}
	CHECK(bad_agree == 0);
	CHECK(bad_round == 0);
	CHECK(taken > 5000);
}

static void
test_tape(void)
{
	const sd_type *t = ut_composite("dec", "a:numeric,b:numeric(5,2),c:numeric[]");

	CHECK_STR(ut_decode(t, "{}", "{\"a\":12.50,\"b\":-0.5,\"c\":[1e2,-0,0.000,123456789012345678901]}"),
			  "{a:N12.50,b:N-0.5,c:[N100,N0,N0.000,N123456789012345678901]}");
	CHECK_STR(ut_decode(t, "{\"coerce\":true}", "{\"a\":\"-3.25\",\"b\":null,\"c\":null}"),
			  "{a:N-3.25,b:null,c:null}");
	CHECK_STR(ut_decode(t, "{}", "{\"a\":1,\"b\":1000,\"c\":[]}"),
			  "ERROR 22003 $.b: numeric field overflow: value 1000 needs 4 integer digits, numeric(5,2) allows 3 @11");
	{
		const char *doc = "{\"a\":12.50,\"b\":1,\"c\":[1e2,-0]}";
		sd_error	err;
		sd_plan    *plan = sd_compile("T", "{}", 2, t, NULL, NULL, &err);
		sd_decoder *d = sd_decoder_create(NULL);
		uint32_t	root = 0;

		CHECK(plan && d && sd_decode_json(d, plan, NULL, doc, strlen(doc), NULL, &root, &err));
		if (plan && d)
		{
			const sd_val *tp = sd_decoder_tape(d);
			const sd_val *row = &tp[tp[root].u.first];
			const sd_val *arr = &tp[row[2].u.first];

			CHECK(row[0].tag == SD_V_DECIMAL && row[0].u.i == 1250 && row[0].len == 2);
			CHECK(row[1].tag == SD_V_DECIMAL && row[1].u.i == 1 && row[1].len == 0);
			CHECK(arr[0].tag == SD_V_DECIMAL && arr[0].u.i == 100 && arr[0].len == 0);	/* 1e2 */
			CHECK(arr[1].tag == SD_V_DECIMAL && arr[1].u.i == 0 && arr[1].len == SD_DECIMAL_NEG);
		}
		sd_decoder_destroy(d);
		sd_plan_free(plan);
	}
}

static bool
expd(const char *s, long long want_digits, unsigned want_frac)
{
	int64_t		d = 0;
	uint32_t	f = 0;

	return sd_exp_decimal(s, strlen(s), &d, &f) && d == want_digits && f == want_frac;
}

static bool
not_expd(const char *s)
{
	int64_t		d;
	uint32_t	f;

	return !sd_exp_decimal(s, strlen(s), &d, &f);
}

/* exponent forms parsed once: the value and numeric_in's display scale (fraction digits
 * written minus the exponent, at least 0) */
static void
test_exp(void)
{
	CHECK(expd("1e2", 100, 0));
	CHECK(expd("1.5e3", 1500, 0));
	CHECK(expd("1.50e1", 150, 1));	/* 15.0 */
	CHECK(expd("15e-1", 15, 1));	/* 1.5 */
	CHECK(expd("15E-4", 15, 4));	/* 0.0015 */
	CHECK(expd("-2.5E+2", -250, 0));
	CHECK(expd("0.0015e3", 15, 1));
	CHECK(expd("0e5", 0, 0));
	CHECK(expd("0.00e1", 0, 1));
	CHECK(expd("-0e0", 0, 0));
	CHECK(expd("1e-18", 1, 18));
	CHECK(expd("1e17", 100000000000000000LL, 0));
	CHECK(expd("12.5", 125, 1));	/* plain forms too */
	CHECK(not_expd("1e18"));		/* 19 digits */
	CHECK(not_expd("1e-19"));		/* scale 19 */
	CHECK(not_expd("1e999"));
	CHECK(not_expd("1234567890123456789e-5"));	/* 19 significant digits */
	CHECK(not_expd("1e"));
	CHECK(strcmp(fmt(-250, 0), "-250") == 0);

	/* random plain decimals written with an exponent: same digits and scale as the plain form */
	uint32_t	seed = 7;
	int			bad = 0;

	for (int n = 0; n < 20000; n++)
	{
		char		lit[64],
					alt[80];
		int			nd,
					pt,
					o = 0;
		int64_t		d1,
					d2;
		uint32_t	f1,
					f2;

		seed = seed * 1103515245u + 12345u;
		nd = 1 + (int) ((seed >> 16) % 18);
		seed = seed * 1103515245u + 12345u;
		pt = (int) ((seed >> 16) % (unsigned) (nd + 1));	/* digits before the point */
		if (seed & 1)
			lit[o++] = '-';
		int			start = o;

		for (int i = 0; i < nd; i++)
		{
			seed = seed * 1103515245u + 12345u;
			lit[o++] = (char) ('0' + (i == 0 && nd > 1 ? 1 + (seed >> 16) % 9 : (seed >> 16) % 10));
		}
		lit[o] = '\0';
		/* lit is an integer of nd digits; "digits e -k" has value digits * 10^-k, scale k */
		int			k = nd - pt;

		snprintf(alt, sizeof(alt), "%se-%d", lit, k);
		if (!sd_exp_decimal(alt, strlen(alt), &d2, &f2))
		{
			if (bad++ < 5)
				fprintf(stderr, "exp decimal %s refused\n", alt);
			continue;
		}
		/* the same number written plainly: point after pt digits */
		char		plainlit[80];
		int			q = 0;

		for (int i = 0; i < start; i++)
			plainlit[q++] = lit[i];
		for (int i = 0; i < nd; i++)
		{
			if (i == pt)
			{
				if (i == 0)
					plainlit[q++] = '0';
				plainlit[q++] = '.';
			}
			plainlit[q++] = lit[start + i];
		}
		plainlit[q] = '\0';
		if (!sd_plain_decimal(plainlit, (size_t) q, -1, -1, &d1, &f1) || d1 != d2 || f1 != f2)
		{
			if (bad++ < 5)
				fprintf(stderr, "exp decimal %s: %lld/%u, plain %s: %lld/%u\n", alt, (long long) d2,
						f2, plainlit, (long long) d1, f1);
		}
	}
	CHECK(bad == 0);
}

void
unit_decimal(void)
{
	test_exp();
	test_plain();
	test_format();
	test_canonical();
	test_agreement();
	test_tape();
}
