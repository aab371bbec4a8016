/*
 * decoder.c — the reusable decoder handle: padded document copy, value tape, element stack,
 * byte arena, and the kernel's simdjson parser; sd_decode_json() prepares a document and hands
 * it to the SIMD kernel chosen at load time.
 */
#include "internal.h"

#include <string.h>

const sd_kernel *sd_select_kernel(void);

bool
sd_grow(const sd_hooks *h, void **buf, uint32_t *cap, uint32_t need, size_t elem_size)
{
	uint64_t	ncap = *cap ? *cap : 64;
	void	   *nb;

	if (need <= *cap)
		return true;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX || ncap * elem_size > ((uint64_t) 1 << 40))
		return false;
	if (!(nb = sd_hook_realloc(h, *buf, (size_t) ncap * elem_size)))
		return false;
	*buf = nb;
	*cap = (uint32_t) ncap;
	return true;
}

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

static void
release_buffers(sd_decoder *d)
{
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

size_t
sd_decoder_bytes(const sd_decoder *d)
{
	return d->padded_cap + (size_t) d->tape_cap * sizeof(sd_val) +
		(size_t) d->stack_cap * sizeof(sd_val) + (size_t) d->path_cap * sizeof(sd_pathent) +
		(size_t) d->pairs_cap * sizeof(sd_pair) + d->arena.bytes +
		(d->parser ? d->kernel->parser_bytes(d->parser) : 0);
}

void
sd_decoder_trim(sd_decoder *d, size_t keep)
{
	if (sd_decoder_bytes(d) > keep)
		release_buffers(d);
}

bool
sd_decode_json(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
			   size_t len, const sd_limits *limits, uint32_t *root, sd_error *err)
{
	sd_limits	lim = {SD_DEFAULT_MAX_DEPTH, SD_DEFAULT_MAX_DOCUMENT_BYTES, 0};

	sd_error_clear(err);
	strcpy(err->path, "$");
	if (limits)
		lim = *limits;
	if (lim.max_depth == 0)
		lim.max_depth = SD_DEFAULT_MAX_DEPTH;
	if (lim.stack_budget == 0)
		lim.stack_budget = 1024 * 1024;
	if (len > lim.max_document_bytes)
		return sd_error_set(err, SD_E_SIZE, -1,
							"document of %zu bytes exceeds serde.max_document_bytes (%llu)",
							len, (unsigned long long) lim.max_document_bytes);
	if (len > UINT32_MAX - 2 * SD_PADDING)
		return sd_error_set(err, SD_E_SIZE, -1, "document of %zu bytes is too large", len);
	if (!node)
		node = sd_plan_root(plan);
	if (len + SD_PADDING > d->padded_cap)
	{
		size_t		cap = (len + SD_PADDING + 4095) & ~(size_t) 4095;
		char	   *p;

		sd_hook_free(&d->hooks, d->padded);
		d->padded = NULL;
		d->padded_cap = 0;
		if (!(p = sd_hook_alloc(&d->hooks, cap)))
			return sd_error_set(err, SD_E_NOMEM, -1, "out of memory for a %zu-byte document", len);
		d->padded = p;
		d->padded_cap = cap;
	}
	memcpy(d->padded, doc, len);
	memset(d->padded + len, 0, SD_PADDING);
	if (!d->parser && !(d->parser = d->kernel->parser_new()))
		return sd_error_set(err, SD_E_NOMEM, -1, "out of memory for the JSON parser");
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	sd_arena_reset(&d->arena);
	return d->kernel->decode(d, plan, node, len, &lim, root, err);
}
