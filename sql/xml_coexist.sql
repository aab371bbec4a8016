-- xml_coexist.sql — PostgreSQL's own libxml2 use keeps working in a backend where serde read XML
-- (issue 13 item 4; docs/reference.md, "Functions", Hostile XML): xmlparse, xpath, XMLTABLE and the xml type give the same results
-- and report their own errors with their own messages right after serde calls, after serde
-- raised an error (also caught in PL/pgSQL), and with serde called between the rows of an
-- XMLTABLE scan (PostgreSQL keeps its libxml2 error context installed across those rows; serde
-- saves and restores libxml2's handlers and entity loader around each of its calls).  A query
-- cancel in the middle of serde's read is test/xml_cancel.sh.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
DROP TYPE IF EXISTS xc_row CASCADE;
RESET client_min_messages;
\set SHOW_CONTEXT never
CREATE TYPE xc_row AS (a text, v text);
SELECT serde_register('XcRow', 'xc_row'::regtype,
                      '{"xml": {"root": "r"}, "optional": true, "fields": {"a": {"xml": "attribute"}}}');

-- what PostgreSQL's xml functions answer, as one text
CREATE FUNCTION pg_temp.pg_xml_state() RETURNS text LANGUAGE sql AS $f$
    SELECT concat_ws(' | ',
        xmlparse(document '<r a="1"><v>x &amp; y</v></r>')::text,
        (xpath('/r/v/text()', '<r><v>1</v><v>2</v></r>'::xml))::text,
        (SELECT string_agg(n::text || ':' || v, ',' ORDER BY n)
           FROM XMLTABLE('/r/v' PASSING CAST('<r><v>a</v><v>b</v></r>' AS xml)
                         COLUMNS n FOR ORDINALITY, v text PATH '.')),
        xml_is_well_formed_document('<r><v></r>')::text,
        xmlserialize(content xmlelement(name e, xmlattributes(1 AS k), 'body') AS text))
$f$;
-- PostgreSQL's own error for a malformed xml value (its error handler must be the one called)
CREATE FUNCTION pg_temp.pg_xml_error() RETURNS text LANGUAGE plpgsql AS $f$
DECLARE st text; msg text; det text;
BEGIN
    PERFORM '<r><v>x</r>'::xml;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN st || ': ' || msg || ' / ' || split_part(det, E'\n', 1);
END $f$;
-- a serde call's outcome as text ("decoded", or the error: malformed XML is 2200M)
CREATE FUNCTION pg_temp.serde_try(doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE st text; msg text;
BEGIN
    PERFORM serde_decode_xml('XcRow', doc);
    RETURN 'decoded';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN st || ': ' || msg;
END $f$;

-- before serde used libxml2 in this backend
SELECT pg_temp.pg_xml_state() AS before_serde \gset
SELECT :'before_serde';
SELECT pg_temp.pg_xml_error() AS pg_error_before \gset
SELECT :'pg_error_before';

-- right after serde calls (a document read through, malformed ones, refused entities)
SELECT pg_temp.serde_try('<r a="1"><v>ok</v></r>');
SELECT serde_valid_xml('XcRow', '<r><v>ok</r>');
SELECT serde_valid_xml('XcRow', '<!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]><r>&e;</r>');
SELECT serde_valid(NULL::xc_row, '<r xmlns:p="urn:p"><p:v/><q:v/></r>'::xml);
SELECT pg_temp.pg_xml_state() = :'before_serde' AS same_after_calls;
SELECT pg_temp.pg_xml_error() = :'pg_error_before' AS same_error_after_calls;

-- after serde raised an error (the statement failed)
SELECT serde_decode_xml('XcRow', '<r><v>ok</r>');
SELECT pg_temp.pg_xml_state() = :'before_serde' AS same_after_error;
SELECT pg_temp.pg_xml_error() = :'pg_error_before' AS same_error_after_error;
SELECT serde_decode_xml('XcRow', '<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>');
SELECT xpath('/r/text()', '<r>after</r>'::xml);

-- after serde raised an error caught in PL/pgSQL, in the same function
DO $$
DECLARE got text;
BEGIN
    got := pg_temp.serde_try('<r><v>x</w></r>');
    RAISE NOTICE 'serde: %', got;
    RAISE NOTICE 'xpath after: %', (xpath('/r/v/text()', '<r><v>still</v></r>'::xml))::text;
    RAISE NOTICE 'pg error after: %', pg_temp.pg_xml_error();
END $$;
SET client_min_messages = notice;

-- serde between the rows of an XMLTABLE scan: the scan's own results and PostgreSQL's errors
-- inside it are untouched
SELECT t.n, t.v, pg_temp.serde_try('<r>' || t.v || '</r>') AS serde,
       serde_valid_xml('XcRow', '<r><v>' || t.v || '</r>') AS valid_broken
  FROM XMLTABLE('/r/v' PASSING CAST('<r><v>a</v><v>b</v><v>c</v></r>' AS xml)
                COLUMNS n FOR ORDINALITY, v text PATH '.') t;
SELECT t.n, (xpath('/x/text()', ('<x>' || t.v || '</x>')::xml))::text AS inner_xpath,
       pg_temp.serde_try('<r/>') AS serde
  FROM XMLTABLE('/r/v' PASSING CAST('<r><v>1</v><v>2</v></r>' AS xml)
                COLUMNS n FOR ORDINALITY, v text PATH '.') t;
-- PostgreSQL's own malformed-xml error raised in a row after serde ran on the earlier rows
SELECT t.n, serde_valid_xml('XcRow', '<r>' || t.v), (t.v)::xml
  FROM XMLTABLE('/r/v' PASSING CAST('<r><v>&lt;ok/&gt;</v><v>&lt;bad&gt;</v></r>' AS xml)
                COLUMNS n FOR ORDINALITY, v text PATH '.') t;

-- and everything once more at the end
SELECT pg_temp.pg_xml_state() = :'before_serde' AS same_at_end;
SELECT pg_temp.pg_xml_error() = :'pg_error_before' AS same_error_at_end;
