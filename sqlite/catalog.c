/*
 * catalog.c — the shape catalog of the SQLite adapter: table main.serde_shapes(name TEXT PRIMARY
 * KEY, descriptor TEXT NOT NULL, version INTEGER NOT NULL), created by the first serde_register,
 * with two plain-SQL triggers that give a row a new version on every INSERT and on every UPDATE
 * of its name or descriptor (so that writers need not load the extension, and the plan caches of
 * every connection see the change).  The triggers reject nothing: a bad descriptor written by
 * plain SQL is reported at its first use, with the shape's name.  Reading and writing rows.
 *
 * What serde takes for its catalog: main.serde_shapes must be an ordinary table (not a view, not
 * a virtual table) with exactly the columns name TEXT PRIMARY KEY, descriptor TEXT, version
 * INTEGER, none generated; anything else is refused ("serde: main.serde_shapes is not serde's
 * catalog: ..."), so that a database file cannot make reading a shape run SQL of its own.  And
 * serde never re-enters itself: a serde function called while serde reads or writes the catalog
 * (by a trigger, a generated column, ...) fails instead of reading it again (which would recurse
 * until the stack overflows).  Failed SQLite calls keep their result code (SQLITE_BUSY,
 * SQLITE_READONLY, SQLITE_INTERRUPT, ...).
 *
 * Calls errors.c.
 */
#include "serde_sqlite.h"

#include <stdlib.h>
#include <string.h>

/* The new version is one more than the largest in the table: a number a shape never had before
 * unless rows were deleted; cache.c also compares the descriptor text, so a reused number never
 * hides a change (a rolled-back transaction can leave a cache with a version that comes again). */
static const char catalog_sql[] =
	"CREATE TABLE IF NOT EXISTS main.serde_shapes(\n"
	"  name TEXT PRIMARY KEY,\n"
	"  descriptor TEXT NOT NULL,\n"
	"  version INTEGER NOT NULL DEFAULT 1);\n"
	"CREATE TRIGGER IF NOT EXISTS main.serde_shapes_insert AFTER INSERT ON serde_shapes BEGIN\n"
	"  UPDATE serde_shapes SET version = (SELECT max(version) FROM serde_shapes) + 1\n"
	"   WHERE rowid = NEW.rowid;\n"
	"END;\n"
	"CREATE TRIGGER IF NOT EXISTS main.serde_shapes_update AFTER UPDATE OF name, descriptor\n"
	"  ON serde_shapes BEGIN\n"
	"  UPDATE serde_shapes SET version = (SELECT max(version) FROM serde_shapes) + 1\n"
	"   WHERE rowid = NEW.rowid;\n"
	"END;\n";

/* ---- statements kept prepared -----------------------------------------------------------
 * A call that reads the catalog runs two statements: PRAGMA main.schema_version (catalog_check)
 * and the lookup of a row.  Preparing them costs more than running them (about 4 us a call
 * for a statement that reads no table, bench/RESULTS.md), so they are prepared once per
 * connection (SQLITE_PREPARE_PERSISTENT; SQLite prepares them again by itself when the schema
 * changed) and reset after each use, their bindings cleared.  A statement kept prepared makes
 * sqlite3_close refuse to close the connection (SQLITE_BUSY), and the connection state is only
 * released after that check; but sqlite3_close disconnects every virtual table before it, the
 * eponymous ones included.  So statements are kept only while this connection's
 * serde_cache_stats is connected (errors_vtab.c counts it in c->anchors; its xDisconnect calls
 * sq_catalog_release): the first call connects it by preparing a statement that names it.  When
 * that is impossible (main.serde_cache_stats is a table of the database), every call prepares
 * and finalizes its statements, as before. */

static bool
anchored(sq_conn *c)
{
	sqlite3_stmt *st = NULL;
	int			rc;

	if (c->anchors > 0)
		return true;
	if (c->anchor_failed)
		return false;
	rc = sqlite3_prepare_v2(c->db, "SELECT 1 FROM main.serde_cache_stats", -1, &st, NULL);
	sqlite3_finalize(st);
	if (c->anchors == 0 && (rc == SQLITE_OK || rc == SQLITE_ERROR))
		c->anchor_failed = true;    /* a table of that name, not ours: for good */
	return c->anchors > 0;
}

/* The statement of sql: the one kept in *slot when it is free, else a new one (kept in *slot
 * when it is empty and the connection anchored).  SQLite's result code. */
static int
stmt_get(sq_conn *c, sqlite3_stmt **slot, bool *busy, const char *sql, sqlite3_stmt **out)
{
	bool		keep = !*slot && anchored(c);
	int			rc;

	if (*slot && !*busy)
	{
		*busy = true;
		*out = *slot;
		return SQLITE_OK;
	}
	rc = sqlite3_prepare_v3(c->db, sql, -1, keep ? SQLITE_PREPARE_PERSISTENT : 0, out, NULL);
	if (rc != SQLITE_OK)
	{
		sqlite3_finalize(*out);
		*out = NULL;
		return rc;
	}
	if (keep)
	{
		*slot = *out;
		*busy = true;
	}
	return SQLITE_OK;
}

/* Gives back a statement of stmt_get: reset (its read transaction ends) and kept, or finalized. */
static void
stmt_put(sq_conn *c, sqlite3_stmt *st)
{
	if (!st)
		return;
	if (st == c->st_cookie || st == c->st_lookup)
	{
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);     /* the name was bound SQLITE_STATIC */
		if (st == c->st_cookie)
			c->st_cookie_busy = false;
		else
			c->st_lookup_busy = false;
	}
	else
		sqlite3_finalize(st);
}

/* Finalizes st unless the application did already (sqlite3_next_stmt still lists it): some
 * finalize every statement of a connection before they close it. */
static void
finalize_listed(sqlite3 *db, sqlite3_stmt *st)
{
	for (sqlite3_stmt *p = sqlite3_next_stmt(db, NULL); st && p; p = sqlite3_next_stmt(db, p))
		if (p == st)
		{
			sqlite3_finalize(st);
			return;
		}
}

void
sq_catalog_release(sq_conn *c)
{
	sqlite3_stmt *a = c->st_cookie;
	sqlite3_stmt *b = c->st_lookup;

	c->st_cookie = c->st_lookup = NULL;
	c->st_cookie_busy = c->st_lookup_busy = false;
	finalize_listed(c->db, a);
	finalize_listed(c->db, b);
}

/* main's schema cookie (PRAGMA schema_version: changes with every change of the schema, also
 * one not yet committed), or -1 with *e set. */
static int64_t
schema_cookie(sq_conn *c, sq_err *e)
{
	sqlite3_stmt *st = NULL;
	int			rc = stmt_get(c, &c->st_cookie, &c->st_cookie_busy, "PRAGMA main.schema_version", &st);
	int64_t		v = -1;

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	else
		sq_err_sqlite(e, c->db, rc == SQLITE_DONE ? SQLITE_ERROR : rc, "cannot read main's schema version");
	stmt_put(c, st);
	return v;
}

static int	catalog_inspect(sq_conn *c, sq_err *e);

/* 1: main.serde_shapes is a catalog serde can use; 0: there is none; -1: error (*e).  An answer
 * is kept for as long as main's schema version is the same: committed versions only grow, and a
 * change inside a transaction bumps it.  A version seen inside a transaction may come again
 * after a ROLLBACK, so an answer found there is dropped at the first check out of it (and the
 * re-entry guard, enter(), stands behind the check whatever it answers). */
static int
catalog_check(sq_conn *c, sq_err *e)
{
	int64_t		cookie = schema_cookie(c, e);
	bool		autocommit = sqlite3_get_autocommit(c->db) != 0;
	int			r;

	if (cookie < 0)
		return -1;
	if (autocommit && c->catalog_in_txn)
		c->catalog_cookie = -1;
	if (cookie == c->catalog_cookie)
		return c->catalog_state;
	if (c->st_lookup && !c->st_lookup_busy)
	{                           /* the schema changed: prepare the lookup again (belt and braces) */
		sqlite3_finalize(c->st_lookup);
		c->st_lookup = NULL;
	}
	if ((r = catalog_inspect(c, e)) >= 0)
	{
		c->catalog_cookie = cookie;
		c->catalog_state = r;
		c->catalog_in_txn = !autocommit;
	}
	return r;
}

static int
catalog_inspect(sq_conn *c, sq_err *e)
{
	static const char *const want[3][2] = {{"name", "TEXT"}, {"descriptor", "TEXT"},
										   {"version", "INTEGER"}};
	sqlite3_stmt *st = NULL;
	int			rc;
	int			n = 0;
	const char *why = NULL;

	rc = sqlite3_prepare_v2(c->db, "SELECT type, sql FROM main.sqlite_schema "
							"WHERE name = 'serde_shapes' COLLATE NOCASE AND type IN ('table', 'view')",
							-1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
	{
		const char *type = (const char *) sqlite3_column_text(st, 0);
		const char *sql = (const char *) sqlite3_column_text(st, 1);

		if (!type || strcmp(type, "table") != 0)
			why = "it is a view";
		else if (sql && sqlite3_strnicmp(sql, "CREATE VIRTUAL", 14) == 0)
			why = "it is a virtual table";
		rc = SQLITE_ROW;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
	{
		sq_err_sqlite(e, c->db, rc, "cannot read main.sqlite_schema");
		return -1;
	}
	if (!why)
	{
		rc = sqlite3_prepare_v2(c->db, "SELECT name, type, pk, hidden FROM "
								"pragma_table_xinfo('serde_shapes', 'main') ORDER BY cid",
								-1, &st, NULL);
		while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		{
			const char *name = (const char *) sqlite3_column_text(st, 0);
			const char *type = (const char *) sqlite3_column_text(st, 1);

			rc = SQLITE_OK;
			if (n >= 3 || !name || !type || sqlite3_stricmp(name, want[n][0]) != 0 ||
				sqlite3_stricmp(type, want[n][1]) != 0 || sqlite3_column_int(st, 2) != (n == 0) ||
				sqlite3_column_int(st, 3) != 0)
			{
				why = "its columns are not (name TEXT PRIMARY KEY, descriptor TEXT, version INTEGER)";
				break;
			}
			n++;
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE && rc != SQLITE_OK)
		{
			sq_err_sqlite(e, c->db, rc, "cannot read the columns of main.serde_shapes");
			return -1;
		}
		if (!why && n != 3)
			why = "its columns are not (name TEXT PRIMARY KEY, descriptor TEXT, version INTEGER)";
	}
	if (why)
	{
		sq_err_printf(e, SQ_E_CATALOG, "serde: main.serde_shapes is not serde's catalog: %s; "
					  "serde refuses to use it", why);
		return -1;
	}
	return 1;
}

/* Refuses a catalog access from inside another one (false, *e set). */
static bool
enter(sq_conn *c, sq_err *e)
{
	if (c->catalog_depth > 0)
	{
		sq_err_printf(e, SQ_E_REENTRY, "serde: a serde function was called while serde was reading "
					  "or writing main.serde_shapes (by a view, a trigger or a generated column); "
					  "refused");
		return false;
	}
	c->catalog_depth++;
	return true;
}

static void
leave(sq_conn *c)
{
	c->catalog_depth--;
}

void
sq_dep_free(sq_dep *dep)
{
	free(dep->name);
	free(dep->descriptor);
	dep->name = dep->descriptor = NULL;
}

/* Is the catalog as it was, without reading serde_shapes?  Runs the kept PRAGMA
 * main.schema_version, and while the read transaction that its step began on main is open
 * (SQLite refreshes main's data version when a read transaction begins) reads the data version
 * and this connection's total changes into *dv and *tc.  1: main's schema is the one
 * catalog_check approved last, outside a transaction, with a catalog in it; 0: it may not be
 * (the caller reads the rows); -1: error (*e).  Only in autocommit mode with no transaction
 * open on main (the caller's case: a statement that reads no table of main). */
int
sq_catalog_probe(sq_conn *c, unsigned int *dv, int64_t *tc, sq_err *e)
{
	sqlite3_stmt *st = NULL;
	int			rc;
	int			r = 0;

	if (!enter(c, e))
		return -1;
	rc = stmt_get(c, &c->st_cookie, &c->st_cookie_busy, "PRAGMA main.schema_version", &st);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
	{
		*dv = 0;
		sqlite3_file_control(c->db, "main", SQLITE_FCNTL_DATA_VERSION, dv);
		*tc = sqlite3_total_changes64(c->db);
		r = sqlite3_column_int64(st, 0) == c->catalog_cookie && c->catalog_state == 1 &&
			!c->catalog_in_txn;
	}
	else
	{
		sq_err_sqlite(e, c->db, rc == SQLITE_DONE ? SQLITE_ERROR : rc, "cannot read main's schema version");
		r = -1;
	}
	stmt_put(c, st);
	leave(c);
	return r;
}

/* Takes the reading statement once per use of *stmt (the caller gives it back with
 * sq_catalog_finish; it is the connection's kept statement, see above); the catalog is checked
 * then. */
int
sq_catalog_read(sq_conn *c, sqlite3_stmt **stmt, const char *name, sq_dep *dep, sq_err *e)
{
	int			rc;
	int			r;

	memset(dep, 0, sizeof(*dep));
	if (!enter(c, e))
		return -1;
	if (*stmt == NULL)
	{
		if ((r = catalog_check(c, e)) <= 0)
		{
			leave(c);
			return r;
		}
		rc = stmt_get(c, &c->st_lookup, &c->st_lookup_busy,
					  "SELECT version, descriptor FROM main.serde_shapes WHERE name = ?1", stmt);
		if (rc != SQLITE_OK)
		{
			*stmt = NULL;
			sq_err_sqlite(e, c->db, rc, "cannot read main.serde_shapes");
			leave(c);
			return -1;
		}
	}
	else
		sqlite3_reset(*stmt);
	sqlite3_bind_text(*stmt, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(*stmt);
	if (rc == SQLITE_DONE)
	{
		sqlite3_reset(*stmt);
		leave(c);
		return 0;
	}
	if (rc != SQLITE_ROW)
	{
		sq_err_sqlite(e, c->db, rc, "cannot read main.serde_shapes");
		sqlite3_reset(*stmt);
		leave(c);
		return -1;
	}
	{
		const unsigned char *t = sqlite3_column_text(*stmt, 1);
		int			n = sqlite3_column_bytes(*stmt, 1);

		dep->version = sqlite3_column_int64(*stmt, 0);
		dep->name = strdup(name);
		dep->descriptor = malloc((size_t) n + 1);
		if (!dep->name || !dep->descriptor)
		{
			sq_dep_free(dep);
			sqlite3_reset(*stmt);
			sq_err_printf(e, SD_E_NOMEM, "serde: out of memory");
			leave(c);
			return -1;
		}
		memcpy(dep->descriptor, t ? (const char *) t : "", (size_t) n);
		dep->descriptor[n] = '\0';
		dep->dlen = (size_t) n;
	}
	sqlite3_reset(*stmt);
	leave(c);
	return 1;
}

void
sq_catalog_finish(sq_conn *c, sqlite3_stmt **stmt)
{
	stmt_put(c, *stmt);
	*stmt = NULL;
}

/* Runs one statement on the catalog binding name (and descriptor); SQLITE_OK or rc with *e. */
static int
catalog_exec(sq_conn *c, const char *sql, const char *name, const char *descriptor, size_t len,
			 const char *what, sq_err *e)
{
	sqlite3_stmt *st = NULL;
	int			rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK)
	{
		if (name)
			sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		if (descriptor)
			sqlite3_bind_text(st, 2, descriptor, (int) len, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_DONE || rc == SQLITE_ROW)
			rc = SQLITE_OK;
	}
	if (rc != SQLITE_OK)
		sq_err_sqlite(e, c->db, rc, what);
	sqlite3_finalize(st);
	return rc;
}

int
sq_catalog_write(sq_conn *c, const char *name, const char *descriptor, size_t len, sq_err *e)
{
	int			rc = SQLITE_OK;
	int			r;

	if (!enter(c, e))
		return sq_err_rc(e);
	if ((r = catalog_check(c, e)) < 0)
	{
		leave(c);
		return sq_err_rc(e);
	}
	if (r == 0)
	{
		char	   *msg = NULL;

		rc = sqlite3_exec(c->db, catalog_sql, NULL, NULL, &msg);
		if (rc != SQLITE_OK)
		{
			sq_err_sqlite(e, c->db, rc, "cannot create the catalog main.serde_shapes");
			if (msg)
			{
				sqlite3_free(e->msg);
				e->msg = sqlite3_mprintf("serde: cannot create the catalog main.serde_shapes: %s", msg);
			}
		}
		sqlite3_free(msg);
	}
	if (rc == SQLITE_OK)
		rc = catalog_exec(c, "INSERT INTO main.serde_shapes(name, descriptor, version) VALUES (?1, ?2, 1) "
						  "ON CONFLICT(name) DO UPDATE SET descriptor = excluded.descriptor",
						  name, descriptor, len, "cannot write main.serde_shapes", e);
	leave(c);
	return rc;
}

/* Looks first (a read, which a read-only or locked database allows), deletes only what is there. */
int
sq_catalog_delete(sq_conn *c, const char *name, sq_err *e)
{
	sqlite3_stmt *st = NULL;
	sq_dep		dep;
	int			r = sq_catalog_read(c, &st, name, &dep, e);

	sq_catalog_finish(c, &st);
	sq_dep_free(&dep);
	if (r <= 0)
		return r;
	if (!enter(c, e))
		return -1;
	r = catalog_exec(c, "DELETE FROM main.serde_shapes WHERE name = ?1", name, NULL, 0,
					 "cannot write main.serde_shapes", e) == SQLITE_OK ? 1 : -1;
	leave(c);
	return r;
}
