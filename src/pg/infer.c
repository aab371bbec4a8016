/*
 * infer.c — serde_infer for PostgreSQL: the aggregate's transition and final functions over the
 * core's inference (src/core/infer.c).  The state lives in a memory context under the
 * aggregate's; text, json, jsonb and xml samples are handed to the core as text; identifiers are
 * quoted with quote_identifier.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "serde_pg.h"
#include "infer.h"

PG_FUNCTION_INFO_V1(serde_infer_step);
PG_FUNCTION_INFO_V1(serde_infer_final);

typedef struct InferState
{
	MemoryContext cxt;
	sd_infer   *inf;
	sd_infer_options opts;
	bool		have_opts;
	uint32		rows;           /* non-NULL documents seen (for messages) */
} InferState;

#define INF_HDR	MAXALIGN(sizeof(size_t))

static void *
inf_alloc(void *ud, size_t size)
{
	char	   *p;

	if (size > MaxAllocHugeSize - INF_HDR)
		return NULL;
	p = MemoryContextAllocExtended((MemoryContext) ud, size + INF_HDR,
								   MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
	if (!p)
		return NULL;
	*(size_t *) p = size;
	return p + INF_HDR;
}

static void
inf_free(void *ud, void *ptr)
{
	if (ptr)
		pfree((char *) ptr - INF_HDR);
}

static void *
inf_realloc(void *ud, void *ptr, size_t size)
{
	void	   *n;
	size_t		old;

	if (!ptr)
		return inf_alloc(ud, size);
	old = *(size_t *) ((char *) ptr - INF_HDR);
	if (!(n = inf_alloc(ud, size)))
		return NULL;
	memcpy(n, ptr, Min(old, size));
	inf_free(ud, ptr);
	return n;
}

static void
raise_options(const sd_error *err)
{
	pgs_raise_core_error("serde_infer", err, false);
}

/* serde_infer_step(state internal, doc text|json|jsonb|xml [, options jsonb]) RETURNS internal */
Datum
serde_infer_step(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt;
	InferState *st;
	Oid			type;
	char	   *doc;
	size_t		len;
	bool		xml = false, detect = false;
	sd_error	err;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("serde_infer_step can only be called as serde_infer's transition function")));
	pgs_require_utf8();
	st = PG_ARGISNULL(0) ? NULL : (InferState *) PG_GETARG_POINTER(0);
	if (!st)
	{
		sd_hooks	hooks = {0};
		sd_limits	lim;

		st = MemoryContextAllocZero(aggcxt, sizeof(InferState));
		st->cxt = AllocSetContextCreate(aggcxt, "serde_infer", ALLOCSET_DEFAULT_SIZES);
		hooks.alloc = inf_alloc;
		hooks.realloc = inf_realloc;
		hooks.free = inf_free;
		hooks.should_stop = pgs_should_stop;
		hooks.ud = st->cxt;
		pgs_limits(&lim);
		if (!(st->inf = sd_infer_create(&hooks, &lim)))
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	}
	if (!st->have_opts)
	{
		char	   *opts = NULL;

		if (PG_NARGS() > 2 && !PG_ARGISNULL(2))
			opts = JsonbToCString(NULL, &PG_GETARG_JSONB_P(2)->root, -1);
		if (!sd_infer_options_read(st->inf, opts, opts ? strlen(opts) : 0, &st->opts, &err))
			raise_options(&err);
		st->have_opts = true;
	}
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(st);
	st->rows++;
	type = get_fn_expr_argtype(fcinfo->flinfo, 1);
	if (type == JSONBOID)
	{
		Jsonb	   *jb = PG_GETARG_JSONB_P(1);

		doc = JsonbToCString(NULL, &jb->root, VARSIZE(jb));
		len = strlen(doc);
	}
	else
	{
		text	   *t = PG_GETARG_TEXT_PP(1);

		doc = VARDATA_ANY(t);
		len = VARSIZE_ANY_EXHDR(t);
		xml = type == XMLOID;
		detect = type != XMLOID && type != JSONOID;
	}
	if (!sd_infer_add(st->inf, doc, len, xml, detect, st->opts.max_samples, &err))
	{
		char		prefix[64];

		if (err.code == SD_E_CANCELED)
			pgs_raise_stop();
		if (err.path[0] == '\0' && err.code != SD_E_OPTIONS)
			strcpy(err.path, err.doc == SD_DOC_XML ? "/" : "$");
		snprintf(prefix, sizeof(prefix), "serde_infer: sample %u", st->rows);
		pgs_raise_core_error(prefix, &err, true);
	}
	PG_RETURN_POINTER(st);
}

static void
pg_quote(void *ud, const char *ident, sd_buf *out)
{
	const char *q = quote_identifier(ident);

	sd_buf_put(out, q, strlen(q));
}

/* serde_infer_final(state internal) RETURNS text */
Datum
serde_infer_final(PG_FUNCTION_ARGS)
{
	InferState *st = PG_ARGISNULL(0) ? NULL : (InferState *) PG_GETARG_POINTER(0);
	sd_buf		out;
	sd_error	err;
	sd_hooks	hooks = {0};
	text	   *res;

	if (!st || sd_infer_samples(st->inf) == 0)
		PG_RETURN_NULL();
	hooks.alloc = inf_alloc;
	hooks.realloc = inf_realloc;
	hooks.free = inf_free;
	hooks.ud = CurrentMemoryContext;
	sd_buf_init(&out, &hooks);
	if (!sd_infer_render_sql(st->inf, &st->opts, pg_quote, NULL, &out, &err))
		pgs_raise_core_error("serde_infer", &err, false);
	res = cstring_to_text_with_len(out.s ? out.s : "", (int) out.len);
	sd_buf_free(&out);
	PG_RETURN_TEXT_P(res);
}
