-- each_modes.sql — serde_decode_each and serde_decode_each_report read a batch the same way in
-- FROM (where the executor prefers materialize mode: the whole batch in one call, rows straight
-- into the tuplestore) and in the select list (value-per-call: rows stream, LIMIT stops the
-- reading): same rows, same errors, for text, NDJSON, jsonb and XML inputs, typed and record
-- forms, scalars, NULL items, on_error 'skip' and the report, rescans of a LATERAL call site,
-- and a tuplestore past work_mem.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;

CREATE DOMAIN em_qty AS int4 CHECK (VALUE > 0);
CREATE TYPE em_inv AS (id int8, sku text, qty em_qty);
SELECT serde_register('EmInv', 'em_inv', '{"unknown": "reject"}');
CREATE TABLE em_in (n int, body text);
INSERT INTO em_in VALUES
 (1, '[{"id": 1, "sku": "a", "qty": 1}, null, {"id": 2, "sku": "b", "qty": 2}]'),
 (2, E'{"id": 3, "sku": "c", "qty": 3}\n\n{"id": 4, "sku": "d", "qty": 4}'),
 (3, '[]'),
 (4, NULL),
 (5, '[{"id": 5, "sku": "e", "qty": 0}, {"id": "x"}, {"id": 6, "sku": "f", "qty": 6, "z": 1}, {"id": 7, "sku": "g", "qty": 7}]'),
 (6, '[{"id": 8, "sku": "h", "qty": 8}, {"id": 9, "sku": tru}, {"id": 10}]');

-- good batches: FROM and the select list give the same rows (rescans: one call site, six batches)
SELECT i.n, d.* FROM em_in i, LATERAL serde_decode_each(NULL::em_inv, i.body) d WHERE i.n <= 4 ORDER BY 1, 2;
SELECT n, (serde_decode_each(NULL::em_inv, body)).* FROM em_in WHERE n <= 4 ORDER BY 1, 2;
-- on_error 'skip': the same rows either way
SELECT i.n, d.* FROM em_in i, LATERAL serde_decode_each(NULL::em_inv, i.body, '', 'skip') d ORDER BY 1, 2;
SELECT n, (serde_decode_each(NULL::em_inv, body, '', 'skip')).* FROM em_in ORDER BY 1, 2;
-- the report: item by item, errors included (a domain CHECK, a kind, an unknown member, malformed JSON)
SELECT i.n, r.item, r.ok, r.row, r.code, r.path, r.message
  FROM em_in i, LATERAL serde_decode_each_report(NULL::em_inv, i.body) r ORDER BY 1, 2;
SELECT n, (r).item, (r).ok, (r).row, (r).code, (r).path, (r).message
  FROM (SELECT n, serde_decode_each_report(NULL::em_inv, body) r FROM em_in) s ORDER BY 1, 2;
-- the same, stored as jsonb (arrays only)
SELECT i.n, r.item, r.ok, r.row, r.code, r.path
  FROM em_in i, LATERAL serde_decode_each_report(NULL::em_inv, i.body::jsonb) r WHERE i.n IN (1, 3, 5) ORDER BY 1, 2;
SELECT n, (r).item, (r).ok, (r).row, (r).code, (r).path
  FROM (SELECT n, serde_decode_each_report(NULL::em_inv, body::jsonb) r FROM em_in WHERE n IN (1, 3, 5)) s ORDER BY 1, 2;
-- raise (the default): the first bad item's error, the same in FROM and in the select list
SELECT d.* FROM em_in i, LATERAL serde_decode_each(NULL::em_inv, i.body) d WHERE i.n = 5;
SELECT (serde_decode_each(NULL::em_inv, body)).* FROM em_in WHERE n = 5;
SELECT d.* FROM em_in i, LATERAL serde_decode_each(NULL::em_inv, i.body) d WHERE i.n = 6;
SELECT (serde_decode_each(NULL::em_inv, body)).* FROM em_in WHERE n = 6;
SELECT * FROM serde_decode_each(NULL::em_inv, '[{"id": 8, "sku": "h", "qty": 8}, {"id": 9, "sku": "i", "qty": 9}');
SELECT * FROM serde_decode_each(NULL::em_inv, '{"id": 1}'::jsonb);
-- scalars, the record form with a column definition list, XML, NULL shape
SELECT * FROM serde_decode_each(NULL::int4, '[1, null, 3]');
SELECT serde_decode_each(NULL::int4, '[1, null, 3]');
SELECT * FROM serde_decode_each('EmInv', '[{"id": 1, "sku": "a", "qty": 1}]') AS t(id int8, sku text, qty em_qty);
SELECT * FROM serde_decode_each_xml(NULL::int4, '<nums><n>1</n><n>2</n></nums>');
SELECT * FROM serde_decode_each_xml(NULL::int4, '<nums><n>1</n><n>x</n></nums>');
SELECT * FROM serde_decode_each(NULL::em_inv, '[]', NULL);
-- the report over serde.max_document_bytes: one row for the whole input
SET serde.max_document_bytes = 16;
SELECT * FROM serde_decode_each_report(NULL::em_inv, '[{"id": 1}, {"id": 2}, {"id": 3}]');
RESET serde.max_document_bytes;
-- more rows than work_mem holds: the tuplestore spills, every row comes back
SET work_mem = 64;
SELECT count(*), sum(d.id), sum(d.qty) FROM serde_decode_each(NULL::em_inv,
  (SELECT '[' || string_agg(format('{"id": %s, "sku": "%s", "qty": 1}', g, repeat('s', 40)), ',') || ']'
     FROM generate_series(1, 20000) g)) d;
RESET work_mem;
-- in a scrollable cursor (random access asked of the tuplestore)
BEGIN;
DECLARE em_c SCROLL CURSOR FOR SELECT * FROM serde_decode_each(NULL::int4, '[1, 2, 3]');
FETCH LAST FROM em_c;
FETCH FIRST FROM em_c;
COMMIT;

DROP TABLE em_in;
SELECT serde_unregister('EmInv');
DROP TYPE em_inv;
DROP DOMAIN em_qty;
