-- xml_hardening.sql — issue 19 (outside attacks): line ends are LF everywhere XML reads them
-- (CDATA too; &#13; is the one CR), an `xml` column's element is standalone (the namespace
-- declarations in scope that it uses are added to it, so PostgreSQL's own XPath reads it),
-- libxml2's messages on one line, timestamps whose offset leaves 0001..9999 in UTC refused
-- (22008) in every format and both document kinds, and what `numeric` gives for exponent forms.
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
CREATE FUNCTION pg_temp.j(shape text, doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE 'SELECT to_jsonb(serde_decode($1, $2::text))::text' INTO r USING shape, doc;
    RETURN r;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' (' || nullif(det, '') || ')', '');
END $f$;

-- ---- line ends ------------------------------------------------------------------------------
CREATE TYPE pg_temp.xh_text AS (t text, a text);
SELECT 'ok' FROM serde_register('XhText', 'pg_temp.xh_text'::regtype, '{
  "xml": {"root": "r"}, "optional": true, "fields": {"a": {"xml": "attribute"}}}');
-- CDATA: CR LF and a lone CR are LF, as in text
SELECT pg_temp.x('XhText', E'<r><t><![CDATA[x\r\ny]]></t></r>') AS r;
SELECT pg_temp.x('XhText', E'<r><t><![CDATA[x\ry\r]]></t></r>') AS r;
SELECT pg_temp.x('XhText', E'<r><t>p<![CDATA[\r\n]]>q\r\nr\rs</t></r>') AS r;
-- a CR LF cut by the reader's 64 KB batches inside a long CDATA section is one LF
SELECT length(t), length(t) - length(replace(t, E'\n', '')) AS lfs, position(E'\r' in t) AS cr
FROM serde_decode_xml(NULL::pg_temp.xh_text, '<r><t><![CDATA[' || repeat(E'abcdefg\r\n', 20000) || ']]></t></r>', 'XhText');
-- &#13; is the one CR: in text, CDATA keeps the reference as text, attributes
SELECT pg_temp.x('XhText', E'<r><t>a&#13;b&#xD;\r\nc</t></r>') AS r;
SELECT pg_temp.x('XhText', E'<r><t><![CDATA[&#13;]]></t></r>') AS r;
SELECT pg_temp.x('XhText', E'<r a="x\r\ny\rz&#13;w"/>') AS r;

-- ---- an xml column: standalone -------------------------------------------------------------
CREATE TYPE pg_temp.xh_cap AS (x xml, xs xml[], xm xml);
SELECT 'ok' FROM serde_register('XhCap', 'pg_temp.xh_cap'::regtype, '{
  "xml": {"root": "r", "namespace": "urn:d"}, "optional": true,
  "fields": {"xs": {"name": "i"}, "xm": {"path": ["m", "x"]}}}');
-- the default namespace and the prefixes it uses, inherited from the root, are declared on it
SELECT x::text FROM serde_decode_xml(NULL::pg_temp.xh_cap,
  '<r xmlns="urn:d" xmlns:p="urn:p" xmlns:q="urn:q"><x p:a="1"><p:y>t</p:y><z/></x></r>', 'XhCap');
-- so PostgreSQL's XPath finds its elements by namespace
SELECT xpath('/d:x/p:y/text()', x, ARRAY[ARRAY['d', 'urn:d'], ARRAY['p', 'urn:p']])::text AS y,
       xpath('/d:x/d:z', x, ARRAY[ARRAY['d', 'urn:d']])::text AS z
FROM serde_decode_xml(NULL::pg_temp.xh_cap, '<r xmlns="urn:d" xmlns:p="urn:p"><x><p:y>t</p:y><z/></x></r>', 'XhCap');
-- the innermost declaration; a prefix it declares itself is not added; xmlns="" inside needs
-- nothing; names in comments, CDATA and attribute values are not names
SELECT xm::text FROM serde_decode_xml(NULL::pg_temp.xh_cap,
  '<r xmlns="urn:d" xmlns:p="urn:p1"><m xmlns:p="urn:p2" xmlns:q="urn:q"><x xmlns:p="urn:own" p:a="1" b="q:no">'
  || '<!-- <q:c/> --><![CDATA[<q:d/>]]><p:y/><e xmlns=""/></x></m></r>', 'XhCap');
SELECT xm::text FROM serde_decode_xml(NULL::pg_temp.xh_cap,
  '<r xmlns="urn:d" xmlns:p="urn:p1"><m xmlns:p="urn:p2"><x><p:y/></x></m></r>', 'XhCap');
-- its line ends are LF (comments, PIs, attributes, CDATA, text); &#13; stays as written
SELECT replace(replace(x::text, E'\r', '<CR>'), E'\n', '<LF>') AS x FROM serde_decode_xml(NULL::pg_temp.xh_cap,
  E'<r xmlns="urn:d"><x a="1\r\n2">t\r\nu\rv&#13;<!--c\r\n--><?pi a\r\nb?><![CDATA[c\r\nd]]></x></r>', 'XhCap');
-- each item of a list standalone
SELECT xs::text FROM serde_decode_xml(NULL::pg_temp.xh_cap, E'<r xmlns="urn:d" xmlns:p="urn:p"><i/><i p:k="2">\r</i></r>', 'XhCap');
-- the declarations added are bounded by the document (8 times its size + 1 MB): 54000 beyond
SELECT pg_temp.x('XhCap', '<r xmlns="urn:d" xmlns:p="' || repeat('u', 200000) || '">'
       || repeat('<i><p:y/></i>', 20000) || '</r>') AS r;

-- ---- libxml2's messages: one line -------------------------------------------------------------
SELECT pg_temp.x('XhText', E'<r><t><![CDATA[x\ny \x01 z ]]></t></r>') AS r;
SELECT count(*) AS with_newline FROM (VALUES
  (E'<r><t><![CDATA[x\ny \x01 z ]]></t></r>'), (E'<r><!-- x\ny -- z --></r>'),
  (E'<r>x\ny \x02 z</r>'), (E'<r a="x\ny \x03"/>'), (E'<r><t>1</r>'), (E'<r><?pi x\ny \x04?></r>'))
  AS v(doc), LATERAL serde_errors_xml('XhText', doc) e
WHERE e.message ~ E'[\\n\\r\\t]' OR e.message ~ ' $';

-- ---- timestamps: the instant in UTC within 0001-01-01 .. 9999-12-31 ---------------------------
CREATE TYPE pg_temp.xh_ts AS (tz timestamptz, ts timestamp);
SELECT 'ok' FROM serde_register('XhTs', 'pg_temp.xh_ts'::regtype, '{"xml": {"root": "r"}, "optional": true}');
CREATE TYPE pg_temp.xh_ts2 AS (tz timestamptz, ts timestamp, u timestamptz, ms timestamp);
SELECT 'ok' FROM serde_register('XhTs2', 'pg_temp.xh_ts2'::regtype, '{"optional": true, "fields": {
  "tz": {"format": "rfc2822"}, "ts": {"format": "rfc2822"}, "u": {"format": "unix"}, "ms": {"format": "unix_ms"}}}');
SET TIME ZONE 'UTC';
SELECT pg_temp.j('XhTs', '{"tz": "0001-01-01T00:30:00+01:00"}') AS r;
SELECT pg_temp.j('XhTs', '{"ts": "0001-01-01T00:30:00+01:00"}') AS r;
SELECT pg_temp.j('XhTs', '{"tz": "9999-12-31T23:30:00-01:00"}') AS r;
SELECT pg_temp.x('XhTs', '<r><tz>0001-01-01T00:30:00+01:00</tz></r>') AS r;
SELECT pg_temp.x('XhTs', '<r><ts>9999-12-31T20:00:00-04:00</ts></r>') AS r;
-- the bounds themselves are fine
SELECT pg_temp.j('XhTs', '{"tz": "0001-01-01T01:00:00+01:00", "ts": "9999-12-31T18:59:59.999999-05:00"}') AS r;
SELECT pg_temp.x('XhTs', '<r><tz>9999-12-31T23:59:59Z</tz><ts>0001-01-01T00:00:00</ts></r>') AS r;
-- jsonb input, serde_errors: the same
SELECT path, code FROM serde_errors('XhTs', '{"tz": "0001-01-01T00:00:00+00:01"}'::jsonb);
-- rfc2822 (and the last day's leap second), unix, unix_ms
SELECT pg_temp.j('XhTs2', '{"tz": "Mon, 1 Jan 0001 00:30:00 +0100"}') AS r;
SELECT pg_temp.j('XhTs2', '{"ts": "Fri, 31 Dec 9999 23:59:60 GMT"}') AS r;
SELECT pg_temp.j('XhTs2', '{"tz": "Mon, 1 Jan 0001 01:00:00 +0100", "ts": "Fri, 31 Dec 9999 18:59:59 EST"}') AS r;
SELECT pg_temp.j('XhTs2', '{"u": -62135596801}') AS r;
SELECT pg_temp.j('XhTs2', '{"ms": 253402300800000}') AS r;
SELECT pg_temp.j('XhTs2', '{"u": -62135596800, "ms": 253402300799999}') AS r;
RESET TIME ZONE;

-- ---- numeric: what PostgreSQL gives is numeric's own text (an exponent form is rewritten) -------
CREATE TYPE pg_temp.xh_num AS (n numeric);
SELECT 'ok' FROM serde_register('XhNum', 'pg_temp.xh_num'::regtype, '{}');
SELECT lit, (serde_decode(NULL::pg_temp.xh_num, '{"n": ' || lit || '}', 'XhNum')).n::text AS serde, lit::numeric::text AS cast_
FROM (VALUES ('1.5e3'), ('1.50e1'), ('15e-1'), ('1.5E-3'), ('0e5'), ('1e-20'),
             ('12345678901234567890123e-3'), ('0.10'), ('-0'), ('-0.0')) v(lit);
SELECT (serde_decode_xml(NULL::pg_temp.xh_num, '<r><n> 1.50e1 </n></r>', 'XhNum')).n::text AS n;
