/*
 * decode_int.h — what the decode entry points (decode.c) share with the batch entry points
 * (each.c): the backend's decoders, call sites (plan per statement, fn_extra), the document
 * argument and the record forms' column definition lists.  Only decode.c and each.c include it.
 */
#ifndef SERDE_DECODE_INT_H
#define SERDE_DECODE_INT_H

#include "postgres.h"
#include "access/tupconvert.h"
#include "fmgr.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

#include "serde_pg.h"

/*
 * One decoder per nesting level (a domain CHECK or input function may call serde again while a
 * tape is being converted); the first few are kept for the backend's life.  They allocate with
 * malloc: their hooks run inside the C++ walker, where palloc's elog is forbidden.
 */
typedef struct DecoderSlot
{
	sd_decoder *d;
	bool		busy;
	bool		temporary;
} DecoderSlot;

typedef struct SdCallSite
{
	SdPgPlan   *plan;			/* held (one reference) until fn_mcxt is reset */
	uint64		catalog_gen;	/* generations when `plan` was last validated */
	uint64		type_gen;
	Oid			argtype;		/* typed forms: the target type */
	int32		argtypmod;		/* ... and its typmod (numeric(5,2), varchar(2)[]), or -1 */
	bool		doc_jsonb;		/* the document argument is jsonb (else text-like bytes) */
	bool		doc_xml;		/* the document is XML: an xml argument or a *_xml function */
	char	   *shape;			/* the shape name `plan` was found for (named forms) */
	int			shape_len;
	/* the statement this call site last served: its start and where its snapshot stands */
	TimestampTz stmt_start;
	SdSnapMark	stmt_mark;
	uint64		stmt_seq;		/* statements served (numbers them) */
	uint64		plan_seq;		/* the statement `plan` is pinned to */
	SdSnapMark	plan_mark;		/* the snapshot of the statement that fetched `plan` */
	/* record forms under a column definition list that the type's descriptor does not fit */
	TupleConversionMap *rmap;
	TupleDesc	rmap_desc;		/* the blessed descriptor rmap converts to */
	TupleDesc	rmap_from;		/* for this type descriptor ... */
	TupleDesc	rmap_expected;	/* ... and this column definition list */
	MemoryContext mcxt;
	MemoryContextCallback cb;
	/* each.c: the batch this call site is going through (value-per-call), or NULL, and the
	 * memory of its batches (reset after each: a LATERAL call site reads many) */
	struct EachState *batch;
	MemoryContext batch_cxt;
	MemoryContext row_cxt;		/* each.c, materialize mode: one row's conversion */
} SdCallSite;

typedef struct SdDoc
{
	bool		is_jsonb;
	Datum		raw;			/* the argument as passed (possibly toasted) */
	Jsonb	   *jb;				/* jsonb */
	const char *text;			/* text, json, bytea: the bytes */
	size_t		len;
	void	   *copy;			/* memory made by detoasting, or NULL */
} SdDoc;

/* A decoder for this call (pgs_decoder_release gives it back; a batch holds it across calls). */
extern DecoderSlot *pgs_decoder_acquire(void);
extern void pgs_decoder_release(DecoderSlot *slot);
/* The call site, the statement's invalidations and the plan (a reference held by the call
 * site); empty_shape: a third argument '' means the type's one shape (the batch forms' default). */
extern SdPgPlan *pgs_entry_plan(FunctionCallInfo fcinfo, bool typed, const char *fname,
								SdCallSite **csp, bool empty_shape);
/* The document argument (argument 1): size checked, detoasted in CurrentMemoryContext. */
extern void pgs_doc_get(FunctionCallInfo fcinfo, SdCallSite *cs, SdDoc *doc);
extern void pgs_doc_fetch(SdDoc *doc);
extern void pgs_doc_drop(SdDoc *doc);
/* Record forms under a column definition list: the map to it (or NULL) and its descriptor. */
extern TupleConversionMap *pgs_record_map(FunctionCallInfo fcinfo, SdCallSite *cs, SdPgPlan *p,
										  TupleDesc *outdesc);
extern void pgs_datum_tuple(Datum d, HeapTuple tup);
extern Datum pgs_record_remap(Datum d, TupleConversionMap *map);

#endif							/* SERDE_DECODE_INT_H */
