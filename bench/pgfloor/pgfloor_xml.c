/*
 * bench/pgfloor/pgfloor_xml.c — the libxml2 floor inside the backend (part of serde_bench_floor.so).
 *
 *   CREATE FUNCTION bench.libxml2_floor(text) RETURNS int8
 *       AS 'serde_bench_floor', 'serde_bench_xml_floor' LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
 *
 * A benchmark tool, not part of the serde extension (competitor floor_libxml2 of the XML workloads
 * in bench/workloads/gen.py). Per call: detoast the argument, then one pass of libxml2's SAX2 push
 * parser — the API serde's XML walker is built on (issue 13) — over the whole document, with the
 * options a walker for untrusted input uses (XML_PARSE_NONET | XML_PARSE_IGNORE_ENC: no network,
 * no entity substitution, no DTD loading, the text taken as UTF-8 whatever its declaration says),
 * touching every node: each element's local name, prefix and namespace URI, each attribute's
 * name and value bytes, every run of character data and CDATA, comments and PIs. One parser
 * context per backend, reset per document (xmlCtxtResetPush), as a walker would keep it. Returns
 * the sink (so nothing is optimised away); a document libxml2 finds malformed raises 2200M.
 *
 * No libxml2 global state is changed: errors go to the context's own structured handler
 * (sax.serror), so PostgreSQL's handler (pg_xml_init) is neither replaced nor needed.
 */
#include "postgres.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include "fmgr.h"
#include "miscadmin.h"

typedef struct xf_state
{
	uint64_t	sink;
	bool		failed;
	int			line;
	int			column;
	char		msg[256];
} xf_state;

static xmlParserCtxtPtr xf_ctxt;
static xf_state xf;

static inline void
touch(const xmlChar *s)
{
	if (s)
		xf.sink += (uint64_t) (s[0] + 31 * (size_t) xmlStrlen(s));
}

static void
xf_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
		 int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
		 const xmlChar **attributes)
{
	(void) ctx;
	touch(localname);
	touch(prefix);
	touch(uri);
	for (int i = 0; i < nb_namespaces; i++)
	{
		touch(namespaces[2 * i]);
		touch(namespaces[2 * i + 1]);
	}
	for (int i = 0; i < nb_attributes; i++)
	{
		const xmlChar *const *a = attributes + 5 * i;	/* localname, prefix, URI, value, end */

		touch(a[0]);
		touch(a[1]);
		xf.sink += (uint64_t) (a[4] - a[3]) + (a[4] > a[3] ? a[3][0] : 0);
	}
	xf.sink += (uint64_t) nb_defaulted;
}

static void
xf_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri)
{
	(void) ctx;
	(void) prefix;
	(void) uri;
	xf.sink += localname[0];
}

static void
xf_chars(void *ctx, const xmlChar *ch, int len)
{
	(void) ctx;
	xf.sink += (uint64_t) len + (len > 0 ? ch[0] + ch[len - 1] : 0);
}

static void
xf_comment(void *ctx, const xmlChar *value)
{
	(void) ctx;
	touch(value);
}

static void
xf_pi(void *ctx, const xmlChar *target, const xmlChar *data)
{
	(void) ctx;
	touch(target);
	touch(data);
}

static void
xf_error(void *ctx, xmlErrorPtr e)
{
	(void) ctx;
	if (e->level < XML_ERR_ERROR || xf.failed)
		return;
	xf.failed = true;
	xf.line = e->line;
	xf.column = e->int2;
	snprintf(xf.msg, sizeof(xf.msg), "%s", e->message ? e->message : "malformed XML");
	/* drop libxml2's trailing newline */
	for (size_t n = strlen(xf.msg); n > 0 && xf.msg[n - 1] == '\n'; n--)
		xf.msg[n - 1] = '\0';
}

static xmlSAXHandler xf_sax = {
	.initialized = XML_SAX2_MAGIC,
	.startElementNs = xf_start,
	.endElementNs = xf_end,
	.characters = xf_chars,
	.cdataBlock = xf_chars,
	.ignorableWhitespace = xf_chars,
	.comment = xf_comment,
	.processingInstruction = xf_pi,
	.serror = xf_error,
};

#define XF_OPTIONS (XML_PARSE_NONET | XML_PARSE_IGNORE_ENC)

PG_FUNCTION_INFO_V1(serde_bench_xml_floor);

Datum
serde_bench_xml_floor(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	int			len = (int) VARSIZE_ANY_EXHDR(t);
	uint64_t	sink;

	CHECK_FOR_INTERRUPTS();
	memset(&xf, 0, sizeof(xf));
	if (!xf_ctxt)
	{
		xmlInitParser();
		xf_ctxt = xmlCreatePushParserCtxt(&xf_sax, NULL, NULL, 0, NULL);
		if (!xf_ctxt)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("libxml2 floor: no parser context")));
	}
	else if (xmlCtxtResetPush(xf_ctxt, NULL, 0, NULL, NULL) != 0)
		ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("libxml2 floor: xmlCtxtResetPush failed")));
	xmlCtxtUseOptions(xf_ctxt, XF_OPTIONS);
	xmlParseChunk(xf_ctxt, VARDATA_ANY(t), len, 1);
	if (!xf.failed && (!xf_ctxt->wellFormed || !xf_ctxt->nsWellFormed))
	{
		xf.failed = true;
		snprintf(xf.msg, sizeof(xf.msg), "malformed XML");
	}
	sink = xf.sink;
	if (xf_ctxt->myDoc)
	{
		xmlFreeDoc(xf_ctxt->myDoc);
		xf_ctxt->myDoc = NULL;
	}
	PG_FREE_IF_COPY(t, 0);
	if (xf.failed)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_XML_DOCUMENT),
				 errmsg("libxml2 floor: %s", xf.msg),
				 errdetail("at line %d, column %d", xf.line, xf.column)));
	PG_RETURN_INT64((int64) sink);
}
