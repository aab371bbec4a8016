/*
 * module.c — the extension's entry point: PG_MODULE_MAGIC, _PG_init (the serde.* settings and
 * the cache invalidation callbacks, registered once per backend), the callbacks themselves,
 * which only bump the generation counters that the plan cache compares on its next use, and
 * (with shared_preload_libraries) a warm-up decode in the postmaster for every backend.
 */
#include "postgres.h"

#include "access/xact.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/syscache.h"

#include "serde_pg.h"

PG_MODULE_MAGIC;

int			pgs_max_depth = SD_DEFAULT_MAX_DEPTH;
int			pgs_max_document_bytes = 1024 * 1024 * 1024;
int			pgs_max_errors = 100;
int			pgs_max_plan_bytes = (int) SD_DEFAULT_MAX_PLAN_BYTES;
static int	pgs_debug_commit_delay = 0;
int			pgs_debug_build_delay = 0;

uint64		pgs_catalog_gen = 1;
uint64		pgs_type_gen = 1;
Oid			pgs_known_shapes_relid = InvalidOid;

void		_PG_init(void);

/*
 * Relcache callback.  serde.shapes (or an unknown OID while we do not know which relation is
 * the catalog, or InvalidOid after a shared-invalidation overflow) moves the catalog
 * generation; any other relation may be a composite's table, so it moves the type generation.
 * ANALYZE or GRANT on the catalog move the catalog generation too: the next use re-reads the
 * shape's version and recompiles nothing.
 */
static void
sd_relcache_callback(Datum arg, Oid relid)
{
	if (relid == InvalidOid || pgs_known_shapes_relid == InvalidOid ||
		relid == pgs_known_shapes_relid)
		pgs_catalog_gen++;
	if (relid != pgs_known_shapes_relid || relid == InvalidOid)
		pgs_type_gen++;
}

/* TYPEOID (drops, domain changes, renames) and ENUMOID (ADD/RENAME VALUE) syscache callback. */
static void
sd_syscache_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	pgs_type_gen++;
}

/*
 * serde.debug_commit_delay (superuser, hidden; for tests): a transaction that wrote something
 * and commits waits this many milliseconds after its commit became visible to other sessions
 * and before its invalidation messages go out (XACT_EVENT_COMMIT falls between the two), which
 * makes the race sql/race.sql tests deterministic.
 */
static void
sd_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_COMMIT && pgs_debug_commit_delay > 0 &&
		TransactionIdIsValid(GetTopTransactionIdIfAny()))
		pg_usleep((long) pgs_debug_commit_delay * 1000L);
}

/* ---- cold start ------------------------------------------------------------------------ */

/*
 * Preloaded only: one small JSON decode in the postmaster, through the core alone (malloc, no
 * catalog, nothing PostgreSQL-specific), so that every backend inherits what a first decode
 * sets up once per process: simdjson's choice of implementation, and the lazily bound calls
 * inside libsimdjson and libstdc++ (operator new[]/delete[] and what they call).  Each of those
 * bindings searches every library of the process, and in a freshly forked backend that search
 * takes page faults all the way: measured ~1 ms of the first decode in each backend.  Failures
 * are ignored; the memory is freed again.
 */
static void
warm_json_decoder(void)
{
	static const sd_type json_type = {
		.kind = SD_K_JSON, .name = "json", .max_chars = -1, .precision = -1, .scale = -1
	};
	static const char doc[] = "{\"a\": [1, -2.5e3, \"x\\u00e9\", true, null, {\"b\": []}]}";
	sd_hooks	hooks = {0};
	sd_limits	limits = {SD_DEFAULT_MAX_DEPTH, SD_DEFAULT_MAX_DOCUMENT_BYTES, 0};
	sd_error	err;
	sd_plan    *plan = sd_compile("serde", "{}", 2, &json_type, &hooks, NULL, &err);
	sd_decoder *d;
	uint32_t	root;

	if (plan == NULL)
		return;
	if ((d = sd_decoder_create(&hooks)) != NULL)
	{
		(void) sd_decode_json(d, plan, sd_plan_root(plan), doc, sizeof(doc) - 1, &limits,
							  &root, &err);
		sd_decoder_destroy(d);
	}
	sd_plan_free(plan);
}

void
_PG_init(void)
{
	static bool done = false;

	if (done)
		return;
	done = true;

	DefineCustomIntVariable("serde.max_depth",
							"Deepest nesting of a document serde decodes (the root value is at depth 1).",
							"Counts JSON objects and arrays, or XML elements. A deeper document fails with "
							"SQLSTATE 54001 (serde_valid: false; serde_errors: one row) before it is read further.",
							&pgs_max_depth,
							SD_DEFAULT_MAX_DEPTH, 1, 100000,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("serde.max_document_bytes",
							"Largest document serde decodes, in bytes.",
							"A larger document (text, json, jsonb, bytea or xml) fails with SQLSTATE 54000 "
							"(serde_valid: false; serde_errors: one row) without being read.",
							&pgs_max_document_bytes,
							1024 * 1024 * 1024, 1, INT_MAX,
							PGC_USERSET, GUC_UNIT_BYTE,
							NULL, NULL, NULL);
	DefineCustomIntVariable("serde.max_errors",
							"Most violations serde_errors reports for one document.",
							"serde_errors stops after this many rows for one document; memory grows with the "
							"violations reported, not with this setting.",
							&pgs_max_errors,
							100, 1, INT_MAX,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("serde.max_plan_bytes",
							"Largest compiled plan of one shape, in bytes.",
							"Checked when a plan is compiled, at serde_register and at first use; a larger plan "
							"fails with SQLSTATE 54000. Plans are cached per backend (serde_cache_stats).",
							&pgs_max_plan_bytes,
							(int) SD_DEFAULT_MAX_PLAN_BYTES, 64 * 1024, INT_MAX,
							PGC_USERSET, GUC_UNIT_BYTE,
							NULL, NULL, NULL);
	DefineCustomIntVariable("serde.debug_commit_delay",
							"For tests: delay between a commit becoming visible and its invalidations.",
							"Superuser only, hidden; 0 (the default) in production.",
							&pgs_debug_commit_delay,
							0, 0, 60000,
							PGC_SUSET, GUC_UNIT_MS | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
							NULL, NULL, NULL);
	DefineCustomIntVariable("serde.debug_build_delay",
							"For tests: delay at the start of every plan build (wait event PgSleep).",
							"Superuser only, hidden; 0 (the default) in production.",
							&pgs_debug_build_delay,
							0, 0, 60000,
							PGC_SUSET, GUC_UNIT_MS | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("serde");

	/* Only 10 relcache-callback slots exist per backend: exactly one, here, once. */
	CacheRegisterRelcacheCallback(sd_relcache_callback, (Datum) 0);
	CacheRegisterSyscacheCallback(TYPEOID, sd_syscache_callback, (Datum) 0);
	CacheRegisterSyscacheCallback(ENUMOID, sd_syscache_callback, (Datum) 0);
	RegisterXactCallback(sd_xact_callback, NULL);

	/*
	 * Preloaded: choose the JSON kernel and run one decode in the postmaster, once for every
	 * backend.  Otherwise the first decode of each backend does that, as before.
	 */
	if (process_shared_preload_libraries_in_progress)
		warm_json_decoder();
}
