/*
 * strtab.h — a string -> int table for the compiler's and the registration checks' lookups
 * (names of fields, members, columns, option keys), so that compiling a shape stays linear in
 * its number of fields.  Open addressing in an arena; the first value put for a key stays.
 * Core-internal (compile.c, descriptor.c, xmlnames.c) and SQLite's registration checks.
 */
#ifndef SERDE_STRTAB_H
#define SERDE_STRTAB_H

#include "serde_core.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sd_strtab_ent
{
	const char *key;            /* NULL: a free slot */
	uint32_t	len;
	uint32_t	hash;
	int			val;
} sd_strtab_ent;

typedef struct sd_strtab
{
	sd_arena   *a;              /* where the slots live (grown copies too) */
	sd_strtab_ent *e;
	uint32_t	cap;            /* a power of two, or 0 */
	uint32_t	n;
	bool		nocase;         /* keys equal but for ASCII case are one key */
	uint64_t	seed;           /* the hash's, fixed at init */
} sd_strtab;

void		sd_strtab_init(sd_strtab *t, sd_arena *a, bool nocase);
/* The value put for key[0..len), or -1. */
int			sd_strtab_get(const sd_strtab *t, const char *key, size_t len);
/* Puts key -> val (val >= 0) unless the key is there: returns the value already there, or -1
 * once added; -2 when out of memory.  The key's bytes are borrowed, not copied. */
int			sd_strtab_put(sd_strtab *t, const char *key, size_t len, int val);

#endif							/* SERDE_STRTAB_H */
