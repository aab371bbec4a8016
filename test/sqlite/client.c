/*
 * client.c — the SQLite extension from a C program through the SQLite API (the third way users
 * load it): sqlite3_load_extension, prepared statements with bound documents, re-executing one
 * statement after sqlite3_reset (a call site keeps its plan for one execution only: a change
 * between two executions is seen), the virtual table stepped row by row, result codes, and
 * sqlite3_interrupt from another thread stopping a long statement between documents, and the
 * result codes of the catalog's own failures (catalog_codes): an interrupt while serde reads
 * serde_shapes is SQLITE_INTERRUPT, a locked catalog SQLITE_BUSY, a read-only one
 * SQLITE_READONLY (and serde_unregister of a shape that is not there 0, as it writes nothing);
 * and the catalog's statements prepared once per connection, finalized by sqlite3_close
 * (kept_statements).
 *     gcc -o client test/sqlite/client.c -lsqlite3 -lpthread && ./client ./sqlite/serde
 */
#include <sqlite3.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int	failures = 0;

#define CHECK(what, cond) \
	do { if (cond) printf("ok: %s\n", what); else { printf("FAIL: %s (line %d)\n", what, __LINE__); failures++; } } while (0)

static void
exec(sqlite3 *db, const char *sql)
{
	char	   *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
	{
		printf("FAIL: %s: %s\n", sql, err);
		failures++;
		sqlite3_free(err);
	}
}

/* the single text value of sql, in a static buffer; errors as "ERROR <code>: <message>" */
static const char *
value(sqlite3 *db, const char *sql)
{
	static char out[4096];
	sqlite3_stmt *st;
	int			rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
	{
		snprintf(out, sizeof(out), "PREPARE ERROR: %s", sqlite3_errmsg(db));
		return out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(out, sizeof(out), "%s", sqlite3_column_text(st, 0) ? (const char *) sqlite3_column_text(st, 0) : "NULL");
	else
		snprintf(out, sizeof(out), "ERROR %d: %s", sqlite3_extended_errcode(db), sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return out;
}

typedef struct stopper
{
	sqlite3    *db;
	int			after_ms;
} stopper;

static void *
interrupt_later(void *arg)
{
	stopper    *s = arg;

	usleep((useconds_t) s->after_ms * 1000);
	sqlite3_interrupt(s->db);
	return NULL;
}

/* the extended result code of the single-value statement sql (SQLITE_ROW: SQLITE_OK), the value
 * in *out when there is one */
static int
code_of(sqlite3 *db, const char *sql, char *out, size_t size)
{
	sqlite3_stmt *st;
	int			rc;

	if (out)
		out[0] = '\0';
	if ((rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL)) != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
	{
		if (out)
			snprintf(out, size, "%s", sqlite3_column_text(st, 0) ? (const char *) sqlite3_column_text(st, 0) : "NULL");
		rc = SQLITE_OK;
	}
	else
		rc = sqlite3_extended_errcode(db);
	sqlite3_finalize(st);
	return rc;
}

static sqlite3 *
open_with(const char *path, int flags, const char *ext)
{
	sqlite3    *db;
	char	   *err = NULL;

	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK)
	{
		printf("FAIL: open %s: %s\n", path, sqlite3_errmsg(db));
		failures++;
		return db;
	}
	sqlite3_enable_load_extension(db, 1);
	if (sqlite3_load_extension(db, ext, NULL, &err) != SQLITE_OK)
	{
		printf("FAIL: load %s: %s\n", ext, err);
		failures++;
		sqlite3_free(err);
	}
	return db;
}

/* progress handler: interrupts whatever statement serde runs on its catalog */
static int
stop_catalog_reads(void *arg)
{
	sqlite3    *db = arg;

	for (sqlite3_stmt *p = sqlite3_next_stmt(db, NULL); p; p = sqlite3_next_stmt(db, p))
		if (sqlite3_stmt_busy(p) && strstr(sqlite3_sql(p), "serde_shapes") != NULL &&
			strstr(sqlite3_sql(p), "serde_decode") == NULL)
			return 1;
	return 0;
}

static void
catalog_codes(const char *ext)
{
	char		path[] = "/tmp/serde_client_XXXXXX";
	int			fd = mkstemp(path);
	sqlite3    *db;
	sqlite3    *other;
	char		v[256];
	int			rc;

	if (fd < 0)
	{
		printf("FAIL: mkstemp\n");
		failures++;
		return;
	}
	close(fd);
	db = open_with(path, SQLITE_OPEN_READWRITE, ext);
	exec(db, "SELECT serde_register('K', '{\"fields\": {\"x\": {\"type\": \"integer\"}}}')");

	/* an interrupt while serde reads the catalog (a progress handler returning non-zero is
	 * one): SQLITE_INTERRUPT, not SQLITE_INTERNAL */
	sqlite3_progress_handler(db, 1, stop_catalog_reads, db);
	rc = code_of(db, "SELECT serde_decode('K', '{\"x\": 1}')", v, sizeof(v));
	CHECK("an interrupt during the catalog read: SQLITE_INTERRUPT", rc == SQLITE_INTERRUPT);
	if (rc != SQLITE_INTERRUPT)
		printf("  rc %d: %s\n", rc, sqlite3_errmsg(db));
	rc = code_of(db, "SELECT serde_valid('K', '{\"x\": 1}')", v, sizeof(v));
	CHECK("... serde_valid too", rc == SQLITE_INTERRUPT);
	rc = code_of(db, "SELECT count(*) FROM serde_errors('K', '{\"x\": 1}')", v, sizeof(v));
	CHECK("... serde_errors too", rc == SQLITE_INTERRUPT);
	sqlite3_progress_handler(db, 0, NULL, NULL);
	CHECK("... and the next call works", code_of(db, "SELECT serde_decode('K', '{\"x\": 1}')", v, sizeof(v)) == SQLITE_OK &&
		  strcmp(v, "{\"x\":1}") == 0);

	/* a catalog locked by another connection: SQLITE_BUSY, not SQLITE_ERROR */
	other = open_with(path, SQLITE_OPEN_READWRITE, ext);
	exec(other, "BEGIN IMMEDIATE; INSERT INTO serde_shapes(name, descriptor) VALUES ('Z', '{\"fields\": {\"z\": {\"type\": \"text\"}}}')");
	rc = code_of(db, "SELECT serde_register('K2', '{\"fields\": {\"x\": {\"type\": \"integer\"}}}')", v, sizeof(v));
	CHECK("serde_register on a locked catalog: SQLITE_BUSY", rc == SQLITE_BUSY);
	if (rc != SQLITE_BUSY)
		printf("  rc %d: %s\n", rc, sqlite3_errmsg(db));
	rc = code_of(db, "SELECT serde_unregister('K')", v, sizeof(v));
	CHECK("serde_unregister on a locked catalog: SQLITE_BUSY", rc == SQLITE_BUSY);
	exec(other, "COMMIT; BEGIN EXCLUSIVE; UPDATE serde_shapes SET descriptor = descriptor || ' ' WHERE name = 'Z'");
	rc = code_of(db, "SELECT serde_decode('Z', '{\"z\": \"a\"}')", v, sizeof(v));
	CHECK("reading a catalog another connection holds exclusively: SQLITE_BUSY", rc == SQLITE_BUSY);
	if (rc != SQLITE_BUSY)
		printf("  rc %d: %s\n", rc, sqlite3_errmsg(db));
	exec(other, "ROLLBACK");
	sqlite3_close(other);
	sqlite3_close(db);

	/* a read-only database: writing is SQLITE_READONLY; nothing to delete is 0 */
	db = open_with(path, SQLITE_OPEN_READONLY, ext);
	rc = code_of(db, "SELECT serde_register('K3', '{\"fields\": {\"x\": {\"type\": \"integer\"}}}')", v, sizeof(v));
	CHECK("serde_register on a read-only database: SQLITE_READONLY", (rc & 0xff) == SQLITE_READONLY);
	if ((rc & 0xff) != SQLITE_READONLY)
		printf("  rc %d: %s\n", rc, sqlite3_errmsg(db));
	rc = code_of(db, "SELECT serde_unregister('K')", v, sizeof(v));
	CHECK("serde_unregister of a shape on a read-only database: SQLITE_READONLY", (rc & 0xff) == SQLITE_READONLY);
	rc = code_of(db, "SELECT serde_unregister('Unknown')", v, sizeof(v));
	CHECK("serde_unregister of an unknown shape on a read-only database: 0", rc == SQLITE_OK && strcmp(v, "0") == 0);
	if (rc != SQLITE_OK)
		printf("  rc %d: %s\n", rc, sqlite3_errmsg(db));
	CHECK("... and decoding works", code_of(db, "SELECT serde_decode('K', '{\"x\": 2}')", v, sizeof(v)) == SQLITE_OK &&
		  strcmp(v, "{\"x\":2}") == 0);
	sqlite3_close(db);
	unlink(path);
}

/* the statement of this connection, not one of the application's in mine[], whose SQL contains
 * what; NULL when there is none (or more than one: *n counts them) */
static sqlite3_stmt *
find_kept(sqlite3 *db, const char *what, sqlite3_stmt *mine, int *n)
{
	sqlite3_stmt *found = NULL;

	*n = 0;
	for (sqlite3_stmt *p = sqlite3_next_stmt(db, NULL); p; p = sqlite3_next_stmt(db, p))
		if (p != mine && sqlite3_sql(p) && strstr(sqlite3_sql(p), what))
		{
			found = p;
			(*n)++;
		}
	return *n == 1 ? found : NULL;
}

/* runs sql (one value, document bound as ?1) times times */
static int
run_times(sqlite3 *db, const char *sql, int times)
{
	sqlite3_stmt *st;
	int			good = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	for (int i = 0; i < times; i++)
	{
		char		doc[64];

		snprintf(doc, sizeof(doc), "{\"x\": %d}", i);
		sqlite3_bind_text(st, 1, doc, -1, SQLITE_TRANSIENT);
		while (sqlite3_step(st) == SQLITE_ROW)
			;
		good += sqlite3_reset(st) == SQLITE_OK;
	}
	sqlite3_finalize(st);
	return good;
}

/* issue 19: the catalog's two statements (the lookup of a shape and PRAGMA schema_version) are
 * prepared once per connection and reused by every call, also by a statement that reads no table;
 * they are finalized before sqlite3_close looks for statements left open, and changes made by
 * another connection are still seen.  Issue 23: such a statement's call finds its cached plan
 * current by running PRAGMA schema_version alone (its read transaction refreshes main's data
 * version): the lookup of the rows runs only when something changed. */
static void
kept_statements(const char *ext)
{
	char		path[] = "/tmp/serde_kept_XXXXXX";
	int			fd = mkstemp(path);
	sqlite3    *db, *other;
	sqlite3_stmt *lookup, *cookie, *app;
	int			n, m;
	int64_t		runs, probes;
	char		v[256];
	static const char *const calls[] = {
		"SELECT serde_decode('K', ?1)", "SELECT serde_valid('K', ?1)",
		"SELECT count(*) FROM serde_errors('K', ?1)"};

	if (fd < 0)
	{
		printf("FAIL: mkstemp\n");
		failures++;
		return;
	}
	close(fd);
	db = open_with(path, SQLITE_OPEN_READWRITE, ext);
	exec(db, "SELECT serde_register('K', '{\"fields\": {\"x\": {\"type\": \"integer\"}}}'); CREATE TABLE mine(a)");
	CHECK("200 executions of a statement reading no table", run_times(db, calls[0], 200) == 200);
	lookup = find_kept(db, "FROM main.serde_shapes WHERE name", NULL, &n);
	cookie = find_kept(db, "PRAGMA main.schema_version", NULL, &m);
	CHECK("... the catalog lookup is one statement, kept prepared between calls", lookup && n == 1);
	CHECK("... PRAGMA schema_version too", cookie && m == 1);
	runs = lookup ? sqlite3_stmt_status(lookup, SQLITE_STMTSTATUS_RUN, 0) : 0;
	probes = cookie ? sqlite3_stmt_status(cookie, SQLITE_STMTSTATUS_RUN, 0) : 0;
	for (int k = 0; k < 3; k++)
		run_times(db, calls[k], 100);
	run_times(db, "SELECT count(*) FROM (SELECT ?1), serde_errors('K', '{\"x\": 1}')", 100);
	/* (serde_errors in a statement that reads no other table finds its plan current without
	 * even the PRAGMA: the virtual table's statement holds a read transaction on main) */
	CHECK("... 400 more calls (serde_decode, serde_valid, serde_errors) use the same statements, "
		  "prepared once", lookup && find_kept(db, "FROM main.serde_shapes WHERE name", NULL, &n) == lookup &&
		  find_kept(db, "PRAGMA main.schema_version", NULL, &m) == cookie);
	CHECK("... nothing changed: every call of serde_decode and serde_valid ran PRAGMA "
		  "schema_version, none read the rows again", cookie && lookup &&
		  sqlite3_stmt_status(cookie, SQLITE_STMTSTATUS_RUN, 0) >= probes + 200 &&
		  sqlite3_stmt_status(lookup, SQLITE_STMTSTATUS_RUN, 0) == runs);
	if (lookup && cookie)
		printf("  lookup statement runs: %lld -> %lld, PRAGMA runs: %lld -> %lld\n", (long long) runs,
			   (long long) sqlite3_stmt_status(lookup, SQLITE_STMTSTATUS_RUN, 0), (long long) probes,
			   (long long) sqlite3_stmt_status(cookie, SQLITE_STMTSTATUS_RUN, 0));

	/* this connection's own write to another table: the rows are read again, nothing compiles */
	exec(db, "INSERT INTO mine VALUES (1)");
	runs = lookup ? sqlite3_stmt_status(lookup, SQLITE_STMTSTATUS_RUN, 0) : 0;
	CHECK("this connection writes another table: the next call reads the rows again",
		  run_times(db, calls[0], 3) == 3 && lookup &&
		  sqlite3_stmt_status(lookup, SQLITE_STMTSTATUS_RUN, 0) == runs + 1);
	sqlite3_open_v2(path, &other, SQLITE_OPEN_READWRITE, NULL);
	exec(other, "INSERT INTO mine VALUES (2)");
	runs = lookup ? sqlite3_stmt_status(lookup, SQLITE_STMTSTATUS_RUN, 0) : 0;
	CHECK("another connection writes another table: the next call reads the rows again, once",
		  run_times(db, calls[1], 3) == 3 && lookup &&
		  sqlite3_stmt_status(lookup, SQLITE_STMTSTATUS_RUN, 0) == runs + 1);
	sqlite3_close(other);

	/* another connection's changes: plain SQL on serde_shapes, an unrelated table */
	sqlite3_open_v2(path, &other, SQLITE_OPEN_READWRITE, NULL);
	exec(other, "UPDATE serde_shapes SET descriptor = '{\"fields\": {\"x\": {\"type\": \"text\"}}}' WHERE name = 'K'");
	CHECK("another connection's UPDATE of serde_shapes is seen by the next call",
		  code_of(db, "SELECT serde_decode('K', '{\"x\": \"a\"}')", v, sizeof(v)) == SQLITE_OK &&
		  strcmp(v, "{\"x\":\"a\"}") == 0);
	exec(other, "CREATE TABLE unrelated(a); DROP TABLE serde_shapes; "
		 "CREATE VIEW serde_shapes AS SELECT 'K' AS name, '{}' AS descriptor, 1 AS version");
	CHECK("... and its schema change (serde_shapes replaced by a view) is refused",
		  code_of(db, "SELECT serde_decode('K', '{\"x\": \"a\"}')", v, sizeof(v)) != SQLITE_OK &&
		  strstr(sqlite3_errmsg(db), "not serde's catalog") != NULL);
	exec(other, "DROP VIEW serde_shapes");
	sqlite3_close(other);
	exec(db, "SELECT serde_register('K', '{\"fields\": {\"x\": {\"type\": \"integer\"}}}')");
	CHECK("... the catalog created again is used", run_times(db, calls[0], 10) == 10 &&
		  find_kept(db, "FROM main.serde_shapes WHERE name", NULL, &n) != NULL);

	/* sqlite3_close with a statement of the application open: SQLITE_BUSY (serde's are gone);
	 * serde works on and keeps its statements again; then the connection closes */
	sqlite3_prepare_v2(db, "SELECT 1", -1, &app, NULL);
	CHECK("sqlite3_close with the application's statement open: SQLITE_BUSY", sqlite3_close(db) == SQLITE_BUSY);
	CHECK("... serde's own statements were finalized by it",
		  find_kept(db, "FROM main.serde_shapes", app, &n) == NULL && n == 0);
	CHECK("... and serde keeps working", run_times(db, calls[0], 10) == 10 &&
		  find_kept(db, "PRAGMA main.schema_version", app, &n) != NULL);
	sqlite3_finalize(app);
	CHECK("... sqlite3_close: SQLITE_OK", sqlite3_close(db) == SQLITE_OK);

	/* an application that finalizes every statement before closing (serde's included) */
	db = open_with(path, SQLITE_OPEN_READWRITE, ext);
	run_times(db, calls[0], 10);
	while ((app = sqlite3_next_stmt(db, NULL)) != NULL)
		sqlite3_finalize(app);
	CHECK("every statement finalized by the application, then sqlite3_close: SQLITE_OK",
		  sqlite3_close(db) == SQLITE_OK);

	/* main.serde_cache_stats is a table of the database: nothing kept, everything works */
	db = open_with(path, SQLITE_OPEN_READWRITE, ext);
	exec(db, "CREATE TABLE serde_cache_stats(a)");
	CHECK("a table named serde_cache_stats: calls work, prepare their statements each time",
		  run_times(db, calls[0], 10) == 10 && find_kept(db, "serde_shapes", NULL, &n) == NULL);
	CHECK("... sqlite3_close: SQLITE_OK", sqlite3_close(db) == SQLITE_OK);
	unlink(path);
}

int
main(int argc, char **argv)
{
	const char *ext = argc > 1 ? argv[1] : "./sqlite/serde";
	sqlite3    *db;
	char	   *err = NULL;
	sqlite3_stmt *st;
	int			rc;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		return 2;
	sqlite3_enable_load_extension(db, 1);
	rc = sqlite3_load_extension(db, ext, NULL, &err);
	CHECK("sqlite3_load_extension finds sqlite3_serde_init", rc == SQLITE_OK);
	if (rc != SQLITE_OK)
	{
		printf("  %s\n", err);
		return 1;
	}
	sqlite3_enable_load_extension(db, 0);
	exec(db, "SELECT serde_register('Ev', '{\"fields\": {\"id\": {\"type\": \"integer\"}, \"kind\": {\"type\": {\"enum\": [\"a\", \"b\"]}}}}')");

	/* a prepared statement with a bound document, executed again and again */
	rc = sqlite3_prepare_v2(db, "SELECT serde_decode('Ev', ?1)", -1, &st, NULL);
	CHECK("prepare", rc == SQLITE_OK);
	{
		char		doc[64];
		int			good = 0;

		for (int i = 0; i < 100; i++)
		{
			snprintf(doc, sizeof(doc), "{\"id\": %d, \"kind\": \"%s\"}", i, i % 2 ? "a" : "b");
			sqlite3_bind_text(st, 1, doc, -1, SQLITE_TRANSIENT);
			if (sqlite3_step(st) == SQLITE_ROW)
			{
				char		want[64];

				snprintf(want, sizeof(want), "{\"id\":%d,\"kind\":\"%s\"}", i, i % 2 ? "a" : "b");
				good += strcmp((const char *) sqlite3_column_text(st, 0), want) == 0;
			}
			sqlite3_reset(st);
		}
		CHECK("100 executions of one statement", good == 100);
	}
	/* a change between two executions of the same statement is seen by the second */
	exec(db, "SELECT serde_register('Ev', '{\"fields\": {\"id\": {\"type\": \"text\"}, \"kind\": {\"type\": \"text\"}}}')");
	sqlite3_bind_text(st, 1, "{\"id\": \"x\", \"kind\": \"zz\"}", -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	CHECK("re-executed statement sees the new shape",
		  rc == SQLITE_ROW && strcmp((const char *) sqlite3_column_text(st, 0), "{\"id\":\"x\",\"kind\":\"zz\"}") == 0);
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, "{\"id\": 5}", -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	CHECK("a document error is SQLITE_MISMATCH", rc == SQLITE_MISMATCH);
	CHECK("... with the message", strcmp(sqlite3_errmsg(db), "Ev: $.id: expected string, found number 5") == 0);
	sqlite3_finalize(st);
	CHECK("not nullable is SQLITE_CONSTRAINT_NOTNULL",
		  strcmp(value(db, "SELECT serde_register('NN', '{\"fields\": {\"a\": {\"type\": \"text\", \"nullable\": false}}}') IS NULL"), "1") == 0 &&
		  strncmp(value(db, "SELECT serde_decode('NN', '{\"a\": null}')"), "ERROR 1299: NN: $.a: null is not allowed", 40) == 0);
	exec(db, "SELECT serde_register('J', '{\"fields\": {\"a\": {\"type\": \"json\"}}}')");
	CHECK("too deep is SQLITE_TOOBIG",
		  strncmp(value(db, "SELECT serde_decode('J', '{\"a\": ' || printf('%.600c', '[') || printf('%.600c', ']') || '}')"),
				  "ERROR 18: J: $.a", 16) == 0);

	/* the virtual table, row by row */
	exec(db, "CREATE VIRTUAL TABLE ev USING serde(Ev);"
		 "CREATE TABLE inbox(body TEXT);"
		 "INSERT INTO inbox VALUES ('{\"id\": \"1\", \"kind\": \"a\"}'), ('{\"id\": \"2\", \"kind\": \"b\"}'), (NULL), ('{\"id\": \"3\", \"kind\": \"c\"}');");
	rc = sqlite3_prepare_v2(db, "SELECT e.id, e.kind FROM inbox, ev(inbox.body) e", -1, &st, NULL);
	{
		int			rows = 0;

		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			rows++;
		CHECK("virtual table: three rows (none for NULL)", rc == SQLITE_DONE && rows == 3);
		if (rc != SQLITE_DONE)
			printf("  %s\n", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);

	/* sqlite3_interrupt from another thread: a statement over many documents stops */
	exec(db, "CREATE TABLE many(body TEXT);"
		 "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) "
		 "INSERT INTO many SELECT '{\"id\": \"' || i || '\", \"kind\": \"k\"}' FROM n;");
	{
		pthread_t	t;
		stopper		s = {db, 50};
		struct timespec t0, t1;
		double		ms;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		pthread_create(&t, NULL, interrupt_later, &s);
		rc = sqlite3_prepare_v2(db, "SELECT count(serde_decode('Ev', many.body)) FROM many, many AS m2 WHERE m2.rowid <= 100", -1, &st, NULL);
		rc = sqlite3_step(st);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		pthread_join(t, NULL);
		sqlite3_finalize(st);
		ms = (double) (t1.tv_sec - t0.tv_sec) * 1e3 + (double) (t1.tv_nsec - t0.tv_nsec) / 1e6;
		CHECK("sqlite3_interrupt stops a long statement (SQLITE_INTERRUPT)", rc == SQLITE_INTERRUPT);
		if (rc != SQLITE_INTERRUPT)
			printf("  rc %d: %s\n", rc, sqlite3_errmsg(db));
		printf("  stopped after %.0f ms (interrupt at 50 ms; 20 million documents would take minutes)\n", ms);
		CHECK("... promptly", ms < 5000);
	}
	/* serde keeps no statement of its own open: the plain sqlite3_close succeeds (it refuses a
	 * connection with unfinalized statements) */
	CHECK("sqlite3_close: SQLITE_OK (no statement left open)", sqlite3_close(db) == SQLITE_OK);
	catalog_codes(ext);
	kept_statements(ext);
	printf("client.c: %s (%d failed)\n", failures ? "FAIL" : "ok", failures);
	return failures ? 1 : 0;
}
