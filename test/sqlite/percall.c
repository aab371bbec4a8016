/*
 * percall.c — a statement that reads no table, prepared once and executed again and again
 * (SELECT serde_decode('K', ?1): bind, step, reset), finds its cached plan current without
 * reading serde_shapes (issue 23: PRAGMA schema_version alone, whose read transaction refreshes
 * main's data version) — and still sees every change of the catalog between two executions:
 * serde_register and serde_unregister in this connection, plain SQL on serde_shapes, a change
 * of a shape it refers to, the catalog dropped, a rolled-back transaction, ATTACH and DETACH of
 * a database with a serde_shapes of its own (never read: the catalog is main's), the database
 * replaced by sqlite3_deserialize; another connection's commits (rollback journal, WAL, a
 * shared-cache in-memory database), its writes to other tables (re-read, not recompiled); a
 * catalog locked by another connection (SQLITE_BUSY, then working again) and an interrupt of
 * the probe (SQLITE_INTERRUPT).  A main in memory (no file name: no other pager) needs not even
 * the PRAGMA.  Results are compared with what a fresh statement returns.
 *     gcc -o percall test/sqlite/percall.c -lsqlite3 && ./percall ./sqlite/serde
 */
#include <sqlite3.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int	failures = 0;

#define CHECK(what, cond) \
	do { if (cond) printf("ok: %s\n", what); else { printf("FAIL: %s (line %d)\n", what, __LINE__); failures++; } } while (0)

#define EXPECT(what, got, want) \
	do { const char *g_ = (got), *w_ = (want); \
		 if (strcmp(g_, w_) == 0) printf("ok: %s\n", what); \
		 else { printf("FAIL: %s (line %d)\n  got:  %s\n  want: %s\n", what, __LINE__, g_, w_); failures++; } } while (0)

static const char *mode_name;

static void
exec(sqlite3 *db, const char *sql)
{
	char	   *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
	{
		printf("FAIL: [%s] %s: %s\n", mode_name, sql, err);
		failures++;
		sqlite3_free(err);
	}
}

static sqlite3 *
open_with(const char *path, int flags, const char *ext)
{
	sqlite3    *db;
	char	   *err = NULL;

	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK)
	{
		printf("FAIL: open %s: %s\n", path, sqlite3_errmsg(db));
		exit(1);
	}
	sqlite3_busy_timeout(db, 0);
	if (ext)
	{
		sqlite3_enable_load_extension(db, 1);
		if (sqlite3_load_extension(db, ext, NULL, &err) != SQLITE_OK)
		{
			printf("FAIL: load %s: %s\n", ext, err);
			exit(1);
		}
	}
	return db;
}

/* one execution of the kept statement st with doc bound: its value, or "ERROR <code>: <msg>" */
static const char *
run(sqlite3_stmt *st, const char *doc)
{
	static char out[2][1024];
	static int	k;
	char	   *o = out[k ^= 1];
	int			rc;

	sqlite3_bind_text(st, 1, doc, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(o, 1024, "%s", sqlite3_column_text(st, 0) ? (const char *) sqlite3_column_text(st, 0) : "NULL");
	else
	{
		sqlite3_reset(st);
		snprintf(o, 1024, "ERROR %d: %s", sqlite3_extended_errcode(sqlite3_db_handle(st)),
				 sqlite3_errmsg(sqlite3_db_handle(st)));
	}
	sqlite3_reset(st);
	return o;
}

/* the same, from a statement prepared now (no cached call site, the cache's answer) */
static const char *
fresh(sqlite3 *db, const char *sql, const char *doc)
{
	sqlite3_stmt *st;
	const char *r;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return "PREPARE ERROR";
	r = run(st, doc);
	sqlite3_finalize(st);
	return r;
}

/* compiles + invalidations of this connection's cache; lookups: runs of its kept lookup */
static long long
compiles(sqlite3 *db)
{
	sqlite3_stmt *st;
	long long	n = -1;

	if (sqlite3_prepare_v2(db, "SELECT compiles FROM serde_cache_stats()", -1, &st, NULL) == SQLITE_OK &&
		sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static long long
lookups(sqlite3 *db)
{
	long long	n = 0;

	for (sqlite3_stmt *p = sqlite3_next_stmt(db, NULL); p; p = sqlite3_next_stmt(db, p))
		if (sqlite3_sql(p) && strstr(sqlite3_sql(p), "FROM main.serde_shapes WHERE name"))
			n += sqlite3_stmt_status(p, SQLITE_STMTSTATUS_RUN, 0);
	return n;
}

static long long
probes(sqlite3 *db)
{
	long long	n = 0;

	for (sqlite3_stmt *p = sqlite3_next_stmt(db, NULL); p; p = sqlite3_next_stmt(db, p))
		if (sqlite3_sql(p) && strstr(sqlite3_sql(p), "PRAGMA main.schema_version"))
			n += sqlite3_stmt_status(p, SQLITE_STMTSTATUS_RUN, 0);
	return n;
}

static char msg[256];

static const char *
what(const char *s)
{
	snprintf(msg, sizeof(msg), "[%s] %s", mode_name, s);
	return msg;
}

#define K_INT  "SELECT serde_register('K', '{\"fields\": {\"x\": {\"type\": \"integer\"}}}')"
#define K_TEXT "SELECT serde_register('K', '{\"fields\": {\"x\": {\"type\": \"text\"}}}')"
#define DEC    "SELECT serde_decode('K', ?1)"
#define VAL    "SELECT serde_valid('K', ?1)"

/* everything one connection does to the catalog between two executions of the same statements */
static void
own_changes(sqlite3 *db, bool in_memory)
{
	sqlite3_stmt *dec, *val;
	long long	c0, l0, p0;

	exec(db, K_INT);
	sqlite3_prepare_v2(db, DEC, -1, &dec, NULL);
	sqlite3_prepare_v2(db, VAL, -1, &val, NULL);
	EXPECT(what("first execution"), run(dec, "{\"x\": 1}"), "{\"x\":1}");
	c0 = compiles(db);
	l0 = lookups(db);
	p0 = probes(db);
	for (int i = 0; i < 50; i++)
		run(dec, "{\"x\": 2}");
	for (int i = 0; i < 50; i++)
		run(val, "{\"x\": 2}");
	CHECK(what("100 more executions, nothing changed: no compile, no lookup of the rows"),
		  compiles(db) == c0 && lookups(db) == l0);
	if (in_memory)
		CHECK(what("... and in memory not even PRAGMA schema_version (no other pager)"), probes(db) == p0);
	else
		CHECK(what("... each ran PRAGMA schema_version (its read transaction)"), probes(db) >= p0 + 100);
	EXPECT(what("... same value"), run(dec, "{\"x\": 3}"), "{\"x\":3}");

	exec(db, K_TEXT);
	EXPECT(what("serde_register between executions: seen"), run(dec, "{\"x\": \"a\"}"), "{\"x\":\"a\"}");
	EXPECT(what("... by serde_valid too"), run(val, "{\"x\": 1}"), "0");
	exec(db, "UPDATE serde_shapes SET descriptor = '{\"fields\": {\"x\": {\"type\": \"integer\"}, "
		 "\"y\": {\"type\": \"text\", \"default\": \"d\"}}}' WHERE name = 'K'");
	EXPECT(what("plain UPDATE of serde_shapes: seen"), run(dec, "{\"x\": 4}"), "{\"x\":4,\"y\":\"d\"}");
	EXPECT(what("... same as a fresh statement"), fresh(db, DEC, "{\"x\": 4}"), "{\"x\":4,\"y\":\"d\"}");

	/* a shape it refers to */
	exec(db, "SELECT serde_register('L', '{\"fields\": {\"s\": {\"type\": \"text\"}}}')");
	exec(db, "SELECT serde_register('K', '{\"fields\": {\"x\": {\"type\": {\"list\": {\"shape\": \"L\"}}}}}')");
	EXPECT(what("a shape with a reference"), run(dec, "{\"x\": [{\"s\": \"a\"}]}"), "{\"x\":[{\"s\":\"a\"}]}");
	exec(db, "SELECT serde_register('L', '{\"fields\": {\"s\": {\"type\": \"integer\"}}}')");
	EXPECT(what("the shape it refers to re-registered: seen"), run(dec, "{\"x\": [{\"s\": 5}]}"), "{\"x\":[{\"s\":5}]}");

	/* unregister, register again */
	exec(db, "SELECT serde_unregister('K')");
	EXPECT(what("serde_unregister between executions: the shape is gone"), run(dec, "{}"),
		   "ERROR 1: shape \"K\" does not exist");
	exec(db, K_INT);
	EXPECT(what("... registered again: seen"), run(dec, "{\"x\": 6}"), "{\"x\":6}");

	/* a rolled-back transaction: seen inside, gone after */
	exec(db, "BEGIN");
	exec(db, K_TEXT);
	EXPECT(what("inside BEGIN: the new descriptor"), run(dec, "{\"x\": \"t\"}"), "{\"x\":\"t\"}");
	exec(db, "ROLLBACK");
	EXPECT(what("after ROLLBACK: the old one again"), run(dec, "{\"x\": 7}"), "{\"x\":7}");
	EXPECT(what("... and again (the entry found in the transaction is not trusted)"), run(dec, "{\"x\": 8}"), "{\"x\":8}");
	exec(db, "SAVEPOINT a");
	exec(db, K_TEXT);
	EXPECT(what("inside a savepoint"), run(dec, "{\"x\": \"t\"}"), "{\"x\":\"t\"}");
	exec(db, "ROLLBACK TO a");
	EXPECT(what("after ROLLBACK TO"), run(dec, "{\"x\": 9}"), "{\"x\":9}");
	exec(db, "RELEASE a");
	EXPECT(what("after RELEASE"), run(dec, "{\"x\": 10}"), "{\"x\":10}");

	/* ATTACH / DETACH of a database with its own serde_shapes: main's catalog is the one */
	exec(db, "ATTACH ':memory:' AS aux");
	exec(db, "CREATE TABLE aux.serde_shapes(name TEXT PRIMARY KEY, descriptor TEXT NOT NULL, version INTEGER NOT NULL);"
		 "INSERT INTO aux.serde_shapes VALUES ('K', '{\"fields\": {\"x\": {\"type\": \"text\"}}}', 99)");
	EXPECT(what("ATTACH of a database with a serde_shapes: main's catalog still"), run(dec, "{\"x\": 11}"), "{\"x\":11}");
	exec(db, "DETACH aux");
	EXPECT(what("DETACH: the same"), run(dec, "{\"x\": 12}"), "{\"x\":12}");
	exec(db, "CREATE TEMP TABLE serde_shapes(name TEXT PRIMARY KEY, descriptor TEXT NOT NULL, version INTEGER NOT NULL);"
		 "INSERT INTO temp.serde_shapes VALUES ('K', '{\"fields\": {\"x\": {\"type\": \"text\"}}}', 99)");
	EXPECT(what("a TEMP serde_shapes: main's catalog still"), run(dec, "{\"x\": 13}"), "{\"x\":13}");
	exec(db, "DROP TABLE temp.serde_shapes");

	/* the catalog dropped, and made again */
	exec(db, "DROP TABLE main.serde_shapes");
	EXPECT(what("DROP TABLE serde_shapes between executions"), run(dec, "{}"), "ERROR 1: shape \"K\" does not exist");
	exec(db, K_TEXT);
	EXPECT(what("... the catalog made again"), run(dec, "{\"x\": \"b\"}"), "{\"x\":\"b\"}");
	exec(db, "DROP TABLE main.serde_shapes; CREATE VIEW serde_shapes AS SELECT 'K' AS name, "
		 "'{\"fields\": {}}' AS descriptor, 1 AS version");
	CHECK(what("serde_shapes replaced by a view: refused"), strstr(run(dec, "{}"), "not serde's catalog") != NULL);
	exec(db, "DROP VIEW serde_shapes");
	exec(db, K_INT);
	EXPECT(what("... and a catalog again"), run(dec, "{\"x\": 14}"), "{\"x\":14}");
	sqlite3_finalize(dec);
	sqlite3_finalize(val);
}

/* sqlite3_deserialize of an image taken before a change: the older catalog is read */
static void
deserialized(sqlite3 *db)
{
	sqlite3_stmt *dec;
	sqlite3_int64 n = 0;
	unsigned char *img;

	exec(db, K_INT);
	sqlite3_prepare_v2(db, DEC, -1, &dec, NULL);
	EXPECT(what("before sqlite3_deserialize"), run(dec, "{\"x\": 1}"), "{\"x\":1}");
	img = sqlite3_serialize(db, "main", &n, 0);
	exec(db, K_TEXT);
	EXPECT(what("... re-registered"), run(dec, "{\"x\": \"s\"}"), "{\"x\":\"s\"}");
	if (!img || sqlite3_deserialize(db, "main", img, n, n, SQLITE_DESERIALIZE_FREEONCLOSE |
									SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK)
	{
		printf("FAIL: [%s] sqlite3_deserialize: %s\n", mode_name, sqlite3_errmsg(db));
		failures++;
	}
	EXPECT(what("the image from before deserialized into main: its catalog"), run(dec, "{\"x\": 2}"), "{\"x\":2}");
	sqlite3_finalize(dec);
}

/* another connection (with or without serde) changes things between two executions */
static void
other_changes(sqlite3 *db, sqlite3 *other, bool wal)
{
	sqlite3_stmt *dec;
	long long	c0, l0;

	exec(db, K_INT);
	exec(db, "CREATE TABLE IF NOT EXISTS unrelated(a)");
	sqlite3_prepare_v2(db, DEC, -1, &dec, NULL);
	EXPECT(what("first execution"), run(dec, "{\"x\": 1}"), "{\"x\":1}");
	exec(other, "UPDATE serde_shapes SET descriptor = '{\"fields\": {\"x\": {\"type\": \"text\"}}}' WHERE name = 'K'");
	EXPECT(what("another connection's UPDATE: seen by the next execution"), run(dec, "{\"x\": \"o\"}"), "{\"x\":\"o\"}");
	c0 = compiles(db);
	l0 = lookups(db);
	for (int i = 0; i < 5; i++)
	{
		exec(other, "INSERT INTO unrelated VALUES (1)");
		run(dec, "{\"x\": \"o\"}");
	}
	CHECK(what("5 writes to another table there: the rows read again, nothing compiled"),
		  compiles(db) == c0 && lookups(db) == l0 + 5);
	exec(other, "DELETE FROM serde_shapes WHERE name = 'K'");
	EXPECT(what("another connection's DELETE: seen"), run(dec, "{}"), "ERROR 1: shape \"K\" does not exist");
	exec(other, "INSERT INTO serde_shapes(name, descriptor) VALUES ('K', '{\"fields\": {\"x\": {\"type\": \"integer\"}, \"z\": {\"type\": \"integer\", \"default\": 0}}}')");
	EXPECT(what("another connection's INSERT: seen"), run(dec, "{\"x\": 3}"), "{\"x\":3,\"z\":0}");
	exec(other, "BEGIN; UPDATE serde_shapes SET descriptor = '{\"fields\": {}}' WHERE name = 'K'; ROLLBACK");
	EXPECT(what("another connection's rolled-back UPDATE: nothing changed"), run(dec, "{\"x\": 4}"), "{\"x\":4,\"z\":0}");
	if (!wal)
	{
		int			rc;

		/* the probe's read transaction meets another connection's lock */
		exec(other, "BEGIN EXCLUSIVE");
		rc = sqlite3_bind_text(dec, 1, "{\"x\": 5}", -1, SQLITE_STATIC) == SQLITE_OK ? sqlite3_step(dec) : -1;
		sqlite3_reset(dec);
		CHECK(what("a catalog another connection holds exclusively: SQLITE_BUSY"), rc == SQLITE_BUSY);
		exec(other, "COMMIT");
		EXPECT(what("... released: works again"), run(dec, "{\"x\": 5}"), "{\"x\":5,\"z\":0}");
	}
	exec(other, "DROP TABLE serde_shapes");
	EXPECT(what("another connection drops the catalog: seen"), run(dec, "{}"), "ERROR 1: shape \"K\" does not exist");
	sqlite3_finalize(dec);
}

/* a progress handler interrupting the probe (PRAGMA schema_version): SQLITE_INTERRUPT */
static int
stop_probe(void *arg)
{
	sqlite3    *db = arg;

	for (sqlite3_stmt *p = sqlite3_next_stmt(db, NULL); p; p = sqlite3_next_stmt(db, p))
		if (sqlite3_stmt_busy(p) && strstr(sqlite3_sql(p), "schema_version") != NULL)
			return 1;
	return 0;
}

static void
interrupted(sqlite3 *db)
{
	sqlite3_stmt *dec;

	exec(db, K_INT);
	sqlite3_prepare_v2(db, DEC, -1, &dec, NULL);
	EXPECT(what("before the interrupt"), run(dec, "{\"x\": 1}"), "{\"x\":1}");
	sqlite3_progress_handler(db, 1, stop_probe, db);
	CHECK(what("an interrupt of the probe: SQLITE_INTERRUPT"), strncmp(run(dec, "{\"x\": 1}"), "ERROR 9:", 8) == 0);
	sqlite3_progress_handler(db, 0, NULL, NULL);
	EXPECT(what("... the next execution works"), run(dec, "{\"x\": 2}"), "{\"x\":2}");
	sqlite3_finalize(dec);
}

int
main(int argc, char **argv)
{
	const char *ext = argc > 1 ? argv[1] : "./sqlite/serde";
	char		path[] = "/tmp/serde_percall_XXXXXX";
	int			fd = mkstemp(path);
	sqlite3    *db, *other;

	if (fd < 0)
		return 2;
	close(fd);

	mode_name = "memory";
	db = open_with(":memory:", SQLITE_OPEN_READWRITE, ext);
	own_changes(db, true);
	deserialized(db);           /* main is then a memdb database named "x": probed */
	interrupted(db);
	sqlite3_close(db);

	mode_name = "file";
	unlink(path);
	db = open_with(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, ext);
	own_changes(db, false);
	other = open_with(path, SQLITE_OPEN_READWRITE, NULL);
	other_changes(db, other, false);
	interrupted(db);
	sqlite3_close(other);
	sqlite3_close(db);

	mode_name = "wal";
	unlink(path);
	db = open_with(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, ext);
	exec(db, "PRAGMA journal_mode = wal");
	own_changes(db, false);
	other = open_with(path, SQLITE_OPEN_READWRITE, ext);
	other_changes(db, other, true);
	sqlite3_close(other);
	sqlite3_close(db);

	mode_name = "shared cache";
	db = open_with("file:percall_sc?mode=memory&cache=shared", SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, ext);
	other = open_with("file:percall_sc?mode=memory&cache=shared", SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL);
	other_changes(db, other, true);
	sqlite3_close(other);
	sqlite3_close(db);

	unlink(path);
	printf("percall.c: %s (%d failed)\n", failures ? "FAIL" : "ok", failures);
	return failures ? 1 : 0;
}
