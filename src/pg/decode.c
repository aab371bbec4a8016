/*
 * decode.c — the decode entry points: serde_decode, serde_valid, serde_errors and
 * in their typed and record forms for text/json/jsonb/bytea documents (batches, serde_decode_each
 * and its kin, are each.c's, which uses the call sites, decoders and documents shared here).
 * Resolves the plan through the call site's fn_extra (kept for the statement), applies the NULL
 * and target rules of docs/reference.md, runs the core's JSON decoder (backend-wide, malloc-based,
 * interruptible, bounded by serde.max_depth, serde.max_document_bytes and the stack left) or,
 * for jsonb documents, the jsonb walker (jsonb_walk.c, no text round trip), and converts the
 * tape into the result.  serde_errors materializes its rows.  Every
 * document error leaves through errors.c.
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/htup_details.h"
#include "access/tupconvert.h"
#include "access/xact.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "nodes/nodeFuncs.h"
#include "miscadmin.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/snapmgr.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

#include "serde_pg.h"
#include "jsonb_walk.h"
#include "decode_int.h"

PG_FUNCTION_INFO_V1(serde_decode_typed);
PG_FUNCTION_INFO_V1(serde_decode_shape);
PG_FUNCTION_INFO_V1(serde_valid_typed);
PG_FUNCTION_INFO_V1(serde_valid_shape);
PG_FUNCTION_INFO_V1(serde_errors_typed);
PG_FUNCTION_INFO_V1(serde_errors_shape);

/* ---- the decoders ------------------------------------------------------------------------------- */

/*
 * One decoder per nesting level (a domain CHECK or input function may call serde again while a
 * tape is being converted); the first few are kept for the backend's life.  They allocate with
 * malloc: their hooks run inside the C++ walker, where palloc's elog is forbidden.
 */
#define SD_KEPT_DECODERS 4
#define SD_DECODER_KEEP_BYTES ((size_t) 16 * 1024 * 1024)


static DecoderSlot decoders[SD_KEPT_DECODERS];

static const sd_hooks decoder_hooks = {
	.alloc = NULL,
	.realloc = NULL,
	.free = NULL,
	.should_stop = pgs_should_stop,
	.ud = NULL
};

pg_noinline DecoderSlot *
pgs_decoder_acquire(void)
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

void
pgs_decoder_release(DecoderSlot *slot)
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

/* ---- decode + convert --------------------------------------------------------------------------- */

/* JSON text (text, json, bytea): the core's JSON decoder, then the conversion. */
static SdDecodeStatus
decode_text(SdPgPlan *plan, const sd_node *node, const char *doc, size_t len, bool soft,
			Datum *result, bool *isnull)
{
	sd_limits	lim;
	DecoderSlot *volatile slot;
	volatile SdDecodeStatus status = SD_DECODED;

	pgs_limits(&lim);
	*result = (Datum) 0;
	*isnull = true;

	plan->refcount++;			/* nothing may free the plan under this call */
	slot = pgs_decoder_acquire();
	PG_TRY();
	{
		sd_error	err;
		uint32		root = 0;
		bool		ok;

		ok = sd_decode_json(slot->d, plan->plan, node, doc, len, &lim, &root, &err);
		if (!ok)
		{
			if (soft && pgs_soft_code(err.code))
				status = SD_INVALID;
			else
			{
				sd_error_locate_json(&err, doc, len);
				pgs_raise_core_error(plan->display, &err, true);
			}
		}
		else
		{
			SdConvert	cx;
			SdPgDoc		d = {SD_PG_DOC_JSON, doc, len};

			pgs_convert_init(&cx, plan, sd_decoder_tape(slot->d), soft, &d, NULL);
			cx.events = sd_decoder_events(slot->d);
			*result = pgs_convert(&cx, node, root, isnull);
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
		pgs_decoder_release(slot);
		pgs_plan_release(plan);
	}
	PG_END_TRY();
	return status;
}

static inline void
check_jsonb_size(SdPgPlan *plan, Jsonb *jb)
{
	pgs_check_doc_size(plan->display, VARSIZE(jb) - VARHDRSZ, SD_PG_DOC_JSONB);
}

/*
 * A jsonb document: walked directly (jsonb_walk.c) into a tape of a kept decoder (as JSON text
 * is), then converted in the caller's context.  Results equal those from text input apart from
 * jsonb's normalisation; errors carry paths but no offsets.
 */
static SdDecodeStatus
decode_jsonb(SdPgPlan *plan, const sd_node *node, Jsonb *jb, bool soft, Datum *result,
			 bool *isnull)
{
	DecoderSlot *volatile slot;
	volatile SdDecodeStatus status = SD_DECODED;

	*result = (Datum) 0;
	*isnull = true;
	check_jsonb_size(plan, jb);
	plan->refcount++;
	slot = pgs_decoder_acquire();
	PG_TRY();
	{
		const sd_val *tape = NULL;
		uint32		root = 0;
		sd_error	err;
		bool		ok;

		ok = pgs_jsonb_decode(slot->d, jb, node, &tape, &root, &err);
		if (!ok)
		{
			if (soft && pgs_soft_code(err.code))
				status = SD_INVALID;
			else
				pgs_raise_core_error(plan->display, &err, false);
		}
		else
		{
			SdConvert	cx;
			SdPgDoc		d = {SD_PG_DOC_JSONB, NULL, 0};

			pgs_convert_init(&cx, plan, tape, soft, &d, NULL);
			*result = pgs_convert(&cx, node, root, isnull);
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
		pgs_decoder_release(slot);
		pgs_plan_release(plan);
	}
	PG_END_TRY();
	return status;
}

/* ---- call sites --------------------------------------------------------------------------------- */


static void
callsite_reset(void *arg)
{
	SdCallSite *cs = arg;
	SdPgPlan   *p = cs->plan;

	cs->plan = NULL;
	if (p)
		pgs_plan_release(p);
}

/*
 * The typmod of the target argument: an anyelement parameter passes the type's OID only
 * (get_fn_expr_argtype), so numeric(5,2) or varchar(2)[] is read from the call expression.
 */
static int32
target_typmod(FmgrInfo *flinfo)
{
	Node	   *expr = flinfo->fn_expr;

	if (expr && IsA(expr, FuncExpr) && list_length(((FuncExpr *) expr)->args) > 0)
		return exprTypmod((Node *) linitial(((FuncExpr *) expr)->args));
	return -1;
}

static SdCallSite *
callsite_get(FunctionCallInfo fcinfo, bool typed, const char *fname)
{
	FmgrInfo   *flinfo = fcinfo->flinfo;
	SdCallSite *cs = flinfo->fn_extra;
	HeapTuple	proc;
	Oid			doctype;
	bool		cs_xml;

	if (cs)
		return cs;
	pgs_require_utf8();
	proc = SearchSysCache1(PROCOID, ObjectIdGetDatum(flinfo->fn_oid));
	if (!HeapTupleIsValid(proc))
		elog(ERROR, "cache lookup failed for function %u", flinfo->fn_oid);
	doctype = ((Form_pg_proc) GETSTRUCT(proc))->proargtypes.values[1];
	{
		const char *proname = NameStr(((Form_pg_proc) GETSTRUCT(proc))->proname);
		size_t		plen = strlen(proname);

		cs_xml = doctype == XMLOID || (plen > 4 && strcmp(proname + plen - 4, "_xml") == 0);
	}
	ReleaseSysCache(proc);

	cs = MemoryContextAllocZero(flinfo->fn_mcxt, sizeof(SdCallSite));
	cs->mcxt = flinfo->fn_mcxt;
	cs->doc_jsonb = doctype == JSONBOID;
	cs->doc_xml = cs_xml;
	if (typed)
	{
		cs->argtype = get_fn_expr_argtype(flinfo, 0);
		if (!OidIsValid(cs->argtype))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("could not determine the target type of %s", fname)));
		cs->argtypmod = target_typmod(flinfo);
	}
	cs->cb.func = callsite_reset;
	cs->cb.arg = cs;
	MemoryContextRegisterResetCallback(flinfo->fn_mcxt, &cs->cb);
	flinfo->fn_extra = cs;
	return cs;
}

/*
 * A call site keeps its plan for the rest of the statement (docs/reference.md: plan cache): once a plan served this
 * statement, invalidations arriving while it runs wait for the next statement, so all rows of
 * one statement come from one shape version.  Between statements the plan is reused while
 * neither invalidation counter moved.
 */
static inline bool
callsite_current(SdCallSite *cs)
{
	if (cs->plan == NULL)
		return false;
	if (cs->plan_seq == cs->stmt_seq)
		return true;
	if (cs->catalog_gen == pgs_catalog_gen && cs->type_gen == pgs_type_gen)
	{
		cs->plan_seq = cs->stmt_seq;
		return true;
	}
	return false;
}

static void
callsite_set(SdCallSite *cs, SdPgPlan *p, uint64 cg, uint64 tg)
{
	SdPgPlan   *old = cs->plan;

	cs->plan = p;
	cs->catalog_gen = cg;
	cs->type_gen = tg;
	cs->plan_seq = cs->stmt_seq;
	cs->plan_mark = cs->stmt_mark;
	if (old)
		pgs_plan_release(old);
}

/* Plan of the typed two-argument form. */
static SdPgPlan *
callsite_plan_for_type(SdCallSite *cs)
{
	uint64		cg,
				tg;

	if (callsite_current(cs) && cs->shape == NULL)
	{
		pgs_plan_count_hit();
		return cs->plan;
	}
	cg = pgs_catalog_gen;
	tg = pgs_type_gen;
	callsite_set(cs, pgs_plan_for_type(cs->argtype, cs->argtypmod), cg, tg);
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
callsite_plan_named(SdCallSite *cs, FunctionCallInfo fcinfo, int argno, NamedCheck check,
					const char *fname)
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
		pgs_plan_count_hit();
		return cs->plan;
	}

	cg = pgs_catalog_gen;
	tg = pgs_type_gen;
	cname = text_to_cstring(t);
	p = pgs_plan_for_shape(cname, -1);
	if (check == CHECK_TARGET && p->target_typid == cs->argtype && cs->argtypmod >= 0)
	{
		/* a target with a typmod (numeric(5,2)): the shape's plan for that typmod */
		pgs_plan_release(p);
		p = pgs_plan_for_shape(cname, cs->argtypmod);
	}
	if (check == CHECK_TARGET && p->target_typid != cs->argtype)
	{
		char	   *have;

		pgs_plan_names(p);
		have = pstrdup(p->target->name);

		pgs_plan_release(p);
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("shape \"%s\" decodes into %s, not %s", cname, have,
						format_type_be(cs->argtype))));
	}
	if (check == CHECK_COMPOSITE && pgs_host(p->target)->basetyptype != TYPTYPE_COMPOSITE)
	{
		char	   *have;

		pgs_plan_names(p);
		have = pstrdup(p->target->name);

		pgs_plan_release(p);
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("shape \"%s\" decodes into %s, not a composite type", cname, have),
				 errhint("Use the typed form: %s(NULL::%s, doc, '%s').", fname, have, cname)));
	}
	callsite_set(cs, p, cg, tg);
	if (cs->shape)
		pfree(cs->shape);
	cs->shape = MemoryContextStrdup(cs->mcxt, cname);
	cs->shape_len = len;
	return p;
}

/*
 * A new statement: take in the invalidations other sessions have committed (so that even inside
 * a transaction block, where no new lock may be taken, the next statement sees a re-registered
 * shape), and if this statement's snapshot can see commits the plan was not checked against —
 * one of them may be a shape change whose invalidation has not arrived yet (cache.c,
 * pgs_snapshot_mark) — ask the cache again, which re-reads the versions.  Cheap when nothing
 * was committed since.
 */
static void
callsite_new_statement(SdCallSite *cs, TimestampTz start, SdSnapMark mark)
{
	cs->stmt_start = start;
	cs->stmt_mark = mark;
	cs->stmt_seq++;
	AcceptInvalidationMessages();
	if (cs->plan && pgs_mark_newer(mark, cs->plan_mark))
		cs->catalog_gen = 0;	/* not current: the next use goes through the cache */
}

/*
 * The common prologue of every entry point: the call site, invalidations once per statement,
 * the plan (the shape first: a NULL or unknown shape is an error even for a NULL document),
 * then the rule that a target's value must be NULL.
 */
static SdPgPlan *
entry_plan(FunctionCallInfo fcinfo, bool typed, const char *fname, SdCallSite **csp)
{
	return pgs_entry_plan(fcinfo, typed, fname, csp, false);
}

/* empty_shape: the batch forms' shape argument defaults to '', the type's one shape (no shape
 * can be named ''); else a third argument always names a shape. */
SdPgPlan *
pgs_entry_plan(FunctionCallInfo fcinfo, bool typed, const char *fname, SdCallSite **csp,
			   bool empty_shape)
{
	SdCallSite *cs = callsite_get(fcinfo, typed, fname);
	TimestampTz start = GetCurrentStatementStartTimestamp();
	SdSnapMark	mark = pgs_statement_mark();
	SdPgPlan   *p;

	/*
	 * A new statement: another start, another snapshot — or the same snapshot at another
	 * command.  PL/pgSQL evaluates a simple expression (`r := serde_decode(...)`) with one
	 * expression state, so one call site, for every statement of a function, all with the
	 * top-level statement's start; a statement after one that changed the catalog in the same
	 * transaction differs from it only in its snapshot's command ID.
	 */
	if (cs->stmt_start != start || cs->stmt_mark.xmax != mark.xmax ||
		cs->stmt_mark.nrunning != mark.nrunning || cs->stmt_mark.curcid != mark.curcid)
		callsite_new_statement(cs, start, mark);

	if (!typed)
		p = callsite_plan_named(cs, fcinfo, 0, CHECK_COMPOSITE, fname);
	else if (PG_NARGS() >= 3 &&
			 !(empty_shape && !PG_ARGISNULL(2) && VARSIZE_ANY_EXHDR(PG_GETARG_TEXT_PP(2)) == 0))
		p = callsite_plan_named(cs, fcinfo, 2, CHECK_TARGET, fname);
	else
		p = callsite_plan_for_type(cs);

	if (typed && !PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the target argument of %s only supplies the type and must be NULL",
						fname),
				 errhint("Pass NULL::%s.", format_type_be(cs->argtype))));
	*csp = cs;
	return p;
}

/* ---- the document argument ----------------------------------------------------------------------- */


void
pgs_doc_fetch(SdDoc *doc)
{
	if (doc->is_jsonb)
	{
		doc->jb = DatumGetJsonbP(doc->raw);
		doc->copy = (Pointer) doc->jb != DatumGetPointer(doc->raw) ? doc->jb : NULL;
	}
	else
	{
		struct varlena *v = PG_DETOAST_DATUM_PACKED(doc->raw);

		doc->text = VARDATA_ANY(v);
		doc->len = VARSIZE_ANY_EXHDR(v);
		doc->copy = (Pointer) v != DatumGetPointer(doc->raw) ? v : NULL;
	}
}

/*
 * serde.max_document_bytes before the document is detoasted: a compressed or out-of-line
 * document over the limit is refused without decompressing or reading it.
 */
static inline void
doc_check_size(SdPgPlan *p, Datum raw, bool is_jsonb)
{
	pgs_check_doc_size(p->display, toast_raw_datum_size(raw) - VARHDRSZ,
					   is_jsonb ? SD_PG_DOC_JSONB : SD_PG_DOC_JSON);
}

void
pgs_doc_get(FunctionCallInfo fcinfo, SdCallSite *cs, SdDoc *doc)
{
	memset(doc, 0, sizeof(*doc));
	doc->is_jsonb = cs->doc_jsonb;
	doc->raw = PG_GETARG_DATUM(1);
	if (cs->doc_xml)
		pgs_check_doc_size(cs->plan->display, toast_raw_datum_size(doc->raw) - VARHDRSZ,
						   SD_PG_DOC_XML);
	else
		doc_check_size(cs->plan, doc->raw, doc->is_jsonb);
	pgs_doc_fetch(doc);
}

/* Frees a detoasted copy once the core holds its own (pgs_doc_fetch brings it back if needed). */
void
pgs_doc_drop(SdDoc *doc)
{
	if (doc->copy)
		pfree(doc->copy);
	doc->copy = NULL;
	doc->jb = NULL;
	doc->text = NULL;
}

/* ---- serde_decode / serde_valid ---------------------------------------------------------------- */

/*
 * The record forms in FROM with a column definition list: a composite with dropped columns has
 * more attributes than the list, and PostgreSQL insists on equal counts.  Returns a map to the
 * list's shape (by position, dropped columns skipped) and the blessed descriptor to build the
 * rows with, or NULL when the rows fit as they are.  A list that names more columns than the
 * type has live ones is 42804 here: as long as the type with its dropped columns, it would
 * reach the executor's check, which cannot name a dropped column's type (XX000).
 */
TupleConversionMap *
pgs_record_map(FunctionCallInfo fcinfo, SdCallSite *cs, SdPgPlan *p, TupleDesc *outdesc)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	typdesc = pgs_host(p->target)->tupdesc;
	MemoryContext old;
	int			live = 0;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) || rsinfo->expectedDesc == NULL ||
		typdesc == NULL)
		return NULL;
	for (int i = 0; i < typdesc->natts; i++)
		live += !TupleDescAttr(typdesc, i)->attisdropped;
	if (live != rsinfo->expectedDesc->natts)
		pgs_plan_names(p);		/* the type's name, for the message */
	if (live != rsinfo->expectedDesc->natts)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("function return row and query-specified return row do not match"),
				 errdetail("Shape \"%s\" returns %d column%s of type %s, the column definition list has %d.",
						   p->display, live, live == 1 ? "" : "s", p->target->name,
						   rsinfo->expectedDesc->natts),
				 live == typdesc->natts || live > rsinfo->expectedDesc->natts ? 0 :
				 errhint("Dropped columns of the type are not returned: leave them out of the list.")));
	/*
	 * The executor checks the column types but lets a typmod through (text into varchar(2)
	 * would return "abcdef" as a varchar(2)): a list that asks for another typmod than the
	 * shape's type decodes is refused, like any other mismatch.
	 */
	for (int i = 0, j = 0; i < typdesc->natts; i++)
	{
		Form_pg_attribute src = TupleDescAttr(typdesc, i);
		Form_pg_attribute dst;

		if (src->attisdropped)
			continue;
		dst = TupleDescAttr(rsinfo->expectedDesc, j++);
		if (dst->atttypmod != -1 &&
			(dst->atttypmod != src->atttypmod || dst->atttypid != src->atttypid))
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("function return row and query-specified return row do not match"),
					 errdetail("Shape \"%s\" decodes column \"%s\" as %s, the column definition list asks for %s.",
							   p->display, NameStr(src->attname),
							   format_type_with_typemod(src->atttypid, src->atttypmod),
							   format_type_with_typemod(dst->atttypid, dst->atttypmod)),
					 errhint("Declare the typmod in the type the shape decodes into.")));
	}
	if (live == typdesc->natts)
		return NULL;			/* the executor checks the column types */
	if (cs->rmap == NULL || cs->rmap_from != typdesc || cs->rmap_expected != rsinfo->expectedDesc)
	{
		old = MemoryContextSwitchTo(cs->mcxt);
		cs->rmap_desc = BlessTupleDesc(CreateTupleDescCopy(rsinfo->expectedDesc));
		cs->rmap = convert_tuples_by_position(typdesc, cs->rmap_desc,
											  gettext_noop("function return row and query-specified return row do not match"));
		cs->rmap_from = typdesc;
		cs->rmap_expected = rsinfo->expectedDesc;
		MemoryContextSwitchTo(old);
	}
	*outdesc = cs->rmap_desc;
	return cs->rmap;
}

/* A composite Datum serde made, seen as a HeapTuple (no copy: tup points into it). */
void
pgs_datum_tuple(Datum d, HeapTuple tup)
{
	HeapTupleHeader th = pgs_own_tuple_header(d);

	tup->t_len = HeapTupleHeaderGetDatumLength(th);
	ItemPointerSetInvalid(&tup->t_self);
	tup->t_tableOid = InvalidOid;
	tup->t_data = th;
}

/* A composite Datum of the plan's type in the shape of a column definition list. */
Datum
pgs_record_remap(Datum d, TupleConversionMap *map)
{
	HeapTupleData tup;

	pgs_datum_tuple(d, &tup);
	return HeapTupleGetDatum(execute_attr_map_tuple(&tup, map));
}

static Datum
decode_common(FunctionCallInfo fcinfo, bool typed, bool soft)
{
	const char *fname = soft ? "serde_valid" : "serde_decode";
	SdCallSite *cs;
	SdPgPlan   *p = entry_plan(fcinfo, typed, fname, &cs);
	Datum		result;
	bool		isnull;
	SdDecodeStatus status;
	TupleDesc	want;
	/* a column definition list is checked whatever the document (as serde_decode_each does) */
	TupleConversionMap *map = typed || soft ? NULL : pgs_record_map(fcinfo, cs, p, &want);

	if (PG_ARGISNULL(1))
		PG_RETURN_NULL();

	if (cs->doc_xml)
		status = pgs_decode_xml(p, sd_plan_root(p->plan), PG_GETARG_DATUM(1), soft, &result,
								  &isnull);
	else
	{
		if (soft)
		{
			sd_error	err;

			/* a document over serde.max_document_bytes is invalid, not an error (docs/reference.md, serde_valid) */
			if (!pgs_doc_size_ok(toast_raw_datum_size(PG_GETARG_DATUM(1)) - VARHDRSZ,
								 cs->doc_jsonb ? SD_PG_DOC_JSONB : SD_PG_DOC_JSON, &err))
				PG_RETURN_BOOL(false);
		}
		doc_check_size(p, PG_GETARG_DATUM(1), cs->doc_jsonb);
		if (cs->doc_jsonb)
			status = decode_jsonb(p, sd_plan_root(p->plan), PG_GETARG_JSONB_P(1), soft,
								  &result, &isnull);
		else
		{
			struct varlena *v = PG_GETARG_VARLENA_PP(1);

			status = decode_text(p, sd_plan_root(p->plan), VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v),
								 soft, &result, &isnull);
		}
	}
	if (soft)
		PG_RETURN_BOOL(status == SD_DECODED);
	if (isnull)
		PG_RETURN_NULL();
	if (map)
		result = pgs_record_remap(result, map);
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

/* ---- serde_errors ---------------------------------------------------------------------------------- */

static void
errors_text(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_node *node, const char *doc,
			size_t len)
{
	sd_limits	lim;
	DecoderSlot *volatile slot;
	MemoryContext caller = CurrentMemoryContext;
	MemoryContext tmp = AllocSetContextCreate(caller, "serde_errors", ALLOCSET_DEFAULT_SIZES);

	pgs_limits(&lim);
	plan->refcount++;
	slot = pgs_decoder_acquire();
	PG_TRY();
	{
		const sd_found *found;
		int			n = 0;
		int			total = 0;
		uint32		root = UINT32_MAX;
		SdPgDoc		d = {SD_PG_DOC_JSON, doc, len};

		n = sd_check_json_found(slot->d, plan->plan, node, doc, len, &lim, pgs_max_errors,
								&found, &total, &root);
		MemoryContextSwitchTo(tmp);
		pgs_errors_report(rsinfo, plan, node, sd_decoder_tape(slot->d), root, found, n, &d);
		MemoryContextSwitchTo(caller);
	}
	PG_FINALLY();
	{
		MemoryContextSwitchTo(caller);
		MemoryContextDelete(tmp);
		pgs_decoder_release(slot);
		pgs_plan_release(plan);
	}
	PG_END_TRY();
}

static void
errors_jsonb(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_node *node, Jsonb *jb)
{
	MemoryContext caller = CurrentMemoryContext;
	MemoryContext tmp = AllocSetContextCreate(caller, "serde_errors", ALLOCSET_DEFAULT_SIZES);

	check_jsonb_size(plan, jb);
	plan->refcount++;
	PG_TRY();
	{
		const sd_found *found;
		const sd_val *tape;
		int			total = 0;
		uint32		root;
		int			n;
		SdPgDoc		d = {SD_PG_DOC_JSONB, NULL, 0};

		MemoryContextSwitchTo(tmp);
		n = pgs_jsonb_check(jb, node, pgs_max_errors, &found, &total, &tape, &root);
		pgs_errors_report(rsinfo, plan, node, tape, root, found, n, &d);
		MemoryContextSwitchTo(caller);
	}
	PG_FINALLY();
	{
		MemoryContextSwitchTo(caller);
		MemoryContextDelete(tmp);
		pgs_plan_release(plan);
	}
	PG_END_TRY();
}

static Datum
errors_common(FunctionCallInfo fcinfo, bool typed)
{
	SdCallSite *cs;
	SdPgPlan   *p = entry_plan(fcinfo, typed, "serde_errors", &cs);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SdDoc		doc;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(1))
		return (Datum) 0;
	if (cs->doc_xml)
	{
		pgs_xml_errors(rsinfo, p, sd_plan_root(p->plan), PG_GETARG_DATUM(1));
		return (Datum) 0;
	}
	{
		sd_error	err;

		/* over serde.max_document_bytes: one 54000 row, like any other document error */
		if (!pgs_doc_size_ok(toast_raw_datum_size(PG_GETARG_DATUM(1)) - VARHDRSZ,
							 cs->doc_jsonb ? SD_PG_DOC_JSONB : SD_PG_DOC_JSON, &err))
		{
			pgs_errors_put_error(rsinfo, p, &err);
			return (Datum) 0;
		}
	}
	pgs_doc_get(fcinfo, cs, &doc);
	if (doc.is_jsonb)
		errors_jsonb(rsinfo, p, sd_plan_root(p->plan), doc.jb);
	else
		errors_text(rsinfo, p, sd_plan_root(p->plan), doc.text, doc.len);
	return (Datum) 0;
}

/* serde_errors(target anyelement, doc [, shape text]) RETURNS TABLE (...) */
Datum
serde_errors_typed(PG_FUNCTION_ARGS)
{
	return errors_common(fcinfo, true);
}

/* serde_errors(shape text, doc) RETURNS TABLE (...) */
Datum
serde_errors_shape(PG_FUNCTION_ARGS)
{
	return errors_common(fcinfo, false);
}

