-- maps.sql — `map: true` (docs/reference.md, "Field level") on a column of type array of a composite (key text,
-- value T): a JSON object with arbitrary member names decodes into one (key, value) element per
-- member, in document order (jsonb input: jsonb's key order); each value decoded and checked as T,
-- where T may be a scalar, a composite, an array, a domain or another map; errors name the member.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- each_err(doc): serde_decode_each's error as "<SQLSTATE>: <message>"
CREATE FUNCTION pg_temp.each_err(doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE st text; msg text;
BEGIN
    PERFORM * FROM serde_decode_each(NULL::mp_product, doc);
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN st || ': ' || msg;
END $f$;
CREATE DOMAIN mp_pct AS int2 CHECK (VALUE BETWEEN 0 AND 100);
CREATE TYPE mp_label AS (key text, value text);
CREATE TYPE mp_money AS (amount numeric(10,2), currency char(3));
CREATE TYPE mp_price AS (key text, value mp_money);
CREATE TYPE mp_sizes AS (key text, value int4[]);
CREATE TYPE mp_share AS (key varchar(4), value mp_pct);
CREATE TYPE mp_inner AS (key text, value int8);
CREATE TYPE mp_nested AS (key text, value mp_inner[]);
CREATE TYPE mp_product AS (
    name   text,
    labels mp_label[],
    prices mp_price[],
    sizes  mp_sizes[],
    shares mp_share[],
    matrix mp_nested[]
);
-- a map of maps: the value column of mp_nested is itself a map, through mp_nested's own shape
-- (a `shape` on a composite-array column decodes each element)
SELECT serde_register('MpNested', 'mp_nested', '{"fields": {"value": {"map": true}}}');
SELECT serde_register('MpProduct', 'mp_product', '{"optional": true, "fields": {
    "labels": {"map": true}, "prices": {"map": true}, "sizes": {"map": true},
    "shares": {"map": true}, "matrix": {"map": true, "shape": "MpNested"}}}');

-- key order is kept (document order), scalar, composite and array values
SELECT d.name, d.labels, d.prices, d.sizes
  FROM serde_decode(NULL::mp_product, '{"name": "shirt",
        "labels": {"zeta": "last", "alpha": "first", "mid dle": "", "": "empty key"},
        "prices": {"usd": {"amount": 19.5, "currency": "USD"}, "eur": {"amount": 18, "currency": "EUR"}},
        "sizes": {"xl": [56, 58], "s": [], "m": [48]}}') d;
SELECT l.* FROM serde_decode(NULL::mp_product,
    '{"labels": {"b": "2", "a": "1", "c": "3"}}') d, unnest(d.labels) WITH ORDINALITY l;
-- jsonb input: members arrive in jsonb's key order (shorter keys first, then bytewise)
SELECT l.* FROM serde_decode(NULL::mp_product,
    '{"labels": {"bb": "2", "a": "1", "c": "3"}}'::jsonb) d, unnest(d.labels) WITH ORDINALITY l;
-- json input keeps document order, like text
SELECT l.* FROM serde_decode(NULL::mp_product,
    '{"labels": {"bb": "2", "a": "1", "c": "3"}}'::json) d, unnest(d.labels) WITH ORDINALITY l;
-- a map of maps
SELECT m.key, c.* FROM serde_decode(NULL::mp_product,
    '{"matrix": {"r1": {"c2": 2, "c1": 1}, "r0": {}, "r2": {"c1": -1}}}') d, unnest(d.matrix) m,
    LATERAL (SELECT * FROM unnest(m.value) WITH ORDINALITY) c;
SELECT serde_decode(NULL::mp_product, '{"matrix": {"r1": {"c1": 1, "c2": "x"}}}');
SELECT serde_decode(NULL::mp_product, '{"matrix": {"r1": [1, 2]}}'::jsonb);
-- empty object, null, missing
SELECT d.labels, d.prices IS NULL AS prices_null, d.sizes IS NULL AS sizes_null
  FROM serde_decode(NULL::mp_product, '{"labels": {}, "prices": null}') d;
-- escaped and non-ASCII keys
SELECT l.* FROM serde_decode(NULL::mp_product,
    '{"labels": {"a\"b": "quote", "caf\u00e9": "accent", "日本": "kanji"}}') d, unnest(d.labels) l;
-- a domain value and a varchar(4) key
SELECT s.* FROM serde_decode(NULL::mp_product, '{"shares": {"ann": 60, "bob": 40}}') d, unnest(d.shares) s;
-- a repeated key: 22030 "duplicate member" at the repeated key (text, json, bytea; also when
-- spelled with escapes); jsonb has already kept only the last
SELECT serde_decode(NULL::mp_product, '{"labels": {"k": "1", "k": "2"}}');
SELECT * FROM serde_errors(NULL::mp_product, '{"labels": {"k": "1", "j": "x", "k": "2", "\u006b": 3, "j": "y"}}');
SELECT * FROM serde_errors(NULL::mp_product, '{"labels": {"k": "1", "k": "2"}}'::json);
SELECT * FROM serde_errors(NULL::mp_product, convert_to('{"labels": {"caf\u00e9": "1", "café": "2"}}', 'UTF8'));
SELECT serde_valid(NULL::mp_product, '{"labels": {"k": "1", "k": "2"}}') AS text_valid,
       serde_valid(NULL::mp_product, '{"labels": {"k": "1", "K": "2", "k ": "3", "": "4"}}') AS distinct_keys_valid;
SELECT d.labels FROM serde_decode(NULL::mp_product, '{"labels": {"k": "1", "k": "2"}}'::jsonb) d;
-- a map of maps: keys repeat across inner maps freely, not within one
SELECT d.matrix FROM serde_decode(NULL::mp_product, '{"matrix": {"r1": {"c": 1}, "r2": {"c": 2}}}') d;
SELECT * FROM serde_errors(NULL::mp_product, '{"matrix": {"r1": {"c": 1, "c": 2}, "r2": {"c": 3}, "r1": {}}}');
-- serde_decode_each, per element and per line
SELECT * FROM serde_errors(NULL::mp_product, '{"shares": {"ann": 1, "bob": 2, "ann": 3}}');
SELECT pg_temp.each_err(E'{"labels": {"a": "1"}}\n{"labels": {"b": "1", "b": "2"}}');
-- many keys (20,000 distinct, then one repeated at the end)
SELECT cardinality(d.labels) AS n
  FROM (SELECT '{"labels": {' || string_agg(format('"k%s": "v"', i), ', ') || '}}' AS doc
          FROM generate_series(1, 20000) i) g, LATERAL serde_decode(NULL::mp_product, g.doc) d;
SELECT e.path, e.code, e.message
  FROM (SELECT '{"labels": {' || string_agg(format('"k%s": "v"', i), ', ') || ', "k7": "again"}}' AS doc
          FROM generate_series(1, 20000) i) g, LATERAL serde_errors(NULL::mp_product, g.doc) e;

-- bad documents: each error names the member (."odd key" quoted as jsonpath)
SELECT serde_decode(NULL::mp_product, '{"labels": ["a", "b"]}');
SELECT serde_decode(NULL::mp_product, '{"labels": {"a": 1}}');
SELECT serde_decode(NULL::mp_product, '{"labels": {"odd key": true}}');
SELECT serde_decode(NULL::mp_product, '{"prices": {"usd": {"amount": 1.999, "currency": "USD"}}}');
SELECT serde_decode(NULL::mp_product, '{"prices": {"usd": {"amount": 1, "currency": "DOLLAR"}}}');
-- `optional: true` of the shape is inherited by the composite values
SELECT serde_decode(NULL::mp_product, '{"prices": {"usd": {"currency": "USD"}}}');
SELECT serde_decode(NULL::mp_product, '{"prices": {"usd": 5}}');
SELECT serde_decode(NULL::mp_product, '{"sizes": {"m": [48, "50"]}}');
SELECT serde_decode(NULL::mp_product, '{"shares": {"carol": 10}}');
SELECT serde_decode(NULL::mp_product, '{"shares": {"ann": 101}}');
SELECT serde_decode(NULL::mp_product, '{"shares": {"ann": 101}}'::jsonb);
SELECT serde_decode(NULL::mp_product, '{"labels": {"a": "1", "b": 2}}'::jsonb);

-- serde_valid / serde_errors: every bad member, in document order
SELECT serde_valid(NULL::mp_product, '{"labels": {"a": "1"}}') AS good,
       serde_valid(NULL::mp_product, '{"labels": {"a": 1}}') AS bad,
       serde_valid(NULL::mp_product, '{"shares": {"ann": 101}}') AS bad_domain;
SELECT * FROM serde_errors(NULL::mp_product, '{"labels": {"z": 1, "a": "ok", "odd key": null, "q": []},
    "prices": {"usd": {"amount": 1.555, "currency": "USD"}, "eur": 5},
    "sizes": {"b": [1, "2", 3.5]}}');
SELECT * FROM serde_errors(NULL::mp_product, '{"labels": {"z": 1, "a": "ok", "odd key": null, "q": []},
    "prices": {"usd": {"amount": 1.555, "currency": "USD"}, "eur": 5},
    "sizes": {"b": [1, "2", 3.5]}}'::jsonb);
-- a domain CHECK inside a map value: reported after a clean core pass
SELECT * FROM serde_errors(NULL::mp_product, '{"shares": {"ann": 50, "bob": 101}}');

-- `map` is a field option, not a shape option: a map column inside a small wrapper type
CREATE TYPE mp_env AS (key text, value text);
SELECT serde_register('MpEnv', 'mp_env[]', '{"map": true}');
CREATE TYPE mp_container AS (image text, env mp_env[]);
SELECT serde_register('MpContainer', 'mp_container', '{"fields": {"env": {"map": true}}}');
SELECT e.* FROM serde_decode(NULL::mp_container,
    '{"image": "nginx:1.25", "env": {"PORT": "8080", "HOST": "0.0.0.0", "DEBUG": ""}}') d, unnest(d.env) e;

-- registration errors: map needs an array of a (key text, value T) composite
CREATE TYPE mp_badkey AS (key int4, value text);
CREATE TYPE mp_bad AS (a mp_label, b text[], d mp_badkey[]);
SELECT serde_register('MpBad', 'mp_bad', '{"fields": {"a": {"map": true}}}');
SELECT serde_register('MpBad', 'mp_bad', '{"fields": {"b": {"map": true}}}');
SELECT serde_register('MpBad', 'mp_bad', '{"fields": {"d": {"map": true}}}');
SELECT serde_register('MpBad', 'mp_bad', '{"fields": {"b": {"map": "yes"}}}');

-- clean up
SELECT serde_unregister('MpProduct'), serde_unregister('MpNested'), serde_unregister('MpEnv'),
       serde_unregister('MpContainer'), serde_unregister('MpBad');
DROP TYPE mp_product, mp_label, mp_price, mp_money, mp_sizes, mp_share, mp_nested, mp_inner,
          mp_container, mp_env, mp_bad, mp_badkey;
DROP DOMAIN mp_pct;
