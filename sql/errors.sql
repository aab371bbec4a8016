-- errors.sql — the error format of docs/reference.md, "Errors": "<shape>: <path>: <problem>", jsonpath paths that
-- jsonb_path_query can follow, line, column and byte offset in DETAIL, the SQLSTATE table, malformed JSON
-- anywhere in the document (also inside members the shape ignores), duplicate members, values cut
-- at 40 characters, and the limits serde.max_depth (54001) and serde.max_document_bytes (54000).
-- `result` is the decoded row as text, or "ERROR <SQLSTATE>: <message> [<DETAIL>]".
SET client_min_messages = warning;   -- no NOTICE whether or not an earlier test created it
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
-- dec(type, doc): the typed LATERAL form on one text document
CREATE FUNCTION pg_temp.dec(typ text, doc text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT decoded::text FROM serde_decode(NULL::%s, %L) decoded', typ, doc))
$f$;
-- decb(type, hex): the same on a bytea document given in hex (for bytes that are not UTF-8)
CREATE FUNCTION pg_temp.decb(typ text, hex text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT decoded::text FROM serde_decode(NULL::%s, decode(%L, ''hex'')) decoded', typ, hex))
$f$;
-- err_path(type, doc): the jsonpath of the error the document raises, cut out of
-- "<shape>: <path>: <problem>" (a quoted name may itself contain ": ")
CREATE FUNCTION pg_temp.err_path(typ text, doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE msg text; rest text; i int := 1; inq boolean := false; c text;
BEGIN
    EXECUTE format('SELECT serde_decode(NULL::%s, %L)', typ, doc);
    RETURN NULL;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
    rest := substr(msg, position(': ' IN msg) + 2);
    WHILE i <= length(rest) LOOP
        c := substr(rest, i, 1);
        IF inq AND c = '\' THEN i := i + 1;
        ELSIF c = '"' THEN inq := NOT inq;
        ELSIF NOT inq AND substr(rest, i, 2) = ': ' THEN RETURN left(rest, i - 1);
        END IF;
        i := i + 1;
    END LOOP;
    RETURN rest;
END $f$;

CREATE TYPE er_point AS (x int4, y int4);
CREATE TYPE er_doc AS (a int4, t text, p er_point, ps er_point[], tags text[]);
SELECT serde_register('ErDoc', 'er_doc', '{"optional": true}');

-- ---- the message format: shape, path, problem; DETAIL with line, column and byte offset -------------
SELECT doc, pg_temp.dec('er_doc', doc) AS result FROM (VALUES
    ('{"a": "12.5"}'),
    ('{"t": "ok", "p": {"x": 1, "y": false}}'),
    ('{"ps": [{"x": 1, "y": 2}, {"x": 1, "y": 2}, {"x": [], "y": 2}]}'),
    ('{"tags": ["a", "b", null, 4]}'),
    ('{"ps": [{"x": 1, "y": 2}, "(1,2)"]}'),
    ('[{"a": 1}]'),
    ('"just a string"'),
    ('null')
) v(doc);
-- the typed form without a registered shape names the type
SELECT pg_temp.dec('er_point', '{"x": 1, "y": "2"}') AS no_shape,
       pg_temp.dec('er_point[]', '[{"x": 1, "y": 2}, {"x": 1}]') AS array_target;

-- ---- malformed JSON: 22P02, offset where parsing failed -------------------------------------------
SELECT doc, pg_temp.dec('er_doc', doc) AS result FROM (VALUES
    -- trailing garbage, a second top-level value
    ('{"a": 1} x'),
    ('{"a": 1} {"a": 2}'),
    ('{"a": 1}{"a": 2}'),
    ('{"a": 1},'),
    ('{"a": 1}]'),
    ('{"a": 1}   '),
    ('  {"a": 1}'),
    -- truncated documents
    (''),
    ('   '),
    ('{'),
    ('{"a"'),
    ('{"a":'),
    ('{"a": 1'),
    ('{"a": 1,'),
    ('{"t": "abc'),
    ('{"t": "abc\'),
    ('{"tags": ["a", "b"'),
    ('{"a": 1e'),
    ('{"a": -'),
    -- broken syntax in members the shape maps
    ('{"a": 1,}'),
    ('{"a" 1}'),
    ('{a: 1}'),
    ('{''a'': 1}'),
    ('{"tags": ["a",]}'),
    ('{"tags": ["a" "b"]}'),
    ('{"a": 1 "t": "x"}'),
    ('{"t": "\q"}'),
    ('{"t": "\u12"}'),
    ('{"a": +1}'),
    ('{"a": 1.e5}'),
    ('{"a": 00}'),
    ('{"a": NaN}'),
    ('{"a": True}'),
    ('{"a": nul}'),
    -- skipped values are still validated: every ignored member below is broken
    ('{"ignored": [1, 2}, "a": 1}'),
    ('{"ignored": tru, "a": 1}'),
    ('{"ignored": nulll, "a": 1}'),
    ('{"ignored": [tru, 1x, "\uZZZZ"], "a": 1}'),
    ('{"ignored": {"k" 1}, "a": 1}'),
    ('{"ignored": {"k": 1,}, "a": 1}'),
    ('{"ignored": [01], "a": 1}'),
    ('{"ignored": 1.5e, "a": 1}'),
    ('{"ignored": "\x", "a": 1}'),
    ('{"ignored": {"deep": [{"deeper": [1, 2,]}]}, "a": 1}'),
    ('{"a": 1, "ignored": [1, 2}'),
    ('{"p": {"x": 1, "y": 2, "ignored": [}}'),
    ('{"ps": [{"x": 1, "y": 2, "z": {"w": tru}}]}')
) v(doc);
-- raw control characters must be escaped inside strings, also in ignored members
SELECT pg_temp.dec('er_doc', E'{"t": "a\tb"}') AS tab_in_mapped,
       pg_temp.dec('er_doc', E'{"ignored": "a\nb", "a": 1}') AS newline_in_ignored,
       pg_temp.dec('er_doc', E'{"a":\t1,\n"t":\r"x"}') AS whitespace_between_tokens;

-- ---- invalid UTF-8 (bytea documents): rejected wherever it is --------------------------------------
SELECT what, hex, pg_temp.decb('er_doc', hex) AS result FROM (VALUES
    ('good: {"t": "é"}', '7b2274223a2022c3a9227d'),
    ('0xff in a mapped string', '7b2274223a2022ff227d'),
    ('0xff in an ignored string', '7b2269223a2022ff222c202261223a20317d'),
    ('0xff in an ignored key', '7b22ff223a20312c202261223a20317d'),
    ('overlong "/" (c0 af)', '7b2274223a2022c0af227d'),
    ('UTF-8 encoded surrogate (ed a0 80)', '7b2274223a2022eda080227d'),
    ('truncated sequence (e2 82)', '7b2274223a2022e282227d'),
    ('document cut inside a sequence', '7b2274223a2022e282'),
    ('byte order mark', 'efbbbf7b7d'),
    ('NUL after the value', '7b7d00'),
    ('latin-1 é', '7b2274223a2022e9227d')
) v(what, hex);
-- the same text through convert_from: valid UTF-8 once converted, the value comes through
SELECT d.t FROM serde_decode(NULL::er_doc, convert_from('\x7b2274223a2022e9227d'::bytea, 'LATIN1')) d;

-- ---- duplicate members: 22030 for a mapped member, fine for an ignored one ------------------------
SELECT doc, pg_temp.dec('er_doc', doc) AS result FROM (VALUES
    ('{"a": 1, "a": 2}'),
    ('{"a": 1, "t": "x", "a": 1}'),
    ('{"a": 1, "\u0061": 2}'),
    ('{"p": {"x": 1, "y": 2, "x": 3}}'),
    ('{"ps": [{"x": 1, "y": 2}, {"y": 1, "y": 2}]}'),
    ('{"p": null, "p": {"x": 1, "y": 2}}'),
    ('{"z": 1, "z": 2, "a": 1}'),
    ('{"p": {"x": 1, "y": 2, "z": 1, "z": 2}}'),
    ('{"z": {"k": 1, "k": 2}, "a": 1}')
) v(doc);
-- jsonb input: duplicates are already gone (the last one wins), json input is checked like text
SELECT pg_temp.try($$SELECT d::text FROM serde_decode(NULL::er_doc, '{"a": 1, "a": 2}'::jsonb) d$$) AS jsonb_doc,
       pg_temp.try($$SELECT d::text FROM serde_decode(NULL::er_doc, '{"a": 1, "a": 2}'::json) d$$) AS json_doc;
-- a path prefix member that appears twice is a mapped member too
CREATE TYPE er_head AS (sha text, ref text);
SELECT serde_register('ErHead', 'er_head', '{"fields": {"sha": {"path": ["head", "sha"]}, "ref": {"path": ["head", "ref"]}}}');
SELECT pg_temp.dec('er_head', '{"head": {"sha": "a", "ref": "r"}, "head": {"sha": "b", "ref": "r"}}') AS duplicate_prefix,
       pg_temp.dec('er_head', '{"head": {"sha": "a", "ref": "r", "sha": "b"}}') AS duplicate_leaf;

-- ---- missing members: 2203A at their own path, offset of the enclosing object ------------------------
CREATE TYPE er_strict AS (id int4, p er_point, ps er_point[]);
SELECT serde_register('ErStrict', 'er_strict');
SELECT doc, pg_temp.dec('er_strict', doc) AS result FROM (VALUES
    ('{}'),
    ('{"id": 1, "ps": []}'),
    ('{"id": 1, "p": {"x": 1}, "ps": []}'),
    ('   {"id": 1, "p": {"y": 1}, "ps": []}'),
    ('{"id": 1, "p": {"x": 1, "y": 2}, "ps": [{"x": 1, "y": 2}, {"x": 1}]}'),
    ('{"id": 1, "p": {"x": 1, "y": 2}, "ps": [{"x": 1, "y": 2}, {}]}')
) v(doc);
SELECT pg_temp.dec('er_head', '{"head": {"sha": "a"}}') AS missing_leaf,
       pg_temp.dec('er_head', '{"tail": {}}') AS missing_parent;

-- ---- paths are jsonpath: odd names are quoted, and jsonb_path_query finds the value ----------------
CREATE TYPE er_names AS ("odd key" int4, "a""b" int4, "1st" int4, "ключ" int4, "a.b" int4,
                         "$x" int4, "tab	x" int4, "x: y" int4, "back\slash" int4, "camelCase" int4,
                         "under_score" int4, "p" er_point, "list" int4[]);
SELECT serde_register('ErNames', 'er_names', '{"optional": true}');
SELECT doc, pg_temp.dec('er_names', doc) AS result,
       pg_temp.err_path('er_names', doc) AS path,
       jsonb_path_query_first(doc::jsonb, pg_temp.err_path('er_names', doc)::jsonpath) AS found
  FROM (VALUES
    ('{"odd key": "v"}'),
    ('{"a\"b": "v"}'),
    ('{"1st": "v"}'),
    ('{"ключ": "v"}'),
    ('{"a.b": "v"}'),
    ('{"$x": "v"}'),
    ('{"tab\tx": "v"}'),
    ('{"x: y": "v"}'),
    ('{"back\\slash": "v"}'),
    ('{"camelCase": "v"}'),
    ('{"under_score": "v"}'),
    ('{"p": {"x": 1, "y": "v"}}'),
    ('{"list": [1, 2, "v"]}')
) v(doc);
-- the same check on nested arrays and objects of the er_doc type
SELECT doc, pg_temp.err_path('er_doc', doc) AS path,
       jsonb_path_query_first(doc::jsonb, pg_temp.err_path('er_doc', doc)::jsonpath) AS found
  FROM (VALUES
    ('{"ps": [{"x": 1, "y": 2}, {"x": 1, "y": 2}, {"x": 1, "y": "two"}]}'),
    ('{"tags": ["a", 1]}'),
    ('{"p": {"x": 2147483648, "y": 0}}')
) v(doc);
-- an unknown member under "reject": its own path, offset of its key
CREATE TYPE er_closed AS (id int4, p er_point);
SELECT serde_register('ErClosed', 'er_closed', '{"unknown": "reject", "optional": true}');
SELECT doc, pg_temp.dec('er_closed', doc) AS result, pg_temp.err_path('er_closed', doc) AS path,
       jsonb_path_query_first(doc::jsonb, pg_temp.err_path('er_closed', doc)::jsonpath) AS found
  FROM (VALUES
    ('{"id": 1, "nickname": "x"}'),
    ('{"p": {"x": 1, "y": 2, "odd key": true}}'),
    ('{"p": {"x": 1, "y": 2}, "a\"b": null}')
) v(doc);

-- ---- values in messages are cut at 40 characters (not bytes) --------------------------------------
CREATE TYPE er_colour AS ENUM ('red', 'green');
CREATE TYPE er_cut AS (n int4, v varchar(2), c er_colour, f float8);
SELECT serde_register('ErCut', 'er_cut', '{"optional": true}');
SELECT doc, pg_temp.dec('er_cut', doc) AS result FROM (VALUES
    ('{"n": "0123456789012345678901234567890123456789"}'),
    ('{"n": "01234567890123456789012345678901234567890"}'),
    ('{"n": "äöüßäöüßäöüßäöüßäöüßäöüßäöüßäöüßäöüßäöüßäöüß"}'),
    ('{"n": "😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀"}'),
    ('{"n": 1234567890123456789012345678901234567890123456789}'),
    ('{"n": 1.23456789012345678901234567890123456789012345678}'),
    ('{"c": "a label that is much longer than forty characters"}'),
    ('{"f": "a string that is much longer than forty characters"}'),
    ('{"f": 1e99999}')
) v(doc);

-- ---- serde.max_depth (54001): containers count, the root value at depth 1 ---------------------------
SHOW serde.max_depth;
SET serde.max_depth = 3;
SELECT doc, pg_temp.dec('er_doc', doc) AS result FROM (VALUES
    ('{"p": {"x": 1, "y": 2}}'),
    ('{"ps": [{"x": 1, "y": 2}]}'),
    ('{"ps": [{"x": 1, "y": {}}]}'),
    ('{"ignored": [[1]]}'),
    ('{"ignored": [[[]]]}'),
    ('{"ignored": {"a": {"b": {"c": 1}}}}'),
    ('{"ignored": [[[1, 2, 3]]], "a": "never reached"}')
) v(doc);
SELECT pg_temp.dec('json', '[[[1]]]') AS json_depth_3, pg_temp.dec('json', '[[[[1]]]]') AS json_depth_4;
-- jsonb input is held to the same limit
SELECT pg_temp.try($$SELECT d::text FROM serde_decode(NULL::er_doc, '{"ignored": [[[]]]}'::jsonb) d$$) AS jsonb_depth_4;
SET serde.max_depth = 1;
SELECT pg_temp.dec('er_doc', '{}') AS empty_root, pg_temp.dec('er_doc', '{"a": 1}') AS scalar_member,
       pg_temp.dec('er_doc', '{"tags": []}') AS array_member;
RESET serde.max_depth;
-- the default, 512
SELECT pg_temp.try(format('SELECT count(*) FROM serde_decode(NULL::json, %L)', repeat('[', 512) || repeat(']', 512))) AS depth_512,
       pg_temp.try(format('SELECT count(*) FROM serde_decode(NULL::json, %L)', repeat('[', 513) || repeat(']', 513))) ~ '^ERROR 54001: json: \$(\[0\])+\.*: nesting deeper than serde\.max_depth \(512\)' AS depth_513;
SELECT pg_temp.try(format('SELECT count(*) FROM serde_decode(NULL::er_doc, %L)', '{"i": ' || repeat('[', 511) || repeat(']', 511) || '}')) AS ignored_depth_512,
       pg_temp.try(format('SELECT count(*) FROM serde_decode(NULL::er_doc, %L)', '{"i": ' || repeat('{"k": ', 600) || '1' || repeat('}', 600) || '}')) ~ '^ERROR 54001: ErDoc: \$\.i(\.k)+\.*: nesting deeper than serde\.max_depth \(512\) \[at line 1, column 3073, byte offset 3072\]$' AS ignored_depth_601;
-- a pathologically deep document fails cleanly (no stack overflow)
SELECT left(pg_temp.try(format('SELECT count(*) FROM serde_decode(NULL::json, %L)', repeat('[', 1000000))), 48) AS million_open,
       left(pg_temp.try(format('SELECT count(*) FROM serde_decode(NULL::json, %L)', repeat('[', 1000000) || repeat(']', 1000000))), 25) AS million_balanced;
-- a limit the document exceeds is a document error: serde_valid answers false (docs/reference.md, "Functions", Soft errors)
SET serde.max_depth = 2;
SELECT pg_temp.try($$SELECT serde_valid(NULL::er_doc, '{"ps": [{"x": 1}]}')::text$$) AS valid_over_depth;
RESET serde.max_depth;
SELECT pg_temp.try('SET serde.max_depth = 0') AS depth_zero;

-- ---- serde.max_document_bytes (54000) ---------------------------------------------------------------
SET serde.max_document_bytes = 10;
SHOW serde.max_document_bytes;
SELECT doc, octet_length(doc) AS bytes, pg_temp.dec('er_doc', doc) AS result FROM (VALUES
    ('{"a": 123}'),
    ('{"a": 1234}'),
    ('{"t": "äö"}'),
    ('{"t": "äöü"}'),
    ('{"a": 1} garbage')
) v(doc);
SELECT pg_temp.try($$SELECT d::text FROM serde_decode(NULL::er_doc, convert_to('{"a": 1234}', 'UTF8')) d$$) AS bytea_doc,
       pg_temp.try($$SELECT d::text FROM serde_decode(NULL::er_doc, '{"a": 1234}'::json) d$$) AS json_doc,
       pg_temp.try($$SELECT serde_valid(NULL::er_doc, '{"a": 1234}')::text$$) AS valid;
SET serde.max_document_bytes = '1kB';
SELECT length(pg_temp.dec('er_doc', '{"t": "' || repeat('x', 1015) || '"}')) AS fits_1024,
       pg_temp.dec('er_doc', '{"t": "' || repeat('x', 1016) || '"}') AS over_1024;
RESET serde.max_document_bytes;
-- (PostgreSQL 17 writes the range with its unit, "(1 B .. 2147483647 B)": shown as 15 writes it)
SELECT regexp_replace(pg_temp.try('SET serde.max_document_bytes = 0'), '\((\d+) B \.\. (\d+) B\)', '(\1 .. \2)') AS bytes_zero;

-- ---- serde_valid: document errors are false, not raised ---------------------------------------------
SELECT doc, serde_valid(NULL::er_doc, doc) AS valid FROM (VALUES
    ('{"a": 1}'), ('{"a": 1} x'), ('{"ignored": [1, 2}}'), ('{"a": "1"}'), ('{"a": 1, "a": 1}'),
    ('{"p": {"x": 1}}'), ('{"a": 2147483648}'), ('')
) v(doc);
SELECT serde_valid(NULL::er_doc, '\x7b2274223a2022ff227d'::bytea) AS bad_utf8,
       serde_valid(NULL::er_strict, '{"id": 1, "ps": []}') AS missing,
       serde_valid(NULL::er_closed, '{"id": 1, "zzz": 1}') AS unknown;

-- ---- clean up ----------------------------------------------------------------------------------------
SELECT serde_unregister('ErDoc'), serde_unregister('ErHead'), serde_unregister('ErStrict'),
       serde_unregister('ErNames'), serde_unregister('ErClosed'), serde_unregister('ErCut');
DROP TYPE er_doc, er_head, er_strict, er_names, er_closed, er_cut, er_colour, er_point;
DROP FUNCTION pg_temp.err_path(text, text), pg_temp.decb(text, text), pg_temp.dec(text, text), pg_temp.try(text);
