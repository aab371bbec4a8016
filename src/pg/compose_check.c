/*
 * compose_check.c — the test of compose.c's bytes (sql/compose.sql): serde_compose_check(value)
 * takes a composite value (a serde_decode result passed straight in), forms it again from its
 * parts level by level with heap_form_tuple and construct_md_array — the reference — and, from
 * the same parts, with compose.c's pending rows and arrays; it returns 'ok' when the value's
 * bytes, the reference's and compose.c's are the same, else where they first differ.  Not part
 * of the extension's SQL: the test creates the function for itself (a C function of serde.so).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

#include "compose.h"

PG_FUNCTION_INFO_V1(serde_compose_check);

/* the value of type typid formed again from its parts: reference (heap) or compose.c's */
static Datum reform(Datum d, Oid typid, bool heap, uint8 *pend);

static bool
is_row(Oid typid)
{
	return type_is_rowtype(typid);
}

static Datum
reform_row(HeapTupleHeader th, Oid typid, bool heap, uint8 *pend)
{
	TupleDesc	td = lookup_rowtype_tupdesc_domain(typid, -1, false);
	HeapTupleData tup;
	int			n = td->natts;
	Datum	   *vals = palloc(sizeof(Datum) * Max(n, 1));
	bool	   *nulls = palloc(sizeof(bool) * Max(n, 1));
	uint8	   *pends = palloc0(sizeof(uint8) * Max(n, 1));
	Datum		r;
	SdPend	   *p;

	tup.t_len = HeapTupleHeaderGetDatumLength(th);
	ItemPointerSetInvalid(&tup.t_self);
	tup.t_tableOid = InvalidOid;
	tup.t_data = th;
	heap_deform_tuple(&tup, td, vals, nulls);
	for (int i = 0; i < n; i++)
		if (!nulls[i] && !TupleDescAttr(td, i)->attisdropped)
			vals[i] = reform(vals[i], TupleDescAttr(td, i)->atttypid, heap, &pends[i]);
	*pend = SD_PEND_NONE;
	if (heap)
		r = HeapTupleGetDatum(heap_form_tuple(td, vals, nulls));
	else if ((p = sd_pend_row(td, vals, nulls, pends)) != NULL)
	{
		*pend = SD_PEND_VALUE;
		r = PointerGetDatum(p);
	}
	else
		elog(ERROR, "serde_compose_check: compose.c declined a row of %s", format_type_be(typid));
	ReleaseTupleDesc(td);
	return r;
}

static Datum
reform(Datum d, Oid typid, bool heap, uint8 *pend)
{
	Oid			base = getBaseType(typid);
	Oid			elem;

	*pend = SD_PEND_NONE;
	if (is_row(base))
		return reform_row((HeapTupleHeader) PG_DETOAST_DATUM(d), base, heap, pend);
	elem = get_element_type(base);
	if (OidIsValid(elem) && is_row(getBaseType(elem)))
	{
		ArrayType  *a = DatumGetArrayTypeP(d);
		int16		len;
		bool		byval;
		char		align;
		Datum	   *vals;
		bool	   *nulls;
		uint8	   *pends;
		int			n;
		int			lbs[1] = {1};
		SdPend	   *p;

		if (ARR_NDIM(a) != 1 || ARR_LBOUND(a)[0] != 1)
			return d;
		get_typlenbyvalalign(elem, &len, &byval, &align);
		deconstruct_array(a, elem, len, byval, align, &vals, &nulls, &n);
		pends = palloc0(sizeof(uint8) * n);
		for (int i = 0; i < n; i++)
			if (!nulls[i])
				vals[i] = reform(vals[i], elem, heap, &pends[i]);
		if (heap)
			return PointerGetDatum(construct_md_array(vals, nulls, 1, &n, lbs, elem, len, byval,
													  align));
		if ((p = sd_pend_array(n, vals, nulls, pends, elem, len, byval, align)) == NULL)
			elog(ERROR, "serde_compose_check: compose.c declined an array of %s",
				 format_type_be(elem));
		*pend = SD_PEND_VALUE;
		return PointerGetDatum(p);
	}
	return d;
}

/* "" when a and b are the same bytes, else where they differ */
static char *
differ(const char *what, struct varlena *a, struct varlena *b)
{
	Size		la = VARSIZE(a),
				lb = VARSIZE(b);

	if (la != lb)
		return psprintf("%s: %zu bytes against the reference's %zu", what, la, lb);
	for (Size i = 0; i < la; i++)
		if (((char *) a)[i] != ((char *) b)[i])
			return psprintf("%s: byte %zu of %zu is %02x, the reference's %02x", what, i, la,
							(unsigned char) ((char *) a)[i], (unsigned char) ((char *) b)[i]);
	return "";
}

Datum
serde_compose_check(PG_FUNCTION_ARGS)
{
	Oid			typid = get_fn_expr_argtype(fcinfo->flinfo, 0);
	Datum		d = PG_GETARG_DATUM(0);
	uint8		pend;
	struct varlena *value,
			   *ref,
			   *mine;
	char	   *diff;
	Datum		c;

	if (!is_row(getBaseType(typid)))
		elog(ERROR, "serde_compose_check: %s is not a row type", format_type_be(typid));
	value = (struct varlena *) DatumGetPointer(d);
	if (VARATT_IS_EXTENDED(value))
		PG_RETURN_TEXT_P(cstring_to_text("the value is not a plain composite datum"));
	ref = (struct varlena *) DatumGetPointer(reform(d, typid, true, &pend));
	c = reform(d, typid, false, &pend);
	mine = (struct varlena *) DatumGetPointer(pend ? sd_pend_form((SdPend *) DatumGetPointer(c)) : c);
	diff = differ("value", value, ref);
	if (*diff == '\0')
		diff = differ("compose.c", mine, ref);
	PG_RETURN_TEXT_P(cstring_to_text(*diff ? diff : "ok"));
}
