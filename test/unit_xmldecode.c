/*
 * unit_xmldecode.c - XML documents decoded through the one rule engine (xml_decode.c, engine.c):
 * rows as the renderer writes them, errors with their SQLSTATE, XPath and line:column.
 */
#include "unit.h"
#include "unit_support.h"

void		unit_xmldecode(void);

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
}
