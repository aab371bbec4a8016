-- xml_decode.sql — the XML rules of docs/reference.md, "Decoding XML", one document at a time (the one rule engine, engine.c): text as the
-- scalar of a scalar column (trimmed except for text, '' for an empty text element, an error for
-- other kinds), numbers and booleans from text, attributes, xml: "text", flattened lists (adjacent
-- or not, none = []), wrapped lists (xml_item), path, map, xsi:nil (NOT NULL = 23502), unknown
-- elements and attributes (ignored / rejected; xsi: attributes never unknown), missing members,
-- duplicates, the root element, xml columns verbatim, and what is not supported yet (0A000).
-- `r` is the row as jsonb, or "ERROR <SQLSTATE>: <message> (<DETAIL>)".
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';

CREATE FUNCTION pg_temp.x(shape text, doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE 'SELECT to_jsonb(serde_decode_xml($1, $2))::text' INTO r USING shape, doc;
    RETURN r;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' (' || nullif(det, '') || ')', '');
END $f$;

CREATE TYPE pg_temp.xd_inner AS (k text, n int4);
CREATE TYPE pg_temp.xd_row AS (s text, i int4, b bool, f float8, t timestamptz, inner_ pg_temp.xd_inner,
                               tags text[], items pg_temp.xd_inner[], id int4, deep text, m text);
SELECT 'ok' FROM serde_register('XdInner', 'pg_temp.xd_inner'::regtype, '{
  "fields": {"k": {"xml": "attribute", "optional": true}, "n": {"xml": "text", "optional": true}}}');
SELECT 'ok' FROM serde_register('XdRow', 'pg_temp.xd_row'::regtype, '{
  "xml": {"root": "r"},
  "unknown": "reject",
  "fields": {
    "s": {"optional": true}, "i": {"optional": true}, "b": {"optional": true},
    "f": {"optional": true}, "t": {"optional": true, "format": "rfc2822"},
    "inner_": {"name": "inner", "shape": "XdInner", "optional": true},
    "tags": {"name": "tag", "optional": true},
    "items": {"xml_item": "item", "shape": "XdInner", "optional": true},
    "id": {"xml": "attribute", "optional": true, "nullable": false},
    "deep": {"path": ["a", "b"], "optional": true},
    "m": {"optional": true, "nullable": false}}}');

-- scalars from text
SELECT pg_temp.x('XdRow', '<r><s>  padded  </s><i> 42 </i><b>1</b><f>2.5</f></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><b>false</b><i>-7</i></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><s></s></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><s/></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><s><![CDATA[<b>&amp;</b>]]></s></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><t>Tue, 10 Nov 2026 10:00:00 GMT</t></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><i></i></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><i>1.5</i></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><i>99999999999</i></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><b>yes</b></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><i><x/></i></r>') AS r;
-- attributes, text beside attributes, nested composites
SELECT pg_temp.x('XdRow', '<r id=" 5 "><inner k="a">3</inner></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><inner/></r>') AS r;
SELECT pg_temp.x('XdRow', '<r id="x"/>') AS r;
-- flattened lists: repeated, not adjacent, none
SELECT pg_temp.x('XdRow', '<r><tag>a</tag><s>x</s><tag>b</tag><tag/></r>') AS r;
SELECT pg_temp.x('XdRow', '<r/>') AS r;
SELECT pg_temp.x('XdRow', '<r><tag>a</tag><tag><y/></tag></r>') AS r;
-- wrapped lists
SELECT pg_temp.x('XdRow', '<r><items><item k="a">1</item><item>2</item></items></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><items/></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><items><item>1</item><item>z</item></items></r>') AS r;
-- path through nested elements
SELECT pg_temp.x('XdRow', '<r><a><b>deep</b></a></r>') AS r;
SELECT pg_temp.x('XdRow', '<r><a><c/></a></r>') AS r;
-- xsi:nil
SELECT pg_temp.x('XdRow', '<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><s xsi:nil="true"/><inner xsi:nil="true"/></r>') AS r;
SELECT pg_temp.x('XdRow', '<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><m xsi:nil="true"/></r>') AS r;
-- unknown elements and attributes under unknown: reject; xsi: attributes are never unknown
SELECT pg_temp.x('XdRow', '<r><zz/></r>') AS r;
SELECT pg_temp.x('XdRow', '<r zz="1"/>') AS r;
SELECT pg_temp.x('XdRow', '<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="x"/>') AS r;
-- duplicates and the root element
SELECT pg_temp.x('XdRow', '<r><s>a</s><s>b</s></r>') AS r;
SELECT pg_temp.x('XdRow', '<q/>') AS r;
SELECT pg_temp.x('XdRow', '<r xmlns="urn:x"/>') AS r;
-- a missing required member is reported at its own XPath, located at the containing element
CREATE TYPE pg_temp.xd_req AS (a text, b int4);
SELECT 'ok' FROM serde_register('XdReq', 'pg_temp.xd_req'::regtype, '{"fields": {"b": {"xml": "attribute"}}}');
SELECT pg_temp.x('XdReq', E'<r>\n  <a>x</a></r>') AS r;
SELECT pg_temp.x('XdReq', '<r b="1"/>') AS r;
-- unknown elements are ignored by default
SELECT pg_temp.x('XdReq', '<r b="1"><a>x</a><other><deep/></other></r>') AS r;
-- serde_valid_xml and serde_errors_xml agree with the decode
SELECT serde_valid_xml('XdReq', '<r b="1"><a>x</a></r>') AS valid, serde_valid_xml('XdReq', '<r b="z"><a>x</a></r>') AS invalid;
SELECT path, code, message FROM serde_errors_xml('XdReq', '<r b="z"><a>x</a></r>');
-- an xml column receives the element verbatim; map: true over child elements (key = local name)
CREATE TYPE pg_temp.xd_kv AS (k text, v text);
CREATE TYPE pg_temp.xd_misc AS (h xml, attrs pg_temp.xd_kv[]);
SELECT 'ok' FROM serde_register('XdMisc', 'pg_temp.xd_misc'::regtype, '{
  "fields": {"attrs": {"map": true, "optional": true}, "h": {"optional": true}}}');
SELECT pg_temp.x('XdMisc', '<r><h a="1"><x>&amp;</x> <y/></h><attrs><color>red</color><size> L </size><note/></attrs></r>') AS r;
-- `extra` (once refused with 0A000): the unmapped elements as JSON (more in xml_rules.sql)
CREATE TYPE pg_temp.xd_extra AS (a text, rest jsonb);
SELECT 'ok' FROM serde_register('XdExtra', 'pg_temp.xd_extra'::regtype, '{"extra": "rest"}');
SELECT pg_temp.x('XdExtra', '<r><a>x</a><b/></r>') AS r;
