-- cache.sql — the plan cache of one connection (docs/reference.md, "Catalog and plan cache") from the sqlite3 shell: a shape
-- compiles once and is reused across rows and statements; every change of serde_shapes made in
-- this connection is honoured by the next statement — serde_register, plain INSERT/UPDATE/DELETE
-- (the triggers bump version), a rolled-back transaction, ROLLBACK TO a savepoint, a change of
-- a shape it refers to — and nothing else recompiles (a write to another table, re-executing a
-- statement, a failed registration).  Changes from another connection: clients.py and client.c.
-- Only deltas of compiles and invalidations are printed (the view `delta`, reset by `seen`).
.load ./sqlite/serde
.mode list
.headers on
CREATE TEMP TABLE seen(compiles, invalidations);
INSERT INTO seen VALUES (0, 0);
CREATE TEMP VIEW delta AS SELECT s.compiles - seen.compiles AS compiles,
       s.invalidations - seen.invalidations AS invalidations FROM serde_cache_stats() s, seen;
CREATE TEMP TRIGGER delta_reset INSTEAD OF DELETE ON delta BEGIN
  UPDATE seen SET compiles = (SELECT compiles FROM serde_cache_stats()),
                  invalidations = (SELECT invalidations FROM serde_cache_stats());
END;
SELECT serde_register('Line', '{"fields": {"sku": {"type": "text"}}}');
SELECT serde_register('Order', '{"fields": {"id": {"type": "integer"}, "lines": {"type": {"list": {"shape": "Line"}}}}}');
CREATE TABLE inbox(body TEXT);
INSERT INTO inbox VALUES ('{"id": 1, "lines": [{"sku": "a"}]}'), ('{"id": 2, "lines": []}'), ('{"id": 3, "lines": [{"sku": "c", "qty": 2}]}');
-- first use compiles, once for all rows; the next statements reuse it
SELECT serde_decode('Order', body) FROM inbox;
SELECT * FROM delta; DELETE FROM delta;
SELECT serde_decode('Order', body) FROM inbox;
SELECT count(*) FROM inbox WHERE serde_valid('Order', body);
SELECT * FROM delta; DELETE FROM delta;
-- a write to another table: re-checked, not recompiled
INSERT INTO inbox VALUES ('{"id": 4, "lines": []}');
CREATE TABLE other(x); INSERT INTO other VALUES (1); DROP TABLE other;
SELECT count(serde_decode('Order', body)) FROM inbox;
SELECT * FROM delta; DELETE FROM delta;
-- the shape as a column value (no constant argument): still one compile
SELECT count(serde_decode(s, body)) FROM inbox, (SELECT 'Order' AS s UNION ALL SELECT 'Order');
SELECT * FROM delta; DELETE FROM delta;
-- serde_register: the next statement sees it
SELECT serde_register('Order', '{"fields": {"id": {"type": "text", "optional": true}, "lines": {"type": {"list": {"shape": "Line"}}}}}');
SELECT serde_decode('Order', body) FROM inbox LIMIT 1;
SELECT serde_decode('Order', '{"id": "x", "lines": []}');
SELECT * FROM delta; DELETE FROM delta;
-- a failed registration changes nothing
SELECT serde_register('Order', '{"fields": {"id": {"type": "int"}}}');
SELECT serde_decode('Order', '{"id": "x", "lines": []}');
SELECT * FROM delta; DELETE FROM delta;
-- plain SQL: UPDATE (the trigger bumps version), then INSERT OR REPLACE, then DELETE
UPDATE serde_shapes SET descriptor = '{"fields": {"id": {"type": "integer"}, "lines": {"type": {"list": {"shape": "Line"}}}}}' WHERE name = 'Order';
SELECT serde_decode('Order', '{"id": "x", "lines": []}');
SELECT serde_decode('Order', '{"id": 5, "lines": []}');
SELECT * FROM delta; DELETE FROM delta;
INSERT OR REPLACE INTO serde_shapes(name, descriptor) VALUES ('Order', '{"fields": {"id": {"type": "integer"}, "note": {"type": "text", "default": "none"}}}');
SELECT serde_decode('Order', '{"id": 5}');
SELECT * FROM delta; DELETE FROM delta;
-- a plain INSERT of a bad descriptor is accepted, and reported at first use with the shape's name
INSERT INTO serde_shapes(name, descriptor) VALUES ('Broken', '{"fields": {"a": {"type": "int"}}}');
SELECT serde_decode('Broken', '{}');
INSERT INTO serde_shapes(name, descriptor, version) VALUES ('Broken2', 'nope', 1);
SELECT serde_valid('Broken2', '{}');
DELETE FROM serde_shapes WHERE name LIKE 'Broken%';
SELECT * FROM delta; DELETE FROM delta;
-- a change of a shape it refers to
SELECT serde_register('Order', '{"fields": {"id": {"type": "integer"}, "lines": {"type": {"list": {"shape": "Line"}}}}}');
SELECT serde_decode('Order', '{"id": 1, "lines": [{"sku": "a"}]}');
UPDATE serde_shapes SET descriptor = '{"fields": {"sku": {"type": "text"}, "qty": {"type": "integer", "default": 1}}}' WHERE name = 'Line';
SELECT serde_decode('Order', '{"id": 1, "lines": [{"sku": "a"}]}');
SELECT * FROM delta; DELETE FROM delta;
-- a rolled-back transaction: inside it the change is seen, after it the old shape again
BEGIN;
UPDATE serde_shapes SET descriptor = '{"fields": {"sku": {"type": "integer"}}}' WHERE name = 'Line';
SELECT serde_decode('Order', '{"id": 1, "lines": [{"sku": 7}]}');
ROLLBACK;
SELECT serde_decode('Order', '{"id": 1, "lines": [{"sku": "a"}]}');
SELECT * FROM delta; DELETE FROM delta;
-- ROLLBACK TO a savepoint, with serde_register inside
BEGIN;
SAVEPOINT s;
SELECT serde_register('Line', '{"fields": {"code": {"type": "text", "name": "sku"}}}');
SELECT serde_decode('Order', '{"id": 1, "lines": [{"sku": "a"}]}');
ROLLBACK TO s;
SELECT serde_decode('Order', '{"id": 1, "lines": [{"sku": "a"}]}');
COMMIT;
SELECT serde_decode('Order', '{"id": 1, "lines": [{"sku": "a"}]}');
-- a deleted shape and one of the same name inserted again within one transaction
BEGIN;
DELETE FROM serde_shapes WHERE name = 'Line';
SELECT serde_decode('Order', '{"id": 1, "lines": []}');
INSERT INTO serde_shapes(name, descriptor) VALUES ('Line', '{"fields": {"sku": {"type": "text"}, "qty": {"type": "integer", "default": 1}}}');
SELECT serde_decode('Order', '{"id": 1, "lines": [{"sku": "a"}]}');
COMMIT;
-- unregister
SELECT serde_unregister('Order');
SELECT serde_decode('Order', '{}');
SELECT plans FROM serde_cache_stats();
