/*
 * threads.c — each SQLite connection has its own plan cache (docs/reference.md, "Threads, interrupts, security"; issue 14 point 4): N
 * threads, each with its own connection to one WAL database, decode (serde_decode, serde_valid,
 * serde_errors, the virtual table) while another thread re-registers the shape, alternating two
 * versions that read a different member into the same column.  Every row must be what one of
 * the two versions gives (no wrong row, no torn plan), every connection must see the last
 * version once the writer is done, and the run must be clean under ThreadSanitizer (test/sqlite.sh
 * builds this and sqlite/build-tsan/serde.so with -fsanitize=thread).
 *     threads <extension> [threads] [iterations]
 */
#include <sqlite3.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *ext;
static char path[256];
static int	iterations = 300;
static atomic_int wrong;
static atomic_int errors;
static atomic_int seen_a;
static atomic_int seen_b;
static atomic_int writer_done;
static pthread_barrier_t start;	/* readers make their first calls together: first-use races show */

static const char *const version_a =
"{\"fields\": {\"id\": {\"type\": \"integer\"}, \"v\": {\"type\": \"text\"}}}";
static const char *const version_b =
"{\"fields\": {\"id\": {\"type\": \"integer\"}, \"v\": {\"type\": \"text\", \"name\": \"w\"}}}";

static sqlite3 *
open_db(void)
{
	sqlite3    *db;
	char	   *err = NULL;

	if (sqlite3_open(path, &db) != SQLITE_OK)
		return NULL;
	sqlite3_busy_timeout(db, 10000);
	sqlite3_enable_load_extension(db, 1);
	if (sqlite3_load_extension(db, ext, NULL, &err) != SQLITE_OK)
	{
		fprintf(stderr, "load: %s\n", err);
		sqlite3_free(err);
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

static int
step_text(sqlite3_stmt *st, char *out, size_t size)
{
	int			rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		snprintf(out, size, "%s", sqlite3_column_text(st, 0) ? (const char *) sqlite3_column_text(st, 0) : "NULL");
	sqlite3_reset(st);
	return rc;
}

static void *
reader(void *arg)
{
	sqlite3    *db = open_db();
	sqlite3_stmt *dec, *valid, *errs, *vt;
	char		doc[128], got[256], want_a[128], want_b[128];
	long		id = (long) arg;

	if (!db)
	{
		atomic_fetch_add(&errors, 1);
		pthread_barrier_wait(&start);
		return NULL;
	}
	sqlite3_prepare_v2(db, "SELECT serde_decode('T', ?1)", -1, &dec, NULL);
	sqlite3_prepare_v2(db, "SELECT serde_valid('T', ?1)", -1, &valid, NULL);
	sqlite3_prepare_v2(db, "SELECT count(*) FROM serde_errors('T', ?1)", -1, &errs, NULL);
	sqlite3_prepare_v2(db, "SELECT json_object('id', id, 'v', v) FROM tv(?1)", -1, &vt, NULL);
	pthread_barrier_wait(&start);
	for (int i = 0; i < iterations || !atomic_load(&writer_done); i++)
	{
		int			n = (int) id * 100000 + i;

		snprintf(doc, sizeof(doc), "{\"id\": %d, \"v\": \"A%d\", \"w\": \"B%d\"}", n, n, n);
		snprintf(want_a, sizeof(want_a), "{\"id\":%d,\"v\":\"A%d\"}", n, n);
		snprintf(want_b, sizeof(want_b), "{\"id\":%d,\"v\":\"B%d\"}", n, n);
		sqlite3_bind_text(dec, 1, doc, -1, SQLITE_STATIC);
		if (step_text(dec, got, sizeof(got)) != SQLITE_ROW)
		{
			fprintf(stderr, "decode: %s\n", sqlite3_errmsg(db));
			atomic_fetch_add(&errors, 1);
		}
		else if (strcmp(got, want_a) == 0)
			atomic_fetch_add(&seen_a, 1);
		else if (strcmp(got, want_b) == 0)
			atomic_fetch_add(&seen_b, 1);
		else
		{
			fprintf(stderr, "wrong row: %s for %s\n", got, doc);
			atomic_fetch_add(&wrong, 1);
		}
		sqlite3_bind_text(vt, 1, doc, -1, SQLITE_STATIC);
		if (step_text(vt, got, sizeof(got)) != SQLITE_ROW)
		{
			/* the table's columns never change: both versions have (id, v) */
			fprintf(stderr, "vtab: %s\n", sqlite3_errmsg(db));
			atomic_fetch_add(&errors, 1);
		}
		else if (strcmp(got, want_a) != 0 && strcmp(got, want_b) != 0)
		{
			fprintf(stderr, "wrong vtab row: %s for %s\n", got, doc);
			atomic_fetch_add(&wrong, 1);
		}
		sqlite3_bind_text(valid, 1, doc, -1, SQLITE_STATIC);
		if (step_text(valid, got, sizeof(got)) != SQLITE_ROW || strcmp(got, "1") != 0)
			atomic_fetch_add(&wrong, 1);
		sqlite3_bind_text(errs, 1, "{\"id\": \"x\"}", -1, SQLITE_STATIC);
		if (step_text(errs, got, sizeof(got)) != SQLITE_ROW || strcmp(got, "2") != 0)
		{
			fprintf(stderr, "serde_errors: %s (%s)\n", got, sqlite3_errmsg(db));
			atomic_fetch_add(&wrong, 1);
		}
		if (i > 100000)
			break;
	}
	/* after the writer: the last version (B) */
	sqlite3_bind_text(dec, 1, "{\"id\": 1, \"v\": \"A\", \"w\": \"B\"}", -1, SQLITE_STATIC);
	if (step_text(dec, got, sizeof(got)) != SQLITE_ROW || strcmp(got, "{\"id\":1,\"v\":\"B\"}") != 0)
	{
		fprintf(stderr, "after the writer: %s\n", got);
		atomic_fetch_add(&wrong, 1);
	}
	sqlite3_finalize(dec);
	sqlite3_finalize(valid);
	sqlite3_finalize(errs);
	sqlite3_finalize(vt);
	sqlite3_close(db);
	return NULL;
}

static void *
writer(void *arg)
{
	sqlite3    *db = open_db();
	sqlite3_stmt *st;
	int			changes = *(int *) arg;

	if (!db)
	{
		atomic_fetch_add(&errors, 1);
		atomic_store(&writer_done, 1);
		return NULL;
	}
	sqlite3_prepare_v2(db, "SELECT serde_register('T', ?1)", -1, &st, NULL);
	for (int i = 1; i <= changes; i++)
	{
		sqlite3_bind_text(st, 1, i % 2 ? version_a : version_b, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_ROW)
		{
			fprintf(stderr, "register: %s\n", sqlite3_errmsg(db));
			atomic_fetch_add(&errors, 1);
		}
		sqlite3_reset(st);
		usleep(2000);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	atomic_store(&writer_done, 1);
	return NULL;
}

int
main(int argc, char **argv)
{
	int			nthreads = argc > 2 ? atoi(argv[2]) : 4;
	int			changes = 200;
	pthread_t	t[64], w;
	sqlite3    *db;

	ext = argc > 1 ? argv[1] : "./sqlite/serde";
	if (argc > 3)
		iterations = atoi(argv[3]);
	if (nthreads < 1 || nthreads > 64)
		nthreads = 4;
	snprintf(path, sizeof(path), "/tmp/serde-threads-%d.db", (int) getpid());
	unlink(path);
	if (!(db = open_db()))
		return 2;
	sqlite3_exec(db, "PRAGMA journal_mode = wal", NULL, NULL, NULL);
	sqlite3_exec(db, "SELECT serde_register('T', '{\"fields\": {\"id\": {\"type\": \"integer\"}, \"v\": {\"type\": \"text\"}}}');"
				 "CREATE VIRTUAL TABLE tv USING serde(T);", NULL, NULL, NULL);
	sqlite3_close(db);

	pthread_barrier_init(&start, NULL, (unsigned) nthreads);
	for (long i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, reader, (void *) i);
	pthread_create(&w, NULL, writer, &changes);
	pthread_join(w, NULL);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	{
		char		wal[300], shm[300];

		snprintf(wal, sizeof(wal), "%s-wal", path);
		snprintf(shm, sizeof(shm), "%s-shm", path);
		unlink(path);
		unlink(wal);
		unlink(shm);
	}
	printf("%d threads, %d re-registrations: %d rows of version A, %d of version B, %d wrong, %d errors\n",
		   nthreads, changes, atomic_load(&seen_a), atomic_load(&seen_b), atomic_load(&wrong),
		   atomic_load(&errors));
	return atomic_load(&wrong) || atomic_load(&errors) || !atomic_load(&seen_a) || !atomic_load(&seen_b);
}
