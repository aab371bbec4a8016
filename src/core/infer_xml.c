/*
 * infer_xml.c — one XML sample into serde_infer's model, read by the core's XML reader
 * (xml_read.c, streaming): an element with attributes or child elements is an object (its
 * attributes, its child elements by namespace and local name, its non-blank text as the text
 * member); an element with neither is a scalar read from its text.  A child element that occurs
 * more than once in one element is a list (max_repeat).
 */
#include "infer_int.h"
#include "xml_read.h"

#include <string.h>

#define XSI_NS "http://www.w3.org/2001/XMLSchema-instance"

typedef struct xframe
{
	inf_node   *node;
	int		   *ms, *ds;
	int			n, cap;
	int			parent_slot;    /* this element's entry in the parent's ms/ds */
	bool		object;         /* attributes or child elements seen */
	sd_buf		text;
} xframe;

static bool
push_member(sd_infer *inf, xframe *f, int m, int d)
{
	if (f->n == f->cap)
	{
		int			cap = f->cap ? f->cap * 2 : 16;
		int		   *ms = sd_arena_alloc(&inf->scratch, (size_t) cap * sizeof(int));
		int		   *ds = sd_arena_alloc(&inf->scratch, (size_t) cap * sizeof(int));

		if (!ms || !ds)
			return inf_oom(inf);
		if (f->n)
		{
			memcpy(ms, f->ms, (size_t) f->n * sizeof(int));
			memcpy(ds, f->ds, (size_t) f->n * sizeof(int));
		}
		f->ms = ms;
		f->ds = ds;
		f->cap = cap;
	}
	f->ms[f->n] = m;
	f->ds[f->n++] = d;
	return true;
}

static bool
start(sd_infer *inf, xframe *f, xframe *parent, const sd_xev *ev)
{
	memset(f, 0, sizeof(*f));
	sd_buf_init(&f->text, &inf->hooks);
	if (!parent)
		f->node = inf->root;
	else
	{
		char		local[1024];
		char		uri[2048];
		int			m;

		if (ev->name.local_len >= sizeof(local) || ev->name.uri_len >= sizeof(uri))
			return sd_error_set(inf->err, SD_E_SIZE, -1, "element name too long");
		memcpy(local, ev->name.local, ev->name.local_len);
		local[ev->name.local_len] = 0;
		if (ev->name.uri)
		{
			memcpy(uri, ev->name.uri, ev->name.uri_len);
			uri[ev->name.uri_len] = 0;
		}
		m = inf_member_get(inf, parent->node, local, ev->name.local_len, INF_K_ELEMENT,
						   ev->name.uri ? uri : NULL);
		if (m < 0)
			return false;
		parent->object = true;
		f->parent_slot = parent->n;
		if (!push_member(inf, parent, m, -1))
			return false;
		f->node = parent->node->mem[m].val;
		if (!f->node->ns && ev->name.uri && !(f->node->ns = parent->node->mem[m].ns))
			return false;
	}
	for (uint32_t i = 0; i < ev->nattrs; i++)
	{
		const sd_xattr *a = &ev->attrs[i];
		char		uri[2048];
		int			m, d;

		if (a->name.uri && a->name.uri_len == strlen(XSI_NS) &&
			memcmp(a->name.uri, XSI_NS, a->name.uri_len) == 0)
			continue;
		if (a->name.uri_len >= sizeof(uri))
			return sd_error_set(inf->err, SD_E_SIZE, -1, "attribute namespace too long");
		if (a->name.uri)
		{
			memcpy(uri, a->name.uri, a->name.uri_len);
			uri[a->name.uri_len] = 0;
		}
		m = inf_member_get(inf, f->node, a->name.local, a->name.local_len, INF_K_ATTRIBUTE,
						   a->name.uri ? uri : NULL);
		if (m < 0 || !inf_add_string(inf, f->node->mem[m].val, a->value, a->value_len, true, &d) ||
			!push_member(inf, f, m, d))
			return false;
		f->object = true;
	}
	return true;
}

static bool
end(sd_infer *inf, xframe *f, xframe *parent)
{
	bool		ok;
	const char *t = f->text.s ? f->text.s : "";

	if (f->text.failed)
		return inf_oom(inf);
	if (f->object || !parent)
	{
		if (!sd_is_blank(t, f->text.len))
		{
			int			m = inf_member_get(inf, f->node, "", 0, INF_K_TEXT, NULL);
			int			d;

			if (m < 0 || !inf_add_string(inf, f->node->mem[m].val, t, f->text.len, true, &d) ||
				!push_member(inf, f, m, d))
				return false;
		}
		ok = inf_object_done(inf, f->node, f->ms, f->ds, f->n);
	}
	else
		ok = inf_add_string(inf, f->node, t, f->text.len, true, &parent->ds[f->parent_slot]);
	sd_buf_free(&f->text);
	return ok;
}

bool
inf_add_xml(sd_infer *inf, const char *doc, size_t len)
{
	sd_xr_options xo = {inf->limits.max_depth, inf->limits.max_document_bytes, 0};
	sd_xreader *r = sd_xr_open(&inf->hooks, doc, len, &xo, inf->err);
	xframe	   *stack = NULL;
	uint32_t	cap = 0, depth = 0;
	sd_xev		ev;
	int			rc;
	bool		ok = true;

	if (!r)
		return false;
	while (ok && (rc = sd_xr_next(r, &ev, inf->err)) == 1)
	{
		if (ev.kind == SD_XEV_START)
		{
			if (depth == cap)
			{
				uint32_t	nc = cap ? cap * 2 : 16;
				xframe	   *ns = sd_arena_alloc(&inf->scratch, nc * sizeof(xframe));

				if (!ns)
				{
					ok = inf_oom(inf);
					break;
				}
				if (depth)
					memcpy(ns, stack, depth * sizeof(xframe));
				stack = ns;
				cap = nc;
			}
			if (depth == 0)
			{
				if (!inf->root_local)
				{
					inf->root_local = sd_arena_strndup(&inf->arena, ev.name.local, ev.name.local_len);
					inf->root_ns = ev.name.uri ? sd_arena_strndup(&inf->arena, ev.name.uri, ev.name.uri_len) : NULL;
					if (!inf->root_local || (ev.name.uri && !inf->root_ns))
					{
						ok = inf_oom(inf);
						break;
					}
					inf->root->ns = inf->root_ns;
				}
				else if (strlen(inf->root_local) != ev.name.local_len ||
						 memcmp(inf->root_local, ev.name.local, ev.name.local_len) != 0 ||
						 (inf->root_ns == NULL) != (ev.name.uri == NULL) ||
						 (ev.name.uri && (strlen(inf->root_ns) != ev.name.uri_len ||
										  memcmp(inf->root_ns, ev.name.uri, ev.name.uri_len) != 0)))
				{
					ok = sd_error_set(inf->err, SD_E_OPTIONS, -1,
									  "sample %u's root element is not the first sample's (%s)",
									  inf->samples + 1, inf->root_local);
					break;
				}
			}
			ok = start(inf, &stack[depth], depth ? &stack[depth - 1] : NULL, &ev);
			depth++;
		}
		else if (ev.kind == SD_XEV_TEXT && depth > 0)
			sd_buf_put(&stack[depth - 1].text, ev.text, ev.text_len);
		else if (ev.kind == SD_XEV_END && depth > 0)
		{
			depth--;
			ok = end(inf, &stack[depth], depth ? &stack[depth - 1] : NULL);
		}
		ok = ok && inf_stop(inf);
	}
	for (uint32_t i = 0; i < depth; i++)
		sd_buf_free(&stack[i].text);
	sd_xr_close(r);
	if (ok && rc < 0)
		ok = false;
	if (!ok)
		inf->err->doc = SD_DOC_XML;
	return ok;
}
