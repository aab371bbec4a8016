/*
 * compose.c — composites and arrays formed once.  heap_form_tuple (palloc0, a size pass, a fill)
 * per row and construct_md_array per array, each copied again into its parent, made a nested
 * value's bytes several times over; here the conversion keeps a row's or an array's values
 * pending (their sizes computed as heap_compute_data_size and construct_md_array compute them),
 * and the outermost value is written once, children straight into their parent's data area.
 *
 * The bytes are exactly heap_form_tuple's and construct_md_array's: the same alignment, null
 * bitmap, short (1-byte) varlena headers for packable columns, infomask bits, zeroed padding,
 * and the datum header of the server at hand: PostgreSQL 15.20 (Debian) marks composite datums
 * with their type's version (heap_tuple_set_datum, HEAP_IS_DATUM; heap_getattr checks it), older
 * 15.x servers and the 17/18 servers of test/pg_matrix.sh do not have it.  The function is looked
 * up in the running server at first use (dlsym), so one build is right on both kinds (the
 * headers may be newer than the server: src/pg/compat.h).  What is not written here — external
 * or expanded varlenas, cstrings, sizes past the allocation limit — is left to heap_form_tuple /
 * construct_md_array (sd_pend_row / sd_pend_array return NULL), errors included.
 * sql/compose.sql compares the bytes with heap_form_tuple's for many row types.
 */
#include "postgres.h"

#include <dlfcn.h>

#include "access/htup_details.h"
#include "access/tupmacs.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/memutils.h"

#include "compose.h"
#include "serde_core.h"

struct SdPend
{
	Size		size;			/* VARSIZE of the formed datum (a 4-byte header) */
	TupleDesc	td;				/* a row's descriptor; NULL: an array */
	int			n;				/* columns (td->natts) or elements */
	bool		hasnull;
	uint32		hoff;			/* where the data starts: t_hoff, or the array's overhead */
	Oid			elemtype;		/* an array's element type */
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	Datum	   *vals;
	bool	   *nulls;
	uint8	   *pend;
};

typedef void (*SetDatumFn) (HeapTupleHeader tup, TupleDesc desc, uint32 len);

static SetDatumFn set_datum;
static bool set_datum_resolved;

/* heap_tuple_set_datum of the running server, or NULL (a server without versioned datums) */
static inline SetDatumFn
server_set_datum(void)
{
	if (!set_datum_resolved)
	{
		set_datum = (SetDatumFn) dlsym(RTLD_DEFAULT, "heap_tuple_set_datum");
		set_datum_resolved = true;
	}
	return set_datum;
}

/* a pending child as a column of a packable attribute: made short (1-byte header) */
static inline bool
child_short(Form_pg_attribute att, const SdPend *c)
{
	return att->attstorage != TYPSTORAGE_PLAIN &&
		c->size - VARHDRSZ + VARHDRSZ_SHORT <= VARATT_SHORT_MAX;
}

/* A pending value of n children (copied in), `size` bytes when written, its data at hoff. */
static SdPend *
pend_new(int n, Size size, Size hoff, bool hasnull, const Datum *vals, const bool *nulls,
		 const uint8 *pend)
{
	Size		bytes = MAXALIGN(sizeof(SdPend)) + (sizeof(Datum) + sizeof(bool) + sizeof(uint8)) * (Size) n;
	SdPend	   *p = AllocSizeIsValid(bytes) ? palloc(bytes) :
		MemoryContextAllocHuge(CurrentMemoryContext, bytes);

	p->vals = (Datum *) ((char *) p + MAXALIGN(sizeof(SdPend)));
	p->nulls = (bool *) (p->vals + n);
	p->pend = (uint8 *) (p->nulls + n);
	p->n = n;
	p->size = size;
	p->hoff = (uint32) hoff;
	p->hasnull = hasnull;
	p->td = NULL;
	memcpy(p->vals, vals, sizeof(Datum) * n);
	memcpy(p->nulls, nulls, sizeof(bool) * n);
	memcpy(p->pend, pend, sizeof(uint8) * n);
	return p;
}

SdPend *
sd_pend_row(TupleDesc td, const Datum *vals, const bool *nulls, const uint8 *pend)
{
	int			natts = td->natts;
	bool		hasnull = false;
	Size		len = 0;
	Size		hoff;
	SdPend	   *p;

	if (natts > MaxTupleAttributeNumber)
		return NULL;
	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(td, i);
		Datum		d = vals[i];

		if (nulls[i])
		{
			hasnull = true;
			continue;
		}
		if (pend[i] == SD_PEND_BYTES)
		{
			Size		l = ((const sd_val *) DatumGetPointer(d))->len;

			if (att->attlen != -1)
				return NULL;
			if (att->attstorage != TYPSTORAGE_PLAIN && l + VARHDRSZ_SHORT <= VARATT_SHORT_MAX)
				len += l + VARHDRSZ_SHORT;
			else
				len = att_align_nominal(len, att->attalign) + VARHDRSZ + l;
		}
		else if (pend[i])
		{
			const SdPend *c = (const SdPend *) DatumGetPointer(d);

			if (att->attlen != -1)
				return NULL;
			if (child_short(att, c))
				len += c->size - VARHDRSZ + VARHDRSZ_SHORT;
			else
				len = att_align_nominal(len, att->attalign) + c->size;
		}
		else if (att->attbyval)
			len = att_align_nominal(len, att->attalign) + att->attlen;
		else if (att->attlen == -1)
		{
			Pointer		v = DatumGetPointer(d);

			if (VARATT_IS_EXTERNAL(v))
				return NULL;
			if (att->attstorage != TYPSTORAGE_PLAIN && VARATT_CAN_MAKE_SHORT(v))
				len += VARATT_CONVERTED_SHORT_SIZE(v);
			else
			{
				len = att_align_datum(len, att->attalign, -1, d);
				len += VARSIZE_ANY(v);
			}
		}
		else if (att->attlen > 0)
			len = att_align_nominal(len, att->attalign) + att->attlen;
		else
			return NULL;		/* a cstring */
		if (!AllocSizeIsValid(len))
			return NULL;
	}
	hoff = MAXALIGN(SizeofHeapTupleHeader + (hasnull ? BITMAPLEN(natts) : 0));
	if (!AllocSizeIsValid(HEAPTUPLESIZE + hoff + len))
		return NULL;
	p = pend_new(natts, hoff + len, hoff, hasnull, vals, nulls, pend);
	p->td = td;
	return p;
}

SdPend *
sd_pend_array(int n, const Datum *vals, const bool *nulls, const uint8 *pend, Oid elemtype,
			  int16 elmlen, bool elmbyval, char elmalign)
{
	bool		hasnull = false;
	Size		nbytes = 0;
	Size		overhead;
	SdPend	   *p;

	if (n <= 0 || (Size) n > MaxArraySize || elmlen == -2)
		return NULL;
	for (int i = 0; i < n; i++)
	{
		Size		len;

		if (nulls[i])
		{
			hasnull = true;
			continue;
		}
		if (pend[i])
		{
			if (elmlen != -1)
				return NULL;
			len = pend[i] == SD_PEND_BYTES ?
				VARHDRSZ + (Size) ((const sd_val *) DatumGetPointer(vals[i]))->len :
				((const SdPend *) DatumGetPointer(vals[i]))->size;
		}
		else if (elmlen == -1)
		{
			Pointer		v = DatumGetPointer(vals[i]);

			/* construct_md_array detoasts such an element (a short header made 4-byte) */
			if (VARATT_IS_EXTENDED(v))
				return NULL;
			len = VARSIZE(v);
		}
		else
			len = elmlen;
		nbytes = att_align_nominal(nbytes + len, elmalign);
		if (!AllocSizeIsValid(nbytes))
			return NULL;
	}
	overhead = hasnull ? ARR_OVERHEAD_WITHNULLS(1, n) : ARR_OVERHEAD_NONULLS(1);
	if (!AllocSizeIsValid(nbytes + overhead))
		return NULL;
	p = pend_new(n, nbytes + overhead, overhead, hasnull, vals, nulls, pend);
	p->elemtype = elemtype;
	p->elmlen = elmlen;
	p->elmbyval = elmbyval;
	p->elmalign = elmalign;
	return p;
}

static void write_value(const SdPend *p, char *base);

/* off aligned as `align` asks, the bytes skipped zeroed (palloc0's padding) */
static inline Size
align_zero(char *data, Size off, char align)
{
	Size		a = att_align_nominal(off, align);

	if (a > off)
		memset(data + off, 0, a - off);
	return a;
}

/* heap_form_tuple's datum: header, null bitmap, then heap_fill_tuple's data */
static void
write_row(const SdPend *p, char *base)
{
	TupleDesc	td = p->td;
	HeapTupleHeader t = (HeapTupleHeader) base;
	char	   *data = base + p->hoff;
	SetDatumFn	sd = server_set_datum();
	uint16		infomask = 0;
	Size		off = 0;

	memset(base, 0, p->hoff);
	HeapTupleHeaderSetNatts(t, td->natts);
	t->t_hoff = (uint8) p->hoff;
	if (sd)
		sd(t, td, (uint32) p->size);
	else
	{
		HeapTupleHeaderSetDatumLength(t, p->size);
		HeapTupleHeaderSetTypeId(t, td->tdtypeid);
		HeapTupleHeaderSetTypMod(t, td->tdtypmod);
		ItemPointerSetInvalid(&t->t_ctid);
	}
	for (int i = 0; i < p->n; i++)
	{
		Form_pg_attribute att = TupleDescAttr(td, i);
		Datum		d = p->vals[i];

		if (p->nulls[i])
		{
			infomask |= HEAP_HASNULL;
			continue;
		}
		if (p->hasnull)
			t->t_bits[i >> 3] |= (bits8) (1 << (i & 7));
		if (p->pend[i] == SD_PEND_BYTES)
		{
			const sd_val *v = (const sd_val *) DatumGetPointer(d);
			Size		l = v->len;

			/* as a fresh 4-byte-header varlena of these bytes would be (below) */
			infomask |= HEAP_HASVARWIDTH;
			if (att->attstorage != TYPSTORAGE_PLAIN && l + VARHDRSZ_SHORT <= VARATT_SHORT_MAX)
			{
				SET_VARSIZE_SHORT(data + off, l + VARHDRSZ_SHORT);
				if (l > 0)
					memcpy(data + off + VARHDRSZ_SHORT, v->u.s, l);
				off += l + VARHDRSZ_SHORT;
			}
			else
			{
				off = align_zero(data, off, att->attalign);
				SET_VARSIZE(data + off, VARHDRSZ + l);
				if (l > 0)
					memcpy(data + off + VARHDRSZ, v->u.s, l);
				off += VARHDRSZ + l;
			}
		}
		else if (p->pend[i])
		{
			const SdPend *c = (const SdPend *) DatumGetPointer(d);

			infomask |= HEAP_HASVARWIDTH;
			if (child_short(att, c))
			{
				/* written whole with its 4-byte header aside, then moved in after a short one */
				union
				{
					char		b[VARATT_SHORT_MAX + VARHDRSZ + 8];
					double		align;
				}			buf;
				Size		l = c->size - VARHDRSZ + VARHDRSZ_SHORT;

				write_value(c, buf.b);
				SET_VARSIZE_SHORT(data + off, l);
				memcpy(data + off + 1, buf.b + VARHDRSZ, l - 1);
				off += l;
			}
			else
			{
				off = align_zero(data, off, att->attalign);
				write_value(c, data + off);
				off += c->size;
			}
		}
		else if (att->attbyval)
		{
			off = align_zero(data, off, att->attalign);
			store_att_byval(data + off, d, att->attlen);
			off += att->attlen;
		}
		else if (att->attlen == -1)
		{
			Pointer		v = DatumGetPointer(d);
			Size		l;

			infomask |= HEAP_HASVARWIDTH;
			if (VARATT_IS_SHORT(v))
			{
				l = VARSIZE_SHORT(v);
				memcpy(data + off, v, l);
			}
			else if (att->attstorage != TYPSTORAGE_PLAIN && VARATT_CAN_MAKE_SHORT(v))
			{
				l = VARATT_CONVERTED_SHORT_SIZE(v);
				SET_VARSIZE_SHORT(data + off, l);
				memcpy(data + off + 1, VARDATA(v), l - 1);
			}
			else
			{
				off = align_zero(data, off, att->attalign);
				l = VARSIZE(v);
				memcpy(data + off, v, l);
			}
			off += l;
		}
		else
		{
			off = align_zero(data, off, att->attalign);
			memcpy(data + off, DatumGetPointer(d), att->attlen);
			off += att->attlen;
		}
	}
	t->t_infomask |= infomask;
	Assert(p->hoff + off == p->size);
}

/* construct_md_array's one-dimensional array (CopyArrayEls' layout) */
static void
write_array(const SdPend *p, char *base)
{
	ArrayType  *a = (ArrayType *) base;
	char	   *data = base + p->hoff;
	bits8	   *bitmap;
	Size		off = 0;

	memset(base, 0, p->hoff);
	SET_VARSIZE(a, p->size);
	a->ndim = 1;
	a->dataoffset = p->hasnull ? (int32) p->hoff : 0;
	a->elemtype = p->elemtype;
	ARR_DIMS(a)[0] = p->n;
	ARR_LBOUND(a)[0] = 1;
	bitmap = ARR_NULLBITMAP(a);
	for (int i = 0; i < p->n; i++)
	{
		Datum		d = p->vals[i];
		Size		inc,
					ainc;

		if (p->nulls[i])
			continue;
		if (bitmap)
			bitmap[i >> 3] |= (bits8) (1 << (i & 7));
		if (p->pend[i] == SD_PEND_BYTES)
		{
			const sd_val *v = (const sd_val *) DatumGetPointer(d);

			inc = VARHDRSZ + (Size) v->len;
			SET_VARSIZE(data + off, inc);
			if (v->len > 0)
				memcpy(data + off + VARHDRSZ, v->u.s, v->len);
		}
		else if (p->pend[i])
		{
			const SdPend *c = (const SdPend *) DatumGetPointer(d);

			write_value(c, data + off);
			inc = c->size;
		}
		else if (p->elmlen > 0)
		{
			if (p->elmbyval)
				store_att_byval(data + off, d, p->elmlen);
			else
				memcpy(data + off, DatumGetPointer(d), p->elmlen);
			inc = p->elmlen;
		}
		else
		{
			inc = VARSIZE(DatumGetPointer(d));
			memcpy(data + off, DatumGetPointer(d), inc);
		}
		ainc = att_align_nominal(inc, p->elmalign);
		if (ainc > inc)
			memset(data + off + inc, 0, ainc - inc);
		off += ainc;
	}
	Assert(p->hoff + off == p->size);
}

static void
write_value(const SdPend *p, char *base)
{
	check_stack_depth();
	if (p->td)
		write_row(p, base);
	else
		write_array(p, base);
}

Datum
sd_pend_form(SdPend *p)
{
	char	   *buf = palloc(p->size);

	write_value(p, buf);
	return PointerGetDatum(buf);
}

Datum
sd_pend_datum(uint8 kind, Datum d)
{
	if (kind == SD_PEND_BYTES)
	{
		const sd_val *v = (const sd_val *) DatumGetPointer(d);
		struct varlena *b = palloc(VARHDRSZ + (Size) v->len);

		SET_VARSIZE(b, VARHDRSZ + (Size) v->len);
		if (v->len > 0)
			memcpy(VARDATA(b), v->u.s, v->len);
		return PointerGetDatum(b);
	}
	if (kind == SD_PEND_VALUE)
		return sd_pend_form((SdPend *) DatumGetPointer(d));
	return d;
}

void
sd_pend_form_all(int n, Datum *vals, const bool *nulls, uint8 *pend)
{
	for (int i = 0; i < n; i++)
		if (pend[i])
		{
			if (!nulls[i])
				vals[i] = sd_pend_datum(pend[i], vals[i]);
			pend[i] = SD_PEND_NONE;
		}
}
