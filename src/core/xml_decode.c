/*
 * xml_decode.c — an XML document through the one rule engine: opens the XML walker
 * (xml_walk.c) over the document, checks the plan's root element (`xml.root` and its
 * namespace: the one rule that JSON has no counterpart for) and runs engine.c on the root
 * element, first error (sd_decode_xml) or every violation (sd_check_xml_found).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "walker.h"
#include "xml_walk.h"
#include "xml_decode.h"
#include "xmlnames.h"

bool
sd_xml_root_is(const sd_plan *plan, const sd_wkey *rk)
{
	const sd_xml_name *want = sd_plan_xml_root(plan);
	const sd_node *rn = sd_plan_root(plan);
	const char *ns = rk->ns;
	size_t		nslen = rk->ns_len;

	/* a root in the shape's namespace: in any of its `xml.namespaces` */
	if (want && rn->nxml_alt && want->ns == rn->xml_ns)
		sd_xml_ns_canon(rn, SD_XML_ELEMENT, &ns, &nslen);
	return !want || !want->local || sd_xml_name_is(want, rk->s, rk->len, ns, nslen);
}

/* The root element against the plan's xml.root: false with err (2200N) when it is another. */
static bool
root_ok(const sd_plan *plan, sd_xcursor *xc, const sd_wkey *rk, int64_t off, sd_error *err)
{
	const sd_xml_name *want = sd_plan_xml_root(plan);
	char		a[300],
				b[300],
				gl[256],
				gn[256];
	sd_xml_name got = {NULL, NULL};

	if (sd_xml_root_is(plan, rk))
		return true;
	snprintf(gl, sizeof(gl), "%.*s", (int) rk->len, rk->s);
	snprintf(gn, sizeof(gn), "%.*s", (int) rk->ns_len, rk->ns ? rk->ns : "");
	got.local = gl;
	got.ns = rk->ns_len ? gn : NULL;
	err->path[0] = '\0';
	sd_xpath_element(err->path, rk->prefix, rk->prefix_len, rk->s, rk->len, 0);
	sd_error_set(err, SD_E_XML_KIND, off, "expected root element %s, found %s",
				 sd_xml_clark(want, a, sizeof(a)), sd_xml_clark(&got, b, sizeof(b)));
	err->doc = SD_DOC_XML;
	sd_xml_walker_locate(xc, off, &err->line, &err->column);
	return false;
}

static bool
xml_run(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc, size_t len,
		const sd_limits *limits, sd_collect *col, uint32_t *root, sd_error *err)
{
	sd_limits	lim = sd_limits_or_defaults(limits, (sd_limits) {0, 0, 0});
	sd_limits	elim;
	sd_wtok		t;
	sd_wkey		rk;
	sd_xcursor *xc;
	sd_wcursor *cur;
	bool		ok;

	/* the reader enforces max_depth on elements (its own error); the engine's guard, one level
	 * further, only backs it up */
	elim = lim;
	elim.max_depth = lim.max_depth + 1;
	sd_error_clear(err);
	err->doc = SD_DOC_XML;
	strcpy(err->path, "/");
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
	/* the plan's fact holds for what its root reaches (another node: every text kept) */
	xc = sd_xml_walker_open(d, doc, len, limits ? &lim : NULL,
							(!node || node == sd_plan_root(plan)) && plan->xml_leaf_text_only, err);
	if (!xc)
		return false;
	cur = sd_xml_walker_cursor(xc);
	if (!node)
		node = sd_plan_root(plan);
	if (cur->ops->peek(cur, &t) < 0)
	{
		ok = sd_engine_walker_error(d, cur, err);
		goto done;
	}
	sd_xml_walker_root_key(xc, &rk);
	if (node == sd_plan_root(plan) && !root_ok(plan, xc, &rk, t.offset, err))
	{
		/* serde_errors: that one violation, the document still read to its end (well-formed) */
		ok = false;
		if (col)
		{
			sd_error	werr;

			sd_collect_add(col, err);
			if (cur->ops->skip_fast(cur, &t, UINT32_MAX) < 0 || cur->ops->finish(cur) < 0)
			{
				sd_engine_walker_error(d, cur, &werr);
				*err = werr;
				goto done;
			}
			ok = true;
			*root = UINT32_MAX;
		}
		goto done;
	}
	ok = sd_engine_decode(d, cur, node, &elim, col, -1, root, err);
done:
	sd_xml_walker_close(xc);
	return ok;
}

bool
sd_decode_xml(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
			  size_t len, const sd_limits *limits, uint32_t *root, sd_error *err)
{
	return xml_run(d, plan, node, doc, len, limits, NULL, root, err);
}

int
sd_check_xml_found(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
				   size_t len, const sd_limits *limits, int max_errors, const sd_found **found,
				   int *total, uint32_t *root)
{
	sd_collect	col = {d, max_errors > 0 ? max_errors : 1, 0, 0, 0, false};
	sd_error	err;

	*root = UINT32_MAX;
	if (!xml_run(d, plan, node, doc, len, limits, &col, root, &err) || col.oom)
		return sd_engine_found_fatal(d, &err, col.oom, found, total, root);
	*found = d->found;
	*total = col.total;
	return col.n;
}
