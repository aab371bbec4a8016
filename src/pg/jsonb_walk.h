/*
 * jsonb_walk.h — decoding jsonb values directly from their binary containers (jsonb_walk.c).
 */
#ifndef SERDE_JSONB_WALK_H
#define SERDE_JSONB_WALK_H

#include "serde_pg.h"

/* Decodes jb against node into a tape (*tape, *root) in decoder `kept` (a decoder the caller
 * keeps across calls: emptied first), or with kept NULL in a new decoder palloc'd in
 * CurrentMemoryContext.  What the walker itself allocates (JSON text of json columns, number
 * literals, frames below the first levels) is palloc'd in CurrentMemoryContext.  On a document
 * error returns false with err (path set, offset -1); raises only for OOM, stack depth and
 * interrupts. */
extern bool pgs_jsonb_decode(sd_decoder *kept, Jsonb *jb, const sd_node *node,
							 const sd_val **tape, uint32 *root, sd_error *err);
/* The same for one element (index i) of a jsonb array, whose path starts "$[i]" (depth 2):
 * serde_decode_each walks a big jsonb array one element at a time. */
extern bool pgs_jsonb_decode_element(JsonbValue *v, uint64 index, const sd_node *node,
									   const sd_val **tape, uint32 *root, sd_error *err);
/* serde_errors over jsonb: every violation in (jsonb) document order, up to max_errors, as
 * sd_check_json_found does (entries and tape with marks palloc'd in CurrentMemoryContext;
 * after a limit the one entry, *tape NULL and *root UINT32_MAX). */
/* The same for one element (index i) of a jsonb array (serde_errors_each). */
extern int	pgs_jsonb_check_element(JsonbValue *v, uint64 index, const sd_node *node,
									int max_errors, const sd_found **found, int *total,
									const sd_val **tape, uint32 *root);
extern int	pgs_jsonb_check(Jsonb *jb, const sd_node *node, int max_errors,
							  const sd_found **found, int *total, const sd_val **tape,
							  uint32 *root);

#endif
