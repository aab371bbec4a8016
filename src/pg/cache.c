/*
 * cache.c — the backend's plan cache: builds plans (type tree, referenced shapes, sd_compile,
 * defaults as Datums from their compiled values, converted by tape_to_datum.c) each in its own
 * memory context under CacheMemoryContext, keeps them
 * by shape name (or by type OID for the default-options plan of the typed two-argument form),
 * re-validates them when the invalidation generations moved (shape versions re-read with a
 * fresh snapshot, type identities compared) and recompiles only what really changed.  Plans are
 * reference counted: the cache holds one reference, every call site (fn_extra) another, so a
 * discarded plan lives until the last statement using it ends.
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/interrupt.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "serde_pg.h"

/* ---- cache state ------------------------------------------------------------------------- */

typedef struct SdPlanKey
{
	Oid			typid;			/* default-options plan of a type (name == NULL) */
	const char *name;			/* registered shape */
	int32		typmod;			/* the target's typmod (numeric(5,2)), -1 for none */
} SdPlanKey;

typedef struct SdPlanEntry
{
	SdPlanKey	key;
	SdPgPlan   *plan;
} SdPlanEntry;

typedef struct SdTypeShapes
{
	Oid			typid;
	uint64		gen;			/* catalog generation this answer is valid for */
	SdSnapMark	mark;			/* the snapshot it was read with */
	int			n;				/* shapes whose target is typid */
	char	   *names;			/* n == 1: the shape; n > 1: "A, B, C" */
} SdTypeShapes;

static HTAB *plan_cache = NULL;
static HTAB *type_shapes = NULL;
static SdPgPlan *live_plans = NULL;
static int	n_live = 0;
static int64 n_compiles = 0;
static int64 n_hits = 0;
static int64 n_invalidations = 0;

static uint32
plan_key_hash(const void *key, Size keysize)
{
	const SdPlanKey *k = key;

	if (k->name)
		return hash_bytes((const unsigned char *) k->name, (int) strlen(k->name)) ^
			hash_bytes_uint32((uint32) k->typmod);
	return hash_bytes_uint32(k->typid) ^ 0x5bd1e995 ^ hash_bytes_uint32((uint32) k->typmod);
}

static int
plan_key_match(const void *a, const void *b, Size keysize)
{
	const SdPlanKey *x = a;
	const SdPlanKey *y = b;

	if ((x->name == NULL) != (y->name == NULL) || x->typmod != y->typmod)
		return 1;
	if (x->name)
		return strcmp(x->name, y->name);
	return x->typid == y->typid ? 0 : 1;
}

static void
cache_init(void)
{
	HASHCTL		ctl;

	if (plan_cache)
		return;
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(SdPlanKey);
	ctl.entrysize = sizeof(SdPlanEntry);
	ctl.hash = plan_key_hash;
	ctl.match = plan_key_match;
	ctl.hcxt = CacheMemoryContext;
	plan_cache = hash_create("serde plans", 64, &ctl,
							 HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(SdTypeShapes);
	ctl.hcxt = CacheMemoryContext;
	type_shapes = hash_create("serde shapes by type", 64, &ctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/* ---- allocation hooks of a plan: its memory context, never an elog -------------------------- */

#define SD_HDR	MAXALIGN(sizeof(size_t) * 2)

static void *
plan_alloc(void *ud, size_t size)
{
	char	   *p;

	if (size > MaxAllocHugeSize - SD_HDR)
		return NULL;
	p = MemoryContextAllocExtended((MemoryContext) ud, size + SD_HDR,
								   MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
	if (p == NULL)
		return NULL;
	*(size_t *) p = size;
	return p + SD_HDR;
}

static void
plan_free_chunk(void *ud, void *ptr)
{
	if (ptr)
		pfree((char *) ptr - SD_HDR);
}

static void *
plan_realloc(void *ud, void *ptr, size_t size)
{
	size_t		old;
	void	   *n;

	if (ptr == NULL)
		return plan_alloc(ud, size);
	old = *(size_t *) ((char *) ptr - SD_HDR);
	if ((n = plan_alloc(ud, size)) == NULL)
		return NULL;
	memcpy(n, ptr, Min(old, size));
	plan_free_chunk(ud, ptr);
	return n;
}

/* ---- building -------------------------------------------------------------------------------- */

typedef struct SdResolved
{
	char	   *name;
	char	   *options;
	const sd_type *target;
} SdResolved;

/* The shapes of a composite type reached by the plan (its nested composites use the one). */
typedef struct SdTypeFound
{
	Oid			typid;
	int			n;
	char	   *names;			/* pgs_join_names */
	char	   *one;			/* n == 1: that shape */
} SdTypeFound;

typedef struct SdResolveState
{
	List	   *resolved;		/* SdResolved * */
	bool		defer;			/* a missing shape is checked later: resolve it as deferred */
	bool		deferred;		/* ... and one was */
	List	   *types;			/* SdTypeFound * */
	Oid			root_typid;		/* the plan's target ... */
	const char *root_shape;		/* ... and its shape (NULL: the typed form's default options) */
} SdResolveState;

static bool
resolve_shape(void *ud, const char *shape, const char **options_json, const sd_type **target,
			  sd_error *err)
{
	SdResolveState *st = ud;
	ListCell   *lc;

	foreach(lc, st->resolved)
	{
		SdResolved *r = lfirst(lc);

		if (strcmp(r->name, shape) == 0)
		{
			*options_json = r->options;
			*target = r->target;
			return true;
		}
	}
	if (st->defer)
	{
		*options_json = NULL;
		*target = NULL;
		st->deferred = true;
		return true;
	}
	sd_error_set(err, SD_E_OPTIONS, -1, "shape \"%s\" does not exist", shape);
	return false;
}

/*
 * The shape a nested composite of type t without `shape` decodes by (docs/reference.md, "Nested
 * composites"): its type's one shape, read before compiling (collect_type_shapes); the plan's own
 * shape for its own type.
 */
static bool
resolve_type(void *ud, const sd_type *t, const char **shape_name, sd_error *err)
{
	SdResolveState *st = ud;
	Oid			typid = pgs_host(t)->typid;
	ListCell   *lc;

	*shape_name = NULL;
	if (typid == st->root_typid && st->root_shape)
	{
		*shape_name = st->root_shape;
		return true;
	}
	foreach(lc, st->types)
	{
		SdTypeFound *f = lfirst(lc);

		if (f->typid != typid)
			continue;
		if (f->n > 1 && st->defer)
		{
			/* validating a catalog row: checked again at the end of the statement, where
			 * check_function_bodies = off (a restore) lets it wait until first use */
			st->deferred = true;
			return true;
		}
		if (f->n > 1)
			return sd_error_set(err, SD_E_OPTIONS, -1, "several shapes decode into type %s: %s; name "
								"one with \"shape\"", t->name, f->names);
		*shape_name = f->one;
		return true;
	}
	return true;
}

/* Name comparison for list_sort. */
static int
cmp_name(const ListCell *a, const ListCell *b)
{
	return strcmp((const char *) lfirst(a), (const char *) lfirst(b));
}

/*
 * For every composite type built so far (the target, its columns' types, the targets of the
 * shapes collected) not looked at yet: the shapes registered for it, as the resolver's answers
 * and as the plan's dependencies (typedeps).  The row being validated (ov) counts for its target
 * only.  Returns the single shapes not resolved yet (to be collected next).
 */
static List *
collect_type_shapes(SdTypeBuilder *b, const SdShapeOverride *ov, SdResolveState *st,
					List **typedeps)
{
	List	   *todo = NIL;
	List	   *fresh = NIL;
	ListCell   *lh,
			   *lt;
	Snapshot	snap;
	Oid		   *typids;
	List	  **found;
	int			nfresh,
				i;

	forboth(lh, b->built, lt, b->types)
	{
		SdPgType   *h = lfirst(lh);
		const sd_type *t = lfirst(lt);
		ListCell   *lc;
		bool		seen = false;

		if (t->kind != SD_K_COMPOSITE || (h->typid == st->root_typid && st->root_shape))
			continue;
		foreach(lc, st->types)
			if (((SdTypeFound *) lfirst(lc))->typid == h->typid)
				seen = true;
		foreach(lc, fresh)
			if (((SdTypeFound *) lfirst(lc))->typid == h->typid)
				seen = true;
		if (!seen)
		{
			SdTypeFound *f = palloc0(sizeof(SdTypeFound));

			f->typid = h->typid;
			fresh = lappend(fresh, f);
		}
	}
	if (fresh == NIL)
		return NIL;
	snap = ov ? SnapshotSelf : pgs_catalog_snapshot();
	/* the shapes of every fresh type in one scan of the catalog */
	nfresh = list_length(fresh);
	typids = palloc(sizeof(Oid) * nfresh);
	found = palloc(sizeof(List *) * nfresh);
	i = 0;
	foreach(lh, fresh)
		typids[i++] = ((SdTypeFound *) lfirst(lh))->typid;
	pgs_shapes_of_types_lists(typids, nfresh, snap, found);
	i = 0;
	foreach(lh, fresh)
	{
		SdTypeFound *f = lfirst(lh);
		List	   *names = found[i++];
		SdTypeDep  *dep = palloc(sizeof(SdTypeDep));

		if (ov)
		{
			/* the row being written replaces its old version (an UPDATE's, still visible) */
			foreach(lt, names)
				if (strcmp((char *) lfirst(lt), ov->name) == 0)
				{
					names = foreach_delete_current(names, lt);
				}
			if (ov->target == f->typid)
				names = lappend(names, pstrdup(ov->name));
			list_sort(names, cmp_name);
		}
		f->n = list_length(names);
		f->names = pgs_join_names(names);
		f->one = f->n == 1 ? linitial(names) : NULL;
		dep->typid = f->typid;
		dep->names = f->names;
		*typedeps = lappend(*typedeps, dep);
		st->types = lappend(st->types, f);
		if (f->one)
			todo = lappend(todo, f->one);
	}
	if (snap != SnapshotSelf)
		UnregisterSnapshot(snap);
	return todo;
}

/*
 * Reads every shape reachable through `shape` options (before compiling, so the resolver the
 * core calls never touches the catalog or raises), builds their target types, and records their
 * versions as dependencies.  The row being validated by the catalog trigger (override) stands
 * in for its own name, which allows a shape to refer to itself.
 */
static bool
collect_references(SdPgPlan *p, SdTypeBuilder *b, List *queue, const SdShapeOverride *ov,
				   SdResolveState *st, List **deps)
{
	bool		complete = true;
	Snapshot	snap = NULL;
	ListCell   *lc;

	foreach(lc, queue)
	{
		char	   *name = lfirst(lc);
		ListCell   *lr;
		bool		seen = false;
		SdResolved *r;

		foreach(lr, st->resolved)
			if (strcmp(((SdResolved *) lfirst(lr))->name, name) == 0)
				seen = true;
		if (seen)
			continue;
		r = palloc0(sizeof(SdResolved));
		r->name = pstrdup(name);
		if (ov && strcmp(ov->name, name) == 0)
		{
			r->options = pstrdup(ov->options);
			r->target = pgs_type_get(b, ov->target, -1);
			st->resolved = lappend(st->resolved, r);
			queue = list_concat(queue, pgs_referenced_shapes(ov->options_jb));
		}
		else
		{
			SdShapeRow	row;

			/*
			 * Validating a catalog row (ov != NULL): SnapshotSelf also sees the rows written
			 * earlier by the same command (a multi-row INSERT, a COPY during restore).
			 */
			if (snap == NULL)
				snap = ov ? SnapshotSelf : pgs_catalog_snapshot();
			if (!pgs_read_shape(name, snap, true, &row))
			{
				complete = false;
				continue;		/* the resolver reports it, at its option path */
			}
			if (!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(row.target)))
				ereport(ERROR,
						(errcode(ERRCODE_UNDEFINED_OBJECT),
						 errmsg("%s: shape \"%s\": its target type no longer exists",
								p->display, name),
						 errdetail("The shape decodes into the type with OID %u.", row.target)));
			r->options = row.options;
			r->target = pgs_type_get(b, row.target, -1);
			st->resolved = lappend(st->resolved, r);
			if (p->shape == NULL || strcmp(p->shape, name) != 0)
			{
				SdShapeDep *dep = palloc(sizeof(SdShapeDep));

				dep->name = r->name;
				dep->version = row.version;
				*deps = lappend(*deps, dep);
			}
			queue = list_concat(queue, pgs_referenced_shapes(row.options_jb));
		}
	}
	if (snap && snap != SnapshotSelf)
		UnregisterSnapshot(snap);
	return complete;
}

/*
 * True if every value of t converts to the same Datum whoever converts it, under any settings:
 * the scalars serde parses itself (docs/reference.md, types: independent of DateStyle and TimeZone), enums,
 * json, and arrays and composites of those.  Not: a type read through its input function
 * (timetz follows TimeZone, interval IntervalStyle, regclass search_path, money lc_monetary, a
 * user's type anything), nor a domain, whose CHECK runs with the rights of the role using it.
 */
static bool
type_is_settled(const sd_type *t, int depth)
{
	if (t == NULL || depth > 100)
		return false;
	if (pgs_host(t)->is_domain || t->kind == SD_K_OTHER)
		return false;
	if (t->kind == SD_K_ARRAY)
		return type_is_settled(t->elem, depth + 1);
	if (t->kind == SD_K_COMPOSITE)
		for (int i = 0; i < t->ncols; i++)
			if (!type_is_settled(t->cols[i].type, depth + 1))
				return false;
	return true;
}

/*
 * The body of pgs_plan_build, in p's context; false when a referenced shape is missing and
 * override->defer_missing is set: then everything else has been checked, with that shape's
 * columns compiled as if they had no `shape`.
 */
static bool
build_plan(SdPgPlan *p, const char *shape, Oid typid, int32 typmod, const char *options,
		   Jsonb *options_jb, int64 version, const SdShapeOverride *override)
{
	SdTypeBuilder b;
	SdResolveState rs = {NIL, override && override->defer_missing, false};
	sd_resolver resolver;
	List	   *deps = NIL;
	List	   *typedeps = NIL;
	List	   *queue;
	ListCell   *lc;
	sd_error	err;
	int			i;

	p->shape = shape ? pstrdup(shape) : NULL;
	p->display = shape ? pstrdup(shape) : format_type_with_typemod(typid, typmod);
	MemoryContextSetIdentifier(p->cxt, p->display);
	p->target_typid = typid;
	p->version = version;
	if (shape)
	{
		SdShapeDep *self = palloc(sizeof(SdShapeDep));

		self->name = p->shape;
		self->version = version;
		deps = lappend(deps, self);
	}
	pgs_types_init(&b, p->cxt);
	p->target = pgs_type_get(&b, typid, typmod);
	rs.root_typid = typid;
	rs.root_shape = p->shape;
	if (shape)
	{
		/* the shape itself, for its own type reached inside it */
		SdResolved *r = palloc0(sizeof(SdResolved));

		r->name = p->shape;
		r->options = pstrdup(options);
		r->target = p->target;
		rs.resolved = lappend(rs.resolved, r);
	}
	/* the shapes named by `shape`, then those of the composite types reached, until no new one */
	queue = pgs_referenced_shapes(options_jb);
	do
	{
		(void) collect_references(p, &b, queue, override, &rs, &deps);
		queue = collect_type_shapes(&b, override, &rs, &typedeps);
	} while (queue != NIL);
	p->ndeps = list_length(deps);
	p->deps = palloc(sizeof(SdShapeDep) * Max(p->ndeps, 1));
	i = 0;
	foreach(lc, deps)
		p->deps[i++] = *(SdShapeDep *) lfirst(lc);
	p->ntypedeps = list_length(typedeps);
	p->typedeps = palloc(sizeof(SdTypeDep) * Max(p->ntypedeps, 1));
	i = 0;
	foreach(lc, typedeps)
		p->typedeps[i++] = *(SdTypeDep *) lfirst(lc);

	p->hooks.alloc = plan_alloc;
	p->hooks.realloc = plan_realloc;
	p->hooks.free = plan_free_chunk;
	p->hooks.should_stop = pgs_should_stop;	/* cancel and statement_timeout while compiling */
	p->hooks.ud = p->cxt;
	resolver.resolve = resolve_shape;
	resolver.ud = &rs;
	resolver.resolve_type = resolve_type;
	p->plan = sd_compile_ex(p->display, options, strlen(options), p->target, &p->hooks,
							&resolver, (size_t) pgs_max_plan_bytes, &err);
	/*
	 * An error may name a composite or an array type, whose names wait until needed
	 * (SdPgType.name): name them all and compile again, which fails the same way with the
	 * names in the message.
	 */
	if (p->plan == NULL && pgs_types_fill_names(b.built))
	{
		rs.deferred = false;
		p->plan = sd_compile_ex(p->display, options, strlen(options), p->target, &p->hooks,
								&resolver, (size_t) pgs_max_plan_bytes, &err);
	}
	/* memory, a stop (the caller's PG_CATCH drops the half-built plan), bad options: errors.c */
	if (p->plan == NULL)
		pgs_raise_core_error(p->display, &err, false);
	/* types reached through referenced shapes were built after the target: keep them all */
	p->types = b.built;
	/* the names left for later are formatted with the search path of this build */
	foreach(lc, b.built)
		if (((SdPgType *) lfirst(lc))->name == NULL)
			p->names_pending = true;
	if (p->names_pending && namespace_search_path)
		p->name_path = pstrdup(namespace_search_path);

	p->ndefaults = sd_plan_ndefaults(p->plan);
	p->defaults = palloc0(sizeof(Datum) * Max(p->ndefaults, 1));
	p->default_nulls = palloc0(sizeof(bool) * Max(p->ndefaults, 1));
	p->default_state = palloc0(sizeof(char) * Max(p->ndefaults, 1));
	for (i = 0; i < p->ndefaults; i++)
	{
		const sd_field *f = sd_plan_default(p->plan, i);

		if (f && !type_is_settled(f->node->type, 0))
			p->default_state[i] = SD_DEFAULT_PER_USE;
	}
	return !rs.deferred;		/* refers to a shape not written yet: checked later */
}

/*
 * serde.debug_build_delay (tests, sql/race.sql): waits at the start of a plan build until the
 * delay has passed or the configuration is reloaded (pg_reload_conf()), in wait event PgSleep so
 * that another session can see it waiting.
 */
static void
debug_build_delay(void)
{
	TimestampTz end = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), pgs_debug_build_delay);

	while (!ConfigReloadPending)
	{
		long		ms = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), end);

		if (ms <= 0)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, ms,
						 WAIT_EVENT_PG_SLEEP);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

SdPgPlan *
pgs_plan_build(const char *shape, Oid typid, int32 typmod, const char *options,
				 Jsonb *options_jb, int64 version, const SdShapeOverride *override,
				 MemoryContext parent)
{
	MemoryContext cxt;
	MemoryContext old;
	SdPgPlan   *p;
	volatile bool built = false;

	cxt = AllocSetContextCreate(parent, "serde plan", ALLOCSET_SMALL_SIZES);
	p = MemoryContextAllocZero(cxt, sizeof(SdPgPlan));
	p->cxt = cxt;
	p->refcount = 1;
	old = MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		if (pgs_debug_build_delay > 0)
			debug_build_delay();
		built = build_plan(p, shape, typid, typmod, options, options_jb, version, override);
		MemoryContextSwitchTo(old);
		/*
		 * The defaults as Datums of their columns, kept in the plan; those converted at every
		 * use are converted here only to validate a catalog row (at registration they must
		 * convert for the role and settings registering them).
		 */
		for (int i = 0; i < p->ndefaults; i++)
		{
			bool		isnull;

			if (p->default_state[i] != SD_DEFAULT_PER_USE || override)
				(void) pgs_plan_default(p, i, &isnull);
		}
	}
	PG_CATCH();
	{
		ErrorData  *ed;

		MemoryContextSwitchTo(old);
		MemoryContextDelete(cxt);

		/*
		 * PostgreSQL does not lock a type against its users: a DROP TYPE committed while the
		 * plan was being built makes a catalog lookup fail with an internal error.  Say what
		 * happened, with the SQLSTATE of a missing object.
		 */
		ed = CopyErrorData();
		if (ed->sqlerrcode != ERRCODE_INTERNAL_ERROR || ed->message == NULL ||
			(strncmp(ed->message, "cache lookup failed for ", 24) != 0 &&
			 strncmp(ed->message, "could not open relation with OID ", 33) != 0))
		{
			FreeErrorData(ed);
			PG_RE_THROW();
		}
		FlushErrorState();
		if (shape)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("shape \"%s\": a type it uses was dropped while its plan was being built",
							shape),
					 errdetail("%s.", ed->message)));
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("type with OID %u: a type it uses was dropped while its plan was being built",
						typid),
				 errdetail("%s.", ed->message)));
	}
	PG_END_TRY();
	MemoryContextSwitchTo(old);
	if (!built)
	{
		MemoryContextDelete(cxt);
		return NULL;
	}
	return p;
}

/* ---- reference counting ---------------------------------------------------------------------- */

void
pgs_plan_release(SdPgPlan *p)
{
	Assert(p->refcount > 0);
	if (--p->refcount > 0)
		return;
	if (p->in_cache)
		elog(WARNING, "serde: plan of %s released while cached", p->display);
	if (p->live)
	{
		if (p->prev_live)
			p->prev_live->next_live = p->next_live;
		else
			live_plans = p->next_live;
		if (p->next_live)
			p->next_live->prev_live = p->prev_live;
		p->live = false;
		n_live--;
	}
	if (p->plan)
		sd_plan_free(p->plan);
	MemoryContextDelete(p->cxt);
}

void
pgs_plan_count_hit(void)
{
	n_hits++;
}

static void
cache_drop(SdPlanEntry *e)
{
	SdPgPlan   *p = e->plan;
	SdPlanKey	key = e->key;

	hash_search(plan_cache, &key, HASH_REMOVE, NULL);
	if (key.name)
		pfree((char *) key.name);
	p->in_cache = false;
	n_invalidations++;
	pgs_plan_release(p);
}

static void
cache_insert(SdPlanKey *key, SdPgPlan *p)
{
	SdPlanEntry *e;
	bool		found;

	e = hash_search(plan_cache, key, HASH_ENTER, &found);
	if (found)
	{
		/* a nested call built the same plan meanwhile: replace it */
		SdPgPlan   *older = e->plan;

		older->in_cache = false;
		pgs_plan_release(older);
	}
	else if (key->name)
		e->key.name = MemoryContextStrdup(CacheMemoryContext, key->name);
	e->plan = p;
	p->in_cache = true;
	/* the builder's reference becomes the cache's */
	p->live = true;
	p->next_live = live_plans;
	p->prev_live = NULL;
	if (live_plans)
		live_plans->prev_live = p;
	live_plans = p;
	n_live++;
	n_compiles++;
}

/*
 * A commit becomes visible to new snapshots a moment before its invalidation messages are sent
 * (CommitTransaction ends the transaction in the proc array, then runs AtEOXact_Inval), so a
 * statement can begin in between and see a shape version whose invalidation has not arrived.
 * Plans therefore remember the snapshot their shape versions were last read with, and a
 * statement whose snapshot may see a commit that one did not re-reads them (one index probe per
 * shape) before using the plan.
 *
 * Snapshots are ordered by a mark: xmax (latestCompletedXid + 1 when taken) never goes back, and
 * at one xmax the set of transactions still running below it only shrinks (new XIDs are at or
 * above xmax).  So a snapshot with a smaller xmax, or the same xmax and at least as many running
 * transactions, sees no commit the other does not.  Snapshots taken during recovery keep those
 * transactions in subxip.  A quiet catalog thus costs nothing: read-only statements do not move
 * the mark.
 */
SdSnapMark
pgs_snapshot_mark(Snapshot snap)
{
	SdSnapMark	m;

	m.xmax = snap->xmax;
	m.nrunning = snap->takenDuringRecovery ? (uint32) snap->subxcnt : snap->xcnt;
	m.curcid = snap->curcid;
	return m;
}

SdSnapMark
pgs_statement_mark(void)
{
	SdSnapMark	none = {InvalidTransactionId, 0, InvalidCommandId};

	return ActiveSnapshotSet() ? pgs_snapshot_mark(GetActiveSnapshot()) : none;
}

bool
pgs_mark_newer(SdSnapMark a, SdSnapMark b)
{
	if (!TransactionIdIsValid(a.xmax))
		return false;
	if (!TransactionIdIsValid(b.xmax))
		return true;
	if (a.xmax != b.xmax)
		return TransactionIdFollows(a.xmax, b.xmax);
	return a.nrunning < b.nrunning;
}

/*
 * Re-reads the versions of the shapes p depends on; true when they are all unchanged (shape_gone,
 * if given, tells that the plan's own shape no longer exists).  Records the read's snapshot.
 */
bool
pgs_plan_versions_current(SdPgPlan *p, bool *shape_gone)
{
	bool		same = true;
	Snapshot	snap;

	if (shape_gone)
		*shape_gone = false;
	if (p->ndeps == 0 && p->ntypedeps == 0)
		return true;
	snap = pgs_catalog_snapshot();
	for (int i = 0; i < p->ndeps && same; i++)
	{
		SdShapeRow	row;

		if (!pgs_read_shape(p->deps[i].name, snap, false, &row))
		{
			same = false;
			if (i == 0 && p->shape && shape_gone)
				*shape_gone = true;
		}
		else if (row.version != p->deps[i].version)
			same = false;
	}
	if (same && p->ntypedeps > 0)
	{
		/* the shapes registered for each composite type reached: one scan for them all, in a
		 * context of its own (this runs once per statement while the catalog changes) */
		MemoryContext tmp = AllocSetContextCreate(CurrentMemoryContext, "serde type shapes",
												  ALLOCSET_SMALL_SIZES);
		MemoryContext old = MemoryContextSwitchTo(tmp);
		Oid		   *typids = palloc(sizeof(Oid) * p->ntypedeps);
		char	  **now = palloc(sizeof(char *) * p->ntypedeps);

		for (int i = 0; i < p->ntypedeps; i++)
			typids[i] = p->typedeps[i].typid;
		pgs_shapes_of_types(typids, p->ntypedeps, snap, now);
		for (int i = 0; i < p->ntypedeps && same; i++)
			same = strcmp(now[i], p->typedeps[i].names) == 0;
		MemoryContextSwitchTo(old);
		MemoryContextDelete(tmp);
	}
	if (same)
		p->verified = pgs_snapshot_mark(snap);
	UnregisterSnapshot(snap);
	return same;
}

/*
 * Re-validates a cached plan against the current generations and the running statement's
 * snapshot.  Returns false (and drops the entry) when something it depends on really changed;
 * shape_gone tells that the shape itself no longer exists.
 */
static bool
cache_revalidate(SdPlanEntry *e, uint64 cg, uint64 tg, bool *shape_gone)
{
	SdPgPlan   *p = e->plan;

	*shape_gone = false;
	if (p->catalog_gen != cg ||
		((p->ndeps > 0 || p->ntypedeps > 0) && pgs_mark_newer(pgs_statement_mark(), p->verified)))
	{
		bool		same = pgs_plan_versions_current(p, shape_gone);

		if (!same)
		{
			cache_drop(e);
			return false;
		}
		p->catalog_gen = cg;
	}
	if (p->type_gen != tg)
	{
		if (pgs_types_check(p->types) != SD_TYPES_SAME)
		{
			cache_drop(e);
			return false;
		}
		p->type_gen = tg;
	}
	return true;
}

static void
raise_unknown_shape(const char *name)
{
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_OBJECT),
			 errmsg("shape \"%s\" does not exist", pgs_shape_name_shown(name))));
}

SdPgPlan *
pgs_plan_for_shape(const char *name, int32 typmod)
{
	uint64		cg = pgs_catalog_gen;
	uint64		tg = pgs_type_gen;
	SdPlanKey	key = {InvalidOid, name, typmod < 0 ? -1 : typmod};
	SdPlanEntry *e;
	SdShapeRow	row;
	Snapshot	snap;
	SdSnapMark	mark;
	bool		found;
	SdPgPlan   *p;

	cache_init();
	e = hash_search(plan_cache, &key, HASH_FIND, NULL);
	if (e)
	{
		bool		gone;

		if (cache_revalidate(e, cg, tg, &gone))
		{
			n_hits++;
			e->plan->refcount++;
			return e->plan;
		}
		if (gone)
			raise_unknown_shape(name);
	}

	snap = pgs_catalog_snapshot();
	found = pgs_read_shape(name, snap, true, &row);
	mark = pgs_snapshot_mark(snap);
	UnregisterSnapshot(snap);
	if (!found)
		raise_unknown_shape(name);
	if (!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(row.target)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("shape \"%s\": its target type no longer exists", name),
				 errdetail("The shape decodes into the type with OID %u.", row.target),
				 errhint("Register the shape again for an existing type.")));
	p = pgs_plan_build(name, row.target, key.typmod, row.options, row.options_jb, row.version,
						 NULL, CacheMemoryContext);
	p->verified = mark;			/* the referenced shapes were read later, with fresher snapshots */
	p->catalog_gen = cg;
	p->type_gen = tg;
	cache_insert(&key, p);
	p->refcount++;
	return p;
}

/* The one shape registered for typid, NULL when there is none; ereports when there are several. */
static char *
shape_for_type(Oid typid)
{
	SdTypeShapes *t;
	bool		found;

	t = hash_search(type_shapes, &typid, HASH_ENTER, &found);
	if (!found)
	{
		t->gen = 0;
		t->mark.xmax = InvalidTransactionId;
		t->mark.nrunning = 0;
		t->mark.curcid = InvalidCommandId;
		t->n = 0;
		t->names = NULL;
	}
	if (t->gen != pgs_catalog_gen || pgs_mark_newer(pgs_statement_mark(), t->mark))
	{
		uint64		cg = pgs_catalog_gen;
		Snapshot	snap = pgs_catalog_snapshot();
		SdSnapMark	mark = pgs_snapshot_mark(snap);
		List	   *names = pgs_shapes_for_type(typid, snap);
		bool		exists = names != NIL || pgs_type_exists_in(typid, snap);
		StringInfoData buf;
		ListCell   *lc;

		UnregisterSnapshot(snap);

		/*
		 * No shape decodes into typid — perhaps because it was dropped (and another type of
		 * its name created, with the shape re-registered for that one) by a commit whose
		 * invalidation has not arrived: the statement was parsed with the old type.  The
		 * default options of a type that is gone would decode the wrong shape.
		 */
		if (!exists)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("type with OID %u does not exist", typid),
					 errdetail("It was dropped after the statement was parsed.")));
		initStringInfo(&buf);
		foreach(lc, names)
		{
			if (buf.len)
				appendStringInfoString(&buf, ", ");
			appendStringInfoString(&buf, (char *) lfirst(lc));
		}
		t = hash_search(type_shapes, &typid, HASH_FIND, NULL);
		if (t->names)
			pfree(t->names);
		t->names = MemoryContextStrdup(CacheMemoryContext, buf.data);
		t->n = list_length(names);
		t->gen = cg;
		t->mark = mark;
	}
	if (t->n == 0)
		return NULL;
	if (t->n > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("several shapes decode into type %s: %s", format_type_be(typid), t->names),
				 errhint("Name one: serde_decode(NULL::%s, doc, shape).", format_type_be(typid))));
	return pstrdup(t->names);
}

SdPgPlan *
pgs_plan_for_type(Oid typid, int32 typmod)
{
	uint64		cg = pgs_catalog_gen;
	uint64		tg = pgs_type_gen;
	SdPlanKey	key = {typid, NULL, typmod < 0 ? -1 : typmod};
	SdPlanEntry *e;
	char	   *shape;
	SdPgPlan   *p;

	cache_init();
	shape = shape_for_type(typid);
	if (shape)
		return pgs_plan_for_shape(shape, typmod);

	e = hash_search(plan_cache, &key, HASH_FIND, NULL);
	if (e)
	{
		bool		gone;

		if (cache_revalidate(e, cg, tg, &gone))
		{
			n_hits++;
			e->plan->refcount++;
			return e->plan;
		}
	}
	if (!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(typid)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("type with OID %u does not exist", typid)));
	p = pgs_plan_build(NULL, typid, key.typmod, "{}", NULL, 0, NULL, CacheMemoryContext);
	p->catalog_gen = cg;
	p->type_gen = tg;
	cache_insert(&key, p);
	p->refcount++;
	return p;
}

void
pgs_cache_stats(SdCacheStats *s)
{
	s->plans = n_live;
	s->compiles = n_compiles;
	s->hits = n_hits;
	s->invalidations = n_invalidations;
	s->bytes = 0;
	for (SdPgPlan *p = live_plans; p; p = p->next_live)
		s->bytes += (int64) MemoryContextMemAllocated(p->cxt, true);
}
