-- error_locations.sql — where an error is (docs/reference.md, "Errors"): JSON text errors give
-- `at line L, column C, byte offset N` in DETAIL (line: 1 + the LFs before the offset; column:
-- 1 + the characters, UTF-8 code points, since the last LF), located only when the error is
-- raised; serde_errors keeps byte_offset; XML gives `at line L, column C`, and libxml2's common
-- messages in plain words.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(det, '') || ']', '');
END $f$;

CREATE DOMAIN el_small AS int4 CHECK (VALUE < 10);
CREATE TYPE el_item AS (n int4, s el_small, name text);
CREATE TYPE el_doc AS (id int4, items el_item[]);
SELECT serde_register('ElDoc', 'el_doc', '{"fields": {"items": {"optional": true, "fields": {}}}}');
SELECT serde_register('ElItem', 'el_item', '{"optional": true}');

-- ---- malformed JSON: line and column, the byte offset kept -----------------------------------------
SELECT label, pg_temp.try(format('SELECT serde_decode(''ElDoc'', %L::text)::text', doc)) AS result
FROM (VALUES
    ('truncated', E'{\n  "id": 1,\n  "items": [\n    {"n": 1'),
    ('bad escape', E'{\n  "id": 1,\n  "items": [{"name": "a\\qb"}]\n}'),
    ('bad literal', E'{"id": 1,\n "items": [\n  {"n": tru}\n ]}'),
    ('after root', E'{"id": 1}\n\n  {"id": 2}'),
    -- columns count characters: "é" (2 bytes) and "€" (3 bytes) are one column each
    ('characters', E'{"id": 1,\n "items": [{"name": "é€", x}]}'),
    -- a CR is no line end in JSON: it takes a column
    ('cr', E'{"id": 1,\r "items": [}')
) AS t(label, doc);

-- bad UTF-8 (bytea: the bytes as they are)
SELECT pg_temp.try(format('SELECT serde_decode(''ElDoc'', decode(%L, ''hex''))::text',
                          encode(convert_to(E'{"id": 1,\n "items": [{"name": "', 'UTF8'), 'hex') || 'ff' ||
                          encode(convert_to('"}]}', 'UTF8'), 'hex'))) AS bad_utf8;

-- ---- every JSON error with an offset: line and column too ------------------------------------------
SELECT label, pg_temp.try(format('SELECT serde_decode(''ElDoc'', %L::text)::text', doc)) AS result
FROM (VALUES
    ('kind', E'{\n  "id": 1,\n  "items": [\n    {"n": "x"}\n  ]\n}'),
    ('missing', E'{\n  "items": []\n}'),
    ('domain check', E'{"id": 1,\n "items": [{"n": 1, "s": 1, "name": "a"},\n           {"n": 2, "s": 12, "name": "b"}]}'),
    ('range', E'{"id": 1,\n "items": [{"n": 99999999999}]}')
) AS t(label, doc);

-- serde_errors keeps byte_offset (no line or column in its rows)
SELECT * FROM serde_errors('ElDoc', E'{"id": "1",\n "items": [{"n": "x"},\n {"s": 12}]}'::text);
-- serde_valid only answers: nothing is located for it
SELECT serde_valid('ElDoc', E'{"id": 1,\n "items": [}'::text);

-- ---- serde_decode_each: lines of the whole input --------------------------------------------------
SELECT pg_temp.try($q$SELECT count(*) FROM serde_decode_each(NULL::el_item, E'[\n {"n": 1},\n {"n": "two"}\n]'::text, 'ElItem')$q$) AS array_kind;
SELECT pg_temp.try($q$SELECT count(*) FROM serde_decode_each(NULL::el_item, E'[\n {"n": 1},\n {"n": 2\n]'::text, 'ElItem')$q$) AS array_malformed;
SELECT pg_temp.try($q$SELECT count(*) FROM serde_decode_each(NULL::el_item, E'{"n": 1}\n\n{"n": 2, "name": "x}\n'::text, 'ElItem')$q$) AS ndjson_malformed;
SELECT pg_temp.try($q$SELECT count(*) FROM serde_decode_each(NULL::el_item, E'{"n": 1}\n{"s": 1}\n  {"s": 11}\n'::text, 'ElItem')$q$) AS ndjson_check;
-- jsonb: no offsets, no location
SELECT pg_temp.try($q$SELECT serde_decode('ElItem', '{"n": "x"}'::jsonb)::text$q$) AS jsonb_kind;

-- ---- XML: libxml2's common messages in plain words, line and column kept -----------------------------
CREATE TYPE el_x AS (v text);
SELECT serde_register('ElX', 'el_x', '{"xml": {"root": "r"}, "optional": true}');
SELECT label, pg_temp.try(format('SELECT serde_decode_xml(''ElX'', %L)::text', doc)) AS result
FROM (VALUES
    ('ampersand', E'<r>\n  <v>salt & pepper</v>\n</r>'),
    ('mismatch', E'<r>\n  <v>x</w>\n</r>'),
    ('extra content', E'<r/>\n<r/>'),
    ('invalid name', E'<r><v>1 <2</v></r>'),
    ('unquoted', E'<r><v a=1>x</v></r>'),
    ('entity', E'<r><v>&nbsp;</v></r>'),
    ('no value', E'<r><v a>x</v></r>'),
    ('attributes', E'<r><v a="1"b="2">x</v></r>'),
    ('duplicate attribute', E'<r><v a="1" a="2">x</v></r>'),
    ('unescaped < in attribute', E'<r><v a="<">x</v></r>'),
    ('unterminated comment', E'<r><!-- x</r>'),
    ('premature end', E'<r>\n<v>x'),
    ('not in the table', E'<r><v>&#1;</v></r>')
) AS t(label, doc);
SELECT pg_temp.try(format('SELECT serde_decode_xml(''ElX'', convert_from(decode(%L, ''hex''), ''LATIN1''))::text',
                          encode(convert_to('<r><v>', 'UTF8'), 'hex') || '01' ||
                          encode(convert_to('</v></r>', 'UTF8'), 'hex'))) AS control_char;
