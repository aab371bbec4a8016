/*
 * unit_infer.c — serde_infer's core (src/core/infer*.c): the script and descriptors for JSON and
 * XML samples, determinism, every allocation failing in turn (no crash, no leak under ASan,
 * SD_E_NOMEM), a stop request, the limits, options errors.
 */
#include "unit.h"
#include "infer.h"

#include <stdlib.h>

static int	fail_after = -1;    /* allocations left before they fail; -1 never */
static bool stop_now = false;

static void *
t_alloc(void *ud, size_t n)
{
	if (fail_after == 0)
		return NULL;
	if (fail_after > 0)
		fail_after--;
	return malloc(n);
}

static void *
t_realloc(void *ud, void *p, size_t n)
{
	if (fail_after == 0)
		return NULL;
	if (fail_after > 0)
		fail_after--;
	return realloc(p, n);
}

static void
t_free(void *ud, void *p)
{
	free(p);
}

static bool
t_stop(void *ud)
{
	return stop_now;
}

static const sd_hooks hooks = {t_alloc, t_realloc, t_free, t_stop, NULL};

static void
quote(void *ud, const char *ident, sd_buf *out)
{
	bool		plain = strcmp(ident, "user") != 0;

	sd_buf_put(out, plain ? "" : "\"", plain ? 0 : 1);
	sd_buf_put(out, ident, strlen(ident));
	sd_buf_put(out, plain ? "" : "\"", plain ? 0 : 1);
}

static const char *const samples[] = {
	"{\"id\": 1, \"kind\": \"card\", \"last4\": \"4242\", \"user\": {\"userName\": \"ann\"}, \"at\": \"2024-01-01T00:00:00Z\", \"m\": {\"2024-01-01\": 1.5}}",
	"{\"id\": 2, \"kind\": \"bank\", \"iban\": \"DE\", \"user\": {\"userName\": \"bob\"}, \"at\": \"2024-01-02T00:00:00Z\", \"m\": {}, \"x\": [1e3]}",
	"{\"id\": 3000000000, \"kind\": \"card\", \"last4\": \"0005\", \"user\": {\"userName\": null}, \"at\": \"2024-01-03T00:00:00+02:00\", \"m\": {\"2024-01-02\": 2}}",
};

/* the script of the samples, or NULL with *code */
static char *
run(const char *const *docs, int n, const char *opts, bool sqlite, sd_code *code)
{
	sd_infer   *inf = sd_infer_create(&hooks, NULL);
	sd_infer_options o;
	sd_error	err;
	sd_buf		out;
	char	   *res = NULL;

	*code = SD_E_NOMEM;
	if (!inf)
		return NULL;
	sd_buf_init(&out, &hooks);
	if (!sd_infer_options_read(inf, opts, opts ? strlen(opts) : 0, &o, &err))
		goto done;
	for (int i = 0; i < n; i++)
		if (!sd_infer_add(inf, docs[i], strlen(docs[i]), false, true, o.max_samples, &err))
			goto done;
	if (!(sqlite ? sd_infer_render_sqlite(inf, &o, &out, &err)
		  : sd_infer_render_sql(inf, &o, quote, NULL, &out, &err)))
		goto done;
	if (!out.failed && out.s)
	{
		res = strdup(out.s);
		err.code = SD_OK;
	}
done:
	*code = err.code;
	sd_buf_free(&out);
	sd_infer_free(inf);
	return res;
}

void
unit_infer(void)
{
	sd_code		code;
	char	   *a = run(samples, 3, NULL, false, &code);
	char	   *b = run(samples, 3, NULL, false, &code);
	char	   *s;
	int			ok_at = -1;

	CHECK(a && b && strcmp(a, b) == 0);
	CHECK(a && strstr(a, "CREATE TYPE doc AS (\n    id int8,\n    kind text,\n    \"user\" doc_user,"));
	CHECK(a && strstr(a, "\"tag\": \"kind\", \"variants\": {\"card\": \"card\", \"bank\": \"bank\"}"));
	CHECK(a && strstr(a, "m doc_m[]"));
	CHECK(a && strstr(a, "\"map\": true"));
	CHECK(a && strstr(a, "x float8[]"));
	CHECK(a && strstr(a, "'{\"rename\": \"camel\"}'"));      /* userName: null once, nullable */
	free(a);
	free(b);

	s = run(samples, 3, "{\"name\": \"ev\", \"strict\": true}", true, &code);
	CHECK(s && strstr(s, "\"ev\": {\"unknown\": \"reject\", \"tag\": \"kind\""));
	CHECK(s && strstr(s, "\"m\": {\"type\": {\"map\": \"numeric\"}"));
	free(s);

	/* XML */
	{
		const char *x[] = {"<r xmlns=\"urn:r\" id=\"1\"><Item>a</Item><Item>b</Item><Note lang=\"en\">hi</Note></r>"};

		s = run(x, 1, NULL, false, &code);
		CHECK(s && strstr(s, "\"xml\": {\"root\": \"r\", \"namespace\": \"urn:r\"}"));
		CHECK(s && strstr(s, "item text[]"));
		CHECK(s && strstr(s, "\"text\": {\"xml\": \"text\"}"));
		free(s);
	}

	/* options and samples that fail */
	CHECK(run(samples, 1, "{\"name\": \"X\"}", false, &code) == NULL && code == SD_E_OPTIONS);
	CHECK(run(samples, 1, "{\"bogus\": 1}", false, &code) == NULL && code == SD_E_OPTIONS);
	{
		const char *bad[] = {"{\"a\": 1}", "{\"a\": ]"};
		const char *mixed[] = {"{\"a\": 1}", "<a/>"};
		const char *scalar[] = {"1"};

		CHECK(run(bad, 2, NULL, false, &code) == NULL && code == SD_E_SYNTAX);
		CHECK(run(mixed, 2, NULL, false, &code) == NULL && code == SD_E_OPTIONS);
		CHECK(run(scalar, 1, NULL, false, &code) == NULL && code == SD_E_OPTIONS);
	}

	/* a stop request */
	stop_now = true;
	{
		const char *big[1];
		char	   *doc = malloc(200000);
		size_t		n = 0;

		n += (size_t) sprintf(doc + n, "[");
		for (int i = 0; i < 10000; i++)
			n += (size_t) sprintf(doc + n, "%s{\"a\": %d}", i ? "," : "", i);
		sprintf(doc + n, "]");
		big[0] = doc;
		CHECK(run(big, 1, NULL, false, &code) == NULL && code == SD_E_CANCELED);
		free(doc);
	}
	stop_now = false;

	/* every allocation failing in turn: SD_E_NOMEM, never a crash or a leak */
	for (int k = 0; k < 5000 && ok_at < 0; k++)
	{
		fail_after = k;
		s = run(samples, 3, NULL, k % 2 == 1, &code);
		if (s)
			ok_at = k;
		else if (code != SD_E_NOMEM)
		{
			CHECK(code == SD_E_NOMEM);
			break;
		}
		free(s);
	}
	fail_after = -1;
	CHECK(ok_at > 0);
}
