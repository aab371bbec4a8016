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

#endif							/* SERDE_COMPILE_NAMES_H */
