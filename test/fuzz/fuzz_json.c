/*
 * fuzz_json.c — libFuzzer target: arbitrary bytes as a JSON document, decoded against a fixed
 * set of shapes (flat with every scalar kind, strict and loose; nested with arrays, maps, unions,
 * paths, extra and recursive json shapes; a union at the root; an array root; a json root)
 * through sd_decode_json, sd_check_json and sd_each_begin/sd_each_next.
 *
 * Invariants asserted on every input (a violation aborts, which libFuzzer reports as a crash):
 *   - sd_check_json reports 0 errors exactly when sd_decode_json succeeds; a syntax error, a limit
 *     or OOM is reported by both as that one error, at the same offset;
 *   - on success every tape index is in range and every value fits its node (fz_check_tape);
 *   - every error is well formed, never SD_E_INTERNAL; a syntax error has an offset within
 *     [0, length];
 *   - another SIMD kernel (haswell/westmere/fallback, whichever runs here) gives the identical
 *     result (tape rendering or error code/offset/path/problem);
 *   - the json root target agrees with the strict validator (jvalid.c) about well-formedness,
 *     with the same syntax-error offset, and so does the options parser (jtree.c);
 *   - sd_each_*: rows are valid tapes; a one-line NDJSON input gives the same outcome as
 *     sd_decode_json;
 *   - a decoder whose allocator fails after N allocations fails cleanly (SD_E_NOMEM or the same
 *     result as without the failure) and leaks nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "internal.h"
#include "json_walk.h"
#include "unit_support.h"

typedef struct target
{
	const char *name;
	const sd_type *type;
	const char *opts;
	uint32_t	max_depth;		/* 0 = default */
	bool		each;			/* also through sd_each_* (elements of this shape) */
	bool		json_root;		/* compare with the strict validators */
	sd_plan    *plan;
} target;

static target targets[8];
static int	ntargets;
static sd_decoder *dec;
static sd_decoder *alt[3];		/* decoders forced onto the other runnable kernels */
static int	nalt;
static fz_buf canon1, canon2;
static bool verbose;			/* FUZZ_VERBOSE=1: print every target's result */

static void
add_target(const char *name, const sd_type *type, const char *opts, uint32_t max_depth,
		   bool each, bool json_root)
{
	sd_error	err;
	static fz_resolver_state st;	/* no "Self" */
	sd_resolver res = fz_resolver(&st);
	target	   *t = &targets[ntargets++];

	t->name = name;
	t->type = type;
	t->opts = opts;
	t->max_depth = max_depth;
	t->each = each;
	t->json_root = json_root;
	t->plan = sd_compile(name, opts, strlen(opts), type, NULL, &res, &err);
	if (!t->plan)
	{
		fprintf(stderr, "fuzz_json: shape %s does not compile: %s %s: %s\n", name,
				sd_code_name(err.code), err.path, err.problem);
		abort();
	}
}

int			LLVMFuzzerInitialize(int *argc, char ***argv);
int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const fz_types *t = fz_get_types();
	const sd_kernel *all[] = {
#if defined(__x86_64__)
		&sd_kernel_icelake, &sd_kernel_haswell, &sd_kernel_westmere,
#endif
	&sd_kernel_fallback};
	bool		runnable = false;

	verbose = getenv("FUZZ_VERBOSE") != NULL;
	add_target("FlatStrict", t->flat, FZ_OPTS_FLAT_STRICT, 0, false, false);
	add_target("FlatLoose", t->flat, FZ_OPTS_FLAT_LOOSE, 0, true, false);
	add_target("Doc", t->doc, FZ_OPTS_DOC, 0, true, false);
	add_target("DocShallow", t->doc, FZ_OPTS_DOC, 6, false, false);
	add_target("PaymentRoot", t->payment, FZ_OPTS_PAYMENT_ROOT, 0, false, false);
	add_target("Items", t->item_array, "{\"unknown\": \"reject\", \"coerce\": true}", 0, false, false);
	add_target("Item", t->item, "{\"fields\": {\"c\": {\"default\": \"none\"}}}", 0, true, false);
	add_target("Json", &ut_json, "{}", 0, true, true);

	dec = sd_decoder_create(NULL);
	/* the kernels after the chosen one in the table all run on this CPU */
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
	{
		if (runnable)
		{
			alt[nalt] = sd_decoder_create(NULL);
			alt[nalt]->kernel = all[i];
			nalt++;
		}
		if (all[i] == dec->kernel)
			runnable = true;
	}
	fprintf(stderr, "fuzz_json: %d shapes, kernel %s, %d other kernel(s) compared\n", ntargets,
			dec->kernel->name, nalt);
	return 0;
}

static uint64_t
fnv(const uint8_t *p, size_t n)
{
	uint64_t	h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

/* One sd_decode_json; the rendering of its result (tape or error) goes to out. */
static bool
decode_one(sd_decoder *d, const target *t, const char *doc, size_t len, fz_buf *out,
		   sd_error *err)
{
	sd_limits	lim = {t->max_depth, SD_DEFAULT_MAX_DOCUMENT_BYTES, 0};
	uint32_t	root = UINT32_MAX;
	bool		ok;

	fz_reset(out);
	ok = sd_decode_json(d, t->plan, NULL, doc, len, &lim, &root, err);
	if (ok)
		fz_check_tape(t->plan, d, root, sd_plan_root(t->plan), len, out);
	else
	{
		fz_check_error(err, len);
		if (err->code == SD_E_SYNTAX)
			FZ_ASSERT(err->offset >= 0 && (size_t) err->offset <= len,
					  "syntax error without an offset in the document: %lld", (long long) err->offset);
		fz_render_error(out, err);
	}
	return ok;
}

/* ---- allocation failure -------------------------------------------------------------------- */
typedef struct failing
{
	long		left;			/* allocations that still succeed */
	long		live;			/* blocks allocated and not freed */
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

static void
check_oom(const target *t, const char *doc, size_t len, bool ok_ref, const fz_buf *ref, long budget)
{
	failing		f = {budget, 0};
	sd_hooks	hooks = {f_alloc, f_realloc, f_free, NULL, &f};
	sd_decoder *d = sd_decoder_create(&hooks);
	sd_error	err;
	fz_buf		out = {0};

	if (d)
	{
		bool		ok = decode_one(d, t, doc, len, &out, &err);

		if (ok)
			FZ_ASSERT(ok_ref && strcmp(out.p, ref->p) == 0,
					  "%s: decode with failing allocator gave another result:\n  %s\n  %s", t->name,
					  out.p, ref->p);
		else if (err.code != SD_E_NOMEM)
			FZ_ASSERT(strcmp(out.p, ref->p) == 0,
					  "%s: decode with failing allocator gave another error:\n  %s\n  %s", t->name,
					  out.p, ref->p);
		sd_decoder_destroy(d);
	}
	FZ_ASSERT(f.live == 0, "%s: %ld block(s) leaked after an allocation failure", t->name, f.live);
	fz_free(&out);
}

/* ---- sd_each -------------------------------------------------------------------------------- */
static void
check_each(const target *t, const char *doc, size_t len, bool ok_ref, const sd_error *err_ref)
{
	sd_limits	lim = {t->max_depth, SD_DEFAULT_MAX_DOCUMENT_BYTES, 0};
	sd_error	err;
	uint32_t	root;
	size_t		i = 0;
	bool		one_line;

	while (i < len && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r'))
		i++;
	/* one non-blank NDJSON line: the same outcome as a plain decode */
	one_line = i < len && doc[i] != '[' && memchr(doc, '\n', len) == NULL;

	if (!sd_each_begin(dec, t->plan, NULL, doc, len, &lim, &err))
	{
		fz_check_error(&err, len);
		return;
	}
	for (int rows = 0; rows < 10000; rows++)
	{
		int			r = sd_each_next(dec, &root, &err);

		FZ_ASSERT(r >= -1 && r <= 1, "sd_each_next returned %d", r);
		if (one_line && rows == 0)
		{
			FZ_ASSERT(r != 0, "%s: one NDJSON line gave no row", t->name);
			FZ_ASSERT((r == 1) == ok_ref, "%s: NDJSON line %s, plain decode %s", t->name,
					  r == 1 ? "decoded" : "failed", ok_ref ? "decoded" : "failed");
			if (r < 0)
				FZ_ASSERT(err.code == err_ref->code && err.offset == err_ref->offset,
						  "%s: NDJSON line error %s @%lld, plain decode %s @%lld", t->name,
						  sd_code_name(err.code), (long long) err.offset,
						  sd_code_name(err_ref->code), (long long) err_ref->offset);
		}
		if (r == 0)
			break;
		if (r < 0)
		{
			fz_check_error(&err, len);
			FZ_ASSERT(strncmp(err.path, "$", 1) == 0 || strncmp(err.path, "line ", 5) == 0,
					  "each error path %s", err.path);
			if (rows > 50)
				break;
			continue;			/* NDJSON: the next line is independent */
		}
		fz_check_tape(t->plan, dec, root, sd_plan_root(t->plan), len, NULL);
	}
}

/* ---- the json root against the strict validators ---------------------------------------- */
static void
check_validators(const char *doc, size_t len, bool ok, const sd_error *err)
{
	sd_error	verr,
				jerr;
	bool		valid = sd_json_validate(NULL, doc, len, &verr);

	if (!valid)
		fz_check_error(&verr, len);
	if (ok)
		FZ_ASSERT(valid, "decoded, but jvalid says %s at %lld", verr.problem, (long long) verr.offset);
	else if (err->code == SD_E_SYNTAX)
		FZ_ASSERT(!valid && verr.code == SD_E_SYNTAX && verr.offset == err->offset,
				  "decoder: syntax error @%lld (%s); jvalid: %s @%lld (%s)", (long long) err->offset,
				  err->problem, valid ? "valid" : sd_code_name(verr.code), (long long) verr.offset,
				  valid ? "" : verr.problem);
	else if (err->code == SD_E_DEPTH)
		FZ_ASSERT(valid, "too deep, but malformed (jvalid: %s @%lld)", verr.problem,
				  (long long) verr.offset);

	/* jtree (the options parser), validate-only mode, on documents it can hold */
	if (sd_jparse(NULL, doc, len, 256, &jerr) == NULL)
	{
		fz_check_error(&jerr, len);
		if (jerr.code == SD_E_SYNTAX)
			/* offsets may differ: jtree reports an unterminated string at its last character,
			 * jvalid at the end of the input (options errors carry no offset anyway) */
			FZ_ASSERT(!valid, "jtree: syntax error @%lld (%s); jvalid: valid", (long long) jerr.offset,
					  jerr.problem);
		else
			FZ_ASSERT(jerr.code == SD_E_DEPTH, "jtree: %s", sd_code_name(jerr.code));
	}
	else
		FZ_ASSERT(valid, "jtree accepts, jvalid says %s at %lld", verr.problem, (long long) verr.offset);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *doc = (const char *) data;
	uint64_t	h = fnv(data, size);
	int			oom_target = (int) (h % (uint64_t) ntargets);

	for (int ti = 0; ti < ntargets; ti++)
	{
		const target *t = &targets[ti];
		sd_limits	lim = {t->max_depth, SD_DEFAULT_MAX_DOCUMENT_BYTES, 0};
		sd_error	err,
					err2,
					errs[16];
		bool		ok,
					ok2;
		int			total = -1,
					n;

		ok = decode_one(dec, t, doc, size, &canon1, &err);
		if (verbose)
			fprintf(stderr, "%-12s %s\n", t->name, canon1.p);

		/* the same document on another kernel: the same result */
		if (nalt)
		{
			sd_decoder *ad = alt[(h >> 8) % (uint64_t) nalt];

			ok2 = decode_one(ad, t, doc, size, &canon2, &err2);
			FZ_ASSERT(ok == ok2 && strcmp(canon1.p, canon2.p) == 0,
					  "%s: kernel %s and kernel %s disagree:\n  %s\n  %s", t->name, dec->kernel->name,
					  ad->kernel->name, canon1.p, canon2.p);
		}

		/* serde_errors mode */
		n = sd_check_json(dec, t->plan, NULL, doc, size, &lim, errs, 16, &total);
		FZ_ASSERT(n >= 0 && n <= 16 && total >= n, "sd_check_json: %d errors, total %d", n, total);
		FZ_ASSERT((n == 0) == ok, "%s: sd_decode_json %s but sd_check_json found %d error(s)%s%s",
				  t->name, ok ? "succeeded" : "failed", n, ok ? ", first: " : ": ",
				  ok ? errs[0].problem : canon1.p);
		for (int i = 0; i < n; i++)
			fz_check_error(&errs[i], size);
		if (!ok && (err.code == SD_E_SYNTAX || err.code == SD_E_DEPTH || err.code == SD_E_SIZE))
			FZ_ASSERT(n == 1 && total == 1 && errs[0].code == err.code && errs[0].offset == err.offset,
					  "%s: decode: %s; check: %d error(s), first %s @%lld", t->name, canon1.p, n,
					  sd_code_name(errs[0].code), (long long) errs[0].offset);

		if (t->json_root)
			check_validators(doc, size, ok, &err);
		if (t->each)
			check_each(t, doc, size, ok, &err);
		if (ti == oom_target)
		{
			/* canon1 still holds this target's plain result */
			check_oom(t, doc, size, ok, &canon1, (long) ((h >> 16) % 24));
		}
	}
	return 0;
}
