/*
 * xml_capture.c — sd_xml_standalone (xml_capture.h): an element's bytes made a standalone,
 * equivalent element for an `xml` column.  The element is scanned once for the prefixes its
 * element and attribute names use (comments, PIs and CDATA sections skipped, quoted attribute
 * values skipped whole); those its own start tag does not declare are looked up in the
 * declarations of the elements around it, innermost first, and written onto its start tag;
 * the line ends are normalised as XML does (CR LF, lone CR -> LF).
 */
#include "xml_capture.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* A prefix used in the subtree (len 0 with p NULL: the default namespace). */
typedef struct xuse
{
	const char *p;
	uint32_t	len;
	bool		done;           /* declared on the element itself, or its declaration found */
	const sd_xnsdecl *decl;     /* the declaration in scope found for it */
} xuse;

typedef struct xuses
{
	const sd_hooks *hooks;
	xuse	   *v;
	uint32_t	n;
	uint32_t	cap;
	bool		nomem;
} xuses;

static bool
xc_name_end(char c)
{
	return sd_is_ws(c) || c == '/' || c == '>' || c == '=';
}

static void
use_add(xuses *u, const char *p, uint32_t len)
{
	if (u->nomem)
		return;
	if (u->n == u->cap && !sd_grow(u->hooks, (void **) &u->v, &u->cap, u->n + 1, sizeof(xuse)))
	{
		u->nomem = true;
		return;
	}
	xuse	   *x = &u->v[u->n++];

	x->p = len ? p : NULL;
	x->len = len;
	x->done = false;
	x->decl = NULL;
}

static int
use_cmp2(const char *a, uint32_t alen, const char *b, uint32_t blen)
{
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return alen ? memcmp(a, b, alen) : 0;
}

static int
use_cmp(const void *pa, const void *pb)
{
	const xuse *a = pa,
			   *b = pb;

	return use_cmp2(a->p, a->len, b->p, b->len);
}

/* The used entry for a declaration's prefix (NULL: the default namespace), or NULL. */
static xuse *
use_find(xuses *u, const char *p, uint32_t len)
{
	uint32_t	lo = 0,
				hi = u->n;

	while (lo < hi)
	{
		uint32_t	mid = lo + (hi - lo) / 2;
		int			c = use_cmp2(p, len, u->v[mid].p, u->v[mid].len);

		if (c == 0)
			return &u->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The prefix of the name s[0..n): its length before ':' (0: none). */
static uint32_t
name_prefix(const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n);

	return colon ? (uint32_t) (colon - s) : 0;
}

static bool
is_xmlns(const char *s, size_t n)
{
	return n >= 5 && memcmp(s, "xmlns", 5) == 0 && (n == 5 || s[5] == ':');
}

/* s + i past the `end` marker at or after i (n when absent). */
static size_t
skip_past(const char *s, size_t n, size_t i, const char *end)
{
	size_t		el = strlen(end);

	while (i + el <= n)
	{
		const char *q = memchr(s + i, end[0], n - i);

		if (!q)
			return n;
		i = (size_t) (q - s);
		if (i + el <= n && memcmp(s + i, end, el) == 0)
			return i + el;
		i++;
	}
	return n;
}

/*
 * The start tag at s[i] ('<' then a name): its name's prefix use, then its attributes'; the
 * xmlns ones are declarations (given to decl when not NULL, for the captured element itself).
 * Returns the index past its '>'.
 */
static size_t
start_tag(const char *s, size_t n, size_t i, xuses *u, xuses *decl)
{
	size_t		name = ++i;

	while (i < n && !xc_name_end(s[i]))
		i++;
	uint32_t	pl = name_prefix(s + name, i - name);

	use_add(u, s + name, pl);	/* (an element is never in xml:) */
	for (;;)
	{
		while (i < n && sd_is_ws(s[i]))
			i++;
		if (i >= n || s[i] == '>' || s[i] == '/')
			break;
		size_t		an = i;

		while (i < n && !xc_name_end(s[i]))
			i++;
		size_t		alen = i - an;

		while (i < n && (sd_is_ws(s[i]) || s[i] == '='))
			i++;
		if (i < n && (s[i] == '"' || s[i] == '\''))
		{
			const char *q = memchr(s + i + 1, s[i], n - i - 1);

			i = q ? (size_t) (q - s) + 1 : n;
		}
		if (is_xmlns(s + an, alen))
		{
			if (decl)
				use_add(decl, alen > 5 ? s + an + 6 : NULL, alen > 5 ? (uint32_t) (alen - 6) : 0);
			continue;
		}
		pl = name_prefix(s + an, alen);
		/* unprefixed attributes are in no namespace; xml: is bound everywhere */
		if (pl && !(pl == 3 && memcmp(s + an, "xml", 3) == 0))
			use_add(u, s + an, pl);
	}
	const char *gt = i < n ? memchr(s + i, '>', n - i) : NULL;

	return gt ? (size_t) (gt - s) + 1 : n;
}

/* The reference that writes c inside a double-quoted attribute value, or NULL: c itself. */
static const char *
escape_of(char c)
{
	switch (c)
	{
		case '&':
			return "&amp;";
		case '<':
			return "&lt;";
		case '"':
			return "&quot;";
		case '\t':
			return "&#9;";
		case '\n':
			return "&#10;";
		case '\r':
			return "&#13;";
		default:
			return NULL;
	}
}

/* Writes s[0..n) escaped into dst (NULL: only measures); returns the length. */
static size_t
put_escaped(char *dst, const char *s, size_t n)
{
	size_t		o = 0;

	for (size_t i = 0; i < n; i++)
	{
		const char *rep = escape_of(s[i]);
		size_t		rl = rep ? strlen(rep) : 1;

		if (dst)
			memcpy(dst + o, rep ? rep : s + i, rl);
		o += rl;
	}
	return o;
}

static bool
xc_fail(sd_error *err, sd_code code, const char *problem)
{
	sd_error_clear(err);
	err->doc = SD_DOC_XML;
	strcpy(err->path, "/");
	sd_error_set(err, code, -1, "%s", problem);
	return false;
}

bool
sd_xml_standalone(sd_xreader *r, const sd_hooks *hooks, sd_arena *arena, int64_t start,
				  int64_t end, sd_xns_scope scope, void *ud, uint32_t nscopes,
				  const char **out, size_t *outlen, sd_error *err)
{
	size_t		dlen;
	const char *doc = sd_xr_document(r, &dlen);
	const char *s = doc + start;
	size_t		n = (size_t) (end - start);
	xuses		u = {hooks, NULL, 0, 0, false};
	xuses		own = {hooks, NULL, 0, 0, false};
	size_t		name_end = 1;
	uint32_t	nadd = 0;
	size_t		add_bytes = 0;
	bool		ok = true;

	*out = s;
	*outlen = n;
	/* the prefixes used, and those the element declares itself */
	for (size_t i = 0; i < n;)
	{
		const char *lt = memchr(s + i, '<', n - i);

		if (!lt)
			break;
		i = (size_t) (lt - s);
		if (i + 1 >= n)
			break;
		if (s[i + 1] == '/')
			i = skip_past(s, n, i, ">");
		else if (s[i + 1] == '?')
			i = skip_past(s, n, i, "?>");
		else if (i + 3 < n && memcmp(s + i, "<!--", 4) == 0)
			i = skip_past(s, n, i + 4, "-->");
		else if (i + 8 < n && memcmp(s + i, "<![CDATA[", 9) == 0)
			i = skip_past(s, n, i + 9, "]]>");
		else if (s[i + 1] == '!')
			i = skip_past(s, n, i, ">");
		else if (i == 0)
			i = start_tag(s, n, 0, &u, &own);
		else
			i = start_tag(s, n, i, &u, NULL);
	}
	while (name_end < n && !xc_name_end(s[name_end]))
		name_end++;
	if (u.nomem || own.nomem)
	{
		ok = xc_fail(err, SD_E_NOMEM, "out of memory");
		goto done;
	}
	if (u.n)
	{
		qsort(u.v, u.n, sizeof(xuse), use_cmp);
		uint32_t	k = 1;

		for (uint32_t i = 1; i < u.n; i++)
			if (use_cmp(&u.v[i], &u.v[k - 1]) != 0)
				u.v[k++] = u.v[i];
		u.n = k;
	}
	for (uint32_t i = 0; i < own.n; i++)
	{
		xuse	   *x = use_find(&u, own.v[i].p, own.v[i].len);

		if (x)
			x->done = true;
	}
	/* the innermost declaration in scope of each prefix still open */
	uint32_t	open = 0;

	for (uint32_t i = 0; i < u.n; i++)
		open += !u.v[i].done;
	for (uint32_t f = nscopes; f-- > 0 && open > 0;)
	{
		uint32_t	nd = 0;
		const sd_xnsdecl *d = scope(ud, f, &nd);

		if (!sd_xr_account(r, (size_t) nd + 1))
		{
			ok = xc_fail(err, SD_E_SIZE, "decoding XML: the namespace declarations around xml columns "
						 "exceed the work allowed for this document (8 times its size)");
			goto done;
		}
		for (uint32_t k = 0; k < nd; k++)
		{
			xuse	   *x = use_find(&u, d[k].prefix, d[k].prefix ? d[k].prefix_len : 0);

			if (!x || x->done)
				continue;
			x->done = true;
			open--;
			if (d[k].uri_len == 0)
				continue;		/* xmlns="": no default namespace there */
			x->decl = &d[k];
			nadd++;
			/* ' xmlns:p="' + the URI escaped + '"' */
			add_bytes += 10 + d[k].prefix_len + put_escaped(NULL, d[k].uri, d[k].uri_len);
		}
	}
	if (nadd == 0 && !memchr(s, '\r', n))
		goto done;
	if (!sd_xr_account(r, add_bytes))
	{
		ok = xc_fail(err, SD_E_SIZE, "decoding XML: the namespace declarations added to xml columns "
					 "exceed the bytes allowed for this document (8 times its size)");
		goto done;
	}
	if (n + add_bytes >= UINT32_MAX)
	{
		ok = xc_fail(err, SD_E_SIZE, "decoding XML: an xml column's element is too large");
		goto done;
	}
	char	   *buf = sd_arena_alloc(arena, n + add_bytes + 1);

	if (!buf)
	{
		ok = xc_fail(err, SD_E_NOMEM, "out of memory");
		goto done;
	}
	size_t		o = name_end;

	memcpy(buf, s, name_end);
	for (uint32_t i = 0; i < u.n; i++)
	{
		const sd_xnsdecl *d = u.v[i].decl;

		if (!d)
			continue;
		memcpy(buf + o, " xmlns", 6);
		o += 6;
		if (d->prefix)
		{
			buf[o++] = ':';
			memcpy(buf + o, d->prefix, d->prefix_len);
			o += d->prefix_len;
		}
		buf[o++] = '=';
		buf[o++] = '"';
		o += put_escaped(buf + o, d->uri, d->uri_len);
		buf[o++] = '"';
	}
	memcpy(buf + o, s + name_end, n - name_end);
	o += n - name_end;
	o = sd_xml_eol(buf, o, false);
	buf[o] = '\0';
	*out = buf;
	*outlen = o;
done:
	sd_hook_free(hooks, u.v);
	sd_hook_free(hooks, own.v);
	return ok;
}
