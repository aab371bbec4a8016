/*
 * unit_readonly.c - plans are immutable: nothing writes into a plan after sd_compile returned it.
 *
 * The fixtures' types (fixtures/sql/types.sql) and shapes (fixtures/sql/shapes.sql) are read and
 * compiled through hooks that hand out memory from one mmap'd region; the region is then made
 * read-only (mprotect PROT_READ) and every fixture document (every .json in fixtures/json) is decoded
 * against those plans: first-error mode, serde_errors mode (sd_check_json_found), sd_each over
 * an array and over NDJSON, the mutated documents with their expected errors
 * (fixtures/json/mutated/EXPECTED.tsv), sd_plan_describe, several decoders and several plans
 * alternating on one decoder (more than it keeps predictions for), and two threads decoding
 * with the same plans at once.  Any write into a plan's memory kills the runner with SIGSEGV.
 *
 * The runner is started from the repository root (make unit); SERDE_FIXTURES overrides where
 * the fixtures are.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "unit.h"
#include "unit_support.h"

/* ---- a region allocator whose memory can be made read-only ------------------------------- */

#define REGION_BYTES ((size_t) 256 * 1024 * 1024)

static char *region;
static size_t region_used;
static bool region_frozen;

typedef struct
{
	size_t		size;
	size_t		pad;
} blockhdr;

static bool
in_region(const void *p)
{
	return region && (const char *) p >= region && (const char *) p < region + REGION_BYTES;
}

static void *
r_alloc(void *ud, size_t size)
{
	(void) ud;
	if (region_frozen)
		return malloc(size ? size : 1);	/* after the freeze: describe's buffers and such */
	size_t		need = (sizeof(blockhdr) + size + 15) & ~(size_t) 15;

	if (need > REGION_BYTES - region_used)
		return NULL;
	blockhdr   *h = (blockhdr *) (region + region_used);

	h->size = size;
	region_used += need;
	return h + 1;
}

static void *
r_realloc(void *ud, void *p, size_t size)
{
	if (!p)
		return r_alloc(ud, size);
	if (!in_region(p))
		return realloc(p, size);
	size_t		old = ((blockhdr *) p)[-1].size;
	void	   *q = r_alloc(ud, size);

	if (q)
		memcpy(q, p, old < size ? old : size);
	return q;
}

static void
r_free(void *ud, void *p)
{
	(void) ud;
	if (p && !in_region(p))
		free(p);
	/* region memory is never reused: freed at the end of the group */
}

static const sd_hooks region_hooks = {r_alloc, r_realloc, r_free, NULL, NULL};

/* ---- fixtures: reading types.sql, shapes.sql and the documents ----------------------------- */

static char fixtures[512];

static char *
slurp(const char *rel, size_t *len)
{
	char		path[1024];
	FILE	   *f;
	char	   *buf;
	long		n;

	snprintf(path, sizeof(path), "%s/%s", fixtures, rel);
	if (!(f = fopen(path, "rb")))
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t) n + 1);
	if (fread(buf, 1, (size_t) n, f) != (size_t) n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t) n;
	return buf;
}

/* SQL text without -- comments. */
static char *
strip_comments(char *sql)
{
	char	   *o = sql;

	for (char *p = sql; *p;)
	{
		if (p[0] == '-' && p[1] == '-')
		{
			while (*p && *p != '\n')
				p++;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
	return sql;
}

static char *
skip_ws(char *p)
{
	while (isspace((unsigned char) *p))
		p++;
	return p;
}

/* The type a types.sql column type maps to in unit_support's spec language. */
static const char *
map_type(const char *sql)
{
	static const char *const map[][2] = {{"boolean", "bool"}};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(sql, map[i][0]) == 0)
			return map[i][1];
	return sql;
}

/* Creates every type of types.sql (enums and composites, in file order); returns how many. */
static int
load_types(void)
{
	char	   *sql = slurp("sql/types.sql", NULL);
	int			n = 0;

	if (!sql)
		return 0;
	strip_comments(sql);
	for (char *p = strstr(sql, "CREATE TYPE"); p; p = strstr(p, "CREATE TYPE"))
	{
		char		name[128];
		char		spec[4096];
		size_t		so = 0;
		int			used = 0;
		char	   *body;
		char	   *end;

		p += strlen("CREATE TYPE");
		if (sscanf(p, " %127s AS%n", name, &used) != 1 || used == 0)
			break;
		p = skip_ws(p + used);
		bool		is_enum = strncmp(p, "ENUM", 4) == 0;

		if (!(body = strchr(p, '(')))
			break;
		/* the closing parenthesis of the list: numeric(7,4) and varchar(3) nest */
		int			depth = 0;

		for (end = body; *end; end++)
			if (*end == '(')
				depth++;
			else if (*end == ')' && --depth == 0)
				break;
		*end = '\0';
		spec[0] = '\0';
		if (is_enum)
		{
			for (char *q = strchr(body, '\''); q; q = strchr(q, '\''))
			{
				char	   *close = strchr(q + 1, '\'');

				so += (size_t) snprintf(spec + so, sizeof(spec) - so, "%s%.*s", so ? "," : "",
										(int) (close - q - 1), q + 1);
				q = close + 1;
			}
			ut_enum(name, spec);
		}
		else
		{
			/* "col type, col type": split at commas outside parentheses */
			char	   *item = body + 1;

			depth = 0;
			for (char *q = item;; q++)
			{
				if (*q == '(')
					depth++;
				else if (*q == ')')
					depth--;
				else if ((*q == ',' && depth == 0) || *q == '\0')
				{
					char		col[128],
								typ[128];
					bool		last = *q == '\0';

					*q = '\0';
					if (sscanf(item, " %127s %127s", col, typ) == 2)
						so += (size_t) snprintf(spec + so, sizeof(spec) - so, "%s%s:%s",
												so ? "," : "", col, map_type(typ));
					if (last)
						break;
					item = q + 1;
				}
			}
			ut_composite(name, spec);
		}
		n++;
		p = end + 1;
	}
	free(sql);
	return n;
}

typedef struct shape
{
	char		name[64];
	const sd_type *type;
	char	   *options;
} shape;

static shape shapes[64];
static int nshapes;

/* Reads serde_register('Name', 'type'::regtype, '{options}') calls; returns how many. */
static int
load_shapes(void)
{
	char	   *sql = slurp("sql/shapes.sql", NULL);

	if (!sql)
		return 0;
	strip_comments(sql);
	for (char *p = strstr(sql, "serde_register("); p && nshapes < 64; p = strstr(p, "serde_register("))
	{
		shape	   *s = &shapes[nshapes];
		char		type[128];
		char	   *q;
		char	   *close;

		p += strlen("serde_register(");
		if (sscanf(p, " '%63[^']', '%127[^']'::regtype, '", s->name, type) != 2 ||
			!(q = strstr(p, "::regtype")) || !(q = strchr(q, '\'')) || !(close = strchr(q + 1, '\'')))
			break;
		s->type = ut_type(type);
		s->options = strndup(q + 1, (size_t) (close - q - 1));
		nshapes++;
		p = close + 1;
	}
	free(sql);
	return nshapes;
}

static const shape *
find_shape(const char *name)
{
	for (int i = 0; i < nshapes; i++)
		if (strcmp(shapes[i].name, name) == 0)
			return &shapes[i];
	return NULL;
}

static bool
resolve(void *ud, const char *name, const char **options_json, const sd_type **target,
		sd_error *err)
{
	const shape *s = find_shape(name);

	(void) ud;
	if (!s)
		return sd_error_set(err, SD_E_OPTIONS, -1, "shape \"%s\" does not exist", name);
	*options_json = s->options;
	*target = s->type;
	return true;
}

static const sd_resolver resolver = {resolve, NULL};

/* ---- the documents and their plans --------------------------------------------------------- */

typedef struct fixture
{
	const char *file;           /* fixtures/json/<file>.json */
	const char *shape;
	const sd_plan *plan;
	char	   *doc;
	size_t		len;
	const char *must;           /* how the decoded row's rendering begins */
} fixture;

static fixture fx[] = {
	{"stripe_invoice", "StripeInvoice", NULL, NULL, 0,
	 "{id:'in_1PBqT9Jt8WcQm2Zp0hF4kLwE',object:'invoice',amount_due:98315,amount_paid:98315,amount_remaining:0,attempt_count:1"},
	{"github_pull_request", "GithubPullRequestEvent", NULL, NULL, 0,
	 "{action:E3,number:1187,pull_request:{id:1893456721,node_id:'PR_kwDOGDfxwM5w3Z5R'"},
	{"k8s_deployment", "K8sDeployment", NULL, NULL, 0,
	 "{api_version:'apps/v1',kind:'Deployment',metadata:{name:'checkout-api',namespace:'shop',uid:x34f051b8215540e0"},
	{"jsonapi_compound", "JsonApiDocument", NULL, NULL, 0,
	 "{jsonapi:J{\n    \"version\": \"1.1\"\n  },links:{self:'https://api.fieldnotes.example/articles?"},
	{"msk_event", "MskEvent", NULL, NULL, 0,
	 "{event_source:E0,event_source_arn:'arn:aws:kafka:eu-west-1:210987654321:cluster/orders-prod/"},
	{"msk_record", "MskRecord", NULL, NULL, 0,
	 "{topic:'audit-log',partition:4,record_offset:902331,record_time:T1715183011870000,timestamp_type:E1,key:x"},
};

#define NFX ((int) (sizeof(fx) / sizeof(fx[0])))

static fixture *
fixture_of(const char *file)
{
	for (int i = 0; i < NFX; i++)
		if (strncmp(file, fx[i].file, strlen(fx[i].file)) == 0 && file[strlen(fx[i].file)] == '.')
			return &fx[i];
	return NULL;
}

/* Decodes f's document on d: the row's rendering (static), or NULL with *err. */
static bool
decode_ok(sd_decoder *d, const fixture *f, const char *doc, size_t len, sd_error *err)
{
	uint32_t	root;

	return sd_decode_json(d, f->plan, NULL, doc, len, NULL, &root, err) &&
		sd_decoder_tape(d)[root].tag == SD_V_ROW &&
		sd_decoder_tape(d)[root].len == (uint32_t) sd_plan_root(f->plan)->type->ncols;
}

/* The whole fixture set on decoder d: every document, mutated ones, serde_errors mode, each. */
static int
decode_all(sd_decoder *d, bool check)
{
	int			bad = 0;
	sd_error	err;

	for (int i = 0; i < NFX; i++)
	{
		bool		ok = decode_ok(d, &fx[i], fx[i].doc, fx[i].len, &err);

		if (check)
		{
			CHECK(ok);
			if (!ok)
				fprintf(stderr, "  %s: %s %s: %s\n", fx[i].file, sd_code_sqlstate(err.code),
						err.path, err.problem);
		}
		bad += !ok;

		const sd_found *found;
		int			total;
		uint32_t	root;
		int			n = sd_check_json_found(d, fx[i].plan, NULL, fx[i].doc, fx[i].len, NULL, 16,
											&found, &total, &root);

		if (check)
			CHECK(n == 0 && total == 0 && root != UINT32_MAX);
		bad += n != 0;
	}
	return bad;
}

static void
check_rendering(void)
{
	for (int i = 0; i < NFX; i++)
	{
		const char *r = ut_decode_with(fx[i].plan, fx[i].doc);

		CHECK(strncmp(r, fx[i].must, strlen(fx[i].must)) == 0);
		if (strncmp(r, fx[i].must, strlen(fx[i].must)) != 0)
			fprintf(stderr, "  %s: %.120s\n", fx[i].file, r);
	}
}

static void
check_mutated(sd_decoder *d)
{
	char	   *tsv = slurp("json/mutated/EXPECTED.tsv", NULL);
	int			n = 0;

	CHECK(tsv != NULL);
	if (!tsv)
		return;
	for (char *save = NULL, *line = strtok_r(tsv, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
	{
		char		file[128],
					state[8],
					path[256],
					rel[200];
		fixture    *f;
		char	   *doc;
		size_t		len;
		sd_error	err;
		uint32_t	root;

		if (sscanf(line, "%127[^\t]\t%7[^\t]\t%255s", file, state, path) != 3)
			continue;
		snprintf(rel, sizeof(rel), "json/mutated/%s", file);
		f = fixture_of(file);
		doc = slurp(rel, &len);
		CHECK(f && doc);
		if (!f || !doc)
			continue;
		CHECK(!sd_decode_json(d, f->plan, NULL, doc, len, NULL, &root, &err));
		CHECK_STR(sd_code_sqlstate(err.code), state);
		CHECK_STR(err.path, path);

		const sd_found *found;
		int			total;
		int			k = sd_check_json_found(d, f->plan, NULL, doc, len, NULL, 16, &found, &total, &root);

		CHECK(k == 1 && total == 1);
		if (k >= 1)
		{
			CHECK_STR(sd_code_sqlstate(found[0].code), state);
			CHECK_STR(found[0].path, path);
		}
		free(doc);
		n++;
	}
	CHECK(n == 18);
	free(tsv);
}

/* sd_each over "[doc, doc, doc]" and over two NDJSON lines (the document with its newlines made
 * blanks: JSON strings hold no raw newline). */
static void
check_each(sd_decoder *d)
{
	for (int i = 0; i < NFX; i++)
	{
		size_t		len = fx[i].len;
		char	   *arr = malloc(3 * len + 8);
		char	   *nd = malloc(2 * len + 4);
		size_t		o = 0;
		sd_error	err;
		uint32_t	root;
		int			rows = 0;
		int			r;

		arr[o++] = '[';
		for (int k = 0; k < 3; k++)
		{
			if (k)
				arr[o++] = ',';
			memcpy(arr + o, fx[i].doc, len);
			o += len;
		}
		arr[o++] = ']';
		CHECK(sd_each_begin(d, fx[i].plan, NULL, arr, o, NULL, &err));
		while ((r = sd_each_next(d, &root, &err)) == 1)
			rows += sd_decoder_tape(d)[root].tag == SD_V_ROW;
		CHECK(r == 0 && rows == 3);

		o = 0;
		for (int k = 0; k < 2; k++)
		{
			for (size_t j = 0; j < len; j++)
				nd[o++] = fx[i].doc[j] == '\n' || fx[i].doc[j] == '\r' ? ' ' : fx[i].doc[j];
			nd[o++] = '\n';
		}
		rows = 0;
		CHECK(sd_each_begin(d, fx[i].plan, NULL, nd, o, NULL, &err));
		while ((r = sd_each_next(d, &root, &err)) == 1)
			rows += sd_decoder_tape(d)[root].tag == SD_V_ROW;
		CHECK(r == 0 && rows == 2);
		free(arr);
		free(nd);
	}
}

static void *
thread_main(void *arg)
{
	sd_decoder *d = sd_decoder_create(NULL);
	intptr_t	bad = 0;

	(void) arg;
	for (int round = 0; round < 20; round++)
		bad += decode_all(d, false);
	sd_decoder_destroy(d);
	return (void *) bad;
}

void		unit_readonly(void);
void
unit_readonly(void)
{
	const char *env = getenv("SERDE_FIXTURES");
	sd_plan    *plans[NFX];
	sd_error	err;

	snprintf(fixtures, sizeof(fixtures), "%s", env ? env : "fixtures");
	region = mmap(NULL, REGION_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				  -1, 0);
	CHECK(region != MAP_FAILED);
	if (region == MAP_FAILED)
		return;

	int			ntypes = load_types();

	CHECK(ntypes == 60);
	CHECK(load_shapes() == 22);
	for (int i = 0; i < NFX; i++)
	{
		char		rel[128];
		const shape *s = find_shape(fx[i].shape);

		snprintf(rel, sizeof(rel), "json/%s.json", fx[i].file);
		fx[i].doc = slurp(rel, &fx[i].len);
		CHECK(fx[i].doc && s);
		if (!fx[i].doc || !s)
			return;
		plans[i] = sd_compile_ex(s->name, s->options, strlen(s->options), s->type, &region_hooks,
								 &resolver, SD_DEFAULT_MAX_PLAN_BYTES, &err);
		CHECK(plans[i] != NULL);
		if (!plans[i])
		{
			fprintf(stderr, "  %s: %s %s: %s\n", s->name, sd_code_sqlstate(err.code), err.path, err.problem);
			return;
		}
		fx[i].plan = plans[i];
	}

	/* from here on, a write into any plan's memory is a SIGSEGV */
	size_t		page = (size_t) sysconf(_SC_PAGESIZE);

	CHECK(mprotect(region, (region_used + page - 1) & ~(page - 1), PROT_READ) == 0);
	region_frozen = true;

	sd_decoder *a = sd_decoder_create(NULL);
	sd_decoder *b = sd_decoder_create(NULL);

	/* six plans round-robin on one decoder: more than it keeps predictions for */
	for (int round = 0; round < 3; round++)
	{
		decode_all(a, true);
		decode_all(b, true);
	}
	check_rendering();
	check_mutated(a);
	check_each(b);
	for (int i = 0; i < NFX; i++)
	{
		size_t		len = 0;
		char	   *desc = sd_plan_describe(fx[i].plan, &len);

		CHECK(desc && len > 0 && desc[0] == '{');
		free(desc);
	}

	/* a node of another plan: an error, not a read out of the decoder's prediction */
	{
		uint32_t	root;

		CHECK(!sd_decode_json(a, fx[5].plan, sd_plan_root(fx[1].plan), fx[1].doc, fx[1].len,
							  NULL, &root, &err) && err.code == SD_E_INTERNAL);
	}

	/* several threads, one set of plans */
	pthread_t	th[2];
	void	   *res;
	int			started = 0;

	for (int i = 0; i < 2; i++)
		started += pthread_create(&th[i], NULL, thread_main, NULL) == 0;
	CHECK(started == 2);
	for (int i = 0; i < started; i++)
	{
		CHECK(pthread_join(th[i], &res) == 0);
		CHECK(res == NULL);
	}

	sd_decoder_destroy(a);
	sd_decoder_destroy(b);
	for (int i = 0; i < NFX; i++)
	{
		sd_plan_free(plans[i]);
		free(fx[i].doc);
	}
	for (int i = 0; i < nshapes; i++)
		free(shapes[i].options);
	munmap(region, REGION_BYTES);
	region = NULL;
	region_frozen = false;
	region_used = 0;
}
