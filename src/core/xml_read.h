/*
 * xml_read.h — the core's XML reader: libxml2's SAX2 push parser turned into a PULL API of
 * compact events (element start with its names, namespace declarations and attributes; text;
 * element end), with positions, for the XML walker.  Host-neutral (no PostgreSQL).
 *
 * Streaming: the document (in memory, as a host holds it) is fed to the parser in chunks; the
 * SAX callbacks append events to a small queue, and sd_xr_next() returns the next one, feeding
 * the next chunk when the queue is empty.  Memory stays bounded by the chunk size (plus the
 * depth of the element stack), whatever the document's size; a thread keeps one reader's
 * buffers (up to XR_SPARE_MAX bytes each, malloc hooks only) for its next document.
 * Positions: events carry byte offsets only; line and column are counted by sd_xr_locate when
 * an error needs them.
 *
 * Hostile input (docs/reference.md, "Functions", Hostile XML; facts in fixtures/xml/README.md):
 * no network, no DTD loading, no external entities, predefined entities only — every entity
 * declaration (general or parameter, internal or external) and every attribute default of an
 * internal subset is refused as malformed (2200M) at the declaration, before any expansion, so
 * billion laughs and quadratic blow-up cost nothing.  Namespace errors (unbound prefix, …),
 * which libxml2 reports without clearing wellFormed, are malformed too.  The encoding
 * declaration is ignored: the text is UTF-8 (a UTF-8 BOM is allowed); a NUL byte is refused.
 * Depth (max_depth, the root element at depth 1) and size (max_document_bytes) limits give
 * SD_E_DEPTH / SD_E_SIZE.  libxml2's process-wide state (the structured and generic error
 * handlers, the external entity loader) is saved and restored around every call into it, so a
 * host that uses libxml2 itself (PostgreSQL's xml type) keeps its setup.
 *
 * Strings: element and attribute names, prefixes and namespace URIs live in the parser's
 * dictionary and stay valid until sd_xr_close(); attribute values and text stay valid until the
 * next call of sd_xr_next().
 */
#ifndef SERDE_XML_READ_H
#define SERDE_XML_READ_H

#include "serde_core.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum sd_xev_kind
{
	SD_XEV_START = 1,           /* <name …> (also the start of <name/>) */
	SD_XEV_END,                 /* </name> (also the end of <name/>) */
	SD_XEV_TEXT                 /* character data: text, entities and character references
								 * replaced, CDATA content; line ends normalised everywhere
								 * (CR LF and a lone CR are LF; only &#13; gives a CR);
								 * adjacent pieces merged as far as one chunk goes (a walker
								 * concatenates consecutive TEXTs) */
} sd_xev_kind;

/* A name as the document writes it: local name, prefix (NULL: none), namespace URI (NULL: none). */
typedef struct sd_xname
{
	const char *local;
	const char *prefix;
	const char *uri;
	uint32_t	local_len;
	uint32_t	prefix_len;
	uint32_t	uri_len;
} sd_xname;

typedef struct sd_xattr
{
	sd_xname	name;
	const char *value;          /* normalised as XML says (line ends, whitespace chars → space) */
	size_t		value_len;
	int64_t		offset;         /* byte offset of the attribute's name (sd_xr_locate gives its
								 * line and column: positions are counted only when asked) */
} sd_xattr;

/* A namespace declaration written on an element: xmlns="uri" (prefix NULL) or xmlns:p="uri". */
typedef struct sd_xnsdecl
{
	const char *prefix;
	const char *uri;            /* "" for xmlns="" (undeclares the default namespace) */
	uint32_t	prefix_len;
	uint32_t	uri_len;
} sd_xnsdecl;

typedef struct sd_xev
{
	sd_xev_kind kind;
	uint32_t	depth;          /* START/END: the element's depth (root 1); TEXT: its parent's */
	/* START: byte offset of its '<' (sd_xr_locate gives its line and column); END: the byte
	 * just past its end ('>' of </x> or of />); TEXT: -1 */
	int64_t		offset;
	sd_xname	name;           /* START / END */
	const sd_xattr *attrs;      /* START: attributes in document order (not xmlns ones) */
	const sd_xnsdecl *ns;       /* START: namespace declarations on this element */
	uint32_t	nattrs;
	uint32_t	nns;
	const char *text;           /* TEXT; END: the text after it (sd_xr_options.text_on_end);
								 * START: the text after it (text_on_start) */
	size_t		text_len;
} sd_xev;

typedef struct sd_xreader sd_xreader;

/* The reader's first member: the queue of one batch (the events of one xmlParseChunk call;
 * while a batch is being filled, string values are offsets into the reader's bytes, fixed into
 * pointers after) and the state (0 running, 1 ended well, -1 failed).  sd_xr_take reads it
 * inline: the walker's per-event hand-out without a call. */
typedef struct sd_xr_head
{
	sd_xev	   *q;
	uint32_t	qlen;
	uint32_t	qpos;
	int			state;
} sd_xr_head;

/* The next queued event, or NULL when none is queued (or the reader ended or failed): then
 * sd_xr_next_ref, which feeds the parser, reports the end or the error. */
static inline const sd_xev *
sd_xr_take(sd_xreader *r)
{
	sd_xr_head *h = (sd_xr_head *) r;	/* the reader begins with its head */

	if (__builtin_expect(h->qpos < h->qlen && h->state == 0, 1))
		return &h->q[h->qpos++];
	return NULL;
}

typedef struct sd_xr_options
{
	uint32_t	max_depth;      /* 0: SD_DEFAULT_MAX_DEPTH */
	uint64_t	max_document_bytes; /* 0: SD_DEFAULT_MAX_DOCUMENT_BYTES */
	size_t		chunk;          /* bytes fed per call; 0: the default (tests use tiny ones) */
	/* Leave out the character data that follows an end tag (up to the next start or end tag:
	 * text of an element that has child elements, between them or after the last one), as if
	 * the document had none there: for a reader whose consumer never reads such text (a plan's
	 * sd_plan.xml_leaf_text_only).  Text before an element's first child stays. */
	bool		drop_text_after_end;
	/* Text that follows an end tag and lies in the document as written (no entity or character
	 * reference, no CDATA, no CR: what libxml2 hands over in place) rides on that END event
	 * (its text / text_len, in the document) instead of a TEXT event of its own; a piece that
	 * does not continue it there comes as a TEXT event after the END, as before.  The text is
	 * the parent's: a walker adds it to the element around the one that ended (xml_walk.c). */
	bool		text_on_end;
	/* The same for the text right after a start tag (an element's first text, before any child
	 * element): on that START event (its text / text_len, in the document); a piece that does
	 * not continue it there comes as a TEXT event after the START.  The text is the element's
	 * own: a reader of the events joins it with the TEXTs that follow. */
	bool		text_on_start;
} sd_xr_options;

/* Opens a reader over doc[0..len) (borrowed: it must outlive the reader).  NULL with err on a
 * limit (SD_E_SIZE), a NUL byte (SD_E_XML_SYNTAX) or OOM.  Errors are XML errors (err->doc
 * SD_DOC_XML) with line and column where known. */
sd_xreader *sd_xr_open(const sd_hooks *hooks, const char *doc, size_t len,
					   const sd_xr_options *opt, sd_error *err);

/* 1: the next event in *ev; 0: the document ended, complete and well-formed (after the root's
 * END); -1: err set (SD_E_XML_SYNTAX with libxml2's problem, line and column; SD_E_DEPTH;
 * SD_E_NOMEM).  After -1 or 0 every further call returns the same. */
int			sd_xr_next(sd_xreader *r, sd_xev *ev, sd_error *err);

/* sd_xr_next without the copy: *ev points into the reader's queue, valid until the next
 * sd_xr_next, sd_xr_next_ref or sd_xr_peek. */
int			sd_xr_next_ref(sd_xreader *r, const sd_xev **ev, sd_error *err);

/* Whether the next sd_xr_next will hand out an event already queued: the strings of the
 * events handed out so far then stay where they are (no chunk is fed before it). */
static inline bool
sd_xr_queued(const sd_xreader *r)
{
	const sd_xr_head *h = (const sd_xr_head *) r;	/* the reader begins with its head */

	return h->state == 0 && h->qpos < h->qlen;
}

/* Lookahead without consuming: the event n places after the one sd_xr_next would return next
 * (n = 0: that one), valid until the next sd_xr_next or sd_xr_peek.  Reads on past the current
 * batch when it must (the events not yet handed out stay queued).  1: *ev; 0: the document has
 * no such event; -2: the lookahead reached its bound (256 chunks, 16 MB by default); -1: the
 * document failed (err, as sd_xr_next would give it). */
int			sd_xr_peek(sd_xreader *r, uint32_t n, const sd_xev **ev, sd_error *err);

/* 1-based line and column (characters) of byte offset `offset` of the document, counted when
 * asked (the reader counts no position while it reads): forward from the offset located last,
 * from the start when an offset goes backwards. */
void		sd_xr_locate(sd_xreader *r, int64_t offset, uint32_t *line, uint32_t *column);

/* The document the reader reads (for verbatim captures between event offsets). */
const char *sd_xr_document(const sd_xreader *r, size_t *len);

/* Counts `units` of work or bytes a caller makes from the document beyond reading it (the
 * namespace declarations added to xml columns' elements, xml_capture.c): false, counting
 * nothing, once the total would pass 8 times the document's length plus 1 MB — so that
 * nothing grows faster than the document. */
bool		sd_xr_account(sd_xreader *r, size_t units);

/* Reads the rest of the document: 0 when it ends complete and well-formed, -1 with err (as
 * sd_xr_next, or SD_E_CANCELED when hooks->should_stop, polled every 4096 events, said so). */
int			sd_xr_drain(sd_xreader *r, sd_error *err);

/* The whole document read through: true when it is well-formed XML within the limits. */
bool		sd_xml_check_document(const sd_hooks *hooks, const char *doc, size_t len,
								  const sd_limits *limits, sd_error *err);

/* XML's line-end normalisation of s[0..n) in place (CR LF and a lone CR become LF); a final
 * CR is dropped instead when last_cr_pairs (an LF follows it beyond s).  The new length. */
size_t		sd_xml_eol(char *s, size_t n, bool last_cr_pairs);

/* Batches (xml_each.c): the events read before a failure are handed out before the failure
 * (by default they are dropped: the failure decides a document's outcome), so that the items
 * before malformed XML are still read. */
void		sd_xr_keep_queued(sd_xreader *r);

/* Frees the reader and libxml2's parser (safe with NULL). */
void		sd_xr_close(sd_xreader *r);

#endif							/* SERDE_XML_READ_H */
