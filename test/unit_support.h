/*
 * unit_support.h — helpers for core unit tests: static type descriptions, compile + decode in
 * one call, and rendering a tape as compact text ("{id:7,name:'x',tags:[1,2]}") for asserts.
 */
#ifndef SERDE_UNIT_SUPPORT_H
#define SERDE_UNIT_SUPPORT_H

#include "serde_core.h"

extern const sd_type ut_text, ut_int2, ut_int4, ut_int8, ut_float4, ut_float8, ut_numeric,
			ut_numeric_5_2, ut_bool, ut_tstz, ut_ts, ut_date, ut_time, ut_uuid, ut_bytea, ut_json,
			ut_jsonb, ut_varchar3, ut_color, ut_int4_array, ut_inet, ut_xml;

/* A composite type from "name:type,name:type" with types from the list above by SQL-ish name
 * (text,int2,int4,int8,float4,float8,numeric,numeric(5,2),bool,timestamptz,timestamp,date,
 * time,uuid,bytea,json,jsonb,varchar(3),color,int4[],inet), any varchar(n) or numeric(p,s), a
 * previously made composite or enum (by its name), and any of these followed by [].  Types are
 * leaked on purpose (tests). */
/* A table of registered shapes for sd_compile's resolver: ut_resolve finds `shape` among the
 * UT_SHAPES entries of the table given as ud (a NULL name ends it; NULL opts = deferred). */
#define UT_SHAPES 8
typedef struct ut_shapedef
{
	const char *name;
	const char *opts;
	const sd_type *type;
} ut_shapedef;
bool		ut_resolve(void *ud, const char *shape, const char **options_json, const sd_type **target,
					   sd_error *err);

const sd_type *ut_composite(const char *name, const char *cols);
/* A type by its name in that language (aborts when there is none). */
const sd_type *ut_type(const char *name);
/* An enum type from "label,label" (labels in sort order, without commas). */
const sd_type *ut_enum(const char *name, const char *labels);
const sd_type *ut_array_of(const sd_type *elem);

/* Compiles + decodes; returns the rendering of the result or "ERROR <sqlstate> <path>: <problem>
 * @<offset>". The returned buffer is static (overwritten by the next call). */
const char *ut_decode(const sd_type *t, const char *options, const char *doc);
/* Decodes with a plan compiled by the caller (sd_compile "T") on the helpers' one decoder, so
 * that the state the decoder keeps for that plan between documents (the member-order
 * prediction) carries over; rendering as ut_decode. */
const char *ut_decode_with(const sd_plan *plan, const char *doc);
/* The same in serde_errors mode: every error, joined with " | " ("ok" when valid). */
const char *ut_check_with(const sd_plan *plan, const char *doc);
const char *ut_decode_xml(const sd_type *t, const char *options, const char *doc);
const char *ut_decode_xml_with(const sd_plan *plan, const char *doc);
/* Decodes; renders the events (serde_core.h) of every SD_V_JSON value in tape order, "none" for
 * one without: "{ K'a' N1 K'b' [ T F Z S'x' ) )" (")" ends a container). */
const char *ut_decode_events(const sd_type *t, const char *options, const char *doc);
/* Compile only: "ok" or "ERROR <sqlstate> <path>: <problem>". */
const char *ut_compile(const sd_type *t, const char *options);

#endif
