/*
 * decoder.c — the reusable decoder handle: padded document copy, value tape, element stack,
 * byte arena, and the kernel's simdjson parser; sd_decode_json() prepares a document and hands
 * it to the SIMD kernel chosen at load time.
 */
#include "internal.h"
#include "walker.h"

#include <stdio.h>
#include <string.h>

const sd_kernel *sd_select_kernel(void);

sd_decoder *
sd_decoder_create(const sd_hooks *hooks)
{
	sd_decoder *d = sd_hook_alloc(hooks, sizeof(sd_decoder));

	if (!d)
		return NULL;
	memset(d, 0, sizeof(*d));
	if (hooks)
		d->hooks = *hooks;
	d->kernel = sd_select_kernel();
	sd_arena_init(&d->arena, hooks);
	return d;
}

/*
 * Binds the decoder's key-order prediction for plan (d->follow, the walkers' per-plan state: the
 * plan itself is read-only).  The last few plans keep theirs, keyed by the plan's uid, so that a
 * statement alternating plans on one decoder keeps predicting well; a new plan takes the least
 * recently bound entry and starts from the plan's follow_init.  False on OOM.
 */
static bool
bind_plan(sd_decoder *d, const sd_plan *plan, sd_error *err)
{
	sd_follow  *f = &d->follows[0];

	if (d->follow_uid == plan->uid)
		return true;
	for (int i = 0; i < SD_FOLLOW_PLANS; i++)
	{
		if (d->follows[i].uid == plan->uid)
		{
			f = &d->follows[i];
			break;
		}
		if (d->follows[i].used < f->used)
			f = &d->follows[i];
	}
	if (f->uid != plan->uid)
	{
		f->uid = 0;
		if (!sd_grow(&d->hooks, (void **) &f->tab, &f->cap, plan->nfollow, sizeof(int16_t)))
			return sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
		if (plan->nfollow)
			memcpy(f->tab, plan->follow_init, sizeof(int16_t) * plan->nfollow);
		f->uid = plan->uid;
		f->n = plan->nfollow;
	}
	f->used = ++d->follow_tick;
	d->follow = f->tab;
	d->nfollow = f->n;
	d->follow_uid = f->uid;
	return true;
}

/* Ends a batch of each.c (every other decode on the decoder calls this first). */
void
sd_each_reset(sd_decoder *d)
{
	d->each_plan = NULL;
	d->each_input = NULL;
	d->each_cur = NULL;
	d->offset_bias = 0;
	if (d->each_xml)
		d->each_xml_end(d);		/* xml_each.c's (a pointer: decoder.c does not call it) */
}

/* bind_plan for the core's own runs of the engine (defaults.c: a plan being compiled) */
bool
sd_decoder_bind(sd_decoder *d, const sd_plan *plan, sd_error *err)
{
	return bind_plan(d, plan, err);
}

/* Empties a kept decoder for a run of the engine over a host's own walker (stored jsonb): tape,
 * stacks, events and arena, buffers kept; what prepare() does for a JSON text. */
void
sd_decoder_reset(sd_decoder *d)
{
	sd_each_reset(d);
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
}

static void
release_follows(sd_decoder *d)
{
	for (int i = 0; i < SD_FOLLOW_PLANS; i++)
		sd_hook_free(&d->hooks, d->follows[i].tab);
	memset(d->follows, 0, sizeof(d->follows));
	d->follow = NULL;
	d->nfollow = 0;
	d->follow_uid = 0;
}

static void
release_buffers(sd_decoder *d)
{
	sd_each_reset(d);
	if (d->parser)
		d->kernel->parser_free(d->parser);
	d->parser = NULL;
	sd_hook_free(&d->hooks, d->padded);
	d->padded = NULL;
	d->padded_cap = 0;
	sd_hook_free(&d->hooks, d->tape);
	d->tape = NULL;
	d->tape_cap = d->tape_len = 0;
	sd_hook_free(&d->hooks, d->stack);
	d->stack = NULL;
	d->stack_cap = d->stack_len = 0;
	sd_hook_free(&d->hooks, d->path);
	d->path = NULL;
	d->path_cap = 0;
	sd_hook_free(&d->hooks, d->pairs);
	d->pairs = NULL;
	d->pairs_cap = d->pairs_len = 0;
	sd_hook_free(&d->hooks, d->jev);
	d->jev = NULL;
	d->jev_cap = d->jev_len = 0;
	sd_hook_free(&d->hooks, d->found);
	d->found = NULL;
	d->found_cap = 0;
	release_follows(d);
	sd_arena_free(&d->arena);
}

void
sd_decoder_destroy(sd_decoder *d)
{
	if (!d)
		return;
	release_buffers(d);
	sd_hook_free(&d->hooks, d);
}

const sd_val *
sd_decoder_tape(const sd_decoder *d)
{
	return d->tape;
}

const sd_jev *
sd_decoder_events(const sd_decoder *d)
{
	return d->jev;
}

static size_t
follow_bytes(const sd_decoder *d)
{
	size_t		n = 0;

	for (int i = 0; i < SD_FOLLOW_PLANS; i++)
		n += (size_t) d->follows[i].cap * sizeof(int16_t);
	return n;
}

size_t
sd_decoder_bytes(const sd_decoder *d)
{
	return d->padded_cap + (size_t) d->tape_cap * sizeof(sd_val) +
		(size_t) d->stack_cap * sizeof(sd_val) + (size_t) d->path_cap * sizeof(sd_pathent) +
		(size_t) d->pairs_cap * sizeof(sd_pair) + (size_t) d->jev_cap * sizeof(sd_jev) +
		(size_t) d->found_cap * sizeof(sd_found) + d->arena.bytes + follow_bytes(d) +
		(d->parser ? d->kernel->parser_bytes(d->parser) : 0);
}

void
sd_decoder_trim(sd_decoder *d, size_t keep)
{
	if (sd_decoder_bytes(d) > keep)
		release_buffers(d);
}

/* Copies doc into the padded buffer and resets the per-document state. */
/* Grows the padded buffer to hold len bytes plus padding (contents not kept); what names the
 * text in the out-of-memory message ("document", "item"). */
bool
sd_decoder_pad(sd_decoder *d, size_t len, const char *what, sd_error *err)
{
	if (len + SD_PADDING > d->padded_cap)
	{
		size_t		cap = (len + SD_PADDING + 4095) & ~(size_t) 4095;
		char	   *p;

		sd_hook_free(&d->hooks, d->padded);
		d->padded = NULL;
		d->padded_cap = 0;
		if (!(p = sd_hook_alloc(&d->hooks, cap)))
			return sd_error_set(err, SD_E_NOMEM, -1, "out of memory for a %zu-byte %s", len, what);
		d->padded = p;
		d->padded_cap = cap;
	}
	return true;
}

static bool
prepare(sd_decoder *d, const char *doc, size_t len, const sd_limits *limits, sd_limits *lim,
		sd_error *err)
{
	sd_error_clear(err);
	strcpy(err->path, "$");
	*lim = (sd_limits) {SD_DEFAULT_MAX_DEPTH, SD_DEFAULT_MAX_DOCUMENT_BYTES, 0};
	if (limits)
		*lim = *limits;
	if (lim->max_depth == 0)
		lim->max_depth = SD_DEFAULT_MAX_DEPTH;
	if (lim->stack_budget == 0)
		lim->stack_budget = 1024 * 1024;
	if (len > lim->max_document_bytes)
		return sd_error_set(err, SD_E_SIZE, -1,
							"document of %zu bytes exceeds serde.max_document_bytes (%llu)",
							len, (unsigned long long) lim->max_document_bytes);
	if (len > UINT32_MAX - 2 * SD_PADDING)
		return sd_error_set(err, SD_E_SIZE, -1, "document of %zu bytes is too large", len);
	if (!sd_decoder_pad(d, len, "document", err))
		return false;
	memcpy(d->padded, doc, len);
	memset(d->padded + len, 0, SD_PADDING);
	if (!d->parser && !(d->parser = d->kernel->parser_new()))
		return sd_error_set(err, SD_E_NOMEM, -1, "out of memory for the JSON parser");
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
	return true;
}

/* The JSON text in d->padded[0..len) through the kernel's walker and the engine. */
static bool
run_json(sd_decoder *d, const sd_node *node, size_t len, const sd_limits *lim, sd_collect *col,
		 uint32_t *root, sd_error *err)
{
	sd_wcursor *cur;

	if (d->kernel->open(d->parser, &cur, d->padded, len, d->padded_cap, d->offset_bias) < 0)
		return sd_engine_walker_error(d, cur, err);
	return sd_engine_decode(d, cur, node, lim, col, -1, root, err);
}

bool
sd_decode_json(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
			   size_t len, const sd_limits *limits, uint32_t *root, sd_error *err)
{
	sd_limits	lim;

	sd_each_reset(d);
	if (!prepare(d, doc, len, limits, &lim, err) || !bind_plan(d, plan, err))
		return false;
	return run_json(d, node ? node : sd_plan_root(plan), len, &lim, NULL, root, err);
}

int
sd_check_json_found(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
					size_t len, const sd_limits *limits, int max_errors, const sd_found **found,
					int *total, uint32_t *root)
{
	sd_limits	lim;
	sd_collect	col = {d, max_errors > 0 ? max_errors : 1, 0, 0, 0, false};
	sd_error	err;

	*root = UINT32_MAX;
	sd_each_reset(d);
	if (!prepare(d, doc, len, limits, &lim, &err) || !bind_plan(d, plan, &err) ||
		!run_json(d, node ? node : sd_plan_root(plan), len, &lim, &col, root, &err) ||
		col.oom)
	{
		/* malformed input, a limit or a cancel: that one error alone */
		return sd_engine_found_fatal(d, &err, col.oom, found, total, root);
	}
	*found = d->found;
	*total = col.total;
	return col.n;
}

int
sd_check_json(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
			  size_t len, const sd_limits *limits, sd_error *errs, int max_errors, int *total)
{
	const sd_found *found;
	uint32_t	root;
	int			all;
	int			n;

	if (total)
		*total = 0;
	if (max_errors <= 0)
		return 0;
	n = sd_check_json_found(d, plan, node, doc, len, limits, max_errors, &found, &all, &root);
	for (int i = 0; i < n; i++)
	{
		errs[i].code = found[i].code;
		errs[i].offset = found[i].offset;
		snprintf(errs[i].path, sizeof(errs[i].path), "%s", found[i].path);
		snprintf(errs[i].problem, sizeof(errs[i].problem), "%s", found[i].problem);
	}
	if (total)
		*total = all;
	return n;
}

/* ---- serde_errors' answers of the engine (walker.h) ------------------------------------ */

int
sd_engine_check(sd_decoder *d, sd_wcursor *cur, const sd_node *node, const sd_limits *limits,
				int max_errors, const sd_found **found, int *total, uint32_t *root)
{
	sd_collect	col = {d, max_errors > 0 ? max_errors : 1, 0, 0, 0, false};
	sd_error	err;

	*root = UINT32_MAX;
	sd_error_clear(&err);
	strcpy(err.path, "$");
	if (!sd_engine_decode(d, cur, node, limits, &col, -1, root, &err) || col.oom)
		return sd_engine_found_fatal(d, &err, col.oom, found, total, root);
	*found = d->found;
	*total = col.total;
	return col.n;
}
