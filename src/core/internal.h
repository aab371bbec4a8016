/*
 * internal.h — declarations shared inside the core only: the chunk arena, the small JSON tree
 * used for options, the member lookup tables of compiled composites, and the decoder state that
 * the C side and the C++ JSON walker both see.  Hosts include serde_core.h, never this.
 */
#ifndef SERDE_INTERNAL_H
#define SERDE_INTERNAL_H

#include "serde_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- a small JSON tree (options, descriptors, tests) ---------------------------------------- */

typedef struct sd_jnode sd_jnode;
struct sd_jnode
{
	sd_jkind	kind;
	const char *str;            /* STRING: unescaped (NUL-terminated); NUMBER: literal */
	size_t		len;
	size_t		offset;         /* byte offset of the value in the text */
	const char *text;           /* the value's JSON text (for defaults) */
	size_t		text_len;
	int			n;              /* ARRAY/OBJECT: number of items */
	const char **keys;          /* OBJECT: unescaped keys, NUL-terminated */
	sd_jnode  **items;
};

/* Parses strict JSON (RFC 8259) into a tree allocated in arena; NULL with err (SD_E_SYNTAX,
 * offset) on bad input or SD_E_NOMEM.  max_depth bounds nesting.  With arena == NULL it only
 * validates (allocates nothing) and returns a non-NULL dummy on success: the decoder uses this
 * to find the exact offset of a syntax error that simdjson reported without a position. */
sd_jnode   *sd_jparse(sd_arena *arena, const char *text, size_t len, uint32_t max_depth,
					  sd_error *err);
const sd_jnode *sd_jget(const sd_jnode *obj, const char *key);

/* Strict non-recursive JSON validation (jvalid.c): true when valid, else err = SD_E_SYNTAX (or
 * SD_E_NOMEM) with the exact offset of the first error. */
bool		sd_json_validate(const sd_hooks *hooks, const char *text, size_t len, sd_error *err);

/* ---- decoder state ------------------------------------------------------------------------ */
typedef struct sd_kernel sd_kernel;

struct sd_decoder
{
	sd_hooks	hooks;
	const sd_kernel *kernel;
	void	   *parser;         /* kernel's simdjson parser */
	char	   *padded;         /* the document copied with SIMDJSON padding */
	size_t		padded_cap;
	sd_val	   *tape;
	uint32_t	tape_len;
	uint32_t	tape_cap;
	sd_val	   *stack;          /* array elements under construction */
	uint32_t	stack_len;
	uint32_t	stack_cap;
	sd_arena	arena;          /* uuid/bytea bytes, extra objects, coerced text */
	void	   *path;           /* kernel's path stack (entries of sd_pathent) */
	uint32_t	path_cap;
	void	   *pairs;          /* unmapped members collected for `extra` columns */
	uint32_t	pairs_len;
	uint32_t	pairs_cap;
	/* sd_each_* state */
	const sd_plan *each_plan;
	const sd_node *each_node;
	sd_limits	each_limits;
	size_t		each_len;       /* input length */
	size_t		each_pos;       /* NDJSON: next byte to read */
	uint64_t	each_line;      /* NDJSON: 1-based number of the line at each_pos */
	bool		each_array;     /* array mode: the whole array is in the tape */
	uint32_t	each_first;     /* array mode: tape index of element 0 */
	uint32_t	each_count;
	uint32_t	each_next;
	sd_val	   *each_rows;      /* array mode: the elements, kept while rows are returned */
	uint32_t	each_rows_cap;
};

/* Error collection for sd_check_json (NULL in first-error mode). */
typedef struct sd_collect
{
	sd_error   *errs;
	int			max;
	int			n;              /* stored */
	int			total;          /* found */
} sd_collect;

typedef struct sd_pathent
{
	const char *name;           /* member name, or NULL for an array index */
	size_t		len;
	uint64_t	index;
} sd_pathent;

typedef struct sd_pair
{
	const char *key;            /* unescaped */
	size_t		key_len;
	const char *value;          /* JSON text of the value */
	size_t		value_len;
} sd_pair;

/* Grows *buf (elements of elem_size) to hold at least need elements; false on OOM. */
bool		sd_grow(const sd_hooks *h, void **buf, uint32_t *cap, uint32_t need, size_t elem_size);

struct sd_kernel
{
	const char *name;
	void	   *(*parser_new) (void);
	void		(*parser_free) (void *parser);
	size_t		(*parser_bytes) (void *parser);
	/* Decodes buf[0..len) (readable up to buf+cap, cap >= len + SD_PADDING) against node. */
	bool		(*decode) (sd_decoder *d, const sd_plan *plan, const sd_node *node,
						   const char *buf, size_t len, size_t cap, const sd_limits *limits,
						   sd_collect *collect, uint32_t *root, sd_error *err);
};

#define SD_PADDING 64

#ifdef __cplusplus
}
#endif

#endif							/* SERDE_INTERNAL_H */
