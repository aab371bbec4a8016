/*
 * unit_batch.c - tests of the batch reader (each.c): an array's elements found in place
 * (strings with escaped quotes and brackets, nesting, white space, separators), NDJSON lines
 * (blank, CR LF), the three ways through a batch (sd_each_next: first error ends it;
 * sd_each_triage: bad items reported, the batch goes on; sd_each_check: every error of every
 * item), malformed JSON ending an array but not NDJSON, item numbers, offsets of the whole
 * input, sd_each_recheck, and a batch ended early.  Every run renders as one line.  Every
 * triage runs twice, element by element and with the array parsed whole (sd_each_set_whole),
 * and the two must agree in every row and every error's text.
 */
#include <stdio.h>
#include <string.h>

#include "serde_core.h"
#include "internal.h"
#include "unit.h"
#include "unit_support.h"

static sd_plan *
plan_of(const sd_type *t, const char *opts)
{
	sd_error	err;
	sd_plan    *p = sd_compile("T", opts, strlen(opts), t, NULL, NULL, &err);

	if (!p)
		fprintf(stderr, "  compile: %s: %s\n", err.path, err.problem);
	return p;
}

/* triage_run: into brief "i:ok" / "i:BAD <code> <path> @off" / "i:REST ..." / "FATAL ..."
 * joined by ' ', and into full the same with each row as JSON and each error's problem; the
 * array parsed whole when whole (sd_each_set_whole); *took: the whole parse was taken */
static void
triage_run(const sd_plan *p, const char *doc, const sd_limits *lim, bool whole, char *brief,
		   char *full, size_t size, bool *took)
{
	sd_error	err;
	sd_decoder *d = sd_decoder_create(NULL);
	sd_jwriter *w = sd_jwriter_create(p, NULL, &err);
	sd_buf		b;
	uint32_t	root;
	int			r;
	size_t		n = 0,
				m = 0;

	brief[0] = full[0] = '\0';
	sd_buf_init(&b, NULL);
	sd_each_set_whole(d, whole ? 1 << 20 : 0);
	if (took)
		*took = false;
	if (!sd_each_begin(d, p, NULL, doc, strlen(doc), lim, &err))
	{
		snprintf(brief, size, "BEGIN %s", sd_code_sqlstate(err.code));
		snprintf(full, size, "BEGIN %s", sd_code_sqlstate(err.code));
		sd_decoder_destroy(d);
		sd_jwriter_free(w);
		return;
	}
	if (took)
		*took = d->each_cur != NULL;
	while ((r = sd_each_triage(d, &root, &err)) != 0 && n < size - 1 && m < size - 1)
	{
		unsigned long long item = (unsigned long long) sd_each_item(d);

		if (r == 1)
		{
			sd_buf_reset(&b);
			(void) sd_jwriter_write(w, sd_plan_root(p), sd_decoder_tape(d), root, &b);
			n += snprintf(brief + n, size - n, "%s%llu:ok", n ? " " : "", item);
			m += snprintf(full + m, size - m, "%s%llu:ok %.*s", m ? " " : "", item, (int) b.len,
						  b.s ? b.s : "");
		}
		else
		{
			n += snprintf(brief + n, size - n, "%s%llu:%s %s %s @%lld", n ? " " : "", item,
						  r == 2 ? "BAD" : r == 3 ? "REST" : "FATAL", sd_code_sqlstate(err.code),
						  err.path, (long long) err.offset);
			m += snprintf(full + m, size - m, "%s%llu:%d %s %s @%lld %s", m ? " " : "", item, r,
						  sd_code_sqlstate(err.code), err.path, (long long) err.offset,
						  err.problem);
		}
		if (r < 0 || r == 3)
			break;
	}
	sd_buf_free(&b);
	sd_jwriter_free(w);
	sd_decoder_destroy(d);
}

/* triage, element by element (brief); CHECKs that the array parsed whole gives exactly the
 * same answers, rows (as JSON) and error texts included. */
static const char *
triage_lim(const sd_plan *p, const char *doc, const sd_limits *lim)
{
	static char brief[4096];
	char		brief2[4096],
				full[4096],
				full2[4096];

	triage_run(p, doc, lim, false, brief, full, sizeof(full), NULL);
	triage_run(p, doc, lim, true, brief2, full2, sizeof(full2), NULL);
	if (strcmp(full, full2) != 0)
		fprintf(stderr, "  whole parse differs on %s:\n    %s\n    %s\n", doc, full, full2);
	CHECK(strcmp(full, full2) == 0 && strcmp(brief, brief2) == 0);
	return brief;
}

static const char *
triage(const sd_plan *p, const char *doc)
{
	return triage_lim(p, doc, NULL);
}

/* check: "i:<path>" for every error, "i:-" for a valid item */
static const char *
check(const sd_plan *p, const char *doc)
{
	static char out[4096];
	sd_decoder *d = sd_decoder_create(NULL);
	sd_error	err;
	const sd_found *found;
	int			nf,
				total,
				r;
	uint32_t	root;
	size_t		n = 0;

	out[0] = '\0';
	CHECK(sd_each_begin(d, p, NULL, doc, strlen(doc), NULL, &err));
	while ((r = sd_each_check(d, 10, &found, &nf, &total, &root)) != 0)
	{
		unsigned long long item = (unsigned long long) sd_each_item(d);

		if (nf == 0)
			n += snprintf(out + n, sizeof(out) - n, "%s%llu:-", n ? " " : "", item);
		for (int i = 0; i < nf; i++)
			n += snprintf(out + n, sizeof(out) - n, "%s%llu:%s@%lld", n ? " " : "", item,
						  found[i].path, (long long) found[i].offset);
		if (r < 0 || r == 3 || n >= sizeof(out) - 1)
			break;
	}
	sd_decoder_destroy(d);
	return out;
}

void
unit_batch(void)
{
	const sd_type *t = ut_composite("btrow", "a:int4,s:text");
	sd_plan    *p = plan_of(t, "{\"optional\": true}");
	sd_plan    *pj = plan_of(&ut_json, "{}");

	/* elements found in place: strings with ] } , and escaped quotes, nesting, white space */
	CHECK_STR(triage(pj, "[\"a]\\\"},\" , {\"x\": \"]\\\\\"}, [1, [2, \"]\"]], 3 ,true\n,null]"),
			  "0:ok 1:ok 2:ok 3:ok 4:ok 5:ok");
	CHECK_STR(triage(pj, " \r\n[ ]\n "), "");
	CHECK_STR(triage(pj, "[]"), "");
	CHECK_STR(triage(pj, ""), "");
	/* bad items go on; malformed JSON ends an array (the rest is one item) */
	CHECK_STR(triage(p, "[{\"a\": 1}, {\"a\": \"x\"}, {\"a\": 3}]"),
			  "0:ok 1:BAD 22032 $[1].a @17 2:ok");
	CHECK_STR(triage(p, "[{\"a\": 1}, {\"a\": tru}, {\"a\": 3}]"), "0:ok 1:REST 22P02 $ @17");
	CHECK_STR(triage(p, "[{\"a\": 1} {\"a\": 2}]"), "0:ok 1:REST 22P02 $ @10");
	CHECK_STR(triage(p, "[{\"a\": 1},]"), "0:ok 1:REST 22P02 $ @10");
	CHECK_STR(triage(p, "[,{\"a\": 1}]"), "0:REST 22P02 $ @1");
	CHECK_STR(triage(p, "[{\"a\": 1}"), "0:ok 1:REST 22P02 $ @9");
	CHECK_STR(triage(p, "[{\"a\": \"1}]"), "0:REST 22P02 $ @11");
	CHECK_STR(triage(p, "[{\"a\": 1}] x"), "0:ok 1:REST 22P02 $ @11");
	CHECK_STR(triage(p, "[{\"a\": [1}]"), "0:REST 22P02 $ @9");
	/* NDJSON: lines are independent, numbered from 1, blank ones counted, CR LF */
	CHECK_STR(triage(p, "{\"a\": 1}\r\n\n{\"a\": x}\n{\"a\": \"y\"}\r\n{\"a\": 4}"),
			  "1:ok 3:BAD 22P02 line 3: $ @17 4:BAD 22032 line 4: $.a @26 5:ok");
	CHECK_STR(triage(p, "\n\n"), "");
	/* every error of every item, offsets of the whole input */
	CHECK_STR(check(p, "[{\"a\": \"x\", \"s\": 1}, {\"a\": 2}, {\"a\": 3} {]"),
			  "0:$[0].a@7 0:$[0].s@17 1:- 2:- 3:$@40");
	CHECK_STR(check(p, "{\"a\": \"x\", \"s\": 1}\n{\"a\": 2}\n{oops\n{\"s\": []}"),
			  "1:line 1: $.a@6 1:line 1: $.s@16 2:- 3:line 3: $@29 4:line 4: $.s@40");
	/* sd_each_next: the first error ends the batch */
	{
		sd_decoder *d = sd_decoder_create(NULL);
		const char *doc = "[{\"a\": 1}, {\"a\": \"x\"}, {\"a\": 3}]";
		sd_error	err;
		uint32_t	root;
		const sd_found *found;
		int			nf,
					total;

		CHECK(sd_each_begin(d, p, NULL, doc, strlen(doc), NULL, &err));
		CHECK(sd_each_next(d, &root, &err) == 1);
		/* the item just read, read again in serde_errors' mode: the batch stays where it is */
		CHECK(sd_each_recheck(d, 10, &found, &nf, &total, &root) == 1 && nf == 0);
		CHECK(sd_each_next(d, &root, &err) == -1 && err.code == SD_E_KIND &&
			  strcmp(err.path, "$[1].a") == 0);
		CHECK(sd_each_next(d, &root, &err) == 0);
		/* ended early: the decoder forgets the input, and decodes other documents */
		CHECK(sd_each_begin(d, p, NULL, doc, strlen(doc), NULL, &err));
		CHECK(sd_each_next(d, &root, &err) == 1);
		sd_each_reset(d);
		CHECK(sd_each_next(d, &root, &err) == 0);
		CHECK(sd_decode_json(d, p, NULL, "{\"a\": 5}", 8, NULL, &root, &err));
		sd_decoder_destroy(d);
	}
	/* an array parsed whole (sd_each_set_whole) answers as element by element (triage CHECKs
	 * that for every input above and below): taken when simdjson accepts the array, left at
	 * the first element it cannot take, whatever follows */
	{
		char		brief[512],
					full[1024];
		bool		took = false;
		sd_limits	deep = {3, 1 << 20, 0};

		triage_run(p, "[{\"a\": 1, \"s\": \"x\\u00e9\\\"]\"}, {\"a\": 2}]", NULL, true, brief, full,
				   sizeof(brief), &took);
		CHECK(took);
		CHECK_STR(full, "0:ok {\"a\":1,\"s\":\"x\u00e9\\\"]\"} 1:ok {\"a\":2,\"s\":null}");
		/* simdjson rejects the whole (invalid UTF-8 in the last element): element by element */
		triage_run(pj, "[1, [2], \"\xff\"]", NULL, true, brief, full, sizeof(brief), &took);
		CHECK(!took);
		CHECK_STR(triage(pj, "[1, [2], \"\xff\"]"), "0:ok 1:ok 2:REST 22P02 $ @10");
		/* a bad element in the middle, good ones after it (read element by element from there),
		 * strings with brackets and quotes before it (their extents found again) */
		CHECK_STR(triage(p, "[{\"s\": \"[{\\\"\"}, {\"s\": \"]]\"}, {\"a\": \"x\"}, {\"a\": 4}, {\"a\": 5}]"),
				  "0:ok 1:ok 2:BAD 22032 $[2].a @35 3:ok 4:ok");
		CHECK_STR(triage(p, "[{\"a\": 1}, {\"b\": {\"c\": [1, 2}}, {\"a\": 3}]"), "0:ok 1:REST 22P02 $ @28");
		CHECK_STR(triage(p, "[{\"a\": 1}, {\"a\": 2}] [3]"), "0:ok 1:ok 2:REST 22P02 $ @21");
		CHECK_STR(triage(p, "[{\"a\": 1}, {\"a\": 2} 7]"), "0:ok 1:ok 2:REST 22P02 $ @20");
		CHECK_STR(triage(p, "[{\"a\": 1}, 2, {\"a\": 3}]"), "0:ok 1:BAD 22032 $[1] @11 2:ok");
		/* the depth limit counts the array either way */
		CHECK_STR(triage_lim(pj, "[[1], [[2]], [[[3]]], 4]", &deep), "0:ok 1:ok 2:BAD 54001 $[2][0][0] @15 3:ok");
		/* over the size given: element by element from the start */
		{
			sd_decoder *d = sd_decoder_create(NULL);
			sd_error	err;

			sd_each_set_whole(d, 8);
			CHECK(sd_each_begin(d, p, NULL, "[{\"a\": 1}]", 10, NULL, &err) && d->each_cur == NULL);
			sd_each_set_whole(d, 10);
			CHECK(sd_each_begin(d, p, NULL, "[{\"a\": 1}]", 10, NULL, &err) && d->each_cur != NULL);
			/* serde_errors' reading leaves the whole parse where it is */
			{
				const sd_found *found;
				int			nf,
							total;
				uint32_t	root;

				CHECK(sd_each_check(d, 10, &found, &nf, &total, &root) == 1 && d->each_cur == NULL);
				CHECK(sd_each_check(d, 10, &found, &nf, &total, &root) == 0);
			}
			/* NDJSON is never parsed whole */
			CHECK(sd_each_begin(d, p, NULL, "{\"a\": 1}", 8, NULL, &err) && d->each_cur == NULL);
			sd_decoder_destroy(d);
		}
	}
	/* a limit of the whole input fails sd_each_begin */
	{
		sd_decoder *d = sd_decoder_create(NULL);
		sd_limits	lim = {0, 4, 0};
		sd_error	err;

		CHECK(!sd_each_begin(d, p, NULL, "[1, 2]", 6, &lim, &err) && err.code == SD_E_SIZE);
		sd_decoder_destroy(d);
	}
	sd_plan_free(p);
	sd_plan_free(pj);
}
