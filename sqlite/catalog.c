/*
 * catalog.c — the shape catalog of the SQLite adapter: table main.serde_shapes(name TEXT PRIMARY
 * KEY, descriptor TEXT NOT NULL, version INTEGER NOT NULL), created by the first serde_register,
 * with two plain-SQL triggers that give a row a new version on every INSERT and on every UPDATE
 * of its name or descriptor (so that writers need not load the extension, and the plan caches of
 * every connection see the change).  The triggers reject nothing: a bad descriptor written by
 * plain SQL is reported at its first use, with the shape's name.  Reading and writing rows.
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

static char *
dup_errmsg(sqlite3 *db)
{
	return sqlite3_mprintf("%s", sqlite3_errmsg(db));
}

int
sq_catalog_create(sqlite3 *db, char **errmsg)
{
	char	   *e = NULL;
	int			rc = sqlite3_exec(db, catalog_sql, NULL, NULL, &e);

	if (rc != SQLITE_OK)
	{
		*errmsg = sqlite3_mprintf("serde: cannot create the catalog main.serde_shapes: %s",
								  e ? e : sqlite3_errstr(rc));
		sqlite3_free(e);
	}
	return rc;
}

void
sq_dep_free(sq_dep *dep)
{
	free(dep->name);
	free(dep->descriptor);
	dep->name = dep->descriptor = NULL;
}

/* Prepares the reading statement once per use of *stmt (the caller finishes it with
 * sq_catalog_finish: a statement kept past the function call would keep sqlite3_close from
 * closing the connection). */
int
sq_catalog_read(sqlite3 *db, sqlite3_stmt **stmt, const char *name, sq_dep *dep, char **errmsg)
{
	int			rc;

	memset(dep, 0, sizeof(*dep));
	if (*stmt == NULL)
	{
		rc = sqlite3_prepare_v2(db, "SELECT version, descriptor FROM main.serde_shapes WHERE name = ?1",
								-1, stmt, NULL);
		if (rc != SQLITE_OK)
		{
			const char *m = sqlite3_errmsg(db);

			*stmt = NULL;
			if (strstr(m, "no such table") != NULL)
				return 0;       /* no catalog yet: no shape */
			*errmsg = sqlite3_mprintf("serde: cannot read main.serde_shapes: %s", m);
			return -1;
		}
	}
	else
		sqlite3_reset(*stmt);
	sqlite3_bind_text(*stmt, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(*stmt);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
	{
		*errmsg = sqlite3_mprintf("serde: cannot read main.serde_shapes: %s", sqlite3_errmsg(db));
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
			*errmsg = sqlite3_mprintf("serde: out of memory");
			return -1;
		}
		memcpy(dep->descriptor, t ? (const char *) t : "", (size_t) n);
		dep->descriptor[n] = '\0';
		dep->dlen = (size_t) n;
	}
	sqlite3_reset(*stmt);
	return 1;
}

void
sq_catalog_finish(sqlite3_stmt **stmt)
{
	if (*stmt)
		sqlite3_finalize(*stmt);
	*stmt = NULL;
}

int
sq_catalog_write(sqlite3 *db, const char *name, const char *descriptor, size_t len, char **errmsg)
{
	sqlite3_stmt *st = NULL;
	int			rc;

	if ((rc = sq_catalog_create(db, errmsg)) != SQLITE_OK)
		return rc;
	rc = sqlite3_prepare_v2(db,
							"INSERT INTO main.serde_shapes(name, descriptor, version) VALUES (?1, ?2, 1) "
							"ON CONFLICT(name) DO UPDATE SET descriptor = excluded.descriptor",
							-1, &st, NULL);
	if (rc == SQLITE_OK)
	{
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, descriptor, (int) len, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_DONE)
			rc = SQLITE_OK;
	}
	if (rc != SQLITE_OK)
		*errmsg = sqlite3_mprintf("serde: cannot write main.serde_shapes: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc;
}

int
sq_catalog_delete(sqlite3 *db, const char *name, char **errmsg)
{
	sqlite3_stmt *st = NULL;
	int			rc = sqlite3_prepare_v2(db, "DELETE FROM main.serde_shapes WHERE name = ?1", -1, &st, NULL);
	int			n;

	if (rc != SQLITE_OK)
	{
		if (strstr(sqlite3_errmsg(db), "no such table") != NULL)
			return 0;
		*errmsg = dup_errmsg(db);
		return -1;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
	{
		*errmsg = sqlite3_mprintf("serde: cannot write main.serde_shapes: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	n = sqlite3_changes(db);
	sqlite3_finalize(st);
	return n > 0 ? 1 : 0;
}
