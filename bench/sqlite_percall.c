/*
 * bench/sqlite_percall.c — what one call of the SQLite extension costs when its statement reads
 * no table (issue 19): SELECT serde_decode('Ev', ?1), serde_valid and serde_errors, each a
 * prepared statement executed again and again (bind, step, reset), so every execution looks
 * the shape up in the catalog; against SELECT length(?1), the same statement with no serde.
 * Two builds of the extension in one process (e.g. before and after a change), their rounds
 * interleaved (A B, then B A); per-call nanoseconds, median over rounds, for a database in
 * memory and one in a file.
 *
 *   gcc -O2 -o bench/out/sqlite_percall bench/sqlite_percall.c -lsqlite3
 *   bench/out/sqlite_percall DIR_A/serde DIR_B/serde [rounds]
 */
#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CALLS 20000
#define MAXR 64

static const char *const sqls[] = {
	"SELECT length(?1)", "SELECT serde_decode('Ev', ?1)", "SELECT serde_valid('Ev', ?1)",
	"SELECT count(*) FROM serde_errors('Ev', ?1)"};
#define NSQL 4

static double
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double) t.tv_sec * 1e9 + (double) t.tv_nsec;
}

static int
cmp(const void *a, const void *b)
{
	double		x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* per-call ns of each statement, one connection to path with extension ext */
static void
one_round(const char *ext, const char *path, double out[NSQL])
{
	sqlite3    *db;
	char	   *err = NULL;
	static const char doc[] = "{\"id\": 42, \"kind\": \"a\", \"note\": \"hello\"}";

	if (path[0] != ':')
		unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		exit(2);
	sqlite3_enable_load_extension(db, 1);
	if (sqlite3_load_extension(db, ext, NULL, &err) != SQLITE_OK)
	{
		fprintf(stderr, "load %s: %s\n", ext, err);
		exit(2);
	}
	sqlite3_exec(db, "SELECT serde_register('Ev', '{\"fields\": {\"id\": {\"type\": \"integer\"}, "
				 "\"kind\": {\"type\": {\"enum\": [\"a\", \"b\"]}}, \"note\": {\"type\": \"text\"}}}')",
				 NULL, NULL, NULL);
	for (int q = 0; q < NSQL; q++)
	{
		sqlite3_stmt *st;
		double		t0 = 0;

		if (sqlite3_prepare_v2(db, sqls[q], -1, &st, NULL) != SQLITE_OK)
			exit(3);
		for (int i = -CALLS / 10; i < CALLS; i++)   /* a tenth to warm up */
		{
			if (i == 0)
				t0 = now_ns();
			sqlite3_bind_text(st, 1, doc, -1, SQLITE_STATIC);
			while (sqlite3_step(st) == SQLITE_ROW)
				;
			if (sqlite3_reset(st) != SQLITE_OK)
				exit(4);
		}
		out[q] = (now_ns() - t0) / CALLS;
		sqlite3_finalize(st);
	}
	if (sqlite3_close(db) != SQLITE_OK)
	{
		fprintf(stderr, "sqlite3_close failed: %s\n", sqlite3_errmsg(db));
		exit(5);
	}
	if (path[0] != ':')
		unlink(path);
}

int
main(int argc, char **argv)
{
	const char *ext[2];
	const char *paths[2] = {":memory:", "/tmp/serde_percall.db"};
	int			rounds = argc > 3 ? atoi(argv[3]) : 7;
	static double res[2][2][NSQL][MAXR];    /* path, ext, statement, round */

	if (argc < 3)
	{
		fprintf(stderr, "usage: %s EXT_A EXT_B [rounds]\n", argv[0]);
		return 1;
	}
	ext[0] = argv[1];
	ext[1] = argv[2];
	if (rounds < 1 || rounds > MAXR)
		rounds = 7;
	for (int r = 0; r < rounds; r++)
		for (int p = 0; p < 2; p++)
			for (int k = 0; k < 2; k++)
			{
				int			e = (r % 2) ? 1 - k : k;
				double		v[NSQL];

				one_round(ext[e], paths[p], v);
				for (int q = 0; q < NSQL; q++)
					res[p][e][q][r] = v[q];
			}
	printf("per call, ns, median of %d rounds of %d calls (A: %s, B: %s)\n\n", rounds, CALLS, ext[0], ext[1]);
	printf("| database | statement | A | B | B − A |\n|---|---|---|---|---|\n");
	for (int p = 0; p < 2; p++)
		for (int q = 0; q < NSQL; q++)
		{
			double		m[2];

			for (int e = 0; e < 2; e++)
			{
				qsort(res[p][e][q], (size_t) rounds, sizeof(double), cmp);
				m[e] = res[p][e][q][rounds / 2];
			}
			printf("| %s | `%s` | %.0f | %.0f | %+.0f |\n", p ? "file" : "memory", sqls[q], m[0], m[1], m[1] - m[0]);
		}
	return 0;
}
