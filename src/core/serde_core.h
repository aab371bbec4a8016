/*
 * serde_core.h — the public API of serde's host-neutral core.
 *
 * The core knows nothing of PostgreSQL or SQLite.  A host (adapter) hands in:
 *   - a description of the target type (sd_type tree),
 *   - the shape's options as JSON text,
 *   - hooks: allocation that returns NULL on failure, and should_stop().
 * and gets back:
 *   - a compiled plan (sd_plan, an immutable tree of sd_node/sd_field), built once; nothing
 *     writes into it afterwards (per-document state lives in the decoder), so a plan may be
 *     shared by several decoders, also in several threads, and its memory may be read-only,
 *   - for each document, a value tape (sd_val array) that mirrors the plan, or an sd_error.
 *
 * Lifetimes (explicit, yyjson/PCRE2 style):
 *   sd_compile()  -> sd_plan*      freed by sd_plan_free(); borrows the sd_type tree, which
 *                                  the host keeps alive at least as long as the plan.
 *   sd_decoder_create() -> decoder reused for many documents; the tape and every pointer in it
 *                                  (strings, bytes) stay valid until the next decode call on
 *                                  the same decoder or sd_decoder_destroy().
 * The core never longjmps, exits or throws: every failure is a return value plus sd_error.
 */
#ifndef SERDE_CORE_H
#define SERDE_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                     */
/* ------------------------------------------------------------------------------------------ */

typedef enum sd_code
{
	SD_OK = 0,
	SD_E_SYNTAX,        /* 22P02 malformed JSON */
	SD_E_KIND,          /* 22032 wrong kind, bad scalar text, unknown enum label, non-integral */
	SD_E_MISSING,       /* 2203A missing required member */
	SD_E_UNKNOWN,       /* 2203E unknown member under unknown: reject */
	SD_E_DUPLICATE,     /* 22030 duplicate mapped member */
	SD_E_RANGE,         /* 22003 number out of range, numeric precision/scale */
	SD_E_DATETIME,      /* 22008 impossible or out-of-range date/timestamp */
	SD_E_LENGTH,        /* 22001 string too long */
	SD_E_NOTNULL,       /* 23502 null where not nullable */
	SD_E_CHECK,         /* 23514 domain CHECK (raised by hosts) */
	SD_E_DEPTH,         /* 54001 nesting deeper than max_depth (or the stack budget) */
	SD_E_SIZE,          /* 54000 document larger than max_document_bytes */
	SD_E_OPTIONS,       /* 22023 bad registration options */
	SD_E_NOMEM,         /* 53200 allocation failed */
	SD_E_CANCELED,      /* 57014 should_stop() returned true */
	SD_E_XML_SYNTAX,    /* 2200M malformed XML */
	SD_E_XML_KIND,      /* 2200N XML content does not fit */
	SD_E_UNSUPPORTED,   /* 0A000 a shape feature this input format does not support (SQLite:
						 * SQLITE_ERROR) */
	SD_E_INTERNAL       /* XX000 a bug in serde */
} sd_code;

#define SD_PATH_MAX     512
#define SD_PROBLEM_MAX  384
/* Shape names are at most this many bytes (NAMEDATALEN - 1, like PostgreSQL's own names): they
 * head every message ("<shape>: <path>: <problem>"). */
#define SD_SHAPE_NAME_MAX 63

/* The kind of document an error is about: it decides the path syntax (jsonpath / XPath), the
 * location (byte offset / line and column) and, for two problems, the SQLSTATE (docs/reference.md, "Errors"). */
typedef enum sd_doc
{
	SD_DOC_JSON = 0,
	SD_DOC_XML
} sd_doc;

typedef struct sd_error
{
	sd_code		code;
	int64_t		offset;                 /* 0-based byte offset into the document, -1 if none */
	uint32_t	line;                   /* 1-based line and column of the location, 0 if none (XML;
										 * JSON once a host located it: sd_error_locate_json) */
	uint32_t	column;
	uint8_t		doc;                    /* sd_doc */
	char		path[SD_PATH_MAX];      /* jsonpath ("$.a[3].b"), XPath ("/a/b[2]/@c") or option path */
	char		problem[SD_PROBLEM_MAX];/* e.g. expected integer, found string "12.5" */
} sd_error;

/* The five-character SQLSTATE of a code ("22P02"). */
const char *sd_code_sqlstate(sd_code code);
/* A short stable name for a code ("syntax", "kind", ...). */
const char *sd_code_name(sd_code code);

/* The code of a problem in a document of that kind: a wrong kind (22032) and malformed input
 * (22P02) are 2200N and 2200M in XML; every other code is the same for both. */
sd_code		sd_code_for_doc(sd_code code, sd_doc doc);

/* The one formatter of messages: "<shape>: <path>: <problem>" into buf (NUL-terminated, cut to a
 * whole UTF-8 character); an empty path is left out ("<shape>: <problem>").  Returns the length. */
size_t		sd_message(char *buf, size_t size, const char *shape, const char *path,
					   const char *problem);
/* sd_message of an error. */
size_t		sd_error_message(const sd_error *err, const char *shape, char *buf, size_t size);
/* Where the error is, for a DETAIL line: "at line 1, column 13, byte offset 12" (JSON text once
 * located, else "at byte offset 12"), "at line 3, column 7" (XML), or "" when the error has no
 * location (jsonb, options).  Returns the length. */
size_t		sd_error_location(const sd_error *err, char *buf, size_t size);
/* The 1-based line (1 + LFs before) and column (1 + UTF-8 characters since the last LF) of byte
 * `offset` of JSON text doc[0..len); 0, 0 for a NULL doc or a negative offset.  Linear in the
 * offset: for errors that are reported, never on the success path. */
void		sd_json_locate(const char *doc, size_t len, int64_t offset, uint32_t *line,
						   uint32_t *column);
/* Sets err->line / err->column of a JSON error with an offset into doc[0..len) (sd_json_locate);
 * other errors are left alone. */
void		sd_error_locate_json(sd_error *err, const char *doc, size_t len);

void		sd_error_clear(sd_error *err);
/* Sets code, offset and problem (printf-style); leaves path alone. Returns false. */
bool		sd_error_set(sd_error *err, sd_code code, int64_t offset, const char *fmt, ...)
			__attribute__((format(printf, 4, 5)));

/* jsonpath building: append ".name" (or ."quoted name") / "[i]" to a NUL-terminated buffer of
 * SD_PATH_MAX bytes; a path that no longer fits ends in "..." and stays valid C. */
void		sd_path_member(char *path, const char *name, size_t len);
void		sd_path_index(char *path, uint64_t index);
/* XPath building (paths start empty; "/" alone is the document): "/prefix:local" with "[n]" when
 * position > 0 (1-based, for repeated elements), "/@prefix:local" for an attribute, "/text()".
 * Prefixes are written as the document writes them (plen 0: none). */
void		sd_xpath_element(char *path, const char *prefix, size_t plen, const char *local,
							 size_t llen, uint64_t position);
void		sd_xpath_attribute(char *path, const char *prefix, size_t plen, const char *local,
							   size_t llen);
void		sd_xpath_text(char *path);

/* Appends a quoted, 40-character-cut rendering of a document value to buf ("string \"12.5\"",
 * "number 1.5", "object", "array", "true", "null"). */
void		sd_describe_found(char *buf, size_t bufsize, const char *json_token, size_t len);
/* The same for XML text content: "text \"12x\"" (40-character cut), "empty text" for none. */
void		sd_describe_text(char *buf, size_t bufsize, const char *text, size_t len);

/* ------------------------------------------------------------------------------------------ */
/* Host hooks                                                                                 */
/* ------------------------------------------------------------------------------------------ */

typedef struct sd_hooks
{
	/* Allocation.  Must return NULL on failure and never longjmp or throw: the decoder calls
	 * these from inside the JSON walker (a C++ frame).  NULL members mean malloc/realloc/free. */
	void	   *(*alloc) (void *ud, size_t size);
	void	   *(*realloc) (void *ud, void *ptr, size_t size);
	void		(*free) (void *ud, void *ptr);
	/* Polled every few thousand values; true stops the decode with SD_E_CANCELED.  Must not
	 * longjmp (PostgreSQL: read InterruptPending, raise after the core returned). */
	bool		(*should_stop) (void *ud);
	void	   *ud;
} sd_hooks;

typedef struct sd_limits
{
	uint32_t	max_depth;          /* the root value is at depth 1; default 512 */
	uint64_t	max_document_bytes; /* default 1 GB */
	size_t		stack_budget;       /* bytes of C stack the decoder may use; 0 = 1 MB */
} sd_limits;

#define SD_DEFAULT_MAX_DEPTH 512
#define SD_DEFAULT_MAX_DOCUMENT_BYTES ((uint64_t) 1024 * 1024 * 1024)

/* ------------------------------------------------------------------------------------------ */
/* Type descriptions, handed in by the host                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef enum sd_kind
{
	SD_K_TEXT,          /* text, varchar(n), char(n) (max_chars) */
	SD_K_INT2,
	SD_K_INT4,
	SD_K_INT8,
	SD_K_FLOAT4,
	SD_K_FLOAT8,
	SD_K_NUMERIC,       /* precision/scale, -1 when unconstrained */
	SD_K_BOOL,
	SD_K_TIMESTAMPTZ,
	SD_K_TIMESTAMP,
	SD_K_DATE,
	SD_K_TIME,
	SD_K_UUID,
	SD_K_BYTEA,
	SD_K_ENUM,
	SD_K_JSON,          /* json: raw text kept */
	SD_K_JSONB,
	SD_K_ARRAY,         /* elem */
	SD_K_COMPOSITE,     /* cols */
	SD_K_OTHER          /* a JSON string handed to the host's input function */
} sd_kind;

typedef struct sd_type sd_type;

typedef struct sd_column
{
	const char *name;
	const sd_type *type;
} sd_column;

struct sd_type
{
	sd_kind		kind;
	const char *name;           /* as SQL prints it: "integer", "character varying(20)", "invoice" */
	int32_t		max_chars;      /* SD_K_TEXT: n of varchar(n)/char(n); -1 = unlimited */
	int16_t		precision;      /* SD_K_NUMERIC typmod, -1 = unconstrained */
	int16_t		scale;
	bool		not_null;       /* a domain (somewhere in the chain) is NOT NULL */
	const sd_type *elem;        /* SD_K_ARRAY: element type */
	uint8_t		max_dims;       /* SD_K_ARRAY: a host array of that many dimensions at most
								 * (PostgreSQL: 6 for scalar elements), read from nested JSON
								 * arrays (rectangular); 0: a list (one dimension) */
	int			ncols;          /* SD_K_COMPOSITE: live columns in order */
	const sd_column *cols;
	int			nlabels;        /* SD_K_ENUM: labels in sort order */
	const char *const *labels;
	void	   *host;           /* host-private (PostgreSQL: type oid, typmod, I/O info) */
	const int  *label_order;    /* SD_K_ENUM, optional: label indexes in strcmp order, so that
								 * a label is found by binary search (else a linear scan) */
};

/* ------------------------------------------------------------------------------------------ */
/* Plans                                                                                      */
/* ------------------------------------------------------------------------------------------ */

typedef enum sd_format
{
	SD_FMT_NONE = 0,
	SD_FMT_RFC3339,
	SD_FMT_UNIX,
	SD_FMT_UNIX_MS,
	SD_FMT_BASE64,
	SD_FMT_BASE64URL,
	SD_FMT_HEX,
	SD_FMT_RFC2822,
	SD_FMT_ISO8601,
	SD_FMT_BASE64_MIME,
	SD_FMT_PATTERN              /* the node's `pattern` (scalar_time.h) */
} sd_format;

typedef struct sd_tspattern sd_tspattern;   /* private: a compiled timestamp pattern */

typedef struct sd_node sd_node;
typedef struct sd_members sd_members;   /* private: member lookup of a composite */

/* XML (docs/reference.md, "XML names"), resolved at compile time: a walker never interprets options.  A name is a
 * namespace URI (NULL: no namespace) and a local name (an NCName). */
typedef enum sd_xml_kind
{
	SD_XML_ELEMENT = 0,         /* a child element (the default) */
	SD_XML_ATTRIBUTE,           /* an attribute of the element (of the last `path` step's) */
	SD_XML_TEXT                 /* the element's own character data */
} sd_xml_kind;

typedef struct sd_xml_name
{
	const char *ns;             /* namespace URI, NULL = none */
	const char *local;          /* NULL = no such name */
} sd_xml_name;

/* `one_of` (docs/reference.md, "Untagged unions (one_of)"): the field that carries it reads the
 * member; its value goes to the column listed for the value's kind, the group's other columns
 * are NULL.  Columns are given relative to the carrying field, so that a copy of the fields (a
 * union's merged variant) keeps them: the field of kind k is (&carrier)[off[k]]. */
typedef enum sd_one_kind
{
	SD_ONE_STRING = 0,
	SD_ONE_NUMBER,
	SD_ONE_BOOLEAN,
	SD_ONE_OBJECT,
	SD_ONE_ARRAY,
	SD_ONE_KINDS
} sd_one_kind;

typedef struct sd_one_of
{
	const char *carrier;        /* the column that reads the member */
	uint8_t		kinds;          /* a bit (1 << sd_one_kind) per kind listed */
	int32_t		off[SD_ONE_KINDS];  /* the kind's column, relative to the carrier's field */
	const char *cols[SD_ONE_KINDS]; /* ... and its name */
	int32_t		default_off;    /* the column the carrier's default selects, relative */
} sd_one_of;

typedef struct sd_field
{
	int			col;            /* index into type->cols */
	const char *column;         /* column name */
	const char *name;           /* document member name (== path[npath-1]) */
	int			npath;          /* >= 1 */
	const char *const *path;
	bool		optional;
	bool		nullable;
	bool		skip;
	bool		is_extra;       /* this column receives the object of unmapped members */
	bool		has_default;
	const char *default_json;   /* JSON text of the default as written (serde_describe) */
	int			default_index;  /* 0..plan ndefaults-1: sd_plan_default_value */
	const sd_node *node;        /* how the member's value decodes */
	/* XML: the field's names with their namespaces resolved (`{uri}local`, or the name in the
	 * namespace in force for elements, no namespace for attributes).  xml == xml_path[npath-1];
	 * xml.local NULL: text, or a mapped field whose name is no XML name (never found in XML;
	 * xml_path NULL then).  Skipped, extra and variant columns have no XML names. */
	sd_xml_kind	xml_kind;
	sd_xml_name	xml;
	const sd_xml_name *xml_path;    /* npath steps: elements, then the field's own */
	sd_xml_name	xml_item;       /* a wrapped list's item element; local NULL: repeated elements */
	const sd_one_of *one_of;    /* the `one_of` group the column carries or is listed in */
	/* XML authoring (docs/reference.md, "XML names"): `xml: "presence"` (a boolean: the element
	 * is there; absent is false, in JSON too), and `xml_choice`: the element names of a list of
	 * a union's variants (nxml_choice of them; the element's local name is the tag value) */
	bool		xml_presence;
	int			nxml_choice;
	const sd_xml_name *xml_choice;
} sd_field;

/* Where each inherited policy in force at a node was set (serde_describe): "Shape" (the shape's
 * own options) or "Shape at $.fields.detail" (inline or field options at that option path);
 * NULL: set nowhere (the default).  Interned per plan: equal origins are one pointer. */
typedef struct sd_policy_from
{
	const char *rename;
	const char *unknown;
	const char *coerce;
	const char *optional;
} sd_policy_from;

struct sd_node
{
	sd_kind		kind;
	const sd_type *type;
	sd_format	format;         /* timestamps: NONE/RFC3339/UNIX/UNIX_MS; bytea: NONE/BASE64/... */
	const sd_tspattern *pattern;    /* SD_FMT_PATTERN: the compiled pattern (never shared by
									 * two fields: such nodes are built fresh) */
	bool		coerce;
	bool		reject_unknown;
	bool		all_optional;   /* shape-level "optional" in force here */
	const char *rename;         /* "camel", "pascal", "kebab", "upper" or NULL */
	const char *shape;          /* registered shape this node was compiled from, or NULL */
	const struct sd_policy_from *from;  /* where rename/unknown/coerce/optional were set */
	/* SD_K_COMPOSITE */
	int			nfields;        /* == type->ncols; fields[i].col == i */
	const sd_field *fields;
	int			extra_col;      /* column receiving unmapped members, or -1 */
	const sd_members *members;
	/* the same members by their XML keys (kind, namespace, local name; `path` steps as groups of
	 * elements, the text as a member named ""), for XML walkers */
	const sd_members *xml_members;
	/* discriminated union (SD_K_COMPOSITE with `tag`): the tag member's value selects one
	 * variant column (a composite decoding the same object); the other variant columns are NULL */
	const char *tag;
	/* the tag as the document names it (sd_resolve_tag): JSON name, XML local name and where
	 * XML may write it (SD_TAG_ATTRIBUTE / SD_TAG_ELEMENT bits) */
	const char *tag_name;
	const char *tag_xml;
	uint8_t		tag_find;
	int			nvariants;
	const struct sd_variant *variants;
	/* SD_K_ARRAY (elements), or SD_K_JSON/JSONB validated against a shape (the shape's node) */
	const sd_node *elem;
	bool		is_map;         /* SD_K_ARRAY of (key text, value T) composites read from an object */
	/* XML: the namespace of this node's elements, inherited from the element holding it unless
	 * its shape's xml.namespace names another (NULL = none); and its shape's xml.root (local
	 * NULL: none given; only the plan root's is a requirement, sd_plan_xml_root). */
	const char *xml_ns;
	sd_xml_name	xml_root;
	/* `xml.namespaces`: the other namespaces its elements may be in (matched as xml_ns) */
	int			nxml_alt;
	const char *const *xml_alt;
};

typedef struct sd_variant
{
	const char *value;          /* tag value */
	int			col;            /* the variant column */
	const sd_node *merged;      /* private: the object's members plus the variant's */
	/* private: an `xml_choice` element of this variant: merged's XML members without the tag
	 * (the element's name is the tag), and the column that receives the tag (-1 none) */
	const sd_members *xml_choice_members;
	int			tag_col;
} sd_variant;

typedef struct sd_plan sd_plan;

/* Resolves a shape named by a `shape` option: its options JSON and target type.  Returns false
 * with err set (SD_E_OPTIONS) when it does not exist.  The host records the dependency.  A host
 * that checks the reference later returns true with *options_json NULL: the column then compiles
 * as if it had no `shape` (a plan for validation only; a default on it is not checked). */
typedef struct sd_resolver
{
	bool		(*resolve) (void *ud, const char *shape, const char **options_json,
							const sd_type **target, sd_error *err);
	void	   *ud;
	/* Optional (NULL: none): the shape a nested composite of type t without a `shape` option
	 * decodes by (docs/reference.md, "Nested composites"): *shape_name NULL for none, else a
	 * name `resolve` knows.  false with err->problem set when t has several (the compiler
	 * reports it at the field's option path, SD_E_OPTIONS).  Never called for the root. */
	bool		(*resolve_type) (void *ud, const sd_type *t, const char **shape_name,
								 sd_error *err);
} sd_resolver;

/* Compiles options (JSON text of §3) for a target type.  Returns NULL with err set: SD_E_OPTIONS
 * with err->path the option's path ("$.fields.total.default"), or SD_E_NOMEM.  Defaults are
 * checked against their column (kind, range, length, labels) here. */
sd_plan    *sd_compile(const char *shape_name, const char *options_json, size_t options_len,
					   const sd_type *target, const sd_hooks *hooks, const sd_resolver *resolver,
					   sd_error *err);
/* The same with a bound on the plan's memory (sd_compile: SD_DEFAULT_MAX_PLAN_BYTES): a plan that
 * would grow beyond max_plan_bytes fails with SD_E_SIZE.  A type reached again under the same
 * inherited policy shares its node, so a plan grows with the number of distinct (type, policy)
 * pairs, not with the number of paths through the type graph.  hooks->should_stop is polled
 * while compiling (SD_E_CANCELED). */
#define SD_DEFAULT_MAX_PLAN_BYTES ((size_t) 64 * 1024 * 1024)
sd_plan    *sd_compile_ex(const char *shape_name, const char *options_json, size_t options_len,
						  const sd_type *target, const sd_hooks *hooks,
						  const sd_resolver *resolver, size_t max_plan_bytes, sd_error *err);
/* A compiled plan's release and accessors (plan.c). */
void		sd_plan_free(sd_plan *plan);
const sd_node *sd_plan_root(const sd_plan *plan);
const char *sd_plan_shape(const sd_plan *plan);
size_t		sd_plan_bytes(const sd_plan *plan);
int			sd_plan_ndefaults(const sd_plan *plan);
const sd_field *sd_plan_default(const sd_plan *plan, int index);
/* The root element an XML document must have (the shape's xml.root; local NULL: any). */
const sd_xml_name *sd_plan_xml_root(const sd_plan *plan);
/* JSON text describing the compiled shape (serde_describe); malloc'd through hooks; NULL on OOM. */
char	   *sd_plan_describe(const sd_plan *plan, size_t *len);

/* ------------------------------------------------------------------------------------------ */
/* The value tape                                                                             */
/* ------------------------------------------------------------------------------------------ */

typedef enum sd_vtag
{
	SD_V_NULL,          /* JSON null, a missing optional member, or a skipped column */
	SD_V_DEFAULT,       /* missing member with a default: len = field default_index */
	SD_V_BOOL,          /* u.b */
	SD_V_INT,           /* u.i (range already checked for the column's kind) */
	SD_V_FLOAT,         /* u.f (float4 range already checked) */
	SD_V_STR,           /* u.s/len: unescaped UTF-8 (text, enum-less strings, OTHER) */
	SD_V_NUMERIC,       /* u.s/len: a valid JSON number literal, precision/scale checked (more
						 * than 18 digits, or a display scale above 18: else SD_V_DECIMAL) */
	SD_V_TIMESTAMP,     /* u.i: microseconds since 1970-01-01 00:00:00 (UTC for timestamptz) */
	SD_V_DATE,          /* u.i: days since 1970-01-01 */
	SD_V_TIME,          /* u.i: microseconds since midnight */
	SD_V_UUID,          /* u.bytes: 16 bytes */
	SD_V_BYTES,         /* u.bytes/len: decoded bytea */
	SD_V_ENUM,          /* u.i: index into type->labels */
	SD_V_JSON,          /* u.s/len: the JSON text of the value (validated) */
	SD_V_ARRAY,         /* u.first/len: elements at tape[first .. first+len) */
	SD_V_ROW,           /* u.first/len: columns at tape[first .. first+len), len == ncols */
	SD_V_DECIMAL        /* an exact numeric of at most 18 digits (after leading zeros) and display
						 * scale <= 18, parsed once: u.i the digits as a signed integer, len &
						 * SD_DECIMAL_SCALE the display scale as numeric_in gives it (fraction
						 * digits written, minus the exponent if any, at least 0: "1.5e3" is
						 * 1500, "15e-1" 1.5), len & SD_DECIMAL_NEG a '-' was written (for -0);
						 * value u.i * 10^-scale, precision/scale checked; sd_format_decimal
						 * writes it as numeric's output does.  Other numerics stay SD_V_NUMERIC */
} sd_vtag;

#define SD_DECIMAL_SCALE	0x0000ffffu
#define SD_DECIMAL_NEG		0x80000000u

typedef struct sd_val
{
	uint8_t		tag;
	uint32_t	len;
	uint32_t	offset;         /* byte offset of the value in the document */
	uint32_t	aux;            /* SD_V_JSON of a jsonb column read from text: 1 + the index of
								 * its first event (sd_decoder_events), 0 = none */
	union
	{
		bool		b;
		int64_t		i;
		double		f;
		const char *s;
		const uint8_t *bytes;
		uint32_t	first;
	}			u;
} sd_val;

/* The value of default `index` (a missing member with it is SD_V_DEFAULT, len = index), compiled
 * once by sd_compile: tape[*root] of a tape the plan owns, laid out as a decoded document's (a
 * member missing inside it is SD_V_DEFAULT of its own default; json/jsonb values are their text,
 * aux 0; offsets 0).  A host converts it into its own value at each use, or once when nothing of
 * the using statement can change that.  NULL when the default was not compiled: a plan whose
 * shape references the host deferred. */
const sd_val *sd_plan_default_value(const sd_plan *plan, int index, uint32_t *root);

/* ------------------------------------------------------------------------------------------ */
/* Decoding                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct sd_decoder sd_decoder;

sd_decoder *sd_decoder_create(const sd_hooks *hooks);
void		sd_decoder_destroy(sd_decoder *d);

/* Decodes one JSON document (any bytes: it is validated in full, RFC 8259) against `node` (the
 * plan root, or any node of it — e.g. a field's node to check a default; a composite node of
 * another plan fails with SD_E_INTERNAL).  On success returns true and sets *root to the tape
 * index of the root value.  The decoder keeps its member-order prediction for the last few
 * plans it decoded with (keyed by a plan id that is never reused); the plan is only read. */
bool		sd_decode_json(sd_decoder *d, const sd_plan *plan, const sd_node *node,
						   const char *doc, size_t len, const sd_limits *limits,
						   uint32_t *root, sd_error *err);
const sd_val *sd_decoder_tape(const sd_decoder *d);

/* The JSON of a jsonb column as events, so that a host can build its jsonb without parsing the
 * text again.  The text walker writes them while it validates the value: a scalar is one event;
 * a container is ARRAY or OBJECT, its members (an object's each as KEY then the value), END.
 * STRING and KEY carry the unescaped bytes (s, len), NUMBER the literal as written.  Everything
 * points into the decoder's buffers: valid until its next decode (or next sd_each_next row).
 * A value with more than SD_JEV_MAX events gets none (aux 0): the host parses its text. */
typedef enum sd_jev_kind
{
	SD_JEV_NULL, SD_JEV_FALSE, SD_JEV_TRUE, SD_JEV_NUMBER, SD_JEV_STRING, SD_JEV_KEY,
	SD_JEV_ARRAY, SD_JEV_OBJECT, SD_JEV_END
} sd_jev_kind;

typedef struct sd_jev
{
	uint32_t	kind;           /* sd_jev_kind */
	uint32_t	len;
	const char *s;
} sd_jev;

#define SD_JEV_MAX (1u << 20)

const sd_jev *sd_decoder_events(const sd_decoder *d);

/* serde_errors: decodes like sd_decode_json but keeps going after a value error (skipping just
 * that value), storing up to max_errors errors in document order into errs.  Returns how many
 * errors were stored (0 = the document is valid; *total, if given, counts all of them).  A
 * malformed document, a limit or a cancel yields exactly that one error. */
int			sd_check_json(sd_decoder *d, const sd_plan *plan, const sd_node *node,
						  const char *doc, size_t len, const sd_limits *limits,
						  sd_error *errs, int max_errors, int *total);

/* The same, keeping what it finds compactly in the decoder (memory grows with the errors kept,
 * never with max_errors): *found gets n entries in document order, their texts and the array
 * valid until the decoder's next decode.  On success *root is the tape index of the root value
 * of a tape that mirrors the plan as in sd_decode_json, with marks in sd_val.aux (no jsonb
 * events then): a value that failed is marked SD_MARK_FAILED (its slot means nothing); one with
 * errors inside it SD_MARK_DIRTY; every value that was read gets its number in completion order
 * (post-order, from 1) in SD_MARK_SEQ, and each sd_found its `seq`, the number of values
 * completed before it was found, so that a host can put its own violations of a value among
 * the core's in document order.  Slots written without reading a value (missing members,
 * defaults, variant columns, map entries and keys, `extra`) have aux 0.  After a malformed
 * document, a limit or a cancel, *found holds that one error and *root is UINT32_MAX. */
typedef struct sd_found
{
	sd_code		code;
	uint32_t	seq;
	int64_t		offset;
	const char *path;
	const char *problem;
} sd_found;

#define SD_MARK_FAILED	0x80000000u
#define SD_MARK_DIRTY	0x40000000u
#define SD_MARK_SEQ		0x3fffffffu

int			sd_check_json_found(sd_decoder *d, const sd_plan *plan, const sd_node *node,
								const char *doc, size_t len, const sd_limits *limits,
								int max_errors, const sd_found **found, int *total,
								uint32_t *root);


/* Batches (each.c): a JSON array (first non-blank byte '[') or newline-delimited JSON (blank
 * lines skipped; empty input -> no items), one item at a time against `node` (the item's node).
 * The input is NOT copied: the caller keeps doc[0..len) alive and unchanged until the batch ended
 * (a call returned 0, -1 or 3); each item is copied with padding as it is read, so memory is
 * bounded by the largest item.  Limits of the whole input (serde.max_document_bytes) fail
 * sd_each_begin; the depth of an array element counts the array.  Offsets, in errors and in the
 * tape, count from the start of the whole input; paths name the item: "$[41].id" (0-based array
 * index) or "line 42: $.id" (1-based line).  Tape values of one item stay valid until the next
 * call.  After SD_E_CANCELED (-1) the next call retries that item.
 *   sd_each_next:   1 with *root, 0 at the end, -1 with err on the first error (the batch ends).
 *   sd_each_triage: 1 a good item (*root), 2 a bad item (err: its first error; the batch goes
 *                   on), 3 malformed JSON ends an array (err: the first syntax error of the rest,
 *                   the last item), 0 at the end, -1 no item's problem (cancel, out of memory,
 *                   an unsupported feature, a bug): err, the batch ends.
 *   sd_each_check:  every error of the next item, as sd_check_json_found (found[0..*n), paths as
 *                   above, *root the item's marked tape, UINT32_MAX after a fatal error): returns
 *                   1 (valid item, *n 0), 2 (item with errors), 3 (malformed rest, one entry),
 *                   0 (end) or -1 (one entry: cancel, out of memory, ...; the batch ends). */
bool		sd_each_begin(sd_decoder *d, const sd_plan *plan, const sd_node *node,
						  const char *doc, size_t len, const sd_limits *limits, sd_error *err);
int			sd_each_next(sd_decoder *d, uint32_t *root, sd_error *err);
int			sd_each_triage(sd_decoder *d, uint32_t *root, sd_error *err);
/* For the batches sd_each_begin begins after this call on d: a JSON array of at most max_bytes
 * (0: none, the default) may be parsed whole, once, instead of element by element (faster for
 * small elements; memory then grows with the array, hence the bound).  Items, rows, paths,
 * offsets and errors are the same: at an element the whole parse cannot take (any error, the
 * array's or the element's), the batch goes on element by element from that element.  For
 * sd_each_next / sd_each_triage: a host that calls sd_each_recheck must not set it. */
void		sd_each_set_whole(sd_decoder *d, size_t max_bytes);
int			sd_each_check(sd_decoder *d, int max_errors, const sd_found **found, int *n,
						  int *total, uint32_t *root);
/* sd_each_check of the item sd_each_triage just returned as good (a host's own check of it
 * failed and wants its errors); the batch's position stays where it is. */
int			sd_each_recheck(sd_decoder *d, int max_errors, const sd_found **found, int *n,
							int *total, uint32_t *root);
/* The XML form (xml_each.c): the document's root element is the batch, each child element an
 * item (1-based numbers, sd_each_item), decoded as sd_decode_xml decodes a document whose root
 * is that element; children not named as the plan's `xml.root` (when set) are skipped.  Paths
 * are XPath from the batch's root ("/Batch/Item[3]/Size", the position among the root's
 * children of that name), errors carry line and column; offsets count in the whole document.
 * Then sd_each_next / sd_each_triage / sd_each_check / sd_each_recheck as above; malformed XML
 * (or the reader's depth limit) anywhere is status 3 and ends the batch, the items before it
 * having been returned.  A cancel ends it too (-1: the stream cannot be read again). */
bool		sd_each_begin_xml(sd_decoder *d, const sd_plan *plan, const sd_node *node,
							  const char *doc, size_t len, const sd_limits *limits,
							  sd_error *err);
/* XML batches: the path of the item the last call returned ("/Batch/Item[3]"; "" for none),
 * path SD_PATH_MAX long. */
void		sd_each_xml_where(const sd_decoder *d, char *path);
/* Ends a batch (a host stopping early: LIMIT); the decoder forgets the borrowed input.  Every
 * other decode on the decoder ends its batch too. */
void		sd_each_reset(sd_decoder *d);
/* The number of the item the last call was about: an array element's 0-based index, an NDJSON
 * line's 1-based number (as in the paths). */
uint64_t	sd_each_item(const sd_decoder *d);
/* The row sd_each_next last returned: NDJSON: its 1-based line number and the byte offset where
 * that line starts; array: its 0-based index in *line and 0.  Returns true for NDJSON. */
bool		sd_each_row(const sd_decoder *d, uint64_t *line, size_t *line_start);
/* Bytes currently held by the decoder's buffers (tape, arena, padded copy, parser). */
size_t		sd_decoder_bytes(const sd_decoder *d);
/* Releases buffers grown beyond `keep` bytes (call after a big document). */
void		sd_decoder_trim(sd_decoder *d, size_t keep);

/* ------------------------------------------------------------------------------------------ */
/* For host-side walkers (PostgreSQL's jsonb): arena, member tables, scalar conversion         */
/* ------------------------------------------------------------------------------------------ */

/* ---- chunk arena: bump allocation over hook-allocated blocks that never move ------------- */
typedef struct sd_chunk sd_chunk;
typedef struct sd_arena
{
	sd_hooks	hooks;
	sd_chunk   *head;           /* current block (list through ->next, newest first) */
	size_t		bytes;          /* bytes held in blocks */
} sd_arena;

void		sd_arena_init(sd_arena *a, const sd_hooks *hooks);
void	   *sd_arena_alloc(sd_arena *a, size_t size);   /* 8-aligned, NULL on OOM */
char	   *sd_arena_strndup(sd_arena *a, const char *s, size_t n);
void		sd_arena_reset(sd_arena *a);    /* keeps the newest block, frees the others */
void		sd_arena_free(sd_arena *a);

/* For walkers in serde_errors' mode (also the host's jsonb walker): keeps err (texts copied into
 * arena) in *found (grown through hooks) when fewer than max are kept; false on OOM. */
bool		sd_found_add(const sd_hooks *hooks, sd_arena *arena, sd_found **found,
						 uint32_t *cap, int *n, int max, uint32_t seq, const sd_error *err);
/* The mark of a value just read (ok: it did not fail; errors_before: errors found before it
 * began, errors_now: after it); *values counts the values completed (saturating). */
uint32_t	sd_mark_value(bool ok, int errors_before, int errors_now, uint32_t *values);

void	   *sd_hook_alloc(const sd_hooks *h, size_t size);
void	   *sd_hook_realloc(const sd_hooks *h, void *p, size_t size);
void		sd_hook_free(const sd_hooks *h, void *p);

typedef enum sd_jkind
{
	SD_J_NULL, SD_J_FALSE, SD_J_TRUE, SD_J_NUMBER, SD_J_STRING, SD_J_ARRAY, SD_J_OBJECT
} sd_jkind;

/* ---- compiled composites ------------------------------------------------------------------ */
#define SD_MEMBER_GROUP (-1)
#define SD_MEMBER_TAG (-2)
#define SD_TAG_ATTRIBUTE 1u     /* sd_node.tag_find: XML may write the tag as an attribute */
#define SD_TAG_ELEMENT	2u      /* ... or as a child element */

typedef struct sd_member
{
	const char *name;
	uint32_t	len;
	uint32_t	hash;
	uint64_t	prefix;         /* the name's first min(len, 8) bytes, zero-padded (raw compare) */
	bool		plain;          /* no '"' or '\\' in the name: it appears verbatim in JSON text */
	int			field;          /* leaf: index into the node's fields; SD_MEMBER_GROUP for a path
								 * prefix, SD_MEMBER_TAG for a union's tag */
	const sd_members *group;    /* path prefix: a nested object of members */
	bool		group_required; /* some field below the prefix is required */
	const char *group_column;   /* a column below the prefix (for messages) */
	/* XML tables (sd_node.xml_members): the key is (xml_kind, ns, name); name "" for the text */
	uint8_t		xml_kind;       /* sd_xml_kind */
	bool		flat;           /* a list of repeated elements: occurrences accumulate, none = [] */
	const char *ns;             /* namespace URI, NULL = none */
	uint32_t	ns_len;
	int16_t		choice;         /* an `xml_choice` name: the variant it selects, else -1 */
	bool		choice_more;    /* ... not the field's first name (its list is finished once) */
} sd_member;

struct sd_members
{
	int			n;
	const sd_member *m;
	uint32_t	mask;           /* table size - 1 */
	const int16_t *table;       /* hash slot -> member index, -1 empty */
	const int16_t *by_length;   /* member indices, shorter names first, then bytewise: the order
								 * in which jsonb stores an object's keys (a host's walker merges) */
	/* Where this table's n + 1 slots of key-order prediction start in the decoder's per-plan
	 * array (the JSON walker's; the plan itself is never written after compile). */
	uint32_t	follow_at;
	bool		any_flat;       /* some member (a group's too) is a list of repeated elements */
	bool		xml_text;       /* XML: some member is the element's text (SD_XML_TEXT) */
	/* The members' names by sd_key_filter_bit: a key whose bit is clear is no member (a
	 * walker may then skip its hash: object_next's SD_KEY_FILTER) */
	uint64_t	key_filter;
};

/* A name's bit in sd_members.key_filter: its length and its first and last bytes. */
static inline unsigned
sd_key_filter_bit(const char *s, size_t len)
{
	if (len == 0)
		return 0;
	return (unsigned) ((size_t) (unsigned char) s[0] * 7u + (size_t) (unsigned char) s[len - 1] * 3u +
					   len * 13u) & 63u;
}

uint32_t	sd_hash_name(const char *s, size_t len);
int			sd_members_find(const sd_members *ms, const char *name, size_t len, uint32_t hash);
/* An XML table's member of key (kind, ns, local name); hash = sd_hash_name(local, len). */
int			sd_members_find_xml(const sd_members *ms, uint8_t kind, const char *ns, size_t ns_len,
								const char *name, size_t len, uint32_t hash);

/* ---- scalar conversion (scalar_to_tape.c), shared by the input walkers -------------------------- */
/* Each sets out (tag, payload; not offset) or fails with err->code/problem (err->offset is
 * left as the caller set it; the caller adds the path). */
bool		sd_convert_string(sd_arena *arena, const sd_node *n, const char *s, size_t len,
							  sd_val *out, sd_error *err);
bool		sd_convert_number(const sd_node *n, const char *lit, size_t len, sd_val *out,
							  sd_error *err);
bool		sd_convert_bool(const sd_node *n, bool b, sd_val *out, sd_error *err);
bool		sd_kind_error(const sd_node *n, sd_jkind found, const char *s, size_t len,
						  sd_error *err);
void		sd_describe_scalar(char *buf, size_t size, sd_jkind kind, const char *s, size_t len);
const char *sd_expected_name(const sd_node *n);
/* "card, bank_account": the tag values of a union, for messages. */
void		sd_variant_list(const sd_node *n, char *buf, size_t size);

/* ---- JSON output: the one string escaper (jescape.c), a growable buffer, canonical JSON (jwrite.c) */

/* The JSON string escaper of serde (describe, paths, `extra` objects, canonical JSON): writes
 * s[0..len) as the contents of a JSON string, without the quotes, into out.  '"' and '\\' get a
 * backslash, the control characters U+0000..U+001F become \u00xx (lower-case hex, also for
 * \n and \t); everything else -- DEL, non-ASCII UTF-8, U+2028/U+2029 -- is copied unchanged.
 * Writes at most cap bytes and whole characters only (an escape, or a UTF-8 sequence as long
 * as its lead byte says, is written whole or not at all; bytes that do not form such a
 * sequence are taken one by one, so a quote or control byte is always escaped).  Returns the bytes written; *consumed (may be NULL) gets the bytes
 * of s they stand for.  cap >= 6 * len always suffices. */
size_t		sd_json_escape(char *out, size_t cap, const char *s, size_t len, size_t *consumed);

/* A growable output buffer over hooks.  Once an allocation failed, `failed` stays set and
 * further writes do nothing.  s is NUL-terminated whenever it is non-NULL. */
typedef struct sd_buf
{
	sd_hooks	hooks;
	char	   *s;
	size_t		len;
	size_t		cap;
	bool		failed;
} sd_buf;

void		sd_buf_init(sd_buf *b, const sd_hooks *hooks);
bool		sd_buf_put(sd_buf *b, const char *s, size_t n);
/* Appends s[0..len) as a quoted JSON string (sd_json_escape). */
bool		sd_buf_string(sd_buf *b, const char *s, size_t len);
void		sd_buf_reset(sd_buf *b);    /* len = 0, keeps the memory, clears failed */
void		sd_buf_free(sd_buf *b);

/* Formatters (no locale, no allocation; each returns the length written, NUL-terminated):
 * timestamp: microseconds since 1970-01-01 -> "2024-01-02T03:04:05Z" / "...05.123456Z"
 *   (6 fraction digits when the microseconds are non-zero; "Z" only when utc; years outside
 *   0000..9999 as ISO 8601 expanded years, "+10000-01-01T..."), out >= SD_FMT_TIMESTAMP_MAX;
 * date: days since 1970-01-01 -> "2024-01-02", out >= SD_FMT_TIMESTAMP_MAX;
 * time: microseconds since midnight -> "03:04:05" / "03:04:05.123456" (24:00:00 allowed);
 * uuid: 16 bytes -> 36 lower-case characters 8-4-4-4-12, out >= 37;
 * float: the fewest significant digits (1..17, float4 1..9) that read back to the same value
 *   (exactly, through the core's own correctly rounded parser), in PostgreSQL's float8out
 *   notation: plain for decimal exponents -4..14 (float4 -4..5), else "1e+20", "1.5e-07";
 *   a valid JSON number ("0.1", "100", "-0"); "null" for NaN and infinities (never decoded
 *   from JSON), out >= 32;
 * base64: RFC 4648 standard alphabet with padding, out >= sd_base64_len(n) + 1. */
#define SD_FMT_TIMESTAMP_MAX 48
size_t		sd_format_timestamp(char *out, int64_t us, bool utc);
size_t		sd_format_date(char *out, int64_t days);
size_t		sd_format_time(char *out, int64_t us);
size_t		sd_format_uuid(char *out, const uint8_t bytes[16]);
size_t		sd_format_float(char *out, double v, bool as_float4);
/* decimal: an SD_V_DECIMAL's literal (u.i, len) -> "-0.050", out >= SD_FMT_TIMESTAMP_MAX */
size_t		sd_format_decimal(char *out, int64_t digits, uint32_t scale_and_sign);
/* numeric (jwrite.c): an SD_V_NUMERIC's literal (a valid JSON number whose limits were checked) appended to
 * b as PostgreSQL's numeric writes it: no exponent, display scale max(0, fraction digits -
 * exponent), no sign on zero ("1.50e1" -> "15.0", "1e-3" -> "0.001", "-0" -> "0") */
bool		sd_numeric_canonical(sd_buf *b, const char *lit, size_t len);
size_t		sd_base64_len(size_t n);
size_t		sd_format_base64(char *out, const uint8_t *bytes, size_t n);

/* The canonical JSON of a decoded value (SQLite's serde_decode, docs/reference.md, "Shapes and descriptors"): objects keyed by
 * column name in column order; integers as numbers; numerics as the literal as validated;
 * floats as sd_format_float; booleans; text, enums (the label), uuid (lower case), bytea
 * (base64), dates, times and timestamps (RFC 3339 UTC, "Z"; a timestamp without time zone
 * has no "Z") as strings; json values as their text without the whitespace between tokens
 * (strings, escapes, numbers and member order as written, duplicates kept); arrays as
 * arrays; maps (`map: true`) as objects key -> value in document order; SD_V_NULL (null,
 * missing optional, skipped, unselected variant) as null; `extra` as its object; a missing
 * member with a default as the default's canonical JSON.  No whitespace between tokens.
 * A default is written from its value compiled with the plan (sd_plan_default_value), so
 * writing a row never parses JSON; sd_jwriter_create returns NULL with err only on SD_E_NOMEM.
 * The plan must outlive the writer.  sd_jwriter_write appends the value at
 * tape[root], decoded against node, to out: false when out failed (out of memory). */
typedef struct sd_jwriter sd_jwriter;

sd_jwriter *sd_jwriter_create(const sd_plan *plan, const sd_hooks *hooks, sd_error *err);
bool		sd_jwriter_write(const sd_jwriter *w, const sd_node *node, const sd_val *tape,
							 uint32_t root, sd_buf *out);
void		sd_jwriter_free(sd_jwriter *w);

/* ---- typed descriptors (descriptor.c): SQLite's serde_register(shape, descriptor) --------- */

/* A descriptor is the shape options of docs/reference.md, "Shape options", plus a "type" for every field:
 *   {"optional": true, "fields": {"id": {"type": "text", "nullable": false},
 *                                 "lines": {"type": {"list": {"shape": "Line"}}}}}
 * Columns are the members of "fields" in the order they are written.  sd_descriptor_build
 * turns it into an sd_type tree (a composite root) and the options with the types taken out,
 * ready for sd_compile; shapes named by {"shape": "Name"} (or by a json column's "shape"
 * option) are looked up through `lookup` and built into the same tree (the same shape is the
 * same sd_type).  The lookup sets *json and *len to the named shape's descriptor (it must stay
 * valid only until the next lookup call) or *json = NULL when there is no such shape, and
 * returns true; false with err set is a host failure (passed on).  Errors: SD_E_OPTIONS with
 * the descriptor path ("$.fields.total.type"; inside an inline object the path through it,
 * "$.fields.d.type.object.fields.x.type") or, inside a referenced shape, the path of the
 * reference with "in shape \"Line\" at $.fields.amount.type: ..."; SD_E_NOMEM.  Everything
 * is allocated through hooks and released by sd_descriptor_free (after the plans built from
 * it: a plan borrows the type tree). */
typedef struct sd_descriptor sd_descriptor;

typedef struct sd_descriptor_lookup
{
	bool		(*lookup) (void *ud, const char *shape, const char **json, size_t *len,
						   sd_error *err);
	void	   *ud;
} sd_descriptor_lookup;

sd_descriptor *sd_descriptor_build(const char *shape, const char *json, size_t len,
								   const sd_descriptor_lookup *lookup, const sd_hooks *hooks,
								   sd_error *err);
void		sd_descriptor_free(sd_descriptor *d);
const sd_type *sd_descriptor_type(const sd_descriptor *d);
/* The options for sd_compile (NUL-terminated JSON), and a resolver for its shape references. */
const char *sd_descriptor_options(const sd_descriptor *d, size_t *len);
const sd_resolver *sd_descriptor_resolver(const sd_descriptor *d);
/* The shapes the tree was built from: 0 is the shape itself, then every shape it refers to,
 * directly or indirectly (for the host's dependency tracking); inline objects ({"object": D},
 * read as private shapes "\001obj:N") are not among them. */
int			sd_descriptor_nshapes(const sd_descriptor *d);
const char *sd_descriptor_shape(const sd_descriptor *d, int i);
/* sd_compile with the above; an error inside a referenced shape carries descriptor paths
 * ("$.fields.price.type", not the "$.fields.price.shape" of the options sd_compile sees). */
sd_plan    *sd_descriptor_compile(const sd_descriptor *d, const sd_hooks *hooks, sd_error *err);

/* Name of the SIMD kernel chosen at load time ("icelake", "haswell", "westmere", "fallback"). */
const char *sd_json_kernel(void);

#ifdef __cplusplus
}
#endif

#endif							/* SERDE_CORE_H */
