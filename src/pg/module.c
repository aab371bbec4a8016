/*
 * module.c — the extension's entry point: PG_MODULE_MAGIC, _PG_init (the serde.* settings and
 * the cache invalidation callbacks, registered once per backend), and the callbacks themselves,
 * which only bump the generation counters that the plan cache compares on its next use.
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

int			sd_pg_max_depth = SD_DEFAULT_MAX_DEPTH;
int			sd_pg_max_document_bytes = 1024 * 1024 * 1024;
int			sd_pg_max_errors = 100;
static int	sd_pg_debug_commit_delay = 0;
int			sd_pg_debug_build_delay = 0;

uint64		sd_pg_catalog_gen = 1;
uint64		sd_pg_type_gen = 1;
Oid			sd_pg_known_shapes_relid = InvalidOid;

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
	if (relid == InvalidOid || sd_pg_known_shapes_relid == InvalidOid ||
		relid == sd_pg_known_shapes_relid)
		sd_pg_catalog_gen++;
	if (relid != sd_pg_known_shapes_relid || relid == InvalidOid)
		sd_pg_type_gen++;
}

/* TYPEOID (drops, domain changes, renames) and ENUMOID (ADD/RENAME VALUE) syscache callback. */
static void
sd_syscache_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	sd_pg_type_gen++;
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
	if (event == XACT_EVENT_COMMIT && sd_pg_debug_commit_delay > 0 &&
		TransactionIdIsValid(GetTopTransactionIdIfAny()))
		pg_usleep((long) sd_pg_debug_commit_delay * 1000L);
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
							NULL,
							&sd_pg_max_depth,
							SD_DEFAULT_MAX_DEPTH, 1, 100000,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("serde.max_document_bytes",
							"Largest document serde decodes, in bytes.",
							NULL,
							&sd_pg_max_document_bytes,
							1024 * 1024 * 1024, 1, INT_MAX,
							PGC_USERSET, GUC_UNIT_BYTE,
							NULL, NULL, NULL);
	DefineCustomIntVariable("serde.max_errors",
							"Most violations serde_errors reports for one document.",
							NULL,
							&sd_pg_max_errors,
							100, 1, INT_MAX,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("serde.debug_commit_delay",
							"For tests: delay between a commit becoming visible and its invalidations.",
							NULL,
							&sd_pg_debug_commit_delay,
							0, 0, 60000,
							PGC_SUSET, GUC_UNIT_MS | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
							NULL, NULL, NULL);
	DefineCustomIntVariable("serde.debug_build_delay",
							"For tests: delay at the start of every plan build (wait event PgSleep).",
							NULL,
							&sd_pg_debug_build_delay,
							0, 0, 60000,
							PGC_SUSET, GUC_UNIT_MS | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("serde");

	/* Only 10 relcache-callback slots exist per backend: exactly one, here, once. */
	CacheRegisterRelcacheCallback(sd_relcache_callback, (Datum) 0);
	CacheRegisterSyscacheCallback(TYPEOID, sd_syscache_callback, (Datum) 0);
	CacheRegisterSyscacheCallback(ENUMOID, sd_syscache_callback, (Datum) 0);
	RegisterXactCallback(sd_xact_callback, NULL);
}
