-- limits.sql — serde's limits at their extremes (docs/reference.md, "Settings"): nesting depth (serde.max_depth, up to its
-- maximum, and the C stack behind it), document size (serde.max_document_bytes) for every input
-- form, string length (column types; huge strings, keys and numbers), error count
-- (serde.max_errors), and statement_timeout during long decodes.  Every limit fails with a clear
-- error and the backend survives; in serde_valid and serde_errors a limit the document exceeds is a
-- document error (false, or a row with its SQLSTATE).  (errors.sql and errors_all.sql hold the everyday cases; the
-- near-1 GB document and the cancel latency are measured by test/limits_big.sh and test/cancel.sh.)
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- try(q): the first column of q's first row, or "ERROR <sqlstate>: <message> [<detail>]" with long
-- runs of a repeated path step ([0], .a, [0].a, .next) shortened to "<step>×<count>" so the output stays short
CREATE FUNCTION pg_temp.lim_try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    msg := 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(det, '') || ']', '');
    IF msg ~ '(\[0\]\.a){4}' THEN
        msg := regexp_replace(msg, '(\[0\]\.a){4,}', '[0].a×' || length(substring(msg from '(?:\[0\]\.a){4,}')) / 5);
    END IF;
    IF msg ~ '(\.next){4}' THEN
        msg := regexp_replace(msg, '(\.next){4,}', '.next×' || length(substring(msg from '(?:\.next){4,}')) / 5);
    END IF;
    IF msg ~ '(\[0\]){4}' THEN
        msg := regexp_replace(msg, '(\[0\]){4,}', '[0]×' || length(substring(msg from '(?:\[0\]){4,}')) / 3);
    END IF;
    IF msg ~ '(\.a){4}' THEN
        msg := regexp_replace(msg, '(\.a){4,}', '.a×' || length(substring(msg from '(?:\.a){4,}')) / 2);
    END IF;
    RETURN msg;
END $f$;
-- the same with the byte offset of the DETAIL hidden (where the stack runs out depends on the build)
CREATE FUNCTION pg_temp.lim_try_nooffset(q text) RETURNS text LANGUAGE sql AS $f$
    SELECT regexp_replace(regexp_replace(pg_temp.lim_try(q), ' \[at line \d+, column \d+, byte offset \d+\]$', ' [at line N, column N, byte offset N]'),
                          '×\d+', '×N')
$f$;
SELECT pg_postmaster_start_time() AS start_time \gset

-- ---- the settings --------------------------------------------------------------------------------------
-- (they exist once the library is loaded in this backend: the first serde call loads it)
SELECT count(*) AS loaded FROM serde_cache_stats();
SELECT name, setting, unit, min_val, max_val, context, vartype
  FROM pg_settings WHERE name LIKE 'serde.%' ORDER BY name;
SELECT pg_temp.lim_try('SET serde.max_depth = 0') AS depth_0,
       pg_temp.lim_try('SET serde.max_depth = 100001') AS depth_100001;
-- (PostgreSQL 17 writes the range with its unit, "(1 B .. 2147483647 B)": shown as 15 writes it)
SELECT regexp_replace(pg_temp.lim_try('SET serde.max_document_bytes = 0'), '\((\d+) B \.\. (\d+) B\)', '(\1 .. \2)') AS bytes_0,
       pg_temp.lim_try($$SET serde.max_document_bytes = '2GB'$$) AS bytes_2gb;
SELECT pg_temp.lim_try('SET serde.max_errors = 0') AS errors_0;
-- the prefix is reserved: a misspelt setting is an error, not a silently ignored placeholder
SELECT pg_temp.lim_try('SET serde.max_dept = 5') AS misspelt;

-- ---- nesting depth ---------------------------------------------------------------------------------------
-- 1,000,000 nested arrays under the default (512): refused at depth 513, from text and bytea, for
-- every entry point; unbalanced, the same bytes are malformed (syntax beats depth).  (Such a json
-- value cannot even be made: json_in's own stack check refuses it.)
CREATE TABLE lim_deep (name text, doc text);
INSERT INTO lim_deep VALUES
    ('arrays', repeat('[', 1000000) || repeat(']', 1000000)),
    ('objects', repeat('{"a":', 1000000) || '1' || repeat('}', 1000000)),
    ('open', repeat('[', 1000000)),
    ('mixed', repeat('[{"a":', 500000) || 'null' || repeat('}]', 500000));
SELECT name, pg_temp.lim_try(format('SELECT serde_decode(NULL::json, doc)::text FROM lim_deep WHERE name = %L', name)) AS text_doc
  FROM lim_deep ORDER BY name;
SELECT name, pg_temp.lim_try(format('SELECT serde_decode(NULL::json, doc::json)::text FROM lim_deep WHERE name = %L', name)) AS json_doc,
       pg_temp.lim_try(format('SELECT serde_decode(NULL::json, convert_to(doc, %L))::text FROM lim_deep WHERE name = %L', 'UTF8', name)) AS bytea_doc
  FROM lim_deep WHERE name IN ('arrays', 'open') ORDER BY name;
SELECT pg_temp.lim_try($$SELECT serde_valid(NULL::json, doc)::text FROM lim_deep WHERE name = 'arrays'$$) AS valid,
       pg_temp.lim_try($$SELECT serde_valid(NULL::json, doc)::text FROM lim_deep WHERE name = 'open'$$) AS valid_open;
SELECT pg_temp.lim_try($$SELECT count(*)::text FROM lim_deep, serde_errors(NULL::json, doc) WHERE name = 'arrays'$$) AS errors,
       pg_temp.lim_try($$SELECT string_agg(code || ' ' || byte_offset, ', ') FROM lim_deep, serde_errors(NULL::json, doc) WHERE name = 'open'$$) AS errors_open;
SELECT pg_temp.lim_try($$SELECT count(*)::text FROM lim_deep, serde_decode_each(NULL::json, doc) WHERE name = 'arrays'$$) AS each_array,
       pg_temp.lim_try($$SELECT count(*)::text FROM lim_deep, serde_decode_each(NULL::json, doc) WHERE name = 'objects'$$) AS each_ndjson;

-- serde.max_depth at its maximum: the C stack is the limit then, and it is checked too — a clear
-- 54001, never a stack overflow, also through jsonb and a recursive shape
SET serde.max_depth = 100000;
SELECT name, pg_temp.lim_try_nooffset(format('SELECT serde_decode(NULL::json, doc)::text FROM lim_deep WHERE name = %L', name)) AS text_doc
  FROM lim_deep ORDER BY name;
SELECT pg_temp.lim_try_nooffset($$SELECT serde_valid(NULL::json, doc)::text FROM lim_deep WHERE name = 'arrays'$$) AS valid,
       pg_temp.lim_try_nooffset($$SELECT count(*)::text FROM lim_deep, serde_errors(NULL::json, doc) WHERE name = 'arrays'$$) AS errors;
SELECT pg_temp.lim_try_nooffset($$SELECT count(*)::text FROM lim_deep, serde_decode_each(NULL::json, doc) WHERE name = 'arrays'$$) AS each_array;
-- jsonb input cannot be that deep (jsonb_in's own stack check), but a jsonb document as deep as the
-- stack allows decodes or is refused cleanly
SELECT pg_temp.lim_try('SELECT serde_decode(NULL::jsonb, (repeat(''['', 5000) || repeat('']'', 5000))::jsonb) IS NOT NULL') AS jsonb_5000;
SELECT pg_temp.lim_try('SELECT serde_decode(NULL::json, (repeat(''['', 5000) || repeat('']'', 5000))::json) IS NOT NULL') AS json_5000;
-- a raised max_stack_depth lets deeper documents through, still bounded
SET max_stack_depth = '6MB';
SELECT pg_temp.lim_try_nooffset($$SELECT serde_decode(NULL::json, doc)::text FROM lim_deep WHERE name = 'arrays'$$) AS arrays_6mb_stack;
RESET max_stack_depth;
-- a recursive shape (a jsonb column validated against its own shape), 1,000,000 levels deep; each
-- level of such a shape takes more stack than a plain array, so already 3,000 levels exhaust it
CREATE TYPE lim_node AS (v int4, next jsonb);
SELECT serde_register('LimNode', 'lim_node', '{"fields": {"next": {"shape": "LimNode", "optional": true}}}');
CREATE TABLE lim_list AS
SELECT repeat('{"v": 1, "next": ', 1000000) || '{"v": 2}' || repeat('}', 1000000) AS doc;
SELECT pg_temp.lim_try_nooffset('SELECT (serde_decode(NULL::lim_node, doc)).v::text FROM lim_list') AS list_1m;
SELECT pg_temp.lim_try_nooffset('SELECT (serde_decode(NULL::lim_node, (repeat(''{"v": 1, "next": '', 3000) || ''{"v": 2}'' || repeat(''}'', 3000)))).v::text') AS list_3000;
RESET serde.max_depth;
SELECT pg_temp.lim_try('SELECT (serde_decode(NULL::lim_node, doc)).v::text FROM lim_list') AS list_1m_default;
-- the backend is alive and the same
SELECT pg_postmaster_start_time() = :'start_time'::timestamptz AS no_restart,
       serde_decode(NULL::int4[], '[1, 2]') AS still_decodes;
DROP TABLE lim_deep, lim_list;

-- ---- document size -------------------------------------------------------------------------------------
-- counted in bytes of the document as given (text, json, bytea) or of jsonb's binary form; the
-- limit is checked before parsing, for every entry point
CREATE TYPE lim_item AS (id int4, s text);
SET serde.max_document_bytes = 20;
SELECT doc, octet_length(doc) AS bytes,
       pg_temp.lim_try(format('SELECT serde_decode(NULL::json, %L::text)::text', doc)) AS text_doc,
       pg_temp.lim_try(format('SELECT serde_decode(NULL::json, %L::json)::text', doc)) AS json_doc,
       pg_temp.lim_try(format('SELECT serde_decode(NULL::json, convert_to(%L, ''UTF8''))::text', doc)) AS bytea_doc
  FROM (VALUES ('[1,2,3,4,5,6,7,8,9,0]'), ('[1,2,3,4,5,6,7,8,90]'), ('"ääääääääää"'), ('"äääääääääa"')) v(doc);
SELECT pg_temp.lim_try($$SELECT serde_decode(NULL::json, '[1,2]'::jsonb)::text$$) AS jsonb_doc,
       pg_temp.lim_try($$SELECT serde_valid(NULL::json, '[1,2,3,4,5,6,7,8,9,0]')::text$$) AS valid,
       pg_temp.lim_try($$SELECT count(*)::text FROM serde_errors(NULL::json, '[1,2,3,4,5,6,7,8,9,0]')$$) AS errors;
-- serde_decode_each: the limit applies to the whole input (array or NDJSON), not to each element
SELECT pg_temp.lim_try($$SELECT count(*)::text FROM serde_decode_each(NULL::int4, '[1,2,3,4,5,6,7,8,9]')$$) AS each_19,
       pg_temp.lim_try($$SELECT count(*)::text FROM serde_decode_each(NULL::int4, '[1,2,3,4,5,6,7,8,9,0]')$$) AS each_21,
       pg_temp.lim_try(format('SELECT count(*)::text FROM serde_decode_each(NULL::int4, %L)', E'1\n2\n3\n4\n5\n6\n7\n8\n9\n0\n1')) AS each_ndjson_21;
SET serde.max_document_bytes = '1MB';
SELECT pg_temp.lim_try(format('SELECT length(serde_decode(NULL::json, %L)::text)::text', '"' || repeat('x', 1048574) || '"')) AS fits_1mb,
       pg_temp.lim_try(format('SELECT length(serde_decode(NULL::json, %L)::text)::text', '"' || repeat('x', 1048575) || '"')) AS over_1mb;
RESET serde.max_document_bytes;

-- ---- a limit the document exceeds is a document error (docs/reference.md, "Functions") ----------------
-- serde_valid answers false and serde_errors gives one row with the limit's SQLSTATE (54001 depth,
-- 54000 size), for text, json, jsonb and bytea alike; serde_decode and serde_decode_each still raise
CREATE TYPE lim_nest AS (a jsonb);
SET serde.max_depth = 3;
SELECT serde_valid(NULL::lim_nest, '{"a": [[[1]]]}') AS text_valid,
       serde_valid(NULL::lim_nest, '{"a": [[1]]}') AS text_fits,
       (SELECT string_agg(concat_ws(' ', code, path, message, byte_offset), '; ')
          FROM serde_errors(NULL::lim_nest, '{"a": [[[1]]]}'::text)) AS text_errors;
SELECT (SELECT string_agg(concat_ws(' ', code, path, message, byte_offset), '; ')
          FROM serde_errors(NULL::lim_nest, '{"a": [[[1]]]}'::json)) AS json_errors,
       (SELECT string_agg(concat_ws(' ', code, path, message, byte_offset), '; ')
          FROM serde_errors(NULL::lim_nest, '{"a": [[[1]]]}'::jsonb)) AS jsonb_errors,
       (SELECT string_agg(concat_ws(' ', code, path, message, byte_offset), '; ')
          FROM serde_errors(NULL::lim_nest, convert_to('{"a": [[[1]]]}', 'UTF8'))) AS bytea_errors;
SELECT serde_valid(NULL::lim_nest, '{"a": [[[1]]]}'::json) AS json_valid,
       serde_valid(NULL::lim_nest, '{"a": [[[1]]]}'::jsonb) AS jsonb_valid,
       serde_valid(NULL::lim_nest, convert_to('{"a": [[[1]]]}', 'UTF8')) AS bytea_valid,
       serde_valid(NULL::lim_nest, '{"a": [[1]]}'::jsonb) AS jsonb_fits;
SELECT pg_temp.lim_try($$SELECT serde_decode(NULL::lim_nest, '{"a": [[[1]]]}')::text$$) AS decode,
       pg_temp.lim_try($$SELECT count(*)::text FROM serde_decode_each(NULL::lim_nest, '[{"a": [[1]]}]')$$) AS each_array,
       pg_temp.lim_try($$SELECT count(*)::text FROM serde_decode_each(NULL::lim_nest, '{"a": [[[1]]]}')$$) AS each_ndjson;
RESET serde.max_depth;
SET serde.max_document_bytes = 10;
SELECT serde_valid(NULL::lim_nest, '{"a": [1, 2]}'::text) AS text_valid,
       serde_valid(NULL::lim_nest, '{"a": [1, 2]}'::json) AS json_valid,
       serde_valid(NULL::lim_nest, '{"a": [1, 2]}'::jsonb) AS jsonb_valid,
       serde_valid(NULL::lim_nest, convert_to('{"a": [1, 2]}', 'UTF8')) AS bytea_valid,
       serde_valid(NULL::lim_nest, '{"a": 1}') AS text_fits;
SELECT 'text' AS kind, code, path, message, byte_offset FROM serde_errors(NULL::lim_nest, '{"a": [1, 2]}'::text)
UNION ALL SELECT 'json', code, path, message, byte_offset FROM serde_errors(NULL::lim_nest, '{"a": [1, 2]}'::json)
UNION ALL SELECT 'jsonb', code, path, message, byte_offset FROM serde_errors(NULL::lim_nest, '{"a": [1, 2]}'::jsonb)
UNION ALL SELECT 'bytea', code, path, message, byte_offset FROM serde_errors(NULL::lim_nest, convert_to('{"a": [1, 2]}', 'UTF8'));
SELECT pg_temp.lim_try($$SELECT serde_decode(NULL::lim_nest, '{"a": [1, 2]}')::text$$) AS decode,
       pg_temp.lim_try($$SELECT count(*)::text FROM serde_decode_each(NULL::lim_nest, '{"a": [1, 2]}')$$) AS each;
RESET serde.max_document_bytes;
DROP TYPE lim_nest;

-- ---- string length ---------------------------------------------------------------------------------------
-- strings are bounded only by the document; a column type's length limit is 22001, never a
-- truncation; a huge bad value is quoted cut at 40 characters, a huge key leaves a bounded path
CREATE TYPE lim_s AS (s text, v varchar(5), c char(3), i int8, n numeric, f float8, j jsonb);
SELECT serde_register('LimS', 'lim_s', '{"optional": true, "unknown": "reject"}');
CREATE TABLE lim_str AS SELECT repeat('x', 10000000) AS x, repeat('é', 5000000) AS e;
SELECT length(d.s), d.s = x AS same FROM lim_str, LATERAL serde_decode(NULL::lim_s, '{"s": "' || x || '"}') d;
SELECT length(d.s), d.s = e AS same FROM lim_str, LATERAL serde_decode(NULL::lim_s, '{"s": "' || e || '"}') d;
SELECT length(d.s), d.s = e AS same FROM lim_str, LATERAL serde_decode(NULL::lim_s, '{"s": "' || replace(e, 'é', '\u00e9') || '"}') d;
SELECT pg_temp.lim_try($$SELECT serde_decode(NULL::lim_s, '{"v": "' || x || '"}')::text FROM lim_str$$) AS varchar_5,
       pg_temp.lim_try($$SELECT serde_decode(NULL::lim_s, '{"c": "' || e || '"}')::text FROM lim_str$$) AS char_3;
SELECT pg_temp.lim_try($$SELECT serde_decode(NULL::lim_s, '{"v": "ääääää"}')::text$$) AS varchar_6_chars,
       pg_temp.lim_try($$SELECT (serde_decode(NULL::lim_s, '{"v": "äääää"}')).v$$) AS varchar_5_chars;
SELECT pg_temp.lim_try($$SELECT serde_decode(NULL::lim_s, '{"i": "' || x || '"}')::text FROM lim_str$$) AS huge_bad_value;
SELECT pg_temp.lim_try($$SELECT serde_decode(NULL::lim_s, '{"' || x || '": 1}')::text FROM lim_str$$) AS huge_unknown_key;
SELECT path, code, length(message) AS message_length FROM lim_str, serde_errors(NULL::lim_s, '{"' || x || '": 1, "i": "' || x || '"}');
-- numbers of 10,000,000 digits: range errors, found quickly, quoted cut
SELECT pg_temp.lim_try($$SELECT serde_decode(NULL::lim_s, '{"n": ' || repeat('9', 10000000) || '}')::text$$) AS numeric_digits,
       pg_temp.lim_try($$SELECT serde_decode(NULL::lim_s, '{"i": ' || repeat('9', 10000000) || '}')::text$$) AS int8_digits;
SELECT pg_temp.lim_try($$SELECT serde_decode(NULL::lim_s, '{"f": ' || repeat('9', 10000000) || '}')::text$$) AS float8_digits,
       pg_temp.lim_try($$SELECT serde_decode(NULL::lim_s, '{"j": [' || repeat('1e999999,', 100000) || '1]}')::text$$) AS jsonb_exponents;
SELECT length((serde_decode(NULL::lim_s, '{"n": ' || repeat('9', 131072) || '}')).n::text) AS numeric_131072_digits;
SELECT serde_unregister('LimS');
DROP TABLE lim_str;

-- ---- error count ---------------------------------------------------------------------------------------
-- serde_errors stops at serde.max_errors rows (the first ones, in document order); malformed input
-- is always one row
CREATE TABLE lim_bad AS
SELECT '[' || string_agg('{"id": "x", "s": 1}', ',') || ']' AS doc FROM generate_series(1, 100000);
SELECT count(*) AS rows, min(byte_offset), max(byte_offset) FROM lim_bad, serde_errors(NULL::lim_item[], doc);
SET serde.max_errors = 1;
SELECT path, code, byte_offset FROM lim_bad, serde_errors(NULL::lim_item[], doc);
SET serde.max_errors = 2147483647;
SELECT count(*) AS rows, count(DISTINCT path) AS paths, max(path COLLATE "C") AS last_path
  FROM lim_bad, serde_errors(NULL::lim_item[], doc);
SELECT count(*) AS rows FROM lim_bad, serde_errors(NULL::lim_item[], doc::jsonb);
SELECT count(*) AS rows, min(code) FROM lim_bad, serde_errors(NULL::lim_item[], doc || ',');
RESET serde.max_errors;

-- ---- statement_timeout during a long decode ---------------------------------------------------------
-- (the latency from the timeout to the error is measured by test/cancel.sh)
CREATE TABLE lim_long (doc text);
ALTER TABLE lim_long ALTER doc SET STORAGE EXTERNAL;
INSERT INTO lim_long
SELECT '[' || string_agg(format('{"id": %s, "s": "item %s"}', g, g), ',') || ']' FROM generate_series(1, 300000) g;
SET statement_timeout = '50ms';
SELECT count(*) FROM lim_long, serde_decode_each(NULL::lim_item, doc);
SELECT count(*) FROM lim_long, serde_decode_each(NULL::lim_item, doc::jsonb);
SELECT serde_valid(NULL::lim_item[], doc) FROM lim_long;
SELECT count(*) FROM lim_long, serde_errors(NULL::lim_item[], doc);
SELECT (serde_decode(NULL::lim_item[], doc))[1] FROM lim_long;
RESET statement_timeout;
SELECT count(*) FROM lim_long, serde_decode_each(NULL::lim_item, doc);
DROP TABLE lim_bad, lim_long;

-- serde.max_document_bytes is checked before a compressed (or out-of-line) document is
-- detoasted: 20 MB of text stored as ~230 kB, refused by every entry point with the same error
-- as an in-line document (without decompressing it: 400 MB are refused in under 1 ms, where
-- reading them takes seconds; TESTING.md)
CREATE TABLE lim_toast (body text, bodyb jsonb);
INSERT INTO lim_toast SELECT d, d::jsonb FROM (SELECT '[' || repeat('1,', 10000000) || '1]' AS d) s;
SELECT pg_column_size(body) < 1000000 AS compressed, octet_length(body) FROM lim_toast;
SET serde.max_document_bytes = 1000;
SELECT pg_temp.lim_try($$SELECT serde_valid(NULL::json, body)::text FROM lim_toast$$);
SELECT pg_temp.lim_try($$SELECT serde_decode(NULL::int[], body)::text FROM lim_toast$$);
SELECT pg_temp.lim_try($$SELECT count(*)::text FROM lim_toast, serde_errors(NULL::json, body)$$);
SELECT pg_temp.lim_try($$SELECT count(*)::text FROM lim_toast, serde_decode_each(NULL::int, body)$$);
SELECT pg_temp.lim_try($$SELECT serde_valid(NULL::json, bodyb)::text FROM lim_toast$$);
SELECT pg_temp.lim_try($$SELECT count(*)::text FROM lim_toast, serde_decode_each(NULL::int, bodyb)$$);
RESET serde.max_document_bytes;
SELECT serde_valid(NULL::int[], body) FROM lim_toast;
DROP TABLE lim_toast;

SELECT pg_postmaster_start_time() = :'start_time'::timestamptz AS no_restart;
