/*
 * decode_xml.c — the PostgreSQL side of XML documents (DESIGN §1, issue 13): serde_decode /
 * serde_valid / serde_errors on `xml` and their *_xml forms on text reach here from decode.c
 * (which resolves the shape, the target and the NULL rules exactly as for JSON).
 *
 * The document is read by the core's XML reader (src/core/xml_read.c: libxml2's SAX2 push
 * parser with every hostile construct refused, limits enforced, libxml2's process-wide state
 * restored around each call, so PostgreSQL's own xml functions keep their setup).  The reader
 * allocates with malloc and never longjmps; nothing here raises while it is open.
 *
 * STATE OF THIS FILE: the XML walker that drives the rule engine (src/core/xml_walk.c) does
 * not exist yet.  Until it does, a document is read through (so malformed XML is 2200M with
 * its line and column, a limit is 54001 / 54000, serde_valid answers false for those), and a
 * well-formed document raises 0A000 (feature_not_supported) instead of decoding.
 */
#include "postgres.h"

#include "access/detoast.h"
#include "miscadmin.h"

#include "serde_pg.h"
#include "xml_read.h"

static const sd_hooks xml_hooks = {
	.alloc = NULL,				/* malloc: the reader never raises */
	.realloc = NULL,
	.free = NULL,
	.should_stop = sd_pg_should_stop,
	.ud = NULL
};

/* serde.max_document_bytes before detoasting: false with err when the document is over it. */
static bool
xml_size_ok(Datum raw, sd_error *err)
{
	Size		size = toast_raw_datum_size(raw) - VARHDRSZ;

	if ((uint64) size <= (uint64) sd_pg_max_document_bytes)
		return true;
	sd_error_clear(err);
	err->doc = SD_DOC_XML;
	strcpy(err->path, "/");
	sd_error_set(err, SD_E_SIZE, -1, "document of %zu bytes exceeds serde.max_document_bytes (%d)",
				 (size_t) size, sd_pg_max_document_bytes);
	return false;
}

/*
 * Reads the whole document: true when it is well-formed XML within the limits, else false
 * with the document error.  A cancel or an out-of-memory raises (after the reader is closed).
 */
static bool
xml_read_through(SdPgPlan *plan, Datum raw, sd_error *err)
{
	sd_limits	lim;
	struct varlena *v;
	bool		ok;

	if (!xml_size_ok(raw, err))
		return false;
	v = PG_DETOAST_DATUM_PACKED(raw);
	lim.max_depth = (uint32) sd_pg_max_depth;
	lim.max_document_bytes = (uint64) sd_pg_max_document_bytes;
	lim.stack_budget = 0;
	ok = sd_xml_check_document(&xml_hooks, VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), &lim, err);
	if ((Pointer) v != DatumGetPointer(raw))
		pfree(v);
	if (!ok && err->code == SD_E_CANCELED)
		sd_pg_raise_stop();
	if (!ok && err->code == SD_E_NOMEM)
		sd_pg_raise_core_error(plan->display, err, true);
	return ok;
}

static void
xml_not_yet(SdPgPlan *plan) pg_attribute_noreturn();

static void
xml_not_yet(SdPgPlan *plan)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s: decoding XML into a shape is not available yet", plan->display),
			 errdetail("The document is well-formed XML; this build of serde reads XML but has no XML walker for its rule engine yet.")));
}

SdDecodeStatus
sd_pg_decode_xml(SdPgPlan *plan, const sd_node *node, Datum doc, bool soft, Datum *result,
				 bool *isnull)
{
	sd_error	err;

	*result = (Datum) 0;
	*isnull = true;
	if (!xml_read_through(plan, doc, &err))
	{
		if (soft)
			return SD_INVALID;	/* malformed, or a limit: document errors (DESIGN §1) */
		sd_pg_raise_core_error(plan->display, &err, true);
	}
	xml_not_yet(plan);
}

bool
sd_pg_xml_errors(SdPgPlan *plan, const sd_node *node, Datum doc, sd_error *err)
{
	if (!xml_read_through(plan, doc, err))
		return false;
	xml_not_yet(plan);
}
