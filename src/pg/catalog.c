/*
 * catalog.c — reads the shape catalog serde.shapes: finds the table, takes fresh snapshots (never
 * the query's, so a REPEATABLE READ transaction cannot fill the backend-wide cache with an old
 * version), reads one shape by name through the primary key, lists the shapes of a target type,
 * and lists the shapes an options value refers to through `shape` options.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/snapmgr.h"

#include "serde_pg.h"

static Oid	shapes_relid = InvalidOid;
static uint64 shapes_relid_gen = 0;

/* list_sort comparator for a List of C strings. */
static int
cmp_cstring(const ListCell *a, const ListCell *b)
{
	return strcmp((const char *) lfirst(a), (const char *) lfirst(b));
}

Oid
pgs_shapes_relid(void)
{
	if (!OidIsValid(shapes_relid) || shapes_relid_gen != pgs_catalog_gen)
	{
		uint64		gen = pgs_catalog_gen;
		Oid			nsp = get_namespace_oid("serde", true);
		Oid			relid = OidIsValid(nsp) ? get_relname_relid("shapes", nsp) : InvalidOid;

		if (!OidIsValid(relid))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("serde's catalog table serde.shapes does not exist"),
					 errhint("Run CREATE EXTENSION serde in this database.")));
		shapes_relid = relid;
		pgs_known_shapes_relid = relid;
		shapes_relid_gen = gen;
	}
	return shapes_relid;
}

Snapshot
pgs_catalog_snapshot(void)
{
	Oid			relid = pgs_shapes_relid();

	/*
	 * A fresh snapshot sees every committed change and this transaction's earlier commands.
	 * GetLatestSnapshot is not allowed in parallel mode; the catalog snapshot of a table that
	 * has no syscache is just as fresh (it is retaken on every call).
	 */
	if (IsInParallelMode())
		return RegisterSnapshot(GetCatalogSnapshot(relid));
	return RegisterSnapshot(GetLatestSnapshot());
}

typedef struct ShapeCols
{
	AttrNumber	name;
	AttrNumber	target;
	AttrNumber	options;
	AttrNumber	version;
} ShapeCols;

static void
shape_cols(Relation rel, ShapeCols *c)
{
	TupleDesc	desc = RelationGetDescr(rel);

	c->name = SPI_fnumber(desc, "name");
	c->target = SPI_fnumber(desc, "target");
	c->options = SPI_fnumber(desc, "options");
	c->version = SPI_fnumber(desc, "version");
	if (c->name <= 0 || c->target <= 0 || c->options <= 0 || c->version <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("serde.shapes lacks one of the columns name, target, options, version")));
}

/*
 * A catalog this small (in blocks) is read by a scan of the table rather than through its
 * primary key: in a fresh backend opening the index (its relcache entry: pg_class, pg_index,
 * pg_am, the operator class) costs more than reading a few pages, and the first decode of every
 * new connection reads the catalog (bench/README.md, "Cold").  Same rows either way: the key is
 * the primary key's column with its collation.
 */
#define SHAPES_SCAN_MAX_BLOCKS 4

bool
pgs_read_shape(const char *name, Snapshot snap, bool want_options, SdShapeRow *row)
{
	Relation	rel = table_open(pgs_shapes_relid(), AccessShareLock);
	ShapeCols	c;
	Oid			pkey = RelationGetNumberOfBlocks(rel) <= SHAPES_SCAN_MAX_BLOCKS ? InvalidOid :
		pgs_primary_key_index(rel);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	bool		found = false;

	shape_cols(rel, &c);
	ScanKeyInit(&key, c.name, BTEqualStrategyNumber, F_TEXTEQ, CStringGetTextDatum(name));
	/* compare with the column's (and its primary key's) collation, declared "C" */
	key.sk_collation = TupleDescAttr(RelationGetDescr(rel), c.name - 1)->attcollation;
	scan = systable_beginscan(rel, pkey, OidIsValid(pkey), snap, 1, &key);
	if (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		TupleDesc	desc = RelationGetDescr(rel);
		bool		isnull;
		Datum		d;

		found = true;
		row->name = pstrdup(name);
		d = pgs_heap_attr(tup, c.target, desc, &isnull);
		row->target = isnull ? InvalidOid : DatumGetObjectId(d);
		d = pgs_heap_attr(tup, c.version, desc, &isnull);
		row->version = isnull ? 0 : DatumGetInt64(d);
		row->options = NULL;
		row->options_jb = NULL;
		if (want_options)
		{
			d = pgs_heap_attr(tup, c.options, desc, &isnull);
			if (isnull)
			{
				row->options = pstrdup("{}");
				row->options_jb = NULL;
			}
			else
			{
				Jsonb	   *jb = DatumGetJsonbPCopy(d);

				row->options_jb = jb;
				row->options = JsonbToCString(NULL, &jb->root, VARSIZE(jb));
			}
		}
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/* The names of the shapes whose target is typid, sorted (NIL for none). */
List *
pgs_shapes_for_type(Oid typid, Snapshot snap)
{
	List	   *names;

	pgs_shapes_of_types_lists(&typid, 1, snap, &names);
	return names;
}

/*
 * True if the type exists in snap.  Unlike the syscache, which may still hold a type whose DROP
 * has committed but whose invalidation has not arrived, this reads pg_type itself.
 */
bool
pgs_type_exists_in(Oid typid, Snapshot snap)
{
	Relation	rel = table_open(TypeRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	bool		found;

	ScanKeyInit(&key, Anum_pg_type_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(typid));
	scan = systable_beginscan(rel, TypeOidIndexId, true, snap, 1, &key);
	found = HeapTupleIsValid(systable_getnext(scan));
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/* The `shape` names of a fields object, and of the inline nested options below it. */
static List *
referenced_in_fields(JsonbContainer *fields, List *names, int depth)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;

	check_stack_depth();
	if (depth > 64)
		return names;
	it = JsonbIteratorInit(fields);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		JsonbValue *s;

		if (tok != WJB_VALUE || v.type != jbvBinary || !JsonContainerIsObject(v.val.binary.data))
			continue;
		s = getKeyJsonValueFromContainer(v.val.binary.data, "shape", 5, NULL);
		if (s && s->type == jbvString)
			names = lappend(names, pnstrdup(s->val.string.val, s->val.string.len));
		/* inline nested options: "fields" inside a field's options */
		s = getKeyJsonValueFromContainer(v.val.binary.data, "fields", 6, NULL);
		if (s && s->type == jbvBinary && JsonContainerIsObject(s->val.binary.data))
			names = referenced_in_fields(s->val.binary.data, names, depth + 1);
	}
	return names;
}

List *
pgs_referenced_shapes(Jsonb *options)
{
	JsonbValue *fields;

	if (options == NULL || !JB_ROOT_IS_OBJECT(options))
		return NIL;
	fields = getKeyJsonValueFromContainer(&options->root, "fields", 6, NULL);
	if (fields == NULL || fields->type != jbvBinary ||
		!JsonContainerIsObject(fields->val.binary.data))
		return NIL;
	return referenced_in_fields(fields->val.binary.data, NIL, 0);
}

/*
 * For each of n types, the names of the shapes whose target it is, sorted (NIL for none), read
 * in one scan of the catalog: a plan build asks this for every composite type it reaches
 * (cache.c), and one scan per type was most of a first decode's catalog reading.
 */
void
pgs_shapes_of_types_lists(const Oid *typids, int n, Snapshot snap, List **names)
{
	Relation	rel = table_open(pgs_shapes_relid(), AccessShareLock);
	ShapeCols	c;
	SysScanDesc scan;
	HeapTuple	tup;

	for (int i = 0; i < n; i++)
		names[i] = NIL;
	shape_cols(rel, &c);
	scan = systable_beginscan(rel, InvalidOid, false, snap, 0, NULL);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		bool		tnull,
					nnull;
		Datum		t = pgs_heap_attr(tup, c.target, RelationGetDescr(rel), &tnull);
		Datum		d;

		if (tnull)
			continue;
		for (int i = 0; i < n; i++)
			if (typids[i] == DatumGetObjectId(t))
			{
				d = pgs_heap_attr(tup, c.name, RelationGetDescr(rel), &nnull);
				if (!nnull)
					names[i] = lappend(names[i], TextDatumGetCString(d));
			}
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	for (int i = 0; i < n; i++)
		list_sort(names[i], cmp_cstring);
}

/*
 * For each of n types, the names of the shapes whose target it is, sorted and joined with ", "
 * ("" for none), read in one scan of the catalog (a plan's dependencies on the shapes of the
 * types it reaches: cache.c).
 */
void
pgs_shapes_of_types(const Oid *typids, int n, Snapshot snap, char **joined)
{
	List	  **names = palloc0(sizeof(List *) * Max(n, 1));

	pgs_shapes_of_types_lists(typids, n, snap, names);
	for (int i = 0; i < n; i++)
		joined[i] = pgs_join_names(names[i]);
}

/* Names sorted and joined with ", " ("" for none); the list is sorted in place. */
char *
pgs_join_names(List *names)
{
	StringInfoData buf;
	ListCell   *lc;

	list_sort(names, cmp_cstring);
	initStringInfo(&buf);
	foreach(lc, names)
	{
		if (buf.len)
			appendStringInfoString(&buf, ", ");
		appendStringInfoString(&buf, (char *) lfirst(lc));
	}
	return buf.data;
}

const char *
pgs_shape_name_shown(const char *name)
{
	size_t		len = strlen(name);

	if (len <= SD_SHAPE_NAME_MAX)
		return name;
	return psprintf("%.*s...", pg_mbcliplen(name, (int) Min(len, (size_t) 1024), SD_SHAPE_NAME_MAX),
					name);
}
