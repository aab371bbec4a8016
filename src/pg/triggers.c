/*
 * triggers.c — the triggers of serde.shapes: a BEFORE ROW trigger that validates every written
 * row exactly as serde_register does (name, target, ownership of a composite target, options
 * compiled against the type, defaults converted) and stamps a fresh version; and an AFTER
 * STATEMENT trigger that sends a relcache invalidation for the catalog, which makes every
 * backend's plan cache re-check its shapes at their next use (transactionally).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/sequence.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "serde_pg.h"

PG_FUNCTION_INFO_V1(serde_shapes_validate);
PG_FUNCTION_INFO_V1(serde_shapes_invalidate);

static AttrNumber
column_of(TupleDesc desc, const char *name)
{
	int			attno = SPI_fnumber(desc, name);

	if (attno <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("serde.shapes has no column \"%s\"", name)));
	return (AttrNumber) attno;
}

/* Checks a catalog row the way serde_register promises; ereports what is wrong. */
static void
validate_shape(const char *name, Oid target, Jsonb *options)
{
	HeapTuple	tup;
	char		typtype;
	SdShapeOverride ov;
	char	   *options_text;
	MemoryContext tmp;
	MemoryContext old;
	SdPgPlan   *p;

	if (name[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shape name must not be empty")));
	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(target));
	if (!HeapTupleIsValid(tup))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("type with OID %u does not exist", target)));
	typtype = ((Form_pg_type) GETSTRUCT(tup))->typtype;
	ReleaseSysCache(tup);
	if (typtype == TYPTYPE_COMPOSITE && !pg_type_ownercheck(target, GetUserId()))
		aclcheck_error_type(ACLCHECK_NOT_OWNER, target);

	options_text = JsonbToCString(NULL, &options->root, VARSIZE(options));
	ov.name = name;
	ov.target = target;
	ov.options = options_text;
	ov.options_jb = options;

	/* compile (and convert the defaults) in a throwaway context, outside the cache */
	tmp = AllocSetContextCreate(CurrentMemoryContext, "serde validation", ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(tmp);
	p = sd_pg_plan_build(name, target, options_text, options, 0, &ov, tmp);
	sd_pg_plan_release(p);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
}

/* BEFORE INSERT OR UPDATE ON serde.shapes FOR EACH ROW */
Datum
serde_shapes_validate(PG_FUNCTION_ARGS)
{
	TriggerData *td;
	HeapTuple	tuple;
	TupleDesc	desc;
	Relation	rel;
	AttrNumber	a_name,
				a_target,
				a_options,
				a_version;
	bool		null_name,
				null_target,
				null_options;
	Datum		d_name,
				d_target,
				d_options;
	Oid			seq;
	Datum		version;
	bool		version_null = false;
	int			version_col;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("serde_shapes_validate must be called as a trigger")));
	td = (TriggerData *) fcinfo->context;
	if (!TRIGGER_FIRED_BEFORE(td->tg_event) || !TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
		TRIGGER_FIRED_BY_DELETE(td->tg_event) || TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("serde_shapes_validate must fire BEFORE INSERT OR UPDATE FOR EACH ROW")));
	rel = td->tg_relation;
	desc = RelationGetDescr(rel);
	tuple = TRIGGER_FIRED_BY_UPDATE(td->tg_event) ? td->tg_newtuple : td->tg_trigtuple;

	a_name = column_of(desc, "name");
	a_target = column_of(desc, "target");
	a_options = column_of(desc, "options");
	a_version = column_of(desc, "version");
	d_name = heap_getattr(tuple, a_name, desc, &null_name);
	d_target = heap_getattr(tuple, a_target, desc, &null_target);
	d_options = heap_getattr(tuple, a_options, desc, &null_options);

	/* NULLs are left to the NOT NULL constraints, which report them in the usual words */
	if (!null_name && !null_target && !null_options)
	{
		sd_pg_require_utf8();
		validate_shape(TextDatumGetCString(d_name), DatumGetObjectId(d_target),
					   DatumGetJsonbP(d_options));
	}

	/* a fresh version: versions never repeat, even after DELETE and a new INSERT */
	seq = get_relname_relid("shape_version", RelationGetNamespace(rel));
	if (!OidIsValid(seq))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("sequence serde.shape_version does not exist")));
	version = Int64GetDatum(nextval_internal(seq, false));
	version_col = a_version;
	tuple = heap_modify_tuple_by_cols(tuple, desc, 1, &version_col, &version, &version_null);
	return PointerGetDatum(tuple);
}

/* AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON serde.shapes FOR EACH STATEMENT */
Datum
serde_shapes_invalidate(PG_FUNCTION_ARGS)
{
	TriggerData *td;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("serde_shapes_invalidate must be called as a trigger")));
	td = (TriggerData *) fcinfo->context;
	/* delivered to this backend at the next command (and after a rollback), to the others at
	 * commit: the plan caches re-read the versions of their shapes at their next use */
	CacheInvalidateRelcacheByRelid(RelationGetRelid(td->tg_relation));
	return PointerGetDatum(NULL);
}
