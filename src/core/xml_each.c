/*
 * xml_each.c — XML batches (serde_decode_each_xml, serde_decode_each_report_xml,
 * serde_errors_each_xml): the document's root element is the batch, each of its child elements
 * one item, decoded by the one rule engine exactly as sd_decode_xml decodes a document whose
 * root is that element.
 *
 * One XML walker (xml_walk.c) reads the whole document as a stream: its root is read once and
 * kept as the frame around every item (its namespace declarations stay in scope), then each
 * child element is put at the cursor and the engine decodes it (first_index: its XPath position,
 * so paths read "/Batch/Item[3]/Size"); the tape and the arena are reset between items, so
 * memory is bounded by the largest item.  Children whose name is not the shape's `xml.root`
 * (when it sets one) are not items: skipped, whatever the shape's `unknown` (that policy is
 * about an item's members).  The root's own text is not an item either.  An item that fails
 * leaves the walker inside it: the next call skips to its end.  Malformed XML (or the reader's
 * depth limit) ends the batch, since the reader cannot go on: the items before it were already
 * returned.  A cancel ends the batch too (the stream cannot be read again).
 *
 * each.c's sd_each_triage / sd_each_check / sd_each_recheck / sd_each_item come here when the
 * batch was begun by sd_each_begin_xml (d->each_xml): the same statuses as for JSON.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "walker.h"
#include "xml_decode.h"
#include "xml_walk.h"

typedef struct xtally
{
	const char *local;          /* in the reader's dictionary */
	size_t		llen;
	const char *uri;
	size_t		ulen;
	uint64_t	n;
} xtally;

struct sd_xeach
{
	sd_xcursor *xc;
	bool		begun;          /* the root was read */
	uint64_t	item;           /* items read so far (the last one's 1-based number) */
	uint64_t	pos;            /* the last item's XPath position */
	int64_t		last_start;     /* the last item's '<' (sd_each_recheck finds it again) */
	sd_wkey		last_key;       /* ... and its name */
	xtally	   *tally;          /* children seen, by name (XPath positions) */
	uint32_t	ntally;
	uint32_t	captally;
};

/* Ends an XML batch (sd_each_reset calls it through d->each_xml_end). */
static void
xml_each_end(sd_decoder *d)
{
	sd_xeach   *x = d->each_xml;

	if (!x)
		return;
	d->each_xml = NULL;
	sd_xml_walker_close(x->xc);
	sd_hook_free(&d->hooks, x->tally);
	sd_hook_free(&d->hooks, x);
}

static sd_limits
item_limits(const sd_decoder *d)
{
	sd_limits	lim = d->each_limits;

	/* the reader enforces max_depth on elements (the batch's root at depth 1); the engine's
	 * guard, two levels further (the root and the item), only backs it up */
	lim.max_depth += 2;
	return lim;
}

bool
sd_each_begin_xml(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
				  size_t len, const sd_limits *limits, sd_error *err)
{
	sd_xeach   *x;
	sd_limits	lim;

	sd_each_reset(d);
	sd_error_clear(err);
	err->doc = SD_DOC_XML;
	strcpy(err->path, "/");
	if (!sd_decoder_bind(d, plan, err))
		return false;
	lim = sd_limits_or_defaults(limits, (sd_limits) {SD_DEFAULT_MAX_DEPTH,
													 SD_DEFAULT_MAX_DOCUMENT_BYTES, 0});
	if (!(x = sd_hook_alloc(&d->hooks, sizeof(sd_xeach))))
		return sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
	memset(x, 0, sizeof(*x));
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
	if (!(x->xc = sd_xml_walker_open(d, doc, len, &lim,
									 (!node || node == sd_plan_root(plan)) && plan->xml_leaf_text_only,
									 err)))
	{
		sd_hook_free(&d->hooks, x);
		return false;
	}
	d->each_xml = x;
	d->each_xml_end = xml_each_end;
	d->each_plan = plan;
	d->each_node = node ? node : sd_plan_root(plan);
	d->each_limits = lim;
	d->each_input = doc;
	d->each_len = len;
	d->row_line = 0;
	d->row_start = 0;
	return true;
}

/* The XPath position of a child named k among the root's children of that name. */
static bool
count_child(sd_decoder *d, sd_xeach *x, const sd_wkey *k, uint64_t *pos)
{
	for (uint32_t i = 0; i < x->ntally; i++)
	{
		xtally	   *t = &x->tally[i];

		if (t->llen == k->len && t->ulen == k->ns_len && memcmp(t->local, k->s, k->len) == 0 &&
			(k->ns_len == 0 || memcmp(t->uri, k->ns, k->ns_len) == 0))
		{
			*pos = ++t->n;
			return true;
		}
	}
	if (!sd_grow(&d->hooks, (void **) &x->tally, &x->captally, x->ntally + 1, sizeof(xtally)))
		return false;
	x->tally[x->ntally++] = (xtally) {k->s, k->len, k->ns, k->ns_len, 1};
	*pos = 1;
	return true;
}

/* The walker's failure (an op returned -1) as the batch's error: 3 (the reader cannot go on:
 * malformed XML, a limit), -1 (out of memory, a cancel). */
static int
walker_failed(sd_decoder *d, sd_xeach *x, sd_error *err)
{
	sd_engine_walker_error(d, sd_xml_walker_cursor(x->xc), err);
	err->doc = SD_DOC_XML;
	return err->code == SD_E_NOMEM || err->code == SD_E_CANCELED ||
		err->code == SD_E_INTERNAL ? -1 : 3;
}

/* The next item at the cursor: 1 (*root-less: the caller decodes it), 0 the batch ended (the
 * rest of the document read, well-formed), 3 / -1 with err (walker_failed). */
static int
next_item(sd_decoder *d, sd_xeach *x, sd_error *err)
{
	sd_wcursor *cur = sd_xml_walker_cursor(x->xc);
	sd_wkey		k;
	uint64_t	pos;
	int			r;

	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
	if (!x->begun)
	{
		x->begun = true;
		if (sd_xml_walker_batch_begin(x->xc) < 0)
			return walker_failed(d, x, err);
	}
	for (;;)
	{
		if ((r = sd_xml_walker_batch_next(x->xc, &k)) < 0)
			return walker_failed(d, x, err);
		if (r == 0)
		{
			if (cur->ops->finish(cur) < 0)
				return walker_failed(d, x, err);
			return 0;
		}
		if (!count_child(d, x, &k, &pos))
		{
			sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
			return -1;
		}
		if (d->each_node != sd_plan_root(d->each_plan) || sd_xml_root_is(d->each_plan, &k))
			break;
	}
	x->item++;
	x->pos = pos;
	x->last_start = k.offset;
	x->last_key = k;
	d->row_line = x->item;
	return 1;
}

/* Whether the reader failed (the batch cannot go on after the item). */
static bool
reader_failed(const sd_xeach *x)
{
	return sd_xml_walker_error(x->xc)->code != SD_OK;
}

int
sd_each_xml_triage(sd_decoder *d, uint32_t *root, sd_error *err)
{
	sd_xeach   *x = d->each_xml;
	sd_limits	lim = item_limits(d);
	int			r;

	sd_error_clear(err);
	err->doc = SD_DOC_XML;
	strcpy(err->path, "/");
	if (!sd_decoder_bind(d, d->each_plan, err))
	{
		sd_each_reset(d);
		return -1;
	}
	if ((r = next_item(d, x, err)) != 1)
	{
		if (r == 3)
			d->row_line = x->item + 1;
		sd_each_reset(d);
		return r;
	}
	if (sd_engine_decode(d, sd_xml_walker_cursor(x->xc), d->each_node, &lim, NULL,
						 (int64_t) x->pos - 1, root, err))
		return 1;
	err->doc = SD_DOC_XML;
	if (err->code == SD_E_CANCELED || err->code == SD_E_NOMEM || err->code == SD_E_INTERNAL ||
		err->code == SD_E_UNSUPPORTED)
	{
		sd_each_reset(d);
		return -1;
	}
	if (reader_failed(x))
	{
		sd_each_reset(d);
		return 3;
	}
	return 2;
}

/* serde_errors' mode over the item at the cursor of x (the batch's or a recheck's). */
static int
check_item(sd_decoder *d, sd_xeach *x, int max_errors, const sd_found **found, int *n,
		   int *total, uint32_t *root)
{
	sd_collect	col = {d, max_errors > 0 ? max_errors : 1, 0, 0, 0, false};
	sd_limits	lim = item_limits(d);
	sd_error	err;

	sd_error_clear(&err);
	err.doc = SD_DOC_XML;
	strcpy(err.path, "/");
	if (!sd_engine_decode(d, sd_xml_walker_cursor(x->xc), d->each_node, &lim, &col,
						  (int64_t) x->pos - 1, root, &err) || col.oom)
	{
		bool		oom = col.oom;

		err.doc = SD_DOC_XML;
		*n = sd_engine_found_fatal(d, &err, oom, found, total, root);
		if (oom || err.code == SD_E_NOMEM || err.code == SD_E_INTERNAL ||
			err.code == SD_E_UNSUPPORTED || err.code == SD_E_CANCELED)
			return -1;
		return reader_failed(x) ? 3 : 2;
	}
	*found = d->found;
	*n = col.n;
	*total = col.total;
	return *n > 0 ? 2 : 1;
}

int
sd_each_xml_check(sd_decoder *d, int max_errors, const sd_found **found, int *n, int *total,
				  uint32_t *root)
{
	sd_xeach   *x = d->each_xml;
	sd_error	err;
	int			r;

	sd_error_clear(&err);
	err.doc = SD_DOC_XML;
	strcpy(err.path, "/");
	if (!sd_decoder_bind(d, d->each_plan, &err))
	{
		sd_each_reset(d);
		*n = sd_engine_found_fatal(d, &err, false, found, total, root);
		return -1;
	}
	if ((r = next_item(d, x, &err)) != 1)
	{
		if (r != 0)
		{
			d->row_line = x->item + 1;
			*n = sd_engine_found_fatal(d, &err, false, found, total, root);
		}
		sd_each_reset(d);
		return r;
	}
	r = check_item(d, x, max_errors, found, n, total, root);
	if (r == 3 || r == -1)
		sd_each_reset(d);
	return r;
}

/* The item sd_each_xml_triage returned last, read again from the document's start by a walker
 * of its own (the batch's stream has gone past it): rare (a host's check failed on a good
 * item), so a second pass over the items before it is acceptable. */
int
sd_each_xml_recheck(sd_decoder *d, int max_errors, const sd_found **found, int *n, int *total,
					uint32_t *root)
{
	sd_xeach   *x = d->each_xml;
	sd_xeach	y;
	sd_error	err;
	sd_wkey		k;
	int			r;

	memset(&y, 0, sizeof(y));
	y.pos = x->pos;
	sd_error_clear(&err);
	err.doc = SD_DOC_XML;
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
	if (!(y.xc = sd_xml_walker_open(d, d->each_input, d->each_len, &d->each_limits, false, &err)))
		return (*n = sd_engine_found_fatal(d, &err, false, found, total, root)), -1;
	if (sd_xml_walker_batch_begin(y.xc) < 0)
		goto failed;
	while ((r = sd_xml_walker_batch_next(y.xc, &k)) == 1 && k.offset != x->last_start)
		;
	if (r != 1)
	{
		if (r == 0)
			sd_error_set(&err, SD_E_INTERNAL, -1, "no batch item to read again");
		goto failed;
	}
	r = check_item(d, &y, max_errors, found, n, total, root);
	sd_xml_walker_close(y.xc);
	return r;
failed:
	if (err.code == SD_OK)
		sd_engine_walker_error(d, sd_xml_walker_cursor(y.xc), &err);
	sd_xml_walker_close(y.xc);
	*n = sd_engine_found_fatal(d, &err, false, found, total, root);
	return -1;
}

void
sd_each_xml_where(const sd_decoder *d, char *path)
{
	const sd_xeach *x = d->each_xml;
	sd_wkey		rk;

	path[0] = '\0';
	if (!x)
		return;
	sd_xml_walker_cursor(x->xc)->ops->batch_key(sd_xml_walker_cursor(x->xc), &rk);
	sd_xpath_element(path, rk.prefix, rk.prefix_len, rk.s, rk.len, 0);
	sd_xpath_element(path, x->last_key.prefix, x->last_key.prefix_len, x->last_key.s,
					 x->last_key.len, x->pos);
}
