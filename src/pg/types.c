/*
 * types.c — describes PostgreSQL types to the core: builds the sd_type tree of a type OID and
 * typmod (with the PostgreSQL details a conversion needs hung on sd_type.host), and later tells
 * whether the types a plan was built from are still the same (composite tuple descriptors,
 * enum labels, domain NOT NULL, existence); formats the names of composite and array types
 * when a message first needs them (SdPgType.name).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/namespace.h"
#include "catalog/pg_enum.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "storage/procarray.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "serde_pg.h"

void
pgs_types_init(SdTypeBuilder *b, MemoryContext cxt)
{
	b->cxt = cxt;
	b->built = NIL;
	b->types = NIL;
	b->depth = 0;
}

/* ---- enum labels ------------------------------------------------------------------------- */

typedef struct EnumLabel
{
	float4		sortorder;
	Oid			oid;
	char	   *label;
	bool		safe;
} EnumLabel;

static int
enum_label_cmp(const void *a, const void *b)
{
	float4		x = ((const EnumLabel *) a)->sortorder;
	float4		y = ((const EnumLabel *) b)->sortorder;

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * A label may be used by OID when its pg_enum row is committed, or was created together with
 * the type (the same test enum.c applies before handing out a new label's OID).  Otherwise the
 * converter goes through enum_in, which raises the proper "unsafe use" error.
 */
static bool
enum_label_safe(HeapTuple tup)
{
	TransactionId xmin;

	if (HeapTupleHeaderXminCommitted(tup->t_data))
		return true;
	xmin = HeapTupleHeaderGetXmin(tup->t_data);
	if (!TransactionIdIsInProgress(xmin) && TransactionIdDidCommit(xmin))
		return true;
	return !EnumUncommitted(((Form_pg_enum) GETSTRUCT(tup))->oid);
}

/* The labels of an enum in enumsortorder, allocated in the current memory context. */
static EnumLabel *
read_enum_labels(Oid typid, int *nlabels)
{
	CatCList   *list = SearchSysCacheList1(ENUMTYPOIDNAME, ObjectIdGetDatum(typid));
	EnumLabel  *labels = palloc(sizeof(EnumLabel) * Max(list->n_members, 1));
	int			n = list->n_members;

	for (int i = 0; i < n; i++)
	{
		HeapTuple	tup = &list->members[i]->tuple;
		Form_pg_enum en = (Form_pg_enum) GETSTRUCT(tup);

		labels[i].sortorder = en->enumsortorder;
		labels[i].oid = en->oid;
		labels[i].label = pstrdup(NameStr(en->enumlabel));
		labels[i].safe = enum_label_safe(tup);
	}
	ReleaseSysCacheList(list);
	qsort(labels, n, sizeof(EnumLabel), enum_label_cmp);
	*nlabels = n;
	return labels;
}

/* True if typid, or any domain under it, is NOT NULL. */
static bool
domain_chain_notnull(Oid typid)
{
	for (;;)
	{
		HeapTuple	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
		Form_pg_type t;
		bool		notnull;
		Oid			base;

		if (!HeapTupleIsValid(tup))
			return false;
		t = (Form_pg_type) GETSTRUCT(tup);
		if (t->typtype != TYPTYPE_DOMAIN)
		{
			ReleaseSysCache(tup);
			return false;
		}
		notnull = t->typnotnull;
		base = t->typbasetype;
		ReleaseSysCache(tup);
		if (notnull)
			return true;
		typid = base;
	}
}

/* ---- building ------------------------------------------------------------------------------ */

static void
remember(SdTypeBuilder *b, sd_type *st, SdPgType *h)
{
	h->st = st;
	b->built = lappend(b->built, h);
	b->types = lappend(b->types, st);
}

static const sd_type *
build_domain(SdTypeBuilder *b, Oid typid, int32 typmod)
{
	int32		basemod = -1;
	Oid			basetypid = getBaseTypeAndTypmod(typid, &basemod);
	const sd_type *base = pgs_type_get(b, basetypid, basemod);
	sd_type    *st = palloc(sizeof(sd_type));
	SdPgType   *h = palloc(sizeof(SdPgType));

	*st = *base;
	*h = *pgs_host(base);
	if (h->has_infunc)
		fmgr_info_copy(&h->infunc, &pgs_host(base)->infunc, b->cxt);
	h->typid = typid;
	h->typmod = typmod;
	h->is_domain = true;
	h->dom_notnull = domain_chain_notnull(typid);
	h->name = format_type_with_typemod(typid, typmod);
	h->domref = NULL;			/* per role, at the first check (pgs_domain_ref_update) */
	h->domref_user = InvalidOid;
	h->domrefs = NULL;
	st->name = h->name;
	st->not_null = h->dom_notnull || base->not_null;
	st->host = h;
	remember(b, st, h);
	return st;
}

static void
build_composite(SdTypeBuilder *b, sd_type *st, SdPgType *h)
{
	TypeCacheEntry *tce = lookup_type_cache(h->typid, TYPECACHE_TUPDESC);
	TupleDesc	td;
	sd_column  *cols;
	int			n = 0;

	if (tce->tupDesc == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("type %s is not composite", format_type_with_typemod(h->typid, h->typmod))));
	h->tupdesc_id = tce->tupDesc_identifier;
	td = h->tupdesc = CreateTupleDescCopy(tce->tupDesc);
	cols = palloc0(sizeof(sd_column) * Max(td->natts, 1));
	h->attnos = palloc(sizeof(int) * Max(td->natts, 1));
	for (int i = 0; i < td->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(td, i);

		if (att->attisdropped)
			continue;
		cols[n].name = pstrdup(NameStr(att->attname));
		cols[n].type = pgs_type_get(b, att->atttypid, att->atttypmod);
		h->attnos[n] = i;
		n++;
	}
	h->ncols = n;
	st->ncols = n;
	st->cols = cols;
}

/* qsort over label indexes by the labels' bytes (strcmp, as the core's binary search) */
static const char **label_sort_names;

static int
label_index_cmp(const void *a, const void *b)
{
	return strcmp(label_sort_names[*(const int *) a], label_sort_names[*(const int *) b]);
}

static void
build_enum(SdTypeBuilder *b, sd_type *st, SdPgType *h)
{
	int			n;
	EnumLabel  *labels = read_enum_labels(h->typid, &n);
	const char **names = palloc(sizeof(char *) * Max(n, 1));

	h->nlabels = n;
	h->label_oids = palloc(sizeof(Oid) * Max(n, 1));
	h->label_safe = palloc(sizeof(bool) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		names[i] = labels[i].label;
		h->label_oids[i] = labels[i].oid;
		h->label_safe[i] = labels[i].safe;
	}
	h->labels = names;
	st->nlabels = n;
	st->labels = names;
	/* built once with the type (per plan): labels are then found by binary search */
	{
		int		   *order = palloc(sizeof(int) * Max(n, 1));

		for (int i = 0; i < n; i++)
			order[i] = i;
		label_sort_names = names;
		qsort(order, n, sizeof(int), label_index_cmp);
		label_sort_names = NULL;
		st->label_order = order;
	}
}

static void
set_input_function(SdTypeBuilder *b, SdPgType *h)
{
	Oid			infunc;

	getTypeInputInfo(h->typid, &infunc, &h->typioparam);
	fmgr_info_cxt(infunc, &h->infunc, b->cxt);
	h->has_infunc = true;
}

static const sd_type *
build_type(SdTypeBuilder *b, Oid typid, int32 typmod)
{
	HeapTuple	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	Form_pg_type t;
	char		typtype;
	bool		defined;
	sd_type    *st;
	SdPgType   *h;
	Oid			elem;

	if (!HeapTupleIsValid(tup))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("type with OID %u does not exist", typid)));
	t = (Form_pg_type) GETSTRUCT(tup);
	typtype = t->typtype;
	defined = t->typisdefined;
	ReleaseSysCache(tup);

	if (!defined)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("type %s is only a shell", format_type_be(typid))));
	if (typtype == TYPTYPE_PSEUDO)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("serde cannot decode into the pseudo-type %s", format_type_be(typid))));
	if (typtype == TYPTYPE_DOMAIN)
		return build_domain(b, typid, typmod);

	st = palloc0(sizeof(sd_type));
	h = palloc0(sizeof(SdPgType));
	h->typid = h->basetypid = typid;
	h->typmod = h->basetypmod = typmod;
	h->basetyptype = typtype;
	get_typlenbyvalalign(typid, &h->typlen, &h->typbyval, &h->typalign);
	h->max_chars = -1;
	st->max_chars = -1;
	st->precision = -1;
	st->scale = -1;
	st->host = h;

	switch (typid)
	{
		case TEXTOID:
			st->kind = SD_K_TEXT;
			break;
		case VARCHAROID:
		case BPCHAROID:
			st->kind = SD_K_TEXT;
			if (typmod >= (int32) VARHDRSZ)
				st->max_chars = h->max_chars = typmod - VARHDRSZ;
			h->bpchar = typid == BPCHAROID && st->max_chars >= 0;
			break;
		case INT2OID:
			st->kind = SD_K_INT2;
			break;
		case INT4OID:
			st->kind = SD_K_INT4;
			break;
		case INT8OID:
			st->kind = SD_K_INT8;
			break;
		case FLOAT4OID:
			st->kind = SD_K_FLOAT4;
			break;
		case FLOAT8OID:
			st->kind = SD_K_FLOAT8;
			break;
		case NUMERICOID:
			st->kind = SD_K_NUMERIC;
			if (typmod >= (int32) VARHDRSZ)
			{
				int32		tm = typmod - VARHDRSZ;

				st->precision = (int16) ((tm >> 16) & 0xffff);
				st->scale = (int16) ((((tm & 0x7ff) ^ 1024)) - 1024);
			}
			break;
		case BOOLOID:
			st->kind = SD_K_BOOL;
			break;
		case TIMESTAMPTZOID:
			st->kind = SD_K_TIMESTAMPTZ;
			break;
		case TIMESTAMPOID:
			st->kind = SD_K_TIMESTAMP;
			break;
		case DATEOID:
			st->kind = SD_K_DATE;
			break;
		case TIMEOID:
			st->kind = SD_K_TIME;
			break;
		case UUIDOID:
			st->kind = SD_K_UUID;
			break;
		case BYTEAOID:
			st->kind = SD_K_BYTEA;
			break;
		case JSONOID:
			st->kind = SD_K_JSON;
			break;
		case JSONBOID:
			st->kind = SD_K_JSONB;
			break;
		default:
			if (typtype == TYPTYPE_ENUM)
			{
				st->kind = SD_K_ENUM;
				build_enum(b, st, h);
				set_input_function(b, h);
			}
			else if (typtype == TYPTYPE_COMPOSITE)
			{
				st->kind = SD_K_COMPOSITE;
				build_composite(b, st, h);
			}
			else if ((elem = get_element_type(typid)) != InvalidOid)
			{
				st->kind = SD_K_ARRAY;
				/* an array's typmod applies to its elements */
				st->elem = pgs_type_get(b, elem, typmod);
				/* scalar elements: multi-dimensional arrays from nested JSON arrays */
				if (st->elem->kind != SD_K_COMPOSITE && st->elem->kind != SD_K_ARRAY &&
					st->elem->kind != SD_K_JSON && st->elem->kind != SD_K_JSONB)
					st->max_dims = MAXDIM;
			}
			else
			{
				st->kind = SD_K_OTHER;
				set_input_function(b, h);
			}
			break;
	}
	/* composites and arrays: named when a message needs it (SdPgType.name) */
	if (st->kind == SD_K_COMPOSITE || st->kind == SD_K_ARRAY)
		h->name = NULL;
	else
		h->name = format_type_with_typemod(typid, typmod);
	st->name = h->name ? h->name : "";
	remember(b, st, h);
	return st;
}

bool
pgs_types_fill_names(List *built)
{
	ListCell   *lc;
	bool		any = false;

	foreach(lc, built)
	{
		SdPgType   *h = lfirst(lc);

		if (h->name == NULL)
		{
			char	   *name = format_type_with_typemod(h->typid, h->typmod);

			/* in the plan's context, as the rest of the type */
			h->name = MemoryContextStrdup(GetMemoryChunkContext(h), name);
			h->st->name = h->name;
			pfree(name);
			any = true;
		}
	}
	return any;
}

const sd_type *
pgs_type_get(SdTypeBuilder *b, Oid typid, int32 typmod)
{
	ListCell   *lh,
			   *lt;
	MemoryContext old;
	const sd_type *result;

	forboth(lh, b->built, lt, b->types)
	{
		SdPgType   *h = lfirst(lh);

		if (h->typid == typid && h->typmod == typmod)
			return lfirst(lt);
	}
	check_stack_depth();
	if (++b->depth > 1000)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("type %s nests too deeply for serde", format_type_be(typid))));
	old = MemoryContextSwitchTo(b->cxt);
	result = build_type(b, typid, typmod);
	MemoryContextSwitchTo(old);
	b->depth--;
	return result;
}

/* ---- domain constraints, per role ----------------------------------------------------------- */

/*
 * A plan is shared by every role of the backend, but the expression states of a domain's CHECK
 * constraints are not role-neutral: ExecInitExpr checks the EXECUTE right on each function
 * they call, once, when it builds them.  States built for the role that happened to compile the
 * plan (the owner of a SECURITY DEFINER function, say) would let every later role run the
 * CHECK without that check.  So each role gets its own states, built the first time it checks
 * a value of the domain, and kept while the plan lives.
 */
typedef struct SdDomainRef
{
	Oid			userid;
	MemoryContext cxt;			/* the states (and the typcache reference's release callback) */
	DomainConstraintRef ref;
	struct SdDomainRef *next;
} SdDomainRef;

/* InitDomainConstraintRef into cxt, deleting cxt (back in old) if it raises; its own frame, so
 * that no variable of the caller lives across the setjmp (gcc -Os warns -Wclobbered). */
static void
init_domain_ref(Oid typid, DomainConstraintRef *ref, MemoryContext cxt, MemoryContext old)
{
	PG_TRY();
	{
		/* ExecInitExpr raises 42501 for a function this role may not execute */
		InitDomainConstraintRef(typid, ref, cxt, true);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(old);
		MemoryContextDelete(cxt);	/* releases the typcache reference too */
		PG_RE_THROW();
	}
	PG_END_TRY();
}

void
pgs_domain_ref_update(MemoryContext plan_cxt, SdPgType *h)
{
	Oid			user = GetUserId();
	SdDomainRef *r;

	if (h->domref == NULL || h->domref_user != user)
	{
		for (r = h->domrefs; r; r = r->next)
			if (r->userid == user)
				break;
		if (r == NULL)
		{
			MemoryContext cxt = AllocSetContextCreate(plan_cxt, "serde domain checks",
													  ALLOCSET_SMALL_SIZES);
			MemoryContext old = CurrentMemoryContext;

			r = MemoryContextAllocZero(cxt, sizeof(SdDomainRef));
			r->userid = user;
			r->cxt = cxt;
			init_domain_ref(h->typid, &r->ref, cxt, old);
			r->next = h->domrefs;
			h->domrefs = r;
		}
		h->domref = &r->ref;
		h->domref_user = user;
	}
	UpdateDomainConstraintRef(h->domref);
}

/* ---- identity checks ----------------------------------------------------------------------- */

SdTypesCheck
pgs_types_check(List *built)
{
	ListCell   *lc;

	/* existence first: a dropped type must not reach lookup_type_cache */
	foreach(lc, built)
	{
		SdPgType   *h = lfirst(lc);

		if (!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(h->typid)))
			return SD_TYPES_DROPPED;
	}
	foreach(lc, built)
	{
		SdPgType   *h = lfirst(lc);

		if (h->is_domain)
		{
			int32		basemod = -1;

			if (domain_chain_notnull(h->typid) != h->dom_notnull ||
				getBaseTypeAndTypmod(h->typid, &basemod) != h->basetypid ||
				basemod != h->basetypmod)
				return SD_TYPES_CHANGED;
			continue;			/* the base type has its own entry */
		}
		if (h->basetyptype == TYPTYPE_COMPOSITE)
		{
			TypeCacheEntry *tce = lookup_type_cache(h->typid, TYPECACHE_TUPDESC);

			if (tce->tupDesc == NULL || tce->tupDesc_identifier != h->tupdesc_id)
				return SD_TYPES_CHANGED;
		}
		else if (h->basetyptype == TYPTYPE_ENUM)
		{
			int			n;
			EnumLabel  *labels = read_enum_labels(h->typid, &n);
			bool		same = n == h->nlabels;

			/* ADD VALUE changes the OIDs, RENAME VALUE only a label's text */
			for (int i = 0; same && i < n; i++)
				same = labels[i].oid == h->label_oids[i] &&
					strcmp(labels[i].label, h->labels[i]) == 0;
			if (same)
			{
				/* a label added by a transaction that has committed since is safe now */
				for (int i = 0; i < n; i++)
					h->label_safe[i] = labels[i].safe;
			}
			for (int i = 0; i < n; i++)
				pfree(labels[i].label);
			pfree(labels);
			if (!same)
				return SD_TYPES_CHANGED;
		}
	}
	return SD_TYPES_SAME;
}

/*
 * pgs_types_fill_names for a plan's types, under the search path the plan was built with (the
 * setting's text, as a function's SET clause applies it), so that the names read as when they
 * were formatted while building.
 */
void
pgs_plan_names(SdPgPlan *p)
{
	int			nest;

	if (!p->names_pending)
		return;
	if (p->name_path == NULL || strcmp(p->name_path, namespace_search_path) == 0)
		(void) pgs_types_fill_names(p->types);
	else
	{
		/* an error on the way is undone with the (sub)transaction, as for a SET clause */
		nest = NewGUCNestLevel();
		(void) set_config_option("search_path", p->name_path, PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, 0, false);
		(void) pgs_types_fill_names(p->types);
		AtEOXact_GUC(true, nest);
	}
	p->names_pending = false;
}
