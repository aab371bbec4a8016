-- xml_rules.sql — XML documents driven by the one rule engine (engine.c, the same member loop
-- as JSON): what XML shares with JSON now — serde_errors_xml lists EVERY violation (order,
-- XPath, byte offsets; the first one's line/column in DETAIL), unions by a tag attribute or a
-- tag element, duplicates of a non-list element, a missing wrapped list, an empty element into
-- a composite, a default used, `extra` (the unmapped elements and attributes as JSON) — and
-- what XML refuses clearly (other json/jsonb columns: 0A000).
-- `r` is the row as jsonb, or "ERROR <SQLSTATE>: <message> (<DETAIL>)".
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE FUNCTION pg_temp.x(shape text, doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE 'SELECT to_jsonb(serde_decode_xml($1, $2))::text' INTO r USING shape, doc;
    RETURN r;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' (' || nullif(det, '') || ')', '');
END $f$;

CREATE TYPE pg_temp.xr_item AS (k text, n int4);
CREATE TYPE pg_temp.xr_row AS (id int4, name text, qty int4, flag bool, inner_ pg_temp.xr_item,
                               tags text[], items pg_temp.xr_item[], lvl int4);
SELECT 'ok' FROM serde_register('XrItem', 'pg_temp.xr_item'::regtype, '{
  "fields": {"k": {"xml": "attribute"}, "n": {"xml": "text", "optional": true}}}');
SELECT 'ok' FROM serde_register('XrRow', 'pg_temp.xr_row'::regtype, '{
  "xml": {"root": "r"}, "unknown": "reject",
  "fields": {"id": {"xml": "attribute", "nullable": false}, "flag": {"optional": true},
             "inner_": {"name": "inner", "shape": "XrItem", "optional": true},
             "tags": {"name": "tag"}, "items": {"xml_item": "item", "shape": "XrItem"},
             "lvl": {"default": 3}}}');

-- every violation, in document order (attributes first, then children), one row each
SELECT * FROM serde_errors_xml('XrRow', E'<r id="x" junk="1">\n <name>a</name><qty>1.5</qty><flag>maybe</flag>\n <name>b</name><other/><items><item>1</item><item k="a">z</item></items>\n <inner/><tag>t</tag><tag><b/></tag></r>');
-- the same document through serde_decode_xml: the first of them, with its line and column
SELECT pg_temp.x('XrRow', E'<r id="x" junk="1">\n <name>a</name><qty>1.5</qty></r>') AS r;
SELECT pg_temp.x('XrRow', E'<r id="1">\n <name>a</name>\n <qty>2</qty>\n <name>b</name></r>') AS r;
-- serde_errors on an xml value gives the same rows
SELECT path, code FROM serde_errors(NULL::pg_temp.xr_row, '<r id="1"><qty>q</qty><zz/></r>'::xml, 'XrRow');
-- a default used, the empty element into a composite (its members missing), lists: none = []
SELECT pg_temp.x('XrRow', '<r id="1"><name>a</name><qty>2</qty><items/></r>') AS r;
SELECT pg_temp.x('XrRow', '<r id="1"><name>a</name><qty>2</qty><items/><inner/></r>') AS r;
-- a wrapped list whose wrapper is absent is a missing member
SELECT pg_temp.x('XrRow', '<r id="1"><name>a</name><qty>2</qty></r>') AS r;
SELECT path, code, message FROM serde_errors_xml('XrRow', '<r><name>a</name></r>');
-- a malformed document is that one row
SELECT path, code, message FROM serde_errors_xml('XrRow', '<r id="1"><name>a</name><qty>2</qty><items/></r');

-- a union by a tag attribute (the tag is never unknown; the variant's members from the element)
CREATE TYPE pg_temp.xr_card AS (number text);
CREATE TYPE pg_temp.xr_bank AS (iban text);
CREATE TYPE pg_temp.xr_pay AS (amount int4, card pg_temp.xr_card, bank pg_temp.xr_bank);
SELECT 'ok' FROM serde_register('XrPay', 'pg_temp.xr_pay'::regtype, '{
  "unknown": "reject", "tag": "kind", "variants": {"card": "card", "bank": "bank"}}');
SELECT pg_temp.x('XrPay', '<pay kind="card"><amount>5</amount><number>4242</number></pay>') AS r;
SELECT pg_temp.x('XrPay', '<pay kind="bank"><iban>DE00</iban><amount>7</amount></pay>') AS r;
SELECT pg_temp.x('XrPay', '<pay kind="cash"><amount>5</amount></pay>') AS r;
SELECT pg_temp.x('XrPay', '<pay><amount>5</amount></pay>') AS r;
SELECT pg_temp.x('XrPay', '<pay kind="card"><amount>5</amount><iban>x</iban></pay>') AS r;
-- the tag may also be a child element (found by looking ahead: anywhere among the children,
-- never unknown); its text is the tag value
SELECT pg_temp.x('XrPay', '<pay><kind>card</kind><amount>5</amount><number>4242</number></pay>') AS r;
SELECT pg_temp.x('XrPay', '<pay><amount>7</amount><iban>DE00</iban><kind>bank</kind></pay>') AS r;
SELECT pg_temp.x('XrPay', '<pay><amount>7</amount>
  <kind>cash</kind></pay>') AS r;
SELECT pg_temp.x('XrPay', '<pay><amount>7</amount><sub><kind>card</kind></sub></pay>') AS r;
SELECT path, code, message FROM serde_errors_xml('XrPay', '<pay kind="card"><amount>x</amount><number/><zz/></pay>');

-- a json/jsonb column: refused (an xml column keeps the element verbatim)
CREATE TYPE pg_temp.xr_json AS (a text, j jsonb);
SELECT 'ok' FROM serde_register('XrJson', 'pg_temp.xr_json'::regtype, '{}');
SELECT pg_temp.x('XrJson', '<r><a>x</a><j><b>1</b></j></r>') AS r;
SELECT pg_temp.x('XrJson', '<r><a>x</a></r>') AS r;

-- `extra`: the unmapped child elements and attributes as one JSON object — names as written
-- (attributes "@name"), a text-only element as its string, others as objects ("@attr", children,
-- "#text" when not blank), a repeated name (adjacent or not) as an array in document order
CREATE TYPE pg_temp.xr_extra AS (id int4, name text, rest jsonb);
SELECT 'ok' FROM serde_register('XrExtra', 'pg_temp.xr_extra'::regtype, '{
  "extra": "rest", "fields": {"id": {"xml": "attribute"}}}');
SELECT pg_temp.x('XrExtra', '<r id="1" lang="en"><name>a</name><color>red</color><size/>
  <dim unit="cm">12<w>3</w></dim><color>blue</color><note>x</note><color>green</color></r>') AS r;
SELECT pg_temp.x('XrExtra', '<r id="2"><name>b</name></r>') AS r;
SELECT pg_temp.x('XrExtra', '<r xmlns:x="urn:x" id="3" x:a="1"><name>n</name><x:name>n2</x:name><deep><a><b>"q" &amp; \</b></a></deep></r>') AS r;
-- an element of another namespace is not the field (`name` is in the shape's namespace)
SELECT pg_temp.x('XrExtra', '<r xmlns:x="urn:x" id="4"><x:name>n</x:name></r>') AS r;
-- serde_errors_xml still reports the mapped members' violations
SELECT path, code, message FROM serde_errors_xml('XrExtra', '<r id="z"><name>b</name><other>1</other></r>');

-- mixed content: xml "text" on an element with children is the concatenation of its own text
-- nodes (CDATA and entities included); the children are members as usual; an element without
-- character data has no text member (missing, as in an empty element: optional / default apply)
CREATE TYPE pg_temp.xr_mixed AS (body text, b text[]);
SELECT 'ok' FROM serde_register('XrMixed', 'pg_temp.xr_mixed'::regtype, '{
  "fields": {"body": {"xml": "text"}, "b": {"optional": true}}}');
SELECT pg_temp.x('XrMixed', '<p>Hello <b>bold</b> world<![CDATA[ & more]]> &amp; <b>again</b>end</p>') AS r;
SELECT pg_temp.x('XrMixed', '<p><b>only</b></p>') AS r;

-- a tag element is found wherever the reader's 64 KB batches end (3,000 unions, ~200 KB: the
-- lookahead reads on past a batch's end)
CREATE TYPE pg_temp.xr_pays AS (pay pg_temp.xr_pay[]);
SELECT 'ok' FROM serde_register('XrPays', 'pg_temp.xr_pays'::regtype, '{"fields": {"pay": {"shape": "XrPay"}}}');
SELECT cardinality((serde_decode_xml(NULL::pg_temp.xr_pays, '<list>' ||
         repeat('<pay><amount>1</amount><number>4242</number><kind>card</kind></pay>', 3000) || '</list>')).pay) AS n;
-- ... and its absence there is the missing tag, malformed XML after it the malformed document
SELECT pg_temp.x('XrPays', '<list>' || repeat('<pay><amount>1</amount><kind>card</kind><number>1</number></pay>', 1500) ||
       '<pay>' || repeat('<amount>1</amount>', 6000) || '</pay></list>') AS r;
SELECT pg_temp.x('XrPays', '<list><pay>' || repeat('<amount>1</amount>', 6000) || '<kind>card</kind></pa></list>') AS r;
