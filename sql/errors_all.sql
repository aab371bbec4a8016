-- errors_all.sql — serde_errors (docs/reference.md, "Functions", "Errors"): every violation, not just the first, in document
-- order, as (path, code, message, byte_offset); capped by serde.max_errors; malformed input is one
-- row (22P02) with its offset; adapter-side checks (domain CHECK, NOT NULL domain) are reported
-- for every value the core found whole, each in its place among the core's errors; errors raised
-- inside other types' input functions and CHECK expressions propagate.
-- Same argument forms as serde_valid, for text, json, jsonb (no offsets) and bytea documents.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE TYPE er_status AS ENUM ('new', 'paid', 'void');
CREATE DOMAIN er_cents AS int8 CHECK (VALUE >= 0);
CREATE DOMAIN er_code AS text NOT NULL CHECK (VALUE ~ '^[A-Z]{3}$');
CREATE TYPE er_line AS (sku varchar(6), qty int2, price numeric(6,2));
CREATE TYPE er_invoice AS (
    id       text,
    status   er_status,
    total    er_cents,
    currency er_code,
    due      date,
    paid_at  timestamptz,
    ref      uuid,
    lines    er_line[],
    note     text,
    ip       inet
);
SELECT serde_register('ErInvoice', 'er_invoice',
    '{"unknown": "reject", "fields": {"note": {"optional": true, "nullable": false},
      "ip": {"optional": true}, "paid_at": {"optional": true}}}');

-- a valid document: no rows, and serde_valid agrees
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": "in_1", "status": "paid", "total": 100,
    "currency": "EUR", "due": "2024-06-30", "ref": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
    "lines": [{"sku": "A-1", "qty": 2, "price": 9.99}], "ip": "10.0.0.1"}');
SELECT serde_valid(NULL::er_invoice, '{"id": "in_1", "status": "paid", "total": 100,
    "currency": "EUR", "due": "2024-06-30", "ref": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
    "lines": [{"sku": "A-1", "qty": 2, "price": 9.99}], "ip": "10.0.0.1"}');

-- every kind of violation at once, in document order (a missing member is reported at the start
-- of its object, after the members that are there)
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": 7, "status": "refunded", "total": 1.5,
    "due": "2024-02-30", "paid_at": "2024-06-01T10:00:00", "ref": "not-a-uuid",
    "lines": [{"sku": "TOO-LONG", "qty": 40000, "price": 1.234},
              {"sku": "B", "qty": "2", "price": 1, "colour": "red"},
              {"sku": "C", "qty": 1}, 5],
    "note": null, "currency": "EUR", "currency": "USD", "extra": true}');
-- the same document as jsonb: paths without offsets; jsonb's order; duplicates already gone
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": 7, "status": "refunded", "total": 1.5,
    "due": "2024-02-30", "paid_at": "2024-06-01T10:00:00", "ref": "not-a-uuid",
    "lines": [{"sku": "TOO-LONG", "qty": 40000, "price": 1.234},
              {"sku": "B", "qty": "2", "price": 1, "colour": "red"},
              {"sku": "C", "qty": 1}, 5],
    "note": null, "currency": "EUR", "currency": "USD", "extra": true}'::jsonb);
-- json and bytea documents give exactly the text rows
SELECT (SELECT array_agg(e ORDER BY ord) FROM serde_errors(NULL::er_invoice, d) WITH ORDINALITY e(path, code, message, byte_offset, ord)) =
       (SELECT array_agg(e ORDER BY ord) FROM serde_errors(NULL::er_invoice, d::json) WITH ORDINALITY e(path, code, message, byte_offset, ord)) AS json_same,
       (SELECT array_agg(e ORDER BY ord) FROM serde_errors(NULL::er_invoice, d) WITH ORDINALITY e(path, code, message, byte_offset, ord)) =
       (SELECT array_agg(e ORDER BY ord) FROM serde_errors(NULL::er_invoice, convert_to(d, 'UTF8')) WITH ORDINALITY e(path, code, message, byte_offset, ord)) AS bytea_same
  FROM (VALUES ('{"id": 1, "lines": [{"qty": "x"}, {"price": 1e9}], "zz": 1}')) v(d);

-- the three argument forms
SELECT serde_register('ErLine', 'er_line', '{"fields": {"price": {"optional": true}}}');
SELECT path, code FROM serde_errors(NULL::er_line, '{"sku": 1, "qty": 1.5}', 'ErLine');
SELECT path, code FROM serde_errors(NULL::er_line, '{"sku": 1, "qty": 1.5}');
SELECT path, code FROM serde_errors('ErLine', '{"sku": 1, "qty": 1.5}');
SELECT path, code FROM serde_errors('ErLine', '{"sku": 1, "qty": 1.5}'::jsonb);
SELECT path, code FROM serde_errors('ErLine', '{"sku": 1, "qty": 1.5}'::json);
SELECT path, code FROM serde_errors('ErLine', convert_to('{"sku": 1, "qty": 1.5}', 'UTF8'));
-- a non-composite target
SELECT * FROM serde_errors(NULL::int4[], '[1, "2", 3.5, null, 99999999999]');
SELECT * FROM serde_errors(NULL::er_status, '"draft"');

-- ---- malformed input: one row, with the offset where parsing failed ------------------------------
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": 7, "status": "refunded", "total": ');
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": 7, "lines": [1, 2,, 3]}');
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": "x"} trailing');
SELECT * FROM serde_errors(NULL::er_invoice, '');
SELECT * FROM serde_errors(NULL::er_invoice, convert_to('{"id": "caf', 'UTF8') || '\xe9'::bytea || convert_to('"}', 'UTF8'));
-- malformed input beats the value errors before it
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": 7, "status": 1, "total": tru}');

-- ---- adapter-side checks: a row after a clean core pass ------------------------------------------
-- domain CHECK false
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": "in_1", "status": "new", "total": -5,
    "currency": "EUR", "due": "2024-06-30", "ref": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "lines": []}');
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": "in_1", "status": "new", "total": 5,
    "currency": "euro", "due": "2024-06-30", "ref": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "lines": []}'::jsonb);
-- NOT NULL domain (the core knows it: null where not nullable)
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": "in_1", "status": "new", "total": 5,
    "currency": null, "due": "2024-06-30", "ref": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "lines": []}');
-- every adapter-side failure is reported, among the core's errors, in document order
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": "in_1", "status": "new", "total": -5,
    "currency": "euro", "due": "2024-06-30", "ref": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "lines": []}');
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": "in_1", "status": "new", "total": -5,
    "currency": "euro", "due": "2024-06-30", "ref": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "lines": [], "x": 1}');
-- errors inside another type's input function propagate, prefixed with shape and path
SELECT * FROM serde_errors(NULL::er_invoice, '{"id": "in_1", "status": "new", "total": 5,
    "currency": "EUR", "due": "2024-06-30", "ref": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "lines": [],
    "ip": "999.1.1.1"}');
-- ... and so does an error raised by a CHECK expression
CREATE DOMAIN er_ratio AS int4 CHECK (100 / VALUE > 1);
SELECT * FROM serde_errors(NULL::er_ratio[], '[5, 200]');
SELECT * FROM serde_errors(NULL::er_ratio[], '[5, 0]');

-- ---- serde.max_errors ------------------------------------------------------------------------------
SET serde.max_errors = 3;
SELECT path FROM serde_errors(NULL::int4[], '["a", "b", "c", "d", "e"]');
SELECT path FROM serde_errors(NULL::int4[], '["a", "b", "c", "d", "e"]'::jsonb);
RESET serde.max_errors;
-- the default is 100
SELECT count(*), min(path), max(byte_offset) FROM serde_errors(NULL::int4[],
    (SELECT jsonb_agg('x'::text)::text FROM generate_series(1, 500)));
-- more than fit in a first pass
SET serde.max_errors = 1000;
SELECT count(*), count(DISTINCT path) FROM serde_errors(NULL::int4[],
    (SELECT jsonb_agg('x'::text)::text FROM generate_series(1, 500)));
SELECT count(*) FROM serde_errors(NULL::int4[], (SELECT jsonb_agg('x'::text) FROM generate_series(1, 500)));
RESET serde.max_errors;

-- ---- a limit the document exceeds is a document error: one row with its SQLSTATE (as serde_valid is false) ----
SET serde.max_depth = 3;
SELECT * FROM serde_errors(NULL::jsonb, '[[[[1]]]]');
SELECT * FROM serde_errors(NULL::jsonb, '[[[[1]]]]'::jsonb);
SELECT * FROM serde_errors(NULL::jsonb, '[[[1]]]');
RESET serde.max_depth;
SET serde.max_document_bytes = 10;
SELECT * FROM serde_errors(NULL::jsonb, '[1, 2, 3, 4, 5]');
RESET serde.max_document_bytes;

-- ---- NULL and shape rules (as serde_valid) ---------------------------------------------------------
SELECT count(*) FROM serde_errors(NULL::er_invoice, NULL::text);
SELECT count(*) FROM serde_errors('ErLine', NULL::jsonb);
SELECT * FROM serde_errors(NULL::text, '{}');
SELECT * FROM serde_errors('NoSuchShape', NULL::text);
SELECT * FROM serde_errors(NULL::er_line, '{}', 'ErInvoice');
SELECT * FROM serde_errors(ROW('a', 1, 1)::er_line, '{}');

-- serde_errors is empty exactly when serde_valid is true
SELECT d, serde_valid(NULL::er_line, d) AS valid, (SELECT count(*) FROM serde_errors(NULL::er_line, d)) AS errors
  FROM (VALUES ('{"sku": "a", "qty": 1, "price": 1}'), ('{"sku": "a", "qty": 1}'), ('{"sku": "a"}'),
               ('{"sku": "abcdefg", "qty": 1, "price": 1}'), ('[]'), ('{'), ('null')) v(d);

-- errors inside a jsonb value (numeric's limits, \u0000) are reported where they are, each of
-- them, and the walk goes on after them, as serde_decode reports the first (before the fix, a
-- member of an object inside the jsonb value gave one 22P02 "malformed JSON" at $)
SELECT * FROM serde_errors(NULL::jsonb, '{"a": "\u0000", "b": 1e999999999999, "c": [1, 2e999999999999]}');
SELECT * FROM serde_errors(NULL::jsonb[], '[{"k": 1e999999999999}, "ok", {"k": [2e999999999999]}]');
SELECT serde_decode(NULL::jsonb, '{"a": {"b": 1e999999999999}}');

-- ---- domain checks: every violation, in document order (issue 11 item 9) -------------------------
-- Before the fix, domain CHECK and NOT NULL ran only when the core found nothing, and then only
-- the first failure was reported: the two documents of the issue gave only $.b / only $.a.
CREATE DOMAIN er_pos AS int CHECK (VALUE > 0);
CREATE DOMAIN er_nn AS int NOT NULL;
CREATE TYPE er_dp AS (a er_pos, b int, c er_pos);
CREATE DOMAIN er_dpc AS er_dp CHECK ((VALUE).b > 10);       -- a domain over a composite
CREATE TYPE er_dq AS (x er_pos[], y er_dp, z er_nn[], w er_dpc);
SELECT * FROM serde_errors(NULL::er_dp, '{"a":-1,"b":"x","c":-2}');
SELECT * FROM serde_errors(NULL::er_dp, '{"a":-1,"b":1,"c":-2}');
-- document order, not column order; jsonb: jsonb's key order, no offsets
SELECT * FROM serde_errors(NULL::er_dp, '{"c":-1,"b":"x","a":-2}');
SELECT * FROM serde_errors(NULL::er_dp, '{"c":-1,"b":"x","a":-2}'::jsonb);
SELECT * FROM serde_errors(NULL::er_dp, '{"a":-1,"b":"x","c":-2}'::json);
SELECT * FROM serde_errors(NULL::er_dp, convert_to('{"a":-1,"b":"x","c":-2}', 'UTF8'));
-- nested composites, arrays of domains, NOT NULL domains, a domain over a composite: its own
-- CHECK runs only when the composite is whole (w: b is 1, but c is missing, so only $.w.c)
SELECT * FROM serde_errors(NULL::er_dq, '{"x":[1,-1,"s",-3],"y":{"a":0,"b":"q","c":5},
    "z":[1,null,2,null],"w":{"a":-7,"b":1}}');
SELECT * FROM serde_errors(NULL::er_dq, '{"x":[1,-1,"s",-3],"y":{"a":0,"b":"q","c":5},
    "z":[1,null,2,null],"w":{"a":-7,"b":1}}'::jsonb);
-- ... and when it is whole, after the errors inside it
SELECT * FROM serde_errors(NULL::er_dq, '{"x":[],"y":{"a":1,"b":1,"c":1},"z":[],"w":{"a":1,"b":1,"c":-1}}');
SELECT * FROM serde_errors(NULL::er_dq, '{"x":[],"y":{"a":1,"b":1,"c":1},"z":[],"w":{"a":1,"b":1,"c":1}}');
-- root-level domains
SELECT * FROM serde_errors(NULL::er_pos, '-3');
SELECT * FROM serde_errors(NULL::er_pos[], '[1,-1,"s",-3]');
SELECT * FROM serde_errors(NULL::er_pos[], '[1,-1,"s",-3]'::jsonb);
SELECT * FROM serde_errors(NULL::er_dpc, '{"a":-1,"b":1,"c":1}');
SELECT * FROM serde_errors(NULL::er_dpc, '{"a":1,"b":1,"c":1}');
-- a missing required member is not also a NOT NULL violation; an absent optional member is
-- (nor is a value under a `path` parent that is missing or not an object)
CREATE TYPE er_dn AS (n er_nn, p er_pos, q er_nn);
SELECT serde_register('ErDn', 'er_dn',
    '{"fields": {"n": {"optional": true}, "p": {"path": ["h", "p"]}, "q": {"path": ["h", "q"]}}}');
SELECT * FROM serde_errors('ErDn', '{"h": {"p": -1, "q": 1}}');
SELECT * FROM serde_errors('ErDn', '{"h": {"p": 1}}');
SELECT * FROM serde_errors('ErDn', '{"h": 5}');
SELECT * FROM serde_errors('ErDn', '{"n": null, "h": {"p": 0, "q": null}}');
SELECT * FROM serde_errors('ErDn', '{"p": -1}');
SELECT * FROM serde_errors('ErDn', '{"p": -1}'::jsonb);
-- serde.max_errors caps the merged list
SET serde.max_errors = 2;
SELECT * FROM serde_errors(NULL::er_pos[], '[1,-1,"s",-3]');
SELECT * FROM serde_errors(NULL::er_pos[], '["a",-1,"s",-3]');
SELECT * FROM serde_errors(NULL::er_pos[], '[-1,-2,-3,-4,-5]'::jsonb);
SET serde.max_errors = 1;
SELECT * FROM serde_errors(NULL::er_dp, '{"a":-1,"b":"x","c":-2}');
RESET serde.max_errors;
-- many of them
SELECT count(*), min(byte_offset), max(byte_offset) FROM serde_errors(NULL::er_pos[],
    (SELECT jsonb_agg(CASE WHEN g % 2 = 0 THEN -g ELSE g END)::text FROM generate_series(1, 300) g));
-- serde_valid agrees: false exactly when serde_errors has rows
SELECT d, serde_valid(NULL::er_dq, d) AS valid, (SELECT count(*) FROM serde_errors(NULL::er_dq, d)) AS errors,
       serde_valid(NULL::er_dq, d::jsonb) AS valid_jsonb, (SELECT count(*) FROM serde_errors(NULL::er_dq, d::jsonb)) AS errors_jsonb
  FROM (VALUES ('{"x":[],"y":{"a":1,"b":1,"c":1},"z":[],"w":{"a":1,"b":11,"c":1}}'),
               ('{"x":[-1],"y":{"a":1,"b":1,"c":1},"z":[],"w":{"a":1,"b":11,"c":1}}'),
               ('{"x":[],"y":{"a":1,"b":1,"c":1},"z":[null],"w":{"a":1,"b":11,"c":1}}'),
               ('{"x":[],"y":{"a":1,"b":1,"c":1},"z":[],"w":{"a":1,"b":1,"c":1}}'),
               ('{"x":[],"y":{"a":1,"b":1,"c":1},"z":[],"w":{"a":1,"b":11,"c":1},"v":1}')) v(d);
-- a CHECK that raises still propagates, also after other violations
SELECT * FROM serde_errors(NULL::er_ratio[], '["x", -1, 0]');
SELECT serde_unregister('ErDn');
DROP TYPE er_dq, er_dn;
DROP DOMAIN er_dpc;
DROP TYPE er_dp;
DROP DOMAIN er_pos, er_nn;

-- Values read through another type's input function (inet) are not converted once serde's own
-- checks found a violation: the rows come back instead of the input function's error.  When such
-- a value is the only problem, its error propagates, as from serde_decode.
CREATE TYPE er_host AS (a int4, ip inet, b int4);
SELECT * FROM serde_errors(NULL::er_host, '{"a": "x", "ip": "bad", "b": 1}');
SELECT * FROM serde_errors(NULL::er_host, '{"a": 1, "ip": "bad", "b": "y"}');
SELECT * FROM serde_errors(NULL::er_host, '{"a": 1, "ip": "bad", "b": 2}');
SELECT * FROM serde_errors(NULL::er_host, '{"a": 1, "ip": "bad", "b": 2}'::jsonb);
SELECT * FROM serde_errors(NULL::er_host, '{"a": 1, "ip": "10.0.0.1", "b": 2}');
SELECT serde_valid(NULL::er_host, '{"a": "x", "ip": "bad", "b": 1}');
DROP TYPE er_host;

SELECT p.oid::regprocedure, p.provolatile, p.proparallel, p.prorows
  FROM pg_proc p WHERE p.proname = 'serde_errors' ORDER BY 1::text;

-- clean up
SELECT serde_unregister('ErInvoice'), serde_unregister('ErLine');
DROP TYPE er_invoice, er_line, er_status;
DROP DOMAIN er_cents, er_code, er_ratio;
