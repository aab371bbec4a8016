/*
 * bench/pgfloor/pgfloor.c — serde_bench_floor.so: the physical floor inside the backend.
 *
 *   CREATE FUNCTION bench.simdjson_floor(text) RETURNS int8
 *       AS 'serde_bench_floor', 'serde_bench_floor' LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
 *
 * A benchmark tool, not part of the serde extension (bench/run builds and installs it; the
 * competitor floor_simdjson of bench/workloads/gen.py calls it). Per call it does what serde
 * does before it decodes — detoast the argument (PG_GETARG_TEXT_PP), copy the bytes into a
 * reused, growing buffer with SIMDJSON_PADDING zero bytes after them — and then runs the
 * standalone floor program's simdjson On-Demand walk (bench/floor_walk.h, mode TOUCH: every
 * value touched, nothing after the root) through pgfloor_walk.cpp. It returns the walk's sink
 * (so nothing is optimised away) and raises 22P02 on a parse error.
 */
#include "postgres.h"

#include <string.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/memutils.h"

PG_MODULE_MAGIC;

#define SBF_PADDING 64			/* SIMDJSON_PADDING */

extern int	sbf_parse(const char *buf, size_t len, size_t cap, uint64_t *sink, const char **errmsg);

/* the padded copy, kept between calls (TopMemoryContext), grown in 4 KB steps, never shrunk */
static char *padded;
static size_t padded_cap;

PG_FUNCTION_INFO_V1(serde_bench_floor);

Datum
serde_bench_floor(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	uint64_t	sink = 0;
	const char *msg = NULL;

	CHECK_FOR_INTERRUPTS();
	if (len + SBF_PADDING > padded_cap)
	{
		size_t		cap = (len + SBF_PADDING + 4095) & ~(size_t) 4095;
		char	   *p = MemoryContextAllocHuge(TopMemoryContext, cap);

		if (padded)
			pfree(padded);
		padded = p;
		padded_cap = cap;
	}
	memcpy(padded, VARDATA_ANY(t), len);
	memset(padded + len, 0, SBF_PADDING);
	PG_FREE_IF_COPY(t, 0);

	if (sbf_parse(padded, len, padded_cap, &sink, &msg) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("simdjson floor: %s", msg)));
	PG_RETURN_INT64((int64) sink);
}
