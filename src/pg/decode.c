/*
 * decode.c — the decode entry points: serde_decode and serde_valid in their typed and record
 * forms for text/json/jsonb/bytea documents.  Resolves the plan through the call site's fn_extra
 * (kept for the statement), applies the NULL and target rules of DESIGN §1, runs the core's JSON
 * decoder (backend-wide, malloc-based, interruptible, bounded by serde.max_depth,
 * serde.max_document_bytes and the stack left) and converts the tape into the result.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "serde_pg.h"

PG_FUNCTION_INFO_V1(serde_decode_typed);
PG_FUNCTION_INFO_V1(serde_decode_shape);
PG_FUNCTION_INFO_V1(serde_valid_typed);
PG_FUNCTION_INFO_V1(serde_valid_shape);

/* ---- errors ----------------------------------------------------------------------------------- */

void
sd_pg_require_utf8(void)
{
	if (GetDatabaseEncoding() != PG_UTF8)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("serde requires the server encoding UTF8, not %s",
						GetDatabaseEncodingName())));
}

static int
core_sqlstate(sd_code code)
{
	const char *s = sd_code_sqlstate(code);

	if (s == NULL || strlen(s) != 5)
		return ERRCODE_INTERNAL_ERROR;
	return MAKE_SQLSTATE(s[0], s[1], s[2], s[3], s[4]);
}

void
sd_pg_raise_core_error(const char *prefix, const sd_error *err, bool offsets)
{
	if (err->code == SD_E_NOMEM)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("%s: %s", prefix, err->problem)));
	ereport(ERROR,
			(errcode(core_sqlstate(err->code)),
			 errmsg("%s: %s: %s", prefix, err->path, err->problem),
			 (offsets && err->offset >= 0) ?
			 errdetail("at byte offset %lld", (long long) err->offset) : 0));
}

/* Document errors serde_valid answers with false; limits, memory and cancels still raise. */
static bool
soft_code(sd_code code)
{
	switch (code)
	{
		case SD_E_SYNTAX:
		case SD_E_KIND:
		case SD_E_MISSING:
		case SD_E_UNKNOWN:
		case SD_E_DUPLICATE:
		case SD_E_RANGE:
		case SD_E_DATETIME:
		case SD_E_LENGTH:
		case SD_E_NOTNULL:
		case SD_E_CHECK:
		case SD_E_XML_SYNTAX:
		case SD_E_XML_KIND:
			return true;
		default:
			return false;
	}
}

/* ---- the decoders ------------------------------------------------------------------------------- */

/*
 * One decoder per nesting level (a domain CHECK or input function may call serde again while a
 * tape is being converted); the first few are kept for the backend's life.  They allocate with
 * malloc: their hooks run inside the C++ walker, where palloc's elog is forbidden.
 */
#define SD_KEPT_DECODERS 4
#define SD_DECODER_KEEP_BYTES ((size_t) 16 * 1024 * 1024)

typedef struct DecoderSlot
{
	sd_decoder *d;
	bool		busy;
	bool		temporary;
} DecoderSlot;

static DecoderSlot decoders[SD_KEPT_DECODERS];

static bool
decoder_should_stop(void *ud)
{
	return InterruptPending && INTERRUPTS_CAN_BE_PROCESSED();
}

static const sd_hooks decoder_hooks = {
	.alloc = NULL,
	.realloc = NULL,
	.free = NULL,
	.should_stop = decoder_should_stop,
	.ud = NULL
};

static pg_noinline DecoderSlot *
decoder_acquire(void)
{
	DecoderSlot *slot = NULL;

	for (int i = 0; i < SD_KEPT_DECODERS; i++)
		if (!decoders[i].busy)
		{
			slot = &decoders[i];
			break;
		}
	if (slot == NULL)
	{
		slot = palloc0(sizeof(DecoderSlot));
		slot->temporary = true;
	}
	if (slot->d == NULL && (slot->d = sd_decoder_create(&decoder_hooks)) == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("serde could not create a JSON decoder.")));
	slot->busy = true;
	return slot;
}

static void
decoder_release(DecoderSlot *slot)
{
	slot->busy = false;
	if (slot->temporary)
	{
		sd_decoder_destroy(slot->d);
		pfree(slot);
	}
	else if (sd_decoder_bytes(slot->d) > SD_DECODER_KEEP_BYTES)
		sd_decoder_trim(slot->d, SD_DECODER_KEEP_BYTES);
}

/* Bytes of C stack the walker may use: max_stack_depth less what is in use, less a margin. */
static size_t
stack_budget(void)
{
	char		here;
	pg_stack_base_t base = set_stack_base();
	long		used;
	long		budget;

	restore_stack_base(base);
	if (base == NULL)
		return 256 * 1024;
	used = (long) ((char *) base - &here);
	if (used < 0)
		used = -used;
	budget = (long) max_stack_depth * 1024L - used - 64 * 1024L;
	return budget < 8192 ? 8192 : (size_t) budget;
}

/* ---- decode + convert --------------------------------------------------------------------------- */

SdDecodeStatus
sd_pg_decode(SdPgPlan *plan, const sd_node *node, const char *doc, size_t len, bool offsets,
			 bool soft, const char *option_path, Datum *result, bool *isnull)
{
	sd_limits	lim;
	DecoderSlot *volatile slot;
	volatile SdDecodeStatus status = SD_DECODED;

	lim.max_depth = (uint32) sd_pg_max_depth;
	lim.max_document_bytes = (uint64) sd_pg_max_document_bytes;
	lim.stack_budget = stack_budget();
	*result = (Datum) 0;
	*isnull = true;

	plan->refcount++;			/* nothing may free the plan under this call */
	slot = decoder_acquire();
	PG_TRY();
	{
		sd_error	err;
		uint32		root = 0;
		bool		ok;

		for (int attempt = 0;; attempt++)
		{
			ok = sd_decode_json(slot->d, plan->plan, node, doc, len, &lim, &root, &err);
			if (ok || err.code != SD_E_CANCELED)
				break;
			/* an interrupt is pending: serve it (it may raise), then decode again */
			CHECK_FOR_INTERRUPTS();
			if (attempt >= 1000)
				ereport(ERROR,
						(errcode(ERRCODE_QUERY_CANCELED),
						 errmsg("canceling statement: serde decode interrupted")));
		}
		if (!ok)
		{
			if (option_path)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("%s: %s: %s%s%s", plan->display, option_path,
								strcmp(err.path, "$") ? err.path : "",
								strcmp(err.path, "$") ? ": " : "", err.problem)));
			if (soft && soft_code(err.code))
				status = SD_INVALID;
			else
				sd_pg_raise_core_error(plan->display, &err, offsets);
		}
		else
		{
			SdConvert	cx;

			cx.plan = plan;
			cx.tape = sd_decoder_tape(slot->d);
			cx.soft = soft;
			cx.failed = false;
			cx.offsets = offsets;
			cx.option_path = option_path;
			*result = sd_pg_convert(&cx, node, root, isnull);
			if (cx.failed)
			{
				status = SD_INVALID;
				*result = (Datum) 0;
				*isnull = true;
			}
		}
	}
	PG_FINALLY();
	{
		decoder_release(slot);
		sd_pg_plan_release(plan);
	}
	PG_END_TRY();
	return status;
}

/* ---- call sites --------------------------------------------------------------------------------- */

typedef struct SdCallSite
{
	SdPgPlan   *plan;			/* held (one reference) until fn_mcxt is reset */
	uint64		catalog_gen;	/* generations when `plan` was last validated */
	uint64		type_gen;
	Oid			argtype;		/* typed forms: the target type */
	bool		doc_jsonb;		/* the document argument is jsonb (else text-like bytes) */
	char	   *shape;			/* the shape name `plan` was found for (named forms) */
	int			shape_len;
	TimestampTz stmt_start;		/* the statement this call site last served */
	MemoryContext mcxt;
	MemoryContextCallback cb;
} SdCallSite;

static void
callsite_reset(void *arg)
{
	SdCallSite *cs = arg;
	SdPgPlan   *p = cs->plan;

	cs->plan = NULL;
	if (p)
		sd_pg_plan_release(p);
}

static SdCallSite *
callsite_get(FunctionCallInfo fcinfo, bool typed)
{
	FmgrInfo   *flinfo = fcinfo->flinfo;
	SdCallSite *cs = flinfo->fn_extra;
	HeapTuple	proc;
	Oid			doctype;

	if (cs)
		return cs;
	sd_pg_require_utf8();
	proc = SearchSysCache1(PROCOID, ObjectIdGetDatum(flinfo->fn_oid));
	if (!HeapTupleIsValid(proc))
		elog(ERROR, "cache lookup failed for function %u", flinfo->fn_oid);
	doctype = ((Form_pg_proc) GETSTRUCT(proc))->proargtypes.values[1];
	ReleaseSysCache(proc);

	cs = MemoryContextAllocZero(flinfo->fn_mcxt, sizeof(SdCallSite));
	cs->mcxt = flinfo->fn_mcxt;
	cs->doc_jsonb = doctype == JSONBOID;
	if (typed)
	{
		cs->argtype = get_fn_expr_argtype(flinfo, 0);
		if (!OidIsValid(cs->argtype))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("could not determine the target type of serde_decode")));
	}
	cs->cb.func = callsite_reset;
	cs->cb.arg = cs;
	MemoryContextRegisterResetCallback(flinfo->fn_mcxt, &cs->cb);
	flinfo->fn_extra = cs;
	return cs;
}

static inline bool
callsite_current(SdCallSite *cs)
{
	return cs->plan != NULL && cs->catalog_gen == sd_pg_catalog_gen &&
		cs->type_gen == sd_pg_type_gen;
}

static void
callsite_set(SdCallSite *cs, SdPgPlan *p, uint64 cg, uint64 tg)
{
	SdPgPlan   *old = cs->plan;

	cs->plan = p;
	cs->catalog_gen = cg;
	cs->type_gen = tg;
	if (old)
		sd_pg_plan_release(old);
}

/* Plan of the typed two-argument form. */
static SdPgPlan *
callsite_plan_for_type(SdCallSite *cs)
{
	uint64		cg,
				tg;

	if (callsite_current(cs) && cs->shape == NULL)
	{
		sd_pg_plan_count_hit();
		return cs->plan;
	}
	cg = sd_pg_catalog_gen;
	tg = sd_pg_type_gen;
	callsite_set(cs, sd_pg_plan_for_type(cs->argtype), cg, tg);
	if (cs->shape)
	{
		pfree(cs->shape);
		cs->shape = NULL;
	}
	return cs->plan;
}

typedef enum NamedCheck
{
	CHECK_TARGET,				/* typed three-argument form: the shape must decode into argtype */
	CHECK_COMPOSITE				/* record form: the target must be composite */
} NamedCheck;

/* Plan of a form that names the shape; ereports 22004 for a NULL name. */
static SdPgPlan *
callsite_plan_named(SdCallSite *cs, FunctionCallInfo fcinfo, int argno, NamedCheck check)
{
	text	   *t;
	const char *name;
	int			len;
	uint64		cg,
				tg;
	SdPgPlan   *p;
	char	   *cname;

	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("shape name must not be NULL")));
	t = PG_GETARG_TEXT_PP(argno);
	name = VARDATA_ANY(t);
	len = VARSIZE_ANY_EXHDR(t);
	if (callsite_current(cs) && cs->shape && cs->shape_len == len &&
		memcmp(cs->shape, name, len) == 0)
	{
		sd_pg_plan_count_hit();
		return cs->plan;
	}

	cg = sd_pg_catalog_gen;
	tg = sd_pg_type_gen;
	cname = text_to_cstring(t);
	p = sd_pg_plan_for_shape(cname);
	if (check == CHECK_TARGET && p->target_typid != cs->argtype)
	{
		char	   *have = pstrdup(p->target->name);

		sd_pg_plan_release(p);
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("shape \"%s\" decodes into %s, not %s", cname, have,
						format_type_be(cs->argtype))));
	}
	if (check == CHECK_COMPOSITE && sd_pg_host(p->target)->basetyptype != TYPTYPE_COMPOSITE)
	{
		char	   *have = pstrdup(p->target->name);

		sd_pg_plan_release(p);
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("shape \"%s\" decodes into %s, not a composite type", cname, have),
				 errhint("Use the typed form: serde_decode(NULL::%s, doc, '%s').", have, cname)));
	}
	callsite_set(cs, p, cg, tg);
	if (cs->shape)
		pfree(cs->shape);
	cs->shape = MemoryContextStrdup(cs->mcxt, cname);
	cs->shape_len = len;
	return p;
}

/* ---- the SQL functions ------------------------------------------------------------------------- */

static Datum
decode_common(FunctionCallInfo fcinfo, bool typed, bool soft)
{
	SdCallSite *cs = callsite_get(fcinfo, typed);
	SdPgPlan   *p;
	const char *doc;
	size_t		len;
	Datum		result;
	bool		isnull;
	SdDecodeStatus status;

	/*
	 * Once per statement: take in invalidations other sessions have committed, so that even
	 * inside a transaction block (where no new lock may be taken) the next statement sees a
	 * re-registered shape.  Cheap when there is nothing new.
	 */
	if (cs->stmt_start != GetCurrentStatementStartTimestamp())
	{
		cs->stmt_start = GetCurrentStatementStartTimestamp();
		AcceptInvalidationMessages();
	}

	/* the shape first: a NULL or unknown shape is an error even for a NULL document */
	if (!typed)
		p = callsite_plan_named(cs, fcinfo, 0, CHECK_COMPOSITE);
	else if (PG_NARGS() >= 3)
		p = callsite_plan_named(cs, fcinfo, 2, CHECK_TARGET);
	else
		p = callsite_plan_for_type(cs);

	if (typed && !PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the target argument of %s only supplies the type and must be NULL",
						soft ? "serde_valid" : "serde_decode"),
				 errhint("Pass NULL::%s.", format_type_be(cs->argtype))));
	if (PG_ARGISNULL(1))
		PG_RETURN_NULL();

	if (cs->doc_jsonb)
	{
		Jsonb	   *jb = PG_GETARG_JSONB_P(1);

		doc = JsonbToCString(NULL, &jb->root, VARSIZE(jb));
		len = strlen(doc);
	}
	else
	{
		struct varlena *v = PG_GETARG_VARLENA_PP(1);

		doc = VARDATA_ANY(v);
		len = VARSIZE_ANY_EXHDR(v);
	}

	status = sd_pg_decode(p, sd_plan_root(p->plan), doc, len, !cs->doc_jsonb, soft, NULL,
						  &result, &isnull);
	if (soft)
		PG_RETURN_BOOL(status == SD_DECODED);
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}

/* serde_decode(target anyelement, doc [, shape text]) RETURNS anyelement */
Datum
serde_decode_typed(PG_FUNCTION_ARGS)
{
	return decode_common(fcinfo, true, false);
}

/* serde_decode(shape text, doc) RETURNS record */
Datum
serde_decode_shape(PG_FUNCTION_ARGS)
{
	return decode_common(fcinfo, false, false);
}

/* serde_valid(target anyelement, doc [, shape text]) RETURNS boolean */
Datum
serde_valid_typed(PG_FUNCTION_ARGS)
{
	return decode_common(fcinfo, true, true);
}

/* serde_valid(shape text, doc) RETURNS boolean */
Datum
serde_valid_shape(PG_FUNCTION_ARGS)
{
	return decode_common(fcinfo, false, true);
}
