/*
 * unit_xmlplan.c - the XML facts of a compiled plan (docs/reference.md, "XML names"): shape-level xml root and
 * namespace, per-field kind (element/attribute/text), {uri}local names wherever a name is (name,
 * path, xml_item, xml.root), xml_item, the namespace in force and its inheritance (also through
 * shape references and shared nodes), every 22023 error with its option path, and how
 * sd_plan_describe shows it.  No XML is parsed here.
 *
 * Options are written with ' for " (see unquote()).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "unit.h"
#include "unit_support.h"

#define S3 "http://s3.amazonaws.com/doc/2006-03-01/"
#define ATOM "http://www.w3.org/2005/Atom"

static const sd_type *owner, *content, *listing, *xs, *kv, *oddx, *twoown, *uni;

static void
setup(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	owner = ut_composite("xowner", "id:text,display_name:text");
	content = ut_composite("xcontent", "key:text,last_modified:timestamptz,size:int8,owner:xowner,storage_class:text");
	listing = ut_composite("xlisting", "name:text,prefix:text,max_keys:int4,is_truncated:bool,"
						   "contents:xcontent[],tags:text[],link:text,version:text");
	kv = ut_composite("xkv", "key:text,value:int4");
	xs = ut_composite("xs", "a:int4,b:text,c:text,l:int4[],o:xowner,m:xkv[],j:jsonb");
	oddx = ut_composite("xodd", "odd key:int4,ok:int4");
	twoown = ut_composite("xtwo", "o1:xowner,o2:xowner,ol:xowner[]");
	uni = ut_composite("xuni", "kind:text,at:text,v1:xowner,v2:xkv");
}

static char *
unquote(const char *s)
{
	char	   *o = strdup(s);

	for (char *p = o; *p; p++)
		if (*p == '\'')
			*p = '"';
	return o;
}

static ut_shapedef shapes[UT_SHAPES];

static sd_resolver resolver = {ut_resolve, shapes};

static sd_plan *
xcompile(const sd_type *t, const char *opts_q, sd_error *err)
{
	char	   *opts = unquote(opts_q);
	sd_plan    *p = sd_compile("X", opts, strlen(opts), t, NULL, &resolver, err);

	if (!p)
		fprintf(stderr, "    (compile %s: %s: %s)\n", opts, err->path, err->problem);
	free(opts);
	return p;
}

/* "ok", or "ERROR <path>: <problem>" for a 22023 */
static const char *
xerror(const sd_type *t, const char *opts_q)
{
	static char buf[SD_PATH_MAX + SD_PROBLEM_MAX + 32];
	char	   *opts = unquote(opts_q);
	sd_error	err;
	sd_plan    *p = sd_compile("X", opts, strlen(opts), t, NULL, &resolver, &err);

	free(opts);
	if (p)
	{
		sd_plan_free(p);
		return "ok";
	}
	snprintf(buf, sizeof(buf), "ERROR %s %s: %s", sd_code_sqlstate(err.code), err.path, err.problem);
	return buf;
}

static bool
ns_is(const char *ns, const char *want)
{
	return want ? ns && strcmp(ns, want) == 0 : ns == NULL;
}

static bool
name_is(const sd_xml_name *x, const char *ns, const char *local)
{
	return ns_is(x->ns, ns) && (local ? x->local && strcmp(x->local, local) == 0 : x->local == NULL);
}

/* The description is valid JSON and no object of it has a key twice (a field's keys and its
 * node's share one object). */
static bool
no_dup_keys(const sd_jnode *n)
{
	if (n->kind == SD_J_OBJECT)
		for (int i = 0; i < n->n; i++)
			for (int k = 0; k < i; k++)
				if (strcmp(n->keys[i], n->keys[k]) == 0)
				{
					fprintf(stderr, "    duplicate key \"%s\" in describe\n", n->keys[i]);
					return false;
				}
	for (int i = 0; (n->kind == SD_J_OBJECT || n->kind == SD_J_ARRAY) && i < n->n; i++)
		if (!no_dup_keys(n->items[i]))
			return false;
	return true;
}

static bool
describe_ok(const char *d)
{
	sd_arena	a;
	sd_error	err;
	sd_jnode   *t;
	bool		ok;

	if (!d)
		return false;
	sd_arena_init(&a, NULL);
	t = sd_jparse(&a, d, strlen(d), 256, &err);
	ok = t && no_dup_keys(t);
	sd_arena_free(&a);
	return ok;
}

/* ---- the S3 listing: every XML fact of the plan ------------------------------------------ */

static void
test_s3(void)
{
	sd_error	err;
	sd_plan    *p = xcompile(listing, "{'rename':'pascal','xml':{'root':'ListBucketResult','namespace':'" S3 "'},"
							 "'fields':{'tags':{'name':'TagSet','xml_item':'Tag'},'link':{'name':'{" ATOM "}link'},"
							 "'version':{'xml':'attribute'},'max_keys':{'default':1000}}}", &err);

	CHECK(p != NULL);
	if (!p)
		return;
	const sd_node *r = sd_plan_root(p);

	CHECK(name_is(sd_plan_xml_root(p), S3, "ListBucketResult"));
	CHECK(ns_is(r->xml_ns, S3));
	/* name: an element in the shape's namespace, named after rename */
	CHECK(r->fields[0].xml_kind == SD_XML_ELEMENT && name_is(&r->fields[0].xml, S3, "Name"));
	CHECK_STR(r->fields[0].name, "Name");
	CHECK(r->fields[0].xml_path && name_is(&r->fields[0].xml_path[0], S3, "Name"));
	CHECK(r->fields[0].xml_item.local == NULL);
	/* namespaces are interned: one pointer for one URI */
	CHECK(r->fields[0].xml.ns == r->xml_ns && r->fields[2].xml.ns == r->xml_ns);
	/* repeated elements: Contents, whose composite (and its nested Owner) inherit the namespace */
	const sd_field *contents = &r->fields[4];

	CHECK(name_is(&contents->xml, S3, "Contents") && contents->xml_item.local == NULL);
	CHECK(contents->node->kind == SD_K_ARRAY && ns_is(contents->node->xml_ns, S3));
	const sd_node *cn = contents->node->elem;

	CHECK(cn->kind == SD_K_COMPOSITE && ns_is(cn->xml_ns, S3) && cn->xml_root.local == NULL);
	CHECK(name_is(&cn->fields[1].xml, S3, "LastModified"));
	CHECK(name_is(&cn->fields[3].xml, S3, "Owner"));
	CHECK(ns_is(cn->fields[3].node->xml_ns, S3));
	CHECK(name_is(&cn->fields[3].node->fields[0].xml, S3, "Id"));
	CHECK(name_is(&cn->fields[3].node->fields[1].xml, S3, "DisplayName"));
	/* a wrapped list: the wrapper TagSet, items Tag in the same namespace */
	CHECK(name_is(&r->fields[5].xml, S3, "TagSet") && name_is(&r->fields[5].xml_item, S3, "Tag"));
	/* a name in another namespace; the JSON member name is the name as written */
	CHECK(name_is(&r->fields[6].xml, ATOM, "link"));
	CHECK_STR(r->fields[6].name, "{" ATOM "}link");
	/* an unprefixed attribute is in no namespace */
	CHECK(r->fields[7].xml_kind == SD_XML_ATTRIBUTE && name_is(&r->fields[7].xml, NULL, "Version"));

	char	   *d = sd_plan_describe(p, NULL);

	CHECK(describe_ok(d));
	CHECK(d && strstr(d, "{\"shape\": \"X\", \"type\": \"xlisting\", \"xml\": {\"root\": \"{" S3 "}ListBucketResult\", "
					  "\"namespace\": \"" S3 "\"}, \"unknown\": \"ignore\"") == d);
	CHECK(d && strstr(d, "{\"column\": \"name\", \"name\": \"Name\", \"xml\": {\"kind\": \"element\", \"name\": \"{" S3
					  "}Name\"}, \"optional\": false, \"nullable\": true, \"default\": null, \"type\": \"text\"}") != NULL);
	CHECK(d && strstr(d, "\"name\": \"MaxKeys\", \"xml\": {\"kind\": \"element\", \"name\": \"{" S3
					  "}MaxKeys\"}, \"optional\": true, \"nullable\": true, \"default\": 1000, \"type\": \"integer\"}") != NULL);
	CHECK(d && strstr(d, "\"name\": \"TagSet\", \"xml\": {\"kind\": \"element\", \"name\": \"{" S3 "}TagSet\", \"item\": \"{"
					  S3 "}Tag\"}") != NULL);
	CHECK(d && strstr(d, "\"name\": \"{" ATOM "}link\", \"xml\": {\"kind\": \"element\", \"name\": \"{" ATOM "}link\"}") != NULL);
	CHECK(d && strstr(d, "\"name\": \"Version\", \"xml\": {\"kind\": \"attribute\", \"name\": \"Version\"}") != NULL);
	/* nested composites show the namespace in force (next to the field's own "xml") */
	CHECK(d && strstr(d, "{\"column\": \"owner\", \"name\": \"Owner\", \"xml\": {\"kind\": \"element\", \"name\": \"{" S3
					  "}Owner\"}, \"optional\": false, \"nullable\": true, \"default\": null, \"type\": \"xowner\", "
					  "\"unknown\": \"ignore\", \"coerce\": false, \"rename\": \"pascal\", \"xml_namespace\": \"" S3 "\"") != NULL);
	CHECK(d && strstr(d, "\"element\": {\"type\": \"xcontent\", \"unknown\": \"ignore\", \"coerce\": false, "
					  "\"rename\": \"pascal\", \"xml_namespace\": \"" S3 "\", \"fields\"") != NULL);
	free(d);
	sd_plan_free(p);
}

/* ---- kinds, {uri}local, paths, inheritance --------------------------------------------------- */

static void
test_names(void)
{
	sd_error	err;
	sd_plan    *p;

	/* no xml options at all: elements in no namespace, named as in JSON, any root */
	p = xcompile(xs, "{}", &err);
	CHECK(p != NULL);
	if (p)
	{
		const sd_node *r = sd_plan_root(p);

		CHECK(sd_plan_xml_root(p)->local == NULL && r->xml_ns == NULL);
		CHECK(name_is(&r->fields[0].xml, NULL, "a") && r->fields[0].xml_kind == SD_XML_ELEMENT);
		CHECK(name_is(&r->fields[4].node->fields[1].xml, NULL, "display_name"));
		char	   *d = sd_plan_describe(p, NULL);

		CHECK(describe_ok(d));
		CHECK(d && strstr(d, "\"xml\": {\"root\": null, \"namespace\": null}, \"unknown\": \"ignore\", \"coerce\": false, "
						  "\"fields\": [{\"column\": \"a\", \"name\": \"a\", "
						  "\"xml\": {\"kind\": \"element\", \"name\": \"a\"}, \"optional\": false, \"nullable\": true, "
						  "\"default\": null, \"type\": \"integer\"}") != NULL);
		CHECK(d && strstr(d, "\"type\": \"xowner\", \"unknown\": \"ignore\", \"coerce\": false, \"xml_namespace\": null") != NULL);
		free(d);
		sd_plan_free(p);
	}

	/* text, attributes (no namespace unless {uri}), {}local (no namespace), a path through another
	 * namespace: plain steps are in the namespace of the element before them */
	p = xcompile(xs, "{'xml':{'namespace':'urn:d','root':'{urn:r}Top'},'fields':{"
				 "'a':{'xml':'attribute'},'b':{'xml':'text'},'c':{'path':['{urn:p}P','Q','{}R']},"
				 "'l':{'name':'{}L','xml_item':'{urn:i}I'},'o':{'name':'{urn:o}O'},'m':{'map':true},"
				 "'j':{'xml':'attribute','path':['{urn:q}J','{urn:a}at']}}}", &err);
	CHECK(p != NULL);
	if (p)
	{
		const sd_node *r = sd_plan_root(p);

		CHECK(name_is(sd_plan_xml_root(p), "urn:r", "Top") && ns_is(r->xml_ns, "urn:d"));
		CHECK(r->fields[0].xml_kind == SD_XML_ATTRIBUTE && name_is(&r->fields[0].xml, NULL, "a"));
		CHECK(r->fields[1].xml_kind == SD_XML_TEXT && r->fields[1].xml.local == NULL && r->fields[1].xml_path == NULL);
		CHECK_STR(r->fields[1].name, "b");
		CHECK(r->fields[2].npath == 3 && name_is(&r->fields[2].xml_path[0], "urn:p", "P") &&
			  name_is(&r->fields[2].xml_path[1], "urn:p", "Q") && name_is(&r->fields[2].xml_path[2], NULL, "R") &&
			  name_is(&r->fields[2].xml, NULL, "R"));
		CHECK_STR(r->fields[2].path[0], "{urn:p}P");
		/* the wrapper in no namespace, its items in urn:i */
		CHECK(name_is(&r->fields[3].xml, NULL, "L") && name_is(&r->fields[3].xml_item, "urn:i", "I"));
		/* a composite in another namespace: its elements are in it too */
		CHECK(name_is(&r->fields[4].xml, "urn:o", "O") && ns_is(r->fields[4].node->xml_ns, "urn:o"));
		CHECK(name_is(&r->fields[4].node->fields[0].xml, "urn:o", "id"));
		/* a map column's entries: in the namespace in force */
		CHECK(name_is(&r->fields[5].xml, "urn:d", "m") && ns_is(r->fields[5].node->xml_ns, "urn:d"));
		/* an attribute at the end of a path, in its own namespace */
		CHECK(r->fields[6].xml_kind == SD_XML_ATTRIBUTE && name_is(&r->fields[6].xml_path[0], "urn:q", "J") &&
			  name_is(&r->fields[6].xml, "urn:a", "at"));

		char	   *d = sd_plan_describe(p, NULL);

		CHECK(describe_ok(d));
		CHECK(d && strstr(d, "\"xml\": {\"root\": \"{urn:r}Top\", \"namespace\": \"urn:d\"}") != NULL);
		CHECK(d && strstr(d, "\"column\": \"a\", \"name\": \"a\", \"xml\": {\"kind\": \"attribute\", \"name\": \"a\"}") != NULL);
		CHECK(d && strstr(d, "\"column\": \"b\", \"name\": \"b\", \"xml\": {\"kind\": \"text\"}, \"optional\"") != NULL);
		CHECK(d && strstr(d, "\"path\": [\"{urn:p}P\", \"Q\", \"{}R\"], \"xml\": {\"kind\": \"element\", \"name\": \"R\", "
						  "\"path\": [\"{urn:p}P\", \"{urn:p}Q\", \"R\"]}") != NULL);
		CHECK(d && strstr(d, "\"name\": \"{}L\", \"xml\": {\"kind\": \"element\", \"name\": \"L\", \"item\": \"{urn:i}I\"}") != NULL);
		CHECK(d && strstr(d, "\"xml\": {\"kind\": \"attribute\", \"name\": \"{urn:a}at\", \"path\": [\"{urn:q}J\", \"{urn:a}at\"]}") != NULL);
		CHECK(d && strstr(d, "\"type\": \"xowner\", \"unknown\": \"ignore\", \"coerce\": false, \"xml_namespace\": \"urn:o\"") != NULL);
		free(d);
		sd_plan_free(p);
	}

	/* one type under two namespaces: two nodes; under the same one: shared */
	p = xcompile(twoown, "{'xml':{'namespace':'urn:d'},'fields':{'o1':{'name':'{urn:x}o1'}}}", &err);
	CHECK(p != NULL);
	if (p)
	{
		const sd_node *r = sd_plan_root(p);

		CHECK(r->fields[0].node != r->fields[1].node);
		CHECK(ns_is(r->fields[0].node->xml_ns, "urn:x") && ns_is(r->fields[1].node->xml_ns, "urn:d"));
		CHECK(name_is(&r->fields[0].node->fields[0].xml, "urn:x", "id"));
		CHECK(name_is(&r->fields[1].node->fields[0].xml, "urn:d", "id"));
		CHECK(r->fields[2].node->elem == r->fields[1].node);
		sd_plan_free(p);
	}

	/* a name that only JSON can have: compiles (JSON shapes keep working), no XML name */
	p = xcompile(oddx, "{'fields':{'ok':{'name':'$ref'}}}", &err);
	CHECK(p != NULL);
	if (p)
	{
		const sd_node *r = sd_plan_root(p);

		CHECK(r->fields[0].xml.local == NULL && r->fields[0].xml_path == NULL);
		CHECK(r->fields[1].xml.local == NULL && r->fields[1].xml_path == NULL);
		char	   *d = sd_plan_describe(p, NULL);

		CHECK(d && strstr(d, "{\"column\": \"odd key\", \"name\": \"odd key\", \"xml\": null, \"optional\": false") != NULL);
		CHECK(d && strstr(d, "{\"column\": \"ok\", \"name\": \"$ref\", \"xml\": null, ") != NULL);
		free(d);
		sd_plan_free(p);
	}

	/* non-ASCII NCNames */
	CHECK_STR(xerror(xs, "{'xml':{'root':'Gr\\u00fc\\u00dfe'},'fields':{'a':{'name':'\\u00e9t\\u00e9-1.x_\\u00b7'}}}"), "ok");
	/* JSON decoding reads the name as written */
	{
		char	   *o = unquote("{'fields':{'b':{'name':'{urn:x}b'},'c':{'optional':true},'l':{'optional':true},"
								"'o':{'optional':true},'m':{'optional':true},'j':{'optional':true}}}");
		char	   *doc = unquote("{'a':1,'{urn:x}b':'y'}");

		CHECK_STR(ut_decode(xs, o, doc), "{a:1,b:'y',c:null,l:null,o:null,m:null,j:null}");
		free(o);
		free(doc);
	}
}

/* ---- shape references: a shape's own namespace, else the one it is used in ------------------- */

static void
test_references(void)
{
	sd_error	err;
	sd_plan    *p;

	shapes[0] = (ut_shapedef) {"Own", "{'fields':{'id':{'name':'ID'}}}", NULL};
	shapes[1] = (ut_shapedef) {"OwnNs", "{'xml':{'namespace':'urn:own','root':'Ignored'}}", NULL};
	shapes[2] = (ut_shapedef) {"OwnNone", "{'xml':{'namespace':''}}", NULL};
	for (int i = 0; i < 3; i++)
	{
		shapes[i].opts = unquote(shapes[i].opts);
		shapes[i].type = owner;
	}
	p = xcompile(twoown, "{'xml':{'namespace':'urn:d'},'fields':{'o1':{'shape':'Own'},'o2':{'shape':'Own','name':'{urn:x}o2'},"
				 "'ol':{'shape':'Own'}}}", &err);
	CHECK(p != NULL);
	if (p)
	{
		const sd_node *r = sd_plan_root(p);

		CHECK(ns_is(r->fields[0].node->xml_ns, "urn:d") && name_is(&r->fields[0].node->fields[0].xml, "urn:d", "ID"));
		CHECK(ns_is(r->fields[1].node->xml_ns, "urn:x") && name_is(&r->fields[1].node->fields[0].xml, "urn:x", "ID"));
		CHECK(r->fields[2].node->elem == r->fields[0].node);	/* same shape, same namespace: once */
		sd_plan_free(p);
	}
	p = xcompile(twoown, "{'xml':{'namespace':'urn:d'},'fields':{'o1':{'shape':'OwnNs'},'o2':{'shape':'OwnNs','name':'{urn:x}o2'},"
				 "'ol':{'shape':'OwnNone'}}}", &err);
	CHECK(p != NULL);
	if (p)
	{
		const sd_node *r = sd_plan_root(p);

		/* the element itself is named by the referring shape; its children by the shape's namespace */
		CHECK(name_is(&r->fields[0].xml, "urn:d", "o1") && name_is(&r->fields[1].xml, "urn:x", "o2"));
		CHECK(ns_is(r->fields[0].node->xml_ns, "urn:own") && r->fields[0].node == r->fields[1].node);
		CHECK(name_is(&r->fields[0].node->fields[1].xml, "urn:own", "display_name"));
		CHECK(name_is(&r->fields[0].node->xml_root, "urn:own", "Ignored"));
		CHECK(sd_plan_xml_root(p)->local == NULL);
		CHECK(r->fields[2].node->elem->xml_ns == NULL && name_is(&r->fields[2].node->elem->fields[0].xml, NULL, "id"));
		sd_plan_free(p);
	}
	/* an error inside a referenced shape names it */
	shapes[3] = (ut_shapedef) {"BadNs", "{\"xml\":{\"root\":\"{x\"}}", owner};
	CHECK_STR(xerror(twoown, "{'fields':{'o1':{'shape':'BadNs'}}}"),
			  "ERROR 22023 $.fields.o1.shape: in shape \"BadNs\" at $.xml.root: \"{x\" is not a valid {uri}local name: no \"}\" closes the namespace");
}

/* ---- every registration error: 22023 with the option's path ---------------------------------- */

typedef struct xcase
{
	int			line;
	int			t;
	const char *opts;
	const char *want;
} xcase;

#define XC(t, o, w) {__LINE__, t, o, w}
enum {X_XS, X_ODD, X_TWO, X_UNI, X_LIST};

static const sd_type *
xtarget(int t)
{
	return t == X_XS ? xs : t == X_ODD ? oddx : t == X_TWO ? twoown : t == X_UNI ? uni : listing;
}

static const xcase xcases[] = {
	/* {uri}local syntax, in every place a name is */
	XC(X_XS, "{'fields':{'a':{'name':'{urn:x'}}}", "ERROR 22023 $.fields.a.name: \"{urn:x\" is not a valid {uri}local name: no \"}\" closes the namespace"),
	XC(X_XS, "{'fields':{'a':{'name':'{'}}}", "ERROR 22023 $.fields.a.name: \"{\" is not a valid {uri}local name: no \"}\" closes the namespace"),
	XC(X_XS, "{'fields':{'a':{'name':'{urn:x}'}}}", "ERROR 22023 $.fields.a.name: \"{urn:x}\" is not a valid {uri}local name: the local name is empty"),
	XC(X_XS, "{'fields':{'a':{'name':'{}'}}}", "ERROR 22023 $.fields.a.name: \"{}\" is not a valid {uri}local name: the local name is empty"),
	XC(X_XS, "{'fields':{'a':{'name':'{u{v}a'}}}", "ERROR 22023 $.fields.a.name: \"{u{v}a\" is not a valid {uri}local name: the namespace contains \"{\""),
	XC(X_XS, "{'fields':{'a':{'name':'{urn:x}p:a'}}}", "ERROR 22023 $.fields.a.name: \"{urn:x}p:a\" is not a valid {uri}local name: it contains \":\" (a prefix is not a namespace here: write {uri}local)"),
	XC(X_XS, "{'fields':{'a':{'name':'{urn:x}1a'}}}", "ERROR 22023 $.fields.a.name: \"{urn:x}1a\" is not a valid {uri}local name: it starts with \"1\""),
	XC(X_XS, "{'fields':{'a':{'name':'{urn:x}a}b'}}}", "ERROR 22023 $.fields.a.name: \"{urn:x}a}b\" is not a valid {uri}local name: it contains \"}\""),
	XC(X_XS, "{'fields':{'a':{'name':'{urn:x}a b'}}}", "ERROR 22023 $.fields.a.name: \"{urn:x}a b\" is not a valid {uri}local name: it contains U+0020"),
	XC(X_XS, "{'fields':{'a':{'name':'{urn:x}-a'}}}", "ERROR 22023 $.fields.a.name: \"{urn:x}-a\" is not a valid {uri}local name: it starts with \"-\""),
	XC(X_XS, "{'fields':{'a':{'path':['{urn:x}P','{bad']}}}", "ERROR 22023 $.fields.a.path[1]: \"{bad\" is not a valid {uri}local name: no \"}\" closes the namespace"),
	XC(X_XS, "{'fields':{'l':{'xml_item':'{urn:x'}}}", "ERROR 22023 $.fields.l.xml_item: \"{urn:x\" is not a valid {uri}local name: no \"}\" closes the namespace"),
	XC(X_XS, "{'fields':{'l':{'xml_item':''}}}", "ERROR 22023 $.fields.l.xml_item: \"\" is not an XML name: the local name is empty"),
	XC(X_XS, "{'fields':{'l':{'xml_item':'a:b'}}}", "ERROR 22023 $.fields.l.xml_item: \"a:b\": prefix \"a\" is not mapped by xml.ns (map it there, or write {uri}local)"),
	XC(X_XS, "{'xml':{'root':'{x'}}", "ERROR 22023 $.xml.root: \"{x\" is not a valid {uri}local name: no \"}\" closes the namespace"),
	XC(X_XS, "{'xml':{'root':''}}", "ERROR 22023 $.xml.root: \"\" is not an XML name: the local name is empty"),
	XC(X_XS, "{'xml':{'root':'s3:ListBucketResult'}}", "ERROR 22023 $.xml.root: \"s3:ListBucketResult\": prefix \"s3\" is not mapped by xml.ns (map it there, or write {uri}local)"),
	XC(X_XS, "{'xml':{'root':'a\\u0001'}}", "ERROR 22023 $.xml.root: \"a\x01\" is not an XML name: it contains U+0001"),
	/* namespaces */
	XC(X_XS, "{'xml':{'namespace':1}}", "ERROR 22023 $.xml.namespace: must be a string, not a number"),
	XC(X_XS, "{'xml':{'namespace':null}}", "ERROR 22023 $.xml.namespace: must be a string, not null"),
	XC(X_XS, "{'xml':{'namespace':'urn:{x}'}}", "ERROR 22023 $.xml.namespace: a namespace URI must not contain \"{\" or \"}\""),
	XC(X_XS, "{'xml':{'namespace':'urn:x\\u0000y'}}", "ERROR 22023 $.xml.namespace: a namespace URI must not contain \\u0000"),
	XC(X_XS, "{'xml':{'namespace':''}}", "ok"),
	/* a shape with xml (or a field with an xml option): its names must be XML names */
	XC(X_XS, "{'xml':{},'fields':{'a':{'name':'atom:link'}}}", "ERROR 22023 $.fields.a.name: \"atom:link\": prefix \"atom\" is not mapped by xml.ns (map it there, or write {uri}local)"),
	XC(X_XS, "{'fields':{'a':{'name':'atom:link','xml':'element'}}}", "ERROR 22023 $.fields.a.name: \"atom:link\": prefix \"atom\" is not mapped by xml.ns (map it there, or write {uri}local)"),
	XC(X_XS, "{'fields':{'a':{'name':'atom:link'}}}", "ok"),
	XC(X_XS, "{'fields':{'a':{'path':['x','@y'],'xml':'attribute'}}}", "ERROR 22023 $.fields.a.path[1]: \"@y\" is not an XML name: it starts with \"@\""),
	XC(X_ODD, "{'xml':{'root':'R'}}", "ERROR 22023 $.fields.\"odd key\": column \"odd key\" has no XML name: \"odd key\" is not an XML name: it contains U+0020; give it a \"name\""),
	XC(X_ODD, "{'xml':{'root':'R'},'fields':{'odd key':{'name':'oddKey'}}}", "ok"),
	XC(X_ODD, "{'xml':{'root':'R'},'fields':{'odd key':{'skip':true}}}", "ok"),
	XC(X_ODD, "{'fields':{'odd key':{'xml':'attribute'}}}", "ERROR 22023 $.fields.\"odd key\": column \"odd key\" has no XML name: \"odd key\" is not an XML name: it contains U+0020; give it a \"name\""),
	/* kinds on the wrong columns */
	XC(X_XS, "{'fields':{'o':{'xml':'attribute'}}}", "ERROR 22023 $.fields.o.xml: \"attribute\" needs a scalar column, not xowner"),
	XC(X_XS, "{'fields':{'l':{'xml':'attribute'}}}", "ERROR 22023 $.fields.l.xml: \"attribute\" needs a scalar column, not integer[]"),
	XC(X_XS, "{'fields':{'m':{'map':true,'xml':'attribute'}}}", "ERROR 22023 $.fields.m.xml: \"attribute\" needs a scalar column, not xkv[]"),
	XC(X_XS, "{'fields':{'o':{'xml':'text'}}}", "ERROR 22023 $.fields.o.xml: \"text\" needs a scalar column, not xowner"),
	XC(X_XS, "{'fields':{'l':{'xml':'text'}}}", "ERROR 22023 $.fields.l.xml: \"text\" needs a scalar column, not integer[]"),
	XC(X_XS, "{'fields':{'b':{'xml':'text','path':['x','b']}}}", "ERROR 22023 $.fields.b.xml: \"text\" takes no \"path\": it is the character data of the element itself"),
	XC(X_XS, "{'fields':{'b':{'xml':'text'},'c':{'xml':'text'}}}", "ERROR 22023 $.fields.c: the element's text is already mapped by column \"b\""),
	XC(X_XS, "{'fields':{'b':{'xml':'text'},'c':{'xml':'text','skip':true}}}", "ERROR 22023 $.fields.c.xml: option \"xml\" does not apply to a skipped column"),
	XC(X_XS, "{'fields':{'b':{'xml':'text'},'a':{'xml':'attribute'},'j':{'xml':'element'}}}", "ok"),
	XC(X_XS, "{'fields':{'a':{'xml_item':'x'}}}", "ERROR 22023 $.fields.a.xml_item: \"xml_item\" needs a list column (an array), not integer"),
	XC(X_XS, "{'fields':{'o':{'xml_item':'x'}}}", "ERROR 22023 $.fields.o.xml_item: \"xml_item\" needs a list column (an array), not xowner"),
	XC(X_XS, "{'fields':{'j':{'xml_item':'x'}}}", "ERROR 22023 $.fields.j.xml_item: \"xml_item\" needs a list column (an array), not jsonb"),
	XC(X_XS, "{'fields':{'m':{'map':true,'xml_item':'x'}}}", "ERROR 22023 $.fields.m.xml_item: \"xml_item\" needs a list column (an array), not a map column xkv[]"),
	XC(X_XS, "{'fields':{'l':{'xml_item':'member','path':['w','L']}}}", "ok"),
	/* two fields, one XML name (like two columns on one JSON member) */
	XC(X_XS, "{'xml':{'namespace':'urn:d'},'fields':{'b':{'name':'{urn:d}x'},'c':{'name':'x'}}}", "ERROR 22023 $.fields.c: XML element \"{urn:d}x\" is already mapped by column \"b\""),
	XC(X_XS, "{'fields':{'b':{'name':'{}x'},'c':{'name':'x'}}}", "ERROR 22023 $.fields.c: XML element \"x\" is already mapped by column \"b\""),
	XC(X_XS, "{'xml':{'namespace':'urn:d'},'fields':{'b':{'name':'{}x'},'c':{'name':'x'}}}", "ok"),
	XC(X_XS, "{'fields':{'b':{'name':'{}x','xml':'attribute'},'c':{'name':'x'}}}", "ok"),
	XC(X_XS, "{'fields':{'b':{'name':'x','xml':'attribute'},'c':{'name':'{}x','xml':'attribute'}}}", "ERROR 22023 $.fields.c: XML attribute \"x\" is already mapped by column \"b\""),
	XC(X_XS, "{'xml':{'namespace':'urn:d'},'fields':{'b':{'name':'x','xml':'attribute'},'c':{'name':'{urn:d}x','xml':'attribute'}}}", "ok"),
	XC(X_XS, "{'xml':{'namespace':'urn:d'},'fields':{'b':{'path':['{urn:d}P','x']},'c':{'path':['P','x']}}}", "ERROR 22023 $.fields.c: XML element \"{urn:d}P\" is written \"P\" here and \"{urn:d}P\" in the path of column \"b\": write it the same way"),
	XC(X_XS, "{'xml':{'namespace':'urn:d'},'fields':{'b':{'path':['{urn:d}P','x']},'c':{'name':'P'}}}", "ERROR 22023 $.fields.c: XML element \"{urn:d}P\" is already mapped by column \"b\""),
	XC(X_XS, "{'fields':{'b':{'path':['P','x']},'c':{'path':['P','{}x'],'xml':'attribute'},'a':{'path':['P','y']}}}", "ok"),
	XC(X_XS, "{'fields':{'b':{'path':['P','x']},'c':{'path':['P','{}x']}}}", "ERROR 22023 $.fields.c: XML element \"x\" is already mapped by column \"b\""),
	XC(X_XS, "{'fields':{'b':{'name':'c'},'c':{'skip':true}}}", "ok"),
	/* the JSON duplicate comes first, with its own message */
	XC(X_XS, "{'fields':{'b':{'name':'x'},'c':{'name':'x'}}}", "ERROR 22023 $.fields.c: member \"x\" is already mapped by column \"b\""),
	/* variants: the merged object's XML names too */
	XC(X_UNI, "{'tag':'kind','variants':{'o':'v1','k':'v2'},'fields':{'at':{'name':'{}id'}}}", "ERROR 22023 $.variants.id: variant \"o\": XML element \"id\" is already mapped by column \"at\""),
	XC(X_UNI, "{'tag':'kind','variants':{'o':'v1','k':'v2'}}", "ok"),
	/* a referenced shape keeps its own checks */
	XC(X_TWO, "{'fields':{'o1':{'xml':'attribute'}}}", "ERROR 22023 $.fields.o1.xml: \"attribute\" needs a scalar column, not xowner"),
};

static void
test_errors(void)
{
	for (size_t i = 0; i < sizeof(xcases) / sizeof(xcases[0]); i++)
	{
		const char *got = xerror(xtarget(xcases[i].t), xcases[i].opts);

		if (strcmp(got, xcases[i].want) == 0)
			unit_passed++;
		else
		{
			unit_failed++;
			fprintf(stderr, "FAIL %s:%d: %s\n    got  %s\n    want %s\n", __FILE__, xcases[i].line,
					xcases[i].opts, got, xcases[i].want);
		}
	}
}

void		unit_xmlplan(void);

void
unit_xmlplan(void)
{
	setup();
	test_s3();
	test_names();
	test_references();
	test_errors();
	for (int i = 0; i < 3; i++)
		free((char *) shapes[i].opts);
}
