/*
 * decode_xml.c — the PostgreSQL side of XML documents: serde_decode / serde_valid / serde_errors
 * on `xml` and their *_xml forms on text reach here from decode.c (which resolves the shape, the
 * target and the NULL rules exactly as for JSON).
 *
 * The document is read by the core's XML reader (src/core/xml_read.c: libxml2's SAX2 push
 * parser with every hostile construct refused, limits enforced, libxml2's process-wide state
 * restored around each call, so PostgreSQL's own xml functions keep their setup).  The reader
 * allocates with malloc and never longjmps; nothing here raises while it is open.
 *
 * The document is decoded by the core (sd_decode_xml / sd_check_xml_found: the XML walker
 * pulled by the rule engine) into a tape converted like JSON's (tape_to_datum.c, which renders
 * XPath paths for XML); every error leaves through errors.c, as for JSON: serde_errors lists
 * the core's violations and the adapter's (domain CHECK, NOT NULL domains) merged in document
 * order, a raised error carries the line and column, a shape option XML does not support is
 * 0A000 (SD_E_UNSUPPORTED).
 */
#include "postgres.h"

#include "access/detoast.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "serde_pg.h"
#include "xml_decode.h"

static const sd_hooks xml_hooks = {
	.alloc = NULL,				/* malloc: the reader never raises */
	.realloc = NULL,
	.free = NULL,
	.should_stop = pgs_should_stop,
	.ud = NULL
};

/* serde.max_document_bytes before detoasting: false with err when the document is over it. */
static bool
xml_size_ok(Datum raw, sd_error *err)
{
	return pgs_doc_size_ok(toast_raw_datum_size(raw) - VARHDRSZ, SD_PG_DOC_XML, err);
}

/* The session's limits and a decoder for one document; the plan is held until it is released. */
static sd_decoder *
xml_decoder(SdPgPlan *plan, sd_limits *lim)
{
	sd_decoder *d;

	pgs_limits(lim);
	lim->stack_budget = 0;		/* the XML walker keeps its own stack (no recursion) */
	d = sd_decoder_create(&xml_hooks);
	if (!d)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	plan->refcount++;
	return d;
}

SdDecodeStatus
pgs_decode_xml(SdPgPlan *plan, const sd_node *node, Datum raw, bool soft, Datum *result,
			   bool *isnull)
{
	sd_limits	lim;
	struct varlena *v;
	sd_decoder *volatile d;
	volatile SdDecodeStatus status = SD_DECODED;
	sd_error	err;

	*result = (Datum) 0;
	*isnull = true;
	if (!xml_size_ok(raw, &err))
	{
		if (soft)
			return SD_INVALID;
		pgs_raise_core_error(plan->display, &err, true);
	}
	v = PG_DETOAST_DATUM_PACKED(raw);
	d = xml_decoder(plan, &lim);
	PG_TRY();
	{
		uint32		root = 0;
		SdPgDoc		doc = {SD_PG_DOC_XML, VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v)};

		if (!sd_decode_xml(d, plan->plan, node, doc.text, doc.len, &lim, &root, &err))
		{
			if (soft && pgs_soft_code(err.code))
				status = SD_INVALID;
			else
				pgs_raise_core_error(plan->display, &err, true);
		}
		else
		{
			SdConvert	cx;

			pgs_convert_init(&cx, plan, sd_decoder_tape(d), soft, &doc, NULL);
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
		sd_decoder_destroy(d);
		pgs_plan_release(plan);
	}
	PG_END_TRY();
	return status;
}

void
pgs_xml_errors(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_node *node, Datum raw)
{
	sd_limits	lim;
	struct varlena *v;
	sd_decoder *volatile d;
	sd_error	err;
	MemoryContext caller = CurrentMemoryContext;
	MemoryContext tmp;

	if (!xml_size_ok(raw, &err))
	{
		/* over serde.max_document_bytes: one 54000 row, like any other document error */
		pgs_errors_put_error(rsinfo, plan, &err);
		return;
	}
	v = PG_DETOAST_DATUM_PACKED(raw);
	tmp = AllocSetContextCreate(caller, "serde_errors", ALLOCSET_DEFAULT_SIZES);
	d = xml_decoder(plan, &lim);
	PG_TRY();
	{
		const sd_found *found;
		int			total = 0;
		uint32		root = UINT32_MAX;
		int			n;
		SdPgDoc		doc = {SD_PG_DOC_XML, VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v)};

		n = sd_check_xml_found(d, plan->plan, node, doc.text, doc.len, &lim, pgs_max_errors,
							   &found, &total, &root);
		MemoryContextSwitchTo(tmp);
		pgs_errors_report(rsinfo, plan, node, sd_decoder_tape(d), root, found, n, &doc);
		MemoryContextSwitchTo(caller);
	}
	PG_FINALLY();
	{
		MemoryContextSwitchTo(caller);
		MemoryContextDelete(tmp);
		sd_decoder_destroy(d);
		pgs_plan_release(plan);
	}
	PG_END_TRY();
}
