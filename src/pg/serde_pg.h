/*
 * serde_pg.h — declarations shared by the PostgreSQL adapter's files (src/pg): the host data
 * hung on sd_type nodes, cached plans and their invalidation counters, catalog access, the
 * tape-to-Datum converter, the one error path (errors.c) and the decoders.  Only src/pg includes
 * this file.  Calls between src/pg files go one way, never back up: the entry points (decode.c,
 * then decode_xml.c) call the plan cache (cache.c), the converter (tape_to_datum.c, which the
 * cache also calls for defaults) and errors.c, which calls only module.c's settings.
 */
#ifndef SERDE_PG_H
#define SERDE_PG_H

#include "postgres.h"

#include "compat.h"

#include "access/tupdesc.h"
#include "fmgr.h"
#include "nodes/execnodes.h"
#include "nodes/pg_list.h"
#include "utils/jsonb.h"
#include "utils/snapshot.h"
#include "utils/typcache.h"

#include "serde_core.h"

/* ---- GUCs (module.c) ------------------------------------------------------------------------ */
extern int	pgs_max_depth;
extern int	pgs_max_document_bytes;
extern int	pgs_max_errors;
extern int	pgs_max_plan_bytes;	/* serde.max_plan_bytes: bound on a compiled plan */
extern int	pgs_debug_build_delay;	/* serde.debug_build_delay (tests) */

/* ---- invalidation counters (module.c); callbacks only bump them --------------------------- */
extern uint64 pgs_catalog_gen;	/* serde.shapes may have changed */
extern uint64 pgs_type_gen;		/* some type or relation may have changed */
extern Oid	pgs_known_shapes_relid;	/* last known OID of serde.shapes (for the callback) */

/* ---- type descriptions (types.c) ---------------------------------------------------------- */

/* Host data of one sd_type node (sd_type.host). */
typedef struct SdPgType
{
	Oid			typid;			/* the declared type: a domain, or the base type itself */
	int32		typmod;
	Oid			basetypid;		/* after all domains */
	int32		basetypmod;
	char		basetyptype;	/* typtype of the base type */
	int16		typlen;
	bool		typbyval;
	char		typalign;
	/*
	 * format_type_with_typemod of the declared type.  NULL for a composite or an array until
	 * a message or serde_describe needs it (pgs_plan_names): only compile errors, describe and
	 * a few errors print those names, and formatting them (a search-path visibility probe per
	 * type) was a large part of a backend's first decode.  Their sd_type.name is "" meanwhile.
	 */
	const char *name;
	sd_type    *st;				/* the sd_type this describes */
	/* domains */
	bool		is_domain;
	bool		dom_notnull;	/* any domain in the chain is NOT NULL (identity check) */
	/*
	 * The constraints with their CHECK expression states, for the role the last check ran
	 * as (pgs_domain_ref_update): ExecInitExpr checks the EXECUTE right on every function of
	 * a CHECK, so each role gets states of its own (domrefs, kept for the plan's life).
	 */
	DomainConstraintRef *domref;	/* NULL until the first check */
	Oid			domref_user;
	struct SdDomainRef *domrefs;
	/* composites */
	TupleDesc	tupdesc;		/* copy: every attribute, dropped ones included */
	uint64		tupdesc_id;		/* TypeCacheEntry.tupDesc_identifier when built */
	int			ncols;
	int		   *attnos;			/* live column i -> attribute index in tupdesc */
	/* enums */
	int			nlabels;
	Oid		   *label_oids;		/* in enumsortorder, parallel to sd_type.labels */
	const char **labels;		/* the same array as sd_type.labels */
	bool	   *label_safe;		/* committed: the OID may be used without enum_in */
	/* input function: SD_K_OTHER, and enums whose label is not known to be safe */
	bool		has_infunc;
	FmgrInfo	infunc;
	Oid			typioparam;
	/* text kinds */
	bool		bpchar;			/* char(n): pad to max_chars */
	int32		max_chars;
} SdPgType;

/* Builds sd_type trees in one memory context; memoizes by (type, typmod). */
typedef struct SdTypeBuilder
{
	MemoryContext cxt;
	List	   *built;			/* SdPgType * of every node built, in build order */
	List	   *types;			/* the sd_type * matching `built` */
	int			depth;
} SdTypeBuilder;

extern void pgs_types_init(SdTypeBuilder *b, MemoryContext cxt);
/* The sd_type of typid/typmod (ereports 42704 when it does not exist, 42804 for pseudo-types). */
extern const sd_type *pgs_type_get(SdTypeBuilder *b, Oid typid, int32 typmod);

typedef enum SdTypesCheck
{
	SD_TYPES_SAME,
	SD_TYPES_CHANGED,
	SD_TYPES_DROPPED			/* some type no longer exists */
} SdTypesCheck;

/* Points h->domref at the current role's constraints of domain h (built on first use in a
 * context under the plan's; ereports what ExecInitExpr raises, 42501 among others) and brings
 * them up to date (UpdateDomainConstraintRef). */
extern void pgs_domain_ref_update(MemoryContext plan_cxt, SdPgType *h);

/* Compares the identities of the types in `built` with the current catalog. */
extern SdTypesCheck pgs_types_check(List *built);
/* Formats the names left for later (SdPgType.name) of the types in built; true if any was. */
extern bool pgs_types_fill_names(List *built);

static inline SdPgType *
pgs_host(const sd_type *t)
{
	return (SdPgType *) t->host;
}

/* ---- catalog access (catalog.c) ------------------------------------------------------------ */

typedef struct SdShapeRow
{
	char	   *name;
	Oid			target;
	char	   *options;		/* options as JSON text (NUL-terminated) */
	Jsonb	   *options_jb;		/* the same options as stored (NULL if none) */
	int64		version;
} SdShapeRow;

/* OID of serde.shapes (ereports when the extension's catalog is missing). */
extern Oid	pgs_shapes_relid(void);
/* A fresh, registered snapshot for reading serde.shapes (UnregisterSnapshot when done). */
extern Snapshot pgs_catalog_snapshot(void);
/* Reads one shape; false when it does not exist.  want_options = false skips the options. */
extern bool pgs_read_shape(const char *name, Snapshot snap, bool want_options, SdShapeRow *row);
/* Names of the shapes whose target is typid, sorted. */
extern List *pgs_shapes_for_type(Oid typid, Snapshot snap);
/* The type exists in snap (read from pg_type, not the syscache). */
extern bool pgs_type_exists_in(Oid typid, Snapshot snap);
/* Names referenced by `shape` options (fields.<column>.shape, also inside inline nested
 * options: fields.<column>.fields.<column>.shape) of an options value. */
extern List *pgs_referenced_shapes(Jsonb *options);
/* joined[i]: the shapes whose target is typids[i], sorted, joined with ", " (one scan). */
extern void pgs_shapes_of_types(const Oid *typids, int n, Snapshot snap, char **joined);
/* names[i]: the same, as sorted lists (NIL for none), one scan */
extern void pgs_shapes_of_types_lists(const Oid *typids, int n, Snapshot snap, List **names);
/* names sorted (in place) and joined with ", "; "" for none */
extern char *pgs_join_names(List *names);
/* name as a message shows it: longer than SD_SHAPE_NAME_MAX bytes (no such shape can exist), cut
 * there at a character boundary, with "..." */
extern const char *pgs_shape_name_shown(const char *name);

/* ---- plans and the plan cache (cache.c) --------------------------------------------------- */

typedef struct SdShapeDep
{
	char	   *name;
	int64		version;
} SdShapeDep;

/* A plan's dependency on the set of shapes registered for a composite type it reaches (a nested
 * composite without `shape` uses its type's one shape): registering or removing one for the type
 * invalidates the plan. */
typedef struct SdTypeDep
{
	Oid			typid;
	char	   *names;			/* pgs_join_names of the shapes whose target is typid */
} SdTypeDep;

typedef struct SdSnapMark
{
	TransactionId xmax;			/* InvalidTransactionId: no snapshot */
	uint32		nrunning;		/* transactions in progress below xmax */
	CommandId	curcid;			/* the snapshot's command: tells statements of one
								 * transaction apart (not used to order marks) */
} SdSnapMark;

typedef struct SdPgPlan
{
	MemoryContext cxt;			/* everything of this plan, the core's arena included */
	int			refcount;		/* the cache's reference + one per call site holding it */
	bool		in_cache;
	char	   *shape;			/* registered shape, or NULL for a default-options plan */
	char	   *display;		/* error prefix: the shape's name or the target type's name */
	Oid			target_typid;
	const sd_type *target;
	int64		version;
	int			ndeps;			/* this shape + shapes reached through `shape` options or
								 * found by the type of a nested composite */
	SdShapeDep *deps;
	int			ntypedeps;		/* the composite types reached, with their shapes */
	SdTypeDep  *typedeps;
	List	   *types;			/* SdPgType * of every type used (identity checks) */
	char	   *name_path;		/* search_path of the build, for the names formatted later
								 * (pgs_plan_names) */
	bool		names_pending;
	uint64		catalog_gen;	/* generations at which the plan was last validated */
	uint64		type_gen;
	SdSnapMark	verified;		/* the snapshot of the last read of the versions */
	sd_plan    *plan;
	sd_hooks	hooks;
	int			ndefaults;
	Datum	   *defaults;		/* `default` values as Datums (from sd_plan_default_value), by
								 * default_index */
	bool	   *default_nulls;
	char	   *default_state;	/* cache.c: SD_DEFAULT_NEW, _READY, _PER_USE (converted at
								 * every use: it may depend on the role or settings), ... */
	ExprContext *econtext;		/* for domain CHECK expressions */
	bool		econtext_busy;
	bool		live;			/* linked in the list of cached (or once cached) plans */
	struct SdPgPlan *next_live; /* list of every live plan (stats) */
	struct SdPgPlan *prev_live;
} SdPgPlan;

typedef struct SdCacheStats
{
	int			plans;
	int64		compiles;
	int64		hits;
	int64		invalidations;
	int64		bytes;
} SdCacheStats;

/* Where a snapshot stands among commits (cache.c explains); pgs_statement_mark: the running
 * statement's; pgs_mark_newer: a may see a commit that b did not. */
extern SdSnapMark pgs_snapshot_mark(Snapshot snap);
extern SdSnapMark pgs_statement_mark(void);
extern bool pgs_mark_newer(SdSnapMark a, SdSnapMark b);
/* Re-reads the versions of p's shapes: true when unchanged. */
extern bool pgs_plan_versions_current(SdPgPlan *p, bool *shape_gone);
/* Plan of a registered shape, with a reference for the caller (ereports 22004/42704); with
 * typmod >= 0, for the shape's target type with that typmod (numeric(5,2), varchar(2)[]). */
extern SdPgPlan *pgs_plan_for_shape(const char *name, int32 typmod);
/* Plan for the typed two-argument form of type typid (typmod, or -1), with a reference for the
 * caller. */
extern SdPgPlan *pgs_plan_for_type(Oid typid, int32 typmod);
extern void pgs_plan_release(SdPgPlan *plan);
/* Formats the type names the plan left for later (SdPgType.name), with the build's search path:
 * before a message or a description prints them. */
extern void pgs_plan_names(SdPgPlan *plan);
/* Counts a use of a plan held by a call site. */
extern void pgs_plan_count_hit(void);

/* Override used while validating a catalog row: the row being written, seen by the resolver. */
typedef struct SdShapeOverride
{
	const char *name;
	Oid			target;
	const char *options;
	Jsonb	   *options_jb;
	bool		defer_missing;	/* a `shape` reference to a missing shape: check the rest, return NULL */
} SdShapeOverride;

/* Builds a plan (refcount 1, owned by the caller) in a new context under parent: types,
 * referenced shapes, sd_compile, defaults.  Ereports 22023 "<shape>: <option path>: ..." for
 * bad options, 42704 for missing types.  Returns NULL only when override->defer_missing is set
 * and a referenced shape does not exist (yet): all other options have then been checked. */
extern SdPgPlan *pgs_plan_build(const char *shape, Oid typid, int32 typmod,
								  const char *options, Jsonb *options_jb, int64 version,
								  const SdShapeOverride *override, MemoryContext parent);
extern void pgs_cache_stats(SdCacheStats *stats);

/* ---- documents --------------------------------------------------------------------------------- */

/* The kind of a document, for the locations of its errors: JSON text (byte offsets), jsonb (none),
 * XML (line and column in DETAIL, byte offsets in serde_errors' rows). */
typedef enum SdPgDocKind
{
	SD_PG_DOC_JSON = 0,
	SD_PG_DOC_JSONB,
	SD_PG_DOC_XML
} SdPgDocKind;

typedef struct SdPgDoc
{
	SdPgDocKind kind;
	const char *text;			/* the document text (errors are located in it), NULL for jsonb */
	size_t		len;
} SdPgDoc;

/* ---- tape -> Datum (tape_to_datum.c) ------------------------------------------------------------ */

/* sd_val.aux of an SD_V_JSON that the jsonb walker made for a jsonb column: u.s/len are a
 * JsonbContainer inside the document (the Jsonb's data), not JSON text */
#define SD_PG_AUX_JSONB UINT32_MAX

/*
 * default_state of a plan's default: converted on first need and kept in the plan, or — when
 * what it converts to may depend on the role or the settings in use — converted at every use,
 * exactly as the same value in the document would be (cache.c decides, tape_to_datum.c converts).
 */
#define SD_DEFAULT_NEW			0
#define SD_DEFAULT_CONVERTING	1
#define SD_DEFAULT_READY		2
#define SD_DEFAULT_PER_USE		3

typedef struct SdConvert
{
	SdPgPlan   *plan;
	const sd_val *tape;
	const sd_jev *events;		/* the text walker's jsonb events (sd_val.aux), or NULL */
	bool		soft;			/* serde_valid: serde's own checks set `failed` */
	bool		failed;
	uint8		pend_out;		/* what the value just converted is (compose.h: SD_PEND_*) */
	SdPgDoc		doc;			/* what the tape was decoded from (locations, XPath names) */
	const sd_val *root;			/* the root value (XML: the root element's name) */
	const char *option_path;	/* converting a `default`: errors are 22023 at this path */
	/* serde_decode_each: where the row's value sits in the whole input, filled in by locate()
	 * only when an error needs it (root_path "$[41]" or "line 42: $"; offsets of NDJSON rows
	 * are relative to their line, so offset_base is the line's start) */
	void		(*locate) (struct SdConvert *cx);
	void	   *locate_arg;
	bool		located;
	char		root_path[64];
	int64		offset_base;
	/*
	 * serde_errors: with collect set, the tape is sd_check_*_found's (marks in sd_val.aux),
	 * a value that failed in the core or inside which the core found errors is not checked
	 * itself (what is whole inside it still is), and every soft failure goes to found[] (sorted
	 * by key and cut to max_found, errors.c).  core_paths: the core's error paths, sorted (a
	 * missing member leaves an unmarked NULL slot behind).
	 */
	bool		collect;
	uint32		key;			/* SD_MARK_SEQ of the value being converted (or its container's) */
	int			dirty;			/* containers with errors inside around it */
	int			max_found;
	int			nfound;
	int			found_cap;
	struct SdPgFound *found;
	const char **core_paths;
	int			ncore_paths;
} SdConvert;

/* One soft failure found by the adapter in serde_errors (SdConvert.collect). */
typedef struct SdPgFound
{
	uint32		key;			/* SdConvert.key when found: merged after the core errors whose
								 * sd_found.seq is below it */
	uint32		order;			/* in the order found */
	int			sqlstate;
	int64		offset;			/* -1 when unknown (or jsonb) */
	char	   *path;
	char	   *problem;
} SdPgFound;

/* Sets up cx to convert tape decoded from doc (NULL: a default, no document). */
extern void pgs_convert_init(SdConvert *cx, SdPgPlan *plan, const sd_val *tape, bool soft,
							 const SdPgDoc *doc, const char *option_path);
/* Converts tape[root] decoded with `node` into a Datum of node's type. */
extern Datum pgs_convert(SdConvert *cx, const sd_node *node, uint32 root, bool *isnull);
/* Default number idx of the plan as a Datum of its column: converted once, on first need, or
 * at every use when the result may depend on the role or settings (a domain, an input function).
 * The caller holds a reference to the plan (a decode, or the plan's builder). */
extern Datum pgs_plan_default(SdPgPlan *plan, int idx, bool *isnull);
/*
 * serde_errors over any input format: the core's violations found[0..n) of a document decoded
 * into tape (root; UINT32_MAX when malformed or over a limit) and the adapter's own, found by
 * converting every value the core found whole softly, as rows in document order (errors.c
 * merges).  What is no document error raises.
 */
extern void pgs_errors_report(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_node *node,
							  const sd_val *tape, uint32 root, const sd_found *found, int n,
							  const SdPgDoc *doc);
/* The same for an item of a batch: locate (SdConvert.locate) names where its value sits. */
extern void pgs_errors_report_at(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_node *node,
								 const sd_val *tape, uint32 root, const sd_found *found, int n,
								 const SdPgDoc *doc, void (*locate) (SdConvert *cx),
								 void *locate_arg);

/* ---- the one error path (errors.c) ------------------------------------------------------------ */

extern void pgs_require_utf8(void);
/* The SQLSTATE (packed) of a core code; SD_E_UNSUPPORTED is ERRCODE_FEATURE_NOT_SUPPORTED. */
extern int	pgs_sqlstate(sd_code code);
/* The codes serde_valid answers with false and serde_errors with rows. */
extern bool pgs_soft_code(sd_code code);
/* Raises the error of a failed core call: "<prefix>: <path>: <problem>", the location in DETAIL
 * (offsets false: none); a stop raises the pending interrupt's error. */
extern void pgs_raise_core_error(const char *prefix, const sd_error *err, bool offsets)
			pg_attribute_noreturn();
extern void pgs_raise_core_error_hint(const char *prefix, const sd_error *err, bool offsets,
									  const char *hint) pg_attribute_noreturn();
/* The same for one entry of the core's found list of doc (NULL: no location). */
extern void pgs_raise_found(const char *prefix, const sd_found *f, const SdPgDoc *doc)
			pg_attribute_noreturn();
/* A violation found by the adapter: "<prefix><problem>" (prefix "<shape>: <path>: ") with the
 * location of offset in doc; option: converting a `default`, 22023 without a location. */
extern void pgs_raise_value(const char *prefix, int sqlstate, const char *problem,
							const SdPgDoc *doc, int64 offset, bool option) pg_attribute_noreturn();
/* Re-raises the current error (inside PG_CATCH) with its message prefixed by prefix; when
 * sqlstate != 0 the SQLSTATE is replaced too.  oldcxt: the context before PG_TRY. */
extern void pgs_rethrow_prefixed(MemoryContext oldcxt, const char *prefix, int sqlstate)
			pg_attribute_noreturn();
/* The 1-based line and column of a byte offset of an XML document (0, 0 if unknown). */
extern void pgs_xml_locate(const char *doc, size_t len, int64 offset, uint32 *line,
						   uint32 *column);

/* The core's should_stop hook (sd_hooks): true for a pending interrupt that ends the query
 * (cancel, statement_timeout, termination, a lost client) or a stack about to overflow; an
 * interrupt PostgreSQL only services (client_connection_check_interval, a memory-context dump
 * request, a barrier ...) neither stops nor restarts a decode.  Never longjmps. */
extern bool pgs_should_stop(void *ud);
/* After a core call stopped with SD_E_CANCELED: raises the pending interrupt's error. */
extern void pgs_raise_stop(void) pg_attribute_noreturn();
/* serde.max_depth, serde.max_document_bytes and the stack left. */
extern void pgs_limits(sd_limits *lim);
/* serde.max_document_bytes for a document of size bytes (before it is detoasted): false with
 * err (54000) when over; pgs_check_doc_size raises it. */
extern bool pgs_doc_size_ok(Size size, SdPgDocKind kind, sd_error *err);
extern void pgs_check_doc_size(const char *prefix, Size size, SdPgDocKind kind);

/* serde_errors' adapter side: records a violation, sorts them (keeps max_found) */
extern void pgs_found_add(SdConvert *cx, const char *path, int64 offset, int sqlstate,
						  const char *problem);
extern void pgs_found_sort(SdConvert *cx);
/* serde_errors' rows: a limit found before reading; the core's non-document errors (raise);
 * the core's and the adapter's violations merged in document order (cx NULL: the core's only) */
extern void pgs_errors_put_error(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_error *e);
extern void pgs_errors_raise_hard(SdPgPlan *plan, const sd_found *found, int n,
								  const SdPgDoc *doc);
extern void pgs_errors_put_merged(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_found *found,
								  int n, const SdConvert *cx, SdPgDocKind kind);

/* ---- decoding (decode.c) ------------------------------------------------------------------- */

typedef enum SdDecodeStatus
{
	SD_DECODED,
	SD_INVALID					/* soft mode only: the document fails a serde check */
} SdDecodeStatus;

/* XML documents (decode_xml.c), doc an xml or text Datum (maybe toasted): the same contract
 * as serde_decode / serde_valid for JSON (a document over serde.max_document_bytes is refused
 * before it is detoasted; soft: invalid); and serde_errors' XML form: its rows into rsinfo —
 * every violation, the core's and the adapter's (domain CHECK, NOT NULL domains, other types'
 * input errors raise as for JSON), at most serde.max_errors, in document order, or the one
 * document error (malformed, a limit); memory, a cancel and a shape XML does not support raise. */
extern SdDecodeStatus pgs_decode_xml(SdPgPlan *plan, const sd_node *node, Datum doc,
									   bool soft, Datum *result, bool *isnull);
extern void pgs_xml_errors(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_node *node,
						   Datum doc);

#endif							/* SERDE_PG_H */
