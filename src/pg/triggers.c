/*
 * triggers.c — the triggers of serde.shapes: a BEFORE ROW trigger that validates every written
 * row exactly as serde_register does (name, target, ownership of the target, options compiled
 * against the type, defaults converted) and stamps a fresh version, and that lets a row be
 * replaced or deleted only by its target's owner (require_target_owner; a BEFORE TRUNCATE
 * trigger asks the same for every row); and an AFTER
 * STATEMENT trigger that finishes the validation of rows whose `shape` options refer to shapes
 * written later in the same statement (a COPY restoring a dump writes rows in any order) — or,
 * with check_function_bodies off (restoring a --inserts dump), that do not exist at all — then
 * sends a relcache invalidation for the catalog, which makes every backend's plan cache re-check
 * its shapes at their next use (transactionally).
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/sequence.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/snapmgr.h"
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

/*
 * Rows whose validation waits for the end of their statement, by name (in
 * TopTransactionContext; the list belongs to transaction pending_lxid only).
 */
static List *pending = NIL;
static LocalTransactionId pending_lxid = InvalidLocalTransactionId;

static void
pending_add(const char *name)
{
	MemoryContext old;

	if (pending_lxid != PGS_MY_LXID)
	{
		pending = NIL;
		pending_lxid = PGS_MY_LXID;
	}
	old = MemoryContextSwitchTo(TopTransactionContext);
	pending = lappend(pending, pstrdup(name));
	MemoryContextSwitchTo(old);
}

/*
 * Who may write a shape (docs/reference.md, serde_register): the typed two-argument form serde_decode(NULL::t, doc)
 * decodes with the one shape whose target is t, so a shape row decides what every role's typed
 * call for its target does.  Writing one (INSERT, UPDATE to or from it, DELETE, TRUNCATE)
 * therefore takes ownership of the target type itself — for types nobody owns privately (jsonb,
 * int8[], every built-in type) that is the bootstrap superuser's — and of every composite the
 * target decodes into, followed through domains and arrays in any combination (a domain over
 * an array of a domain over a composite: the composite's owner decides too).  Ownership
 * includes membership in the owning role, and superusers own everything.  ereports 42501.
 */
static void
require_target_owner(Oid target)
{
	Oid			t = target;

	if (!pgs_type_ownercheck(target, GetUserId()))
		aclcheck_error_type(ACLCHECK_NOT_OWNER, target);
	for (int depth = 0; OidIsValid(t); depth++)
	{
		HeapTuple	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(t));
		Form_pg_type typ;
		Oid			next = InvalidOid;

		if (!HeapTupleIsValid(tup))
			break;
		typ = (Form_pg_type) GETSTRUCT(tup);
		if (typ->typtype == TYPTYPE_DOMAIN)
			next = typ->typbasetype;
		else if (typ->typtype == TYPTYPE_COMPOSITE)
		{
			if (!pgs_type_ownercheck(t, GetUserId()))
			{
				ReleaseSysCache(tup);
				aclcheck_error_type(ACLCHECK_NOT_OWNER, t);
			}
		}
		else if (IsTrueArrayType(typ))
			next = typ->typelem;
		ReleaseSysCache(tup);
		if (depth > 1000)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("type %s nests too deeply for serde", format_type_be(target))));
		t = next;
	}
}

/* The same for a row about to be replaced or removed: its target, if that still exists. */
static void
require_old_target_owner(HeapTuple tuple, TupleDesc desc)
{
	bool		isnull;
	Datum		d = pgs_heap_attr(tuple, column_of(desc, "target"), desc, &isnull);

	if (!isnull && SearchSysCacheExists1(TYPEOID, d))
		require_target_owner(DatumGetObjectId(d));
}

/* TRUNCATE removes every shape: the writer must own every target still there (the first
 * one it does not own, in name order, is named). */
static void
require_owner_of_all(Relation rel)
{
	TupleDesc	desc = RelationGetDescr(rel);
	Snapshot	snap = RegisterSnapshot(GetLatestSnapshot());
	Oid			pkey = pgs_primary_key_index(rel);
	SysScanDesc scan = systable_beginscan(rel, pkey, OidIsValid(pkey), snap, 0, NULL);
	HeapTuple	tup;

	while (HeapTupleIsValid(tup = systable_getnext(scan)))
		require_old_target_owner(tup, desc);
	systable_endscan(scan);
	UnregisterSnapshot(snap);
}

/*
 * Checks a catalog row the way serde_register promises; ereports what is wrong.  With
 * may_defer, a row whose `shape` options name shapes that do not exist (yet) is not compiled:
 * returns false and the caller checks it again at the end of the statement.
 */
static bool
validate_shape(const char *name, Oid target, Jsonb *options, bool may_defer)
{
	SdShapeOverride ov;
	char	   *options_text;
	MemoryContext tmp;
	MemoryContext old;
	SdPgPlan   *p;

	if (name[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shape name must not be empty")));
	if (strlen(name) > SD_SHAPE_NAME_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shape name \"%s\" is too long", pgs_shape_name_shown(name)),
				 errdetail("It has %zu bytes; shape names have at most %d.", strlen(name),
						   SD_SHAPE_NAME_MAX)));
	if (!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(target)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("type with OID %u does not exist", target)));
	require_target_owner(target);

	options_text = JsonbToCString(NULL, &options->root, VARSIZE(options));
	ov.name = name;
	ov.target = target;
	ov.options = options_text;
	ov.options_jb = options;
	ov.defer_missing = may_defer;

	/* compile (and convert the defaults) in a throwaway context, outside the cache */
	tmp = AllocSetContextCreate(CurrentMemoryContext, "serde validation", ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(tmp);
	p = pgs_plan_build(name, target, -1, options_text, options, 0, &ov, tmp);
	if (p)
		pgs_plan_release(p);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
	return p != NULL;
}

/* BEFORE INSERT OR UPDATE OR DELETE ON serde.shapes FOR EACH ROW, and BEFORE TRUNCATE */
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
	rel = td->tg_relation;
	desc = RelationGetDescr(rel);
	if (TRIGGER_FIRED_BEFORE(td->tg_event) && TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
	{
		require_owner_of_all(rel);
		return PointerGetDatum(NULL);
	}
	if (!TRIGGER_FIRED_BEFORE(td->tg_event) || !TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
		TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("serde_shapes_validate must fire BEFORE INSERT OR UPDATE OR DELETE FOR EACH ROW or BEFORE TRUNCATE")));
	/* the row replaced or removed: its target's owner decides as much as the new one's */
	if (!TRIGGER_FIRED_BY_INSERT(td->tg_event))
		require_old_target_owner(td->tg_trigtuple, desc);
	if (TRIGGER_FIRED_BY_DELETE(td->tg_event))
		return PointerGetDatum(td->tg_trigtuple);
	tuple = TRIGGER_FIRED_BY_UPDATE(td->tg_event) ? td->tg_newtuple : td->tg_trigtuple;

	a_name = column_of(desc, "name");
	a_target = column_of(desc, "target");
	a_options = column_of(desc, "options");
	a_version = column_of(desc, "version");
	d_name = pgs_heap_attr(tuple, a_name, desc, &null_name);
	d_target = pgs_heap_attr(tuple, a_target, desc, &null_target);
	d_options = pgs_heap_attr(tuple, a_options, desc, &null_options);

	/* NULLs are left to the NOT NULL constraints, which report them in the usual words */
	if (!null_name && !null_target && !null_options)
	{
		char	   *name = TextDatumGetCString(d_name);

		pgs_require_utf8();
		if (!validate_shape(name, DatumGetObjectId(d_target), DatumGetJsonbP(d_options), true))
			pending_add(name);
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

	/* rows that referred to shapes not written yet: every row of the statement is visible now */
	if (pending_lxid == PGS_MY_LXID && pending != NIL)
	{
		List	   *names = pending;
		ListCell   *lc;

		pending = NIL;
		foreach(lc, names)
		{
			SdShapeRow	row;

			/*
			 * Gone again (deleted, or its subtransaction rolled back): nothing to check.  With
			 * check_function_bodies off — as every pg_dump script sets it — a shape may still
			 * refer to shapes that do not exist: a --inserts dump restores one row per
			 * statement, in physical order, so a referring shape can come before the shape it
			 * refers to.  Like a function body naming a table restored later, its options are
			 * then compiled at first use (name, target and ownership were checked above).
			 */
			if (pgs_read_shape((char *) lfirst(lc), SnapshotSelf, true, &row) &&
				row.options_jb != NULL)
				(void) validate_shape(row.name, row.target, row.options_jb, !check_function_bodies);
		}
	}

	/* delivered to this backend at the next command (and after a rollback), to the others at
	 * commit: the plan caches re-read the versions of their shapes at their next use */
	CacheInvalidateRelcacheByRelid(RelationGetRelid(td->tg_relation));
	return PointerGetDatum(NULL);
}
