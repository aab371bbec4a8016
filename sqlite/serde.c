/*
** serde.c — serde for SQLite: validate JSON documents against registered shapes and decode them
** into typed values.  This comment is the manual (SQLite ext/misc style), a summary of
** the contract, docs/reference.md the full reference.
**
** BUILD AND LOAD
**
**     make sqlite                         builds sqlite/serde.so (needs no PostgreSQL headers)
**     sqlite> .load ./sqlite/serde        the sqlite3 shell (entry point sqlite3_serde_init)
**     conn.enable_load_extension(True); conn.load_extension("./sqlite/serde")     Python
**     sqlite3_load_extension(db, "./sqlite/serde", NULL, &err)                     C
**
** It contains the whole host-neutral core of serde, with the JSON walker compiled for every
** SIMD kernel (icelake, haswell, westmere, fallback) and the best one the CPU supports chosen
** when the library is loaded.  SQLite 3.37 or later (3.40 is what it is tested with).
**
** SHAPES
**
**     SELECT serde_register('Line', '{"fields": {"sku": {"type": "text"},
**                                               "qty": {"type": "integer", "default": 1}}}');
**     SELECT serde_register('Invoice', '{"optional": true, "fields": {
**              "id": {"type": "text", "optional": false, "nullable": false},
**              "total": {"type": "integer", "name": "amount_due"},
**              "lines": {"type": {"list": {"shape": "Line"}}}}}');
**
** A descriptor is the shape options of docs/reference.md, "Shape options" (fields, rename, unknown, extra, coerce,
** optional, tag/variants, xml; per field name, path, optional, default, nullable, skip, format,
** shape, xml, xml_item) plus a "type" for every field:
**
**     text  integer  real  numeric  boolean  timestamp  date  uuid  blob  json
**     {"enum": ["a", "b"]}   {"list": T}   {"map": T}   {"shape": "Name"}
**
** Columns are the members of "fields" in the order written.  A timestamp needs an offset and is
** returned in UTC (SQLite's timestamp is PostgreSQL's timestamptz); format "unix" / "unix_ms"
** read epoch numbers; blobs are base64 unless format says "base64url" or "hex".
** What SQLite has no type for is refused with the list above ("varchar(20)", "int4", "time"),
** and so is a `map` option (write {"map": T}).  Registration checks everything (options, types,
** defaults, the shapes referred to, which must be registered first) and fails with 22023 and the
** descriptor path: `Invoice: $.fields.total.type: unknown type "int4" (expected text, ...)`.
**
** Shapes are kept in the table serde_shapes(name TEXT PRIMARY KEY, descriptor TEXT NOT NULL,
** version INTEGER NOT NULL) of the main database, created by the first serde_register, with two
** triggers (plain SQL) that give a row a new version whenever it is inserted or its descriptor
** changes.  Plain INSERT/UPDATE/DELETE work too, from connections that never loaded serde; a bad
** descriptor written that way is reported, with the shape's name, when it is first used.
**
**     serde_register(shape, descriptor)   create or replace; returns NULL
**     serde_unregister(shape)             1 if the shape existed, else 0
**
** DECODING
**
**     serde_decode(shape, doc)     the row as canonical JSON text: keys are column
**                                  names in column order; integers and reals as numbers; numerics
**                                  as the exact literal; booleans as true/false; timestamps as
**                                  RFC 3339 UTC strings ending in Z; dates "2024-06-30"; uuids
**                                  lower case; blobs base64; enums their label; json values
**                                  minified; lists as arrays, maps and nested shapes as objects;
**                                  missing optional members as null.  JSON subtype set, so
**                                  json_object('inv', serde_decode(...)) nests it.
**     serde_valid(shape, doc)      1 or 0 (a document error is 0; an unknown shape an error)
**     serde_errors(shape, doc)     table-valued: path, code, message, byte_offset — every
**                                  violation in document order (at most 100); malformed JSON is
**                                  one row
**     serde_describe(shape)        the compiled shape as JSON (every field, its document name,
**                                  type, optional/default/nullable)
**     serde_cache_stats()          table-valued: plans, compiles, hits, invalidations, bytes of
**                                  this connection's plan cache
**
** doc is TEXT or a BLOB of UTF-8 bytes; a NULL doc gives NULL (no rows from serde_errors); a NULL
** shape is an error (22004), an unknown one too (42704: `shape "Nope" does not exist`).
**
**     CREATE VIRTUAL TABLE inv USING serde(Invoice);
**     SELECT * FROM inv('{"id": "in_1", "amount_due": 5}');
**     SELECT i.* FROM inbox, inv(inbox.body) AS i;
**
** gives one row per document with one column per field: INTEGER (integer, boolean 0/1), REAL,
** TEXT (text, numeric exact, timestamp, date, uuid, enum label), BLOB, and JSON text for json
** (as the document has it), lists, maps and nested shapes (canonical JSON).  The document is
** the hidden column `doc` (`serde_doc` when the shape has a field named doc; it reads as NULL);
** a NULL document gives no row.  The table records the columns it was created with (in its shadow
** table <name>_columns): after the shape's columns change (a field added, removed, renamed or of
** another SQL type), using it fails with `Invoice: the shape's columns changed since virtual
** table "inv" was created; recreate it: DROP TABLE inv; CREATE VIRTUAL TABLE inv USING
** serde(Invoice)`; a change that keeps the columns (a rename option, a new default) takes effect.
**
** XML: serde_decode_xml(shape, doc) and serde_valid_xml(shape, doc) decode XML documents with
** the same shapes (the descriptor's xml options, docs/reference.md, "XML names"); SELECT * FROM serde_errors_xml(shape,
** doc) lists every violation, in document order, with XPath paths.  A union's tag is an
** attribute or a child element; `extra` receives the unmapped elements and attributes as JSON.
**
** LIMITS
**
** Nesting depth 512 (the root value is level 1), documents up to 1 GB, 100 rows of serde_errors,
** 32 shapes and 64 MB per compiled plan; quoted document values in messages cut at 40 characters.
**
** ERRORS
**
** Every message reads `<shape>: <path>: <problem>`, e.g.
**     Invoice: $.lines[2].qty: expected integer, found string "2"
** with the SQLite result code:
**     SQLITE_ERROR      malformed JSON (22P02), unknown or NULL shape, bad descriptor (22023)
**     SQLITE_MISMATCH   the document does not fit: wrong kind, bad scalar, missing or unknown
**                       or duplicate member, out of range, bad date, string too long
**     SQLITE_CONSTRAINT_NOTNULL  null where the field is not nullable (23502)
**     SQLITE_TOOBIG     nested deeper than 512 levels (54001), larger than 1 GB (54000)
**     SQLITE_NOMEM, SQLITE_INTERRUPT, SQLITE_INTERNAL
** serde_errors.code is the SQLSTATE of docs/reference.md, "Errors" (22032, 2203A, ...) and byte_offset the 0-based
** byte offset of the offending value.
**
** PLANS, CACHES, CHANGES
**
** A shape is compiled once per connection; a call whose shape argument is a constant keeps its
** plan (sqlite3_set_auxdata) for the rest of its statement.  A change of serde_shapes — through
** serde_register, plain SQL, another connection, or a rolled-back transaction — is honoured by
** the next statement; a write to any other table recompiles nothing (cache.c explains how).
**
** THREADS AND INTERRUPTS
**
** Every connection has its own cache and decoders; nothing is shared between connections but
** read-only data, so connections may run in different threads (each used by one thread at a
** time, as SQLite requires); the decoder may use up to 1 MB of C stack.  sqlite3_interrupt stops a statement between rows and between
** documents.  Inside one document, the decoder polls sqlite3_is_interrupted() when the running
** SQLite has it (3.41 and later, looked up at run time); SQLite 3.40 offers an extension no way
** to see an interrupt, so there one document is always decoded to its end (bounded by its size).
*/
#include "serde_sqlite.h"
#include "engine_xml.h"

SQLITE_EXTENSION_INIT1

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQ_DECODER_KEEP_BYTES (4u * 1024 * 1024)

/* ---- errors ------------------------------------------------------------------------------ */

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
		default:                /* syntax, options, unknown shape, NULL shape, usage */
			return SQLITE_ERROR;
	}
}

/* The core's one formatter (sd_message), into SQLite's allocator. */
char *
sq_message(const char *shape, const char *path, const char *problem)
{
	char		buf[SD_SHAPE_NAME_MAX * 4 + SD_PATH_MAX + SD_PROBLEM_MAX + 8];

	sd_message(buf, sizeof(buf), shape, path, problem);
	return sqlite3_mprintf("%s", buf);
}

char *
sq_format_error(const char *shape, const sd_error *err)
{
	return sq_message(shape, err->path, err->problem);
}

void
sq_err_set(sq_err *e, const char *shape, const sd_error *err)
{
	sqlite3_free(e->msg);
	e->code = err->code;
	e->offset = err->offset;
	if (err->code == SD_E_NOMEM)
		e->msg = sqlite3_mprintf("serde: out of memory");
	else if (err->code == SD_E_CANCELED)
		e->msg = sqlite3_mprintf("%s: interrupted", shape);
	else
		e->msg = sq_format_error(shape, err);
}

void
sq_err_printf(sq_err *e, sd_code code, const char *fmt,...)
{
	va_list		ap;

	sqlite3_free(e->msg);
	va_start(ap, fmt);
	e->msg = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	e->code = code;
	e->offset = -1;
}

void
sq_err_clear(sq_err *e)
{
	sqlite3_free(e->msg);
	e->msg = NULL;
	e->code = SD_OK;
	e->offset = -1;
}

void
sq_result_err(sqlite3_context *ctx, sq_err *e)
{
	if (e->code == SD_E_NOMEM)
		sqlite3_result_error_nomem(ctx);
	else
	{
		sqlite3_result_error(ctx, e->msg ? e->msg : "serde: error", -1);
		sqlite3_result_error_code(ctx, sq_result_code(e->code));
	}
	sq_err_clear(e);
}

/* ---- per-connection state ---------------------------------------------------------------- */

/* sqlite3_is_interrupted() is in the API table from 3.41 on, right after the last 3.40 member:
 * compiled against 3.40's sqlite3ext.h, it is reached past the end of that struct, only when
 * the running library is new enough to have it. */
typedef struct sq_api_341
{
	sqlite3_api_routines base;
	int			(*is_interrupted) (sqlite3 *);
} sq_api_341;

static int	(*interrupted_fn (void)) (sqlite3 *)
{
	if (sqlite3_libversion_number() >= 3041000)
		return ((const sq_api_341 *) sqlite3_api)->is_interrupted;
	return NULL;
}

static bool
should_stop(void *ud)
{
	const sq_conn *c = ud;

	return c->is_interrupted != NULL && c->is_interrupted(c->db) != 0;
}

sd_decoder *
sq_decoder_get(sq_conn *c)
{
	sd_decoder *d;

	if (!c->decoder_busy)
	{
		if (!c->decoder)
			c->decoder = sd_decoder_create(&c->hooks);
		if (c->decoder)
			c->decoder_busy = true;
		return c->decoder;
	}
	if (c->spare)
	{
		d = c->spare;
		c->spare = NULL;
		return d;
	}
	return sd_decoder_create(&c->hooks);
}

void
sq_decoder_put(sq_conn *c, sd_decoder *d)
{
	if (!d)
		return;
	if (sd_decoder_bytes(d) > SQ_DECODER_KEEP_BYTES)
		sd_decoder_trim(d, SQ_DECODER_KEEP_BYTES);
	if (d == c->decoder)
		c->decoder_busy = false;
	else if (!c->spare)
		c->spare = d;
	else
		sd_decoder_destroy(d);
}

void
sq_conn_unref(void *p)
{
	sq_conn    *c = p;

	if (--c->refcount > 0)
		return;
	sq_cache_clear(c);
	if (c->decoder)
		sd_decoder_destroy(c->decoder);
	if (c->spare)
		sd_decoder_destroy(c->spare);
	sd_buf_free(&c->out);
	free(c);
}

/* ---- arguments --------------------------------------------------------------------------- */

/* The bytes of a document argument: a BLOB as is, anything else as its text; NULL for NULL. */
const char *
sq_value_doc(sqlite3_value *v, size_t *len)
{
	const char *s;

	switch (sqlite3_value_type(v))
	{
		case SQLITE_NULL:
			return NULL;
		case SQLITE_BLOB:
			s = sqlite3_value_blob(v);
			*len = (size_t) sqlite3_value_bytes(v);
			return s ? s : "";
		default:
			s = (const char *) sqlite3_value_text(v);
			*len = (size_t) sqlite3_value_bytes(v);
			return s ? s : "";
	}
}

/* The shape named by argument 0: the plan this call site holds for its statement, or the
 * cache's current one (then held).  A new reference, or NULL with *e set. */
static sq_shape *
call_shape(sqlite3_context *ctx, sq_conn *c, sqlite3_value *arg, sq_err *e)
{
	sq_shape   *s = sqlite3_get_auxdata(ctx, 0);

	if (s)
	{
		sq_shape_ref(s);
		return s;
	}
	if (sqlite3_value_type(arg) == SQLITE_NULL)
	{
		sq_err_printf(e, SQ_E_NULL, "serde: shape name must not be NULL");
		return NULL;
	}
	if (!(s = sq_shape_get(c, (const char *) sqlite3_value_text(arg), e)))
		return NULL;
	sq_shape_ref(s);
	sqlite3_set_auxdata(ctx, 0, s, sq_shape_unref);
	return s;
}

/* Decodes doc (JSON, or XML for the _xml functions) against s's root; true with *root set, or
 * false with *e set. */
static bool
decode(sq_conn *c, sq_shape *s, sd_decoder *d, const char *doc, size_t len, bool xml,
	   uint32_t *root, sq_err *e)
{
	sd_error	err;

	if (xml ? sd_decode_xml(d, s->plan, sd_plan_root(s->plan), doc, len, &c->limits, root, &err) :
		sd_decode_json(d, s->plan, sd_plan_root(s->plan), doc, len, &c->limits, root, &err))
		return true;
	sq_err_set(e, s->name, &err);
	return false;
}

/* ---- the functions ------------------------------------------------------------------------ */

static void
fn_register(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_err		e = {SD_OK, NULL, -1};
	const char *name;
	const char *desc;
	size_t		len;
	sq_shape   *s;
	char	   *msg = NULL;

	(void) argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
	{
		sq_err_printf(&e, SQ_E_NULL, "serde: shape name must not be NULL");
		sq_result_err(ctx, &e);
		return;
	}
	name = (const char *) sqlite3_value_text(argv[0]);
	if (!name || !name[0])
	{
		sq_err_printf(&e, SD_E_OPTIONS, "serde: shape name must not be empty");
		sq_result_err(ctx, &e);
		return;
	}
	if (strlen(name) > SD_SHAPE_NAME_MAX)
	{
		sq_err_printf(&e, SD_E_OPTIONS, "serde: shape name \"%.20s...\" is too long: it has %lld bytes, "
					  "shape names have at most %d", name, (long long) strlen(name), SD_SHAPE_NAME_MAX);
		sq_result_err(ctx, &e);
		return;
	}
	if (sqlite3_value_type(argv[1]) == SQLITE_NULL)
	{
		sq_err_printf(&e, SD_E_OPTIONS, "%s: descriptor must not be NULL", name);
		sq_result_err(ctx, &e);
		return;
	}
	desc = (const char *) sqlite3_value_text(argv[1]);
	len = (size_t) sqlite3_value_bytes(argv[1]);
	if (!(s = sq_shape_build(c, name, desc, len, &e)))
	{
		sq_result_err(ctx, &e);
		return;
	}
	sq_shape_unref(s);
	if (sq_catalog_write(c->db, name, desc, len, &msg) != SQLITE_OK)
	{
		sqlite3_result_error(ctx, msg ? msg : "serde: cannot write main.serde_shapes", -1);
		sqlite3_free(msg);
		return;
	}
	sqlite3_result_null(ctx);
}

static void
fn_unregister(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	char	   *msg = NULL;
	int			r;

	(void) argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
	{
		sq_err		e = {SD_OK, NULL, -1};

		sq_err_printf(&e, SQ_E_NULL, "serde: shape name must not be NULL");
		sq_result_err(ctx, &e);
		return;
	}
	r = sq_catalog_delete(c->db, (const char *) sqlite3_value_text(argv[0]), &msg);
	if (r < 0)
	{
		sqlite3_result_error(ctx, msg ? msg : "serde: cannot write main.serde_shapes", -1);
		sqlite3_free(msg);
		return;
	}
	sqlite3_result_int(ctx, r);
}

static void
decode_fn(sqlite3_context *ctx, sqlite3_value **argv, bool xml)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_err		e = {SD_OK, NULL, -1};
	sq_shape   *s = call_shape(ctx, c, argv[0], &e);
	const char *doc;
	size_t		len = 0;
	sd_decoder *d;
	uint32_t	root;

	if (!s)
	{
		sq_result_err(ctx, &e);
		return;
	}
	if ((doc = sq_value_doc(argv[1], &len)) == NULL)
	{
		sq_shape_unref(s);
		sqlite3_result_null(ctx);
		return;
	}
	if (!(d = sq_decoder_get(c)))
		sq_err_printf(&e, SD_E_NOMEM, "serde: out of memory");
	else if (decode(c, s, d, doc, len, xml, &root, &e))
	{
		sd_buf_reset(&c->out);
		if (!sd_jwriter_write(s->writer, sd_plan_root(s->plan), sd_decoder_tape(d), root, &c->out) ||
			!c->out.s)
			sq_err_printf(&e, SD_E_NOMEM, "serde: out of memory");
		else
		{
			sqlite3_result_text(ctx, c->out.s, (int) c->out.len, SQLITE_TRANSIENT);
			sqlite3_result_subtype(ctx, 'J');   /* JSON, for the json functions */
		}
		if (c->out.cap > SQ_DECODER_KEEP_BYTES)
		{
			sd_buf_free(&c->out);
			sd_buf_init(&c->out, &c->hooks);
		}
	}
	sq_decoder_put(c, d);
	sq_shape_unref(s);
	if (e.code != SD_OK)
		sq_result_err(ctx, &e);
}

static void
fn_decode(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void) argc;
	decode_fn(ctx, argv, false);
}

/* serde_decode_xml(shape, doc): the same row from an XML document (docs/reference.md, "Decoding XML"). */
static void
fn_decode_xml(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void) argc;
	decode_fn(ctx, argv, true);
}

/* A document error (false) or something serde_valid must raise. */
static bool
soft_code(sd_code code)
{
	return code != SD_E_NOMEM && code != SD_E_CANCELED && code != SD_E_INTERNAL &&
		code != SD_E_OPTIONS;
}

static void
valid_fn(sqlite3_context *ctx, sqlite3_value **argv, bool xml)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_err		e = {SD_OK, NULL, -1};
	sq_shape   *s = call_shape(ctx, c, argv[0], &e);
	const char *doc;
	size_t		len = 0;
	sd_decoder *d;
	uint32_t	root;

	if (!s)
	{
		sq_result_err(ctx, &e);
		return;
	}
	if ((doc = sq_value_doc(argv[1], &len)) == NULL)
		sqlite3_result_null(ctx);
	else if (!(d = sq_decoder_get(c)))
		sq_err_printf(&e, SD_E_NOMEM, "serde: out of memory");
	else
	{
		if (decode(c, s, d, doc, len, xml, &root, &e))
			sqlite3_result_int(ctx, 1);
		else if (soft_code(e.code))
		{
			sq_err_clear(&e);
			sqlite3_result_int(ctx, 0);
		}
		sq_decoder_put(c, d);
	}
	sq_shape_unref(s);
	if (e.code != SD_OK)
		sq_result_err(ctx, &e);
}

static void
fn_valid(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void) argc;
	valid_fn(ctx, argv, false);
}

static void
fn_valid_xml(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void) argc;
	valid_fn(ctx, argv, true);
}

static void
fn_describe(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_err		e = {SD_OK, NULL, -1};
	sq_shape   *s = call_shape(ctx, c, argv[0], &e);
	size_t		len = 0;
	char	   *json;

	(void) argc;
	if (!s)
	{
		sq_result_err(ctx, &e);
		return;
	}
	if (!(json = sd_plan_describe(s->plan, &len)))
		sqlite3_result_error_nomem(ctx);
	else
	{
		sqlite3_result_text(ctx, json, (int) len, SQLITE_TRANSIENT);
		sqlite3_result_subtype(ctx, 'J');
		free(json);             /* NULL hooks: malloc */
	}
	sq_shape_unref(s);
}

/*
 * Function flags, for SQLite's security model:
 *  - No function is SQLITE_DETERMINISTIC: each result depends on serde_shapes, which may change
 *    under an index, a generated column or a partial-index WHERE that would store it.
 *  - serde_register and serde_unregister write the catalog: SQLITE_DIRECTONLY, so that no view,
 *    trigger or schema object of an untrusted database file can call them.
 *  - serde_decode, serde_valid, serde_describe (and the serde_errors table) are SQLITE_INNOCUOUS:
 *    they have no side effect but filling this connection's plan cache, read only main's
 *    serde_shapes (which such an object could read itself), and every document and descriptor is
 *    bounded (512 levels, 1 GB, 32 shapes and 64 MB per plan), so nothing an untrusted schema
 *    hands them can do harm.
 *  - serde_cache_stats tells about this connection's state: neither innocuous nor direct-only.
 */
typedef struct fn_def
{
	const char *name;
	int			nargs;
	int			flags;
	void		(*fn) (sqlite3_context *, int, sqlite3_value **);
} fn_def;

static const fn_def functions[] = {
	{"serde_register", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, fn_register},
	{"serde_unregister", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, fn_unregister},
	{"serde_decode", 2, SQLITE_UTF8 | SQLITE_INNOCUOUS, fn_decode},
	{"serde_valid", 2, SQLITE_UTF8 | SQLITE_INNOCUOUS, fn_valid},
	{"serde_describe", 1, SQLITE_UTF8 | SQLITE_INNOCUOUS, fn_describe},
	/* XML (docs/reference.md, "SQLite"): the same shapes through the core's XML walker and engine_xml.c */
	{"serde_decode_xml", 2, SQLITE_UTF8 | SQLITE_INNOCUOUS, fn_decode_xml},
	{"serde_valid_xml", 2, SQLITE_UTF8 | SQLITE_INNOCUOUS, fn_valid_xml},
};

static int
register_functions(sqlite3 *db, sq_conn *c)
{
	for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
	{
		int			rc;

		c->refcount++;          /* xDestroy (sq_conn_unref) runs even when this fails */
		rc = sqlite3_create_function_v2(db, functions[i].name, functions[i].nargs,
										functions[i].flags, c, functions[i].fn, NULL, NULL,
										sq_conn_unref);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

/* the one exported symbol (the objects are built with -fvisibility=hidden) */
__attribute__((visibility("default"))) int
sqlite3_serde_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api)
{
	sq_conn    *c;
	int			rc;

	/*
	 * SQLITE_EXTENSION_INIT2 stores the API table in a global on every load; connections of
	 * several threads load the extension concurrently, so the store is made once, under a lock
	 * (later loads read it after taking the same lock: no data race, ThreadSanitizer agrees).
	 * One process, one SQLite library: a second library's table is refused.
	 */
	{
		static pthread_mutex_t api_lock = PTHREAD_MUTEX_INITIALIZER;
		bool		other;

		pthread_mutex_lock(&api_lock);
		if (sqlite3_api == NULL)
			SQLITE_EXTENSION_INIT2(api);
		other = sqlite3_api != api;
		pthread_mutex_unlock(&api_lock);
		if (other)
		{
			if (api->mprintf)
				*errmsg = api->mprintf("serde: already loaded by another SQLite library in this process");
			return SQLITE_ERROR;
		}
	}
	if (sqlite3_libversion_number() < 3037000)
	{
		*errmsg = sqlite3_mprintf("serde: needs SQLite 3.37 or later, not %s", sqlite3_libversion());
		return SQLITE_ERROR;
	}
	(void) sd_json_kernel();	/* choose the kernel now, at load time, not in a decode */
	if (!(c = calloc(1, sizeof(sq_conn))))
		return SQLITE_NOMEM;
	c->db = db;
	c->refcount = 1;            /* ours, until the end of this function */
	c->limits.max_depth = SD_DEFAULT_MAX_DEPTH;
	c->limits.max_document_bytes = SD_DEFAULT_MAX_DOCUMENT_BYTES;
	c->limits.stack_budget = 0;
	c->hooks.should_stop = should_stop;
	c->hooks.ud = c;
	c->is_interrupted = interrupted_fn();
	sd_buf_init(&c->out, &c->hooks);

	rc = register_functions(db, c);
	if (rc == SQLITE_OK)
		rc = sq_vtab_register(db, c);
	if (rc == SQLITE_OK)
		rc = sq_errors_register(db, c);
	if (rc != SQLITE_OK)
		*errmsg = sqlite3_mprintf("serde: cannot register its functions: %s", sqlite3_errmsg(db));
	sq_conn_unref(c);
	return rc;
}
