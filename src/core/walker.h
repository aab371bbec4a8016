/*
 * walker.h — the interface between the rule engine (engine.c) and the walkers that read input.
 *
 * ONE engine applies every rule of the plan (members by name and the decoder's member-order
 * prediction, missing / optional / default, nullable / NOT NULL, unknown members and `extra`,
 * duplicates, unions by tag, maps, path prefixes and their null parents, json/jsonb columns
 * validated against a shape, serde_errors collection and recovery, depth and stack limits,
 * should_stop polling, paths and offsets of errors, the value tape).  A walker only READS its
 * input: it tokenizes and validates it, and hands the engine one token at a time.
 *
 * Pull model: the engine calls the walker through sd_walker_ops on an opaque cursor.  Every op
 * is a leaf that returns to the engine, so host hooks (allocation, should_stop) are only ever
 * called from C frames of the engine: a C++ walker (the simdjson one) never calls a hook.
 *
 * ---- the cursor -------------------------------------------------------------------------------
 * A walker's cursor struct starts with an sd_wcursor (the engine sees only that).  The cursor
 * is always "at a value": the root after the walker was opened (the engine calls peek() for
 * it), a member's value after object_next() returned 1, an element after array_next() returned
 * 1 — those two also peek the value into their token, so that a member or an element costs the
 * engine ONE indirect call.  A peeked scalar (null, booleans, numbers, strings) is read whole
 * and consumed: tok->s/len hold it, literals and numbers are checked.  A peeked container is
 * not consumed: the engine then calls exactly one of
 *     object_begin(), then object_next() until it returns 0 (each member's value walked);
 *     array_begin(),  then array_next()  until it returns 0 (each element walked);
 *     skip_fast(), when it returns > 0 (the walker skipped the value itself);
 * or, before any of those, peek() again (it returns the same token).  object_begin and
 * array_begin apply to the value the cursor is at (the last one peeked).  A value the engine
 * does not decode is walked the same way by the engine's validating skip (which also writes
 * jsonb events and checks depth), so a walker never needs to skip on its own.  The engine
 * always runs a container it began to its end, unless it stops on a fatal error.
 *
 * ---- results and errors --------------------------------------------------------------------
 * Ops return 1 (ok / one more member or element), 0 (end of the container) or -1 (error).  On
 * -1 the walker has filled cur->fail: SD_E_SYNTAX (malformed input; problem a static string,
 * offset the first bad byte or -1) or SD_E_NOMEM.  The engine turns it into the error (path
 * "$" for malformed input; for JSON text, SD_WF_TEXT, it first re-validates text[0..text_len)
 * with jvalid.c to report the exact offset).  Offsets are byte offsets in the caller's input
 * (already biased, e.g. by an NDJSON line's start) or -1 when the input has none (jsonb; XML
 * walkers report line/column later through the same field).
 *
 * ---- member names --------------------------------------------------------------------------
 * object_next(cur, key, tok, expect, want): expect is the member the engine predicts (the decoder's
 * member-order prediction) or NULL.  A JSON text walker compares expect's name with the raw
 * key bytes in place (8-byte prefix, sd_member.prefix) and sets key->matched = 1 without
 * scanning the key; otherwise it reads the key (unescaped), key->matched = 0, and when it was
 * read in place (key->in_doc, readable SD_PADDING bytes past) also key->hash = sd_hash_name()
 * computed with wide loads (key->has_hash).  The engine looks the name up (hash table or, for a
 * walker with SD_WF_SORTED_KEYS, a merge with sd_members.by_length), decides whether it is
 * known, unknown, a duplicate or a union's tag: the RULE is in the engine, the walker only
 * offers fast comparisons.  The key stays valid until the document is released (pairs of
 * `extra` keep it).
 *
 * ---- XML (issue 13) ------------------------------------------------------------------------
 * (a) A member carries, besides its name bytes (the local name), key->ns (namespace URI, NULL
 *     for none), key->prefix (as the document writes it, for XPath) and key->xml_kind (element /
 *     attribute / text, sd_xml_kind).  An XML walker presents an element's attributes first, as
 *     members with xml_kind SD_XML_ATTRIBUTE, then its child elements in document order
 *     (SD_XML_ELEMENT), then its character data as one member with xml_kind SD_XML_TEXT and an
 *     empty name; the engine matches them against the plan's XML facts (sd_field xml_kind,
 *     xmlnames.c), not against JSON names.  Scalars are SD_J_STRING tokens with
 *     SD_TOK_XML_TEXT (descriptions then use sd_describe_text).
 * (b) Flattened lists: a walker with SD_WF_REPEATED may present the same member several times
 *     in one object, adjacent or not (<category>a</category><x/><category>b</category>).  For
 *     a list field the engine then accumulates each occurrence as one element of the list
 *     instead of reporting a duplicate; it finishes the list when the enclosing object ends
 *     (none = []).  The XML walker sets SD_WF_REPEATED | SD_WF_XML: the engine's one member loop
 *     then resolves keys through the plan's XML member table (sd_node.xml_members: xml_kind,
 *     namespace, local name) instead of the JSON one; every rule after that is the same code.
 *     An element with xsi:nil true / 1 comes with SD_TOK_XML_NIL (null, as JSON's null), one
 *     with another xsi:nil value with SD_TOK_XML_BADNIL (2200N).
 * (c) Paths are kept as segments (sd_pathent: name / index; element with prefix and 1-based
 *     position, attribute, text), so error.c formats jsonpath (byte-identical to before) or
 *     XPath from the same stack.
 *
 * ---- values kept whole (json/jsonb columns, `extra`) -------------------------------------------
 * After the engine walked such a value it calls capture(cur, tok, how, out): the walker sets
 * out->u.s / out->len to the value's JSON text (a text walker: its span in the document), or
 * for SD_CAP_JSONB a host container (out->aux set by the walker, e.g. PostgreSQL's stored
 * jsonb handed over as is).  Events for a jsonb column (sd_jev) are written by the engine's
 * skip from the tokens, for walkers with SD_WF_EVENTS.
 *
 * Interface history: v1 (commit 2640572, first draft); v2 (the engine's first working commit):
 * object_next / array_next also peek the value (tok), object_next takes `want`, the separate
 * scalar() op is gone (a peeked scalar is read whole), sd_wtok.w has 2 words, and the engine's
 * entry points sd_engine_check / sd_engine_found_fatal / sd_engine_walker_error were added.
 * v3: skip_fast is called for containers only and returns the number of values it walked
 * (should_stop's polling); SD_E_DEPTH from skip_fast with the path below the value
 * (sd_wfail.path / npath), SD_SKIP_FAST_STACK; the JSON text walker implements skip_fast.
 * v4: skip_events (a jsonb column's container skipped by the text walker with its events: the
 * per-value op calls of the engine's skip were msk_record's cost); sd_wfail.path also for its
 * value errors; SD_WF_XML, locate and sd_wfail.err (XML through the engine).
 * v5: root_key and ns_prefix (XML: the root element's path segment, the prefix bound to a
 * namespace for a missing element's path), SD_TOK_XML_NIL / SD_TOK_XML_BADNIL; the engine no
 * longer has an XML member loop of its own (one loop, two member tables).
 * v6: has_children (XML: an element's kind for `one_of`, by lookahead).
 * v7: batch_key (XML batches: the root above the item, whose path step it is).
 * v8: sd_wkey.interned (XML: names interned for the cursor's life; the engine caches members by
 * their pointers).
 * v9: SD_KEY_NO_TEXT (XML: an element whose text no member maps; the walker skips its text).
 * v10: SD_KEY_SKIP_BEFORE and sd_wcursor.skip_room (jsonb: members the engine would ignore are
 * passed over by the walker without a token each); SD_KEY_FILTER and SD_KEY_SKIP (text: names no
 * member has rejected by sd_members.key_filter; ignored unknown scalars passed over).  Every
 * want bit is distinct: a walker ignores the bits it does not know.
 */
#ifndef SERDE_WALKER_H
#define SERDE_WALKER_H

#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A token: the value at the cursor (peek) or a scalar read (scalar). */
typedef struct sd_wtok
{
	sd_jkind	kind;
	uint32_t	flags;          /* SD_TOK_* */
	int64_t		offset;         /* of the value's first byte, -1 when the input has none */
	const char *raw;            /* JSON text: the raw token (descriptions), else NULL */
	size_t		raw_len;
	const char *s;              /* a peeked scalar: a string's contents, unescaped (valid until
								 * the document is released), or a number's literal */
	size_t		len;
	uintptr_t	w[2];           /* the walker's own (e.g. the jsonb value) */
} sd_wtok;

#define SD_TOK_NATIVE	1u      /* a number held natively: s is NULL until number_text() */
#define SD_TOK_NOT_JSON	2u      /* a number with no JSON literal (NaN, Infinity): a kind error */
#define SD_TOK_XML_TEXT	4u      /* XML character data (descriptions: sd_describe_text) */
#define SD_TOK_XML_ELEMENT 8u     /* object_find: the text of a child element (not an attribute) */
#define SD_TOK_XML_NIL	16u     /* an element with xsi:nil true / 1 (trimmed): a null value */
#define SD_TOK_XML_BADNIL 32u    /* an element whose xsi:nil is not true, false, 1 or 0 */

typedef struct sd_wkey
{
	const char *s;              /* the name (XML: the local name), unescaped */
	size_t		len;
	int64_t		offset;         /* of the key (JSON text: its opening quote), or -1 */
	bool		matched;        /* equal to object_next's expect (compared in place) */
	bool		in_doc;         /* s points into the padded document */
	bool		has_hash;       /* hash = sd_hash_name(s, len) */
	bool		absent;         /* SD_KEY_FILTER: filter says no member has this name (the
								 * engine sets it false once; a walker that filters sets it) */
	uint8_t		xml_kind;       /* sd_xml_kind (XML walkers; 0 = element otherwise) */
	bool		interned;       /* XML: s and ns are interned for the cursor's life (the same
								 * pointer is always the same name; the engine may cache by
								 * pointer); false: compare bytes */
	uint32_t	hash;
	uint64_t	filter;         /* input (SD_KEY_FILTER): the table's key_filter */
	const char *ns;             /* XML: namespace URI, NULL for none */
	size_t		ns_len;
	const char *prefix;         /* XML: the prefix as written (XPath), NULL for none */
	size_t		prefix_len;
} sd_wkey;

/* What the walker reports on -1. */
typedef struct sd_wfail
{
	sd_code		code;           /* SD_E_SYNTAX or SD_E_NOMEM */
	const char *problem;        /* static text, e.g. "invalid number" */
	int64_t		offset;         /* -1 when unknown */
	/* SD_E_DEPTH (skip_fast only): the path segments from the skipped value's child down to
	 * the container that nests too deep (npath of them, outermost first) */
	const sd_pathent *path;
	uint32_t	npath;
	/* SD_WF_XML: the walker's own complete error (the XML reader's: malformed XML, a limit,
	 * with its path, line and column), reported as it is; NULL otherwise */
	const sd_error *err;
} sd_wfail;

typedef struct sd_walker_ops sd_walker_ops;

/* The head of every walker cursor. */
typedef struct sd_wcursor
{
	const sd_walker_ops *ops;
	sd_wfail	fail;
	const char *text;           /* SD_WF_TEXT: the whole JSON text (re-validated on errors) */
	size_t		text_len;
	uint32_t	skip_room;      /* set by the engine with SD_KEY_SKIP_BEFORE (see there) */
} sd_wcursor;

#define SD_WF_TEXT			1u  /* JSON text: syntax errors get jvalid.c's exact offset; a
								 * malformed document is reported as such even when a value
								 * error came first */
#define SD_WF_SORTED_KEYS	2u  /* members come in jsonb's key order (shorter first, then
								 * bytewise): looked up by a merge with sd_members.by_length */
#define SD_WF_EVENTS		4u  /* jsonb columns get events (sd_jev) from the engine's skip */
#define SD_WF_NO_DUPLICATES	8u  /* the input cannot repeat a key (jsonb): no map key set */
#define SD_WF_REPEATED		16u /* XML: members may repeat; list fields accumulate (see (b)) */
#define SD_WF_JSONB_INPUT	32u /* numbers and strings are already jsonb's (no \u0000, numeric
								 * limits hold): a jsonb column's checks are skipped */
#define SD_WF_XML			64u /* an XML document (walker.h (a)-(c)): keys resolved through
								 * the XML member table; XPath, XML SQLSTATEs */

#define SD_SKIP_FAST_STACK	256	/* skip_fast's stack bytes a level, at most */

#define SD_KEY_HASH		1u      /* object_next's want: compute key->hash when cheap */
#define SD_KEY_FILTER	4u      /* object_next's want: key->filter holds sd_members.key_filter;
								 * a key whose sd_key_filter_bit is clear gets absent = true
								 * and no hash (a walker may ignore it) */
#define SD_KEY_SKIP		8u      /* with SD_KEY_FILTER: the engine ignores a member no name
								 * matches (no unknown-member error, no `extra`, no events, not
								 * in a jsonb value): a walker may pass over such a member whose
								 * value is a checked plain scalar, up to 63 in a row, without
								 * returning it */
#define SD_KEY_NO_TEXT	2u      /* object_next's want (XML): the engine ignores this element's
								 * own text (no member maps it): the walker may leave it out */
#define SD_KEY_SKIP_BEFORE 16u  /* object_next's want (SD_WF_SORTED_KEYS walkers): the engine
								 * ignores every member whose key sorts before expect's name
								 * (all of them when expect is NULL) — an unknown member of an
								 * object without `unknown: reject` or `extra`, outside
								 * serde_errors and jsonb events — once its value is known to
								 * nest within the limit.  The walker may pass over such a
								 * member when its value is a scalar or a container that
								 * certainly nests at most cur->skip_room levels (itself
								 * counting 1); any other member it returns as usual, and the
								 * engine applies its rules to it. */

/* capture's `how` */
#define SD_CAP_JSON		0u      /* the value's JSON text */
#define SD_CAP_JSONB	1u      /* for a jsonb column: a host container when the walker has one */

struct sd_walker_ops
{
	unsigned	flags;          /* SD_WF_* */
	/* the value at the cursor: kind, offset, raw token; nothing consumed */
	int			(*peek) (sd_wcursor *cur, sd_wtok *tok);
	int			(*object_begin) (sd_wcursor *cur, const sd_wtok *tok);
	/* 1: the next member (key), the cursor at its value (tok, peeked); 0: the object ended.
	 * want: SD_KEY_HASH when the engine will look the key up in a hash table. */
	int			(*object_next) (sd_wcursor *cur, sd_wkey *key, sd_wtok *tok,
								const sd_member *expect, unsigned want);
	/* right after object_begin: finds member name anywhere in the object and reads its value
	 * as a peeked token, leaving the iteration at the object's start.  1 found, 0 absent.
	 * XML walkers look only where kinds says (SD_TAG_ATTRIBUTE: an attribute without a
	 * namespace, SD_TAG_ELEMENT: a child element; attributes first); others ignore it. */
	int			(*object_find) (sd_wcursor *cur, const char *name, size_t len, unsigned kinds,
								sd_wtok *tok);
	int			(*array_begin) (sd_wcursor *cur, const sd_wtok *tok);
	/* 1: the next element, peeked into tok; 0: the array ended */
	int			(*array_next) (sd_wcursor *cur, sd_wtok *tok);
	/* optional (NULL): skips the container at the cursor (called for objects and arrays
	 * only, when the engine writes no events and makes no jsonb checks), nesting at most `room`
	 * levels (the value itself counting 1).  n > 0: done, n values walked (should_stop's
	 * polling counts them); 0: the engine walks it (nothing consumed); -1: cur->fail, and
	 * SD_E_DEPTH when a container nests deeper than room (fail.path / npath: the segments
	 * below the value, fail.offset: that container).  A walker that recurses uses at most
	 * SD_SKIP_FAST_STACK bytes of C stack a level (the engine bounds room by its budget). */
	int			(*skip_fast) (sd_wcursor *cur, const sd_wtok *tok, uint32_t room);
	/* after the value of tok was walked: its text or container (see above) */
	int			(*capture) (sd_wcursor *cur, const sd_wtok *tok, unsigned how, sd_val *out);
	/* optional: a native number (SD_TOK_NATIVE) straight into node n's slot: 1 done, 0 not
	 * (then number_text fills tok->s/len) */
	int			(*number_direct) (sd_wcursor *cur, const sd_node *n, const sd_wtok *tok,
								  bool collect, sd_val *out);
	int			(*number_text) (sd_wcursor *cur, sd_wtok *tok);
	/* after the root value: nothing may follow it (1 ok) */
	int			(*finish) (sd_wcursor *cur);
	/* optional (NULL): skip_fast for the container at the cursor of a jsonb value (SD_WF_EVENTS,
	 * not in serde_errors' mode), which also writes the value's events into the walker's own
	 * buffer (*ev, *nev: valid until the next op; *ev NULL: more than SD_JEV_MAX) and makes a
	 * jsonb value's checks (scalar.h sd_jsonb_string_ok, sd_jsonb_number_check).  Results as
	 * skip_fast's; a failed check is -1 with its code, problem and path segments. */
	int			(*skip_events) (sd_wcursor *cur, const sd_wtok *tok, uint32_t room,
								const sd_jev **ev, uint32_t *nev);
	/* optional (XML): the 1-based line and column of a byte offset (an error's DETAIL) */
	void		(*locate) (sd_wcursor *cur, int64_t offset, uint32_t *line, uint32_t *column);
	/* optional (XML): after peek at the root, the root element's name (its path segment) */
	void		(*root_key) (sd_wcursor *cur, sd_wkey *key);
	/* optional (XML): the prefix the document binds to namespace uri where the walk is (the
	 * path of a missing element); 0 with *prefix NULL when none or the default namespace */
	int			(*ns_prefix) (sd_wcursor *cur, const char *uri, size_t len, const char **prefix,
							  size_t *prefix_len);
	/* optional (XML): whether the element at the cursor (peeked, not begun) has a child
	 * element (a `one_of`'s kind: object, else text), looking ahead without consuming: 1 yes,
	 * 0 no (text only, or empty), -1 cur->fail */
	int			(*has_children) (sd_wcursor *cur, const sd_wtok *tok);
	/* optional (XML batches, xml_each.c): the batch's root element, the path step above an
	 * item; an item decoded with first_index >= 0 is then that root's child at XPath position
	 * first_index + 1 (instead of JSON's "$[first_index]") */
	void		(*batch_key) (sd_wcursor *cur, sd_wkey *key);
};

/* ---- the engine side (engine.c) --------------------------------------------------------- */

/*
 * Decodes the value at cur against node into d's tape (*root: its slot).  d provides the
 * buffers (tape, element stack, arena, path, pairs, found, jev), the hooks and, for walkers
 * without SD_WF_SORTED_KEYS, the bound plan's member-order prediction (d->follow).  collect:
 * serde_errors' mode, else NULL.  first_index >= 0: the value is element first_index of an
 * outer array ("$[i]", sd_each over an array).  False with err on the first error (collect
 * mode: on a fatal one).
 */
bool		sd_engine_decode(sd_decoder *d, sd_wcursor *cur, const sd_node *node,
							 const sd_limits *limits, sd_collect *collect, int64_t first_index,
							 uint32_t *root, sd_error *err);

/* serde_errors' mode over cur: every violation up to max_errors (entries in d->found, texts in
 * d->arena), as sd_check_json_found returns them; after a fatal error (malformed input, a
 * limit, a cancel) that one error alone and *root UINT32_MAX. */
int			sd_engine_check(sd_decoder *d, sd_wcursor *cur, const sd_node *node,
							const sd_limits *limits, int max_errors, const sd_found **found,
							int *total, uint32_t *root);
/* The same for element first_index of an outer array ("$[i]": a host's jsonb array, each.c). */
int			sd_engine_check_at(sd_decoder *d, sd_wcursor *cur, const sd_node *node,
							   const sd_limits *limits, int64_t first_index, int max_errors,
							   const sd_found **found, int *total, uint32_t *root);
/* The same result when the document failed before a walk (err) or after one (ok false, or
 * col->oom): the one-entry answer. */
int			sd_engine_found_fatal(sd_decoder *d, sd_error *err, bool oom,
								  const sd_found **found, int *total, uint32_t *root);
/* The error of a walker op that returned -1 outside sd_engine_decode (opening a document,
 * stepping through an array for sd_each): always false. */
bool		sd_engine_walker_error(sd_decoder *d, sd_wcursor *cur, sd_error *err);

#ifdef __cplusplus
}
#endif

#endif							/* SERDE_WALKER_H */
