-- test/dump_restore/decode.sql — everything test/dump_restore.sh compares between the source
-- database and each restored copy: its output must be identical byte for byte.  Deterministic:
-- fixed settings, every query ordered; shape versions are left out (a restore stamps new ones).
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET IntervalStyle = 'postgres';
SET extra_float_digits = 1;
\pset pager off
\set SHOW_CONTEXT never
\set VERBOSITY default

\echo ==== the catalog
SELECT name, target, options FROM serde.shapes ORDER BY name COLLATE "C";
SELECT count(*) AS shapes, count(DISTINCT version) = count(*) AS versions_distinct,
       max(version) <= (SELECT last_value FROM serde.shape_version) AS sequence_ahead
  FROM serde.shapes;
SELECT 'schema serde' AS object, nspacl::text AS acl FROM pg_namespace WHERE nspname = 'serde'
UNION ALL SELECT c.relname, c.relacl::text FROM pg_class c
 WHERE c.relnamespace = 'serde'::regnamespace AND c.relkind IN ('r', 'S') ORDER BY 1;
SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'serde.shapes'::regclass AND NOT tgisinternal ORDER BY 1;

\echo ==== every shape, compiled
SELECT name, serde_describe(name) FROM serde.shapes ORDER BY name COLLATE "C";

\echo ==== every document, decoded by its shape (record form), from text and from jsonb
CREATE FUNCTION pg_temp.dr_try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(det, '') || ']', '');
END $f$;
SELECT file, shape,
       pg_temp.dr_try(format('SELECT serde_decode(%L, body)::text FROM inbox WHERE file = %L', shape, file)) AS from_text
  FROM inbox ORDER BY file COLLATE "C";
SELECT file,
       pg_temp.dr_try(format('SELECT serde_decode(%L, body_jsonb)::text FROM inbox WHERE file = %L', shape, file)) AS from_jsonb
  FROM inbox WHERE body_jsonb IS NOT NULL ORDER BY file COLLATE "C";

\echo ==== typed decodes (the one shape of each type)
SELECT to_jsonb(d) FROM inbox, LATERAL serde_decode(NULL::stripe_invoice, body) d WHERE file = 'stripe_invoice.json';
SELECT to_jsonb(d) FROM inbox, LATERAL serde_decode(NULL::gh_pull_request_event, body) d WHERE file = 'github_pull_request.json';
SELECT to_jsonb(d) FROM inbox, LATERAL serde_decode(NULL::k8s_deployment, body_jsonb) d WHERE file = 'k8s_deployment.json';
SELECT to_jsonb(d) FROM inbox, LATERAL serde_decode(NULL::jsonapi_document, body) d WHERE file = 'jsonapi_compound.json';
SELECT to_jsonb(d) FROM inbox, LATERAL serde_decode(NULL::msk_event, body) d WHERE file = 'msk_event.json';
SELECT to_jsonb(d) FROM inbox, LATERAL serde_decode(NULL::dr_top, body) d WHERE file = 'dr_top.json';

\echo ==== every violation of every document
SELECT i.file, e.path, e.code, e.message, e.byte_offset
  FROM inbox i, LATERAL serde_errors(i.shape, i.body) e ORDER BY i.file COLLATE "C", e.byte_offset, e.path;
SELECT file, serde_valid(shape, body) AS valid FROM inbox ORDER BY file COLLATE "C";

\echo ==== a batch
SELECT b.name, to_jsonb(r) FROM batches b, LATERAL serde_decode_each(NULL::msk_record, b.body) r ORDER BY 1, 2::text;

\echo ==== the tables of decoded rows
SELECT id, invoice::text FROM invoices ORDER BY id;
SELECT to_jsonb(d) FROM deployments d;
-- stored rows decode the same way now
SELECT (SELECT invoice FROM invoices ORDER BY id LIMIT 1)::text
       = (SELECT serde_decode(NULL::stripe_invoice, body)::text FROM inbox WHERE file = 'stripe_invoice.json') AS stored_equals_fresh;

\echo ==== summary
SELECT count(*) FILTER (WHERE serde_valid(shape, body)) || ' of ' || count(*) || ' documents valid' AS summary FROM inbox;
