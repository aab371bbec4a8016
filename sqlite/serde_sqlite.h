/*
 * serde_sqlite.h — what the files of the SQLite adapter share: the per-connection state (plan
 * cache, decoders, counters, settings), the compiled shape a call site holds, the error of the
 * adapter, and each file's functions.  The manual is the comment at the top of serde.c.
 *
 * Files, each calling only the ones below it (no file calls a file above it or itself back):
 *
 *   serde.c        entry point: the connection state, then every function and module registered
 *   functions.c    the scalar functions (serde_register, serde_decode, ..., serde_config)
 *   vtab.c         CREATE VIRTUAL TABLE ... USING serde(Shape): one typed column per field
 *   errors_vtab.c  the eponymous table-valued functions serde_errors(_xml), serde_cache_stats
 *   conn.c         the per-connection state: create, release, decoders, interrupt polling
 *   cache.c        per-connection plan cache: compile, revalidate by version, LRU bound
 *   catalog.c      the serde_shapes table: its checks, its triggers, reading and writing rows
 *   values.c       decoded values as SQLite column values; document arguments
 *   errors.c       core and SQLite errors -> SQLite result codes and messages (the one path)
 *   api.c          the SQLite API table (sqlite3_api), set once per process
 */
#ifndef SERDE_SQLITE_H
#define SERDE_SQLITE_H

#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "serde_core.h"

#include <stdbool.h>
#include <stdint.h>

#define SQ_MAX_ERRORS 100           /* rows of serde_errors, as serde.max_errors in PostgreSQL */

/* The plan cache's default bounds (serde_config('cache_bytes' | 'cache_entries', n)). */
/* A decoder or output buffer keeps at most this much memory between calls. */
#define SQ_DECODER_KEEP_BYTES (4u * 1024 * 1024)

#define SQ_CACHE_BYTES_DEFAULT   ((int64_t) 64 * 1024 * 1024)
#define SQ_CACHE_ENTRIES_DEFAULT 64

/* Codes of the adapter's own errors, beyond the core's sd_code. */
#define SQ_E_UNDEFINED ((sd_code) 1000)    /* 42704 unknown shape */
#define SQ_E_NULL      ((sd_code) 1001)    /* 22004 NULL shape name */
#define SQ_E_USAGE     ((sd_code) 1002)    /* 42601-like: a call serde cannot serve */
#define SQ_E_HOST      ((sd_code) 1003)    /* an SQLite call failed: sq_err.rc is its code */
#define SQ_E_REENTRY   ((sd_code) 1004)    /* a serde call while serde reads serde_shapes */
#define SQ_E_CATALOG   ((sd_code) 1005)    /* main.serde_shapes is not a catalog serde can use */

/* One shape of the catalog as read: (name, version, descriptor). */
typedef struct sq_dep
{
	char	   *name;
	int64_t		version;
	char	   *descriptor;
	size_t		dlen;
} sq_dep;

/* A compiled shape: immutable once built, reference counted (the cache holds one reference,
 * every call site — sqlite3_set_auxdata, a virtual-table cursor — holds its own). */
typedef struct sq_shape
{
	int			refcount;
	char	   *name;
	sd_descriptor *desc;
	sd_plan    *plan;
	sd_jwriter *writer;
	int			ndeps;              /* deps[0] is the shape itself, then every shape it uses */
	sq_dep	   *deps;
	char	   *columns;            /* the virtual table's columns: "\"id\" TEXT, \"n\" INTEGER" */
	/* the top-level defaults as SQLite values, for the virtual table (index: default_index) */
	int			ndefaults;
	struct sq_value *defaults;
	/* when it was last known current (cache.c) */
	unsigned int data_version;
	int64_t		total_changes;
	bool		trusted;            /* validated outside an explicit transaction */
	uint64_t	last_used;          /* the cache's LRU clock at its last use */
	size_t		bytes;              /* what it counts for in the cache's bound */
} sq_shape;

/* A value of a virtual-table column. */
typedef struct sq_value
{
	int			type;               /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB */
	int64_t		i;
	double		f;
	char	   *s;                  /* TEXT / BLOB (malloc'd when owned) */
	size_t		len;
} sq_value;

/* Per-connection state: the user data of every function and module of one connection. */
typedef struct sq_conn
{
	sqlite3    *db;
	int			refcount;           /* one per function/module registration */
	sq_shape  **shapes;
	int			nshapes;
	int			cap;
	sd_decoder *decoder;            /* for scalar functions (one call at a time) */
	bool		decoder_busy;
	sd_decoder *spare;              /* a decoder a closed cursor gave back */
	sd_buf		out;                /* serde_decode's output buffer */
	int64_t		compiles;
	int64_t		hits;
	int64_t		invalidations;
	int64_t		evictions;
	uint64_t	clock;              /* LRU clock: one tick per cache lookup */
	int64_t		cache_bytes;        /* bounds of the plan cache (serde_config) */
	int			cache_entries;
	int			catalog_depth;      /* > 0 while serde reads or writes serde_shapes */
	int64_t		catalog_cookie;     /* main's schema version when serde_shapes was checked */
	int			catalog_state;      /* then: 1 serde's catalog, 0 none (catalog.c) */
	bool		catalog_in_txn;     /* ... found inside a transaction */
	/* the catalog's statements kept prepared between calls (catalog.c): only while an instance
	 * of serde_cache_stats is connected, whose xDisconnect (run by sqlite3_close before it
	 * looks for unfinalized statements) finalizes them */
	sqlite3_stmt *st_cookie;        /* PRAGMA main.schema_version */
	sqlite3_stmt *st_lookup;        /* SELECT version, descriptor FROM main.serde_shapes ... */
	bool		st_cookie_busy;     /* ... taken by a call */
	bool		st_lookup_busy;
	int			anchors;            /* connected instances of serde_cache_stats */
	bool		anchor_failed;      /* none could be connected: prepare per call, as before */
	sd_limits	limits;
	sd_hooks	hooks;              /* malloc, and should_stop polling is_interrupted */
	sd_hooks	plan_hooks;         /* the same, counting into plan_bytes: for compiled shapes */
	int64_t		plan_bytes;         /* bytes the core holds through plan_hooks */
	int			(*is_interrupted) (sqlite3 *);     /* SQLite >= 3.41, else NULL */
} sq_conn;

/* An error for the caller: code, text (sqlite3_malloc'd), and the result code of the SQLite
 * call that failed (0: the code's, sq_result_code). */
typedef struct sq_err
{
	sd_code		code;
	int			rc;
	char	   *msg;                /* "<shape>: <path>: <problem>" */
	int64_t		offset;
} sq_err;

#define SQ_ERR_INIT {SD_OK, 0, NULL, -1}

/* ---- api.c ------------------------------------------------------------------------------ */
/* Sets the API table once per process; false when it is another SQLite library's. */
bool		sq_api_set(const sqlite3_api_routines *api);

/* ---- errors.c: the one error path ------------------------------------------------------- */
int			sq_result_code(sd_code code);
const char *sq_sqlstate(sd_code code);
/* a fault of the document (serde_valid's 0, a row of serde_errors), not one to raise */
bool		sq_code_is_document(sd_code code);
/* "<shape>: <path>: <problem>" (an empty path left out) in SQLite's words, sqlite3_malloc'd */
char	   *sq_message(const char *shape, const char *path, const char *problem);
void		sq_err_core(sq_err *e, const char *shape, const sd_error *err);
/* an error of an XML decode of plan (a json field XML cannot fill: SD_E_UNSUPPORTED) */
void		sq_err_core_xml(sq_err *e, const char *shape, const sd_plan *plan, const sd_error *err);
/* a row of sd_check_*_found; xml_plan: the plan for an XML document, NULL for JSON */
void		sq_err_found(sq_err *e, const char *shape, const sd_plan *xml_plan, const sd_found *f);
void		sq_err_printf(sq_err *e, sd_code code, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));
/* an SQLite call on db failed with rc: "serde: <what>: <sqlite3_errmsg>", rc kept */
void		sq_err_sqlite(sq_err *e, sqlite3 *db, int rc, const char *what);
void		sq_err_clear(sq_err *e);
int			sq_err_rc(const sq_err *e);
/* raise e from a scalar function / a virtual table method / xCreate (pzErr); e is cleared */
void		sq_result_err(sqlite3_context *ctx, sq_err *e);
int			sq_vtab_err(sqlite3_vtab *vt, sq_err *e);
int			sq_err_take(sq_err *e, char **pzErr);

/* ---- values.c --------------------------------------------------------------------------- */
/* The bytes of a document argument: a BLOB as is, anything else as its text; NULL for NULL. */
const char *sq_value_doc(sqlite3_value *v, size_t *len);
/* The SQL type of a field's column in the virtual table. */
const char *sq_column_type(const sd_node *n);
/* The value at tape[i], decoded against node, as a column value; TEXT and BLOB point into the
 * tape or into buf (reset by the caller).  False when out of memory. */
bool		sq_field_value(const sq_shape *s, const sd_node *node, const sd_val *tape, uint32_t i,
						   sd_buf *buf, sq_value *out);
void		sq_result_value(sqlite3_context *ctx, const sq_value *v);

/* ---- catalog.c -------------------------------------------------------------------------- */
/* Reads one shape: 1 found (*dep filled, malloc'd), 0 not found (or no catalog), -1 error. */
int			sq_catalog_read(sq_conn *c, sqlite3_stmt **stmt, const char *name, sq_dep *dep,
							sq_err *e);
void		sq_catalog_finish(sq_conn *c, sqlite3_stmt **stmt);
/* Without a transaction on main: 1 when main's schema is as last checked, with *dv (main's data
 * version) and *tc (total changes) read inside a read transaction; 0 unknown; -1 error. */
int			sq_catalog_probe(sq_conn *c, unsigned int *dv, int64_t *tc, sq_err *e);
int			sq_catalog_write(sq_conn *c, const char *name, const char *descriptor, size_t len,
							 sq_err *e);
/* 1 deleted, 0 not there, -1 error */
int			sq_catalog_delete(sq_conn *c, const char *name, sq_err *e);
void		sq_dep_free(sq_dep *dep);
/* Finalizes the statements kept prepared (serde_cache_stats' xDisconnect, connection close). */
void		sq_catalog_release(sq_conn *c);

/* ---- cache.c ---------------------------------------------------------------------------- */
/* The current compiled shape `name` (a new reference: sq_shape_unref it), or NULL with *e set. */
sq_shape   *sq_shape_get(sq_conn *c, const char *name, sq_err *e);
/* Compiles a descriptor that is not in the catalog (serde_register's check). */
sq_shape   *sq_shape_build(sq_conn *c, const char *name, const char *json, size_t len, sq_err *e);
void		sq_shape_unref(void *s);
void		sq_shape_ref(sq_shape *s);
/* Evicts least recently used plans until the cache is within its bounds. */
void		sq_cache_trim(sq_conn *c);
/* Drops the cache (connection close). */
void		sq_cache_clear(sq_conn *c);
size_t		sq_cache_bytes(const sq_conn *c);

/* ---- conn.c ----------------------------------------------------------------------------- */
sq_conn    *sq_conn_new(sqlite3 *db);
void		sq_conn_unref(void *p);
sd_decoder *sq_decoder_get(sq_conn *c);
void		sq_decoder_put(sq_conn *c, sd_decoder *d);

/* ---- functions.c / vtab.c / errors_vtab.c: registration (serde.c calls them) ------------ */
int			sq_functions_register(sqlite3 *db, sq_conn *c);
int			sq_infer_register(sqlite3 *db, sq_conn *c);   /* infer.c: serde_infer */
int			sq_vtab_register(sqlite3 *db, sq_conn *c);
int			sq_errors_register(sqlite3 *db, sq_conn *c);
int			sq_each_register(sqlite3 *db, sq_conn *c);   /* each_vtab.c */

#endif							/* SERDE_SQLITE_H */
