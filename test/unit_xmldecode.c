/*
 * unit_xmldecode.c - XML documents decoded through the one rule engine (xml_decode.c, engine.c):
 * rows as the renderer writes them, errors with their SQLSTATE, XPath and line:column.
 */
#include "unit.h"
#include "unit_support.h"

void		unit_xmldecode(void);
static void unit_xmlauthoring(void);
static void unit_xmlmembercache(void);
static void unit_xmlwhitespace(void);

void
unit_xmldecode(void)
{
	const sd_type *in = ut_composite("xdin", "k:text,n:int4");
	const sd_type *row = ut_composite("xdrow", "s:text,i:int4,b:bool,inner_:xdin,tags:text[],id:int8");
	const char *opts = "{\"xml\": {\"root\": \"r\"}, \"unknown\": \"reject\", \"optional\": true,"
		" \"fields\": {\"inner_\": {\"name\": \"inner\"}, \"tags\": {\"name\": \"tag\"},"
		" \"id\": {\"xml\": \"attribute\"}}}";
	const char *r;

	(void) in;
	/* the shape compiles; a row with text, numbers, booleans, attributes and a flattened list */
	CHECK_STR(ut_compile(row, opts), "ok");
	r = ut_decode_xml(row, opts, "<r id='9'><s> a </s><tag>x</tag><i> 4 </i><tag>y</tag><b>0</b></r>");
	CHECK_STR(r, "{s:' a ',i:4,b:false,inner_:null,tags:['x','y'],id:9}");
	CHECK_STR(ut_decode_xml(row, opts, "<r/>"), "{s:null,i:null,b:null,inner_:null,tags:[],id:null}");
	/* errors: XPath with positions, SQLSTATEs of XML, line:column */
	CHECK_STR(ut_decode_xml(row, opts, "<r>\n<tag>x</tag><tag/><i>q</i></r>"),
			  "ERROR 2200N /r/i: expected integer, found text \"q\" @22 2:19");
	CHECK_STR(ut_decode_xml(row, opts, "<r><zz/></r>"), "ERROR 2203E /r/zz: unknown member @3 1:4");
	CHECK_STR(ut_decode_xml(row, opts, "<r><inner><k>a</k><n>x</n></inner></r>"),
			  "ERROR 2200N /r/inner/n: expected integer, found text \"x\" @18 1:19");
	CHECK_STR(ut_decode_xml(row, opts, "<q/>"),
			  "ERROR 2200N /q: expected root element r, found q @0 1:1");
	CHECK_STR(ut_decode_xml(row, opts, "<r><s>1</r>"),
			  "ERROR 2200M /: malformed XML: mismatched end tag </r> for <s> opened at line 1 @11 1:12");
	unit_xmlauthoring();
	unit_xmlmembercache();
	unit_xmlwhitespace();
}

/* The XML authoring options (docs/reference.md, "XML names"): xml.ns, xml.namespaces, attributes,
 * xml: "presence", xml_choice. */
static void
unit_xmlauthoring(void)
{
	const sd_type *t = ut_composite("xa1", "a:text,b:bool,c:int4");
	const char *o1 = "{\"xml\": {\"root\": \"p:r\", \"ns\": {\"p\": \"urn:p\"}}, \"attributes\": [\"c\"],"
		" \"fields\": {\"a\": {\"name\": \"p:a\"}, \"b\": {\"name\": \"p:b\", \"xml\": \"presence\"}}}";
	const char *o2 = "{\"xml\": {\"root\": \"r\", \"namespaces\": [\"urn:a\", \"urn:b\", \"\"]}, \"optional\": true,"
		" \"unknown\": \"reject\"}";

	CHECK_STR(ut_decode_xml(t, o1, "<q:r xmlns:q='urn:p' c='3'><q:a>x</q:a><q:b>no</q:b></q:r>"), "{a:'x',b:true,c:3}");
	CHECK_STR(ut_decode_xml(t, o1, "<q:r xmlns:q='urn:p' c='3'><q:a>x</q:a></q:r>"), "{a:'x',b:false,c:3}");
	CHECK_STR(ut_decode_xml(t, o1, "<q:r xmlns:q='urn:p' c='3'><q:a>x</q:a><q:b/><q:b/></q:r>"),
			  "ERROR 22030 /q:r/q:b: duplicate member @45 1:46");
	CHECK_STR(ut_decode_xml(t, o1, "<r c='3'><a>x</a></r>"),
			  "ERROR 2200N /r: expected root element {urn:p}r, found r @0 1:1");
	CHECK_STR(ut_decode(t, o1, "{\"p:a\": \"x\", \"c\": 1}"), "{a:'x',b:false,c:1}");
	CHECK_STR(ut_decode_xml(t, o2, "<r xmlns='urn:b'><a>x</a><c>1</c></r>"), "{a:'x',b:null,c:1}");
	CHECK_STR(ut_decode_xml(t, o2, "<r><a>x</a></r>"), "{a:'x',b:null,c:null}");
	CHECK_STR(ut_decode_xml(t, o2, "<r xmlns='urn:a'><a xmlns='urn:b'>x</a><c c='1'>1</c></r>"),
			  "{a:'x',b:null,c:1}");
	CHECK_STR(ut_decode_xml(t, o2, "<r xmlns='urn:c'/>"),
			  "ERROR 2200N /r: expected root element {urn:a}r, found {urn:c}r @0 1:1");
	CHECK_STR(ut_decode_xml(t, o2, "<r xmlns='urn:a'><a xmlns='urn:c'>x</a></r>"),
			  "ERROR 2203E /r/a: unknown member @17 1:18");

	/* xml_choice: one list over two element names of a union's variants */
	const sd_type *v = ut_composite("xav", "k:text");
	const sd_type *w = ut_composite("xaw", "k:text,n:int4");
	const sd_type *u = ut_composite("xau", "kind:text,v:xav,w:xaw");
	const sd_type *l = ut_composite("xal", "items:xau[]");
	ut_shapedef shapes[UT_SHAPES] = {
		{"U", "{\"tag\": \"kind\", \"variants\": {\"V\": \"v\", \"W\": \"w\"}}", NULL}, {NULL, NULL, NULL}};
	sd_resolver res = {ut_resolve, shapes};
	const char *lo = "{\"fields\": {\"items\": {\"shape\": \"U\", \"xml_choice\": [\"V\", \"W\"]}}}";
	sd_error	err;
	sd_plan    *plan;

	(void) v;
	(void) w;
	shapes[0].type = u;
	plan = sd_compile("L", lo, strlen(lo), l, NULL, &res, &err);
	CHECK(plan != NULL);
	if (!plan)
		return;
	CHECK_STR(ut_decode_xml_with(plan, "<r><W><k>a</k><n>1</n></W><V><k>b</k></V><x/><W><k>c</k><n>2</n></W></r>"),
			  "{items:[{kind:'W',v:null,w:{k:'a',n:1}},{kind:'V',v:{k:'b'},w:null},{kind:'W',v:null,w:{k:'c',n:2}}]}");
	CHECK_STR(ut_decode_xml_with(plan, "<r/>"), "{items:[]}");
	CHECK_STR(ut_decode_xml_with(plan, "<r><W><k>a</k><n>1</n></W><V><k>b</k></V><W><k>c</k><n>x</n></W></r>"),
			  "ERROR 2200N /r/W[2]/n: expected integer, found text \"x\" @52 1:53");
	CHECK_STR(ut_decode_xml_with(plan, "<r><V xsi:nil='true' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'/></r>"),
			  "{items:[null]}");
	CHECK_STR(ut_decode_with(plan, "{\"items\": [{\"kind\": \"V\", \"k\": \"b\"}]}"),
			  "{items:[{kind:'V',v:{k:'b'},w:null}]}");
	sd_plan_free(plan);
	/* below a `path`: the choice elements inside the path's element */
	lo = "{\"fields\": {\"items\": {\"shape\": \"U\", \"path\": [\"in\", \"items\"], \"xml_choice\": [\"V\", \"W\"]}}}";
	plan = sd_compile("L", lo, strlen(lo), l, NULL, &res, &err);
	CHECK(plan != NULL);
	if (!plan)
		return;
	CHECK_STR(ut_decode_xml_with(plan, "<r><in><V><k>a</k></V><W><k>b</k><n>1</n></W></in></r>"),
			  "{items:[{kind:'V',v:{k:'a'},w:null},{kind:'W',v:null,w:{k:'b',n:1}}]}");
	CHECK_STR(ut_decode_xml_with(plan, "<r><in/></r>"), "{items:[]}");
	CHECK_STR(ut_decode_xml_with(plan, "<r><in><V><k>a</k></V><V><z/></V></in></r>"),
			  "ERROR 2203A /r/in/V[2]/k: missing required member @22 1:23");
	sd_plan_free(plan);
	lo = "{\"fields\": {\"items\": {\"shape\": \"U\", \"xml_choice\": [\"V\", \"X\"]}}}";
	plan = sd_compile("L", lo, strlen(lo), l, NULL, &res, &err);
	CHECK(plan == NULL && err.code == SD_E_OPTIONS && strcmp(err.path, "$.fields.items.xml_choice[1]") == 0);
	sd_plan_free(plan);
}

/* The engine's member cache by the walker's interned name pointers (engine.c xml_member): the
 * same local name under other URIs, of another kind, unmapped in one element and mapped in
 * another, more names than the cache has slots, and skipped subtrees that are malformed. */
static void
unit_xmlmembercache(void)
{
	const sd_type *row = ut_composite("xmcrow", "s:text,i:int4,inner_:xdin,id:int8");
	const char *ign = "{\"xml\": {\"root\": \"r\"}, \"optional\": true,"
		" \"fields\": {\"inner_\": {\"name\": \"inner\"}, \"id\": {\"xml\": \"attribute\"}}}";
	const char *rej = "{\"xml\": {\"root\": \"r\"}, \"optional\": true, \"unknown\": \"reject\","
		" \"fields\": {\"inner_\": {\"name\": \"inner\"}, \"id\": {\"xml\": \"attribute\"}}}";
	const sd_type *t = ut_composite("xmc1", "a:text,c:int4");
	const char *o1 = "{\"xml\": {\"root\": \"p:r\", \"ns\": {\"p\": \"urn:p\"}}, \"optional\": true,"
		" \"unknown\": \"reject\", \"fields\": {\"a\": {\"name\": \"p:a\"}, \"c\": {\"name\": \"p:c\"}}}";
	char		doc[8192];
	size_t		o;

	/* a local name unmapped (k in r), then mapped (k in inner), then unmapped again */
	CHECK_STR(ut_decode_xml(row, ign, "<r><k>z</k><inner><k>a</k><n>1</n></inner><k>q</k><s>x</s></r>"),
			  "{s:'x',i:null,inner_:{k:'a',n:1},id:null}");
	CHECK_STR(ut_decode_xml(row, rej, "<r><s>x</s><inner><k>a</k><n>1</n></inner><k>q</k></r>"),
			  "ERROR 2203E /r/k: unknown member @42 1:43");
	/* the same name as an attribute (mapped) and as an element (unknown), and the reverse */
	CHECK_STR(ut_decode_xml(row, rej, "<r id='9'><id>5</id></r>"), "ERROR 2203E /r/id: unknown member @10 1:11");
	CHECK_STR(ut_decode_xml(row, rej, "<r id='9' s='x'><s>y</s></r>"), "ERROR 2203E /r/@s: unknown member @10 1:11");
	CHECK_STR(ut_decode_xml(row, ign, "<r s='x' id='7'><s>y</s><id>5</id></r>"), "{s:'y',i:null,inner_:null,id:7}");
	/* the same local name under two URIs: only urn:p's is the member, before and after */
	CHECK_STR(ut_decode_xml(t, o1, "<q:r xmlns:q='urn:p' xmlns:z='urn:z'><q:a>x</q:a><z:a>y</z:a></q:r>"),
			  "ERROR 2203E /q:r/z:a: unknown member @49 1:50");
	CHECK_STR(ut_decode_xml(t, o1, "<q:r xmlns:q='urn:p' xmlns:z='urn:z'><z:a>y</z:a><q:a>x</q:a></q:r>"),
			  "ERROR 2203E /q:r/z:a: unknown member @37 1:38");
	CHECK_STR(ut_decode_xml(t, o1, "<q:r xmlns:q='urn:p'><q:c>1</q:c><q:a xmlns:q='urn:pp'>y</q:a></q:r>"),
			  "ERROR 2203E /q:r/q:a: unknown member @33 1:34");
	CHECK_STR(ut_decode_xml(t, o1, "<r xmlns='urn:p'><c>1</c><a>x</a><c xmlns='urn:p'>2</c></r>"),
			  "ERROR 22030 /r/c: duplicate member @33 1:34");
	/* more names than the cache's slots (evictions, collisions), then the mapped ones again */
	o = (size_t) snprintf(doc, sizeof(doc), "<r><s>a</s>");
	for (int i = 0; i < 200; i++)
		o += (size_t) snprintf(doc + o, sizeof(doc) - o, "<u%d>x</u%d><inner><k>k%d</k></inner>", i, i, i);
	snprintf(doc + o, sizeof(doc) - o, "<i>3</i></r>");
	CHECK_STR(ut_decode_xml(row, ign, doc), "ERROR 22030 /r/inner: duplicate member @55 1:56");
	o = (size_t) snprintf(doc, sizeof(doc), "<r id='1'><s>a</s><inner>");
	for (int i = 0; i < 200; i++)
		o += (size_t) snprintf(doc + o, sizeof(doc) - o, "<u%d a%d='1'>x</u%d>", i, i, i);
	snprintf(doc + o, sizeof(doc) - o, "<n>2</n><k>b</k></inner><i>3</i></r>");
	CHECK_STR(ut_decode_xml(row, ign, doc), "{s:'a',i:3,inner_:{k:'b',n:2},id:1}");
	/* unmapped subtrees are still read: malformed XML inside one is reported */
	CHECK_STR(ut_decode_xml(row, ign, "<r><zz><a></b></zz><s>x</s></r>"),
			  "ERROR 2200M /: malformed XML: mismatched end tag </b> for <a> opened at line 1 @14 1:15");
	CHECK_STR(ut_decode_xml(row, ign, "<r><inner><zz x='1' x='2'/></inner></r>"),
			  "ERROR 2200M /: malformed XML: attribute x appears twice in one element @25 1:26");
}

/* Round 3 (SD_KEY_NO_TEXT): an element's text is left out by the walker only where no member
 * maps it.  Each case below sees whitespace-only text between child elements (or an element of
 * whitespace only): it fails if the walker dropped such text there. */
static void
unit_xmlwhitespace(void)
{
	const sd_type *t = ut_composite("xws1", "t:text,c:text");
	const char *ot = "{\"xml\": {\"root\": \"r\"}, \"optional\": true, \"fields\": {\"t\": {\"xml\": \"text\"}}}";
	const sd_type *n = ut_composite("xws2", "t:int4,c:text");
	const sd_type *x = ut_composite("xws3", "x:xml,s:text");
	const sd_type *in = ut_composite("xws4", "t:text,c:text");
	const sd_type *out = ut_composite("xws5", "m:xws4,s:text");
	const char *on = "{\"xml\": {\"root\": \"r\"}, \"optional\": true}";
	const char *oin = "{\"xml\": {\"root\": \"r\"}, \"optional\": true, \"unknown\": \"reject\","
		" \"fields\": {\"m\": {\"shape\": \"WS\"}}}";
	ut_shapedef shapes[UT_SHAPES] = {
		{"WS", "{\"fields\": {\"t\": {\"xml\": \"text\"}}}", NULL}, {NULL, NULL, NULL}};
	sd_resolver res = {ut_resolve, shapes};
	sd_error	err;
	sd_plan    *plan;

	(void) in;
	/* an `xml: "text"` member: the whitespace between child elements is its value */
	CHECK_STR(ut_decode_xml(t, ot, "<r> <c>x</c>\n</r>"), "{t:' \n',c:'x'}");
	/* mixed content: every piece, whitespace included, in document order */
	CHECK_STR(ut_decode_xml(t, ot, "<r>a <c>x</c> b</r>"), "{t:'a  b',c:'x'}");
	/* a mapped text of whitespace only, as a number: an error (trimmed: empty), at the element;
	 * left out, the text would be missing */
	CHECK_STR(ut_decode_xml(n, "{\"xml\": {\"root\": \"r\"}, \"fields\": {\"t\": {\"xml\": \"text\"}}}",
							"<r>\n <c>x</c> </r>"),
			  "ERROR 2200N /r: expected integer, found empty text @0 1:1");
	/* an `xml` column: the element verbatim, its whitespace included */
	CHECK_STR(ut_decode_xml(x, on, "<r>\n <x> <y/>\n</x> <s> </s></r>"), "{x:'<x> <y/>\n</x>',s:' '}");
	/* a scalar column whose element holds whitespace only */
	CHECK_STR(ut_decode_xml(x, on, "<r><s>\n\t </s></r>"), "{x:null,s:'\n\t '}");
	/* nested: the inner element maps its text, the outer does not (its text is left out: the
	 * same result, also for text that is not whitespace, and no unknown member) */
	shapes[0].type = in;
	plan = sd_compile("T", oin, strlen(oin), out, NULL, &res, &err);
	CHECK(plan != NULL);
	if (!plan)
		return;
	CHECK_STR(ut_decode_xml_with(plan, "<r> junk <m> <c>x</c> </m>\n<s> </s> more</r>"),
			  "{m:{t:'  ',c:'x'},s:' '}");
	CHECK_STR(ut_decode_xml_with(plan, "<r> <m>\n<zz/></m></r>"), "ERROR 2203E /r/m/zz: unknown member @8 2:1");
	sd_plan_free(plan);
}
