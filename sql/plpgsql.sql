-- plpgsql.sql — a PL/pgSQL function sees the shape changes it made itself at its next statement
-- (docs/reference.md, "Plan cache": a call site keeps its plan for the rest of the statement, and a statement of a
-- function is a statement too).  PL/pgSQL evaluates simple expressions such as
-- `r := serde_decode(...)` with one expression state, so with one call site, for every
-- statement of the function; all of them share the top-level statement's start and, when
-- nobody else commits, where its snapshot stands — only the command ID tells them apart
-- (issue 11 point 10).  `SELECT ... INTO` runs a new executor each time and serves as reference.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE TYPE pl_pair AS (a int4, b int4);

-- each iteration registers the shape with another default for b, then decodes a document
-- without b: by assignment (typed two-argument form, typed three-argument form, record form)
-- and by SELECT INTO; all four must see the default just registered
CREATE FUNCTION pg_temp.pl_loop() RETURNS TABLE (i int, assigned int, assigned_named int,
                                                 assigned_record int, selected int)
LANGUAGE plpgsql AS $f$
DECLARE r pl_pair; rn pl_pair; rr record; s pl_pair;
BEGIN
    FOR k IN 1..3 LOOP
        PERFORM serde_register('PlPair', 'pl_pair', format('{"fields": {"b": {"default": %s}}}', k * 10)::jsonb);
        r := serde_decode(NULL::pl_pair, '{"a": 1}');
        rn := serde_decode(NULL::pl_pair, '{"a": 1}', 'PlPair');
        rr := serde_decode('PlPair', '{"a": 1}');
        SELECT * INTO s FROM serde_decode(NULL::pl_pair, '{"a": 1}');
        i := k; assigned := r.b; assigned_named := rn.b; assigned_record := rr.b; selected := s.b;
        RETURN NEXT;
    END LOOP;
END $f$;
SELECT * FROM pg_temp.pl_loop();
-- the same inside a transaction block, and under REPEATABLE READ (one snapshot for the whole
-- transaction: only the command ID moves)
BEGIN;
SELECT * FROM pg_temp.pl_loop();
COMMIT;
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT * FROM pg_temp.pl_loop();
COMMIT;

-- unregistering inside the function: the next evaluation of the same assignment decodes with
-- the default options (b is then a missing required member), the named forms no longer find the
-- shape; registering again brings it back
CREATE FUNCTION pg_temp.pl_unregister() RETURNS TABLE (step text, typed text, named text)
LANGUAGE plpgsql AS $f$
DECLARE st text; msg text;
BEGIN
    FOREACH step IN ARRAY ARRAY['registered', 'unregistered', 'registered again'] LOOP
        IF step = 'unregistered' THEN
            PERFORM serde_unregister('PlPair');
        ELSE
            PERFORM serde_register('PlPair', 'pl_pair', '{"fields": {"b": {"default": 7}}}');
        END IF;
        BEGIN
            typed := serde_decode(NULL::pl_pair, '{"a": 1}')::text;
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
            typed := 'ERROR ' || st || ': ' || msg;
        END;
        BEGIN
            named := serde_decode(NULL::pl_pair, '{"a": 1}', 'PlPair')::text;
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
            named := 'ERROR ' || st || ': ' || msg;
        END;
        RETURN NEXT;
    END LOOP;
END $f$;
SELECT * FROM pg_temp.pl_unregister();

-- within one statement the call site keeps its plan (docs/reference.md, "Plan cache"): a query that re-registers the
-- shape on every row decodes all its rows with the plan its first row used
SELECT serde_register('PlPair', 'pl_pair', '{"fields": {"b": {"default": 1}}}');
SELECT g, (SELECT 1 FROM serde_register('PlPair', 'pl_pair', format('{"fields": {"b": {"default": %s}}}', 100 + g)::jsonb)) AS registered,
       (serde_decode(NULL::pl_pair, '{"a": 1}')).b AS b
  FROM generate_series(1, 3) g;
SELECT (serde_decode(NULL::pl_pair, '{"a": 1}')).b AS next_statement;

SELECT serde_unregister('PlPair');
DROP TYPE pl_pair;
