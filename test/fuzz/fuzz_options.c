/*
 * fuzz_options.c — libFuzzer target: arbitrary bytes as the shape options JSON, compiled for
 * several fixed target types (a flat composite of every scalar kind, a nested composite with
 * arrays, maps, unions and json columns, a union, an array of composites, a scalar json) with a
 * resolver that knows a few shapes and "Self" (the fuzzed options themselves), then described
 * (sd_plan_describe), used and freed.
 *
 * Invariants: sd_compile either returns a plan or fails with SD_E_OPTIONS (path starting "$")
 * or SD_E_NOMEM — never SD_E_INTERNAL, never an ill-formed error; the description is valid JSON;
 * every default decodes into its own column's node; a handful of fixed documents decode or fail
 * cleanly through the plan with well-formed tapes; compiling twice gives the same description;
 * a failing allocator makes compilation fail cleanly without leaks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "internal.h"
#include "unit_support.h"

int			LLVMFuzzerInitialize(int *argc, char ***argv);
int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const sd_type *tgts[6];
static int	ntgts;
static sd_decoder *dec;

/* documents every compiled plan is tried on */
static const char *const docs[] = {
	"{}",
	"null",
	"[]",
	"[{\"b\": 1, \"c\": \"x\"}, {\"b\": 2}]",
	"{\"t\": \"text\", \"v3\": \"abc\", \"s\": 1, \"i\": 2, \"l\": 3, \"r\": 1.5, \"f\": 2.5, \"n\": 1e3,"
	" \"n52\": 1.25, \"b\": true, \"tz\": \"2024-01-02T03:04:05Z\", \"ts\": \"2024-01-02 03:04:05\","
	" \"d\": \"2024-02-29\", \"tm\": \"23:59:59.5\", \"u\": \"123e4567-e89b-12d3-a456-426614174000\","
	" \"by\": \"QUJD\", \"e\": \"green\", \"j\": [1, {\"x\": null}], \"jb\": {}, \"a\": [1, 2],"
	" \"ip\": \"10.0.0.1\", \"tu\": 1700000000.5, \"tms\": 1700000000123, \"bh\": \"00ff\","
	" \"bu\": \"_-8\", \"fa\": [1e300, -0.0]}",
	"{\"id\": 1, \"items\": [{\"b\": 1, \"c\": \"x\"}], \"grid\": [[1], [2, 3]],"
	" \"labels\": {\"a\": 1, \"b\": 2}, \"things\": {\"k\": {\"b\": 1, \"c\": \"y\"}},"
	" \"pay\": {\"type\": \"card\", \"id\": \"p\", \"amount\": 5, \"last4\": \"4242\", \"exp\": 30},"
	" \"pays\": [{\"type\": \"bank_transfer\", \"id\": \"q\", \"amount\": 1, \"iban\": \"DE\"}],"
	" \"head\": {\"sha\": \"abc\", \"repo\": {\"n\": 7}}, \"tree\": {\"name\": \"r\", \"kids\": [{\"name\": \"c\"}]},"
	" \"treeB\": {\"kids\": []}, \"inner\": {\"n\": 1, \"s\": \"s\", \"deep\": []}, \"opt\": 2,"
	" \"first name\": \"Ada\", \"firstName\": \"B\", \"zzz\": [true]}",
	"{\"type\": \"card\", \"id\": \"p\", \"amount\": 5, \"last4\": \"4242\", \"exp\": 30}",
	"{\"b\": \"1\", \"c\": 2}",
};

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const fz_types *t = fz_get_types();

	tgts[ntgts++] = t->flat;
	tgts[ntgts++] = t->doc;
	tgts[ntgts++] = t->payment;
	tgts[ntgts++] = t->item_array;
	tgts[ntgts++] = &ut_json;
	tgts[ntgts++] = t->node;
	dec = sd_decoder_create(NULL);
	return 0;
}

/* ---- a failing allocator ------------------------------------------------------------------ */
typedef struct failing
{
	long		left;
	long		live;
} failing;

static void *
f_alloc(void *ud, size_t size)
{
	failing    *f = ud;

	if (f->left-- <= 0)
		return NULL;
	f->live++;
	return malloc(size);
}

static void *
f_realloc(void *ud, void *p, size_t size)
{
	failing    *f = ud;

	if (f->left-- <= 0)
		return NULL;
	if (!p)
		f->live++;
	return realloc(p, size);
}

static void
f_free(void *ud, void *p)
{
	failing    *f = ud;

	if (p)
		f->live--;
	free(p);
}

static char *
describe_checked(const sd_plan *plan, size_t *len)
{
	sd_error	err;
	char	   *text = sd_plan_describe(plan, len);

	FZ_ASSERT(text != NULL, "sd_plan_describe returned NULL");
	FZ_ASSERT(strlen(text) == *len, "describe length %zu, strlen %zu", *len, strlen(text));
	FZ_ASSERT(sd_json_validate(NULL, text, *len, &err), "description is not valid JSON (%s @%lld): %s",
			  err.problem, (long long) err.offset, text);
	return text;
}

static void
use_plan(const sd_plan *plan)
{
	uint32_t	root;
	sd_error	err;

	FZ_ASSERT(sd_plan_root(plan) != NULL, "plan without root");
	FZ_ASSERT(sd_plan_bytes(plan) > 0, "plan of 0 bytes");
	FZ_ASSERT(sd_plan_shape(plan) && strcmp(sd_plan_shape(plan), "F") == 0, "shape name");
	/* every default decodes into its column */
	for (int i = 0; i < sd_plan_ndefaults(plan); i++)
	{
		const sd_field *f = sd_plan_default(plan, i);

		FZ_ASSERT(f && f->has_default && f->default_index == i && f->default_json,
				  "default %d malformed", i);
		FZ_ASSERT(sd_decode_json(dec, plan, f->node, f->default_json, strlen(f->default_json), NULL,
								 &root, &err),
				  "default %s of column %s does not decode: %s: %s", f->default_json, f->column,
				  err.path, err.problem);
		fz_check_tape(plan, dec, root, f->node, strlen(f->default_json), NULL);
		/* ... and its value compiled with the plan is the same value (canonical JSON) */
		{
			uint32_t	droot = 0;
			const sd_val *dt = sd_plan_default_value(plan, i, &droot);
			sd_jwriter *w = sd_jwriter_create(plan, NULL, &err);
			sd_buf		a,
						b;

			FZ_ASSERT(dt != NULL && droot < 0x7fffffffu, "default %d not compiled", i);
			FZ_ASSERT(w != NULL, "jwriter: %s", err.problem);
			sd_buf_init(&a, NULL);
			sd_buf_init(&b, NULL);
			FZ_ASSERT(sd_jwriter_write(w, f->node, dt, droot, &a) &&
					  sd_jwriter_write(w, f->node, sd_decoder_tape(dec), root, &b), "jwriter failed");
			FZ_ASSERT(a.len == b.len && memcmp(a.s, b.s, a.len) == 0,
					  "default %d compiled as %s, decoded as %s", i, a.s, b.s);
			sd_buf_free(&a);
			sd_buf_free(&b);
			sd_jwriter_free(w);
		}
	}
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
	{
		size_t		len = strlen(docs[i]);
		sd_error	errs[4];
		int			n;
		bool		ok = sd_decode_json(dec, plan, NULL, docs[i], len, NULL, &root, &err);

		if (ok)
			fz_check_tape(plan, dec, root, sd_plan_root(plan), len, NULL);
		else
			fz_check_error(&err, len);
		n = sd_check_json(dec, plan, NULL, docs[i], len, NULL, errs, 4, NULL);
		FZ_ASSERT((n == 0) == ok, "decode %s, check found %d errors (doc %zu)",
				  ok ? "ok" : err.problem, n, i);
		for (int k = 0; k < n; k++)
			fz_check_error(&errs[k], len);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a NUL-terminated copy: the resolver hands "Self" options to sd_compile as a C string */
	char	   *opts = malloc(size + 1);
	fz_resolver_state st = {opts, NULL};
	sd_resolver res = fz_resolver(&st);

	memcpy(opts, data, size);
	opts[size] = '\0';

	for (int ti = 0; ti < ntgts; ti++)
	{
		sd_error	err;
		sd_plan    *plan;

		st.self_target = tgts[ti];
		plan = sd_compile("F", opts, size, tgts[ti], NULL, &res, &err);
		if (!plan)
		{
			fz_check_error(&err, size);
			FZ_ASSERT(err.code == SD_E_OPTIONS || err.code == SD_E_NOMEM,
					  "compile failed with %s: %s: %s", sd_code_name(err.code), err.path, err.problem);
			FZ_ASSERT(err.path[0] == '$', "option path \"%s\"", err.path);
			continue;
		}
		{
			size_t		len1,
						len2;
			char	   *d1 = describe_checked(plan, &len1);
			sd_plan    *again = sd_compile("F", opts, size, tgts[ti], NULL, &res, &err);
			char	   *d2;

			FZ_ASSERT(again != NULL, "second compile failed: %s: %s", err.path, err.problem);
			d2 = describe_checked(again, &len2);
			FZ_ASSERT(len1 == len2 && memcmp(d1, d2, len1) == 0, "descriptions differ:\n%s\n%s", d1, d2);
			free(d1);
			free(d2);
			sd_plan_free(again);
		}
		use_plan(plan);
		sd_plan_free(plan);

		/* the same compile with an allocator that fails after a few allocations */
		{
			failing		f = {(long) ((size * 31 + (size_t) ti * 7) % 40), 0};
			sd_hooks	hooks = {f_alloc, f_realloc, f_free, NULL, &f};
			sd_plan    *p2 = sd_compile("F", opts, size, tgts[ti], &hooks, &res, &err);

			if (p2)
			{
				size_t		len;
				char	   *d = sd_plan_describe(p2, &len);

				if (d)
					sd_hook_free(&hooks, d);
				sd_plan_free(p2);
			}
			else
				FZ_ASSERT(err.code == SD_E_NOMEM || err.code == SD_E_OPTIONS,
						  "compile with a failing allocator: %s: %s", sd_code_name(err.code), err.problem);
			FZ_ASSERT(f.live == 0, "%ld block(s) leaked by a failed compile", f.live);
		}
	}
	free(opts);
	return 0;
}
