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
	const char **keys;          /* OBJECT: unescaped keys, NUL-terminated ... */
	size_t	   *key_lens;       /* ... and their lengths (a key may hold \u0000) */
	sd_jnode  **items;
};

/* Parses strict JSON (RFC 8259) into a tree allocated in arena; NULL with err (SD_E_SYNTAX,
 * offset) on bad input or SD_E_NOMEM.  max_depth bounds nesting.  With arena == NULL it only
 * validates (allocates nothing) and returns a non-NULL dummy on success: the decoder uses this
 * to find the exact offset of a syntax error that simdjson reported without a position. */
sd_jnode   *sd_jparse(sd_arena *arena, const char *text, size_t len, uint32_t max_depth,
					  sd_error *err);
const sd_jnode *sd_jget(const sd_jnode *obj, const char *key);

/* Shared by the JSON scanners (jtree.c): four hex digits (1 ok, 0 bad digit, -1 truncated), and the
 * length of one valid UTF-8 sequence at s (0 when invalid). */
int			sd_hex4(const char *s, size_t avail, unsigned *out);
size_t		sd_utf8_seq(const unsigned char *s, size_t avail);

/* Strict non-recursive JSON validation (jvalid.c): true when valid, else err = SD_E_SYNTAX (or
 * SD_E_NOMEM) with the exact offset of the first error. */
bool		sd_json_validate(const sd_hooks *hooks, const char *text, size_t len, sd_error *err);

/* ---- a compiled plan: its arena owns every node (compile.c builds it, describe.c reads it) ---
 * Nothing writes into a plan after sd_compile returned it: state that changes while decoding
 * lives in the decoder (sd_follow below), so one plan can serve several decoders and threads. */
struct sd_plan
{
	sd_arena	arena;
	const char *shape;
	const sd_node *root;
	int			ndefaults;
	const sd_field **defaults;
	const sd_val *dtape;        /* the defaults' values, compiled once (defaults.c) ... */
	uint32_t	dtape_len;
	const uint32_t *droots;     /* ... default i at dtape[droots[i]] (NULL: not compiled) */
	uint64_t	uid;            /* process-unique, never reused: keys a decoder's per-plan state */
	uint32_t	nfollow;        /* key-order prediction slots: the sum of every table's n + 1 */
	const int16_t *follow_init; /* their initial values: each table's members in their own order */
	bool		xml_leaf_text_only; /* XML: no text of an element with children is ever read
									 * (xml_textuse.c): the reader may drop it */
};

/* Whether decoding from `root` reads no text of an element that has child elements (no text
 * member, no `extra`, no `xml` column anywhere below it): xml_textuse.c. */
bool		sd_xml_leaf_text_only(const sd_node *root);

/* ---- defaults compiled once (defaults.c) ----------------------------------------------------
 * values[i] is the JSON of plan->defaults[i] (a tree in the plan's arena, which the values may
 * point into).  Decodes each against its field's node by the rule engine (over jtree_walk.c)
 * into plan->dtape (in arena).  false with
 * err (path inside the value, problem) and *failed = the default that does not fit, or SD_E_NOMEM
 * or SD_E_CANCELED (*failed -1). */
bool		sd_defaults_compile(sd_plan *plan, sd_arena *arena, const sd_jnode *const *values,
								int *failed, sd_error *err);

/* ---- plan nodes already built (plan_memo.c): the compiler shares a node reached again with
 * the same key (type, inherited rename, policy/format flags) ---------------------------------- */
typedef struct sd_node_memo_entry
{
	const void *type;           /* NULL: empty slot */
	const char *rename;
	uint32_t	flags;
	const void *from;           /* the inherited policies' origins (interned) */
	const void *node;
} sd_node_memo_entry;

typedef struct sd_node_memo
{
	sd_hooks	hooks;
	sd_node_memo_entry *e;
	uint32_t	cap;            /* a power of two, or 0 */
	uint32_t	n;
} sd_node_memo;

const void *sd_node_memo_get(const sd_node_memo *m, const void *type, const char *rename,
							 uint32_t flags, const void *from);
bool		sd_node_memo_put(sd_node_memo *m, const void *type, const char *rename,
							 uint32_t flags, const void *from, const void *node);     /* false on OOM */
void		sd_node_memo_free(sd_node_memo *m);

/* ---- `one_of` (compile_oneof.c) -------------------------------------------------------------
 * The sd_one_kind of a JSON value (-1: null); a group's kinds as "string, object" (the order of
 * sd_one_kind), for messages. */
int			sd_one_kind_of(sd_jkind k);
void		sd_one_kinds_list(const sd_one_of *g, char *buf, size_t size);

/* ---- decoder state ------------------------------------------------------------------------ */
typedef struct sd_kernel sd_kernel;

/* A decoder's key-order prediction for one plan (sd_members.follow_at indexes it): follow[at] =
 * the member that came first in the table's last object, follow[at + i + 1] = the member that
 * followed member i (-1 none).  Only a hint: every prediction is verified against the key bytes
 * before it is used, so a stale or wrong entry costs a hash lookup, never a wrong field. */
typedef struct sd_follow
{
	uint64_t	uid;            /* the plan's uid, 0 = unused */
	uint64_t	used;           /* d->follow_tick when last bound (least recently used goes) */
	int16_t    *tab;            /* nfollow entries (hook-allocated, cap of them) */
	uint32_t	n;
	uint32_t	cap;
} sd_follow;

#define SD_FOLLOW_PLANS 4       /* plans whose prediction a decoder keeps (a statement may
								 * alternate a few on one decoder) */

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
	sd_found   *found;          /* sd_check_json_found's entries */
	uint32_t	found_cap;
	sd_jev	   *jev;            /* events of jsonb values (sd_decoder_events) */
	uint32_t	jev_len;
	uint32_t	jev_cap;
	uint32_t	offset_bias;    /* added to every offset (NDJSON: the line's start) */
	int16_t    *follow;         /* the bound plan's prediction (walkers read it), nfollow long */
	uint32_t	nfollow;
	uint64_t	follow_uid;     /* the bound plan's uid, 0 = none */
	uint64_t	follow_tick;
	sd_follow	follows[SD_FOLLOW_PLANS];
	/* sd_each_* state */
	const sd_plan *each_plan;
	const sd_node *each_node;
	sd_limits	each_limits;
	const char *each_input;     /* the caller's input (borrowed, never copied whole: each.c) */
	size_t		each_len;       /* input length */
	size_t		each_pos;       /* next byte to read */
	uint64_t	each_line;      /* NDJSON: 1-based number of the line at each_pos */
	uint64_t	row_line;       /* the row last returned: its line (NDJSON) or index + 1 */
	size_t		row_start;      /* ... and the byte offset where its line starts (NDJSON) */
	bool		each_array;     /* a JSON array (else NDJSON) */
	int			each_expect;    /* array: 0 after '[', 1 after ',', 2 after an element, 3 done */
	uint64_t	each_index;     /* array: 0-based index of the next element */
	size_t		each_last_start;	/* the extent of the item last read (sd_each_recheck) */
	size_t		each_last_end;
	size_t		each_whole_max;	/* sd_each_set_whole: an array up to this size may be parsed whole */
	struct sd_wcursor *each_cur;	/* ... and then the kernel's cursor over it, else NULL */
	struct sd_xeach *each_xml;	/* an XML batch (xml_each.c), else NULL ... */
	void		(*each_xml_end) (struct sd_decoder *d);	/* ... which this ends (sd_each_reset) */
};


/* Error collection for sd_check_json (NULL in first-error mode). */
typedef struct sd_collect
{
	sd_decoder *d;              /* the found entries live in d->found, their texts in d->arena */
	int			max;
	int			n;              /* stored */
	int			total;          /* found */
	uint32_t	values;         /* values completed (SD_MARK_SEQ) */
	bool		oom;            /* an entry could not be stored */
} sd_collect;

/* Records w's error in collect mode (json_walk.cpp's recover; rules.c) */
void		sd_collect_add(sd_collect *c, const sd_error *err);

/* One segment of the engine's path stack (error.c formats them as jsonpath; XPath later). */
typedef enum sd_seg
{
	SD_SEG_NAME = 0,            /* a JSON member (name) or an array index (name NULL) */
	SD_SEG_ELEMENT,             /* XML: an element, prefix as written, 1-based position */
	SD_SEG_ATTRIBUTE,           /* XML: an attribute */
	SD_SEG_TEXT                 /* XML: an element's text */
} sd_seg;

typedef struct sd_pathent
{
	const char *name;           /* member name, or NULL for an array index */
	size_t		len;
	uint64_t	index;          /* array index; XML element: its 1-based position (0 none) */
	uint8_t		seg;            /* sd_seg (set by XML walkers' members; 0 for JSON) */
	const char *prefix;         /* XML: the prefix as written, NULL none */
	size_t		prefix_len;
} sd_pathent;

typedef struct sd_pair
{
	const char *key;            /* unescaped */
	size_t		key_len;
	const char *value;          /* JSON text of the value */
	size_t		value_len;
} sd_pair;

/* The keys of one map object being decoded (map: true), to find a repeated one (rules.c). */
typedef struct sd_keyset
{
	struct sd_keyent *e;        /* open addressing in d->arena; cap a power of two */
	uint32_t	cap;
	uint32_t	n;
} sd_keyset;
/* Adds key (unescaped, valid for the document) to the set, which starts zeroed: true when it is
 * new; false with err SD_E_DUPLICATE "duplicate member" when the map had it already, or
 * SD_E_NOMEM.  Hashed with a per-decoder seed, so crafted keys cannot make it quadratic. */
/* *limits (or the defaults when NULL) with 0 fields defaulted: depth SD_DEFAULT_MAX_DEPTH,
 * stack budget 1 MB (max_document_bytes is left as given) */
sd_limits	sd_limits_or_defaults(const sd_limits *limits, sd_limits fallback);
bool		sd_map_key_new(sd_decoder *d, sd_keyset *ks, const char *key, size_t len, sd_error *err);
/* Binds d's member-order prediction (d->follow) to plan, as every decode does: for the core's
 * own runs of the engine (defaults.c, on a plan being compiled).  False on OOM. */
bool		sd_decoder_bind(sd_decoder *d, const sd_plan *plan, sd_error *err);
void		sd_decoder_reset(sd_decoder *d);
/* XML batches (xml_each.c): each.c's entry points for a batch begun by sd_each_begin_xml. */
typedef struct sd_xeach sd_xeach;
int			sd_each_xml_triage(sd_decoder *d, uint32_t *root, sd_error *err);
int			sd_each_xml_check(sd_decoder *d, int max_errors, const sd_found **found, int *n,
							  int *total, uint32_t *root);
int			sd_each_xml_recheck(sd_decoder *d, int max_errors, const sd_found **found, int *n,
								int *total, uint32_t *root);
/* Grows *buf (elements of elem_size) to hold at least need elements; false on OOM (arena.c). */
bool		sd_grow(const sd_hooks *h, void **buf, uint32_t *cap, uint32_t need, size_t elem_size);

struct sd_wcursor;

/* A SIMD kernel of the JSON text walker (json_walk.cpp): the parser, and the walker's cursor
 * over a document that the engine (engine.c) pulls. */
struct sd_kernel
{
	const char *name;
	void	   *(*parser_new) (void);
	void		(*parser_free) (void *parser);
	size_t		(*parser_bytes) (void *parser);
	/* Opens buf[0..len) (readable up to buf+cap, cap >= len + SD_PADDING): *cur is the parser's
	 * cursor at the root.  1, or -1 with (*cur)->fail set.  bias is added to every offset. */
	int			(*open) (void *parser, struct sd_wcursor **cur, const char *buf, size_t len,
						 size_t cap, uint32_t bias);
	/* A batch's array parsed whole (each.c): opens the array in buf (as open), then each_next
	 * moves the cursor to the next element (1), to the end after checking nothing follows (0),
	 * or fails (-1, cur->fail set). */
	int			(*each_open) (void *parser, struct sd_wcursor **cur, const char *buf, size_t len,
							  size_t cap);
	int			(*each_next) (struct sd_wcursor *cur);
};

#define SD_PADDING 64


#ifdef __cplusplus
}
#endif

/* XML's and JSON's white space: space, tab, line feed, carriage return */
static inline bool
sd_is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* true if s[0..n) is all white space (or empty) */
static inline bool
sd_is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!sd_is_ws(s[i]))
			return false;
	return true;
}

/* decoder.c: the padded buffer grown to hold len bytes plus padding (contents not kept) */
bool		sd_decoder_pad(sd_decoder *d, size_t len, const char *what, sd_error *err);

#endif							/* SERDE_INTERNAL_H */
