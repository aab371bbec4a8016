-- bench/jsonb_share.sql — how much of serde's time on the jsonb-heavy fixtures is jsonb
-- construction: decodes 300 stored copies of k8s_deployment, jsonapi_compound and msk_event
-- (best of 15, µs per document, body::jsonb alongside), then ALTERs every jsonb attribute of
-- every composite type to json (a text copy) and decodes again.  It changes the types: run it in
-- a scratch database, from the project root:
--   createdb jx && psql -d jx -c 'CREATE EXTENSION serde' \
--       -f fixtures/sql/types.sql -f fixtures/sql/shapes.sql -f bench/jsonb_share.sql
\set k `cat fixtures/json/k8s_deployment.json`
\set j `cat fixtures/json/jsonapi_compound.json`
\set m `cat fixtures/json/msk_event.json`
CREATE TABLE tk AS SELECT :'k'::text AS body FROM generate_series(1,300);
CREATE TABLE tj AS SELECT :'j'::text AS body FROM generate_series(1,300);
CREATE TABLE tm AS SELECT :'m'::text AS body FROM generate_series(1,300);
ALTER TABLE tk ALTER body SET STORAGE EXTERNAL; ALTER TABLE tj ALTER body SET STORAGE EXTERNAL; ALTER TABLE tm ALTER body SET STORAGE EXTERNAL;
CREATE FUNCTION bench(q text, n int) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; best float8 := 1e9; x bigint;
BEGIN
  FOR i IN 1..n LOOP
    t0 := clock_timestamp(); EXECUTE q INTO x;
    best := least(best, extract(epoch from clock_timestamp() - t0) * 1e6 / 300);
  END LOOP;
  RETURN round(best::numeric, 2);
END $$;
SELECT 'jsonb' AS cols,
  bench('SELECT count(d.*) FROM tk, LATERAL serde_decode(NULL::k8s_deployment, body) d', 15) AS k8s_us,
  bench('SELECT count(d.*) FROM tj, LATERAL serde_decode(NULL::jsonapi_document, body) d', 15) AS jsonapi_us,
  bench('SELECT count(d.*) FROM tm, LATERAL serde_decode(NULL::msk_event, body) d', 15) AS msk_us,
  bench('SELECT count(body::jsonb) FROM tk', 15) AS k8s_cast, bench('SELECT count(body::jsonb) FROM tj', 15) AS jsonapi_cast, bench('SELECT count(body::jsonb) FROM tm', 15) AS msk_cast;
SELECT format('ALTER TYPE %s ALTER ATTRIBUTE %I TYPE json', a.attrelid::regclass, a.attname)
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
 WHERE c.relkind = 'c' AND a.atttypid = 'jsonb'::regtype AND NOT a.attisdropped \gexec
SELECT 'json' AS cols,
  bench('SELECT count(d.*) FROM tk, LATERAL serde_decode(NULL::k8s_deployment, body) d', 15) AS k8s_us,
  bench('SELECT count(d.*) FROM tj, LATERAL serde_decode(NULL::jsonapi_document, body) d', 15) AS jsonapi_us,
  bench('SELECT count(d.*) FROM tm, LATERAL serde_decode(NULL::msk_event, body) d', 15) AS msk_us;
