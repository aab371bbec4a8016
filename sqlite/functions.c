/*
 * functions.c — the scalar functions of the SQLite adapter (the manual is serde.c's top comment
 * and docs/reference.md, SQLite section):
 *
 *     serde_register(shape, descriptor)   serde_unregister(shape)
 *     serde_decode(shape, doc)            serde_decode_xml(shape, doc)
 *     serde_valid(shape, doc)             serde_valid_xml(shape, doc)
 *     serde_describe(shape)               serde_config(name [, value])
 *
 * A call whose shape argument is a constant keeps its plan for the rest of its statement
 * (sqlite3_set_auxdata).  serde_register checks, before anything is written, what SQLite itself
 * would refuse later: a NUL in a name (a C string would cut it), and virtual-table columns whose
 * names differ only in ASCII case (SQLite's column names are case-insensitive), the document
 * column included (`doc`, or `serde_doc` when a field is named doc).
 *
 * Calls conn.c, cache.c, catalog.c, values.c, errors.c.
 */
#include "serde_sqlite.h"
#include "xml_decode.h"
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

/* The shape named by argument 0: the plan this call site holds for its statement, or the
 * cache's current one (then held).  A new reference, or NULL with *e set. */
static sq_shape *
call_shape(sqlite3_context *ctx, sq_conn *c, sqlite3_value *arg, sq_err *e)
{
	sq_shape   *s = sqlite3_get_auxdata(ctx, 0);

	if (s)
	{
		sq_shape_ref(s);
		return s;
	}
	if (sqlite3_value_type(arg) == SQLITE_NULL)
	{
		sq_err_printf(e, SQ_E_NULL, "serde: shape name must not be NULL");
		return NULL;
	}
	if (!(s = sq_shape_get(c, (const char *) sqlite3_value_text(arg), e)))
		return NULL;
	sq_shape_ref(s);
	sqlite3_set_auxdata(ctx, 0, s, sq_shape_unref);
	return s;
}

/* ---- serde_register, serde_unregister -------------------------------------------------- */

/* The shape name argument: NULL with *e set when it is NULL, empty, too long or holds a NUL. */
static const char *
name_arg(sqlite3_value *v, sq_err *e)
{
	const char *name;
	size_t		len;

	if (sqlite3_value_type(v) == SQLITE_NULL)
	{
		sq_err_printf(e, SQ_E_NULL, "serde: shape name must not be NULL");
		return NULL;
	}
	name = (const char *) sqlite3_value_text(v);
	if (!name)
	{
		sq_err_printf(e, SD_E_NOMEM, "serde: out of memory");
		return NULL;
	}
	len = (size_t) sqlite3_value_bytes(v);
	if (strlen(name) != len)
	{
		sq_err_printf(e, SD_E_OPTIONS, "serde: shape name \"%s\" contains a NUL character (at byte %lld)",
					  name, (long long) strlen(name));
		return NULL;
	}
	if (!name[0])
	{
		sq_err_printf(e, SD_E_OPTIONS, "serde: shape name must not be empty");
		return NULL;
	}
	if (len > SD_SHAPE_NAME_MAX)
	{
		sq_err_printf(e, SD_E_OPTIONS, "serde: shape name \"%.20s...\" is too long: it has %lld bytes, "
					  "shape names have at most %d", name, (long long) len, SD_SHAPE_NAME_MAX);
		return NULL;
	}
	return name;
}

static bool
hex4_zero(const char *p, const char *end)
{
	return end - p >= 4 && p[0] == '0' && p[1] == '0' && p[2] == '0' && p[3] == '0';
}

/* The descriptor's text holds no NUL, neither as a byte nor as \u0000 in a string: a field
 * name, a document name, a label or a default with one would be cut where C strings end.
 * Returns the byte offset of the first, or -1. */
static int64_t
descriptor_nul(const char *s, size_t len)
{
	const char *end = s + len;
	bool		in_string = false;

	for (const char *p = s; p < end; p++)
	{
		if (*p == '\0')
			return p - s;
		if (!in_string)
		{
			if (*p == '"')
				in_string = true;
			continue;
		}
		if (*p == '"')
			in_string = false;
		else if (*p == '\\' && p + 1 < end)
		{
			if (p[1] == 'u' && hex4_zero(p + 2, end))
				return p - s;
			p++;                /* the escaped character */
		}
	}
	return -1;
}

/* The virtual table's columns of s: no two the same but for ASCII case (the first earlier one
 * reported; a table of the names seen, so that it is linear), and none the document column's
 * name.  False with *e set. */
static bool
columns_distinct(const sq_shape *s, const sd_hooks *hooks, sq_err *e)
{
	const sd_node *root = sd_plan_root(s->plan);
	const char *doc = "doc";
	sd_arena	scratch;
	sd_strtab	seen;
	bool		ok = true;

	for (int i = 0; i < root->nfields; i++)
		if (sqlite3_stricmp(root->fields[i].column, "doc") == 0)
			doc = "serde_doc";
	sd_arena_init(&scratch, hooks);
	sd_strtab_init(&seen, &scratch, true);
	for (int i = 0; ok && i < root->nfields; i++)
	{
		const char *a = root->fields[i].column;
		int			j;

		if (sqlite3_stricmp(a, doc) == 0)
		{
			sq_err_printf(e, SD_E_OPTIONS, "%s: $.fields.%s: the field \"%s\" has the name of the "
						  "virtual table's document column \"%s\" (a field named doc moves it to "
						  "serde_doc)", s->name, a, a, doc);
			ok = false;
		}
		else if ((j = sd_strtab_put(&seen, a, strlen(a), i)) == -2)
		{
			sq_err_printf(e, SD_E_NOMEM, "serde: out of memory");
			ok = false;
		}
		else if (j >= 0)
		{
			sq_err_printf(e, SD_E_OPTIONS, "%s: $.fields.%s: the fields \"%s\" and \"%s\" differ "
						  "only in case, and SQLite's column names do not", s->name, a,
						  root->fields[j].column, a);
			ok = false;
		}
	}
	sd_arena_free(&scratch);
	return ok;
}

static void
fn_register(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_err		e = SQ_ERR_INIT;
	const char *name;
	const char *desc;
	size_t		len;
	int64_t		at;
	sq_shape   *s;

	(void) argc;
	if (!(name = name_arg(argv[0], &e)))
	{
		sq_result_err(ctx, &e);
		return;
	}
	if (sqlite3_value_type(argv[1]) == SQLITE_NULL)
	{
		sq_err_printf(&e, SD_E_OPTIONS, "%s: descriptor must not be NULL", name);
		sq_result_err(ctx, &e);
		return;
	}
	desc = (const char *) sqlite3_value_text(argv[1]);
	len = (size_t) sqlite3_value_bytes(argv[1]);
	if (!desc)
	{
		sq_err_printf(&e, SD_E_NOMEM, "serde: out of memory");
		sq_result_err(ctx, &e);
		return;
	}
	if ((at = descriptor_nul(desc, len)) >= 0)
	{
		sq_err_printf(&e, SD_E_OPTIONS, "%s: the descriptor contains a NUL character (at byte %lld): "
					  "names, labels and defaults cannot hold one", name, (long long) at);
		sq_result_err(ctx, &e);
		return;
	}
	if (!(s = sq_shape_build(c, name, desc, len, &e)))
	{
		sq_result_err(ctx, &e);
		return;
	}
	if (!columns_distinct(s, &c->plan_hooks, &e))
	{
		sq_shape_unref(s);
		sq_result_err(ctx, &e);
		return;
	}
	sq_shape_unref(s);
	if (sq_catalog_write(c, name, desc, len, &e) != SQLITE_OK)
	{
		sq_result_err(ctx, &e);
		return;
	}
	sqlite3_result_null(ctx);
}

static void
fn_unregister(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_err		e = SQ_ERR_INIT;
	const char *name;
	int			r;

	(void) argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
	{
		sq_err_printf(&e, SQ_E_NULL, "serde: shape name must not be NULL");
		sq_result_err(ctx, &e);
		return;
	}
	if (!(name = (const char *) sqlite3_value_text(argv[0])))
	{
		sq_err_printf(&e, SD_E_NOMEM, "serde: out of memory");
		sq_result_err(ctx, &e);
		return;
	}
	if ((size_t) sqlite3_value_bytes(argv[0]) != strlen(name))
	{
		sqlite3_result_int(ctx, 0);     /* no shape has a NUL in its name */
		return;
	}
	if ((r = sq_catalog_delete(c, name, &e)) < 0)
	{
		sq_result_err(ctx, &e);
		return;
	}
	sqlite3_result_int(ctx, r);
}

/* ---- decoding ---------------------------------------------------------------------------- */

/* Decodes doc (JSON, or XML for the _xml functions) against s's root; true with *root set, or
 * false with *e set (malformed JSON located in doc when the error is to be reported). */
static bool
decode(sq_conn *c, sq_shape *s, sd_decoder *d, const char *doc, size_t len, bool xml,
	   bool report, uint32_t *root, sq_err *e)
{
	sd_error	err;

	if (xml ? sd_decode_xml(d, s->plan, sd_plan_root(s->plan), doc, len, &c->limits, root, &err) :
		sd_decode_json(d, s->plan, sd_plan_root(s->plan), doc, len, &c->limits, root, &err))
		return true;
	if (report && err.code == SD_E_SYNTAX)
		sd_error_locate_json(&err, doc, len);
	if (xml)
		sq_err_core_xml(e, s->name, s->plan, &err);
	else
		sq_err_core(e, s->name, &err);
	return false;
}

/* ---- the functions ------------------------------------------------------------------------ */

static void
decode_fn(sqlite3_context *ctx, sqlite3_value **argv, bool xml)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_err		e = SQ_ERR_INIT;
	sq_shape   *s = call_shape(ctx, c, argv[0], &e);
	const char *doc;
	size_t		len = 0;
	sd_decoder *d;
	uint32_t	root;

	if (!s)
	{
		sq_result_err(ctx, &e);
		return;
	}
	if ((doc = sq_value_doc(argv[1], &len)) == NULL)
	{
		sq_shape_unref(s);
		sqlite3_result_null(ctx);
		return;
	}
	if (!(d = sq_decoder_get(c)))
		sq_err_printf(&e, SD_E_NOMEM, "serde: out of memory");
	else if (decode(c, s, d, doc, len, xml, true, &root, &e))
	{
		sd_buf_reset(&c->out);
		if (!sd_jwriter_write(s->writer, sd_plan_root(s->plan), sd_decoder_tape(d), root, &c->out) ||
			!c->out.s)
			sq_err_printf(&e, SD_E_NOMEM, "serde: out of memory");
		else
		{
			sqlite3_result_text(ctx, c->out.s, (int) c->out.len, SQLITE_TRANSIENT);
			sqlite3_result_subtype(ctx, 'J');   /* JSON, for the json functions */
		}
		if (c->out.cap > SQ_DECODER_KEEP_BYTES)
		{
			sd_buf_free(&c->out);
			sd_buf_init(&c->out, &c->hooks);
		}
	}
	sq_decoder_put(c, d);
	sq_shape_unref(s);
	if (e.code != SD_OK)
		sq_result_err(ctx, &e);
}

static void
fn_decode(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void) argc;
	decode_fn(ctx, argv, false);
}

/* serde_decode_xml(shape, doc): the same row from an XML document. */
static void
fn_decode_xml(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void) argc;
	decode_fn(ctx, argv, true);
}

static void
valid_fn(sqlite3_context *ctx, sqlite3_value **argv, bool xml)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_err		e = SQ_ERR_INIT;
	sq_shape   *s = call_shape(ctx, c, argv[0], &e);
	const char *doc;
	size_t		len = 0;
	sd_decoder *d;
	uint32_t	root;

	if (!s)
	{
		sq_result_err(ctx, &e);
		return;
	}
	if ((doc = sq_value_doc(argv[1], &len)) == NULL)
		sqlite3_result_null(ctx);
	else if (!(d = sq_decoder_get(c)))
		sq_err_printf(&e, SD_E_NOMEM, "serde: out of memory");
	else
	{
		if (decode(c, s, d, doc, len, xml, false, &root, &e))
			sqlite3_result_int(ctx, 1);
		else if (sq_code_is_document(e.code))
		{
			sq_err_clear(&e);
			sqlite3_result_int(ctx, 0);
		}
		sq_decoder_put(c, d);
	}
	sq_shape_unref(s);
	if (e.code != SD_OK)
		sq_result_err(ctx, &e);
}

static void
fn_valid(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void) argc;
	valid_fn(ctx, argv, false);
}

static void
fn_valid_xml(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void) argc;
	valid_fn(ctx, argv, true);
}

static void
fn_describe(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_err		e = SQ_ERR_INIT;
	sq_shape   *s = call_shape(ctx, c, argv[0], &e);
	size_t		len = 0;
	char	   *json;

	(void) argc;
	if (!s)
	{
		sq_result_err(ctx, &e);
		return;
	}
	if (!(json = sd_plan_describe(s->plan, &len)))
	{
		sq_err_printf(&e, SD_E_NOMEM, "serde: out of memory");
		sq_result_err(ctx, &e);
	}
	else
	{
		sqlite3_result_text(ctx, json, (int) len, SQLITE_TRANSIENT);
		sqlite3_result_subtype(ctx, 'J');
		free(json);             /* NULL hooks: malloc */
	}
	sq_shape_unref(s);
}

/* serde_config(name [, value]): a setting of this connection, set when value is given; returns
 * the value in force.  'cache_bytes': the plan cache's bound in bytes of compiled plans (default
 * 64 MB); 'cache_entries': its bound in plans (default 64).  Least recently used plans are
 * evicted past either bound (the plan just used is always kept). */
static void
fn_config(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_err		e = SQ_ERR_INIT;
	const char *name = (const char *) sqlite3_value_text(argv[0]);
	bool		bytes;
	sqlite3_int64 v = 0;

	if (name && sqlite3_stricmp(name, "cache_bytes") == 0)
		bytes = true;
	else if (name && sqlite3_stricmp(name, "cache_entries") == 0)
		bytes = false;
	else
	{
		sq_err_printf(&e, SQ_E_USAGE, "serde_config: unknown setting %s%s%s (expected cache_bytes or "
					  "cache_entries)", name ? "\"" : "", name ? name : "NULL", name ? "\"" : "");
		sq_result_err(ctx, &e);
		return;
	}
	if (argc == 2)
	{
		if (sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER ||
			(v = sqlite3_value_int64(argv[1])) < 0 || (!bytes && v > 1000000))
		{
			sq_err_printf(&e, SQ_E_USAGE, "serde_config: %s must be an integer from 0 to %s",
						  bytes ? "cache_bytes" : "cache_entries",
						  bytes ? "9223372036854775807" : "1000000");
			sq_result_err(ctx, &e);
			return;
		}
		if (bytes)
			c->cache_bytes = v;
		else
			c->cache_entries = (int) v;
		sq_cache_trim(c);
	}
	sqlite3_result_int64(ctx, bytes ? c->cache_bytes : c->cache_entries);
}

/*
 * Function flags, for SQLite's security model:
 *  - No function is SQLITE_DETERMINISTIC: each result depends on serde_shapes, which may change
 *    under an index, a generated column or a partial-index WHERE that would store it.
 *  - serde_register and serde_unregister write the catalog: SQLITE_DIRECTONLY, so that no view,
 *    trigger or schema object of an untrusted database file can call them.
 *  - serde_decode, serde_valid, serde_describe (and the serde_errors table) are SQLITE_INNOCUOUS:
 *    they have no side effect but filling this connection's plan cache, read only main's
 *    serde_shapes (which such an object could read itself), and every document and descriptor is
 *    bounded (512 levels, 1 GB, 32 shapes and 64 MB per plan), so nothing an untrusted schema
 *    hands them can do harm.
 *  - serde_cache_stats tells about this connection's state: neither innocuous nor direct-only.
 */
typedef struct fn_def
{
	const char *name;
	int			nargs;
	int			flags;
	void		(*fn) (sqlite3_context *, int, sqlite3_value **);
} fn_def;

static const fn_def functions[] = {
	{"serde_register", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, fn_register},
	{"serde_unregister", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, fn_unregister},
	{"serde_decode", 2, SQLITE_UTF8 | SQLITE_INNOCUOUS, fn_decode},
	{"serde_valid", 2, SQLITE_UTF8 | SQLITE_INNOCUOUS, fn_valid},
	{"serde_describe", 1, SQLITE_UTF8 | SQLITE_INNOCUOUS, fn_describe},
	/* XML: the same shapes through the core's XML walker and the one rule engine (xml_decode.c) */
	{"serde_decode_xml", 2, SQLITE_UTF8 | SQLITE_INNOCUOUS, fn_decode_xml},
	{"serde_valid_xml", 2, SQLITE_UTF8 | SQLITE_INNOCUOUS, fn_valid_xml},
	/* connection settings: only from top-level SQL */
	{"serde_config", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, fn_config},
	{"serde_config", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, fn_config},
};

int
sq_functions_register(sqlite3 *db, sq_conn *c)
{
	for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
	{
		int			rc;

		c->refcount++;          /* xDestroy (sq_conn_unref) runs even when this fails */
		rc = sqlite3_create_function_v2(db, functions[i].name, functions[i].nargs,
										functions[i].flags, c, functions[i].fn, NULL, NULL,
										sq_conn_unref);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

