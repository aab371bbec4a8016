-- smoke.sql — a first end-to-end pass over the PostgreSQL adapter: register a small shape,
-- decode good and bad documents in every form and document type, serde_valid, describe,
-- registration errors, and the plan cache counters.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;

CREATE TYPE smoke_status AS ENUM ('draft', 'open', 'paid');
CREATE DOMAIN smoke_cents AS int8 CHECK (VALUE >= 0);
CREATE TYPE smoke_line AS (sku text, qty int4, price numeric(8,2));
CREATE TYPE smoke_invoice AS (
    id       varchar(12),
    total    smoke_cents,
    status   smoke_status,
    created  timestamptz,
    lines    smoke_line[],
    ip       inet,
    meta     jsonb
);

SELECT serde_register('SmokeInvoice', 'smoke_invoice',
    '{"fields": {"total": {"name": "amount_due"},
                 "created": {"format": "unix"},
                 "meta": {"default": {}}}}');
SELECT name, target, version > 0 AS has_version FROM serde.shapes WHERE name = 'SmokeInvoice';

-- a good document, typed form (LATERAL), record form, all four document types
SELECT d.* FROM serde_decode(NULL::smoke_invoice,
    '{"id": "in_1", "amount_due": 1250, "status": "open", "created": 1700000000,
      "lines": [{"sku": "a", "qty": 2, "price": 3.5}, {"sku": "b", "qty": 1, "price": 12}],
      "ip": "10.0.0.1", "extra": [true, null]}') d;
SELECT serde_decode('SmokeInvoice',
    '{"id": "in_2", "amount_due": 0, "status": "paid", "created": 0, "lines": [], "ip": "::1",
      "meta": {"k": "v"}}');
SELECT (d).id, (d).total FROM (SELECT serde_decode(NULL::smoke_invoice,
    '{"id": "in_3", "amount_due": 3, "status": "draft", "created": 1, "lines": [], "ip": "::1"}'::json) AS d) s;
SELECT (d).id, (d).meta FROM (SELECT serde_decode(NULL::smoke_invoice,
    '{"id": "in_4", "amount_due": 4, "status": "draft", "created": 1, "lines": [], "ip": "::1", "meta": {"b": 1, "a": 2}}'::jsonb) AS d) s;
SELECT (d).id FROM (SELECT serde_decode(NULL::smoke_invoice,
    convert_to('{"id": "in_5", "amount_due": 5, "status": "draft", "created": 1, "lines": [], "ip": "::1"}', 'UTF8')) AS d) s;
SELECT (serde_decode(NULL::smoke_invoice,
    '{"id": "in_6", "amount_due": 6, "status": "draft", "created": 1, "lines": [], "ip": "::1"}',
    'SmokeInvoice')).id;

-- bad documents: each error names the place
SELECT serde_decode(NULL::smoke_invoice, '{"id": "in_1", "amount_due": "12",
    "status": "open", "created": 1, "lines": [], "ip": "::1"}');
SELECT serde_decode(NULL::smoke_invoice, '{"id": "in_1", "amount_due": 1,
    "status": "open", "created": 1, "lines": [{"sku": "a", "qty": 1.5, "price": 1}], "ip": "::1"}');
SELECT serde_decode(NULL::smoke_invoice, '{"id": "in_1", "amount_due": 1,
    "status": "void", "created": 1, "lines": [], "ip": "::1"}');
SELECT serde_decode(NULL::smoke_invoice, '{"id": "in_1", "amount_due": 1,
    "status": "open", "created": 1, "lines": [{"sku": "a", "qty": 1, "price": 1.234}], "ip": "::1"}');
SELECT serde_decode(NULL::smoke_invoice, '{"id": "in_1_much_too_long", "amount_due": 1,
    "status": "open", "created": 1, "lines": [], "ip": "::1"}');
SELECT serde_decode(NULL::smoke_invoice, '{"id": "in_1", "amount_due": -1,
    "status": "open", "created": 1, "lines": [], "ip": "::1"}');
SELECT serde_decode(NULL::smoke_invoice, '{"id": "in_1", "amount_due": 1,
    "status": "open", "created": 1, "lines": []}');
SELECT serde_decode(NULL::smoke_invoice, '{"id": "in_1", "amount_due": 1,
    "status": "open", "created": 1, "lines": [], "ip": "not an address"}');
SELECT serde_decode(NULL::smoke_invoice, '{"id": "in_1", "amount_due": 1,}');
SELECT serde_decode(NULL::smoke_invoice, '{"id": 7}'::jsonb);

-- serde_valid: false for serde's own checks, errors from other input functions still raise
SELECT serde_valid(NULL::smoke_invoice, '{"id": "in_1", "amount_due": 1,
    "status": "open", "created": 1, "lines": [], "ip": "::1"}') AS good,
       serde_valid(NULL::smoke_invoice, '{"id": "in_1", "amount_due": -1,
    "status": "open", "created": 1, "lines": [], "ip": "::1"}') AS domain_check,
       serde_valid('SmokeInvoice', '[1, 2') AS malformed,
       serde_valid(NULL::smoke_invoice, NULL::text) AS null_doc;
SELECT serde_valid(NULL::smoke_invoice, '{"id": "in_1", "amount_due": 1,
    "status": "open", "created": 1, "lines": [], "ip": "nope"}');

-- NULL and target rules
SELECT serde_decode(NULL::smoke_invoice, NULL::text) IS NULL AS null_doc;
SELECT serde_decode(NULL::text, '{}');
SELECT serde_decode('NoSuchShape', NULL::text);
SELECT serde_decode(ROW('x', 1, 'open', now(), '{}', '::1', '{}')::smoke_invoice, '{}');
SELECT serde_decode(NULL::smoke_line, '{}', 'SmokeInvoice');
SELECT serde_register('SmokeInt', 'int4');
SELECT serde_decode('SmokeInt', '1');
SELECT serde_decode(NULL::int4, '41', 'SmokeInt') + 1 AS answer;
SELECT serde_decode(NULL::int4[], '[1, 2, 3]');

-- registration errors
SELECT serde_register('SmokeBad', 'smoke_invoice', '{"fields": {"totl": {}}}');
SELECT serde_register('SmokeBad', 'smoke_invoice', '{"fields": {"total": {"default": -5}}}');
SELECT serde_register('SmokeBad', 'smoke_invoice', '{"fields": {"ip": {"default": "x"}}}');
SELECT serde_register('SmokeBad', 'smoke_invoice', '{"colour": "blue"}');
INSERT INTO serde.shapes (name, target, options) VALUES ('SmokeBad', 'smoke_invoice', '{"unknown": "maybe"}');
INSERT INTO serde.shapes (name, target) VALUES ('', 'int4');

-- describe
SELECT jsonb_pretty(serde_describe('SmokeInvoice'));

-- the plan cache: 1,000 decodes, one compile; re-registration recompiles once
SELECT serde_register('SmokeLine', 'smoke_line');
SELECT count(d.sku)
  FROM generate_series(1, 1000) g,
       LATERAL serde_decode(NULL::smoke_line, format('{"sku": "s%s", "qty": %s, "price": 1}', g, g)) d;
SELECT plans, compiles, invalidations, bytes > 0 AS has_bytes FROM serde_cache_stats();
ANALYZE serde.shapes;
SELECT (serde_decode(NULL::smoke_line, '{"sku": "a", "qty": 1, "price": 1}')).sku;
SELECT plans, compiles, invalidations FROM serde_cache_stats();
SELECT serde_register('SmokeLine', 'smoke_line', '{"fields": {"qty": {"name": "quantity"}}}');
SELECT (serde_decode(NULL::smoke_line, '{"sku": "a", "quantity": 1, "price": 1}')).qty;
SELECT plans, compiles, invalidations FROM serde_cache_stats();

-- clean up
SELECT serde_unregister('SmokeLine'), serde_unregister('SmokeLine');
SELECT serde_unregister('SmokeInt'), serde_unregister('SmokeInvoice');
DROP TYPE smoke_invoice, smoke_line, smoke_status;
DROP DOMAIN smoke_cents;
