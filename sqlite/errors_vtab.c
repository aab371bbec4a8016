/*
 * errors_vtab.c — the eponymous table-valued functions of the SQLite adapter:
 *
 *     SELECT * FROM serde_errors(shape, doc);   -- path, code, message, byte_offset
 *     SELECT * FROM serde_cache_stats();        -- plans, compiles, hits, invalidations, bytes,
 *                                               -- evictions, cache_bytes, cache_entries
 *
 * serde_errors lists every violation of the document, in document order, at most SQ_MAX_ERRORS
 * (the core's sd_check_json_found; malformed input is one row).  code is the SQLSTATE of the
 * table in docs/reference.md (section 4), message `<shape>: <path>: <problem>`, byte_offset the
 * 0-based offset of the offending value (NULL when there is none).  shape and doc are HIDDEN
 * columns taking the arguments.  A cursor keeps the plan of the shape it last used for the rest
 * of its statement, and its own decoder.
 *
 *     SELECT * FROM serde_errors_xml(shape, doc); -- the same for an XML document
 *
 * serde_errors_xml lists every violation, in document order (malformed XML is one row, 2200M),
 * with the XPath of docs/reference.md and byte_offset the offending node's offset.
 *
 * What is no fault of the document (out of memory, an interrupt, a shape feature the format does
 * not support, a bug) is raised, with the result code of errors.c, not listed.  serde_cache_stats
 * has one row: plans, compiles, hits, invalidations, bytes, evictions, and the bounds in force
 * (cache_bytes, cache_entries: serde_config).
 *
 * Calls conn.c, cache.c, catalog.c (serde_cache_stats anchors its kept statements), errors.c.
 */
#include "serde_sqlite.h"
#include "xml_decode.h"

#include <stdlib.h>
#include <string.h>

/* ---- serde_errors ------------------------------------------------------------------------- */

enum
{
	EC_PATH, EC_CODE, EC_MESSAGE, EC_OFFSET, EC_SHAPE, EC_DOC
};

typedef struct ev_tab
{
	sqlite3_vtab base;
	sq_conn    *c;
	bool		xml;            /* serde_errors_xml */
} ev_tab;

typedef struct ev_cursor
{
	sqlite3_vtab_cursor base;
	sq_shape   *s;
	sd_decoder *d;
	const sd_found *found;
	int			n;
	int			i;
	sqlite3_int64 rowid;
} ev_cursor;

static int
ev_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		   char **err)
{
	ev_tab	   *t;
	int			rc;

	(void) argc;
	(void) argv;
	(void) err;
	rc = sqlite3_declare_vtab(db, "CREATE TABLE x(path TEXT, code TEXT, message TEXT, "
							  "byte_offset INTEGER, shape HIDDEN, doc HIDDEN)");
	if (rc != SQLITE_OK)
		return rc;
	/* innocuous: see the function flags in functions.c */
	sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
	if (!(t = sqlite3_malloc64(sizeof(ev_tab))))
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->c = aux;
	t->c->refcount++;
	*out = &t->base;
	return SQLITE_OK;
}

static int
ev_connect_xml(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
			   char **err)
{
	int			rc = ev_connect(db, aux, argc, argv, out, err);

	if (rc == SQLITE_OK)
		((ev_tab *) *out)->xml = true;
	return rc;
}

static int
ev_disconnect(sqlite3_vtab *base)
{
	ev_tab	   *t = (ev_tab *) base;

	sq_conn_unref(t->c);
	sqlite3_free(t);
	return SQLITE_OK;
}

/* idxNum bit 1: the shape is argument 1, bit 2: the document is the next. */
static int
ev_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
	int			at[2] = {-1, -1};
	bool		unusable = false;
	int			argv = 0;

	(void) base;
	for (int i = 0; i < info->nConstraint; i++)
	{
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		int			k = c->iColumn - EC_SHAPE;

		if (k < 0 || k > 1 || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!c->usable)
			unusable = true;
		else if (at[k] < 0)
			at[k] = i;
	}
	info->idxNum = 0;
	for (int k = 0; k < 2; k++)
		if (at[k] >= 0)
		{
			info->aConstraintUsage[at[k]].argvIndex = ++argv;
			info->aConstraintUsage[at[k]].omit = 1;
			info->idxNum |= 1 << k;
		}
	if (info->idxNum != 3 && unusable)
		return SQLITE_CONSTRAINT;
	info->estimatedCost = info->idxNum == 3 ? 10.0 : 1e12;
	info->estimatedRows = 10;
	return SQLITE_OK;
}

static int
ev_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
	ev_cursor  *cur = sqlite3_malloc64(sizeof(ev_cursor));

	(void) base;
	if (!cur)
		return SQLITE_NOMEM;
	memset(cur, 0, sizeof(*cur));
	*out = &cur->base;
	return SQLITE_OK;
}

static int
ev_close(sqlite3_vtab_cursor *base)
{
	ev_cursor  *cur = (ev_cursor *) base;
	ev_tab	   *t = (ev_tab *) base->pVtab;

	sq_shape_unref(cur->s);
	sq_decoder_put(t->c, cur->d);
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int
ev_filter(sqlite3_vtab_cursor *base, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
	ev_cursor  *cur = (ev_cursor *) base;
	ev_tab	   *t = (ev_tab *) base->pVtab;
	const char *name;
	const char *doc;
	size_t		len = 0;
	int			total = 0;
	uint32_t	root;
	sq_err		e = SQ_ERR_INIT;

	(void) idxStr;
	cur->n = cur->i = 0;
	if (idxNum != 3 || argc != 2)
	{
		sq_err_printf(&e, SQ_E_USAGE, "%s: needs a shape and a document: SELECT * FROM %s(shape, doc)",
					  t->xml ? "serde_errors_xml" : "serde_errors",
					  t->xml ? "serde_errors_xml" : "serde_errors");
		return sq_vtab_err(&t->base, &e);
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
	if (!cur->d && !(cur->d = sq_decoder_get(t->c)))
		return SQLITE_NOMEM;
	if (t->xml)
		cur->n = sd_check_xml_found(cur->d, cur->s->plan, sd_plan_root(cur->s->plan), doc, len,
									&t->c->limits, SQ_MAX_ERRORS, &cur->found, &total, &root);
	else
		cur->n = sd_check_json_found(cur->d, cur->s->plan, sd_plan_root(cur->s->plan), doc, len,
									 &t->c->limits, SQ_MAX_ERRORS, &cur->found, &total, &root);
	/* what is no fault of the document is raised, not listed */
	for (int i = 0; i < cur->n; i++)
		if (!sq_code_is_document(cur->found[i].code))
		{
			sq_err_found(&e, cur->s->name, t->xml ? cur->s->plan : NULL, &cur->found[i]);
			cur->n = 0;
			return sq_vtab_err(&t->base, &e);
		}
	return SQLITE_OK;
}

static int
ev_next(sqlite3_vtab_cursor *base)
{
	ev_cursor  *cur = (ev_cursor *) base;

	cur->i++;
	cur->rowid++;
	return SQLITE_OK;
}

static int
ev_eof(sqlite3_vtab_cursor *base)
{
	ev_cursor  *cur = (ev_cursor *) base;

	return cur->i >= cur->n;
}

static int
ev_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	ev_cursor  *cur = (ev_cursor *) base;
	const sd_found *f = &cur->found[cur->i];

	switch (col)
	{
		case EC_PATH:
			sqlite3_result_text(ctx, f->path, -1, SQLITE_TRANSIENT);
			break;
		case EC_CODE:
			sqlite3_result_text(ctx, sq_sqlstate(f->code), -1, SQLITE_STATIC);
			break;
		case EC_MESSAGE:
			{
				char	   *m = sq_message(cur->s->name, f->path ? f->path : "", f->problem);

				if (!m)
					return SQLITE_NOMEM;
				sqlite3_result_text(ctx, m, -1, sqlite3_free);
				break;
			}
		case EC_OFFSET:
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

static int
ev_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
	*rowid = ((ev_cursor *) base)->rowid;
	return SQLITE_OK;
}

/* serde_errors and serde_errors_xml differ only in how they connect (ev_tab.xml) */
#define ERRORS_MODULE(connect) { \
	.iVersion = 1, \
	.xCreate = NULL,            /* eponymous only */ \
	.xConnect = connect, \
	.xBestIndex = ev_best_index, \
	.xDisconnect = ev_disconnect, \
	.xDestroy = ev_disconnect, \
	.xOpen = ev_open, \
	.xClose = ev_close, \
	.xFilter = ev_filter, \
	.xNext = ev_next, \
	.xEof = ev_eof, \
	.xColumn = ev_column, \
	.xRowid = ev_rowid, \
}

static const sqlite3_module errors_module = ERRORS_MODULE(ev_connect);
static const sqlite3_module errors_xml_module = ERRORS_MODULE(ev_connect_xml);

/* ---- serde_cache_stats -------------------------------------------------------------------- */

typedef struct cs_cursor
{
	sqlite3_vtab_cursor base;
	int			row;
} cs_cursor;

static int
cs_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		   char **err)
{
	ev_tab	   *t;
	int			rc;

	(void) argc;
	(void) argv;
	(void) err;
	rc = sqlite3_declare_vtab(db, "CREATE TABLE x(plans INTEGER, compiles INTEGER, hits INTEGER, "
							  "invalidations INTEGER, bytes INTEGER, evictions INTEGER, "
							  "cache_bytes INTEGER, cache_entries INTEGER)");
	if (rc != SQLITE_OK)
		return rc;
	if (!(t = sqlite3_malloc64(sizeof(ev_tab))))
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->c = aux;
	t->c->refcount++;
	t->c->anchors++;            /* the catalog's statements may be kept (catalog.c) */
	*out = &t->base;
	return SQLITE_OK;
}

/* sqlite3_close disconnects it before it refuses a connection with statements left: the
 * catalog's kept statements go with it. */
static int
cs_disconnect(sqlite3_vtab *base)
{
	sq_conn    *c = ((ev_tab *) base)->c;

	if (--c->anchors == 0)
		sq_catalog_release(c);
	return ev_disconnect(base);
}

static int
cs_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
	(void) base;
	info->estimatedCost = 1.0;
	info->estimatedRows = 1;
	return SQLITE_OK;
}

static int
cs_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
	cs_cursor  *cur = sqlite3_malloc64(sizeof(cs_cursor));

	(void) base;
	if (!cur)
		return SQLITE_NOMEM;
	memset(cur, 0, sizeof(*cur));
	*out = &cur->base;
	return SQLITE_OK;
}

static int
cs_close(sqlite3_vtab_cursor *base)
{
	sqlite3_free(base);
	return SQLITE_OK;
}

static int
cs_filter(sqlite3_vtab_cursor *base, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
	(void) idxNum;
	(void) idxStr;
	(void) argc;
	(void) argv;
	((cs_cursor *) base)->row = 0;
	return SQLITE_OK;
}

static int
cs_next(sqlite3_vtab_cursor *base)
{
	((cs_cursor *) base)->row++;
	return SQLITE_OK;
}

static int
cs_eof(sqlite3_vtab_cursor *base)
{
	return ((cs_cursor *) base)->row > 0;
}

static int
cs_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	const sq_conn *c = ((ev_tab *) base->pVtab)->c;

	switch (col)
	{
		case 0:
			sqlite3_result_int(ctx, c->nshapes);
			break;
		case 1:
			sqlite3_result_int64(ctx, c->compiles);
			break;
		case 2:
			sqlite3_result_int64(ctx, c->hits);
			break;
		case 3:
			sqlite3_result_int64(ctx, c->invalidations);
			break;
		case 4:
			sqlite3_result_int64(ctx, (sqlite3_int64) sq_cache_bytes(c));
			break;
		case 5:
			sqlite3_result_int64(ctx, c->evictions);
			break;
		case 6:
			sqlite3_result_int64(ctx, c->cache_bytes);
			break;
		default:
			sqlite3_result_int64(ctx, c->cache_entries);
	}
	return SQLITE_OK;
}

static int
cs_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
	*rowid = ((cs_cursor *) base)->row + 1;
	return SQLITE_OK;
}

static const sqlite3_module stats_module = {
	.iVersion = 1,
	.xCreate = NULL,
	.xConnect = cs_connect,
	.xBestIndex = cs_best_index,
	.xDisconnect = cs_disconnect,
	.xDestroy = cs_disconnect,
	.xOpen = cs_open,
	.xClose = cs_close,
	.xFilter = cs_filter,
	.xNext = cs_next,
	.xEof = cs_eof,
	.xColumn = cs_column,
	.xRowid = cs_rowid,
};

int
sq_errors_register(sqlite3 *db, sq_conn *c)
{
	int			rc;

	c->refcount++;
	rc = sqlite3_create_module_v2(db, "serde_errors", &errors_module, c, sq_conn_unref);
	if (rc != SQLITE_OK)
		return rc;
	c->refcount++;
	rc = sqlite3_create_module_v2(db, "serde_errors_xml", &errors_xml_module, c, sq_conn_unref);
	if (rc != SQLITE_OK)
		return rc;
	c->refcount++;
	return sqlite3_create_module_v2(db, "serde_cache_stats", &stats_module, c, sq_conn_unref);
}
