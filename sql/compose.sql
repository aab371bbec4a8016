-- compose.sql — composites and arrays formed once (src/pg/compose.c): the bytes of every decoded
-- row are heap_form_tuple's and construct_md_array's.  serde_compose_check(value) forms the value
-- again from its parts, level by level, with heap_form_tuple / construct_md_array (the reference)
-- and with compose.c, and says 'ok' when the three are the same bytes (else where they differ):
-- null bitmaps of one and more bytes, every alignment, short (1-byte) and 4-byte varlena headers,
-- nested rows small enough for a short header and larger, arrays of rows, scalars and text with
-- and without NULL elements, domains over composites and over arrays, jsonb and bytea, from JSON
-- text and from jsonb, and rows made by SQL itself.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
CREATE FUNCTION pg_temp.serde_compose_check(anyelement) RETURNS text
    AS 'serde', 'serde_compose_check' LANGUAGE C STRICT;
-- try_both(doc): CoInts from jsonb (as text, or its SQLSTATE), and what differs from it:
-- jsonb_populate_record's value, serde's from JSON text (which refuses 1e4 for an integer: jsonb
-- stores it as 10000)
CREATE FUNCTION pg_temp.try_one(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    RETURN 'ERROR ' || SQLSTATE;
END $f$;
CREATE FUNCTION pg_temp.try_both(doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE a text; b text; c text;
BEGIN
    a := pg_temp.try_one(format('SELECT serde_decode(NULL::co_ints, %L)::text', doc));
    b := pg_temp.try_one(format('SELECT serde_decode(NULL::co_ints, %L::jsonb)::text', doc));
    c := pg_temp.try_one(format('SELECT jsonb_populate_record(NULL::co_ints, %L::jsonb)::text', doc));
    RETURN CASE WHEN b = c OR (b LIKE 'ERROR%' AND c LIKE 'ERROR%') THEN b ELSE 'jsonb_populate_record ' || c END
           || CASE WHEN a = b THEN '' ELSE ' (text: ' || a || ')' END;
END $f$;

CREATE TYPE co_leaf AS (b bool, s int2, i int4, l int8, f float8, t text, n numeric, u uuid,
                        ts timestamptz, d date, c char(2), f4 float4);
CREATE TYPE co_small AS (a int4, t text);
CREATE DOMAIN co_small_d AS co_small CHECK ((VALUE).a IS NULL OR (VALUE).a > 0);
CREATE DOMAIN co_ints_d AS int4[] CHECK (cardinality(VALUE) < 100);
CREATE TYPE co_wide AS (c1 int4, c2 text, c3 int2, c4 int8, c5 text, c6 bool, c7 int4, c8 text,
                        c9 int8, c10 text, c11 int2, c12 text, c13 int4, c14 text, c15 bool,
                        c16 int8, c17 text, c18 int4, c19 text, c20 int8);
CREATE TYPE co_deep3 AS (x int8, s co_small);
CREATE TYPE co_deep2 AS (t text, d3 co_deep3, d3s co_deep3[]);
CREATE TYPE co_deep1 AS (b bool, d2 co_deep2);
CREATE TYPE co_top AS (
    flag bool, small co_small, leaf co_leaf, smalls co_small[], leaves co_leaf[], ints int4[],
    int8s int8[], texts text[], dom co_small_d, doms co_small_d[], ints_d co_ints_d, wide co_wide,
    j jsonb, bytes bytea, deep co_deep1, tail int2, js json);
SELECT serde_register('CoTop', 'co_top', '{"optional": true}');

CREATE TEMP TABLE co_docs (n int, doc text);
INSERT INTO co_docs VALUES
 (1, '{}'),
 (2, '{"flag": true, "tail": 7}'),
 (3, '{"small": {"a": 1, "t": "x"}, "tail": 1}'),
 (4, '{"small": {"a": 2, "t": "' || repeat('s', 90) || '"}}'),
 (5, '{"small": {"a": 3, "t": "' || repeat('s', 200) || '"}}'),
 (6, '{"small": {"t": "only text"}}'),
 (7, '{"leaf": {"b": true, "s": 2, "i": 3, "l": 4, "f": 5.5, "t": "six", "n": 7.25,
       "u": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "ts": "2024-01-02T03:04:05Z",
       "d": "2024-02-03", "c": "z", "f4": 1.5}}'),
 (8, '{"leaf": {"b": false, "l": 9, "c": "zz"}, "flag": false}'),
 (9, '{"leaf": {"t": "' || repeat('long ', 60) || '", "n": 12345678901234567890.123}}'),
 (10, '{"smalls": [{"a": 1, "t": "a"}, null, {"a": 3}, {"t": "' || repeat('q', 150) || '"}]}'),
 (11, '{"smalls": [], "ints": [], "texts": [], "leaves": []}'),
 (12, '{"ints": [1, null, 3, null, 5, 6, 7, 8, 9, null], "int8s": [1, 2, 3],
        "texts": ["a", null, "' || repeat('t', 300) || '", ""]}'),
 (13, '{"ints": [1], "texts": ["one"]}'),
 (14, '{"leaves": [{"b": true, "s": 1}, {"i": 2, "t": "two"}, null,
                   {"l": 3, "f": 1e300, "u": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}]}'),
 (15, '{"dom": {"a": 5, "t": "dom"}, "doms": [{"a": 1}, null, {"a": 2, "t": "b"}],
        "ints_d": [1, 2, null]}'),
 (16, '{"wide": {"c1": 1, "c2": "two", "c3": 3, "c4": 4, "c5": "five", "c6": true, "c7": 7,
        "c8": "eight", "c9": 9, "c10": "ten", "c11": 11, "c12": "twelve", "c13": 13,
        "c14": "fourteen", "c15": false, "c16": 16, "c17": "seventeen", "c18": 18,
        "c19": "nineteen", "c20": 20}}'),
 (17, '{"wide": {"c2": "two", "c9": 9, "c17": "' || repeat('w', 140) || '", "c20": 20}}'),
 (18, '{"wide": {"c1": 1}}'),
 (19, '{"j": {"a": [1, 2, {"b": null}], "c": "d"}, "bytes": "AAECAwQFBgcICQ==", "js": {"x": [1, "y"]}}'),
 (20, '{"js": "' || repeat('s', 200) || '", "j": "' || repeat('j', 200) || '", "bytes": "' || replace(encode(convert_to(repeat('b', 200), 'UTF8'), 'base64'), E'\n', '') || '"}'),
 (21, '{"deep": {"b": true, "d2": {"t": "t", "d3": {"x": 1, "s": {"a": 1, "t": "s"}},
        "d3s": [{"x": 2}, {"s": {"t": "' || repeat('d', 130) || '"}}, null, {"x": 3, "s": {"a": 4}}]}}}'),
 (22, '{"deep": {"d2": {"d3s": []}}, "bytes": "", "js": ""}'),
 (23, '{"flag": true, "small": {"a": 1, "t": "x"}, "leaf": {"b": true, "s": 2, "i": 3, "l": 4,
       "f": 5.5, "t": "six", "n": 7.25, "ts": "2024-01-02T03:04:05Z", "d": "2024-02-03", "c": "z"},
       "smalls": [{"a": 1, "t": "a"}, {"a": 2, "t": "b"}], "leaves": [{"b": true}, {"i": 2}],
       "ints": [1, 2, 3], "int8s": [4, 5], "texts": ["x", "y"], "dom": {"a": 9}, "doms": [{"a": 9}],
       "ints_d": [4], "wide": {"c1": 1, "c20": 2}, "j": [1, 2], "bytes": "AA==",
       "deep": {"b": false, "d2": {"t": "x", "d3": {"x": 1}, "d3s": [{"x": 1}]}}, "tail": 3}');
-- documents with 120..136-byte texts and nested values (around the short-header limit, 127)
INSERT INTO co_docs SELECT 100 + k, '{"small": {"a": 1, "t": "' || repeat('k', k) || '"}, "smalls": [{"t": "' ||
    repeat('m', k) || '"}], "ints": [' || array_to_string(array_fill(7, ARRAY[k / 4]), ',') || ']}'
    FROM generate_series(90, 132) k;

-- JSON text and jsonb: every row's bytes are the reference's
SELECT n, pg_temp.serde_compose_check(serde_decode(NULL::co_top, doc)) AS text_doc,
       pg_temp.serde_compose_check(serde_decode(NULL::co_top, doc::jsonb)) AS jsonb_doc
FROM co_docs ORDER BY n;
-- and the values are those of jsonb_populate_record (the same row, read the usual way)
SELECT n FROM co_docs
WHERE serde_decode(NULL::co_top, doc)::text IS DISTINCT FROM serde_decode(NULL::co_top, doc::jsonb)::text
ORDER BY n;
-- rows that SQL made itself (heap_form_tuple's): compose.c forms them again to the same bytes
SELECT pg_temp.serde_compose_check(ROW(true, ROW(1, 'x')::co_small, NULL, ARRAY[ROW(2, NULL)::co_small, NULL],
           NULL, ARRAY[1, NULL, 3], NULL, ARRAY['a', repeat('b', 200)], ROW(3, 'd')::co_small_d, NULL,
           ARRAY[1]::co_ints_d, NULL, '{"k": 1}'::jsonb, '\x00ff'::bytea, NULL, 5::int2)::co_top);
SELECT pg_temp.serde_compose_check(ROW(1, repeat('x', 500))::co_small);
SELECT pg_temp.serde_compose_check(ROW(NULL, NULL)::co_small);
-- the root itself may be a domain over a composite
SELECT serde_register('CoDom', 'co_small_d', '{"optional": true}');
SELECT pg_temp.serde_compose_check(serde_decode(NULL::co_small_d, '{"a": 4, "t": "dom root"}'));
-- a domain CHECK sees the formed row (a row formed before its check)
SELECT serde_decode(NULL::co_top, '{"dom": {"a": -1}}');
SELECT serde_decode(NULL::co_top, '{"doms": [{"a": 1}, {"a": 0}]}');
SELECT serde_valid('CoTop', '{"doms": [{"a": 1}, {"a": 0}]}'::jsonb);
SELECT path, message FROM serde_errors('CoTop', '{"doms": [{"a": 1}, {"a": 0}], "smalls": [{"a": "x"}, {"a": 1}], "dom": {"a": -2}}');

-- integers read straight from a jsonb numeric (numeric_build.c: 1..4 base-10000 digits in the
-- short form, the rest through the general reader, fractions and overflows through the text
-- path): the same values and errors as from JSON text and as jsonb_populate_record
CREATE TYPE co_ints AS (i2 int2, i4 int4, i8 int8);
SELECT serde_register('CoInts', 'co_ints', '{"optional": true}');
SELECT v, pg_temp.try_both(format('{"i2": %s}', v)) AS i2, pg_temp.try_both(format('{"i4": %s}', v)) AS i4,
       pg_temp.try_both(format('{"i8": %s}', v)) AS i8
FROM unnest(ARRAY['0', '1', '-1', '9999', '10000', '-10000', '32767', '32768', '-32768', '-32769',
                  '99999999', '100000000', '2147483647', '2147483648', '-2147483648', '-2147483649',
                  '1000000000000', '9999999999999999', '10000000000000000', '-10000000000000000',
                  '10000000000000001', '9223372036854775807', '9223372036854775808',
                  '-9223372036854775808', '-9223372036854775809', '1.0', '1e4', '1e2', '12345678.000',
                  '0.5', '-0']) AS v;
