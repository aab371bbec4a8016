/*
 * errors.c — the one error path of the PostgreSQL host: every error a decode reports, whatever
 * the input format (JSON text, jsonb, XML), leaves through here.  It maps the core's codes to
 * SQLSTATEs (SD_E_UNSUPPORTED is ERRCODE_FEATURE_NOT_SUPPORTED, SD_E_NOMEM out of memory, a
 * stop the pending interrupt's own error), raises "<shape>: <path>: <problem>" with the location
 * in DETAIL (line, column and byte offset for JSON text, located only here, as an error is
 * raised; line and column for XML; none for jsonb), says which
 * codes serde_valid / serde_errors answer softly, applies the document limits (serde.max_depth,
 * serde.max_document_bytes, the stack left), re-raises other types' errors with the value's path
 * prefixed, records the adapter's own violations (domain CHECK, NOT NULL domains, storage
 * limits) found while converting, and merges them among the core's violations as serde_errors'
 * rows in document order.  Nothing else in src/pg calls ereport for a document's error.
 */
#include "postgres.h"

#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "serde_pg.h"
#include "xml_read.h"

/* ---- SQLSTATEs ---------------------------------------------------------------------------------- */

void
pgs_require_utf8(void)
{
	if (GetDatabaseEncoding() != PG_UTF8)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("serde requires the server encoding UTF8, not %s",
						GetDatabaseEncodingName())));
}

/* The SQLSTATE of a core code: the core's table (error.c), packed for errcode(). */
int
pgs_sqlstate(sd_code code)
{
	const char *s;

	switch (code)
	{
		case SD_E_UNSUPPORTED:
			return ERRCODE_FEATURE_NOT_SUPPORTED;
		case SD_E_NOMEM:
			return ERRCODE_OUT_OF_MEMORY;
		case SD_E_CANCELED:
			return ERRCODE_QUERY_CANCELED;
		default:
			break;
	}
	s = sd_code_sqlstate(code);
	if (s == NULL || strlen(s) != 5)
		return ERRCODE_INTERNAL_ERROR;
	return MAKE_SQLSTATE(s[0], s[1], s[2], s[3], s[4]);
}

/*
 * Document errors serde_valid answers with false (and serde_errors with a row), among them a
 * limit the document exceeds — serde.max_depth (or the stack behind it), serde.max_document_bytes
 * (docs/reference.md, serde_valid); memory, cancels, a shape feature the input format does not
 * support and bugs still raise.
 */
bool
pgs_soft_code(sd_code code)
{
	switch (code)
	{
		case SD_E_DEPTH:
		case SD_E_SIZE:
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

/* ---- stops ------------------------------------------------------------------------------------ */

/*
 * Only an interrupt that ends the query stops the core: InterruptPending alone is also set for
 * interrupts PostgreSQL merely services (client_connection_check_interval's timer, another
 * session's pg_log_backend_memory_contexts, a procsignal barrier, a config reload), and stopping
 * for those threw away the work done so far.  Those wait for the next CHECK_FOR_INTERRUPTS after
 * the core returns (at most one row of serde_decode_each, or the whole document otherwise).
 */
bool
pgs_should_stop(void *ud)
{
	if ((QueryCancelPending || ProcDiePending || ClientConnectionLost) &&
		INTERRUPTS_CAN_BE_PROCESSED())
		return true;
	return stack_is_too_deep();
}

/* A core call stopped (SD_E_CANCELED): raise what stopped it.  Nothing is retried. */
void
pgs_raise_stop(void)
{
	CHECK_FOR_INTERRUPTS();
	check_stack_depth();
	/* the interrupt was served without an error (it cannot be, short of a bug): still stop */
	ereport(ERROR,
			(errcode(ERRCODE_QUERY_CANCELED),
			 errmsg("canceling statement: serde decode interrupted")));
}

/* ---- locations ---------------------------------------------------------------------------------- */

/*
 * The 1-based line and column of byte offset `offset` of an XML document, counted by the core's
 * XML reader exactly as it counts its own errors' (sd_xr_locate).  Only error paths get here.
 */
void
pgs_xml_locate(const char *doc, size_t len, int64 offset, uint32 *line, uint32 *column)
{
	sd_error	err;
	sd_xreader *r;

	*line = *column = 0;
	if (doc == NULL || offset < 0)
		return;
	r = sd_xr_open(NULL, doc, len, NULL, &err);
	if (r == NULL)
		return;					/* out of memory: no location */
	sd_xr_locate(r, offset, line, column);
	sd_xr_close(r);
}

/* The core error of a document error the adapter found at offset (-1: unknown) of doc. */
static void
where_of(const SdPgDoc *doc, int64 offset, char *where, size_t size)
{
	sd_error	e;

	sd_error_clear(&e);
	e.offset = offset;
	if (doc == NULL || doc->kind == SD_PG_DOC_JSONB)
		e.offset = -1;
	else if (doc->kind == SD_PG_DOC_XML)
	{
		e.doc = SD_DOC_XML;
		pgs_xml_locate(doc->text, doc->len, offset, &e.line, &e.column);
	}
	else
		sd_error_locate_json(&e, doc->text, doc->len);
	sd_error_location(&e, where, size);
}

/* ---- raising ------------------------------------------------------------------------------------ */

/* Raises what the core formatted: its message, its SQLSTATE, its location as DETAIL. */
void
pgs_raise_core_error(const char *prefix, const sd_error *err, bool offsets)
{
	pgs_raise_core_error_hint(prefix, err, offsets, NULL);
}

/* The same with a HINT (NULL: none). */
void
pgs_raise_core_error_hint(const char *prefix, const sd_error *err, bool offsets,
						  const char *hint)
{
	size_t		size = strlen(prefix) + SD_PATH_MAX + SD_PROBLEM_MAX + 8;
	char	   *msg = palloc(size);
	char		where[64];

	if (err->code == SD_E_CANCELED)
		pgs_raise_stop();
	if (err->code == SD_E_NOMEM)
	{
		sd_message(msg, size, prefix, "", err->problem);
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("%s", msg)));
	}
	sd_error_message(err, prefix, msg, size);
	if (!offsets)
		where[0] = '\0';
	else
		sd_error_location(err, where, sizeof(where));
	ereport(ERROR,
			(errcode(pgs_sqlstate(err->code)),
			 errmsg("%s", msg),
			 where[0] ? errdetail("%s", where) : 0,
			 hint ? errhint("%s", hint) : 0));
}

/* One entry of a core's found list (serde_errors' mode) raised like the first-error mode's. */
void
pgs_raise_found(const char *prefix, const sd_found *f, const SdPgDoc *doc)
{
	sd_error	err;

	sd_error_clear(&err);
	err.code = f->code;
	err.offset = f->offset;
	strlcpy(err.path, f->path, sizeof(err.path));
	strlcpy(err.problem, f->problem, sizeof(err.problem));
	if (doc && doc->kind == SD_PG_DOC_XML)
	{
		err.doc = SD_DOC_XML;
		pgs_xml_locate(doc->text, doc->len, f->offset, &err.line, &err.column);
	}
	else if (doc && doc->kind == SD_PG_DOC_JSON)
		sd_error_locate_json(&err, doc->text, doc->len);
	pgs_raise_core_error(prefix, &err, doc != NULL && doc->kind != SD_PG_DOC_JSONB);
}

/*
 * A violation the adapter found while converting (a domain CHECK or NOT NULL domain, a storage
 * limit): "<prefix><problem>" (prefix "<shape>: <path>: ") with its location in DETAIL; while a
 * `default` is converted (option_path), 22023 without one.
 */
void
pgs_raise_value(const char *prefix, int sqlstate, const char *problem, const SdPgDoc *doc,
				int64 offset, bool option)
{
	char		where[64];

	if (option)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s%s", prefix, problem)));
	where_of(doc, offset, where, sizeof(where));
	ereport(ERROR,
			(errcode(sqlstate),
			 errmsg("%s%s", prefix, problem),
			 where[0] ? errdetail("%s", where) : 0));
}

void
pgs_rethrow_prefixed(MemoryContext oldcxt, const char *prefix, int sqlstate)
{
	ErrorData  *ed;

	MemoryContextSwitchTo(oldcxt);
	ed = CopyErrorData();
	/* cancels, shutdowns, out-of-memory and internal errors pass through untouched */
	if (ed->elevel != ERROR ||
		ERRCODE_TO_CATEGORY(ed->sqlerrcode) == ERRCODE_OPERATOR_INTERVENTION ||
		ERRCODE_TO_CATEGORY(ed->sqlerrcode) == ERRCODE_INSUFFICIENT_RESOURCES ||
		ERRCODE_TO_CATEGORY(ed->sqlerrcode) == ERRCODE_PROGRAM_LIMIT_EXCEEDED ||
		ERRCODE_TO_CATEGORY(ed->sqlerrcode) == ERRCODE_INTERNAL_ERROR)
	{
		FreeErrorData(ed);
		PG_RE_THROW();
	}
	FlushErrorState();
	ed->message = psprintf("%s%s", prefix, ed->message ? ed->message : "");
	if (sqlstate)
		ed->sqlerrcode = sqlstate;

	/*
	 * ReThrowError copies the message fields but keeps these pointers as they are, and the copy
	 * made above lives in a context that may be deleted while the error propagates (a plan's
	 * default conversion): point them at static strings instead (found by valgrind).
	 */
	ed->filename = NULL;
	ed->funcname = NULL;
	ed->domain = PG_TEXTDOMAIN("postgres");
	ed->context_domain = PG_TEXTDOMAIN("postgres");
	ed->message_id = NULL;
	ReThrowError(ed);
}

/* ---- limits --------------------------------------------------------------------------------------- */

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

/* The limits of a decode: serde.max_depth, serde.max_document_bytes and the stack left. */
void
pgs_limits(sd_limits *lim)
{
	lim->max_depth = (uint32) pgs_max_depth;
	lim->max_document_bytes = (uint64) pgs_max_document_bytes;
	lim->stack_budget = stack_budget();
}

/*
 * serde.max_document_bytes for a document of `size` bytes, checked before it is detoasted (a
 * jsonb document: its binary size; the core raises the same for the text it is given): false
 * with err (54000 at the root, "$" or "/") when it is over.
 */
bool
pgs_doc_size_ok(Size size, SdPgDocKind kind, sd_error *err)
{
	if ((uint64) size <= (uint64) pgs_max_document_bytes)
		return true;
	sd_error_clear(err);
	if (kind == SD_PG_DOC_XML)
	{
		err->doc = SD_DOC_XML;
		strcpy(err->path, "/");
	}
	else
		strcpy(err->path, "$");
	sd_error_set(err, SD_E_SIZE, -1, "%sdocument of %zu bytes exceeds serde.max_document_bytes (%d)",
				 kind == SD_PG_DOC_JSONB ? "jsonb " : "", (size_t) size, pgs_max_document_bytes);
	return false;
}

void
pgs_check_doc_size(const char *prefix, Size size, SdPgDocKind kind)
{
	sd_error	err;

	if (!pgs_doc_size_ok(size, kind, &err))
		pgs_raise_core_error(prefix, &err, false);
}

/* ---- the adapter's own violations (serde_errors) ------------------------------------------------- */

static int
found_cmp(const void *a, const void *b)
{
	const SdPgFound *x = a;
	const SdPgFound *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Sorts cx->found by (key, order) and keeps the first max_found. */
void
pgs_found_sort(SdConvert *cx)
{
	if (cx->nfound > 1)
		qsort(cx->found, cx->nfound, sizeof(SdPgFound), found_cmp);
	for (int i = cx->max_found; i < cx->nfound; i++)
	{
		pfree(cx->found[i].path);
		pfree(cx->found[i].problem);
	}
	if (cx->nfound > cx->max_found)
		cx->nfound = cx->max_found;
}

/* Records one violation the adapter found at path (offset: the value's, -1 unknown). */
void
pgs_found_add(SdConvert *cx, const char *path, int64 offset, int sqlstate, const char *problem)
{
	SdPgFound  *e;

	if (cx->nfound >= cx->found_cap)
	{
		/* at most max_found can be reported: keep the list near that */
		if ((int64) cx->nfound >= 2 * (int64) cx->max_found)
			pgs_found_sort(cx);
		if (cx->nfound >= cx->found_cap)
		{
			cx->found_cap = cx->found_cap ? cx->found_cap * 2 : 16;
			cx->found = cx->found ?
				repalloc_huge(cx->found, sizeof(SdPgFound) * (Size) cx->found_cap) :
				palloc(sizeof(SdPgFound) * cx->found_cap);
		}
	}
	e = &cx->found[cx->nfound];
	e->key = cx->key;
	e->order = (uint32) cx->nfound;
	e->sqlstate = sqlstate;
	e->offset = cx->doc.kind == SD_PG_DOC_JSONB ? -1 : offset;
	e->path = pstrdup(path);
	e->problem = pstrdup(problem);
	cx->nfound++;
}

/* ---- serde_errors' rows ------------------------------------------------------------------------- */

/* One row: (path, code, message "<shape>: <path>: <problem>", byte_offset or NULL). */
static void
errors_put(ReturnSetInfo *rsinfo, SdPgPlan *plan, const char *path, const char *sqlstate,
		   const char *problem, int64 offset)
{
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};
	char	   *message;

	values[0] = CStringGetTextDatum(path);
	values[1] = CStringGetTextDatum(sqlstate);
	message = psprintf("%s: %s: %s", plan->display, path, problem);
	values[2] = PointerGetDatum(cstring_to_text(message));
	pfree(message);
	if (offset >= 0)
		values[3] = Int64GetDatum(offset);
	else
	{
		values[3] = (Datum) 0;
		nulls[3] = true;
	}
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	/* the tuplestore has its copy: a row's memory does not add up over many rows */
	for (int i = 0; i < 3; i++)
		pfree(DatumGetPointer(values[i]));
}

static void
errors_put_found(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_found *f, SdPgDocKind kind)
{
	errors_put(rsinfo, plan, f->path, unpack_sql_state(pgs_sqlstate(f->code)), f->problem,
			   kind == SD_PG_DOC_JSONB ? -1 : f->offset);
}

/* The one row of a document error found before the document was read (a limit). */
void
pgs_errors_put_error(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_error *e)
{
	errors_put(rsinfo, plan, e->path, unpack_sql_state(pgs_sqlstate(e->code)), e->problem, -1);
}

/*
 * What the core found that is no document error (memory, a cancel, a shape feature the format
 * does not support, a bug) raises instead of making rows, as serde_decode would raise it.
 */
void
pgs_errors_raise_hard(SdPgPlan *plan, const sd_found *found, int n, const SdPgDoc *doc)
{
	for (int k = 0; k < n; k++)
		if (!pgs_soft_code(found[k].code))
			pgs_raise_found(plan->display, &found[k], doc);
}

/*
 * serde_errors' rows: the core's violations (found[0..n), document order) and, merged among them,
 * the adapter's (cx->found, sorted; NULL when the document was never converted): an adapter's
 * violation of a value goes after the core's found before that value was complete.  At most
 * serde.max_errors rows.
 */
void
pgs_errors_put_merged(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_found *found, int n,
					  const SdConvert *cx, SdPgDocKind kind)
{
	int			i = 0,
				j = 0;
	int			m = cx ? cx->nfound : 0;

	for (int rows = 0; rows < pgs_max_errors && (i < n || j < m); rows++)
	{
		if (j >= m || (i < n && found[i].seq < cx->found[j].key))
		{
			errors_put_found(rsinfo, plan, &found[i], kind);
			i++;
		}
		else
		{
			errors_put(rsinfo, plan, cx->found[j].path, unpack_sql_state(cx->found[j].sqlstate),
					   cx->found[j].problem, cx->found[j].offset);
			j++;
		}
	}
}
