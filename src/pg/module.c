/*
 * module.c — the extension's entry point: PG_MODULE_MAGIC, _PG_init (the serde.* settings and
 * the cache invalidation callbacks, registered once per backend), the callbacks themselves,
 * which only bump the generation counters that the plan cache compares on its next use, and
 * the once-per-backend preparation of the first plan build (cold start).
 */
#include "postgres.h"

#ifdef __linux__
#include <link.h>
#include <sys/mman.h>
#endif

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

/* ---- cold start ------------------------------------------------------------------------ */

#ifdef __linux__

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14 */
#endif

/*
 * dl_iterate_phdr callback: maps the pages of the executable segments of serde.so and of
 * libsimdjson (whose stage 1 every JSON decode runs) into this process in one call.
 */
static int
prefault_library_code(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t	self = (uintptr_t) arg;
	bool		ours = false;

	for (int i = 0; i < info->dlpi_phnum && !ours; i++)
	{
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t	start = info->dlpi_addr + ph->p_vaddr;

		ours = ph->p_type == PT_LOAD && self >= start && self < start + ph->p_memsz;
	}
	if (!ours && (info->dlpi_name == NULL || strstr(info->dlpi_name, "/libsimdjson.so") == NULL))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
	{
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t	start,
					end;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		start = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t) 4095;
		end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + 4095) & ~(uintptr_t) 4095;
		(void) madvise((void *) start, end - start, MADV_POPULATE_READ);
	}
	return 0;
}
#endif							/* __linux__ */

/* true when _PG_init ran in the postmaster (shared_preload_libraries) */
static bool preloaded = false;

/*
 * Called before each plan build; does its work once per backend.  A fresh backend meets the
 * library's code through page faults (one per 64 kB or so of code it runs, each one costing
 * tens of microseconds on a virtual machine); the first decode runs code all over serde.so and
 * libsimdjson: about 50 faults.  Asking the kernel to map all of that (page-cached) code in
 * one system call costs ~0.1 ms and saved ~50 of the ~990 page faults of a cold Stripe decode.
 * With shared_preload_libraries it did not pay (measured: the call itself then took ~1.3 ms and
 * the backend had ~15 more faults, not fewer), so it is done only when this backend loaded the
 * library itself.  It only saves time: failures (kernels before 5.14 do not know
 * MADV_POPULATE_READ) are ignored.
 */
void
sd_pg_backend_first_use(void)
{
	static bool done = false;

	if (done)
		return;
	done = true;
#ifdef __linux__
	if (!preloaded)
		dl_iterate_phdr(prefault_library_code, (void *) (uintptr_t) &sd_pg_backend_first_use);
#endif
}

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
	MarkGUCPrefixReserved("serde");

	/* Only 10 relcache-callback slots exist per backend: exactly one, here, once. */
	CacheRegisterRelcacheCallback(sd_relcache_callback, (Datum) 0);
	CacheRegisterSyscacheCallback(TYPEOID, sd_syscache_callback, (Datum) 0);
	CacheRegisterSyscacheCallback(ENUMOID, sd_syscache_callback, (Datum) 0);

	/*
	 * Preloaded: choose the JSON kernel and run one decode in the postmaster, once for every
	 * backend.  Otherwise the first decode of each backend does that, as before.
	 */
	if (process_shared_preload_libraries_in_progress)
	{
		preloaded = true;
		warm_json_decoder();
	}
}
