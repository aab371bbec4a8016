/*
 * admin.c — the inspection functions: serde_describe (the compiled shape as jsonb, from the
 * core's plan description) and serde_cache_stats (this backend's plan cache counters).
 */
#include "postgres.h"

#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/tuplestore.h"

#include "serde_pg.h"

PG_FUNCTION_INFO_V1(serde_describe);
PG_FUNCTION_INFO_V1(serde_cache_stats);

/* serde_describe(shape text) RETURNS jsonb */
Datum
serde_describe(PG_FUNCTION_ARGS)
{
	char	   *name;
	SdPgPlan   *p;
	char	   *desc;
	char	   *copy;
	size_t		len = 0;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("shape name must not be NULL")));
	pgs_require_utf8();
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	p = pgs_plan_for_shape(name, -1);
	pgs_plan_names(p);			/* the type names a description prints */
	desc = sd_plan_describe(p->plan, &len);
	if (desc == NULL)
	{
		pgs_plan_release(p);
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("serde could not describe shape \"%s\".", name)));
	}
	copy = pnstrdup(desc, len);
	/* the description was allocated through the plan's hooks */
	p->hooks.free(p->hooks.ud, desc);
	pgs_plan_release(p);
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(copy)));
}

/* serde_cache_stats() RETURNS TABLE(plans int, compiles bigint, hits bigint,
 *                                   invalidations bigint, bytes bigint) */
Datum
serde_cache_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SdCacheStats s;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};

	InitMaterializedSRF(fcinfo, 0);
	pgs_cache_stats(&s);
	values[0] = Int32GetDatum(s.plans);
	values[1] = Int64GetDatum(s.compiles);
	values[2] = Int64GetDatum(s.hits);
	values[3] = Int64GetDatum(s.invalidations);
	values[4] = Int64GetDatum(s.bytes);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	return (Datum) 0;
}
