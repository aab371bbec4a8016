-- cold_catalog.sql — reading serde.shapes in a fresh backend: a small catalog is read by a scan
-- of the table, a larger one (over four blocks) through its primary key (catalog.c); either
-- way a fresh backend finds the shape, sees a new version registered by another session, and
-- a dropped shape is gone.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
CREATE EXTENSION IF NOT EXISTS dblink;
RESET client_min_messages;

CREATE TYPE cc_row AS (a int4, b text);
SELECT serde_register('CcRow', 'cc_row', '{"fields": {"a": {"name": "x"}}}');
SELECT pg_relation_size('serde.shapes') <= 4 * current_setting('block_size')::int AS small;
\c
SELECT * FROM serde_decode(NULL::cc_row, '{"x": 1, "b": "s"}');
-- another session registers a new version: this backend sees it at its next statement
SELECT r FROM dblink('dbname=' || current_database(),
  $$SELECT serde_register('CcRow', 'cc_row', '{"fields": {"a": {"name": "y"}}}')::text$$) AS t(r text);
SELECT * FROM serde_decode(NULL::cc_row, '{"y": 2, "b": "t"}');

-- a catalog over four blocks: through the primary key
DO $$
BEGIN
  FOR i IN 1..500 LOOP
    PERFORM serde_register('CcPad' || i, 'cc_row', format('{"fields": {"b": {"name": "b%s"}}}', i)::jsonb);
  END LOOP;
END $$;
SELECT pg_relation_size('serde.shapes') > 4 * current_setting('block_size')::int AS large;
\c
SELECT * FROM serde_decode(NULL::cc_row, '{"a": 3, "b250": "u"}', 'CcPad250');
SELECT * FROM serde_decode(NULL::cc_row, '{"y": 4, "b": "v"}', 'CcRow');
SELECT r FROM dblink('dbname=' || current_database(),
  $$SELECT serde_register('CcPad250', 'cc_row', '{"fields": {"b": {"name": "z"}}}')::text$$) AS t(r text);
SELECT * FROM serde_decode(NULL::cc_row, '{"a": 5, "z": "w"}', 'CcPad250');
SELECT serde_unregister('CcPad7');
\c
SELECT * FROM serde_decode(NULL::cc_row, '{"a": 6}', 'CcPad7');
SELECT * FROM serde_decode(NULL::cc_row, '{"a": 6}', 'CcPad8');

DO $$
BEGIN
  FOR i IN 1..500 LOOP
    IF i <> 7 THEN PERFORM serde_unregister('CcPad' || i); END IF;
  END LOOP;
END $$;
SELECT serde_unregister('CcRow');
DROP TYPE cc_row;
