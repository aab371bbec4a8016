/*
 * defaults.c — a field's `default`, compiled once: the default's JSON (already parsed by jtree.c
 * with the options) is decoded against the field's node by the rule engine (engine.c), which
 * pulls the tree through jtree_walk.c as it pulls a document through a text or jsonb walker —
 * so a default obeys every rule of the plan exactly as a document does (members, missing and
 * nested defaults, unknown / `extra`, duplicates, unions, maps, path prefixes, json/jsonb text,
 * NOT NULL).  This file only runs the engine once per default, with the plan compiler's own
 * hooks (should_stop polled as while compiling: SD_E_CANCELED), into one value tape the plan
 * owns, with the plan's arena for the converted bytes.  The host turns these values into its
 * own (PostgreSQL: under the settings of the statement that uses them).  First-error mode only:
 * a default that does not fit is an error of the shape (compile.c words it).
 */
#include "internal.h"
#include "jtree_walk.h"

#include <string.h>

static bool
nomem(sd_error *err)
{
	return sd_error_set(err, SD_E_NOMEM, -1, "out of memory while compiling a default");
}

bool
sd_defaults_compile(sd_plan *plan, sd_arena *arena, const sd_jnode *const *values,
					int *failed, sd_error *err)
{
	const sd_hooks *hooks = &arena->hooks;
	sd_limits	lim = {SD_DEFAULT_MAX_DEPTH, SD_DEFAULT_MAX_DOCUMENT_BYTES, 1024 * 1024};
	sd_decoder *d;
	sd_arena	own;
	uint32_t   *roots;
	bool		ok = true;

	*failed = -1;
	if (plan->ndefaults == 0)
		return true;
	if (!(roots = sd_arena_alloc(arena, sizeof(uint32_t) * (size_t) plan->ndefaults)) ||
		!(d = sd_decoder_create(hooks)))
		return nomem(err);
	if (!sd_decoder_bind(d, plan, err))
	{
		sd_decoder_destroy(d);
		return nomem(err);
	}
	/* the values' bytes (strings, `extra` objects, ...) go straight into the plan's arena: the
	 * decoder's arena is swapped for it during the runs (the engine never resets d->arena while
	 * it decodes — the tape it writes points into it — so the options tree there is safe) */
	own = d->arena;
	d->arena = *arena;
	for (int i = 0; ok && i < plan->ndefaults; i++)
	{
		sd_jtree_cursor cur;

		sd_error_clear(err);
		strcpy(err->path, "$");
		sd_jtree_walk_open(&cur, values[i], hooks);
		ok = sd_engine_decode(d, &cur.head, plan->defaults[i]->node, &lim, NULL, -1, &roots[i], err);
		sd_jtree_walk_close(&cur);
		if (!ok && err->code == SD_E_CANCELED)
		{
			/* should_stop, polled by the engine as by the compiler: the compile's cancel */
			strcpy(err->path, "$");
			sd_error_set(err, SD_E_CANCELED, -1, "canceled while compiling a shape");
		}
		else if (!ok && err->code != SD_E_NOMEM)
			*failed = i;
	}
	*arena = d->arena;
	d->arena = own;
	if (ok)
	{
		sd_val	   *tape = sd_arena_alloc(arena, sizeof(sd_val) * (size_t) (d->tape_len ? d->tape_len : 1));

		if (tape)
		{
			memcpy(tape, d->tape, sizeof(sd_val) * d->tape_len);
			plan->dtape = tape;
			plan->dtape_len = d->tape_len;
			plan->droots = roots;
			sd_error_clear(err);
		}
		else
			ok = nomem(err);
	}
	else if (err->code == SD_E_NOMEM)
		nomem(err);
	sd_decoder_destroy(d);
	return ok;
}
