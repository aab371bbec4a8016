-- jsonb_input.sql — jsonb documents are decoded by walking the jsonb binary directly (no text
-- round trip) and json documents as text: text, json and jsonb agree, apart from what jsonb's
-- own normalisation changes (docs/reference.md, "Types"): numbers are already numeric (1e2 is the integer 100,
-- 1.0 stays non-integral), members arrive in jsonb's key order, duplicate keys are gone, and
-- errors carry paths but no byte offsets.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE TYPE jb_color AS ENUM ('red', 'green', 'blue');
CREATE DOMAIN jb_pos AS int4 CHECK (VALUE > 0);
CREATE TYPE jb_point AS (x float8, y float8);
CREATE TYPE jb_row AS (
    id      int8,
    small   int2,
    n       int4,
    ratio   float4,
    amount  numeric(12,3),
    big     numeric,
    ok      boolean,
    name    varchar(10),
    code    char(4),
    color   jb_color,
    at      timestamptz,
    local   timestamp,
    day     date,
    t       time,
    uid     uuid,
    blob    bytea,
    raw     json,
    doc     jsonb,
    pts     jb_point[],
    tags    text[],
    qty     jb_pos,
    head    text,
    rest    jsonb
);
SELECT serde_register('JbRow', 'jb_row', '{"extra": "rest", "optional": true,
    "fields": {"head": {"path": ["commit", "sha"]}, "blob": {"format": "hex"}, "n": {"default": 7}}}');

-- one document, three ways: equal rows (json and jsonb columns compared as jsonb)
CREATE TEMP TABLE jb_docs (k int, d text);
INSERT INTO jb_docs VALUES
 (1, '{"id": 9007199254740993, "small": -32768, "n": 2147483647, "ratio": 0.1, "amount": 123456789.125,
       "big": 123456789012345678901234567890.000000000000000000001, "ok": true, "name": "caf\u00e9 \"q\"",
       "code": "ab", "color": "green", "at": "2024-02-29T23:59:59.999999+05:30",
       "local": "2024-02-29 12:00:00Z", "day": "1999-12-31", "t": "23:59:59.5",
       "uid": "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "blob": "deadBEEF",
       "raw": {"b": [1, 2.50, "x"], "a": null}, "doc": {"z": 1, "a": {"y": [true, false]}},
       "pts": [{"x": 1.5, "y": -2}, {"x": 0, "y": 1e-3}], "tags": ["a", "", "日本"], "qty": 3,
       "commit": {"sha": "abc123", "url": "u"}, "unmapped": {"k": [1, {"v": 2}]}, "z": null}'),
 (2, '{"id": 1}'),
 (3, '{"pts": [], "tags": [], "doc": [], "raw": "s", "commit": null, "amount": -0.5, "big": -0}'),
 (4, '{"amount": 1e2, "big": 1.0E+3, "ratio": 3.4028234e38, "pts": [{"x": -1.7976931348623157e308, "y": 5e-324}]}');
SELECT k,
       (SELECT to_jsonb(r) FROM serde_decode(NULL::jb_row, d) r) =
       (SELECT to_jsonb(r) FROM serde_decode(NULL::jb_row, d::json) r) AS json_same,
       (SELECT to_jsonb(r) FROM serde_decode(NULL::jb_row, d) r) =
       (SELECT to_jsonb(r) FROM serde_decode(NULL::jb_row, d::jsonb) r) AS jsonb_same,
       (SELECT to_jsonb(r) FROM serde_decode(NULL::jb_row, d) r) =
       (SELECT to_jsonb(r) FROM serde_decode('JbRow', convert_to(d, 'UTF8')) AS r(id int8, small int2, n int4,
            ratio float4, amount numeric(12,3), big numeric, ok boolean, name varchar(10), code char(4),
            color jb_color, at timestamptz, local timestamp, day date, t time, uid uuid, blob bytea,
            raw json, doc jsonb, pts jb_point[], tags text[], qty jb_pos, head text, rest jsonb)) AS bytea_same
  FROM jb_docs ORDER BY k;
SELECT d.* FROM jb_docs, LATERAL serde_decode(NULL::jb_row, jb_docs.d::jsonb) d WHERE k = 1;
-- the json column keeps the document's text from text/json input, jsonb's rendering from jsonb
SELECT (serde_decode(NULL::jb_row, d)).raw AS from_text, (serde_decode(NULL::jb_row, d::jsonb)).raw AS from_jsonb
  FROM jb_docs WHERE k = 1;

-- ---- normalisation: numbers -------------------------------------------------------------------
-- 1e2 is already the integer 100 in jsonb; as text it is not an integer literal
SELECT serde_decode(NULL::int4, '1e2'::jsonb) AS from_jsonb;
SELECT serde_decode(NULL::int4, '1e2');
SELECT serde_decode(NULL::int4, '1e2'::json);
SELECT (serde_decode(NULL::jb_row, '{"n": 1E+2, "small": 2.5e1, "id": 1000e-3}'::jsonb)).n;
-- 1.0 stays non-integral in jsonb too
SELECT serde_decode(NULL::int4, '1.0'::jsonb);
SELECT serde_decode(NULL::int4, '1.0');
-- with coerce both are integers
SELECT serde_register('JbCoerce', 'int4', '{"coerce": true}');
SELECT serde_decode(NULL::int4, '1e2', 'JbCoerce') AS text_coerced, serde_decode(NULL::int4, '1.0'::jsonb, 'JbCoerce') AS jsonb_coerced;
SELECT serde_decode(NULL::int4, '1.5'::jsonb, 'JbCoerce');
-- numeric keeps the literal's scale either way; out of range is out of range either way
SELECT serde_decode(NULL::numeric, '1.50') AS from_text, serde_decode(NULL::numeric, '1.50'::jsonb) AS from_jsonb,
       serde_decode(NULL::numeric, '15e-1'::jsonb) AS exp_jsonb, serde_decode(NULL::numeric, '15e-1') AS exp_text;
SELECT serde_decode(NULL::int2, '40000'::jsonb);
SELECT serde_decode(NULL::float4, '1e39'::jsonb);
SELECT serde_decode(NULL::float4, '1e39');
SELECT serde_decode(NULL::float8, '1e400'::jsonb);
SELECT serde_decode(NULL::float8, '1e400');
SELECT serde_decode(NULL::jb_row, '{"amount": 0.0001}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"amount": 1e9}'::jsonb);

-- ---- normalisation: duplicate keys, key order --------------------------------------------------
-- text rejects a duplicated mapped member; jsonb keeps the last one
SELECT serde_decode(NULL::jb_point, '{"x": 1, "y": 2, "x": 3}');
SELECT serde_decode(NULL::jb_point, '{"x": 1, "y": 2, "x": 3}'::jsonb);
-- unmapped members: extra keeps them (in jsonb's order as a jsonb value either way)
SELECT (serde_decode(NULL::jb_row, '{"zz": 1, "a": 2, "commit": {"sha": "s", "x": 1}, "mm": [3]}')).rest AS from_text,
       (serde_decode(NULL::jb_row, '{"zz": 1, "a": 2, "commit": {"sha": "s", "x": 1}, "mm": [3]}'::jsonb)).rest AS from_jsonb;
-- the first error in document order is the first in jsonb's key order
SELECT serde_decode(NULL::jb_row, '{"name": 5, "id": "x"}');
SELECT serde_decode(NULL::jb_row, '{"name": 5, "id": "x"}'::jsonb);
SELECT path, code, byte_offset FROM serde_errors(NULL::jb_row, '{"name": 5, "id": "x", "color": "pink"}');
SELECT path, code, byte_offset FROM serde_errors(NULL::jb_row, '{"name": 5, "id": "x", "color": "pink"}'::jsonb);

-- ---- errors: the same path and message, no offset ----------------------------------------------
SELECT serde_decode(NULL::jb_row, '{"pts": [{"x": 1, "y": 2}, {"x": "1", "y": 2}]}');
SELECT serde_decode(NULL::jb_row, '{"pts": [{"x": 1, "y": 2}, {"x": "1", "y": 2}]}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"commit": {"sha": 5}}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"commit": "abc"}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"color": "pink"}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"name": "much too long a name"}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"at": "2024-02-29T23:59:59"}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"day": "2023-02-29"}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"uid": "xyz"}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"blob": "abc"}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"tags": "a"}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"qty": 0}'::jsonb);
SELECT serde_decode(NULL::jb_row, '[]'::jsonb);
SELECT serde_decode(NULL::jb_row, '5'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"ok": "true"}'::jsonb);
SELECT serde_decode(NULL::jb_row, '{"ok": "true"}');
-- root scalars
SELECT serde_register('JbText', 'text');
SELECT serde_decode(NULL::text, '"x"'::jsonb, 'JbText') AS s, serde_decode(NULL::int8, '-5'::jsonb) AS i,
       serde_decode(NULL::boolean, 'false'::jsonb) AS b, serde_decode(NULL::int4, 'null'::jsonb) IS NULL AS n;
SELECT serde_decode(NULL::int4[], '[1, 2, null]'::jsonb), serde_decode(NULL::jsonb, '{"b": 1, "a": 2}'::jsonb);
-- serde_valid over jsonb
SELECT serde_valid(NULL::jb_point, '{"x": 1, "y": 2}'::jsonb) AS good, serde_valid(NULL::jb_point, '{"x": 1}'::jsonb) AS missing,
       serde_valid(NULL::jb_row, '{"qty": -1}'::jsonb) AS domain_check, serde_valid(NULL::jb_point, NULL::jsonb) AS null_doc;
-- unknown: reject
CREATE TYPE jb_strict AS (x float8, y float8);
SELECT serde_register('JbStrict', 'jb_strict', '{"unknown": "reject"}');
SELECT serde_decode(NULL::jb_strict, '{"x": 1, "y": 2, "z": 3}'::jsonb);
SELECT serde_decode(NULL::jb_strict, '{"x": 1, "y": 2, "z": 3}');

-- ---- limits apply to jsonb input too ------------------------------------------------------------
SET serde.max_depth = 3;
SELECT serde_decode(NULL::jsonb, '[[[1]]]'::jsonb) AS at_the_limit;
SELECT serde_decode(NULL::jsonb, '[[[[1]]]]'::jsonb);
SELECT serde_decode(NULL::jsonb, '[[[[1]]]]');
-- also inside values serde does not decode (ignored members, extra)
SELECT serde_decode(NULL::jb_point, '{"x": 1, "y": 2, "ignored": {"a": [[1]]}}'::jsonb);
SELECT serde_decode(NULL::jb_point, '{"x": 1, "y": 2, "ignored": {"a": [[1]]}}');
SELECT serde_decode(NULL::jb_point, '{"x": 1, "y": 2, "ignored": {"a": [1]}}'::jsonb) AS at_the_limit;
RESET serde.max_depth;
SET serde.max_document_bytes = 64;
SELECT serde_decode(NULL::jsonb, '{"a": "0123456789012345678901234567890123456789012345678901234567890123456789"}'::jsonb);
RESET serde.max_document_bytes;

-- several jsonb results of jsonb documents in one row: each is the caller's own copy (before
-- the fix, every column showed the last one: the walker's memory is reused by the next call)
SELECT serde_decode(NULL::jsonb, '5'::jsonb) AS a, serde_decode(NULL::jsonb, '"x"'::jsonb) AS b,
       serde_decode(NULL::jsonb, '{"q": 1}'::jsonb) AS c, serde_decode(NULL::jsonb, '[7]'::jsonb) AS d,
       serde_decode(NULL::jsonb[], '[[1], {"k": 2}]'::jsonb) AS e, serde_decode(NULL::jsonb, '[8]') AS f;

-- ---- numbers and members: jsonb agrees with the text of the same jsonb -------------------------
-- jsonb numbers go straight into integer and numeric columns (no numeric_out and second parse),
-- and members are found by a merge in jsonb's key order: every value, display scale, storage
-- size and error must be what the text path gives for doc::jsonb::text (the jsonb's rendering,
-- so that jsonb's own normalisation is on both sides)
CREATE DOMAIN jb_num52 AS numeric(5,2) CHECK (VALUE <> 1);
CREATE TYPE jb_nums AS (
    i2 int2, i4 int4, i8 int8, n numeric, n52 numeric(5,2), n00 numeric(3,0), n22 numeric(2,2),
    nneg numeric(3,-1), n8 numeric(40,8), f4 float4, f8 float8, d52 jb_num52, ai int8[], an numeric(5,2)[],
    s text, v varchar(3), c char(3), e jb_color, ts timestamptz, b boolean, p jb_point);
-- the decoded row as text with the storage size of each numeric, or the error
SELECT serde_register('JbNums', 'jb_nums', '{"optional": true}');
SELECT serde_register('JbNumsCoerce', 'jb_nums', '{"optional": true, "coerce": true}');
CREATE FUNCTION jb_num_try(doc text, as_jsonb boolean, shape text DEFAULT 'JbNums') RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r jb_nums;
BEGIN
    IF as_jsonb THEN
        r := serde_decode(NULL::jb_nums, doc::jsonb, shape);
    ELSE
        r := serde_decode(NULL::jb_nums, doc::jsonb::text, shape);
    END IF;
    RETURN r::text || ' sizes ' || concat_ws(',', pg_column_size(r.n), pg_column_size(r.n52),
        pg_column_size(r.n00), pg_column_size(r.n22), pg_column_size(r.n8), pg_column_size(r.d52));
EXCEPTION WHEN others THEN
    RETURN SQLSTATE || ' ' || SQLERRM;
END $$;
CREATE TEMP TABLE jb_num_docs (k serial, d text);
INSERT INTO jb_num_docs (d) VALUES
 ('{"i2": 32767}'), ('{"i2": -32768}'), ('{"i2": 32768}'), ('{"i2": -32769}'), ('{"i2": 1e4}'),
 ('{"i2": 12345}'), ('{"i2": 1.0}'), ('{"i2": 1.5}'), ('{"i2": -0}'), ('{"i2": 0}'),
 ('{"i4": 2147483647}'), ('{"i4": -2147483648}'), ('{"i4": 2147483648}'), ('{"i4": -2147483649}'),
 ('{"i4": 100000000}'), ('{"i4": 1e-2}'),
 ('{"i8": 9223372036854775807}'), ('{"i8": -9223372036854775808}'), ('{"i8": 9223372036854775808}'),
 ('{"i8": -9223372036854775809}'), ('{"i8": 1e18}'), ('{"i8": 1e19}'), ('{"i8": 1e20}'),
 ('{"i8": 123456789012345678901234567890}'), ('{"i8": 10000000000000000}'), ('{"i8": 1e-20}'),
 ('{"n": 0}'), ('{"n": -0}'), ('{"n": 0.000}'), ('{"n": -0.000e5}'), ('{"n": 1.50}'), ('{"n": 1e-20}'),
 ('{"n": 1e20}'), ('{"n": -1.23e-5}'), ('{"n": 123456789012345678901234567890.000000000000000000001}'),
 ('{"n": 1e300}'), ('{"n": -1e-300}'), ('{"n": 10000}'), ('{"n": 0.0001}'), ('{"n": 99999999.99999999}'),
 ('{"n": 1e252}'), ('{"n": 1e256}'), ('{"n": 1e-64}'), ('{"n": 1e-63}'), ('{"n": 1.000000000000000000000000000000000000000000000000000000000000000000000000000001}'),
 ('{"n52": 1.5}'), ('{"n52": 1.500}'), ('{"n52": 999.99}'), ('{"n52": -999.99}'), ('{"n52": 1000}'),
 ('{"n52": 999.995}'), ('{"n52": 1.005}'), ('{"n52": -0.01}'), ('{"n52": 0.001}'), ('{"n52": 1.5e2}'),
 ('{"n52": 0}'), ('{"n52": 0.000}'), ('{"n52": -0}'), ('{"n52": 1e-300}'), ('{"n52": 1e300}'), ('{"n52": 12}'),
 ('{"n00": 123}'), ('{"n00": 1.0}'), ('{"n00": 999}'), ('{"n00": 1000}'), ('{"n00": 0.5}'), ('{"n00": -999.000}'),
 ('{"n22": 0.99}'), ('{"n22": 1}'), ('{"n22": 0.999}'), ('{"n22": 0.1}'), ('{"n22": -0.99}'),
 ('{"nneg": 120}'), ('{"nneg": 125}'), ('{"nneg": 12340}'),
 ('{"n8": 12345678901234567890123456789012.12345678}'), ('{"n8": 123456789012345678901234567890123}'),
 ('{"n8": 0.000000001}'), ('{"n8": 1e-8}'), ('{"n8": 1e31}'), ('{"n8": 1e32}'),
 ('{"f4": 3.4028234e38}'), ('{"f4": 1e39}'), ('{"f4": 0.1}'), ('{"f4": 1e-46}'),
 ('{"f8": 1e308}'), ('{"f8": 5e-324}'), ('{"f8": 1e-400}'), ('{"f8": 0.1}'), ('{"f8": -0}'),
 ('{"d52": 2}'), ('{"d52": 1}'), ('{"d52": 1.00}'), ('{"d52": 1000}'), ('{"d52": 3.14159}'),
 ('{"ai": [1, -9223372036854775808, 0]}'), ('{"ai": [1, 2.5]}'), ('{"ai": [1, 9223372036854775808]}'),
 ('{"an": [1, 2.5, 999.99]}'), ('{"an": [1, 2.555]}'), ('{"an": [1, 1000]}'),
 ('{"s": "caf\u00e9 \"q\" \\ \t\n \ud83d\ude00"}'), ('{"s": "a\u0000b"}'), ('{"s": ""}'),
 ('{"v": "abc"}'), ('{"v": "abcd"}'), ('{"v": "日本語"}'), ('{"v": "日本語x"}'),
 ('{"c": "a"}'), ('{"c": "abc"}'), ('{"c": "abcd"}'), ('{"c": "é"}'),
 ('{"e": "red"}'), ('{"e": "pink"}'), ('{"e": "Red"}'),
 ('{"ts": "2024-02-29T23:59:59.9999995Z"}'), ('{"ts": "2024-02-29 12:00:00+05:30"}'), ('{"ts": 5}'),
 ('{"b": true}'), ('{"b": false}'), ('{"b": "true"}'), ('{"b": 1}'),
 ('{"p": {"x": 1, "y": 2, "zz": 3, "a": 4, "xy": 5}}'), ('{"p": {"y": 2}}'), ('{"p": {}}'), ('{"p": {"x": "1"}}'),
 ('{"zzz": 1, "i2": 1, "aaa": 2, "i4": 2, "n": 3, "i8": 4, "x": 0, "s": "s", "é": 1, "ai": [], "tag": null}'),
 ('{"i2": 1, "i4": 2, "i8": 3, "n": 4, "n52": 5, "n00": 6, "n22": 0.5, "n8": 8, "f4": 9, "f8": 10,
    "d52": 11, "ai": [12], "an": [13], "s": "14", "v": "15", "c": "16", "e": "blue",
    "ts": "2000-01-01T00:00:00Z", "b": null, "p": null}');
SELECT k, d, jb_num_try(d, true) = jb_num_try(d, false) AS same, jb_num_try(d, true) AS from_jsonb
  FROM jb_num_docs ORDER BY k;
-- what differs would show here (none)
SELECT k, jb_num_try(d, true) AS from_jsonb, jb_num_try(d, false) AS from_text
  FROM jb_num_docs WHERE jb_num_try(d, true) IS DISTINCT FROM jb_num_try(d, false);
-- coerce: numbers through the text path (1.0 and 1e2 are integers), strings as numbers
SELECT k, jb_num_try(d, true, 'JbNumsCoerce') AS from_jsonb
  FROM (VALUES (1, '{"i2": 1.0, "i4": 1e2, "i8": "12", "n52": "1.5", "s": 12.50, "v": 123, "b": "true"}'),
               (2, '{"i4": 1.5}'), (3, '{"n52": "1.005"}'), (4, '{"v": 1.5e3}')) AS t(k, d)
 WHERE jb_num_try(d, true, 'JbNumsCoerce') = jb_num_try(d, false, 'JbNumsCoerce') ORDER BY k;
-- serde_errors over jsonb: every numeric error, in jsonb's key order, as from its text
SELECT path, code, message FROM serde_errors(NULL::jb_nums,
    '{"i2": 40000, "i4": 1.5, "n52": 1.005, "n00": 1000, "an": [1, 2.555, 1000], "ai": [1e19], "n": 1e2}'::jsonb, 'JbNums');
SELECT (SELECT array_agg(path || ' ' || code || ' ' || message) FROM serde_errors(NULL::jb_nums, d::jsonb, 'JbNums')) =
       (SELECT array_agg(path || ' ' || code || ' ' || message) FROM serde_errors(NULL::jb_nums, d::jsonb::text, 'JbNums')) AS same
  FROM (VALUES ('{"i2": 40000, "i4": 1.5, "n52": 1.005, "n00": 1000, "an": [1, 2.555, 1000], "ai": [1e19], "n": 1e2}')) AS t(d);

-- unix times: integral seconds / milliseconds straight from the numeric, fractions and values
-- out of range through the text path
CREATE TYPE jb_times AS (u timestamptz, m timestamp(0), f timestamptz);
SELECT serde_register('JbTimes', 'jb_times', '{"optional": true, "fields": {"u": {"format": "unix"},
    "m": {"format": "unix_ms"}, "f": {"format": "unix"}}}');
SELECT d, (SELECT serde_decode(NULL::jb_times, d::jsonb, 'JbTimes')::text) AS from_jsonb,
       (SELECT serde_decode(NULL::jb_times, d::jsonb, 'JbTimes')::text) =
       (SELECT serde_decode(NULL::jb_times, d::jsonb::text, 'JbTimes')::text) AS same
  FROM (VALUES ('{"u": 0, "m": 0}'), ('{"u": -62135596800, "m": -62135596800000}'),
               ('{"u": 253402300799, "m": 253402300799999}'), ('{"u": 1700000000, "m": 1700000000499, "f": 1.5}'),
               ('{"f": -0.0000005}'), ('{"u": 1e3}')) AS t(d);
SELECT serde_decode(NULL::jb_times, '{"u": -62135596801}'::jsonb, 'JbTimes');
SELECT serde_decode(NULL::jb_times, '{"u": 253402300800}'::jsonb, 'JbTimes');
SELECT serde_decode(NULL::jb_times, '{"m": 253402300800000}'::jsonb, 'JbTimes');
SELECT serde_decode(NULL::jb_times, '{"u": 9223372036854775807}'::jsonb, 'JbTimes');
SELECT serde_decode(NULL::jb_times, '{"u": 253402300800}', 'JbTimes');
SELECT serde_unregister('JbTimes');
DROP TYPE jb_times;

-- the member order kept between calls follows a shape that changes: same names' lengths, other
-- names (a plan at the same address must not be taken for the old one)
CREATE TYPE jb_pair AS (ab int4, cd int4);
SELECT serde_register('JbPair', 'jb_pair', '{"fields": {"ab": {"name": "xy"}, "cd": {"name": "zw"}}}');
SELECT serde_decode(NULL::jb_pair, '{"xy": 1, "zw": 2, "ab": 3, "cd": 4}'::jsonb, 'JbPair') AS first;
SELECT serde_register('JbPair', 'jb_pair', '{"fields": {"ab": {"name": "zw"}, "cd": {"name": "ab"}}}');
SELECT serde_decode(NULL::jb_pair, '{"xy": 1, "zw": 2, "ab": 3, "cd": 4}'::jsonb, 'JbPair') AS renamed;
SELECT serde_decode(NULL::jb_pair, '{"xy": 1, "zw": 2, "ab": 3, "cd": 4}', 'JbPair') AS renamed_text;
SELECT serde_unregister('JbPair');
SELECT serde_decode(NULL::jb_pair, '{"xy": 1, "zw": 2, "ab": 3, "cd": 4}'::jsonb) AS default_names;
-- members 70 objects deep (`path`: one member list per level, x01 at $.k01.x01, x02 at
-- $.k01.k02.x02, ...): more nested member lists than the walker's 64 cached orders, so some
-- want the slot of an enclosing one; that one's order stays valid while the objects inside it
-- are walked (before the fix, x01 after k01 and others came out NULL)
DO $$
BEGIN
    EXECUTE (SELECT format('CREATE TYPE jb_deep AS (%s)', string_agg(format('x%s int4', lpad(i::text, 2, '0')), ', ' ORDER BY i))
               FROM generate_series(1, 70) i);
END $$;
SELECT serde_register('JbDeep', 'jb_deep', (SELECT format('{"fields": {%s}}', string_agg(
        format('"x%s": {"path": [%s, "x%s"]}', lpad(i::text, 2, '0'),
               (SELECT string_agg(format('"k%s"', lpad(j::text, 2, '0')), ', ' ORDER BY j) FROM generate_series(1, i) j),
               lpad(i::text, 2, '0')), ', ' ORDER BY i))
    FROM generate_series(1, 70) i)::jsonb);
SELECT count(*) AS docs, bool_and(from_jsonb = from_text) AS same, min(from_jsonb) AS decoded
  FROM (SELECT (serde_decode(NULL::jb_deep, d::jsonb, 'JbDeep'))::text AS from_jsonb,
               (serde_decode(NULL::jb_deep, d, 'JbDeep'))::text AS from_text
          FROM (SELECT (SELECT string_agg(format('{"a%s": 0, "k%s": ', i, lpad(i::text, 2, '0')), '' ORDER BY i)
                          FROM generate_series(1, 70) i) || '{"x70": 70}' ||
                       (SELECT string_agg(format(', "x%s": %s, "zzzz": 0}', lpad(i::text, 2, '0'), i), '' ORDER BY i DESC)
                          FROM generate_series(1, 69) i) || '}' AS d) doc, generate_series(1, 3) g) t;
SELECT serde_unregister('JbDeep');
-- unknown: reject finds the unknown key between known ones, missing members are missing
SELECT serde_decode(NULL::jb_strict, '{"x": 1, "xx": 2, "y": 3}'::jsonb);
SELECT serde_decode(NULL::jb_strict, '{"": 1, "x": 2, "y": 3}'::jsonb);
SELECT serde_decode(NULL::jb_strict, '{"y": 3, "é": 1}'::jsonb);
SELECT serde_decode(NULL::jb_strict, '{"y": 3}'::jsonb) AS x_missing;
SELECT serde_unregister('JbNums'), serde_unregister('JbNumsCoerce');
DROP TABLE jb_num_docs;
DROP FUNCTION jb_num_try(text, boolean, text);
DROP TYPE jb_nums, jb_pair, jb_deep;
DROP DOMAIN jb_num52;

-- clean up
SELECT serde_unregister('JbRow'), serde_unregister('JbCoerce'), serde_unregister('JbText'), serde_unregister('JbStrict');
DROP TABLE jb_docs;
DROP TYPE jb_row, jb_point, jb_strict, jb_color;
DROP DOMAIN jb_pos;
