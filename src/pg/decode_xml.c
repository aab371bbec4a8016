/*
 * decode_xml.c — the PostgreSQL side of XML documents (docs/reference.md, "Functions"; issue 13): serde_decode /
 * serde_valid / serde_errors on `xml` and their *_xml forms on text reach here from decode.c
 * (which resolves the shape, the target and the NULL rules exactly as for JSON).
 *
 * The document is read by the core's XML reader (src/core/xml_read.c: libxml2's SAX2 push
 * parser with every hostile construct refused, limits enforced, libxml2's process-wide state
 * restored around each call, so PostgreSQL's own xml functions keep their setup).  The reader
 * allocates with malloc and never longjmps; nothing here raises while it is open.
 *
 * The document is decoded by the core (sd_decode_xml / sd_check_xml_found: the XML walker
 * pulled by the rule engine, engine.c with its XML branch engine_xml.c) into a tape converted
 * like JSON's (convert_init / pgs_convert); serde_errors lists every violation the core finds;
 * a shape option XML does not support raises 0A000 naming it.
 */
#include "postgres.h"

#include "access/detoast.h"
#include "miscadmin.h"

#include "serde_pg.h"
#include "xml_read.h"
#include "engine_xml.h"

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
	Size		size = toast_raw_datum_size(raw) - VARHDRSZ;

	if ((uint64) size <= (uint64) pgs_max_document_bytes)
		return true;
	sd_error_clear(err);
	err->doc = SD_DOC_XML;
	strcpy(err->path, "/");
	sd_error_set(err, SD_E_SIZE, -1, "document of %zu bytes exceeds serde.max_document_bytes (%d)",
				 (size_t) size, pgs_max_document_bytes);
	return false;
}

/* A shape the XML rules do not handle yet (engine_xml.c's unsupported()): 0A000. */
static void
xml_raise(SdPgPlan *plan, sd_error *err)
{
	if (err->code == SD_E_UNSUPPORTED)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s: %s: %s", plan->display, err->path, err->problem)));
	if (err->code == SD_E_CANCELED)
		pgs_raise_stop();
	pgs_raise_core_error(plan->display, err, true);
}


/* The session's limits and a decoder for one document; the plan is held until it is released. */
static sd_decoder *
xml_decoder(SdPgPlan *plan, sd_limits *lim)
{
	sd_decoder *d;

	lim->max_depth = (uint32) pgs_max_depth;
	lim->max_document_bytes = (uint64) pgs_max_document_bytes;
	lim->stack_budget = 0;
	d = sd_decoder_create(&xml_hooks);
	if (!d)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	plan->refcount++;
	return d;
}

/*
 * Decodes the document: true with the row in *result, false with err (soft errors only when
 * soft; the others raise).
 */
static bool
xml_run(SdPgPlan *plan, const sd_node *node, Datum raw, bool soft, bool convert, Datum *result,
		bool *isnull, sd_error *err)
{
	sd_limits	lim;
	struct varlena *v;
	sd_decoder *volatile d;
	volatile bool ok = false;
	volatile bool failed = false;

	if (!xml_size_ok(raw, err))
		return false;
	v = PG_DETOAST_DATUM_PACKED(raw);
	d = xml_decoder(plan, &lim);
	PG_TRY();
	{
		uint32		root = 0;

		ok = sd_decode_xml(d, plan->plan, node, VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), &lim, &root,
						   err);
		if (!ok && (err->code == SD_E_NOMEM || err->code == SD_E_CANCELED ||
					err->code == SD_E_INTERNAL))
			xml_raise(plan, err);
		if (ok && convert)
		{
			SdConvert	cx;

			convert_init(&cx, plan, sd_decoder_tape(d), soft, true, NULL);
			*result = pgs_convert(&cx, node, root, isnull);
			if (cx.failed)
			{
				failed = true;
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
	if (failed)
		return false;
	return ok;
}

SdDecodeStatus
pgs_decode_xml(SdPgPlan *plan, const sd_node *node, Datum doc, bool soft, Datum *result,
				 bool *isnull)
{
	sd_error	err;

	*result = (Datum) 0;
	*isnull = true;
	if (!xml_run(plan, node, doc, soft, true, result, isnull, &err))
	{
		if (soft)
			return SD_INVALID;
		xml_raise(plan, &err);
	}
	return SD_DECODED;
}

int
pgs_xml_errors(SdPgPlan *plan, const sd_node *node, Datum raw, sd_found **out)
{
	sd_limits	lim;
	struct varlena *v;
	sd_decoder *volatile d;
	sd_error	err;
	volatile int n = 0;
	MemoryContext caller = CurrentMemoryContext;

	*out = NULL;
	if (!xml_size_ok(raw, &err))
	{
		sd_found   *f = palloc(sizeof(sd_found));

		f->code = err.code;
		f->seq = 0;
		f->offset = err.offset;
		f->path = pstrdup(err.path);
		f->problem = pstrdup(err.problem);
		*out = f;
		return 1;
	}
	v = PG_DETOAST_DATUM_PACKED(raw);
	d = xml_decoder(plan, &lim);
	PG_TRY();
	{
		const sd_found *found;
		int			total = 0;
		uint32		root = 0;

		n = sd_check_xml_found(d, plan->plan, node, VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), &lim,
							   pgs_max_errors, &found, &total, &root);
		if (n == 1 && (found[0].code == SD_E_NOMEM || found[0].code == SD_E_CANCELED ||
					   found[0].code == SD_E_INTERNAL))
		{
			err.code = found[0].code;
			err.offset = found[0].offset;
			err.doc = SD_DOC_XML;
			err.line = err.column = 0;
			strlcpy(err.path, found[0].path, sizeof(err.path));
			strlcpy(err.problem, found[0].problem, sizeof(err.problem));
			xml_raise(plan, &err);
		}
		if (n > 0)
		{
			sd_found   *f = MemoryContextAlloc(caller, sizeof(sd_found) * n);

			for (int i = 0; i < n; i++)
			{
				f[i] = found[i];
				f[i].path = MemoryContextStrdup(caller, found[i].path);
				f[i].problem = MemoryContextStrdup(caller, found[i].problem);
			}
			*out = f;
		}
	}
	PG_FINALLY();
	{
		sd_decoder_destroy(d);
		pgs_plan_release(plan);
	}
	PG_END_TRY();
	return n;
}
