-- xml_json_rules.sql — rules that JSON and XML share, pinned side by side (the same data as
-- JSON text and as XML, through the one member loop of the rule engine): a repeated map key is
-- 22030; a missing `path` parent is one error at the first missing name; a null parent (JSON
-- null, XML xsi:nil) makes the values below it NULL, 23502 where not nullable; xsi:nil accepts
-- true / 1 / false / 0 around whitespace, anything else is 2200N.
-- `r` is the row as jsonb, or "ERROR <SQLSTATE>: <message>".
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE FUNCTION pg_temp.j(shape text, doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text;
BEGIN
    EXECUTE 'SELECT to_jsonb(serde_decode($1, $2))::text' INTO r USING shape, doc;
    RETURN r;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN 'ERROR ' || st || ': ' || msg;
END $f$;
CREATE FUNCTION pg_temp.x(shape text, doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text;
BEGIN
    EXECUTE 'SELECT to_jsonb(serde_decode_xml($1, $2))::text' INTO r USING shape, doc;
    RETURN r;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN 'ERROR ' || st || ': ' || msg;
END $f$;

-- maps: a repeated key
CREATE TYPE pg_temp.jx_kv AS (key text, value int4);
CREATE TYPE pg_temp.jx_map AS (id int4, m pg_temp.jx_kv[]);
SELECT 'ok' FROM serde_register('JxMap', 'pg_temp.jx_map'::regtype, '{"fields": {"m": {"map": true}}}');
SELECT pg_temp.j('JxMap', '{"id": 1, "m": {"a": 1, "b": 2}}') AS r;
SELECT pg_temp.x('JxMap', '<doc><id>1</id><m><a>1</a><b>2</b></m></doc>') AS r;
SELECT pg_temp.j('JxMap', '{"id": 1, "m": {"a": 1, "a": 2}}') AS r;
SELECT pg_temp.x('JxMap', '<doc><id>1</id><m><a>1</a><a>2</a></m></doc>') AS r;
SELECT path, code FROM serde_errors('JxMap', '{"id": 1, "m": {"a": 1, "a": 2, "b": "x"}}');
SELECT path, code FROM serde_errors_xml('JxMap', '<doc><id>1</id><m><a>1</a><a>2</a><b>x</b></m></doc>');
-- a map element with xsi:nil is NULL
SELECT pg_temp.x('JxMap', '<doc xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><id>1</id><m xsi:nil="true"/></doc>') AS r;

-- path: a missing parent, a null parent
CREATE TYPE pg_temp.jx_pr AS (id int4, sha text, ref text, lbl text);
SELECT 'ok' FROM serde_register('JxPath', 'pg_temp.jx_pr'::regtype, '{"fields": {
  "sha": {"path": ["head", "sha"]}, "ref": {"path": ["head", "ref"], "nullable": false},
  "lbl": {"path": ["head", "label"], "optional": true}}}');
SELECT pg_temp.j('JxPath', '{"id": 1, "head": {"sha": "abc", "ref": "main"}}') AS r;
SELECT pg_temp.x('JxPath', '<doc><id>1</id><head><sha>abc</sha><ref>main</ref></head></doc>') AS r;
-- missing parent: ONE error, at the first missing name
SELECT path, code, message FROM serde_errors('JxPath', '{"id": 1}');
SELECT path, code, message FROM serde_errors_xml('JxPath', '<doc><id>1</id></doc>');
SELECT pg_temp.j('JxPath', '{"id": 1}') AS r;
SELECT pg_temp.x('JxPath', '<doc><id>1</id></doc>') AS r;
-- null parent: the values below are NULL; 23502 for the non-nullable, at its own path
SELECT path, code, message FROM serde_errors('JxPath', '{"id": 1, "head": null}');
SELECT path, code, message FROM serde_errors_xml('JxPath', '<doc xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><id>1</id><head xsi:nil="true"/></doc>');
SELECT path, code, message FROM serde_errors_xml('JxPath', '<doc xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><id>1</id><head i:nil=" 1 "><sha>ignored</sha></head></doc>');
CREATE TYPE pg_temp.jx_pn AS (id int4, sha text);
SELECT 'ok' FROM serde_register('JxPathNull', 'pg_temp.jx_pn'::regtype, '{"fields": {"sha": {"path": ["head", "sha"]}}}');
SELECT pg_temp.j('JxPathNull', '{"id": 1, "head": null}') AS r;
SELECT pg_temp.x('JxPathNull', '<doc xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><id>1</id><head xsi:nil="true"/></doc>') AS r;
-- xsi:nil false / 0: not null; any other value: 2200N
SELECT pg_temp.x('JxPathNull', '<doc xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><id xsi:nil="false">1</id><head xsi:nil="0"><sha>s</sha></head></doc>') AS r;
SELECT pg_temp.x('JxPathNull', '<doc xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><id xsi:nil="yes">1</id></doc>') AS r;
SELECT pg_temp.x('JxPathNull', '<doc xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><id xsi:nil=" true ">1</id><head><sha>s</sha></head></doc>') AS r;

-- a union's tag as the document names it: the column receiving it, after `name` (JSON and XML)
CREATE TYPE pg_temp.jx_card AS (number text);
CREATE TYPE pg_temp.jx_bank AS (iban text);
CREATE TYPE pg_temp.jx_pay AS (kind text, amount int4, card pg_temp.jx_card, bank pg_temp.jx_bank);
SELECT 'ok' FROM serde_register('JxTag', 'pg_temp.jx_pay'::regtype, '{"tag": "kind",
  "variants": {"card": "card", "bank": "bank"}, "fields": {"kind": {"name": "type"}}}');
SELECT pg_temp.j('JxTag', '{"type": "card", "amount": 5, "number": "4242"}') AS r;
SELECT pg_temp.x('JxTag', '<pay><type>card</type><amount>5</amount><number>4242</number></pay>') AS r;
-- the column's name is not the document's: the tag is missing
SELECT pg_temp.j('JxTag', '{"kind": "card", "amount": 5, "number": "4242"}') AS r;
SELECT pg_temp.x('JxTag', '<pay><kind>card</kind><amount>5</amount><number>4242</number></pay>') AS r;
-- a tag written as an element: an attribute of the same name is not it
SELECT pg_temp.x('JxTag', '<pay type="bank"><amount>5</amount><type>card</type><number>4242</number></pay>') AS r;
SELECT pg_temp.x('JxTag', '<pay type="card"><amount>5</amount><number>4242</number></pay>') AS r;
-- ... and one written as an attribute: a child element of the same name is not it
SELECT 'ok' FROM serde_register('JxTagA', 'pg_temp.jx_pay'::regtype, '{"tag": "kind",
  "variants": {"card": "card", "bank": "bank"}, "fields": {"kind": {"xml": "attribute"}}}');
SELECT pg_temp.x('JxTagA', '<pay kind="card"><kind>bank</kind><amount>5</amount><number>4242</number></pay>') AS r;
SELECT pg_temp.x('JxTagA', '<pay><kind>card</kind><amount>5</amount></pay>') AS r;
-- with rename, the tag column's document name is the renamed one
CREATE TYPE pg_temp.jx_pay2 AS (pay_kind text, card pg_temp.jx_card, bank pg_temp.jx_bank);
SELECT 'ok' FROM serde_register('JxTagR', 'pg_temp.jx_pay2'::regtype, '{"tag": "pay_kind",
  "rename": "camel", "variants": {"card": "card", "bank": "bank"}}');
SELECT pg_temp.j('JxTagR', '{"payKind": "bank", "iban": "DE00"}') AS r;
SELECT pg_temp.x('JxTagR', '<pay><payKind>bank</payKind><iban>DE00</iban></pay>') AS r;

-- a value quoted in a message stays on one line, whatever the format: control characters are
-- written as JSON writes them
SELECT pg_temp.j('JxPathNull', E'{"id": "1\\n2"}') AS r;
SELECT pg_temp.x('JxPathNull', E'<doc><id>1\n2</id></doc>') AS r;
SELECT pg_temp.x('JxPathNull', E'<doc><id>\t</id><head><sha>s</sha></head></doc>') AS r;

-- an element that is present with no character data: its `xml: "text"` member is '' for a text
-- column (<subtitle type="html"></subtitle>, <skipped/>), whether or not it has attributes; for
-- other kinds it is missing, as an empty attribute is (optional / default / 2203A)
CREATE TYPE pg_temp.jx_txt AS (type text, body text);
CREATE TYPE pg_temp.jx_num AS (unit text, amount int4);
SELECT 'ok' FROM serde_register('JxTxt', 'pg_temp.jx_txt'::regtype,
  '{"fields": {"type": {"xml": "attribute", "optional": true}, "body": {"xml": "text"}}}');
SELECT 'ok' FROM serde_register('JxNum', 'pg_temp.jx_num'::regtype,
  '{"fields": {"unit": {"xml": "attribute", "optional": true}, "amount": {"xml": "text"}}}');
SELECT pg_temp.x('JxTxt', '<subtitle type="html"></subtitle>') AS r;
SELECT pg_temp.x('JxTxt', '<skipped/>') AS r;
SELECT pg_temp.x('JxTxt', '<subtitle type="html">a &amp; b</subtitle>') AS r;
SELECT pg_temp.x('JxNum', '<total unit="EUR"/>') AS r;
SELECT 'ok' FROM serde_register('JxNum', 'pg_temp.jx_num'::regtype,
  '{"fields": {"unit": {"xml": "attribute", "optional": true}, "amount": {"xml": "text", "optional": true}}}');
SELECT pg_temp.x('JxNum', '<total unit="EUR"/>') AS r;
