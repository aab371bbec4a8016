/*
 * compat.h — the one place where the PostgreSQL major versions serde builds against (15, 16, 17,
 * 18) differ, behind PG_VERSION_NUM.  Every file of src/pg includes it (through serde_pg.h or
 * numeric_build.h) right after postgres.h; the code uses the pgs_* names below, never the
 * version-specific ones.  README.md, "PostgreSQL versions", says how to build for each version.
 *
 * Headers newer than the server (a minor version apart).  An extension must not reference a
 * symbol its server lacks: PostgreSQL loads it with RTLD_NOW, so one undefined symbol refuses
 * the whole library.  17.12's headers (Debian's newest) turn DatumGetHeapTupleHeader into an
 * extern function and make the inline heap_getattr call a new heap_datum_check (composite
 * datums carry their type's version, checked on access), and 17.10 (the newest server packaged
 * where the matrix runs) has neither.  serde avoids both instead of shimming them:
 *   - rows of tables (the catalog serde.shapes, trigger rows) are read with heap_deform_tuple
 *     (pgs_heap_attr), an exported function of every version: whatever check a given server
 *     makes, it makes inside itself — no copy of PostgreSQL's logic, no symbol interposition;
 *   - the only composite datums serde opens are the rows it has just built in the same call
 *     from the current tuple descriptor (pgs_own_tuple_header): nothing to check against, so
 *     PG_DETOAST_DATUM, the pre-17.12 definition, is exact for them.
 * test/pg_matrix.sh checks that every symbol serde.so leaves undefined is defined by the
 * server it is loaded into, so a new use of heap_getattr (or of any other newer function)
 * fails there with the symbol's name.
 */
#ifndef SERDE_PG_COMPAT_H
#define SERDE_PG_COMPAT_H

#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/relcache.h"
#include "utils/datetime.h"

#if PG_VERSION_NUM < 150000
#error "serde needs PostgreSQL 15 or later"
#endif

/* 16+: the varlena macros (VARSIZE, SET_VARSIZE, VARATT_IS_*) moved out of postgres.h */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * Headers configured for a libc that declares strlcpy (glibc 2.38+: Debian 13's 17 and 18
 * headers) used with an older one (Debian 12's 2.36): PostgreSQL's port.h then declares
 * nothing, and the function comes from the server (which carries its own when its libc lacks
 * one) or the libc.
 */
#if defined(__GLIBC__) && defined(__GLIBC_PREREQ) && HAVE_DECL_STRLCPY
#if !__GLIBC_PREREQ(2, 38)
extern size_t strlcpy(char *dst, const char *src, size_t siz);
#endif
#endif

/* 18: pg_attribute_noreturn() gave way to the C11-style prefix pg_noreturn; serde's declarations
 * keep the attribute form (gcc and clang take it before or after a declarator) */
#ifndef pg_attribute_noreturn
#define pg_attribute_noreturn() __attribute__((noreturn))
#endif

/* 16+: AdjustTimestampForTypmod takes a soft-error context (NULL: raise as before) */
#if PG_VERSION_NUM >= 160000
#define pgs_adjust_timestamp(ts, typmod) ((void) AdjustTimestampForTypmod((ts), (typmod), NULL))
#else
#define pgs_adjust_timestamp(ts, typmod) AdjustTimestampForTypmod((ts), (typmod))
#endif

/* 16+: the pg_*_ownercheck functions became object_ownercheck(class, …) */
#if PG_VERSION_NUM >= 160000
#define pgs_type_ownercheck(typid, roleid) object_ownercheck(TypeRelationId, (typid), (roleid))
#else
#define pgs_type_ownercheck(typid, roleid) pg_type_ownercheck((typid), (roleid))
#endif

/* 18+: RelationGetPrimaryKeyIndex says whether a deferrable key will do (false: as before) */
#if PG_VERSION_NUM >= 180000
#define pgs_primary_key_index(rel) RelationGetPrimaryKeyIndex((rel), false)
#else
#define pgs_primary_key_index(rel) RelationGetPrimaryKeyIndex(rel)
#endif

/* 17+: PGPROC's local transaction id moved into vxid */
#if PG_VERSION_NUM >= 170000
#define PGS_MY_LXID (MyProc->vxid.lxid)
#else
#define PGS_MY_LXID (MyProc->lxid)
#endif

/*
 * Column attnum (1-based) of a row of a table, as heap_getattr gives it (see the top comment).
 * By-reference values point into the tuple.  For the few columns of serde's own catalog rows.
 */
static inline Datum
pgs_heap_attr(HeapTuple tup, int attnum, TupleDesc desc, bool *isnull)
{
	Datum	   *values = palloc(sizeof(Datum) * desc->natts);
	bool	   *nulls = palloc(sizeof(bool) * desc->natts);
	Datum		d;

	Assert(attnum > 0 && attnum <= desc->natts);
	heap_deform_tuple(tup, desc, values, nulls);
	*isnull = nulls[attnum - 1];
	d = *isnull ? (Datum) 0 : values[attnum - 1];
	pfree(values);
	pfree(nulls);
	return d;
}

/* The header of a composite datum serde has just built itself (see the top comment). */
#define pgs_own_tuple_header(d) ((HeapTupleHeader) PG_DETOAST_DATUM(d))

#endif							/* SERDE_PG_COMPAT_H */
