/*
 * infer.h — shape inference (serde_infer) for the hosts: sample documents (JSON or XML) are
 * merged into a model of their values, then rendered as a SQL script (PostgreSQL: CREATE TYPE +
 * serde_register) or as SQLite descriptors.  Host-neutral; the hosts only adapt (src/pg/infer.c,
 * sqlite/infer.c).  docs/reference.md, "From samples to a shape: serde_infer", is the contract.
 */
#ifndef SERDE_INFER_H
#define SERDE_INFER_H

#include "serde_core.h"

typedef struct sd_infer sd_infer;

typedef struct sd_infer_options
{
	const char *name;           /* the root type and its shape; default "doc" */
	const char *prefix;         /* the other types' names start with it; default name + "_" */
	const char *schema;         /* NULL: none (PostgreSQL only) */
	uint32_t	max_samples;    /* default 1000 */
	bool		enums;          /* strings with few values become enum types */
	bool		strict;         /* every shape gets unknown: "reject" */
} sd_infer_options;

/* A host's identifier quoting (PostgreSQL: quote_identifier): appends ident, quoted when it must
 * be, to out.  Never raises. */
typedef void (*sd_quote_fn) (void *ud, const char *ident, sd_buf *out);

/* Reads the options object (JSON text; NULL or "" = {}) into *o, strings in the inference's
 * arena.  False with err (SD_E_OPTIONS, err->path "$.key") on a bad option. */
bool		sd_infer_options_read(sd_infer *inf, const char *json, size_t len,
								  sd_infer_options *o, sd_error *err);

sd_infer   *sd_infer_create(const sd_hooks *hooks, const sd_limits *limits);
void		sd_infer_free(sd_infer *inf);

/* Adds one sample: JSON text, or XML when `xml` (or, when detect, when its first non-blank byte
 * is '<').  Samples beyond max_samples are ignored (true).  False with err: malformed input, a
 * limit (the same codes and messages as decoding), a sample of the other format than the first
 * (SD_E_OPTIONS), OOM, cancel. */
bool		sd_infer_add(sd_infer *inf, const char *doc, size_t len, bool xml, bool detect,
						 uint32_t max_samples, sd_error *err);
uint32_t	sd_infer_samples(const sd_infer *inf);

/* Renders the SQL script (PostgreSQL) / the SQLite descriptors ({"Name": descriptor, …}, the
 * referenced shapes first) into out.  With no sample, an empty out (the host returns NULL). */
bool		sd_infer_render_sql(sd_infer *inf, const sd_infer_options *o, sd_quote_fn quote,
								void *ud, sd_buf *out, sd_error *err);
bool		sd_infer_render_sqlite(sd_infer *inf, const sd_infer_options *o, sd_buf *out,
								   sd_error *err);

#endif							/* SERDE_INFER_H */
