-- jsonb_input.sql — jsonb documents are decoded by walking the jsonb binary directly (no text
-- round trip) and json documents as text: text, json and jsonb agree, apart from what jsonb's
-- own normalisation changes (DESIGN §3.3): numbers are already numeric (1e2 is the integer 100,
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

-- clean up
SELECT serde_unregister('JbRow'), serde_unregister('JbCoerce'), serde_unregister('JbText'), serde_unregister('JbStrict');
DROP TABLE jb_docs;
DROP TYPE jb_row, jb_point, jb_strict, jb_color;
DROP DOMAIN jb_pos;
