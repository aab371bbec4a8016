/*
 * vtab.c — the virtual table module "serde":
 *
 *     CREATE VIRTUAL TABLE inv USING serde(Invoice);
 *     SELECT * FROM inv(body);                     -- one row per document, one column per field
 *
 * Columns are fixed when the table is created: xCreate records them in the shadow table
 * <name>_columns (shape, columns, ncols, doc), xConnect declares what was recorded, and a cursor
 * that finds the shape's columns different refuses to decode, asking to recreate the table.  The
 * document is the HIDDEN column `doc` (`serde_doc` if the shape has a field named doc), given as
 * the table-valued-function argument or by `WHERE doc = ?`.  A cursor (one per statement
 * execution) holds the plan it got first for the rest of its statement, and its own decoder,
 * whose tape its xColumn calls read.
 *
 * The shadow table is not trusted to say which column is the document: its `columns` are parsed
 * (quoted names and types) and the document is the column after them; an `ncols` that disagrees,
 * or `columns` that do not parse, make the table unusable (SQLITE_CORRUPT_VTAB) rather than
 * another column the document.
 *
 * Calls conn.c, cache.c, values.c, errors.c.
 */
#include "serde_sqlite.h"

#include <stdlib.h>
#include <string.h>

typedef struct sq_vtab
{
	sqlite3_vtab base;
	sq_conn    *c;
	char	   *schema;
	char	   *name;
	char	   *shape;
	char	   *columns;
	int			ncols;              /* the document is column ncols */
} sq_vtab;

typedef struct sq_cursor
{
	sqlite3_vtab_cursor base;
	sq_shape   *s;
	sd_decoder *d;
	uint32_t	root;
	/* the current row, set by xFilter for its xColumn calls: the shape's fields, the tape and
	 * the tape index of field 0 */
	const sd_field *fields;
	int			nfields;
	const sd_val *tape;
	uint32_t	first;
	bool		eof;
	sqlite3_int64 rowid;
	sd_buf		buf;
} sq_cursor;

/* ---- create / connect -------------------------------------------------------------------- */

/* The shape argument as written: Invoice, 'Invoice', "Invoice", `Invoice` or [Invoice]. */
static char *
dequote(const char *a)
{
	size_t		n = strlen(a);
	char		q = a[0];
	char		close = q == '[' ? ']' : q;
	char	   *out;
	size_t		j = 0;

	if (n < 2 || !(q == '\'' || q == '"' || q == '`' || q == '[') || a[n - 1] != close)
		return sqlite3_mprintf("%s", a);
	if (!(out = sqlite3_malloc64(n)))
		return NULL;
	for (size_t i = 1; i < n - 1; i++)
	{
		out[j++] = a[i];
		if (a[i] == close && close != ']' && a[i + 1] == close)
			i++;
	}
	out[j] = '\0';
	return out;
}

static void
vtab_free(sq_vtab *v)
{
	if (!v)
		return;
	sqlite3_free(v->schema);
	sqlite3_free(v->name);
	sqlite3_free(v->shape);
	sqlite3_free(v->columns);
	sq_conn_unref(v->c);
	sqlite3_free(v);
}

static bool
has_doc_field(const sq_shape *s)
{
	const sd_node *root = sd_plan_root(s->plan);

	for (int i = 0; i < root->nfields; i++)
		if (sqlite3_stricmp(root->fields[i].column, "doc") == 0)
			return true;
	return false;
}

/* The number of columns in "\"a\" TEXT, \"b\"\"c\" INTEGER" (columns_of in cache.c), or -1 when
 * the text is not such a list. */
static int
count_columns(const char *p)
{
	int			n = 0;

	if (!*p)
		return 0;
	for (;;)
	{
		if (*p++ != '"')
			return -1;
		for (;; p++)
		{
			if (!*p)
				return -1;
			if (*p == '"')
			{
				if (p[1] != '"')
					break;
				p++;
			}
		}
		p++;
		if (*p++ != ' ')
			return -1;
		if (strncmp(p, "INTEGER", 7) == 0)
			p += 7;
		else if (strncmp(p, "REAL", 4) == 0 || strncmp(p, "TEXT", 4) == 0 ||
				 strncmp(p, "BLOB", 4) == 0)
			p += 4;
		else
			return -1;
		n++;
		if (!*p)
			return n;
		if (p[0] != ',' || p[1] != ' ')
			return -1;
		p += 2;
	}
}

static int
declare(sqlite3 *db, sq_vtab *v, const char *doc, char **pzErr)
{
	char	   *sql = sqlite3_mprintf("CREATE TABLE x(%s, \"%w\" HIDDEN)", v->columns, doc);
	int			rc;

	if (!sql)
		return SQLITE_NOMEM;
	rc = sqlite3_declare_vtab(db, sql);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
	{
		sq_err		e = SQ_ERR_INIT;
		char	   *what = sqlite3_mprintf("cannot declare virtual table \"%s\"", v->name);

		sq_err_sqlite(&e, db, rc, what ? what : "cannot declare a virtual table");
		sqlite3_free(what);
		return sq_err_take(&e, pzErr);
	}
	return rc;
}

static int
vtab_init(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		  char **pzErr, bool create)
{
	sq_vtab    *v;
	int			rc = SQLITE_OK;
	char	   *doc = NULL;
	sq_err		e = SQ_ERR_INIT;

	if (argc != 4)
	{
		sq_err_printf(&e, SQ_E_USAGE, "serde: CREATE VIRTUAL TABLE %s USING serde(Shape) takes one "
					  "shape name, not %d arguments", argv[2], argc - 3);
		return sq_err_take(&e, pzErr);
	}
	if (!(v = sqlite3_malloc64(sizeof(sq_vtab))))
		return SQLITE_NOMEM;
	memset(v, 0, sizeof(*v));
	v->c = aux;
	v->c->refcount++;
	v->schema = sqlite3_mprintf("%s", argv[1]);
	v->name = sqlite3_mprintf("%s", argv[2]);
	v->shape = dequote(argv[3]);
	if (!v->schema || !v->name || !v->shape)
	{
		vtab_free(v);
		return SQLITE_NOMEM;
	}
	if (create)
	{
		sq_shape   *s = sq_shape_get(v->c, v->shape, &e);
		char	   *sql;

		if (!s)
		{
			vtab_free(v);
			return sq_err_take(&e, pzErr);
		}
		v->columns = sqlite3_mprintf("%s", s->columns);
		v->ncols = sd_plan_root(s->plan)->nfields;
		doc = sqlite3_mprintf("%s", has_doc_field(s) ? "serde_doc" : "doc");
		sq_shape_unref(s);
		sql = sqlite3_mprintf("CREATE TABLE \"%w\".\"%w_columns\"(shape TEXT NOT NULL, columns TEXT NOT NULL, "
							  "ncols INTEGER NOT NULL, doc TEXT NOT NULL);"
							  "INSERT INTO \"%w\".\"%w_columns\" VALUES (%Q, %Q, %d, %Q);",
							  v->schema, v->name, v->schema, v->name, v->shape, v->columns,
							  v->ncols, doc);
		if (!sql || !v->columns || !doc)
			rc = SQLITE_NOMEM;
		else
			rc = sqlite3_exec(db, sql, NULL, NULL, pzErr);
		sqlite3_free(sql);
	}
	else
	{
		sqlite3_stmt *st = NULL;
		char	   *sql = sqlite3_mprintf("SELECT columns, ncols, doc FROM \"%w\".\"%w_columns\"",
										  v->schema, v->name);

		rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;
		sqlite3_free(sql);
		if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		{
			v->columns = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
			v->ncols = count_columns(v->columns);
			doc = sqlite3_mprintf("%s", sqlite3_column_text(st, 2));
			if (!v->columns || !doc)
				rc = SQLITE_NOMEM;
			else if (v->ncols < 0 || sqlite3_column_type(st, 1) != SQLITE_INTEGER ||
					 sqlite3_column_int64(st, 1) != v->ncols)
			{
				sq_err_printf(&e, SQ_E_USAGE, "serde: virtual table \"%s\": its shadow table %s_columns "
							  "was changed (columns and ncols disagree); recreate it: "
							  "DROP TABLE %s; CREATE VIRTUAL TABLE %s USING serde(%s)",
							  v->name, v->name, v->name, v->name, v->shape);
				e.rc = rc = SQLITE_CORRUPT_VTAB;
			}
		}
		else if (rc == SQLITE_OK)
			rc = SQLITE_CORRUPT_VTAB;
		if (rc != SQLITE_OK && rc != SQLITE_NOMEM && e.code == SD_OK)
		{
			char	   *what = sqlite3_mprintf("virtual table \"%s\": its shadow table %s_columns is "
											   "missing or empty", v->name, v->name);

			sq_err_sqlite(&e, db, rc, what ? what : "a shadow table is missing");
			sqlite3_free(what);
		}
		sqlite3_finalize(st);
		if (e.code != SD_OK)
			rc = sq_err_take(&e, pzErr);
	}
	if (rc == SQLITE_OK)
		rc = declare(db, v, doc, pzErr);
	sqlite3_free(doc);
	if (rc != SQLITE_OK)
	{
		vtab_free(v);
		return rc;
	}
	*out = &v->base;
	return SQLITE_OK;
}

static int
x_create(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
	return vtab_init(db, aux, argc, argv, out, err, true);
}

static int
x_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
	return vtab_init(db, aux, argc, argv, out, err, false);
}

static int
x_disconnect(sqlite3_vtab *base)
{
	vtab_free((sq_vtab *) base);
	return SQLITE_OK;
}

static int
x_destroy(sqlite3_vtab *base)
{
	sq_vtab    *v = (sq_vtab *) base;
	char	   *sql = sqlite3_mprintf("DROP TABLE IF EXISTS \"%w\".\"%w_columns\"", v->schema, v->name);
	int			rc = sql ? sqlite3_exec(v->c->db, sql, NULL, NULL, NULL) : SQLITE_NOMEM;

	sqlite3_free(sql);
	if (rc == SQLITE_OK)
		vtab_free(v);
	return rc;
}

static int
x_rename(sqlite3_vtab *base, const char *to)
{
	sq_vtab    *v = (sq_vtab *) base;
	char	   *sql = sqlite3_mprintf("ALTER TABLE \"%w\".\"%w_columns\" RENAME TO \"%w_columns\"",
									  v->schema, v->name, to);
	int			rc = sql ? sqlite3_exec(v->c->db, sql, NULL, NULL, NULL) : SQLITE_NOMEM;

	sqlite3_free(sql);
	if (rc == SQLITE_OK)
	{
		char	   *n = sqlite3_mprintf("%s", to);

		if (!n)
			return SQLITE_NOMEM;
		sqlite3_free(v->name);
		v->name = n;
	}
	return rc;
}

static int
x_shadow_name(const char *suffix)
{
	return strcmp(suffix, "columns") == 0;
}

/* ---- planning and scanning --------------------------------------------------------------- */

static int
x_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
	sq_vtab    *v = (sq_vtab *) base;
	int			doc = -1;
	bool		unusable = false;

	for (int i = 0; i < info->nConstraint; i++)
	{
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];

		if (c->iColumn != v->ncols || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!c->usable)
			unusable = true;
		else if (doc < 0)
			doc = i;
	}
	if (doc >= 0)
	{
		info->aConstraintUsage[doc].argvIndex = 1;
		info->aConstraintUsage[doc].omit = 1;
		info->idxNum = 1;
		info->estimatedCost = 1.0;
		info->estimatedRows = 1;
		info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
		return SQLITE_OK;
	}
	if (unusable)
		return SQLITE_CONSTRAINT;   /* another join order gives the document */
	info->idxNum = 0;
	info->estimatedCost = 1e12;
	return SQLITE_OK;
}

static int
x_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
	sq_cursor  *cur = sqlite3_malloc64(sizeof(sq_cursor));

	(void) base;
	if (!cur)
		return SQLITE_NOMEM;
	memset(cur, 0, sizeof(*cur));
	cur->eof = true;
	sd_buf_init(&cur->buf, NULL);
	*out = &cur->base;
	return SQLITE_OK;
}

static int
x_close(sqlite3_vtab_cursor *base)
{
	sq_cursor  *cur = (sq_cursor *) base;
	sq_vtab    *v = (sq_vtab *) base->pVtab;

	sq_shape_unref(cur->s);
	sq_decoder_put(v->c, cur->d);
	sd_buf_free(&cur->buf);
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int
x_filter(sqlite3_vtab_cursor *base, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
	sq_cursor  *cur = (sq_cursor *) base;
	sq_vtab    *v = (sq_vtab *) base->pVtab;
	const char *doc;
	size_t		len = 0;
	sd_error	err;
	sq_err		e = SQ_ERR_INIT;

	(void) idxStr;
	cur->eof = true;
	if (idxNum != 1 || argc < 1)
	{
		sq_err_printf(&e, SQ_E_USAGE, "serde: virtual table \"%s\" needs a document: "
					  "SELECT * FROM %s(doc)", v->name, v->name);
		return sq_vtab_err(&v->base, &e);
	}
	if ((doc = sq_value_doc(argv[0], &len)) == NULL)
		return SQLITE_OK;
	if (!cur->s)
	{
		if (!(cur->s = sq_shape_get(v->c, v->shape, &e)))
			return sq_vtab_err(&v->base, &e);
		if (strcmp(cur->s->columns, v->columns) != 0)
		{
			sq_shape_unref(cur->s);
			cur->s = NULL;
			sq_err_printf(&e, SQ_E_USAGE, "%s: the shape's columns changed since virtual table "
						  "\"%s\" was created; recreate it: DROP TABLE %s; "
						  "CREATE VIRTUAL TABLE %s USING serde(%s)",
						  v->shape, v->name, v->name, v->name, v->shape);
			return sq_vtab_err(&v->base, &e);
		}
	}
	if (!cur->d && !(cur->d = sq_decoder_get(v->c)))
		return SQLITE_NOMEM;
	if (!sd_decode_json(cur->d, cur->s->plan, sd_plan_root(cur->s->plan), doc, len,
						&v->c->limits, &cur->root, &err))
	{
		if (err.code == SD_E_SYNTAX)
			sd_error_locate_json(&err, doc, len);
		sq_err_core(&e, cur->s->name, &err);
		return sq_vtab_err(&v->base, &e);
	}
	cur->fields = sd_plan_root(cur->s->plan)->fields;
	cur->nfields = sd_plan_root(cur->s->plan)->nfields;
	cur->tape = sd_decoder_tape(cur->d);
	cur->first = cur->tape[cur->root].u.first;
	cur->eof = false;
	cur->rowid++;
	return SQLITE_OK;
}

static int
x_next(sqlite3_vtab_cursor *base)
{
	((sq_cursor *) base)->eof = true;
	return SQLITE_OK;
}

static int
x_eof(sqlite3_vtab_cursor *base)
{
	return ((sq_cursor *) base)->eof;
}

static int
x_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	sq_cursor  *cur = (sq_cursor *) base;
	sq_value	val;

	if (cur->eof || !cur->s)
		return SQLITE_OK;
	/* The document column reads as NULL: it is the argument.  (colUsed cannot tell a query
	 * that reads it from one that only passes it, and a copy of every document cost 15% of
	 * the records benchmark.) */
	if (col < 0 || col >= cur->nfields)
		return SQLITE_OK;
	cur->buf.len = 0;           /* sd_buf_reset, without a call: the value is written from 0 */
	cur->buf.failed = false;
	if (!sq_field_value(cur->s, cur->fields[col].node, cur->tape, cur->first + (uint32_t) col,
						&cur->buf, &val))
		return SQLITE_NOMEM;
	sq_result_value(ctx, &val);
	return SQLITE_OK;
}

static int
x_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
	*rowid = ((sq_cursor *) base)->rowid;
	return SQLITE_OK;
}

static const sqlite3_module serde_module = {
	.iVersion = 3,
	.xCreate = x_create,
	.xConnect = x_connect,
	.xBestIndex = x_best_index,
	.xDisconnect = x_disconnect,
	.xDestroy = x_destroy,
	.xOpen = x_open,
	.xClose = x_close,
	.xFilter = x_filter,
	.xNext = x_next,
	.xEof = x_eof,
	.xColumn = x_column,
	.xRowid = x_rowid,
	.xRename = x_rename,
	.xShadowName = x_shadow_name,
};

int
sq_vtab_register(sqlite3 *db, sq_conn *c)
{
	c->refcount++;
	return sqlite3_create_module_v2(db, "serde", &serde_module, c, sq_conn_unref);
}
