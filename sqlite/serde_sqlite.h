/*
 * serde_sqlite.h — what the files of the SQLite adapter share: the per-connection state (plan
 * cache, decoders, counters), the compiled shape a call site holds, and the helpers that turn
 * core errors into SQLite errors.  The manual is the comment at the top of serde.c.
 *
 *   serde.c        entry point, scalar functions, function flags, error mapping
 *   catalog.c      the serde_shapes table, its triggers, reading and writing shapes
 *   cache.c        per-connection plan cache: compile, revalidate by version, statistics
 *   vtab.c         CREATE VIRTUAL TABLE … USING serde(Shape): one typed column per field
 *   errors_vtab.c  the eponymous table-valued functions serde_errors and serde_cache_stats
 */
#ifndef SERDE_SQLITE_H
#define SERDE_SQLITE_H

#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "serde_core.h"

#include <stdbool.h>
#include <stdint.h>

#define SQ_MAX_ERRORS 100           /* rows of serde_errors, as serde.max_errors in PostgreSQL */

/* Codes of the adapter's own errors, beyond the core's sd_code. */
#define SQ_E_UNDEFINED ((sd_code) 1000)    /* 42704 unknown shape */
#define SQ_E_NULL      ((sd_code) 1001)    /* 22004 NULL shape name */
#define SQ_E_USAGE     ((sd_code) 1002)    /* 42601-like: a call serde cannot serve */

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
	sd_limits	limits;
	sd_hooks	hooks;              /* malloc, and should_stop polling is_interrupted */
	int			(*is_interrupted) (sqlite3 *);     /* SQLite >= 3.41, else NULL */
} sq_conn;

/* An error for the caller: text (sqlite3_malloc'd) and codes. */
typedef struct sq_err
{
	sd_code		code;
	char	   *msg;                /* "<shape>: <path>: <problem>" */
	int64_t		offset;
} sq_err;

/* ---- serde.c ---------------------------------------------------------------------------- */
int			sq_result_code(sd_code code);
const char *sq_sqlstate(sd_code code);
/* "<shape>: <path>: <problem>" (an empty path left out), by the core's sd_message, allocated
 * with sqlite3_malloc */
char	   *sq_message(const char *shape, const char *path, const char *problem);
char	   *sq_format_error(const char *shape, const sd_error *err);
void		sq_err_set(sq_err *e, const char *shape, const sd_error *err);
void		sq_err_printf(sq_err *e, sd_code code, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));
void		sq_err_clear(sq_err *e);
void		sq_result_err(sqlite3_context *ctx, sq_err *e);
const char *sq_value_doc(sqlite3_value *v, size_t *len);
sd_decoder *sq_decoder_get(sq_conn *c);
void		sq_decoder_put(sq_conn *c, sd_decoder *d);
void		sq_conn_unref(void *p);
const sd_hooks *sq_hooks(void);

/* ---- catalog.c -------------------------------------------------------------------------- */
/* Creates main.serde_shapes and its triggers if they do not exist. */
int			sq_catalog_create(sqlite3 *db, char **errmsg);
/* Reads one shape: 1 found (*dep filled, malloc'd), 0 not found (or no catalog), -1 error. */
int			sq_catalog_read(sqlite3 *db, sqlite3_stmt **stmt, const char *name, sq_dep *dep,
							char **errmsg);
void		sq_catalog_finish(sqlite3_stmt **stmt);
int			sq_catalog_write(sqlite3 *db, const char *name, const char *descriptor, size_t len,
							 char **errmsg);
/* 1 deleted, 0 not there, -1 error */
int			sq_catalog_delete(sqlite3 *db, const char *name, char **errmsg);
void		sq_dep_free(sq_dep *dep);

/* ---- cache.c ---------------------------------------------------------------------------- */
/* The current compiled shape `name` (a new reference: sq_shape_unref it), or NULL with *e set. */
sq_shape   *sq_shape_get(sq_conn *c, const char *name, sq_err *e);
/* Compiles a descriptor that is not in the catalog (serde_register's check). */
sq_shape   *sq_shape_build(sq_conn *c, const char *name, const char *json, size_t len, sq_err *e);
void		sq_shape_unref(void *s);
void		sq_shape_ref(sq_shape *s);
/* Drops the cache (connection close). */
void		sq_cache_clear(sq_conn *c);
size_t		sq_cache_bytes(const sq_conn *c);
/* The SQL type of a field's column in the virtual table. */
const char *sq_column_type(const sd_node *n);

/* ---- vtab.c / errors_vtab.c ------------------------------------------------------------- */
int			sq_vtab_register(sqlite3 *db, sq_conn *c);
int			sq_errors_register(sqlite3 *db, sq_conn *c);
/* The value at tape[i], decoded against node, as a column value (vtab.c); TEXT and BLOB point
 * into the tape or into buf (reset by the caller).  False when out of memory. */
bool		sq_field_value(const sq_shape *s, const sd_node *node, const sd_val *tape, uint32_t i,
						   sd_buf *buf, sq_value *out);

#endif							/* SERDE_SQLITE_H */
