/*
 * each_vtab.c — the SQLite adapter's batch functions, eponymous table-valued functions over a
 * JSON array or newline-delimited JSON (docs/reference.md, "Batches and dead letters"):
 *
 *     SELECT * FROM serde_decode_each(shape, doc [, on_error]);  -- item, value
 *     SELECT * FROM serde_decode_each_report(shape, doc);        -- item, ok, value, code, path, message
 *     SELECT * FROM serde_errors_each(shape, doc);               -- item, path, code, message, byte_offset
 *
 * and their *_xml forms (serde_decode_each_xml, serde_decode_each_report_xml,
 * serde_errors_each_xml) over an XML document whose root element's children are the items (the
 * core's xml_each.c; items numbered from 1, XPath paths "/Batch/Item[3]/Size"): the same cursor,
 * the table's `xml` flag choosing the core's sd_each_begin_xml.
 *
 * value is the item's row as canonical JSON text (as serde_decode returns it, with the JSON
 * subtype); item is an array element's 0-based index or an NDJSON line's 1-based number (as the
 * paths name them).  on_error is 'raise' (the default: the first bad item fails the statement)
 * or 'skip' (bad items are left out).  Items are read one at a time, as xNext asks for them
 * (the core's sd_each_*: one item's copy at a time), so a LIMIT stops the reading; the cursor
 * keeps its own copy of the document (SQLite's argument values live only as long as xFilter).
 * What is no fault of a document (out of memory, an interrupt, a bug) is raised, with the
 * result code of errors.c, as are the limits of the whole input (1 GB).
 *
 * Calls conn.c, cache.c and errors.c.
 */
#include "serde_sqlite.h"

#include <stdlib.h>
#include <string.h>

typedef enum eh_kind
{
	EH_DECODE,                  /* serde_decode_each */
	EH_REPORT,                  /* serde_decode_each_report */
	EH_ERRORS                   /* serde_errors_each */
} eh_kind;

static const char *const eh_names[] = {"serde_decode_each", "serde_decode_each_report",
	"serde_errors_each", "serde_decode_each_xml", "serde_decode_each_report_xml",
"serde_errors_each_xml"};

static const char *const eh_schemas[] = {
	"CREATE TABLE x(item INTEGER, value TEXT, shape HIDDEN, doc HIDDEN, on_error HIDDEN)",
	"CREATE TABLE x(item INTEGER, ok INTEGER, value TEXT, code TEXT, path TEXT, message TEXT, "
	"shape HIDDEN, doc HIDDEN)",
	"CREATE TABLE x(item INTEGER, path TEXT, code TEXT, message TEXT, byte_offset INTEGER, "
	"shape HIDDEN, doc HIDDEN)"
};

/* the first hidden column of each kind */
static const int eh_hidden[] = {2, 6, 5};

typedef struct eh_tab
{
	sqlite3_vtab base;
	sq_conn    *c;
	eh_kind		kind;
	bool		xml;            /* the *_xml forms */
} eh_tab;

/* the function's name (messages) */
#define EH_NAME(t) (eh_names[(t)->kind + ((t)->xml ? 3 : 0)])

typedef struct eh_cursor
{
	sqlite3_vtab_cursor base;
	sq_shape   *s;
	sd_decoder *d;
	char	   *doc;            /* the cursor's copy of the document */
	bool		skip;           /* on_error 'skip' */
	bool		eof;
	sqlite3_int64 rowid;
	/* the current row */
	sqlite3_int64 item;
	bool		has_item;
	bool		ok;
	sd_buf		value;          /* ok: the row's JSON */
	sd_error	err;            /* not ok (report): its first error */
	const sd_found *found;      /* errors: the item's errors, found[i] current */
	int			n;
	int			i;
	int			status;         /* errors: the last sd_each_check status */
	sd_found	one;            /* errors: the one row of a limit of the whole input */
} eh_cursor;

static int
eh_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		   char **err, eh_kind kind, bool xml)
{
	eh_tab	   *t;
	int			rc;

	(void) argc;
	(void) argv;
	(void) err;
	rc = sqlite3_declare_vtab(db, eh_schemas[kind]);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
	if (!(t = sqlite3_malloc64(sizeof(eh_tab))))
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->c = aux;
	t->c->refcount++;
	t->kind = kind;
	t->xml = xml;
	*out = &t->base;
	return SQLITE_OK;
}

static int
eh_connect_decode(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
				  char **err)
{
	return eh_connect(db, aux, argc, argv, out, err, EH_DECODE, false);
}

static int
eh_connect_decode_xml(sqlite3 *db, void *aux, int argc, const char *const *argv,
				   sqlite3_vtab **out, char **err)
{
	return eh_connect(db, aux, argc, argv, out, err, EH_DECODE, true);
}

static int
eh_connect_report(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
				  char **err)
{
	return eh_connect(db, aux, argc, argv, out, err, EH_REPORT, false);
}

static int
eh_connect_report_xml(sqlite3 *db, void *aux, int argc, const char *const *argv,
				   sqlite3_vtab **out, char **err)
{
	return eh_connect(db, aux, argc, argv, out, err, EH_REPORT, true);
}

static int
eh_connect_errors(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
				  char **err)
{
	return eh_connect(db, aux, argc, argv, out, err, EH_ERRORS, false);
}

static int
eh_connect_errors_xml(sqlite3 *db, void *aux, int argc, const char *const *argv,
				   sqlite3_vtab **out, char **err)
{
	return eh_connect(db, aux, argc, argv, out, err, EH_ERRORS, true);
}

static int
eh_disconnect(sqlite3_vtab *base)
{
	eh_tab	   *t = (eh_tab *) base;

	sq_conn_unref(t->c);
	sqlite3_free(t);
	return SQLITE_OK;
}

/* idxNum bit k: hidden argument k (shape, doc, on_error) is given, in that order in argv. */
static int
eh_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
	eh_tab	   *t = (eh_tab *) base;
	int			nargs = t->kind == EH_DECODE ? 3 : 2;
	int			at[3] = {-1, -1, -1};
	bool		unusable = false;
	int			argv = 0;

	for (int i = 0; i < info->nConstraint; i++)
	{
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		int			k = c->iColumn - eh_hidden[t->kind];

		if (k < 0 || k >= nargs || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!c->usable)
			unusable = true;
		else if (at[k] < 0)
			at[k] = i;
	}
	info->idxNum = 0;
	for (int k = 0; k < nargs; k++)
		if (at[k] >= 0)
		{
			info->aConstraintUsage[at[k]].argvIndex = ++argv;
			info->aConstraintUsage[at[k]].omit = 1;
			info->idxNum |= 1 << k;
		}
	if ((info->idxNum & 3) != 3 && unusable)
		return SQLITE_CONSTRAINT;
	info->estimatedCost = (info->idxNum & 3) == 3 ? 100.0 : 1e12;
	info->estimatedRows = 100;
	return SQLITE_OK;
}

static int
eh_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
	eh_cursor  *cur = sqlite3_malloc64(sizeof(eh_cursor));

	if (!cur)
		return SQLITE_NOMEM;
	memset(cur, 0, sizeof(*cur));
	sd_buf_init(&cur->value, &((eh_tab *) base)->c->hooks);
	*out = &cur->base;
	return SQLITE_OK;
}

/* Ends the cursor's batch: the decoder goes back, the copy of the document goes. */
static void
eh_end(eh_cursor *cur, eh_tab *t)
{
	if (cur->d)
	{
		sd_each_reset(cur->d);
		sq_decoder_put(t->c, cur->d);
		cur->d = NULL;
	}
	sqlite3_free(cur->doc);
	cur->doc = NULL;
	cur->eof = true;
}

static int
eh_close(sqlite3_vtab_cursor *base)
{
	eh_cursor  *cur = (eh_cursor *) base;

	eh_end(cur, (eh_tab *) base->pVtab);
	sq_shape_unref(cur->s);
	sd_buf_free(&cur->value);
	sqlite3_free(cur);
	return SQLITE_OK;
}

/* A failure that is no item's: the statement fails. */
static int
eh_fail(eh_cursor *cur, eh_tab *t, const sd_error *err)
{
	sq_err		e = SQ_ERR_INIT;

	if (t->xml)
		sq_err_core_xml(&e, cur->s->name, cur->s->plan, err);
	else
		sq_err_core(&e, cur->s->name, err);
	eh_end(cur, t);
	return sq_vtab_err(&t->base, &e);
}

/* The next row: an item (decode, report) or an error of an item (errors). */
static int
eh_step(eh_cursor *cur, eh_tab *t)
{
	for (;;)
	{
		uint32_t	root = 0;
		int			r,
					total;

		if (!cur->d)
		{
			cur->eof = true;
			return SQLITE_OK;
		}
		if (t->kind == EH_ERRORS)
		{
			if (cur->i + 1 < cur->n)
			{
				cur->i++;
				return SQLITE_OK;
			}
			if (cur->status == 3 || cur->status == -1)
			{
				eh_end(cur, t);
				return SQLITE_OK;
			}
			cur->status = r = sd_each_check(cur->d, SQ_MAX_ERRORS, &cur->found, &cur->n, &total,
											&root);
			cur->item = (sqlite3_int64) sd_each_item(cur->d);
			cur->i = 0;
			if (r == 0)
			{
				eh_end(cur, t);
				return SQLITE_OK;
			}
			if (cur->n > 0 && !sq_code_is_document(cur->found[0].code))
			{
				sq_err		e = SQ_ERR_INIT;

				sq_err_found(&e, cur->s->name, t->xml ? cur->s->plan : NULL, &cur->found[0]);
				eh_end(cur, t);
				return sq_vtab_err(&t->base, &e);
			}
			if (cur->n > 0)
				return SQLITE_OK;
			cur->n = 0;
			continue;
		}
		r = sd_each_triage(cur->d, &root, &cur->err);
		cur->item = (sqlite3_int64) sd_each_item(cur->d);
		if (r == 0)
		{
			eh_end(cur, t);
			return SQLITE_OK;
		}
		if (r < 0 || (r >= 2 && (!sq_code_is_document(cur->err.code) ||
								 (t->kind == EH_DECODE && !cur->skip))))
			return eh_fail(cur, t, &cur->err);
		if (r >= 2)
		{
			if (t->kind == EH_DECODE)
				continue;       /* skip */
			cur->ok = false;
			if (r == 3)
			{
				/* the malformed rest was the last item: the batch is over after this row */
				sd_decoder *d = cur->d;

				cur->d = NULL;
				sq_decoder_put(t->c, d);
			}
			return SQLITE_OK;
		}
		cur->ok = true;
		sd_buf_reset(&cur->value);
		if (!sd_jwriter_write(cur->s->writer, sd_plan_root(cur->s->plan), sd_decoder_tape(cur->d),
							  root, &cur->value) || !cur->value.s)
		{
			sd_error	err;

			sd_error_clear(&err);
			sd_error_set(&err, SD_E_NOMEM, -1, "out of memory");
			return eh_fail(cur, t, &err);
		}
		return SQLITE_OK;
	}
}

static int
eh_filter(sqlite3_vtab_cursor *base, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
	eh_cursor  *cur = (eh_cursor *) base;
	eh_tab	   *t = (eh_tab *) base->pVtab;
	const char *name;
	const char *doc;
	size_t		len = 0;
	sq_err		e = SQ_ERR_INIT;
	sd_error	err;

	(void) idxStr;
	eh_end(cur, t);
	cur->eof = true;
	cur->n = cur->i = 0;
	cur->status = 0;
	cur->skip = false;
	if ((idxNum & 3) != 3 || argc < 2)
	{
		sq_err_printf(&e, SQ_E_USAGE, "%s: needs a shape and a document: SELECT * FROM %s(shape, doc%s)",
					  EH_NAME(t), EH_NAME(t), t->kind == EH_DECODE ? " [, on_error]" : "");
		return sq_vtab_err(&t->base, &e);
	}
	if (idxNum & 4)
	{
		const char *mode = (const char *) sqlite3_value_text(argv[2]);

		if (mode && strcmp(mode, "skip") == 0)
			cur->skip = true;
		else if (!mode || strcmp(mode, "raise") != 0)
		{
			sq_err_printf(&e, SD_E_OPTIONS, "%s: on_error must be 'raise' or 'skip', not %s%s%s",
						  EH_NAME(t), mode ? "'" : "", mode ? mode : "NULL", mode ? "'" : "");
			return sq_vtab_err(&t->base, &e);
		}
	}
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
	{
		sq_err_printf(&e, SQ_E_NULL, "serde: shape name must not be NULL");
		return sq_vtab_err(&t->base, &e);
	}
	name = (const char *) sqlite3_value_text(argv[0]);
	if (cur->s && strcmp(cur->s->name, name) != 0)
	{
		sq_shape_unref(cur->s);
		cur->s = NULL;
	}
	if (!cur->s && !(cur->s = sq_shape_get(t->c, name, &e)))
		return sq_vtab_err(&t->base, &e);
	if ((doc = sq_value_doc(argv[1], &len)) == NULL)
		return SQLITE_OK;
	if (!(cur->doc = sqlite3_malloc64(len + 1)) || !(cur->d = sq_decoder_get(t->c)))
	{
		eh_end(cur, t);
		return SQLITE_NOMEM;
	}
	memcpy(cur->doc, doc, len);
	cur->doc[len] = '\0';
	cur->eof = false;
	if (!(t->xml ? sd_each_begin_xml : sd_each_begin) (cur->d, cur->s->plan,
													   sd_plan_root(cur->s->plan), cur->doc,
													   len, &t->c->limits, &err))
	{
		if (t->kind == EH_ERRORS && sq_code_is_document(err.code))
		{
			/* a limit of the whole input: one row without an item */
			eh_end(cur, t);
			cur->eof = false;
			cur->err = err;
			cur->one.code = cur->err.code;
			cur->one.offset = cur->err.offset;
			cur->one.path = cur->err.path;
			cur->one.problem = cur->err.problem;
			cur->found = &cur->one;
			cur->n = 1;
			cur->status = -1;
			cur->has_item = false;
			return SQLITE_OK;
		}
		return eh_fail(cur, t, &err);
	}
	cur->has_item = true;
	return eh_step(cur, t);
}

static int
eh_next(sqlite3_vtab_cursor *base)
{
	eh_cursor  *cur = (eh_cursor *) base;
	eh_tab	   *t = (eh_tab *) base->pVtab;

	cur->rowid++;
	if (t->kind == EH_ERRORS && !cur->d && cur->i + 1 >= cur->n)
	{
		cur->eof = true;
		return SQLITE_OK;
	}
	if (t->kind != EH_ERRORS && !cur->d)
	{
		cur->eof = true;
		return SQLITE_OK;
	}
	return eh_step(cur, t);
}

static int
eh_eof(sqlite3_vtab_cursor *base)
{
	return ((eh_cursor *) base)->eof;
}

static void
result_message(sqlite3_context *ctx, const char *shape, const char *path, const char *problem)
{
	char	   *m = sq_message(shape, path ? path : "", problem);

	if (!m)
		sqlite3_result_error_nomem(ctx);
	else
		sqlite3_result_text(ctx, m, -1, sqlite3_free);
}

static int
eh_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	eh_cursor  *cur = (eh_cursor *) base;
	eh_tab	   *t = (eh_tab *) base->pVtab;

	if (col == 0)
	{
		if (cur->has_item)
			sqlite3_result_int64(ctx, cur->item);
		else
			sqlite3_result_null(ctx);
		return SQLITE_OK;
	}
	if (t->kind == EH_ERRORS)
	{
		const sd_found *f = &cur->found[cur->i];

		switch (col)
		{
			case 1:
				sqlite3_result_text(ctx, f->path, -1, SQLITE_TRANSIENT);
				break;
			case 2:
				sqlite3_result_text(ctx, sq_sqlstate(f->code), -1, SQLITE_STATIC);
				break;
			case 3:
				result_message(ctx, cur->s->name, f->path, f->problem);
				break;
			case 4:
				if (f->offset >= 0)
					sqlite3_result_int64(ctx, f->offset);
				else
					sqlite3_result_null(ctx);
				break;
			default:
				sqlite3_result_null(ctx);
		}
		return SQLITE_OK;
	}
	if (t->kind == EH_DECODE)
		col = col == 1 ? 2 : -1;
	switch (col)
	{
		case 1:
			sqlite3_result_int(ctx, cur->ok);
			break;
		case 2:
			if (cur->ok)
			{
				sqlite3_result_text(ctx, cur->value.s, (int) cur->value.len, SQLITE_TRANSIENT);
				sqlite3_result_subtype(ctx, 'J');
			}
			else
				sqlite3_result_null(ctx);
			break;
		case 3:
			if (cur->ok)
				sqlite3_result_null(ctx);
			else
				sqlite3_result_text(ctx, sq_sqlstate(cur->err.code), -1, SQLITE_STATIC);
			break;
		case 4:
			if (cur->ok)
				sqlite3_result_null(ctx);
			else
				sqlite3_result_text(ctx, cur->err.path, -1, SQLITE_TRANSIENT);
			break;
		case 5:
			if (cur->ok)
				sqlite3_result_null(ctx);
			else
				result_message(ctx, cur->s->name, cur->err.path, cur->err.problem);
			break;
		default:
			sqlite3_result_null(ctx);
	}
	return SQLITE_OK;
}

static int
eh_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
	*rowid = ((eh_cursor *) base)->rowid;
	return SQLITE_OK;
}

#define EACH_MODULE(connect) { \
	.iVersion = 1, \
	.xCreate = NULL,            /* eponymous only */ \
	.xConnect = connect, \
	.xBestIndex = eh_best_index, \
	.xDisconnect = eh_disconnect, \
	.xDestroy = eh_disconnect, \
	.xOpen = eh_open, \
	.xClose = eh_close, \
	.xFilter = eh_filter, \
	.xNext = eh_next, \
	.xEof = eh_eof, \
	.xColumn = eh_column, \
	.xRowid = eh_rowid, \
}

static const sqlite3_module each_modules[] = {
	EACH_MODULE(eh_connect_decode),
	EACH_MODULE(eh_connect_report),
	EACH_MODULE(eh_connect_errors),
	EACH_MODULE(eh_connect_decode_xml),
	EACH_MODULE(eh_connect_report_xml),
	EACH_MODULE(eh_connect_errors_xml)
};

int
sq_each_register(sqlite3 *db, sq_conn *c)
{
	for (int k = 0; k < 6; k++)
	{
		int			rc;

		c->refcount++;
		rc = sqlite3_create_module_v2(db, eh_names[k], &each_modules[k], c, sq_conn_unref);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}
