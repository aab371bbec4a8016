/*
 * compile_names.h — small pure helpers of the plan compiler (compile_names.c).
 */
#ifndef SERDE_COMPILE_NAMES_H
#define SERDE_COMPILE_NAMES_H

#include "internal.h"

/* "null", "a boolean", "a number", ... for option errors. */
const char *sd_jkind_name(sd_jkind k);
/* col renamed by style ("camel", "pascal", "kebab", "upper"; NULL: a copy), in a; NULL on OOM. */
char	   *sd_apply_rename(sd_arena *a, const char *col, const char *style);
/* The format named f for a column of type t (arrays: their elements); false if none applies. */
bool		sd_format_ok(const sd_type *t, const char *f, sd_format *out);

/* A union's tag as the document names it: the tag names a column (or, else, the document name
 * of one); that column's name after `name` / `rename` and its XML name and kind are the tag's.
 * With no such column, the tag is the document name as written (XML: an attribute or a child
 * element). */
void		sd_resolve_tag(sd_node *node, const char *tag);

#endif							/* SERDE_COMPILE_NAMES_H */
