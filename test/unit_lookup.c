/*
 * unit_lookup.c - tests of the JSON walker's member lookup: the key-order prediction that a
 * decoder keeps per plan between documents (sd_follow, at sd_members.follow_at), the in-place
 * key compare, and the hash lookup it falls back to.  A wrong prediction must never map a key to
 * the wrong column, so every document is decoded twice — with one plan that the decoder has seen
 * all the documents before it with (in other key orders), and with a freshly compiled plan (a
 * fresh prediction) — and the results (rows, errors, paths,
 * offsets; first-error and serde_errors modes) must be identical.  A few results are also
 * checked verbatim.
 *
 * Documents and options are written with ' for " (see unq()).
 */
#include <stdlib.h>
#include <string.h>

#include "serde_core.h"
#include "unit.h"
#include "unit_support.h"

/* ' -> " (a real ' cannot be written; none is needed here) */
static const char *
unq(const char *s)
{
	static char buf[4][4096];
	static int	k;
	char	   *o = buf[k = (k + 1) & 3];
	size_t		i;

	for (i = 0; s[i] && i < sizeof(buf[0]) - 1; i++)
		o[i] = s[i] == '\'' ? '"' : s[i];
	o[i] = '\0';
	return o;
}

static sd_plan *
compile(const sd_type *t, const char *options)
{
	sd_error	err;
	const char *o = unq(options);
	sd_plan    *p = sd_compile("T", o, strlen(o), t, NULL, NULL, &err);

	CHECK(p != NULL);
	if (!p)
	{
		fprintf(stderr, "compile failed: %s: %s\n", err.path, err.problem);
		exit(1);
	}
	return p;
}

/* Decodes doc with the trained plan and with a fresh one: same rendering, both modes.  Returns
 * the trained plan's rendering (first-error mode) in a static buffer. */
static const char *
same(const sd_type *t, const char *options, sd_plan *trained, const char *doc_q, int line)
{
	static char got[8192];
	char		want[8192];
	char		got_all[8192];
	char		want_all[8192];
	const char *doc = unq(doc_q);
	sd_plan    *fresh = compile(t, options);

	snprintf(got, sizeof(got), "%s", ut_decode_with(trained, doc));
	snprintf(got_all, sizeof(got_all), "%s", ut_check_with(trained, doc));
	snprintf(want, sizeof(want), "%s", ut_decode_with(fresh, doc));
	snprintf(want_all, sizeof(want_all), "%s", ut_check_with(fresh, doc));
	sd_plan_free(fresh);
	if (strcmp(got, want) != 0 || strcmp(got_all, want_all) != 0)
	{
		unit_failed++;
		fprintf(stderr, "FAIL %s:%d: trained plan differs on %s\n  got  %s\n  want %s\n"
				"  got (all)  %s\n  want (all) %s\n", __FILE__, line, doc, got, want, got_all,
				want_all);
	}
	else
		unit_passed++;
	return got;
}

/* Members whose names share prefixes and lengths: 1, 2, 3, 7, 8, 8, 9, 16, 17, 17 bytes. */
#define LK_COLS "a:int4,ab:int4,abc:int4,abcdefg:int4,abcdefgh:int4,abcdefgi:int4,abcdefghi:int4," \
	"abcdefghijklmnop:int4,abcdefghijklmnopq:int4,abcdefghijklmnopr:int4,b:int4"

#define ORDER1 "{'a':1,'ab':2,'abc':3,'abcdefg':4,'abcdefgh':5,'abcdefgi':6,'abcdefghi':7," \
	"'abcdefghijklmnop':8,'abcdefghijklmnopq':9,'abcdefghijklmnopr':10,'b':11}"
#define ORDER1_ROW "{a:1,ab:2,abc:3,abcdefg:4,abcdefgh:5,abcdefgi:6,abcdefghi:7," \
	"abcdefghijklmnop:8,abcdefghijklmnopq:9,abcdefghijklmnopr:10,b:11}"
#define REVERSED "{'b':11,'abcdefghijklmnopr':10,'abcdefghijklmnopq':9,'abcdefghijklmnop':8," \
	"'abcdefghi':7,'abcdefgi':6,'abcdefgh':5,'abcdefg':4,'abc':3,'ab':2,'a':1}"
/* neighbours that share a prefix or a length, swapped */
#define SWAPPED "{'abc':3,'ab':2,'a':1,'abcdefgi':6,'abcdefgh':5,'abcdefg':4,'abcdefghi':7," \
	"'abcdefghijklmnopr':10,'abcdefghijklmnopq':9,'abcdefghijklmnop':8,'b':11}"

static const char *const lk_docs[] = {
	ORDER1,
	REVERSED,
	ORDER1,
	SWAPPED,
	REVERSED,
	ORDER1,
	/* unknown keys interleaved: prefixes, extensions and same-length neighbours of members */
	"{'a':1,'A':0,'ab':2,'ab ':0,'abc':3,'abcd':0,'abcdefg':4,'abcdefgj':0,'abcdefgh':5,"
	"'abcdefgi':6,'abcdefgh ':0,'abcdefghi':7,'abcdefghijklmno':0,'abcdefghijklmnop':8,"
	"'abcdefghijklmnopq':9,'abcdefghijklmnoq':0,'abcdefghijklmnopr':10,'abcdefghijklmnopqr':[1,{'a':2}],"
	"'':0,'b':11,'bb':{}}",
	ORDER1,
	/* members missing: the prediction points at a member that does not come */
	"{'a':1,'abc':3,'abcdefgh':5,'abcdefghi':7,'abcdefghijklmnopr':10}",
	"{'ab':2,'abcdefg':4,'abcdefgi':6,'abcdefghijklmnop':8,'abcdefghijklmnopq':9,'b':11}",
	ORDER1,
	/* escaped keys (unescaped by simdjson, then looked up by hash) */
	"{'\\u0061':1,'a\\u0062':2,'abc':3,'abcdefg':4,'abcdefg\\u0068':5,'abcdefgi':6,'abcdefghi':7,"
	"'abcdefghijklmnop':8,'abcdefghijklmnop\\u0071':9,'abcdefghijklmnopr':10,'\\/b':0,'b':11}",
	"{'a\\\\':0,'a':1,'ab\\'':0,'ab':2,'abc\\n':0,'abc':3}",
	/* duplicates: right where the prediction expects the next member, and escaped */
	"{'a':1,'a':2}",
	"{'a':1,'ab':2,'ab':3,'abc':4}",
	"{'a':1,'ab':2,'a\\u0062':3}",
	"{'abcdefghijklmnopq':9,'abcdefghijklmnopr':10,'abcdefghijklmnopq':11}",
	ORDER1,
	"{'b':11,'a':1,'b':12}",
	/* values of the wrong kind and malformed documents after training */
	"{'a':1,'ab':'x','abc':3,'abcdefg':true}",
	"{'a':1,'ab':2,'abc':3,'abcdefg",
	"{'a':1,'ab':2,'abc'",
	"{'a':1,'ab':2,'ab",
	"{'a':1,'ab'2}",
	"{'a':1,'ab':2,}",
	ORDER1,
	"{'ab':2}",
	"{}",
	ORDER1,
};

/* A list of the same composite: the prediction at the element node changes within a document. */
static const char *const list_docs[] = {
	"{'items':[" ORDER1 "," REVERSED "," ORDER1 "," SWAPPED "],'n':1}",
	"{'n':2,'items':[" SWAPPED "," SWAPPED "," ORDER1 "]}",
	"{'items':[" ORDER1 ",{'b':1,'b':2}," ORDER1 "],'n':3}",
	"{'items':[{'a':1,'zz':0,'ab':2}," ORDER1 ",{'ab':2,'a':1,'ab':3}],'n':4}",
	"{'n':5,'n':6,'items':[]}",
};

/* Names that are not plain: they contain '"' or '\', so they appear escaped in documents. */
static const char *const odd_docs[] = {
	"{'q\\'x':1,'x\\\\':2,'x':3}",
	"{'x':3,'x\\\\':2,'q\\'x':1}",
	/* the raw bytes of x\"y begin with the name x\ followed by a quote: it is not that member */
	"{'x\\'y':1,'x':3}",
	"{'q\\'x':1,'x\\'y':1,'x\\\\':2,'x':3}",
	"{'q\\'x':1,'q\\'x':1}",
	"{'q\\u0022x':1,'x\\u005c':2,'x':3}",
	"{'x':3,'x\\\\\\\\':0}",
};

/* Path prefixes: members of a nested object (a group) are predicted at their own level. */
static const char *const path_docs[] = {
	"{'head':{'sha':'a','ref':'b'},'id':1}",
	"{'id':1,'head':{'ref':'b','sha':'a'}}",
	"{'head':{'sha':'a','ref':'b','x':0},'id':1}",
	"{'head':{'ref':'b','sha':'a','sha':'c'},'id':1}",
	"{'head':{'sha':'a'},'id':1}",
	"{'head':null,'id':1}",
	"{'head':{'ref':'b','sha':'a'},'id':1,'head':{}}",
	"{'head':{'sha':'a','ref':'b'},'id':1}",
};

static void
run(const sd_type *t, const char *options, const char *const *docs, size_t n, int line)
{
	sd_plan    *trained = compile(t, options);

	/* twice over, so that every document also meets the state the last ones left */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			same(t, options, trained, docs[i], line);
	sd_plan_free(trained);
}

void		unit_lookup(void);
void
unit_lookup(void)
{
	const sd_type *lk = ut_composite("lk", LK_COLS);
	const sd_type *lkl = ut_composite("lkl", "items:lk[],n:int4");
	const sd_type *odd = ut_composite("lkodd", "q:int4,r:int4,s:int4");
	const sd_type *pathy = ut_composite("lkpath", "sha:text,ref:text,id:int4");
	const char *odd_opts = "{'fields':{'q':{'name':'q\\'x'},'r':{'name':'x\\\\'},'s':{'name':'x'}},"
		"'optional':true}";
	const char *path_opts = "{'fields':{'sha':{'path':['head','sha']},'ref':{'path':['head','ref'],"
		"'optional':true}}}";
	sd_plan    *p;
	int			ndocs = (int) (sizeof(lk_docs) / sizeof(lk_docs[0]));

	/* every policy that changes what a key means */
	run(lk, "{}", lk_docs, ndocs, __LINE__);
	run(lk, "{'optional':true}", lk_docs, ndocs, __LINE__);
	run(lk, "{'optional':true,'unknown':'reject'}", lk_docs, ndocs, __LINE__);
	run(lkl, "{'optional':true}", list_docs, sizeof(list_docs) / sizeof(list_docs[0]), __LINE__);
	run(lkl, "{'unknown':'reject'}", list_docs, sizeof(list_docs) / sizeof(list_docs[0]), __LINE__);
	run(odd, odd_opts, odd_docs, sizeof(odd_docs) / sizeof(odd_docs[0]), __LINE__);
	run(odd, "{'fields':{'q':{'name':'q\\'x'},'r':{'name':'x\\\\'},'s':{'name':'x'}},'unknown':'reject'}",
		odd_docs, sizeof(odd_docs) / sizeof(odd_docs[0]), __LINE__);
	run(pathy, path_opts, path_docs, sizeof(path_docs) / sizeof(path_docs[0]), __LINE__);
	run(pathy, "{'unknown':'reject','fields':{'sha':{'path':['head','sha']},'ref':{'path':['head','ref']}}}",
		path_docs, sizeof(path_docs) / sizeof(path_docs[0]), __LINE__);

	/* verbatim: the trained plan maps every key to its own column, whatever the order */
	p = compile(lk, "{'optional':true}");
	for (int round = 0; round < 3; round++)
	{
		CHECK_STR(ut_decode_with(p, unq(ORDER1)), ORDER1_ROW);
		CHECK_STR(ut_decode_with(p, unq(REVERSED)), ORDER1_ROW);
		CHECK_STR(ut_decode_with(p, unq(SWAPPED)), ORDER1_ROW);
	}
	CHECK_STR(ut_decode_with(p, unq("{'abc':3,'ab':2}")),
			  "{a:null,ab:2,abc:3,abcdefg:null,abcdefgh:null,abcdefgi:null,abcdefghi:null,"
			  "abcdefghijklmnop:null,abcdefghijklmnopq:null,abcdefghijklmnopr:null,b:null}");
	/* after ab the prediction is abc (above); an ab followed by a longer or shorter key */
	CHECK_STR(ut_decode_with(p, unq("{'ab':2,'abcd':0,'abc':3}")),
			  "{a:null,ab:2,abc:3,abcdefg:null,abcdefgh:null,abcdefgi:null,abcdefghi:null,"
			  "abcdefghijklmnop:null,abcdefghijklmnopq:null,abcdefghijklmnopr:null,b:null}");
	CHECK_STR(ut_decode_with(p, unq("{'abcdefghijklmnopq':9,'abcdefghijklmnopr':10}")),
			  "{a:null,ab:null,abc:null,abcdefg:null,abcdefgh:null,abcdefgi:null,abcdefghi:null,"
			  "abcdefghijklmnop:null,abcdefghijklmnopq:9,abcdefghijklmnopr:10,b:null}");
	CHECK_STR(ut_decode_with(p, unq("{'abcdefghijklmnopq':9,'abcdefghijklmnopq':9}")),
			  "ERROR 22030 $.abcdefghijklmnopq: duplicate member @23");
	CHECK_STR(ut_decode_with(p, unq("{'abcdefghijklmnopq':9,'abcdefghijklmnopX':10}")),
			  "{a:null,ab:null,abc:null,abcdefg:null,abcdefgh:null,abcdefgi:null,abcdefghi:null,"
			  "abcdefghijklmnop:null,abcdefghijklmnopq:9,abcdefghijklmnopr:null,b:null}");
	sd_plan_free(p);

	p = compile(lk, "{'optional':true,'unknown':'reject'}");
	CHECK_STR(ut_decode_with(p, unq(ORDER1)), ORDER1_ROW);
	CHECK_STR(ut_decode_with(p, unq("{'a':1,'ab':2,'abcd':3}")), "ERROR 2203E $.abcd: unknown member @14");
	CHECK_STR(ut_decode_with(p, unq("{'a':1,'ab':2,'ab\\u0063':3,'abc':4}")),
			  "ERROR 22030 $.abc: duplicate member @27");
	sd_plan_free(p);

	/* strings read in place must still be consumed: simdjson skips an unread string that is
	 * followed by ':' as if it were a key (found by fuzz_json) */
	{
		static const char *const bad[] = {
			"{'a':1,'ab':'x':1}", "{'a':1,'zz':'x':1}", "{'a':1,'zz':['x':1]}",
			"{'a':1,'zz':{'k':'x':1}}", "{'a':1,'zz':[['l':]]}", "{'a':'x':1,'ab':2}",
		};
		const sd_type *tx = ut_composite("lktext", "a:text,ab:text,j:json");

		p = compile(tx, "{'optional':true}");
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		{
			const char *r = ut_decode_with(p, unq(bad[i]));

			if (strncmp(r, "ERROR 22P02 $: malformed JSON", 29) == 0)
				unit_passed++;
			else
			{
				unit_failed++;
				fprintf(stderr, "FAIL %s:%d: %s accepted: %s\n", __FILE__, __LINE__, bad[i], r);
			}
		}
		CHECK_STR(ut_decode_with(p, unq("{'j':[['l':]]}")), "ERROR 22P02 $: malformed JSON: expected ',' or ']' @10");
		CHECK_STR(ut_decode_with(p, unq("{'a':'x','ab':'y\\u0041','j':['l']}")), "{a:'x',ab:'yA',j:J[\"l\"]}");
		sd_plan_free(p);
	}

	/* the same in sd_each_* array mode, where an element ends before the misread shows */
	{
		static const char *const bad[] = {"[[['l':]]]", "[{'a':'x':1}]", "[{'zz':['x':1]},{}]"};
		static const int64_t at[] = {6, 9, 11};
		const sd_type *tx = ut_composite("lktext2", "a:text,ab:text");
		sd_decoder *d = sd_decoder_create(NULL);

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		{
			sd_plan    *ep = compile(i == 0 ? &ut_json : tx, "{'optional':true}");
			const char *doc = unq(bad[i]);
			sd_error	err;
			uint32_t	root;
			int			r;

			/* the first element is malformed: no row before the error */
			CHECK(sd_each_begin(d, ep, NULL, doc, strlen(doc), NULL, &err));
			r = sd_each_next(d, &root, &err);
			CHECK(r == -1 && err.code == SD_E_SYNTAX && err.offset == at[i]);
			if (r != -1 || err.offset != at[i])
				fprintf(stderr, "  each %s: r=%d offset %lld\n", doc, r, (long long) err.offset);
			sd_plan_free(ep);
		}
		sd_decoder_destroy(d);
	}

	/* NDJSON: a NOT NULL error on a later line is at the value's offset in the whole input (the
	 * walker once added the line's start twice, or gave the line's start alone) */
	{
		const sd_type *tn = ut_composite("lknn", "a:text,b:int4");
		sd_plan    *ep = compile(tn, "{'fields':{'a':{'nullable':false}}}");
		sd_decoder *d = sd_decoder_create(NULL);
		const char *doc = unq("{'a':'x','b':1}\n{'b':2,'a':null}\n");
		sd_error	err;
		uint32_t	root;

		CHECK(sd_each_begin(d, ep, NULL, doc, strlen(doc), NULL, &err));
		CHECK(sd_each_next(d, &root, &err) == 1);
		CHECK(sd_each_next(d, &root, &err) == -1 && err.code == SD_E_NOTNULL && err.offset == 27);
		if (err.offset != 27)
			fprintf(stderr, "  ndjson not null: offset %lld\n", (long long) err.offset);
		sd_plan_free(ep);
		sd_decoder_destroy(d);
	}

	p = compile(odd, odd_opts);
	for (int round = 0; round < 2; round++)
	{
		CHECK_STR(ut_decode_with(p, unq("{'q\\'x':1,'x\\\\':2,'x':3}")), "{q:1,r:2,s:3}");
		CHECK_STR(ut_decode_with(p, unq("{'x\\'y':1,'x':3}")), "{q:null,r:null,s:3}");
		/* after q the prediction is r, named x-backslash: the raw bytes of x\"y begin with those two bytes and a quote */
		CHECK_STR(ut_decode_with(p, unq("{'q\\'x':1,'x\\'y':5,'x':3}")), "{q:1,r:null,s:3}");
		CHECK_STR(ut_decode_with(p, unq("{'q\\'x':1,'x\\'y':5,'x\\\\':2}")), "{q:1,r:2,s:null}");
	}
	sd_plan_free(p);
}
