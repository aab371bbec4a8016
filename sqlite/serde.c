/*
** serde.c — serde for SQLite: validate JSON documents against registered shapes and decode them
** into typed values.  This comment is the manual (SQLite ext/misc style); docs/reference.md
** (section 7, SQLite) is the full reference.
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
** A descriptor is the shape options of docs/reference.md section 3 (fields, rename, unknown, extra, coerce,
** optional, tag/variants, xml, attributes; per field name, path, optional, default, nullable, skip, format,
** shape, xml, xml_item, xml_choice) plus a "type" for every field:
**
**     text  integer  real  numeric  boolean  timestamp  date  uuid  blob  json
**     {"enum": ["a", "b"]}   {"list": T}   {"map": T}   {"shape": "Name"}
**     {"object": {"fields": {...}, ...}}     (an inline object: a descriptor of its own, unnamed)
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
**                                  violation in document order (a missing member where its
**                                  object begins; at most 100); malformed JSON is one row
**     serde_describe(shape)        the compiled shape as JSON (every field, its document name,
**                                  type, optional/default/nullable)
**     serde_cache_stats()          table-valued: plans, compiles, hits, invalidations, bytes,
**                                  evictions, cache_bytes, cache_entries of this connection's
**                                  plan cache
**     serde_config(name[, value])  a setting of this connection (PLANS, CACHES, CHANGES below)
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
** the hidden column `doc` (`serde_doc` when a field is named doc, in any case; it reads as NULL);
** a NULL document gives no row.  The table records the columns it was created with (in its shadow
** table <name>_columns): after the shape's columns change (a field added, removed, renamed or of
** another SQL type), using it fails with `Invoice: the shape's columns changed since virtual
** table "inv" was created; recreate it: DROP TABLE inv; CREATE VIRTUAL TABLE inv USING
** serde(Invoice)`; a change that keeps the columns (a rename option, a new default) takes effect.
**
** XML: serde_decode_xml(shape, doc) and serde_valid_xml(shape, doc) decode XML documents with
** the same shapes (the descriptor's xml options, docs/reference.md 3.4, 3.5); SELECT * FROM
** serde_errors_xml(shape, doc) lists every violation, in document order, with XPath paths.  A
** union's tag is an attribute or a child element; `extra` receives the unmapped elements and
** attributes as JSON.  A json field cannot be decoded from XML (SQLITE_ERROR).
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
**     SQLITE_ERROR      also: a shape feature the input format does not support (0A000; a json
**                       field cannot be decoded from XML), serde_shapes not serde's catalog,
**                       a serde call from inside serde's own catalog access (below)
**     SQLITE_CORRUPT_VTAB  a virtual table's shadow table <name>_columns was tampered with
**     SQLITE_BUSY, SQLITE_READONLY, SQLITE_INTERRUPT, ...  reading or writing serde_shapes
**                       failed: SQLite's own result code, passed on
** One result code per condition, whatever the input format (JSON or XML).  Messages use
** SQLite's words: no PostgreSQL setting (the depth limit is "the depth limit (512)").
** serde_errors.code is the SQLSTATE of docs/reference.md section 4 (22032, 2203A, ...) and
** byte_offset the 0-based byte offset of the offending value; what is no fault of the document
** (out of memory, an interrupt, an unsupported feature) is raised, not listed.
**
** NAMES
**
** Registration refuses what SQLite would refuse or cut later: a NUL in the shape name or
** anywhere in the descriptor (a byte or \u0000: field names, labels, defaults), and fields whose
** virtual-table columns differ only in ASCII case ("A" and "a") or take the document column's
** name ("doc", "serde_doc", any case).  serde_unregister of a name with a NUL returns 0.
**
** UNTRUSTED DATABASE FILES
**
** serde uses main.serde_shapes only when it is an ordinary table of exactly the columns (name
** TEXT PRIMARY KEY, descriptor TEXT, version INTEGER), none generated; a view, a virtual table or
** other columns are refused ("serde: main.serde_shapes is not serde's catalog: it is a view").
** A serde function called while serde itself reads or writes serde_shapes (by a trigger on it)
** fails instead of reading it again, so no database file can make serde recurse, whatever
** PRAGMA trusted_schema says.
**
** PLANS, CACHES, CHANGES
**
** A shape is compiled once per connection; a call whose shape argument is a constant keeps its
** plan (sqlite3_set_auxdata) for the rest of its statement.  A change of serde_shapes — through
** serde_register, plain SQL, another connection, or a rolled-back transaction — is honoured by
** the next statement; a write to any other table recompiles nothing (cache.c explains how).
**
** Checking that a plan is current reads serde_shapes only when something changed: a statement
** that reads no table of main runs PRAGMA main.schema_version on every execution (its read
** transaction tells whether anything was committed since), and reads the rows when the data
** version, the schema or this connection's changes moved.  The two statements are prepared once per
** connection and kept (sqlite3_next_stmt lists them: their SQL reads main.serde_shapes and
** PRAGMA main.schema_version); sqlite3_close finalizes them itself, before it checks for
** statements left open, so a plain sqlite3_close still succeeds.  An application that
** finalizes every statement of a connection before closing it may finalize them too; serde
** does not finalize them twice — but it must not use the connection for serde calls after
** that.  If the database has a table main.serde_cache_stats, nothing is kept (each call
** prepares its statements).
**
** The cache is bounded by bytes (what compiled shapes hold) and by plans; past either bound the
** least recently used plans are evicted:
**
**     serde_config('cache_bytes')           the byte bound (default 67108864, 64 MB)
**     serde_config('cache_bytes', n)        sets it for this connection (0..2^63-1), returns n
**     serde_config('cache_entries'[, n])    the plan bound (default 64; 0..1000000)
**
** The plan a call just used is always kept; a plan evicted while a statement still uses it lives
** until that statement is done.  serde_cache_stats() also has evictions, cache_bytes and
** cache_entries.  serde_config is SQLITE_DIRECTONLY (no view or trigger may change it).
**
** THREADS AND INTERRUPTS
**
** Every connection has its own cache and decoders; nothing is shared between connections but
** read-only data, so connections may run in different threads (each used by one thread at a
** time, as SQLite requires); the decoder may use up to 1 MB of C stack.  sqlite3_interrupt
** stops a statement between rows and between documents, and while serde reads serde_shapes
** (SQLITE_INTERRUPT).  Inside one document, the decoder polls sqlite3_is_interrupted() when the running
** SQLite has it (3.41 and later, looked up at run time); SQLite 3.40 offers an extension no way
** to see an interrupt, so there one document is always decoded to its end (bounded by its size).
*/
#include "serde_sqlite.h"

/* the one exported symbol (the objects are built with -fvisibility=hidden) */
__attribute__((visibility("default"))) int
sqlite3_serde_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api)
{
	sq_conn    *c;
	int			rc;

	if (!sq_api_set(api))
	{
		if (api->mprintf)
			*errmsg = api->mprintf("serde: already loaded by another SQLite library in this process");
		return SQLITE_ERROR;
	}
	if (sqlite3_libversion_number() < 3037000)
	{
		*errmsg = sqlite3_mprintf("serde: needs SQLite 3.37 or later, not %s", sqlite3_libversion());
		return SQLITE_ERROR;
	}
	(void) sd_json_kernel();	/* choose the kernel now, at load time, not in a decode */
	if (!(c = sq_conn_new(db)))
		return SQLITE_NOMEM;

	rc = sq_functions_register(db, c);
	if (rc == SQLITE_OK)
		rc = sq_vtab_register(db, c);
	if (rc == SQLITE_OK)
		rc = sq_errors_register(db, c);
	if (rc == SQLITE_OK)
		rc = sq_infer_register(db, c);
	if (rc == SQLITE_OK)
		rc = sq_each_register(db, c);
	if (rc != SQLITE_OK)
		*errmsg = sqlite3_mprintf("serde: cannot register its functions: %s", sqlite3_errmsg(db));
	sq_conn_unref(c);
	return rc;
}
