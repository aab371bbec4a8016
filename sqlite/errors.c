/*
 * errors.c — the one error path of the SQLite adapter: every failure of a serde function, of the
 * virtual table `serde` and of the table-valued functions (serde_errors, serde_errors_xml,
 * serde_cache_stats) becomes an SQLite result code and message here, and nowhere else.
 *
 * An error is an sq_err: a code (the core's sd_code, or one of the adapter's SQ_E_*), the
 * message, and, when an SQLite call failed (reading or writing serde_shapes), that call's result
 * code, passed on as is (SQLITE_BUSY, SQLITE_READONLY, SQLITE_INTERRUPT, ...).  The table of
 * result codes is docs/reference.md's (SQLite section): one result code per condition, whatever
 * the input format (JSON or XML).  Messages read `<shape>: <path>: <problem>` (the core's
 * sd_message) in SQLite's words: the core's problems name PostgreSQL's settings for the limits
 * (serde.max_depth, ...), which SQLite does not have; they are said as "the depth limit" etc.
 * Malformed input (22P02, 2200M) gives its location after the message, as PostgreSQL's DETAIL:
 * `(at line L, column C, byte offset N)` for JSON (located by the caller as it reports the error:
 * sd_error_locate_json), `(at line L, column C)` for XML.
 *
 * Depends on nothing else in sqlite/ (the bottom of its call graph).
 */
#include "serde_sqlite.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *
sq_sqlstate(sd_code code)
{
	switch ((int) code)
	{
		case SQ_E_UNDEFINED:
			return "42704";
		case SQ_E_NULL:
			return "22004";
		case SQ_E_USAGE:
			return "42601";
		case SQ_E_HOST:
			return "58000";
		case SQ_E_REENTRY:
			return "54P01";
		case SQ_E_CATALOG:
			return "42809";
		default:
			return sd_code_sqlstate(code);
	}
}

int
sq_result_code(sd_code code)
{
	switch ((int) code)
	{
		case SD_E_KIND:
		case SD_E_MISSING:
		case SD_E_UNKNOWN:
		case SD_E_DUPLICATE:
		case SD_E_RANGE:
		case SD_E_DATETIME:
		case SD_E_LENGTH:
		case SD_E_XML_KIND:
			return SQLITE_MISMATCH;
		case SD_E_NOTNULL:
			return SQLITE_CONSTRAINT_NOTNULL;
		case SD_E_CHECK:
			return SQLITE_CONSTRAINT_CHECK;
		case SD_E_DEPTH:
		case SD_E_SIZE:
			return SQLITE_TOOBIG;
		case SD_E_NOMEM:
			return SQLITE_NOMEM;
		case SD_E_CANCELED:
			return SQLITE_INTERRUPT;
		case SD_E_INTERNAL:
			return SQLITE_INTERNAL;
		default:
			/* syntax (JSON, XML), options, unsupported, unknown or NULL shape, usage,
			 * re-entry */
			return SQLITE_ERROR;
	}
}

bool
sq_code_is_document(sd_code code)
{
	switch ((int) code)
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
		case SD_E_DEPTH:
		case SD_E_SIZE:
		case SD_E_XML_SYNTAX:
		case SD_E_XML_KIND:
			return true;
		default:
			return false;
	}
}

/* PostgreSQL's setting names in the core's problems, and what SQLite calls the limit. */
static const struct
{
	const char *pg;
	const char *sqlite;
} wording[] = {
	{"serde.max_document_bytes", "the document size limit"},
	{"serde.max_plan_bytes", "the plan size limit"},
	{"serde.max_depth", "the depth limit"},
	{"serde.max_errors", "the error limit"},
};

/* problem in SQLite's words, into out (NUL-terminated). */
static void
sqlite_wording(const char *problem, char *out, size_t size)
{
	size_t		n = 0;

	while (*problem && n + 1 < size)
	{
		size_t		i;

		for (i = 0; i < sizeof(wording) / sizeof(wording[0]); i++)
		{
			size_t		len = strlen(wording[i].pg);

			if (strncmp(problem, wording[i].pg, len) == 0)
			{
				size_t		r = strlen(wording[i].sqlite);

				if (n + r >= size)
					r = size - n - 1;
				memcpy(out + n, wording[i].sqlite, r);
				n += r;
				problem += len;
				break;
			}
		}
		if (i == sizeof(wording) / sizeof(wording[0]))
			out[n++] = *problem++;
	}
	out[n] = '\0';
}

char *
sq_message(const char *shape, const char *path, const char *problem)
{
	char		words[SD_PROBLEM_MAX + 64];
	char		buf[SD_SHAPE_NAME_MAX * 4 + SD_PATH_MAX + SD_PROBLEM_MAX + 72];

	sqlite_wording(problem ? problem : "", words, sizeof(words));
	sd_message(buf, sizeof(buf), shape, path ? path : "", words);
	return sqlite3_mprintf("%s", buf);
}

void
sq_err_clear(sq_err *e)
{
	sqlite3_free(e->msg);
	e->msg = NULL;
	e->code = SD_OK;
	e->rc = 0;
	e->offset = -1;
}

static void
err_text(sq_err *e, sd_code code, char *msg)
{
	sqlite3_free(e->msg);
	e->msg = msg;
	e->code = code;
	e->rc = 0;
	e->offset = -1;
}

void
sq_err_core(sq_err *e, const char *shape, const sd_error *err)
{
	if (err->code == SD_E_NOMEM)
		err_text(e, SD_E_NOMEM, sqlite3_mprintf("serde: out of memory"));
	else if (err->code == SD_E_CANCELED)
		err_text(e, SD_E_CANCELED, sqlite3_mprintf("%s: interrupted", shape));
	else if ((err->code == SD_E_SYNTAX || err->code == SD_E_XML_SYNTAX) && err->line > 0)
	{
		/* malformed input: where, as PostgreSQL's DETAIL says it (SQLite has no DETAIL) */
		char		where[96];
		char	   *m = sq_message(shape, err->path, err->problem);

		sd_error_location(err, where, sizeof(where));
		err_text(e, err->code, m ? sqlite3_mprintf("%s (%s)", m, where) : NULL);
		sqlite3_free(m);
	}
	else
		err_text(e, err->code, sq_message(shape, err->path, err->problem));
	e->offset = err->offset;
}

void
sq_err_found(sq_err *e, const char *shape, const sd_plan *xml_plan, const sd_found *f)
{
	sd_error	err;

	sd_error_clear(&err);
	err.code = f->code;
	err.offset = f->offset;
	snprintf(err.path, sizeof(err.path), "%s", f->path ? f->path : "");
	snprintf(err.problem, sizeof(err.problem), "%s", f->problem ? f->problem : "");
	if (xml_plan)
		sq_err_core_xml(e, shape, xml_plan, &err);
	else
		sq_err_core(e, shape, &err);
}

void
sq_err_printf(sq_err *e, sd_code code, const char *fmt,...)
{
	va_list		ap;
	char	   *msg;

	va_start(ap, fmt);
	msg = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	err_text(e, code, msg);
}

void
sq_err_sqlite(sq_err *e, sqlite3 *db, int rc, const char *what)
{
	sd_code		code;

	switch (rc & 0xff)
	{
		case SQLITE_NOMEM:
			code = SD_E_NOMEM;
			break;
		case SQLITE_INTERRUPT:
			code = SD_E_CANCELED;
			break;
		default:
			code = SQ_E_HOST;
	}
	err_text(e, code, sqlite3_mprintf("serde: %s: %s", what, sqlite3_errmsg(db)));
	e->rc = rc;
}

int
sq_err_rc(const sq_err *e)
{
	if (e->rc != 0)
		return e->rc;
	return sq_result_code(e->code);
}

void
sq_result_err(sqlite3_context *ctx, sq_err *e)
{
	if (e->code == SD_E_NOMEM)
		sqlite3_result_error_nomem(ctx);
	else
	{
		sqlite3_result_error(ctx, e->msg ? e->msg : "serde: error", -1);
		sqlite3_result_error_code(ctx, sq_err_rc(e));
	}
	sq_err_clear(e);
}

int
sq_vtab_err(sqlite3_vtab *vt, sq_err *e)
{
	int			rc = sq_err_rc(e);

	sqlite3_free(vt->zErrMsg);
	vt->zErrMsg = e->code == SD_E_NOMEM ? NULL : e->msg;
	if (e->code == SD_E_NOMEM)
		sqlite3_free(e->msg);
	e->msg = NULL;
	sq_err_clear(e);
	return rc;
}

int
sq_err_take(sq_err *e, char **pzErr)
{
	int			rc = sq_err_rc(e);

	*pzErr = e->msg;
	e->msg = NULL;
	sq_err_clear(e);
	return rc;
}

/* ---- XML into a json field ---------------------------------------------------------------
 * The core reports a json field it meets in XML (other than `extra`) as SD_E_UNSUPPORTED, in
 * PostgreSQL's words (a json/jsonb column, an xml column): SQLite says it in its own (decided by
 * the code and the plan, never by the message's text). */

static bool
has_json_field(const sd_node *n, int depth)
{
	if (!n || depth > 64)
		return false;
	if (n->kind == SD_K_JSON || n->kind == SD_K_JSONB)
		return true;
	if (n->kind == SD_K_ARRAY)
		return has_json_field(n->elem, depth + 1);
	if (n->kind == SD_K_COMPOSITE)
		for (int i = 0; i < n->nfields; i++)
			if (!n->fields[i].is_extra && !n->fields[i].skip &&
				has_json_field(n->fields[i].node, depth + 1))
				return true;
	return false;
}

void
sq_err_core_xml(sq_err *e, const char *shape, const sd_plan *plan, const sd_error *err)
{
	if (err->code == SD_E_UNSUPPORTED && has_json_field(sd_plan_root(plan), 0))
	{
		sd_error	u = *err;

		u.code = SD_E_UNSUPPORTED;
		snprintf(u.problem, sizeof(u.problem), "a json field cannot be decoded from XML");
		sq_err_core(e, shape, &u);
		return;
	}
	sq_err_core(e, shape, err);
}
