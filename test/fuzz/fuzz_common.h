/*
 * fuzz_common.h — shared by the libFuzzer targets in test/fuzz/: the fixed target types and
 * shapes (built with test/unit_support.h), a resolver for the shapes they reference, and a
 * checker that walks a decoded value tape, asserts its invariants and renders it canonically
 * (for comparing two decodes).  Every violated invariant prints a message and abort()s, which
 * libFuzzer reports as a crash with the input saved.
 */
#ifndef SERDE_FUZZ_COMMON_H
#define SERDE_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "serde_core.h"

#define FZ_ASSERT(cond, ...) \
	do { \
		if (!(cond)) fz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
	} while (0)

void		fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
			__attribute__((noreturn, format(printf, 4, 5)));

/* ---- a growing byte buffer ---------------------------------------------------------------- */
typedef struct fz_buf
{
	char	   *p;
	size_t		len;
	size_t		cap;
} fz_buf;

void		fz_put(fz_buf *b, const void *s, size_t n);
void		fz_printf(fz_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void		fz_reset(fz_buf *b);
void		fz_free(fz_buf *b);

/* ---- the fixed types ---------------------------------------------------------------------- */
typedef struct fz_types
{
	const sd_type *flat;        /* one column of every scalar kind (plus formats, arrays) */
	const sd_type *item;        /* b int4, c text */
	const sd_type *item_array;  /* item[] */
	const sd_type *payment;     /* a discriminated union: id, amount, card, bank */
	const sd_type *bank;
	const sd_type *node;        /* name text, kids json (recursive through the Node shape) */
	const sd_type *doc;         /* nested: arrays, maps, unions, paths, extra, json shapes */
} fz_types;

const fz_types *fz_get_types(void);

/* Options of the shapes the resolver knows ("Payment", "Bank", "Node", "Item", "Kv"). */
extern const char *const FZ_OPTS_FLAT_STRICT;
extern const char *const FZ_OPTS_FLAT_LOOSE;
extern const char *const FZ_OPTS_DOC;
extern const char *const FZ_OPTS_PAYMENT_ROOT;

/* A resolver over the fixed shapes; "Self" resolves to (self_options, self_target) when set. */
typedef struct fz_resolver_state
{
	const char *self_options;
	const sd_type *self_target;
} fz_resolver_state;

sd_resolver fz_resolver(fz_resolver_state *st);

/* ---- checks ------------------------------------------------------------------------------- */

/* Walks the value at tape[root] (decoded against node, of plan) and asserts the tape
 * invariants: every index in range (root, first .. first+len of arrays and rows), the tag fits
 * the node's kind, rows have one slot per column, integers/enum indexes/dates in range,
 * strings valid UTF-8 (and within varchar(n)), numerics valid JSON numbers, json values valid
 * JSON, offsets within the document.  Appends a canonical rendering to out (if not NULL). */
void		fz_check_tape(const sd_plan *plan, const sd_decoder *d, uint32_t root,
						  const sd_node *node, size_t doclen, fz_buf *out);

/* Asserts an error is well formed: a known code other than SD_OK, NUL-terminated path and
 * problem, offset -1 or within [0, doclen]. */
void		fz_check_error(const sd_error *err, size_t doclen);

/* Appends the error's code, offset, path and problem to out. */
void		fz_render_error(fz_buf *out, const sd_error *err);

/* True when s[0..len) is valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF). */
bool		fz_valid_utf8(const char *s, size_t len);

#endif
