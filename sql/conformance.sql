-- conformance.sql — JSONTestSuite (nst/JSONTestSuite, test_parsing/, 318 files) through
-- serde_errors(NULL::json, doc bytea), as raw bytes: every y_ file gives no rows, every n_ file
-- exactly one row with code 22P02, every i_ file anything but a crash — and every outcome (number of
-- rows, code, byte offset) is pinned below.  The files come from fixtures/jsontestsuite/
-- test_parsing.tsv (name, base64 of the exact bytes), made by test/conformance/gen.py; read
-- client-side with \copy, relative to the directory pg_regress runs in (the repository root).
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE TABLE conf_files (name text COLLATE "C" PRIMARY KEY, b64 text NOT NULL);
\copy conf_files FROM 'fixtures/jsontestsuite/test_parsing.tsv'
SELECT left(name, 2) AS prefix, count(*) AS files, sum(length(decode(b64, 'base64'))) AS bytes
  FROM conf_files GROUP BY 1 ORDER BY 1;

-- One outcome per file.  An error raised instead of rows (none expected) is caught and recorded as
-- rows = -1 with its SQLSTATE, so that one file cannot hide the others; a crash ends the test.
CREATE FUNCTION pg_temp.conf_outcome(doc bytea, OUT nrows int, OUT code text, OUT byte_offset bigint,
                                     OUT message text)
LANGUAGE plpgsql AS $f$
BEGIN
    SELECT count(*), min(e.code), min(e.byte_offset), min(e.message)
      INTO nrows, code, byte_offset, message
      FROM serde_errors(NULL::json, doc) e;
EXCEPTION WHEN OTHERS THEN
    nrows := -1; code := 'raised ' || SQLSTATE; byte_offset := NULL; message := SQLERRM;
END $f$;

CREATE TABLE conf_results AS
SELECT f.name, o.nrows, o.code, o.byte_offset, o.message
  FROM conf_files f, LATERAL pg_temp.conf_outcome(decode(f.b64, 'base64')) o;

-- ---- every file's outcome, pinned ----------------------------------------------------------------
SELECT name, nrows AS rows, code, byte_offset FROM conf_results ORDER BY name;

-- ---- the rules --------------------------------------------------------------------------------------
SELECT left(name, 2) AS prefix, nrows AS rows, code, count(*) AS files
  FROM conf_results GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
-- violations: y_ with any row, n_ without exactly one 22P02 row, anything that raised; all 0
SELECT count(*) FILTER (WHERE name LIKE 'y\_%' AND nrows <> 0) AS y_violations,
       count(*) FILTER (WHERE name LIKE 'n\_%' AND (nrows <> 1 OR code IS DISTINCT FROM '22P02'))
           AS n_violations,
       count(*) FILTER (WHERE nrows < 0) AS raised,
       count(*) AS files
  FROM conf_results;
-- malformed input is one row whose offset lies inside the document
SELECT count(*) AS bad_offsets
  FROM conf_results r JOIN conf_files f USING (name)
 WHERE r.nrows = 1 AND NOT (r.byte_offset BETWEEN 0 AND length(decode(f.b64, 'base64')));
-- the i_ files serde accepts and rejects, with the reason (implementation-defined, pinned)
SELECT name, nrows AS rows, message FROM conf_results WHERE name LIKE 'i\_%' ORDER BY name;

-- ---- the same verdicts from the other entry points ---------------------------------------------------
-- serde_valid over bytea agrees with serde_errors for every file
SELECT count(*) AS valid_disagrees
  FROM conf_results r JOIN conf_files f USING (name)
 WHERE serde_valid(NULL::json, decode(f.b64, 'base64')) IS DISTINCT FROM (r.nrows = 0);
-- text input (every file whose bytes are valid UTF-8 without NUL, so that it can be a text value)
-- gives the same rows, codes and offsets as bytea input
CREATE FUNCTION pg_temp.conf_text(doc bytea) RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
    RETURN convert_from(doc, 'UTF8');
EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
    RETURN NULL;
END $f$;
CREATE TABLE conf_text AS
SELECT name, pg_temp.conf_text(decode(b64, 'base64')) AS doc FROM conf_files;
SELECT count(*) AS text_files,
       count(*) FILTER (WHERE (SELECT (count(*), min(e.code), min(e.byte_offset))
                                 FROM serde_errors(NULL::json, t.doc) e)
                              IS DISTINCT FROM (r.nrows::bigint, r.code, r.byte_offset))
           AS text_disagrees
  FROM conf_text t JOIN conf_results r USING (name)
 WHERE t.doc IS NOT NULL;
-- PostgreSQL's own json parser accepts every y_ file that can be a text value and rejects every n_
-- file serde rejects; listed: the files where serde and json_in differ (only i_ files may appear)
CREATE FUNCTION pg_temp.pg_accepts(doc text) RETURNS boolean LANGUAGE plpgsql AS $f$
BEGIN
    PERFORM doc::json;
    RETURN true;
EXCEPTION WHEN OTHERS THEN
    RETURN false;
END $f$;
SELECT t.name, r.nrows = 0 AS serde_accepts, pg_temp.pg_accepts(t.doc) AS json_in_accepts
  FROM conf_text t JOIN conf_results r USING (name)
 WHERE t.doc IS NOT NULL AND (r.nrows = 0) IS DISTINCT FROM pg_temp.pg_accepts(t.doc)
 ORDER BY t.name;
-- every y_ file decoded into jsonb equals PostgreSQL's own jsonb of it; listed: the differences
-- (\u0000 cannot be stored in jsonb either way; a root JSON null is SQL NULL)
CREATE FUNCTION pg_temp.conf_jsonb(doc text, OUT pg text, OUT serde text) LANGUAGE plpgsql AS $f$
BEGIN
    BEGIN
        pg := doc::jsonb::text;
    EXCEPTION WHEN OTHERS THEN
        pg := 'ERROR ' || SQLSTATE;
    END;
    BEGIN
        serde := coalesce(serde_decode(NULL::jsonb, doc)::text, '<NULL>');
    EXCEPTION WHEN OTHERS THEN
        serde := 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
    END;
END $f$;
SELECT t.name, c.pg, c.serde
  FROM conf_text t, LATERAL pg_temp.conf_jsonb(t.doc) c
 WHERE t.name LIKE 'y\_%' AND c.pg IS DISTINCT FROM c.serde
 ORDER BY t.name;

DROP TABLE conf_text, conf_results, conf_files;
