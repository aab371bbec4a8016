/*
 * each.c — batches: serde_decode_each (on_error 'raise' or 'skip'), serde_decode_each_report
 * and serde_errors_each over a JSON array, newline-delimited JSON (text, json, bytea) or a jsonb
 * array, one item at a time, and their *_xml forms over the child elements of an XML document's
 * root (core: xml_each.c) (docs/reference.md, "Batches and dead letters").
 *
 * Why value-per-call for the rows (serde_decode_each, serde_decode_each_report) in the select
 * list, not a tuplestore fed as the input is read: a materialising function returns only after
 * the whole input was decoded, so nothing could ever stop early; value-per-call returns each row
 * as soon as its item is read, so that in the select list (ProjectSet) rows stream to the
 * client, LIMIT stops the reading, and an error in item 1,000 comes after rows 0..999.  In FROM,
 * PostgreSQL's FunctionScan collects every row into a tuplestore (which spills to disk past
 * work_mem) before it returns the first, so there value-per-call would only cost a function call
 * per row: there (the executor marks it SFRM_Materialize_Preferred) the batch is read in one call
 * into the tuplestore, item by item exactly as value-per-call reads it (each_materialize).
 * Memory stays bounded either way.  What must stay valid across calls lives in
 * the multi-call context: the detoasted input, the decoder (held for the whole batch: the core
 * borrows the input and copies one item at a time with simdjson's padding, so the parser's
 * state never points into memory that goes away), the plan reference and, for jsonb, the
 * iterator; a reset callback on that context gives the decoder and the plan back whether the
 * batch ends, is cut short (LIMIT) or fails.  Each row is converted in the caller's per-call
 * memory.  serde_errors_each materialises (its rows are few, and an item may yield many).
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"
#include "utils/typcache.h"

#include "serde_pg.h"
#include "jsonb_walk.h"
#include "decode_int.h"

PG_FUNCTION_INFO_V1(serde_decode_each_typed);
PG_FUNCTION_INFO_V1(serde_decode_each_shape);
PG_FUNCTION_INFO_V1(serde_decode_each_report);
PG_FUNCTION_INFO_V1(serde_errors_each_typed);
PG_FUNCTION_INFO_V1(serde_errors_each_shape);

/*
 * A JSON array up to this size is parsed whole by the core rather than element by element
 * (sd_each_set_whole): one simdjson pass instead of one per element, for memory of at most a
 * few times this much (the padded copy, simdjson's index of it); larger inputs stream with
 * memory bounded by their largest element.
 */
#define EACH_WHOLE_MAX (1024 * 1024)
/* ... and from this size ("[]" is not parsed at all): even a one-element array is cheaper parsed
 * once than found by the scanner and then parsed (bench/RESULTS.md, issue 23: batch1 1.23x of
 * a9ba88b with a 1 KiB minimum, 1.13x without) */
#define EACH_WHOLE_MIN 3

typedef enum EachMode
{
	EACH_RAISE,					/* the first error ends the statement (the default) */
	EACH_SKIP,					/* bad items are left out */
	EACH_REPORT					/* one row per item: (item, ok, row, code, path, message) */
} EachMode;

typedef struct EachState
{
	MemoryContext mcxt;			/* the batch's (the call site's batch_cxt): lives across calls */
	SdCallSite *cs;				/* the call site holding it (cs->batch) */
	ExprContext *econtext;		/* whose shutdown ends the batch early (LIMIT, rescan) */
	EachMode	mode;
	SdPgPlan   *plan;			/* a reference of this batch's own */
	const sd_node *node;
	bool		composite;		/* rows are the composite's columns, else one value */
	TupleDesc	rowdesc;		/* composite rows (all-NULL rows are built with it) */
	TupleConversionMap *map;	/* record form: to a column definition list (or NULL) */
	TupleDesc	outdesc;		/* serde_decode_each_report's rows */
	SdDoc		doc;
	DecoderSlot *slot;			/* text input: the decoder going through the batch */
	bool		is_jsonb;
	bool		is_xml;			/* the *_xml forms: the root element's children are the items */
	JsonbIterator *it;			/* jsonb input: the array's iterator */
	MemoryContext walkcxt;		/* jsonb: one element's tape */
	uint64		row;			/* jsonb: index of the next element */
	uint64		item;			/* the item being converted (report rows, locations) */
	bool		oversize;		/* report: the input is over serde.max_document_bytes */
	sd_error	oversize_err;
	MemoryContextCallback cb;
} EachState;

/* ---- common pieces ----------------------------------------------------------------------------- */

/* Gives the decoder and the plan back: the batch ended, was cut short or failed. */
static void
each_cleanup(void *arg)
{
	EachState  *st = arg;

	if (st->cs && st->cs->batch == st)
		st->cs->batch = NULL;

	if (st->slot)
	{
		sd_each_reset(st->slot->d);
		pgs_decoder_release(st->slot);
		st->slot = NULL;
	}
	if (st->plan)
	{
		SdPgPlan   *p = st->plan;

		st->plan = NULL;
		pgs_plan_release(p);
	}
}

/* Where the value being converted sits: "$[41]", or for NDJSON "line 42: $" (tape offsets
 * already count from the start of the whole input). */
static void
each_locate(SdConvert *cx)
{
	EachState  *st = cx->locate_arg;
	uint64		line = 0;
	size_t		start = 0;

	if (st->is_xml)
	{
		/* "/Batch/Item[3]": the converted value's XPath starts there */
		sd_each_xml_where(st->slot->d, cx->root_path);
		cx->offset_base = 0;
		return;
	}
	if (st->slot && sd_each_row(st->slot->d, &line, &start))
		snprintf(cx->root_path, sizeof(cx->root_path), "line " UINT64_FORMAT ": $", line);
	else
		snprintf(cx->root_path, sizeof(cx->root_path), "$[" UINT64_FORMAT "]", st->item);
	cx->offset_base = 0;
}

static EachMode
each_mode(FunctionCallInfo fcinfo, int argno)
{
	text	   *t;
	char	   *s;

	if (PG_NARGS() <= argno)
		return EACH_RAISE;
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("on_error must be 'raise' or 'skip', not NULL")));
	t = PG_GETARG_TEXT_PP(argno);
	s = text_to_cstring(t);
	if (strcmp(s, "raise") == 0)
		return EACH_RAISE;
	if (strcmp(s, "skip") == 0)
		return EACH_SKIP;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("on_error must be 'raise' or 'skip', not '%s'", s),
			 errhint("serde_decode_each_report returns the bad items as rows.")));
	return EACH_RAISE;
}

/* A typed call whose target is not NULL is usually the record form written with on_error. */
static void
each_check_target(FunctionCallInfo fcinfo, bool typed, const char *fname)
{
	if (typed && !PG_ARGISNULL(0) && get_fn_expr_argtype(fcinfo->flinfo, 0) == TEXTOID &&
		PG_NARGS() >= 3)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the target argument of %s only supplies the type and must be NULL", fname),
				 errhint("on_error and the report go with the typed form: %s(NULL::<type>, doc, '<shape>', ...).",
						 fname)));
}

/* The jsonb document must be an array (NDJSON is text). */
static void
each_jsonb_check(SdPgPlan *plan, Jsonb *jb)
{
	const char *found = JB_ROOT_IS_OBJECT(jb) ? "object" : "a scalar";
	sd_error	err;

	if (JB_ROOT_IS_ARRAY(jb) && !JB_ROOT_IS_SCALAR(jb))
		return;
	if (JB_ROOT_IS_SCALAR(jb))
	{
		JsonbValue	v;

		if (JsonbExtractScalar(&jb->root, &v))
			found = v.type == jbvString ? "string" : v.type == jbvNumeric ? "number" :
				v.type == jbvBool ? (v.val.boolean ? "true" : "false") : "null";
	}
	sd_error_clear(&err);
	strcpy(err.path, "$");
	sd_error_set(&err, SD_E_KIND, -1,
				 "expected array (serde_decode_each over jsonb takes a JSON array), found %s",
				 found);
	pgs_raise_core_error_hint(plan->display, &err, false,
							  "For newline-delimited JSON, pass the document as text.");
}

/* The next element of a jsonb array (v), or false at the end. */
static bool
each_jsonb_next(EachState *st, JsonbValue *v, MemoryContext mcxt)
{
	MemoryContext old = MemoryContextSwitchTo(mcxt);
	JsonbIteratorToken tok;
	bool		got = false;

	while ((tok = JsonbIteratorNext(&st->it, v, true)) != WJB_DONE)
		if (tok == WJB_ELEM)
		{
			got = true;
			break;
		}
	MemoryContextSwitchTo(old);
	return got;
}

/* Begins the batch of a text input on a decoder of the backend's (malloc: the XML reader never
 * raises either): a JSON array / NDJSON, or for the *_xml forms the XML document. */
static bool
each_begin(EachState *st, SdPgPlan *p, sd_error *err)
{
	sd_limits	lim;

	pgs_limits(&lim);
	st->slot = pgs_decoder_acquire();
	if (st->is_xml)
	{
		lim.stack_budget = 0;	/* the XML walker keeps its own stack (no recursion) */
		return sd_each_begin_xml(st->slot->d, p->plan, st->node, st->doc.text, st->doc.len,
								 &lim, err);
	}
	/* raise and skip: a small array is parsed whole (the same rows and errors; the report
	 * reads a failed item again from its extent, so it goes element by element) */
	sd_each_set_whole(st->slot->d, st->mode == EACH_REPORT || st->doc.len < EACH_WHOLE_MIN ? 0 :
					  EACH_WHOLE_MAX);
	return sd_each_begin(st->slot->d, p->plan, st->node, st->doc.text, st->doc.len, &lim, err);
}

/* ---- one item's outcome ------------------------------------------------------------------------- */

typedef struct ItemOut
{
	bool		ok;
	Datum		value;			/* ok: the converted row / value */
	bool		isnull;
	char		code[6];		/* bad: SQLSTATE, path, message */
	char	   *path;
	char	   *message;
} ItemOut;

static void
out_bad_core(ItemOut *o, EachState *st, const sd_error *err)
{
	o->ok = false;
	strlcpy(o->code, unpack_sql_state(pgs_sqlstate(err->code)), sizeof(o->code));
	o->path = pstrdup(err->path);
	o->message = psprintf("%s: %s: %s", st->plan->display, err->path, err->problem);
}

/*
 * The first error of an item that the core decoded but whose conversion failed softly (a domain
 * CHECK, a NOT NULL domain): serde_errors' reading of the item, its first row.
 */
static void
out_bad_first(ItemOut *o, EachState *st, const sd_val *tape, uint32 root, const sd_found *found,
			  int n, const SdPgDoc *doc)
{
	ReturnSetInfo rsi;
	TupleDesc	desc = CreateTemplateTupleDesc(4);
	TupleTableSlot *slot;

	TupleDescInitEntry(desc, 1, "path", TEXTOID, -1, 0);
	TupleDescInitEntry(desc, 2, "code", TEXTOID, -1, 0);
	TupleDescInitEntry(desc, 3, "message", TEXTOID, -1, 0);
	TupleDescInitEntry(desc, 4, "byte_offset", INT8OID, -1, 0);
	memset(&rsi, 0, sizeof(rsi));
	rsi.type = T_ReturnSetInfo;
	rsi.setDesc = desc;
	rsi.setResult = tuplestore_begin_heap(false, false, work_mem);
	pgs_errors_report_at(&rsi, st->plan, st->node, tape, root, found, n, doc, each_locate, st);
	slot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
	o->ok = false;
	if (tuplestore_gettupleslot(rsi.setResult, true, false, slot))
	{
		slot_getallattrs(slot);
		o->path = TextDatumGetCString(slot->tts_values[0]);
		strlcpy(o->code, TextDatumGetCString(slot->tts_values[1]), sizeof(o->code));
		o->message = TextDatumGetCString(slot->tts_values[2]);
	}
	else
	{
		/* cannot be: the soft conversion failed */
		strlcpy(o->code, "XX000", sizeof(o->code));
		o->path = pstrdup("$");
		o->message = psprintf("%s: item " UINT64_FORMAT ": conversion failed", st->plan->display,
							  st->item);
	}
	ExecDropSingleTupleTableSlot(slot);
	tuplestore_end(rsi.setResult);
}

/* Converts an item the core decoded: raise mode raises a conversion error, the others take it
 * softly (skip: false; report: the item's first error in o). */
static bool
each_convert(EachState *st, const sd_val *tape, const sd_jev *events, uint32 root, ItemOut *o)
{
	SdConvert	cx;
	/* a text batch: its whole input, where a converted value's error is located (line, column) */
	SdPgDoc		doc = {st->is_jsonb ? SD_PG_DOC_JSONB : st->is_xml ? SD_PG_DOC_XML : SD_PG_DOC_JSON,
		st->is_jsonb ? NULL : st->doc.text, st->is_jsonb ? 0 : st->doc.len};

	pgs_convert_init(&cx, st->plan, tape, st->mode != EACH_RAISE, &doc, NULL);
	cx.events = events;
	cx.locate = each_locate;
	cx.locate_arg = st;
	o->value = pgs_convert(&cx, st->node, root, &o->isnull);
	o->ok = !cx.failed;
	if (o->ok || st->mode != EACH_REPORT)
		return o->ok;

	/* report: read the item again in serde_errors' mode for its first error */
	if (st->is_jsonb)
		return false;			/* each_next_jsonb does it (it holds the element) */
	{
		const sd_found *found;
		int			n,
					total;
		uint32		r2;

		(void) sd_each_recheck(st->slot->d, 1, &found, &n, &total, &r2);
		out_bad_first(o, st, sd_decoder_tape(st->slot->d), r2, found, n, &doc);
	}
	return false;
}

/*
 * The next item of a text batch: true with o filled, false at the end.  Raise mode raises the
 * first error; a cancel, memory and the like raise in every mode.
 */
static bool
each_next_text(EachState *st, ItemOut *o)
{
	for (;;)
	{
		sd_error	err;
		uint32		root = 0;
		int			r;

		CHECK_FOR_INTERRUPTS();
		r = sd_each_triage(st->slot->d, &root, &err);
		st->item = sd_each_item(st->slot->d);
		if (r == 0)
			return false;
		if (r < 0 || (r >= 2 && (st->mode == EACH_RAISE || !pgs_soft_code(err.code))))
		{
			/* offsets count from the start of the whole input: line and column there (XML
			 * errors carry theirs) */
			if (!st->is_xml)
				sd_error_locate_json(&err, st->doc.text, st->doc.len);
			pgs_raise_core_error(st->plan->display, &err, true);
		}
		if (r >= 2)
		{
			if (st->mode == EACH_SKIP)
				continue;
			out_bad_core(o, st, &err);
			return true;
		}
		if (each_convert(st, sd_decoder_tape(st->slot->d), sd_decoder_events(st->slot->d),
						 root, o) || st->mode == EACH_REPORT)
			return true;
	}
}

static bool
each_next_jsonb(EachState *st, ItemOut *o, MemoryContext mcxt)
{
	JsonbValue	v;

	while (each_jsonb_next(st, &v, mcxt))
	{
		const sd_val *tape = NULL;
		uint32		root = 0;
		sd_error	err;
		bool		ok;
		MemoryContext old;

		CHECK_FOR_INTERRUPTS();
		st->item = st->row++;
		MemoryContextReset(st->walkcxt);
		old = MemoryContextSwitchTo(st->walkcxt);
		ok = pgs_jsonb_decode_element(&v, st->item, st->node, &tape, &root, &err);
		MemoryContextSwitchTo(old);
		if (!ok)
		{
			if (st->mode == EACH_RAISE || !pgs_soft_code(err.code))
				pgs_raise_core_error(st->plan->display, &err, false);
			if (st->mode == EACH_SKIP)
				continue;
			out_bad_core(o, st, &err);
			return true;
		}
		if (each_convert(st, tape, NULL, root, o))
			return true;
		if (st->mode == EACH_REPORT)
		{
			const sd_found *found;
			int			total;
			int			n;
			SdPgDoc		doc = {SD_PG_DOC_JSONB, NULL, 0};

			MemoryContextReset(st->walkcxt);
			old = MemoryContextSwitchTo(st->walkcxt);
			n = pgs_jsonb_check_element(&v, st->item, st->node, 1, &found, &total, &tape, &root);
			MemoryContextSwitchTo(old);
			out_bad_first(o, st, tape, root, found, n, &doc);
			return true;
		}
	}
	return false;
}

/* ---- serde_decode_each / serde_decode_each_report ---------------------------------------------- */

/* The executor ends the batch early (LIMIT, a rescan): everything goes with its context. */
static void
each_shutdown(Datum arg)
{
	EachState  *st = (EachState *) DatumGetPointer(arg);

	MemoryContextReset(st->mcxt);
}

static void
each_end(EachState *st)
{
	if (st->econtext)
		UnregisterExprContextCallback(st->econtext, each_shutdown, PointerGetDatum(st));
	MemoryContextReset(st->mcxt);
}

/* The rows' descriptor of a composite batch (made on first need in materialize mode). */
static TupleDesc
each_rowdesc(EachState *st)
{
	if (st->rowdesc == NULL)
	{
		SdPgType   *h = pgs_host(st->plan->target);
		MemoryContext old = MemoryContextSwitchTo(st->mcxt);

		st->rowdesc = BlessTupleDesc(h->tupdesc ? CreateTupleDescCopy(h->tupdesc)
									 : lookup_rowtype_tupdesc_copy(h->basetypid, -1));
		MemoryContextSwitchTo(old);
	}
	return st->rowdesc;
}

static EachState *
each_first_call(FunctionCallInfo fcinfo, bool typed, EachMode mode, const char *fname,
				bool materialize)
{
	MemoryContext mcxt;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SdCallSite *cs;
	SdPgPlan   *p;
	SdPgType   *h;
	EachState  *st;
	MemoryContext old;

	each_check_target(fcinfo, typed, fname);
	p = pgs_entry_plan(fcinfo, typed, fname, &cs, true);
	h = pgs_host(p->target);
	if (mode != EACH_REPORT)
		mode = each_mode(fcinfo, 3);
	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		!(rsinfo->allowedModes & SFRM_ValuePerCall))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("set-valued function called in context that cannot accept a set")));

	/* the call site's batch memory: a child of its own context, reset after every batch */
	if (cs->batch_cxt == NULL)
		cs->batch_cxt = AllocSetContextCreate(cs->mcxt, "serde batch", ALLOCSET_SMALL_SIZES);
	mcxt = cs->batch_cxt;
	old = MemoryContextSwitchTo(mcxt);
	st = palloc0(sizeof(EachState));
	st->mcxt = mcxt;
	st->cs = cs;
	st->econtext = rsinfo->econtext;
	st->mode = mode;
	st->node = sd_plan_root(p->plan);
	st->composite = h->basetyptype == TYPTYPE_COMPOSITE;
	if (st->composite && !typed)
		st->map = pgs_record_map(fcinfo, cs, p, &st->rowdesc);
	/* materialize: made when a row needs it (each_rowdesc) */
	if (st->composite && !st->map && !materialize)
		st->rowdesc = h->tupdesc ? CreateTupleDescCopy(h->tupdesc)
			: lookup_rowtype_tupdesc_copy(h->basetypid, -1);
	if (st->rowdesc)
		st->rowdesc = BlessTupleDesc(st->rowdesc);
	if (mode == EACH_REPORT)
	{
		if (get_call_result_type(fcinfo, NULL, &st->outdesc) != TYPEFUNC_COMPOSITE)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("function returning record called in context that cannot accept type record")));
		st->outdesc = BlessTupleDesc(st->outdesc);
	}
	/* the batch's own reference: the call site's may be replaced by the next statement */
	p->refcount++;
	st->plan = p;
	st->cb.func = each_cleanup;
	st->cb.arg = st;
	MemoryContextRegisterResetCallback(mcxt, &st->cb);
	/* value-per-call: the executor may stop calling (LIMIT, a rescan); materialize reads the
	 * batch within this call (an error resets the call site's memory, and mcxt with it) */
	if (!materialize)
	{
		RegisterExprContextCallback(st->econtext, each_shutdown, PointerGetDatum(st));
		cs->batch = st;
	}
	else
		st->econtext = NULL;
	MemoryContextSwitchTo(old);

	if (PG_ARGISNULL(1))
		return st;
	/* report: an input over serde.max_document_bytes is one row for the whole input */
	if (mode == EACH_REPORT &&
		!pgs_doc_size_ok(toast_raw_datum_size(PG_GETARG_DATUM(1)) - VARHDRSZ,
						 cs->doc_jsonb ? SD_PG_DOC_JSONB : cs->doc_xml ? SD_PG_DOC_XML :
						 SD_PG_DOC_JSON, &st->oversize_err))
	{
		st->oversize = true;
		return st;
	}
	old = MemoryContextSwitchTo(mcxt);
	pgs_doc_get(fcinfo, cs, &st->doc);
	st->is_jsonb = st->doc.is_jsonb;
	st->is_xml = cs->doc_xml;
	if (st->is_jsonb)
	{
		each_jsonb_check(p, st->doc.jb);
		st->it = JsonbIteratorInit(&st->doc.jb->root);
		st->walkcxt = AllocSetContextCreate(mcxt, "serde_decode_each item",
											ALLOCSET_DEFAULT_SIZES);
	}
	else
	{
		sd_error	err;

		if (!each_begin(st, p, &err))
		{
			if (!st->is_xml)
				sd_error_locate_json(&err, st->doc.text, st->doc.len);
			pgs_raise_core_error(p->display, &err, true);
		}
	}
	MemoryContextSwitchTo(old);
	return st;
}

/* A row of serde_decode_each: the value, or the composite (all NULL for a null item). */
static Datum
each_row_datum(EachState *st, ItemOut *o, bool *isnull)
{
	*isnull = false;
	if (!st->composite)
	{
		*isnull = o->isnull;
		return o->value;
	}
	if (o->isnull)
	{
		TupleDesc	desc = each_rowdesc(st);
		int			natts = desc->natts;
		Datum	   *values = palloc0(sizeof(Datum) * Max(natts, 1));
		bool	   *nulls = palloc(sizeof(bool) * Max(natts, 1));

		memset(nulls, true, sizeof(bool) * Max(natts, 1));
		return HeapTupleGetDatum(heap_form_tuple(desc, values, nulls));
	}
	if (st->map)
		return pgs_record_remap(o->value, st->map);
	return o->value;
}

/* A report row: (item, ok, row, code, path, message). */
static void
each_report_values(EachState *st, ItemOut *o, Datum *values, bool *nulls)
{
	memset(nulls, false, sizeof(bool) * 6);
	values[0] = Int32GetDatum((int32) Min(st->item, (uint64) PG_INT32_MAX));
	values[1] = BoolGetDatum(o->ok);
	if (o->ok)
	{
		values[2] = o->value;
		nulls[2] = o->isnull;
		nulls[3] = nulls[4] = nulls[5] = true;
	}
	else
	{
		nulls[2] = true;
		values[3] = CStringGetTextDatum(o->code);
		values[4] = CStringGetTextDatum(o->path);
		values[5] = CStringGetTextDatum(o->message);
	}
}

/* The next item of the batch into o: false at the end (or when there is nothing to read). */
static bool
each_next(EachState *st, ItemOut *o)
{
	memset(o, 0, sizeof(*o));
	if (st->plan == NULL || (!st->slot && !st->it))
		return false;
	if (st->is_jsonb)
		return each_next_jsonb(st, o, st->mcxt);
	return each_next_text(st, o);
}

/*
 * In FROM (the executor asks for materialize mode by SFRM_Materialize_Preferred; the select
 * list's ProjectSet does not), PostgreSQL 15's FunctionScan collects every row into a tuplestore
 * before returning the first, so value-per-call could only add a function call per row: the
 * batch is read in one call, the rows going straight into the tuplestore (which spills to disk
 * past work_mem, as the executor's own does).  The items are read exactly as value-per-call
 * reads them (each_next), so rows and errors are the same; only the round trips go.
 */
/* Materialize mode's tuplestore and its descriptor, made with the first row (none for an empty
 * batch: the executor then makes its own empty one). */
static Tuplestorestate *
each_store(FunctionCallInfo fcinfo, EachState *st, EachMode mode)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext old;
	TupleDesc	desc;

	if (rsinfo->setResult)
		return rsinfo->setResult;
	/* the executor frees the descriptor it is given: a copy in per-query memory */
	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	if (mode == EACH_REPORT)
		desc = CreateTupleDescCopy(st->outdesc);
	else if (st->composite && st->rowdesc)
		desc = CreateTupleDescCopy(st->rowdesc);
	else if (st->composite)
	{
		SdPgType   *h = pgs_host(st->plan->target);

		desc = h->tupdesc ? CreateTupleDescCopy(h->tupdesc) :
			lookup_rowtype_tupdesc_copy(h->basetypid, -1);
	}
	else
	{
		desc = CreateTemplateTupleDesc(1);
		TupleDescInitEntry(desc, (AttrNumber) 1, "serde_decode_each", st->plan->target_typid,
						   pgs_host(st->plan->target)->typmod, 0);
	}
	rsinfo->setResult = tuplestore_begin_heap((rsinfo->allowedModes & SFRM_Materialize_Random) != 0,
											  false, work_mem);
	rsinfo->setDesc = desc;
	MemoryContextSwitchTo(old);
	return rsinfo->setResult;
}

/*
 * In FROM (the executor asks for materialize mode by SFRM_Materialize_Preferred; the select
 * list's ProjectSet does not), PostgreSQL's FunctionScan collects every row into a tuplestore
 * before returning the first, so value-per-call could only add a function call per row: the
 * batch is read in one call, the rows going straight into the tuplestore (which spills to disk
 * past work_mem, as the executor's own does).  The items are read exactly as value-per-call
 * reads them (each_next), so rows and errors are the same; only the round trips go.  Each row is
 * converted in the call site's row memory, reset once the row is in the tuplestore.
 */
/* The one row of an input over serde.max_document_bytes: item NULL, ok false, the error. */
static void
oversize_row(EachState *st, ItemOut *o, Datum *values, bool *nulls)
{
	static const bool n[6] = {true, false, true, false, false, false};

	st->oversize = false;
	out_bad_core(o, st, &st->oversize_err);
	memcpy(nulls, n, sizeof(n));
	values[1] = BoolGetDatum(false);
	values[3] = CStringGetTextDatum(o->code);
	values[4] = CStringGetTextDatum(o->path);
	values[5] = CStringGetTextDatum(o->message);
}

static Datum
each_materialize(FunctionCallInfo fcinfo, EachState *st, EachMode mode)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SdCallSite *cs = st->cs;
	MemoryContext caller = CurrentMemoryContext;
	Tuplestorestate *ts;
	ItemOut		o;

	rsinfo->returnMode = SFRM_Materialize;
	if (st->oversize)
	{
		Datum		values[6];
		bool		nulls[6];

		oversize_row(st, &o, values, nulls);
		ts = each_store(fcinfo, st, mode);
		tuplestore_putvalues(ts, rsinfo->setDesc, values, nulls);
	}
	if (cs->row_cxt == NULL)
		cs->row_cxt = AllocSetContextCreate(cs->mcxt, "serde_decode_each row",
											ALLOCSET_DEFAULT_SIZES);
	for (;;)
	{
		bool		got;

		MemoryContextSwitchTo(cs->row_cxt);
		got = each_next(st, &o);
		if (got && mode == EACH_REPORT)
		{
			Datum		values[6];
			bool		nulls[6];

			each_report_values(st, &o, values, nulls);
			ts = each_store(fcinfo, st, mode);
			tuplestore_putvalues(ts, rsinfo->setDesc, values, nulls);
		}
		else if (got)
		{
			bool		isnull;
			Datum		d = each_row_datum(st, &o, &isnull);

			ts = each_store(fcinfo, st, mode);
			if (!st->composite)
				tuplestore_putvalues(ts, rsinfo->setDesc, &d, &isnull);
			else
			{
				HeapTupleData tup;

				pgs_datum_tuple(d, &tup);
				tuplestore_puttuple(ts, &tup);
			}
		}
		MemoryContextSwitchTo(caller);
		MemoryContextReset(cs->row_cxt);
		if (!got)
			break;
	}
	each_end(st);
	return (Datum) 0;
}

static Datum
each_srf(FunctionCallInfo fcinfo, bool typed, EachMode mode, const char *fname)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SdCallSite *cs = fcinfo->flinfo->fn_extra;
	EachState  *st;
	ItemOut		o;
	bool		got;

	/* value-per-call by hand: fn_extra holds the call site, which holds the batch */
	if (cs && cs->batch)
		st = cs->batch;
	else
	{
		bool		materialize = rsinfo && IsA(rsinfo, ReturnSetInfo) &&
			(rsinfo->allowedModes & SFRM_Materialize) &&
			(rsinfo->allowedModes & SFRM_Materialize_Preferred);

		st = each_first_call(fcinfo, typed, mode, fname, materialize);
		if (materialize)
			return each_materialize(fcinfo, st, mode);
	}
	memset(&o, 0, sizeof(o));
	rsinfo->isDone = ExprMultipleResult;
	if (st->oversize)
	{
		/* the whole input is over serde.max_document_bytes: one row, item NULL */
		Datum		values[6];
		bool		nulls[6];

		oversize_row(st, &o, values, nulls);
		PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(st->outdesc, values, nulls)));
	}
	got = each_next(st, &o);
	if (!got)
	{
		each_end(st);
		rsinfo->isDone = ExprEndResult;
		PG_RETURN_NULL();
	}
	if (mode == EACH_REPORT)
	{
		Datum		values[6];
		bool		nulls[6];

		each_report_values(st, &o, values, nulls);
		PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(st->outdesc, values, nulls)));
	}
	{
		bool		isnull;
		Datum		d = each_row_datum(st, &o, &isnull);

		if (isnull)
			PG_RETURN_NULL();
		PG_RETURN_DATUM(d);
	}
}

/* serde_decode_each(target anyelement, doc, shape text DEFAULT '', on_error text DEFAULT 'raise') */
Datum
serde_decode_each_typed(PG_FUNCTION_ARGS)
{
	return each_srf(fcinfo, true, EACH_RAISE, "serde_decode_each");
}

/* serde_decode_each(shape text, doc) RETURNS SETOF record */
Datum
serde_decode_each_shape(PG_FUNCTION_ARGS)
{
	return each_srf(fcinfo, false, EACH_RAISE, "serde_decode_each");
}

/* serde_decode_each_report(target anyelement, doc, shape text DEFAULT '') */
Datum
serde_decode_each_report(PG_FUNCTION_ARGS)
{
	return each_srf(fcinfo, true, EACH_REPORT, "serde_decode_each_report");
}

/* ---- serde_errors_each ----------------------------------------------------------------------------- */

typedef struct ErrorsOut
{
	ReturnSetInfo *rsinfo;		/* the function's: 5 columns */
	ReturnSetInfo item;			/* one item's rows as serde_errors makes them: 4 columns */
	TupleTableSlot *slot;
} ErrorsOut;

/* Moves one item's rows into the result with the item's number in front (NULL: none). */
static void
errors_flush(ErrorsOut *eo, uint64 item, bool has_item)
{
	while (tuplestore_gettupleslot(eo->item.setResult, true, false, eo->slot))
	{
		Datum		values[5];
		bool		nulls[5];

		slot_getallattrs(eo->slot);
		values[0] = Int32GetDatum((int32) Min(item, (uint64) PG_INT32_MAX));
		nulls[0] = !has_item;
		for (int i = 0; i < 4; i++)
		{
			values[i + 1] = eo->slot->tts_values[i];
			nulls[i + 1] = eo->slot->tts_isnull[i];
		}
		tuplestore_putvalues(eo->rsinfo->setResult, eo->rsinfo->setDesc, values, nulls);
	}
	tuplestore_clear(eo->item.setResult);
}

static void
errors_each_text(ErrorsOut *eo, EachState *st)
{
	for (;;)
	{
		const sd_found *found;
		int			n,
					total;
		uint32		root;
		int			r;
		/* XML: the whole document, where the entries' offsets get their line and column */
		SdPgDoc		doc = {st->is_xml ? SD_PG_DOC_XML : SD_PG_DOC_JSON,
			st->is_xml ? st->doc.text : NULL, st->is_xml ? st->doc.len : 0};

		CHECK_FOR_INTERRUPTS();
		r = sd_each_check(st->slot->d, pgs_max_errors, &found, &n, &total, &root);
		if (r == 0)
			return;
		st->item = sd_each_item(st->slot->d);
		if (r == -1 && n > 0 && found[0].code == SD_E_CANCELED)
			pgs_raise_stop();
		pgs_errors_report_at(&eo->item, st->plan, st->node, sd_decoder_tape(st->slot->d), root,
							 found, n, &doc, each_locate, st);
		errors_flush(eo, st->item, true);
		if (r == 3 || r == -1)
			return;
	}
}

static void
errors_each_jsonb(ErrorsOut *eo, EachState *st, MemoryContext mcxt)
{
	JsonbValue	v;

	while (each_jsonb_next(st, &v, mcxt))
	{
		const sd_found *found;
		const sd_val *tape;
		int			n,
					total;
		uint32		root;
		MemoryContext old;
		SdPgDoc		doc = {SD_PG_DOC_JSONB, NULL, 0};

		CHECK_FOR_INTERRUPTS();
		st->item = st->row++;
		MemoryContextReset(st->walkcxt);
		old = MemoryContextSwitchTo(st->walkcxt);
		n = pgs_jsonb_check_element(&v, st->item, st->node, pgs_max_errors, &found, &total,
									&tape, &root);
		pgs_errors_report_at(&eo->item, st->plan, st->node, tape, root, found, n, &doc,
							 each_locate, st);
		MemoryContextSwitchTo(old);
		errors_flush(eo, st->item, true);
	}
}

static Datum
errors_each_common(FunctionCallInfo fcinfo, bool typed)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SdCallSite *cs;
	SdPgPlan   *p = pgs_entry_plan(fcinfo, typed, "serde_errors_each", &cs, false);
	MemoryContext mcxt;
	MemoryContext old;
	EachState  *st;
	ErrorsOut	eo;
	sd_error	err;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(1))
		return (Datum) 0;
	mcxt = AllocSetContextCreate(CurrentMemoryContext, "serde_errors_each",
								 ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(mcxt);
	st = palloc0(sizeof(EachState));
	st->mode = EACH_REPORT;
	st->node = sd_plan_root(p->plan);
	p->refcount++;
	st->plan = p;
	st->cb.func = each_cleanup;
	st->cb.arg = st;
	MemoryContextRegisterResetCallback(mcxt, &st->cb);

	memset(&eo, 0, sizeof(eo));
	eo.rsinfo = rsinfo;
	eo.item.type = T_ReturnSetInfo;
	eo.item.setDesc = CreateTemplateTupleDesc(4);
	TupleDescInitEntry(eo.item.setDesc, 1, "path", TEXTOID, -1, 0);
	TupleDescInitEntry(eo.item.setDesc, 2, "code", TEXTOID, -1, 0);
	TupleDescInitEntry(eo.item.setDesc, 3, "message", TEXTOID, -1, 0);
	TupleDescInitEntry(eo.item.setDesc, 4, "byte_offset", INT8OID, -1, 0);
	eo.item.setResult = tuplestore_begin_heap(false, false, work_mem);
	eo.slot = MakeSingleTupleTableSlot(eo.item.setDesc, &TTSOpsMinimalTuple);

	/* over serde.max_document_bytes: one row for the whole input (item NULL) */
	if (!pgs_doc_size_ok(toast_raw_datum_size(PG_GETARG_DATUM(1)) - VARHDRSZ,
						 cs->doc_jsonb ? SD_PG_DOC_JSONB : cs->doc_xml ? SD_PG_DOC_XML :
						 SD_PG_DOC_JSON, &err))
	{
		pgs_errors_put_error(&eo.item, p, &err);
		errors_flush(&eo, 0, false);
	}
	else
	{
		pgs_doc_get(fcinfo, cs, &st->doc);
		st->is_jsonb = st->doc.is_jsonb;
		st->is_xml = cs->doc_xml;
		if (st->is_jsonb)
		{
			each_jsonb_check(p, st->doc.jb);
			st->it = JsonbIteratorInit(&st->doc.jb->root);
			st->walkcxt = AllocSetContextCreate(mcxt, "serde_errors_each item",
												ALLOCSET_DEFAULT_SIZES);
			errors_each_jsonb(&eo, st, mcxt);
		}
		else
		{
			if (!each_begin(st, p, &err))
			{
				pgs_errors_put_error(&eo.item, p, &err);
				errors_flush(&eo, 0, false);
			}
			else
				errors_each_text(&eo, st);
		}
	}
	ExecDropSingleTupleTableSlot(eo.slot);
	tuplestore_end(eo.item.setResult);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(mcxt);
	return (Datum) 0;
}

/* serde_errors_each(target anyelement, doc [, shape text]) */
Datum
serde_errors_each_typed(PG_FUNCTION_ARGS)
{
	return errors_each_common(fcinfo, true);
}

/* serde_errors_each(shape text, doc) */
Datum
serde_errors_each_shape(PG_FUNCTION_ARGS)
{
	return errors_each_common(fcinfo, false);
}
