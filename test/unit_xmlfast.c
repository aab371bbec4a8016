/*
 * unit_xmlfast.c - the XML fast paths of issue 23 round 4, each against its fallback:
 *   - the reader's text_on_end / text_on_start (text after an end / start tag on that END /
 *     START event, a piece that does not continue it in the document as a TEXT after it) and
 *     drop_text_after_end: the same text, piece for piece, as the plain stream, at every chunk
 *     size;
 *   - attribute values in place in the document (not copied, names located back from the value)
 *     and values that are not (entities, tabs, non-ASCII): the same values and offsets;
 *   - the parser context kept for the thread's next document (NULL hooks) against a fresh one
 *     per document (malloc hooks of our own keep nothing): the same stream for a document with a
 *     BOM after one without, after a malformed one, after one with an internal subset whose
 *     attribute types would normalise the next document's values, and past the dictionary bound;
 *   - the plan's xml_leaf_text_only (xml_textuse.c): set only where no text of an element with
 *     children is read, and decoding with it gives what decoding without it gives.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "unit_support.h"
#include "internal.h"
#include "xml_read.h"

static char fout[65536];

static void
fput(size_t *o, const char *s, size_t n)
{
	if (*o + n + 1 > sizeof(fout))
		n = sizeof(fout) - 1 - *o;
	memcpy(fout + *o, s, n);
	*o += n;
	fout[*o] = '\0';
}

static void *
my_alloc(void *ud, size_t n)
{
	return malloc(n);
}

static void *
my_realloc(void *ud, void *p, size_t n)
{
	return realloc(p, n);
}

static void
my_free(void *ud, void *p)
{
	free(p);
}

#define F_ON_END 1				/* sd_xr_options.text_on_end */
#define F_DROP 2				/* sd_xr_options.drop_text_after_end */
#define F_STRIP 4				/* the rendering leaves out text after an END */
#define F_OWN_HOOKS 8			/* malloc hooks of our own: no context kept */
#define F_ON_START 16			/* sd_xr_options.text_on_start */

/* The stream of doc as text, consecutive text pieces (TEXT events and an END's text) joined. */
static const char *
stream(const char *doc, size_t len, size_t chunk, int flags)
{
	sd_hooks	h = {my_alloc, my_realloc, my_free, NULL, NULL};
	sd_xr_options o = {0, 0, chunk, (flags & F_DROP) != 0, (flags & F_ON_END) != 0,
	(flags & F_ON_START) != 0};
	sd_error	err;
	sd_xreader *r = sd_xr_open((flags & F_OWN_HOOKS) ? &h : NULL, doc, len, &o, &err);
	sd_xev		ev;
	int			rc;
	size_t		o_ = 0;
	char		pend[8192];
	size_t		plen = 0;
	bool		after_end = false;
	char		num[96];

	fout[0] = '\0';
	if (!r)
		return "open failed";
	while ((rc = sd_xr_next(r, &ev, &err)) == 1)
	{
		if (ev.kind == SD_XEV_TEXT)
		{
			if (!(after_end && (flags & F_STRIP)) && plen + ev.text_len < sizeof(pend))
			{
				memcpy(pend + plen, ev.text, ev.text_len);
				plen += ev.text_len;
			}
			continue;
		}
		if (plen)
		{
			fput(&o_, "'", 1);
			fput(&o_, pend, plen);
			fput(&o_, "'", 1);
			plen = 0;
		}
		if (ev.kind == SD_XEV_START)
		{
			after_end = false;
			fput(&o_, "<", 1);
			if (ev.name.prefix)
			{
				fput(&o_, ev.name.prefix, ev.name.prefix_len);
				fput(&o_, ":", 1);
			}
			fput(&o_, ev.name.local, ev.name.local_len);
			if (ev.name.uri)
			{
				fput(&o_, "{", 1);
				fput(&o_, ev.name.uri, ev.name.uri_len);
				fput(&o_, "}", 1);
			}
			snprintf(num, sizeof(num), "@%lld/%u", (long long) ev.offset, ev.depth);
			fput(&o_, num, strlen(num));
			for (uint32_t i = 0; i < ev.nns; i++)
			{
				fput(&o_, " xmlns:", 7);
				if (ev.ns[i].prefix)
					fput(&o_, ev.ns[i].prefix, ev.ns[i].prefix_len);
				fput(&o_, "=", 1);
				fput(&o_, ev.ns[i].uri, ev.ns[i].uri_len);
			}
			for (uint32_t i = 0; i < ev.nattrs; i++)
			{
				const sd_xattr *a = &ev.attrs[i];

				fput(&o_, " ", 1);
				if (a->name.prefix)
				{
					fput(&o_, a->name.prefix, a->name.prefix_len);
					fput(&o_, ":", 1);
				}
				fput(&o_, a->name.local, a->name.local_len);
				if (a->name.uri)
				{
					fput(&o_, "{", 1);
					fput(&o_, a->name.uri, a->name.uri_len);
					fput(&o_, "}", 1);
				}
				fput(&o_, "=[", 2);
				fput(&o_, a->value, a->value_len);
				snprintf(num, sizeof(num), "]@%lld", (long long) a->offset);
				fput(&o_, num, strlen(num));
			}
			fput(&o_, ">", 1);
			if (ev.text_len && plen + ev.text_len < sizeof(pend))
			{
				memcpy(pend + plen, ev.text, ev.text_len);
				plen += ev.text_len;
			}
			/* without the option, a START carries no text */
			if (ev.text_len && !(flags & F_ON_START))
				fput(&o_, "!START-TEXT!", 12);
			continue;
		}
		snprintf(num, sizeof(num), "</%.*s@%lld>", (int) ev.name.local_len, ev.name.local,
				 (long long) ev.offset);
		fput(&o_, num, strlen(num));
		after_end = true;
		if (ev.text_len && !(flags & F_STRIP) && plen + ev.text_len < sizeof(pend))
		{
			memcpy(pend + plen, ev.text, ev.text_len);
			plen += ev.text_len;
		}
		/* without the option, an END carries no text */
		if (ev.text_len && !(flags & F_ON_END))
			fput(&o_, "!END-TEXT!", 10);
	}
	if (plen)
	{
		fput(&o_, "'", 1);
		fput(&o_, pend, plen);
		fput(&o_, "'", 1);
	}
	if (rc == 0)
		fput(&o_, "|ok", 3);
	else
	{
		snprintf(num, sizeof(num), "|ERR %s %u:%u ", sd_code_sqlstate(err.code), err.line,
				 err.column);
		fput(&o_, num, strlen(num));
		fput(&o_, err.problem, strlen(err.problem));
	}
	sd_xr_close(r);
	return fout;
}

static const char *const docs[] = {
	/* text after end tags: in place, then an entity, CR LF (normalised: not in place), CDATA,
	 * a character reference, comments and PIs in between */
	"<r>a<b/>  &amp; x<c>t</c>\r\n y<![CDATA[z\r\n]]> <d/>&#13;\n<!-- c --> t <?pi x?> u</r>",
	/* attributes: in place, with an entity, non-ASCII, a tab (normalised), prefixed, spaces
	 * around '=', both quotes, namespace declarations in between */
	"<r xmlns:p='urn:p'><p:a p:x='1' y = \"v&amp;w\" z='\xc3\xa9' xmlns:q='urn:q' t='a\tb' q:u=\"\">q</p:a>\n"
	"  <b  c='d'\n e\t=\t'f'/> tail &lt; </r>",
	/* a BOM, CR LF and a lone CR after end tags */
	"\xef\xbb\xbf<r>\r\n<a/>\r<b/>\xc3\xa9<c/></r>",
	/* an internal subset declaring an attribute type (values of t normalised) ... */
	"<!DOCTYPE a [<!ATTLIST a t NMTOKENS #IMPLIED>]><a t='  x   y  '> <b/> </a>",
	/* ... and the next document, where nothing declares it */
	"<a t='  x   y  '> <b/> </a>",
	/* malformed, then well-formed */
	"<r><a></b></r>",
	"<r><a x='1'/>\n</r>",
	/* an encoding declaration (ignored), text after the root's last child only */
	"<?xml version='1.0' encoding='ISO-8859-1'?>\n<r><a>1</a>   </r>",
	"<r/>",
};

static void
test_streams(void)
{
	static const size_t chunks[] = {0, 1, 2, 3, 5, 8, 13, 64};
	char		big[16384];
	size_t		o = 0;
	char	   *base = malloc(sizeof(fout));

	/* many text pieces after end tags, across chunk boundaries */
	o += (size_t) snprintf(big + o, sizeof(big) - o, "<r>");
	for (int i = 0; i < 60; i++)
		o += (size_t) snprintf(big + o, sizeof(big) - o, "<a%d k='v%d'>t</a%d> x&amp;y \n\t%s", i % 7, i,
							   i % 7, i % 5 == 0 ? "<![CDATA[c]]>" : "");
	snprintf(big + o, sizeof(big) - o, "</r>");

	for (size_t d = 0; d <= sizeof(docs) / sizeof(docs[0]); d++)
	{
		const char *doc = d < sizeof(docs) / sizeof(docs[0]) ? docs[d] : big;
		size_t		len = strlen(doc);

		for (size_t k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++)
		{
			size_t		ch = chunks[k];

			/* the fallback: plain TEXT events, a fresh parser context */
			strcpy(base, stream(doc, len, ch, F_OWN_HOOKS));
			CHECK(strstr(base, "!END-TEXT!") == NULL && strstr(base, "!START-TEXT!") == NULL);
			/* text on the END and on the START: the same text, piece for piece */
			CHECK_STR(stream(doc, len, ch, F_OWN_HOOKS | F_ON_END), base);
			CHECK_STR(stream(doc, len, ch, F_OWN_HOOKS | F_ON_START), base);
			CHECK_STR(stream(doc, len, ch, F_OWN_HOOKS | F_ON_END | F_ON_START), base);
			/* the kept context (twice: the second reuses it) */
			CHECK_STR(stream(doc, len, ch, 0), base);
			CHECK_STR(stream(doc, len, ch, F_ON_END | F_ON_START), base);
			/* text after end tags left out: the plain stream without it */
			strcpy(base, stream(doc, len, ch, F_OWN_HOOKS | F_STRIP));
			CHECK_STR(stream(doc, len, ch, F_DROP | F_ON_END | F_ON_START), base);
			CHECK_STR(stream(doc, len, ch, F_DROP), base);
		}
	}
	/* what the cases above rely on, spelled out */
	CHECK_STR(stream(docs[0], strlen(docs[0]), 0, F_ON_END),
			  "<r@0/1>'a'<b@4/2></b@8>'  & x'<c@17/2>'t'</c@25>'\n yz\n '<d@45/2></d@49>'\r\n t  u'</r@82>|ok");
	CHECK_STR(stream(docs[1], strlen(docs[1]), 0, F_ON_END),
			  "<r@0/1 xmlns:p=urn:p><p:a{urn:p}@19/2 xmlns:q=urn:q p:x{urn:p}=[1]@24 y=[v&w]@32"
			  " z=[\xc3\xa9]@46 t=[a b]@69 q:u{urn:q}=[]@77>'q'</a@91>'\n  '<b@94/2 c=[d]@98 e=[f]@105>"
			  "</b@114>' tail < '</r@129>|ok");
	CHECK_STR(stream(docs[3], strlen(docs[3]), 0, F_ON_END),
			  "<a@47/1 t=[x y]@50>' '<b@65/2></b@69>' '</a@74>|ok");
	CHECK_STR(stream(docs[4], strlen(docs[4]), 0, F_ON_END),
			  "<a@0/1 t=[  x   y  ]@3>' '<b@18/2></b@22>' '</a@27>|ok");
	CHECK_STR(stream(docs[5], strlen(docs[5]), 0, 0),
			  "|ERR 2200M 1:11 malformed XML: mismatched end tag </b> for <a> opened at line 1");
	free(base);
}

/* More names than a kept context's dictionary may hold: the context is dropped, every document
 * still read right. */
static void
test_dictionary_bound(void)
{
	char		doc[8192];
	char		want[64];
	bool		ok = true;

	for (int d = 0; d < 40 && ok; d++)
	{
		size_t		o = (size_t) snprintf(doc, sizeof(doc), "<r>");

		for (int i = 0; i < 150; i++)
			o += (size_t) snprintf(doc + o, sizeof(doc) - o, "<n%d_%d/>", d, i);
		snprintf(doc + o, sizeof(doc) - o, "<last>%d</last></r>", d);
		const char *s = stream(doc, strlen(doc), 0, F_ON_END);

		snprintf(want, sizeof(want), "'%d'</last@", d);
		ok = strstr(s, want) != NULL && strstr(s, "|ok") != NULL;
	}
	CHECK(ok);
}

/* xml_textuse.c: the plan's fact, and a decode with it against one without it */
static void
test_leaf_text_only(void)
{
	const sd_type *t = ut_composite("xft1", "c:text,d:int4");
	const sd_type *tt = ut_composite("xft2", "t:text,c:text");
	const sd_type *tx = ut_composite("xft3", "c:text,x:xml");
	const sd_type *te = ut_composite("xft4", "c:text,rest:json");
	const sd_type *in = ut_composite("xft5", "t:text,c:text");
	const sd_type *out = ut_composite("xft6", "m:xft5,s:text");
	const sd_type *lst = ut_composite("xft7", "m:xft1[],s:text");
	ut_shapedef shapes[UT_SHAPES] = {
		{"WS", "{\"fields\": {\"t\": {\"xml\": \"text\"}}}", NULL}, {NULL, NULL, NULL}};
	sd_resolver res = {ut_resolve, shapes};
	const char *plain = "{\"xml\": {\"root\": \"r\"}, \"optional\": true}";
	const char *text = "{\"xml\": {\"root\": \"r\"}, \"optional\": true, \"fields\": {\"t\": {\"xml\": \"text\"}}}";
	const char *extra = "{\"xml\": {\"root\": \"r\"}, \"optional\": true, \"extra\": \"rest\"}";
	const char *nested = "{\"xml\": {\"root\": \"r\"}, \"optional\": true, \"fields\": {\"m\": {\"shape\": \"WS\"}}}";
	const char *list = "{\"xml\": {\"root\": \"r\"}, \"optional\": true, \"fields\": {\"m\": {\"name\": \"m\"}}}";
	const char *docs_[] = {
		"<r> junk <c>x</c> more &amp; <d>1</d>\n<![CDATA[cd]]></r>",
		"<r>a<c>x<i/>y</c><d> 2 </d>tail</r>",
		"<r><m> <c>p</c> q <zz>z</zz> &lt; </m><s> s </s><m><d>3</d>\r\n</m></r>",
		"<r>\n  <c>  spaced  </c>\n  <x a='1'> <y/>\n </x>\n</r>",
	};
	struct
	{
		const sd_type *type;
		const char *opts;
		bool		want;
	}			plans[] = {
		{t, plain, true}, {tt, text, false}, {tx, plain, false}, {te, extra, false},
		{out, nested, false}, {lst, list, true},
	};
	char		a[4096];
	sd_error	err;

	shapes[0].type = in;
	for (size_t p = 0; p < sizeof(plans) / sizeof(plans[0]); p++)
	{
		sd_plan    *plan = sd_compile("T", plans[p].opts, strlen(plans[p].opts), plans[p].type, NULL,
									  &res, &err);

		CHECK(plan != NULL);
		if (!plan)
			continue;
		CHECK(plan->xml_leaf_text_only == plans[p].want);
		for (size_t d = 0; d < sizeof(docs_) / sizeof(docs_[0]); d++)
		{
			bool		was = plan->xml_leaf_text_only;

			snprintf(a, sizeof(a), "%s", ut_decode_xml_with(plan, docs_[d]));
			plan->xml_leaf_text_only = false;	/* the fallback: every text read */
			CHECK_STR(ut_decode_xml_with(plan, docs_[d]), a);
			plan->xml_leaf_text_only = was;
		}
		sd_plan_free(plan);
	}
	/* what the fallback comparison relies on, for two of them */
	CHECK_STR(ut_decode_xml(t, plain, docs_[0]), "{c:'x',d:1}");
	CHECK_STR(ut_decode_xml(t, plain, docs_[1]),
			  "ERROR 2200N /r/c: expected string, found an element with child elements @4 1:5");
	/* a text member: the text between (and after) child elements, entities, CDATA and line
	 * ends included; inside a nested element whose unknown children are skipped */
	CHECK_STR(ut_decode_xml(tt, text, "<r>a<c>x</c> &amp; b<![CDATA[c]]>\r\n<zz>q</zz>\t</r>"),
			  "{t:'a & bc\n\t',c:'x'}");
	shapes[0].type = in;
	sd_plan    *plan = sd_compile("T", nested, strlen(nested), out, NULL, &res, &err);

	CHECK(plan != NULL);
	if (plan)
	{
		CHECK_STR(ut_decode_xml_with(plan, "<r><m>a<zz>q<i/> j</zz> b&lt;<zz/>c\n</m></r>"),
				  "{m:{t:'a b<c\n',c:null},s:null}");
		sd_plan_free(plan);
	}
}

/* A union's tag as a child element (object_find): its text on the START, the rest after it */
static void
test_tag_text(void)
{
	const sd_type *card = ut_composite("xfcard", "number:text");
	const sd_type *bank = ut_composite("xfbank", "iban:text");
	const sd_type *pay = ut_composite("xfpay", "amount:int4,card:xfcard,bank:xfbank");
	const char *o = "{\"xml\": {\"root\": \"pay\"}, \"unknown\": \"reject\", \"tag\": \"kind\","
		" \"variants\": {\"card\": \"card\", \"bank\": \"bank\"}}";

	(void) card;
	(void) bank;
	CHECK_STR(ut_decode_xml(pay, o, "<pay><kind>card</kind><amount>5</amount><number>4242</number></pay>"),
			  "{amount:5,card:{number:'4242'},bank:null}");
	CHECK_STR(ut_decode_xml(pay, o, "<pay><amount>5</amount><kind>ca&#114;d</kind><number>1</number></pay>"),
			  "{amount:5,card:{number:'1'},bank:null}");
	CHECK_STR(ut_decode_xml(pay, o, "<pay><kind>ba<![CDATA[nk]]></kind><amount>7</amount><iban>DE</iban></pay>"),
			  "{amount:7,card:null,bank:{iban:'DE'}}");
	CHECK_STR(ut_decode_xml(pay, o, "<pay><kind>&#99;ard</kind><amount>7</amount><number>2</number></pay>"),
			  "{amount:7,card:{number:'2'},bank:null}");
}

void		unit_xmlfast(void);

void
unit_xmlfast(void)
{
	test_streams();
	test_dictionary_bound();
	test_leaf_text_only();
	test_tag_text();
}
