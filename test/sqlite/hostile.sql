-- hostile.sql — what a database file, a descriptor or a document can try against the SQLite
-- adapter, from the sqlite3 shell; output (stdout and stderr, with result codes: the shell
-- prints "(N)" after a message for every code but SQLITE_ERROR) compared with
-- expected/hostile.out by test/sqlite.sh.
--   1. one error path: one result code per condition whatever the format (JSON, XML); XML into
--      a json field is SQLITE_ERROR in SQLite's words; no PostgreSQL setting in a message;
--   2. a catalog that is not serde's (a view, a virtual table, a generated column, other
--      columns) is refused, and serde never re-enters itself (a view calling serde_decode used
--      to recurse until SIGSEGV, also with trusted_schema off);
--   3. names: a NUL in a shape or field name, fields that differ only in case, a field with the
--      document column's name: refused at registration; a tampered <vtab>_columns.ncols;
--   4. the plan cache's bounds (serde_config): entries and bytes, least recently used first.
.load ./sqlite/serde
.mode list
.headers off
-- ---- 1. errors -------------------------------------------------------------------------------
SELECT serde_register('J', '{"fields": {"n": {"type": "integer", "optional": true}, "a": {"type": "json", "optional": true}}}');
-- XML into a json field: SQLITE_ERROR (no "(2)", SQLITE_INTERNAL), SQLite's words, the same in
-- every XML function
SELECT serde_decode_xml('J', '<J><a>1</a></J>');
SELECT serde_valid_xml('J', '<J><a>1</a></J>');
SELECT * FROM serde_errors_xml('J', '<J><a>1</a></J>');
-- a feature XML does not support (SD_E_UNSUPPORTED): SQLITE_ERROR
SELECT serde_register('U1', '{"fields": {"a": {"type": "json", "xml": "attribute"}}}');
SELECT serde_decode_xml('U1', '<U1 a="1"/>');
SELECT serde_valid_xml('U1', '<U1 a="1"/>');
-- the same condition, the same code, JSON or XML: too deep (18, SQLITE_TOOBIG), wrong kind
-- (20, SQLITE_MISMATCH), malformed (SQLITE_ERROR); no serde.max_depth in any message
SELECT serde_decode('J', '{"a": ' || replace(hex(zeroblob(600)), '00', '[') || replace(hex(zeroblob(600)), '00', ']') || '}');
SELECT serde_decode_xml('J', '<J>' || replace(hex(zeroblob(600)), '00', '<x>') || '</J>');
SELECT count(*) FROM serde_errors('J', '{"a": ' || replace(hex(zeroblob(600)), '00', '[') || replace(hex(zeroblob(600)), '00', ']') || '}') WHERE message LIKE '%serde.max%';
SELECT count(*) FROM serde_errors_xml('J', '<J>' || replace(hex(zeroblob(600)), '00', '<x>') || '</J>') WHERE message LIKE '%serde.max%';
SELECT serde_decode('J', '{"n": "x"}');
SELECT serde_decode_xml('J', '<J><n>x</n></J>');
SELECT serde_decode('J', '{"n": ');
SELECT serde_decode_xml('J', '<J><n>');
-- ---- 2. the catalog --------------------------------------------------------------------------
-- a view named serde_shapes calling serde_decode (a database file can hold one): refused, no
-- recursion; also with trusted_schema off (serde_decode is innocuous, views may call it)
CREATE TABLE real_shapes(name TEXT PRIMARY KEY, descriptor TEXT NOT NULL, version INTEGER NOT NULL);
DROP TABLE serde_shapes;
CREATE VIEW serde_shapes AS SELECT name, descriptor, version FROM real_shapes
  WHERE serde_valid(name, '{"x": 1}') IS NOT NULL;
INSERT INTO real_shapes VALUES ('V', '{"fields": {"x": {"type": "integer"}}}', 1);
SELECT serde_decode('V', '{"x": 1}');
SELECT serde_valid('V', '{"x": 1}');
SELECT * FROM serde_errors('V', '{"x": 1}');
SELECT serde_register('V2', '{"fields": {"x": {"type": "integer"}}}');
SELECT serde_unregister('V');
PRAGMA trusted_schema = OFF;
SELECT serde_decode('V', '{"x": 1}');
PRAGMA trusted_schema = ON;
DROP VIEW serde_shapes;
-- a generated column (SQLite keeps serde's functions out of one: not deterministic): not
-- serde's catalog either
CREATE TABLE serde_shapes(name TEXT PRIMARY KEY, descriptor TEXT NOT NULL,
  version INTEGER GENERATED ALWAYS AS (length(descriptor)) VIRTUAL);
INSERT INTO serde_shapes(name, descriptor) VALUES ('G', '{"fields": {"x": {"type": "integer"}}}');
SELECT serde_decode('G', '{"x": 1}');
DROP TABLE serde_shapes;
-- other columns: not serde's catalog either
CREATE TABLE serde_shapes(name TEXT PRIMARY KEY, descriptor TEXT, version INTEGER, extra TEXT);
SELECT serde_decode('G', '{"x": 1}');
SELECT serde_register('G', '{"fields": {"x": {"type": "integer"}}}');
DROP TABLE serde_shapes;
-- a virtual table
CREATE VIRTUAL TABLE serde_shapes USING fts5(name, descriptor, version);
SELECT serde_decode('G', '{"x": 1}');
DROP TABLE serde_shapes;
-- a real catalog whose trigger calls serde_decode while serde_register writes: re-entry refused
SELECT serde_register('T', '{"fields": {"x": {"type": "integer"}}}');
CREATE TEMP TABLE log(v);
CREATE TEMP TRIGGER t_log AFTER UPDATE ON main.serde_shapes BEGIN
  INSERT INTO log VALUES (serde_decode('T', '{"x": 1}'));
END;
SELECT serde_register('T', '{"fields": {"x": {"type": "integer"}, "y": {"type": "integer", "optional": true}}}');
SELECT count(*) FROM log;
DROP TRIGGER t_log;
-- plain SQL from outside serde is no re-entry: the same trigger works then
CREATE TEMP TRIGGER t_log AFTER UPDATE ON main.serde_shapes BEGIN
  INSERT INTO log VALUES (serde_decode('T', '{"x": 1}'));
END;
UPDATE serde_shapes SET descriptor = '{"fields": {"x": {"type": "integer"}}}' WHERE name = 'T';
SELECT v FROM log;
DROP TRIGGER t_log;
SELECT serde_decode('T', '{"x": 2}');
-- the check is kept while main's schema version stays; a view swapped in inside a transaction
-- (after a check there) is seen at once, and the rollback that removes it too
BEGIN;
SELECT serde_decode('T', '{"x": 3}');
ALTER TABLE serde_shapes RENAME TO kept_shapes;
CREATE VIEW serde_shapes AS SELECT name, descriptor, version FROM kept_shapes
  WHERE serde_valid(name, '{"x": 1}') IS NOT NULL;
SELECT serde_decode('T', '{"x": 4}');
ROLLBACK;
SELECT serde_decode('T', '{"x": 5}');
-- ---- 3. names --------------------------------------------------------------------------------
-- a NUL in a shape name (was cut: 'N' registered) or in a field name (\u0000 in the descriptor)
SELECT serde_register('N' || char(0) || 'x', '{"fields": {}}');
SELECT serde_register('N', '{"fields": {"a\u0000b": {"type": "text"}}}');
SELECT serde_register('N', '{"fields": {"a": {"type": "text", "name": "x\u0000y"}}}');
SELECT serde_register('N', CAST('{"fields": {"a' || char(0) || 'b": {"type": "text"}}}' AS TEXT));
SELECT count(*) FROM serde_shapes WHERE name LIKE 'N%';
-- an escaped backslash before u0000 is no NUL
SELECT serde_register('N', '{"fields": {"a\\u0000b": {"type": "text"}}}');
SELECT serde_decode('N', '{"a\\u0000b": "ok"}');
SELECT serde_unregister('N' || char(0) || 'x');
-- columns differ only in case, or take the document column's name: refused at registration
SELECT serde_register('C', '{"fields": {"A": {"type": "text"}, "a": {"type": "text"}}}');
SELECT serde_register('C', '{"fields": {"doc": {"type": "text"}, "serde_doc": {"type": "text"}}}');
SELECT serde_register('C', '{"fields": {"doc": {"type": "text"}, "SERDE_DOC": {"type": "text"}}}');
SELECT serde_register('C', '{"fields": {"x": {"type": "text"}, "y": {"type": "text", "name": "X"}, "X2": {"type": "text"}}}');
SELECT serde_register('C', '{"fields": {"x": {"type": "text"}, "Doc": {"type": "text"}}}');
CREATE VIRTUAL TABLE c USING serde(C);
SELECT * FROM c('{"x": "1", "Doc": "2"}');
-- a tampered shadow table: ncols does not move the document column
DROP TABLE c;
SELECT serde_register('P', '{"fields": {"a": {"type": "text"}, "b": {"type": "text"}}}');
CREATE VIRTUAL TABLE p USING serde(P);
SELECT * FROM p('{"a": "1", "b": "2"}');
UPDATE p_columns SET ncols = 1;
.open DBFILE
.load ./sqlite/serde
SELECT * FROM p('{"a": "1", "b": "2"}');
SELECT a FROM p WHERE b = '{"a": "3", "b": "4"}';
UPDATE p_columns SET ncols = 2;
.open DBFILE
.load ./sqlite/serde
SELECT * FROM p('{"a": "1", "b": "2"}');
-- ---- 4. the plan cache's bounds --------------------------------------------------------------
SELECT serde_config('cache_entries'), serde_config('cache_bytes');
SELECT serde_config('cache_entries', 2);
SELECT serde_register('L1', '{"fields": {"x": {"type": "integer"}}}'),
       serde_register('L2', '{"fields": {"x": {"type": "integer"}}}'),
       serde_register('L3', '{"fields": {"x": {"type": "integer"}}}');
SELECT serde_decode('L1', '{"x": 1}');
SELECT serde_decode('L2', '{"x": 1}');
SELECT serde_decode('L1', '{"x": 1}');
SELECT serde_decode('L3', '{"x": 1}');
-- L2 was the least recently used: L1 is still compiled, L2 compiles again
SELECT plans FROM serde_cache_stats();
CREATE TEMP TABLE c0 AS SELECT compiles FROM serde_cache_stats();
SELECT serde_decode('L1', '{"x": 1}');
SELECT s.compiles - c0.compiles FROM serde_cache_stats() s, c0;
SELECT serde_decode('L2', '{"x": 1}');
SELECT s.compiles - c0.compiles FROM serde_cache_stats() s, c0;
SELECT plans <= 2 FROM serde_cache_stats();
-- by bytes: 40 shapes of 300 fields under a 2 MB bound (each plan counts its sd_plan_bytes)
SELECT serde_config('cache_entries', 1000), serde_config('cache_bytes', 2000000);
WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < 300)
SELECT count(serde_register('W' || s.k, (SELECT '{"fields": {' || group_concat('"f' || n || '": {"type": "integer", "optional": true}', ', ') || '}}' FROM i)))
  FROM (WITH RECURSIVE k(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM k WHERE k < 40) SELECT k FROM k) s;
WITH RECURSIVE k(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM k WHERE k < 40)
SELECT count(serde_decode('W' || k, '{"f1": 1}')) FROM k;
SELECT bytes <= 2000000, bytes > 0, plans < 40, evictions > 0, cache_bytes, cache_entries FROM serde_cache_stats();
-- lowering a bound evicts at once; bad settings
SELECT serde_config('cache_entries', 0);
SELECT plans, bytes FROM serde_cache_stats();
SELECT serde_config('cache_bytes', -1);
SELECT serde_config('cache_entries', 'many');
SELECT serde_config('nope');
SELECT serde_config('cache_bytes', 67108864), serde_config('cache_entries', 64);
