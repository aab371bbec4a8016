/*
 * vtab.c — the virtual table module "serde" (docs/reference.md, "The virtual table"):
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
 * whose tape its xColumn calls read.  Also the conversion of a decoded value into a column value.
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
	bool		eof;
	sqlite3_int64 rowid;
	sd_buf		buf;
} sq_cursor;

/* ---- values ------------------------------------------------------------------------------ */

bool
sq_field_value(const sq_shape *s, const sd_node *node, const sd_val *tape, uint32_t i,
			   sd_buf *buf, sq_value *out)
{
	const sd_val *v = &tape[i];
	char		tmp[SD_FMT_TIMESTAMP_MAX + 16];
	size_t		n;

	memset(out, 0, sizeof(*out));
	switch (v->tag)
	{
		case SD_V_NULL:
			out->type = SQLITE_NULL;
			return true;
		case SD_V_DEFAULT:
			if ((int) v->len < s->ndefaults)
			{
				*out = s->defaults[v->len];
				return true;
			}
			out->type = SQLITE_NULL;
			return true;
		case SD_V_BOOL:
			out->type = SQLITE_INTEGER;
			out->i = v->u.b ? 1 : 0;
			return true;
		case SD_V_INT:
			out->type = SQLITE_INTEGER;
			out->i = v->u.i;
			return true;
		case SD_V_FLOAT:
			out->type = SQLITE_FLOAT;
			out->f = v->u.f;
			return true;
		case SD_V_STR:
		case SD_V_NUMERIC:
			out->type = SQLITE_TEXT;
			out->s = (char *) (v->u.s ? v->u.s : "");
			out->len = v->len;
			return true;
		case SD_V_BYTES:
			out->type = SQLITE_BLOB;
			out->s = (char *) (v->u.bytes ? (const char *) v->u.bytes : "");
			out->len = v->len;
			return true;
		case SD_V_ENUM:
			out->type = SQLITE_TEXT;
			out->s = (char *) node->type->labels[v->u.i];
			out->len = strlen(out->s);
			return true;
		case SD_V_TIMESTAMP:
			n = sd_format_timestamp(tmp, v->u.i, node->kind != SD_K_TIMESTAMP);
			break;
		case SD_V_DATE:
			n = sd_format_date(tmp, v->u.i);
			break;
		case SD_V_TIME:
			n = sd_format_time(tmp, v->u.i);
			break;
		case SD_V_UUID:
			n = sd_format_uuid(tmp, v->u.bytes);
			break;
		case SD_V_DECIMAL:
			n = sd_format_decimal(tmp, v->u.i, v->len);
			break;
		case SD_V_JSON:
			/* a json column: its text as the document has it (validated; docs/reference.md, "Types": "copied
			 * as is"), not re-written -- serde_decode's canonical JSON minifies it */
			out->type = SQLITE_TEXT;
			out->s = (char *) (v->u.s ? v->u.s : "null");
			out->len = v->u.s ? v->len : 4;
			return true;
		default:                /* json, lists, maps, nested shapes: canonical JSON text */
			if (!sd_jwriter_write(s->writer, node, tape, i, buf) || !buf->s)
				return false;
			out->type = SQLITE_TEXT;
			out->s = buf->s;
			out->len = buf->len;
			return true;
	}
	if (!sd_buf_put(buf, tmp, n) || !buf->s)
		return false;
	out->type = SQLITE_TEXT;
	out->s = buf->s;
	out->len = buf->len;
	return true;
}

static void
result_value(sqlite3_context *ctx, const sq_value *v)
{
	switch (v->type)
	{
		case SQLITE_INTEGER:
			sqlite3_result_int64(ctx, v->i);
			break;
		case SQLITE_FLOAT:
			sqlite3_result_double(ctx, v->f);
			break;
		case SQLITE_TEXT:
			sqlite3_result_text(ctx, v->s, (int) v->len, SQLITE_TRANSIENT);
			break;
		case SQLITE_BLOB:
			sqlite3_result_blob(ctx, v->s, (int) v->len, SQLITE_TRANSIENT);
			break;
		default:
			sqlite3_result_null(ctx);
	}
}

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
		if (strcmp(root->fields[i].column, "doc") == 0)
			return true;
	return false;
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
		*pzErr = sqlite3_mprintf("serde: cannot declare virtual table \"%s\": %s", v->name,
								 sqlite3_errmsg(db));
	return rc;
}

static int
vtab_init(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		  char **pzErr, bool create)
{
	sq_vtab    *v;
	int			rc = SQLITE_OK;
	char	   *doc = NULL;

	if (argc != 4)
	{
		*pzErr = sqlite3_mprintf("serde: CREATE VIRTUAL TABLE %s USING serde(Shape) takes one shape "
								 "name, not %d arguments", argv[2], argc - 3);
		return SQLITE_ERROR;
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
		sq_err		e = {SD_OK, NULL, -1};
		sq_shape   *s = sq_shape_get(v->c, v->shape, &e);
		char	   *sql;

		if (!s)
		{
			*pzErr = e.msg;
			vtab_free(v);
			return sq_result_code(e.code);
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
			v->ncols = sqlite3_column_int(st, 1);
			doc = sqlite3_mprintf("%s", sqlite3_column_text(st, 2));
			if (!v->columns || !doc)
				rc = SQLITE_NOMEM;
		}
		else if (rc == SQLITE_OK)
			rc = SQLITE_CORRUPT_VTAB;
		if (rc != SQLITE_OK && rc != SQLITE_NOMEM)
			*pzErr = sqlite3_mprintf("serde: virtual table \"%s\": its shadow table %s_columns is "
									 "missing or empty: %s", v->name, v->name, sqlite3_errmsg(db));
		sqlite3_finalize(st);
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
vtab_error(sq_vtab *v, int rc, char *msg)
{
	sqlite3_free(v->base.zErrMsg);
	v->base.zErrMsg = msg;
	return rc;
}

static int
x_filter(sqlite3_vtab_cursor *base, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
	sq_cursor  *cur = (sq_cursor *) base;
	sq_vtab    *v = (sq_vtab *) base->pVtab;
	const char *doc;
	size_t		len = 0;
	sd_error	err;

	(void) idxStr;
	cur->eof = true;
	if (idxNum != 1 || argc < 1)
		return vtab_error(v, SQLITE_ERROR,
						  sqlite3_mprintf("serde: virtual table \"%s\" needs a document: "
										  "SELECT * FROM %s(doc)", v->name, v->name));
	if ((doc = sq_value_doc(argv[0], &len)) == NULL)
		return SQLITE_OK;
	if (!cur->s)
	{
		sq_err		e = {SD_OK, NULL, -1};

		if (!(cur->s = sq_shape_get(v->c, v->shape, &e)))
			return vtab_error(v, sq_result_code(e.code), e.msg);
		if (strcmp(cur->s->columns, v->columns) != 0)
		{
			sq_shape_unref(cur->s);
			cur->s = NULL;
			return vtab_error(v, SQLITE_ERROR,
							  sqlite3_mprintf("%s: the shape's columns changed since virtual table "
											  "\"%s\" was created; recreate it: DROP TABLE %s; "
											  "CREATE VIRTUAL TABLE %s USING serde(%s)",
											  v->shape, v->name, v->name, v->name, v->shape));
		}
	}
	if (!cur->d && !(cur->d = sq_decoder_get(v->c)))
		return SQLITE_NOMEM;
	if (!sd_decode_json(cur->d, cur->s->plan, sd_plan_root(cur->s->plan), doc, len,
						&v->c->limits, &cur->root, &err))
	{
		if (err.code == SD_E_NOMEM)
			return SQLITE_NOMEM;
		return vtab_error(v, sq_result_code(err.code),
						  err.code == SD_E_CANCELED ? sqlite3_mprintf("%s: interrupted", v->shape)
						  : sq_format_error(cur->s->name, &err));
	}
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
	const sd_node *root;
	const sd_val *tape;
	sq_value	val;

	if (cur->eof || !cur->s)
		return SQLITE_OK;
	root = sd_plan_root(cur->s->plan);
	/* The document column reads as NULL: it is the argument.  (colUsed cannot tell a query
	 * that reads it from one that only passes it, and a copy of every document cost 15% of
	 * the records benchmark.) */
	if (col < 0 || col >= root->nfields)
		return SQLITE_OK;
	tape = sd_decoder_tape(cur->d);
	sd_buf_reset(&cur->buf);
	if (!sq_field_value(cur->s, root->fields[col].node, tape, tape[cur->root].u.first + (uint32_t) col,
						&cur->buf, &val))
		return SQLITE_NOMEM;
	result_value(ctx, &val);
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
