/*
 * infer.c — serde_infer for SQLite: an aggregate over documents (JSON, or XML when the text
 * starts with '<'), over the core's inference (src/core/infer.c), returning the descriptors
 * that decode every sample, as one JSON object {"Name": descriptor, …} (the shapes a shape
 * refers to come first: register them in that order).  Over one value it is the one-document
 * form: SELECT serde_infer(doc).
 */
#include "serde_sqlite.h"
#include "infer.h"

#include <stdio.h>
#include <string.h>

typedef struct sq_infer
{
	sd_infer   *inf;
	sd_infer_options o;
	bool		have_opts;
	bool		failed;
	uint32_t	rows;
} sq_infer;

static void
infer_fail(sqlite3_context *ctx, sq_infer *a, const char *prefix, sd_error *err)
{
	sq_err		e = SQ_ERR_INIT;

	a->failed = true;
	if (err->path[0] == '\0' && err->code != SD_E_OPTIONS && err->code != SD_E_NOMEM)
		strcpy(err->path, err->doc == SD_DOC_XML ? "/" : "$");
	sq_err_core(&e, prefix, err);
	sq_result_err(ctx, &e);
}

static void
infer_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_infer   *a = sqlite3_aggregate_context(ctx, sizeof(sq_infer));
	sd_error	err;
	const char *doc;
	int			len;
	char		prefix[64];

	if (!a)
	{
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (a->failed)
		return;
	if (!a->inf && !(a->inf = sd_infer_create(&c->hooks, &c->limits)))
	{
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (!a->have_opts)
	{
		const char *opts = argc > 1 ? (const char *) sqlite3_value_text(argv[1]) : NULL;

		a->have_opts = true;
		if (!sd_infer_options_read(a->inf, opts, opts ? (size_t) sqlite3_value_bytes(argv[1]) : 0,
								   &a->o, &err))
		{
			infer_fail(ctx, a, "serde_infer", &err);
			return;
		}
	}
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	a->rows++;
	if (sqlite3_value_type(argv[0]) == SQLITE_BLOB)
		doc = sqlite3_value_blob(argv[0]);
	else
		doc = (const char *) sqlite3_value_text(argv[0]);
	len = sqlite3_value_bytes(argv[0]);
	if (!doc && len > 0)
	{
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (!sd_infer_add(a->inf, doc ? doc : "", (size_t) len, false, true, a->o.max_samples, &err))
	{
		snprintf(prefix, sizeof(prefix), "serde_infer: sample %u", a->rows);
		infer_fail(ctx, a, prefix, &err);
	}
}

static void
infer_final(sqlite3_context *ctx)
{
	sq_conn    *c = sqlite3_user_data(ctx);
	sq_infer   *a = sqlite3_aggregate_context(ctx, 0);
	sd_buf		out;
	sd_error	err;

	if (!a || !a->inf)
	{
		sqlite3_result_null(ctx);
		return;
	}
	if (!a->failed && sd_infer_samples(a->inf) > 0)
	{
		sd_buf_init(&out, &c->hooks);
		if (!sd_infer_render_sqlite(a->inf, &a->o, &out, &err))
			infer_fail(ctx, a, "serde_infer", &err);
		else
		{
			sqlite3_result_text(ctx, out.s ? out.s : "{}", (int) out.len, SQLITE_TRANSIENT);
			sqlite3_result_subtype(ctx, 'J');
		}
		sd_buf_free(&out);
	}
	else if (!a->failed)
		sqlite3_result_null(ctx);
	sd_infer_free(a->inf);
	a->inf = NULL;
}

int
sq_infer_register(sqlite3 *db, sq_conn *c)
{
	for (int nargs = 1; nargs <= 2; nargs++)
	{
		int			rc;

		c->refcount++;          /* xDestroy (sq_conn_unref) runs even when this fails */
		rc = sqlite3_create_function_v2(db, "serde_infer", nargs, SQLITE_UTF8 | SQLITE_INNOCUOUS,
										c, NULL, infer_step, infer_final, sq_conn_unref);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}
