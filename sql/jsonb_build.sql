-- jsonb_build.sql — jsonb columns and numeric values are built directly (src/pg/jsonb_build.c),
-- not through jsonb_in / numeric_in: every value must come out identical to what ::jsonb and
-- ::numeric give — the same value, the same binary image (img_eq: record *= compares datums
-- byte for byte), the same text (which shows a numeric's display scale) — and the same errors.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set VERBOSITY default
\set SHOW_CONTEXT never

-- try(query): the query's single value as text ('<NULL>' for NULL), or the error it raised
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(det, '') || ']', '');
END $f$;

-- img_eq(a, b): the two datums are byte for byte the same (a numeric's display scale included)
CREATE FUNCTION pg_temp.img_eq(a anyelement, b anyelement) RETURNS boolean LANGUAGE sql AS $f$
    SELECT (SELECT ROW(a)) *= (SELECT ROW(b))
$f$;

CREATE TYPE jbb_one AS (v jsonb);
SELECT serde_register('JbbOne', 'jbb_one');
-- jb(doc): the jsonb field v of the document {"v": <doc>}, built by serde
CREATE FUNCTION pg_temp.jb(doc text) RETURNS jsonb LANGUAGE sql AS $f$
    SELECT d.v FROM serde_decode(NULL::jbb_one, '{"v": ' || doc || '}', 'JbbOne') d
$f$;
-- cmp(doc): 'same' when serde's jsonb and doc::jsonb agree in value, binary image, text and
-- stored size; else what differs (or both outcomes, when either raises or serde gives NULL)
CREATE FUNCTION pg_temp.cmp(doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE a jsonb; b jsonb; ea text; eb text;
BEGIN
    BEGIN a := pg_temp.jb(doc); EXCEPTION WHEN OTHERS THEN ea := SQLSTATE || ' ' || SQLERRM; END;
    BEGIN b := doc::jsonb; EXCEPTION WHEN OTHERS THEN eb := SQLSTATE || ' ' || SQLERRM; END;
    IF ea IS NOT NULL OR eb IS NOT NULL THEN
        RETURN 'serde: ' || coalesce(ea, a::text) || ' | jsonb: ' || coalesce(eb, b::text);
    END IF;
    IF a IS NULL THEN RETURN 'serde: SQL NULL | jsonb: ' || b::text; END IF;
    IF NOT (a IS NOT DISTINCT FROM b) THEN RETURN 'value differs: ' || a::text; END IF;
    IF NOT pg_temp.img_eq(a, b) THEN RETURN 'binary image differs: ' || a::text; END IF;
    IF a::text <> b::text THEN RETURN 'text differs: ' || a::text; END IF;
    IF pg_column_size(ROW(a)) <> pg_column_size(ROW(b)) THEN RETURN 'size differs'; END IF;
    RETURN 'same';
END $f$;

-- ---- values, one per row ---------------------------------------------------------------------
CREATE TABLE jbb_cases (n serial, doc text);
INSERT INTO jbb_cases (doc) VALUES
    -- scalars (stored as raw-scalar arrays, as jsonb_in does)
    ('1'), ('-1'), ('0'), ('-0'), ('0.0'), ('-0.0'), ('0.000'), ('1.50'), ('-123.4500'),
    ('1e5'), ('1E-7'), ('1.5e+3'), ('-2.50E2'), ('0e0'), ('1E400'), ('1e-400'),
    ('9223372036854775807'), ('-9223372036854775808'), ('9223372036854775808'),
    ('-9223372036854775809'), ('123456789012345678'), ('1234567890123456789'),
    ('12345678901234567890'), ('0.1000000000000000055511151231257827'),
    ('1234567890123456789012345678901234567890'),
    ('-1234567890123456789012345678901234567890.0000000000000000000000000000000000000001'),
    ('0.000001'), ('1000000000000000000.000'), ('99999999999999999.99'),
    ('true'), ('false'), ('null'), ('""'), ('"plain"'),
    -- strings: every escape, \u escapes (BMP, surrogate pairs), multibyte UTF-8
    ('"\"\\\/\b\f\n\r\t"'), ('"a\u0041\u00e9\u20ac\uFFFF"'), ('"\ud83d\ude00 and \uD834\uDD1E"'),
    ('"\u0001\u001f\u007f\u0080\u07ff\u0800"'), ('"snow ☃, ü, 日本語, 😀"'),
    ('"\\u0000 is not an escape here"'), ('"x\\"'), ('"\\\\\""'), ('"a\"b\"c"'),
    ('"\u00e9" '), ('  "padded"  '),
    -- arrays and objects
    ('[]'), ('{}'), ('[[]]'), ('[{}]'), ('{"a":{}}'), ('{"a":[]}'),
    ('[1, "two", 3.0, true, false, null, [], {}]'),
    ('{"b": 1, "a": 2}'), ('{"bb": 1, "a": 2, "ccc": 3, "c": 4, "aa": 5, "": 6}'),
    ('{"k": 1, "k": 2}'), ('{"k": 1, "j": 0, "k": 2, "k": {"x": 3}}'),
    ('{"a": {"k": [1], "k": [2, 3]}, "a": {"z": 1, "y": 2, "z": 3}}'),
    ('{"é": 1, "e": 2, "ü": 3, "\u00e9": 4}'), ('{"a\u0041": 1, "aA": 2}'),
    ('{"\ud83d\ude00": "emoji key", "\"": "quote key", "\\": "backslash key"}'),
    ('{"n": {"m": {"l": {"k": [1, [2, [3, [4, {"deep": true}]]]]}}}}'),
    ('[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]'),
    -- objects past the insertion sort (more than 12 members), with duplicates
    ('{"m01":1,"m13":13,"m02":2,"m12":12,"m03":3,"m11":11,"m04":4,"m10":10,"m05":5,"m09":9,' ||
     '"m06":6,"m08":8,"m07":7,"m01":"last","x":0,"yy":0,"m13":"last too"}'),
    (' { "spaced" : [ 1 , 2 ] , "tabs"	:	{ } } '),
    (E'{\n  "pretty": [\n    1,\n    2\n  ]\n}');
SELECT n, doc, pg_temp.cmp(doc) AS outcome FROM jbb_cases ORDER BY n;
SELECT count(*) FILTER (WHERE pg_temp.cmp(doc) <> 'same') AS mismatches, count(*) AS cases
  FROM jbb_cases;

-- ---- errors: what jsonb_in refuses keeps its error (path prefixed) -----------------------------
SELECT doc, pg_temp.try(format('SELECT d::text FROM serde_decode(NULL::jbb_one, %L, %L) d',
                               '{"v": ' || doc || '}', 'JbbOne')) AS result FROM (VALUES
    ('"\u0000"'), ('{"a": ["x\u0000y"]}'), ('{"\u0000": 1}'),
    ('"\ud800"'), ('"\ud800x"'), ('"\udc00"'), ('"\ud800\ud800"'), ('["\ude00\ud83d"]'),
    ('{"k": "\udbff"}'), ('1e1000000000')
) v(doc);
-- serde_valid stays soft for \u0000 (serde's own check), not for what jsonb_in raises
SELECT serde_valid(NULL::jbb_one, '{"v": "\u0000"}', 'JbbOne') AS nul_valid;

-- ---- deep nesting: no recursion in the builder ------------------------------------------------
SET serde.max_depth = 3000;
SELECT d, pg_temp.cmp(repeat('[', d) || '1' || repeat(']', d)) AS arrays,
       pg_temp.cmp(repeat('[{"k": [{}], "a":', d) || '[]' || repeat('}]', d)) AS objects
  FROM (VALUES (1), (17), (100), (1000)) v(d);
SELECT pg_temp.cmp(repeat('[', 2900) || '1' || repeat(']', 2900)) AS arrays_2900;
RESET serde.max_depth;

-- ---- a big value: many members, strings with escapes ------------------------------------------
SELECT pg_temp.cmp('{' || string_agg(format('"k%s": [%s, "v\n%s", %s.%s]', i % 777, i, i, i, i % 100),
                                      ', ') || '}') AS big_object,
       pg_temp.cmp('[' || string_agg(format('{"b": %s, "a": "\u00e9%s", "b": -%s.0}', i, i, i), ',')
                   || ']') AS big_array
  FROM generate_series(1, 5000) i;

-- ---- JSONTestSuite: every y_ file as a jsonb value ----------------------------------------------
CREATE TABLE jbb_suite (name text COLLATE "C" PRIMARY KEY, b64 text NOT NULL);
\copy jbb_suite FROM 'fixtures/jsontestsuite/test_parsing.tsv'
CREATE TABLE jbb_suite_results AS
SELECT name, pg_temp.cmp(convert_from(decode(b64, 'base64'), 'UTF8')) AS outcome
  FROM jbb_suite WHERE name LIKE 'y\_%';
SELECT count(*) AS y_files, count(*) FILTER (WHERE outcome <> 'same') AS not_same
  FROM jbb_suite_results;
-- the only ones that differ raise, on both sides
SELECT name, outcome FROM jbb_suite_results WHERE outcome <> 'same' ORDER BY name;

-- ---- jsonb columns elsewhere: arrays of jsonb, a jsonb "extra" column ---------------------------
CREATE TYPE jbb_more AS (id int, vs jsonb[], rest jsonb);
SELECT serde_register('JbbMore', 'jbb_more', '{"extra": "rest"}');
SELECT d.id, d.vs, d.rest, d.vs[2] = '{"b": 1, "a": [2]}'::jsonb AS elem_same,
       pg_temp.img_eq(d.vs[2], '{"b": 1, "a": [2]}'::jsonb) AS elem_image_same,
       pg_temp.img_eq(d.rest, '{"z": {"y": 1}, "x": [true], "x": "last"}'::jsonb) AS rest_image_same
  FROM serde_decode(NULL::jbb_more,
                    '{"id": 1, "z": {"y": 1}, "vs": [1, {"b": 1, "a": [2]}, "s"], "x": [true], "x": "last"}',
                    'JbbMore') d;

-- ---- numerics: serde_decode against ::numeric, as text (shows the scale) and as binary ---------
CREATE TYPE jbb_num AS (n numeric, n52 numeric(5,2), n180 numeric(18,0), n4010 numeric(40,10));
SELECT serde_register('JbbNum', 'jbb_num', '{"optional": true}');
CREATE TABLE jbb_num_cases (n serial, lit text);
INSERT INTO jbb_num_cases (lit) VALUES
    ('0'), ('-0'), ('0.0'), ('-0.0'), ('0.000'), ('1'), ('-1'), ('1.50'), ('-1.50'), ('1.5'),
    ('10'), ('100'), ('10000'), ('100000000'), ('0.1'), ('0.01'), ('0.0001'), ('0.00001'),
    ('0.000001'), ('-0.000001'), ('123.4500'), ('-123.4500'), ('12345.6789'), ('9999.9999'),
    ('123456789012345678'), ('-123456789012345678'), ('999999999999999999'),
    ('1234567890123456789'), ('9223372036854775807'), ('-9223372036854775808'),
    ('9223372036854775808'), ('-9223372036854775809'), ('99999999999999999999'),
    ('922337203685477580.7'), ('-922337203685477580.8'), ('92233720368547758.08'),
    ('0.9223372036854775807'), ('0.9223372036854775808'), ('0.0000000000000000000001'),
    ('1e3'), ('1E3'), ('1.5e-3'), ('-2e0'), ('12345678901234567890.123'),
    ('123456789012345678901234.5678901234'), ('0.000000000123'), ('1000000000.0000');
SELECT n, lit,
       (SELECT d.n::text FROM serde_decode(NULL::jbb_num, '{"n": ' || lit || '}', 'JbbNum') d)
           AS decoded,
       (SELECT d.n::text FROM serde_decode(NULL::jbb_num, '{"n": ' || lit || '}', 'JbbNum') d)
           = lit::numeric::text AS same_text,
       (SELECT pg_temp.img_eq(d.n, lit::numeric)
          FROM serde_decode(NULL::jbb_num, '{"n": ' || lit || '}', 'JbbNum') d) AS same_image
  FROM jbb_num_cases ORDER BY n;
-- inside a jsonb value the numbers are the same numerics
SELECT count(*) FILTER (WHERE pg_temp.cmp(lit) <> 'same') AS jsonb_mismatches,
       count(*) FILTER (WHERE pg_temp.cmp('[' || lit || ', {"n": ' || lit || '}]') <> 'same')
           AS nested_mismatches
  FROM jbb_num_cases;
-- typmods: the scale is filled up, the value kept; too many digits keep serde's own errors
SELECT lit, col, pg_temp.try(format(
           'SELECT d.%I::text FROM serde_decode(NULL::jbb_num, %L, %L) d',
           col, format('{"%s": %s}', col, lit), 'JbbNum')) AS decoded,
       pg_temp.try(format('SELECT %L::%s::text', lit,
                          CASE col WHEN 'n52' THEN 'numeric(5,2)' WHEN 'n180' THEN 'numeric(18,0)'
                                   ELSE 'numeric(40,10)' END)) AS cast
  FROM (VALUES ('0', 'n52'), ('-0.0', 'n52'), ('1.5', 'n52'), ('-1.50', 'n52'), ('999.99', 'n52'),
               ('-999.99', 'n52'), ('999.990000', 'n52'), ('1000', 'n52'), ('1000.00', 'n52'),
               ('999.995', 'n52'), ('1.005', 'n52'), ('0.001', 'n52'), ('12.3e1', 'n52'),
               ('999999999999999999', 'n180'), ('-999999999999999999', 'n180'),
               ('1000000000000000000', 'n180'), ('5.0', 'n180'), ('5.5', 'n180'),
               ('123456789012345678.0000000000', 'n180'),
               ('0.0000000001', 'n4010'), ('-123456789.123456789', 'n4010'),
               ('9223372036854775807', 'n4010'), ('123456789012345678901234567890', 'n4010'),
               ('1234567890123456789012345678901', 'n4010')
  ) v(lit, col);
-- a domain over numeric(4,2) keeps its typmod
CREATE DOMAIN jbb_num42 AS numeric(4,2);
SELECT lit, pg_temp.try(format('SELECT d::text FROM serde_decode(NULL::jbb_num42, %L) d', lit))
           AS decoded
  FROM (VALUES ('12.3'), ('-12.34'), ('0'), ('99.99'), ('100'), ('12.345')) v(lit);

-- ---- the binary writer: stored offsets, padding, empty containers, keys, big strings ----------
-- every JB_OFFSET_STRIDE'th (32nd) JEntry stores an end offset: arrays and objects around 32, 64,
-- 65 members; numerics (INTALIGNed, the padding counted in the entry) after strings of every
-- length mod 4; nested empty containers; keys of equal length with duplicates
CREATE TABLE jbb_writer (n serial, doc text);
INSERT INTO jbb_writer (doc)
SELECT '[' || string_agg(CASE i % 4 WHEN 0 THEN i::text WHEN 1 THEN format('"%s"', repeat('s', i % 7))
                                    WHEN 2 THEN '[]' ELSE '{"a": 1.5}' END, ', ') || ']'
  FROM generate_series(1, 200) i, (VALUES (31), (32), (33), (64), (65), (97), (200)) v(m)
 WHERE i <= m GROUP BY m;
INSERT INTO jbb_writer (doc)
SELECT '{' || string_agg(format('"k%s": %s', lpad(i::text, (i % 3) + 1, '0'),
                                CASE i % 5 WHEN 0 THEN (i * 1.25)::text WHEN 1 THEN format('"%s"', repeat('v', i % 5))
                                           WHEN 2 THEN '{}' WHEN 3 THEN 'null' ELSE '[[], {}, -7]' END), ', ') || '}'
  FROM generate_series(1, 200) i, (VALUES (15), (16), (17), (31), (32), (33), (64), (65), (100), (200)) v(m)
 WHERE i <= m GROUP BY m;
INSERT INTO jbb_writer (doc) VALUES
    ('["a", 1]'), ('["ab", 1]'), ('["abc", 1]'), ('["abcd", 1]'), ('["abcde", -1.5e-3]'),
    ('{"a": 1, "bb": 2, "ccc": 3, "dddd": 4, "eeeee": 5}'), ('{"x": "odd", "y": 12345678901234567890}'),
    ('[[[[]]], [{}], {"a": {"b": {}}}, [[], []]]'), ('{"": {}, " ": [], "  ": {"": []}}'),
    ('{"ab": 1, "ba": 2, "ab": 3, "aa": 4, "bb": 5, "ba": 6, "aa": 7, "ab": {"x": [8]}}'),
    ('{"k": 1, "k": 2, "k": 3, "k": 4, "k": 5, "k": 6, "k": 7, "k": 8, "k": 9, "k": 10, "k": 11, ' ||
     '"k": 12, "k": 13, "k": 14, "k": 15}'),
    ('["' || repeat('x', 100000) || '", 1, "' || repeat('\n', 1000) || '", 2.5]'),
    ('{"' || repeat('k', 5000) || '": "' || repeat('é', 50000) || '", "a": 0.001}'),
    ('1.5'), ('-0.00'), ('1e-7'), ('12345678901234567890123'), ('"s"'), ('""'), ('true'), ('false'),
    ('[null]'), ('[1e1000]'), ('[-1E-1000]'), ('[0.0e5, 0e-5, 10e-2, 123.456e2, 1.000000000000000000e18]');
SELECT count(*) AS cases, count(*) FILTER (WHERE pg_temp.cmp(doc) <> 'same') AS mismatches
  FROM jbb_writer;
SELECT n, left(doc, 60) AS doc, pg_temp.cmp(doc) AS outcome FROM jbb_writer
 WHERE pg_temp.cmp(doc) <> 'same' ORDER BY n;
-- deep nesting with numerics at every level (padding inside every container)
SET serde.max_depth = 3000;
SELECT pg_temp.cmp(repeat('["s", 1.5, {"k": "v", "n": -2, "a": ', 1200) || '[]' || repeat('}]', 1200))
           AS deep_mixed;
RESET serde.max_depth;

-- ---- random documents: 3000 of them, byte for byte against ::jsonb ---------------------------
-- rnd_json(depth): a random JSON value (numbers of every form, strings with escapes and
-- multibyte characters, keys from a small pool so that duplicates and equal lengths are common,
-- containers of 0..70 members so that stored offsets appear)
CREATE FUNCTION pg_temp.rnd_json(depth int) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE k int := floor(random() * CASE WHEN depth > 3 THEN 6 ELSE 8 END); n int; r text; parts text[];
BEGIN
    CASE k
    WHEN 0 THEN
        RETURN (ARRAY['0', '-0', '1', '-1', '42', '9223372036854775807', '-9223372036854775808',
                      '18446744073709551615', '9999999999999999999', '10000000000000000000',
                      '0.5', '-0.05', '1.50', '100.0100', '3.14159265358979323846', '1e2', '1E-2',
                      '-1.5e+10', '0e0', '2.5e-300', '7e300', '0.000000000000000000001'])
               [1 + floor(random() * 22)];
    WHEN 1 THEN
        RETURN (CASE WHEN random() < 0.5 THEN '-' ELSE '' END) || floor(random() * 10 ^ floor(random() * 20))::numeric::text
               || CASE WHEN random() < 0.5 THEN '.' || lpad(floor(random() * 10 ^ 6)::text, floor(1 + random() * 12)::int, '0') ELSE '' END
               || CASE WHEN random() < 0.2 THEN 'e' || (floor(random() * 40) - 20)::int ELSE '' END;
    WHEN 2 THEN
        RETURN '"' || (ARRAY['', 'a', 'ab', 'abc', 'abcd', 'é', '\n\t', '\u00e9x', '\ud83d\ude00',
                            'quote\"d', 'back\\slash', '日本', repeat('z', 40)])[1 + floor(random() * 13)] ||
               repeat('y', floor(random() * 5)::int) || '"';
    WHEN 3 THEN
        RETURN (ARRAY['true', 'false', 'null'])[1 + floor(random() * 3)];
    WHEN 4, 5 THEN
        RETURN '"' || md5(random()::text) || '"';
    WHEN 6 THEN
        n := floor(random() * CASE WHEN random() < 0.2 THEN 70 ELSE 6 END);
        FOR i IN 1 .. n LOOP parts := parts || pg_temp.rnd_json(depth + 1); END LOOP;
        RETURN '[' || coalesce(array_to_string(parts, CASE WHEN random() < 0.5 THEN ',' ELSE E' ,\n ' END), '') || ']';
    ELSE
        n := floor(random() * CASE WHEN random() < 0.2 THEN 70 ELSE 6 END);
        FOR i IN 1 .. n LOOP
            parts := parts || ('"' || (ARRAY['a', 'b', 'ab', 'ba', 'aa', 'bb', 'abc', 'cba', '', 'é',
                                            'k' || floor(random() * 50)])[1 + floor(random() * 11)]
                               || '": ' || pg_temp.rnd_json(depth + 1));
        END LOOP;
        RETURN '{' || coalesce(array_to_string(parts, ', '), '') || '}';
    END CASE;
END $f$;
SELECT setseed(0.4242);
CREATE TABLE jbb_random AS
SELECT i, pg_temp.rnd_json(CASE WHEN i % 3 = 0 THEN 0 ELSE 1 END) AS doc FROM generate_series(1, 3000) i;
-- (a top-level null is SQL NULL in the column, not a jsonb null: left out)
SELECT count(*) AS documents, count(*) FILTER (WHERE pg_temp.cmp(doc) <> 'same') AS not_same,
       sum(length(doc)) > 100000 AS enough_bytes
  FROM jbb_random WHERE doc <> 'null';
SELECT i, left(doc, 80) AS doc, pg_temp.cmp(doc) FROM jbb_random
 WHERE doc <> 'null' AND pg_temp.cmp(doc) <> 'same' ORDER BY i LIMIT 5;
-- the same numbers as numeric columns (sd_numeric_fast) against ::numeric
SELECT count(*) AS numbers,
       count(*) FILTER (WHERE NOT pg_temp.img_eq(
           (SELECT d.n FROM serde_decode(NULL::jbb_num, '{"n": ' || lit || '}', 'JbbNum') d),
           lit::numeric)) AS not_same
  FROM (SELECT pg_temp.rnd_json(10) AS lit FROM generate_series(1, 3000)) v
 WHERE lit ~ '^-?[0-9]';

-- ---- the three ways serde builds jsonb, over the same random documents -----------------------
-- From text, a jsonb value is built from the events the walker wrote while validating it (cmp
-- above); serde_decode_each does the same per row; from a jsonb document, and for a value of
-- more than 1,048,576 events, it is built by parsing the value's text.  All must equal ::jsonb.
SELECT count(*) AS each_rows,
       count(*) FILTER (WHERE NOT (e.v IS NOT DISTINCT FROM r.doc::jsonb AND pg_temp.img_eq(e.v, r.doc::jsonb))) AS not_same
  FROM (SELECT '[' || string_agg('{"v": ' || doc || '}', ', ' ORDER BY i) || ']' AS arr
          FROM jbb_random WHERE doc <> 'null') a,
       LATERAL serde_decode_each(NULL::jbb_one, a.arr, 'JbbOne') WITH ORDINALITY e(v, ord)
  JOIN (SELECT row_number() OVER (ORDER BY i) AS ord, doc FROM jbb_random WHERE doc <> 'null') r
    ON r.ord = e.ord;
SELECT count(*) AS from_jsonb,
       count(*) FILTER (WHERE NOT (d.v IS NOT DISTINCT FROM doc::jsonb AND pg_temp.img_eq(d.v, doc::jsonb))) AS not_same
  FROM jbb_random,
       LATERAL serde_decode(NULL::jbb_one, ('{"v": ' || doc || '}')::jsonb, 'JbbOne') d
 WHERE doc <> 'null';
-- (events: 2 for the outer array, 8 per [1.5, "s", {"k": null}], 1 per trailing number)
SELECT events, pg_temp.cmp(doc) AS outcome, length(doc)
  FROM (VALUES (1048576, '[' || repeat('[1.5, "s", {"k": null}], ', 131071) || '0, 1, 2, 3, 4, 5]'),
               (1048577, '[' || repeat('[1.5, "s", {"k": null}], ', 131071) || '0, 1, 2, 3, 4, 5, 6]')) v(events, doc);
-- small integers (1..9999 are built without the number parser), at and around the boundaries
SELECT pg_temp.cmp('[0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, -1, -9999, -10000, 1.0, 10e0, 9999.0, 09]') AS invalid_09,
       pg_temp.cmp('[0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, -1, -9999, -10000, 1.0, 10e0, 9999.0]') AS small_ints,
       pg_temp.cmp('{"a": 7, "b": [5, {"c": 9999}], "d": 10000}') AS nested;
-- small integers in an array are taken in runs (jb_small_int_run) until the next other value:
-- runs ended by the array's end, by 0, 10000, a fraction, a string, a container, and runs that
-- start after such a value; runs inside runs; runs longer than the 32-entry offset stride and
-- than 65,535 elements
SELECT pg_temp.cmp('[1, 2, 3]') AS run_to_end,
       pg_temp.cmp('[1, 2, 0, 3, 10000, 4, 9999]') AS run_broken,
       pg_temp.cmp('[5, "s", 6, [7, 8], {"k": 9}, 10, 1.5, 11, true, 12, null]') AS run_mixed,
       pg_temp.cmp('[[1, 2], [3, 4, 5], [], [[6]], [7, [8, [9]]]]') AS nested_runs,
       pg_temp.cmp(E'[\n  97,\n  112\n  ]') AS pretty,
       pg_temp.cmp('[' || (SELECT string_agg((i % 9999 + 1)::text, ', ') FROM generate_series(1, 100) i) || ', "x", 1]') AS run_100,
       pg_temp.cmp('[' || (SELECT string_agg((i % 9999 + 1)::text, ',') FROM generate_series(1, 70000) i) || ']') AS run_70000,
       pg_temp.cmp('{"h": [{"a": [' || (SELECT string_agg((i % 250 + 1)::text, ',') FROM generate_series(1, 40) i) || ']}, {"b": [104, 105]}]}') AS headers_like;
-- the same documents as NDJSON lines (each line's events point into that line's own copy)
SELECT count(*) AS ndjson_rows,
       count(*) FILTER (WHERE NOT (e.v IS NOT DISTINCT FROM r.doc::jsonb AND pg_temp.img_eq(e.v, r.doc::jsonb))) AS not_same
  FROM (SELECT string_agg('{"v": ' || replace(doc, E'\n', ' ') || '}', E'\n' ORDER BY i) AS nd
          FROM jbb_random WHERE doc <> 'null') a,
       LATERAL serde_decode_each(NULL::jbb_one, a.nd, 'JbbOne') WITH ORDINALITY e(v, ord)
  JOIN (SELECT row_number() OVER (ORDER BY i) AS ord, doc FROM jbb_random WHERE doc <> 'null') r
    ON r.ord = e.ord;
