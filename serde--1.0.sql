-- serde--1.0.sql — the extension's install script: the shape catalog (schema serde: table,
-- version sequence, triggers) and every SQL-callable function.  The functions land in the schema
-- CREATE EXTENSION chooses; the catalog always lives in schema serde.

\echo Use "CREATE EXTENSION serde" to load this file. \quit

-- ---- the catalog ---------------------------------------------------------------------------

CREATE SCHEMA serde;
COMMENT ON SCHEMA serde IS 'serde''s shape catalog';

-- Every INSERT/UPDATE of a shape takes the next value: versions never repeat, even after a
-- DELETE and a new INSERT of the same name.
CREATE SEQUENCE serde.shape_version;

-- target is a regtype: pg_dump writes it as a type name, and no dependency on the type is
-- recorded (a dropped target makes using the shape fail with 42704).
CREATE TABLE serde.shapes (
    name    text COLLATE "C" PRIMARY KEY,
    target  regtype NOT NULL,
    options jsonb NOT NULL DEFAULT '{}',
    version bigint NOT NULL DEFAULT 0
);
COMMENT ON TABLE serde.shapes IS 'registered shapes: write through serde_register/serde_unregister';

REVOKE ALL ON SCHEMA serde FROM PUBLIC;
REVOKE ALL ON TABLE serde.shapes FROM PUBLIC;
REVOKE ALL ON SEQUENCE serde.shape_version FROM PUBLIC;

SELECT pg_catalog.pg_extension_config_dump('serde.shapes', '');
SELECT pg_catalog.pg_extension_config_dump('serde.shape_version', '');

CREATE FUNCTION serde.shapes_validate() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'serde_shapes_validate';
CREATE FUNCTION serde.shapes_invalidate() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'serde_shapes_invalidate';
REVOKE ALL ON FUNCTION serde.shapes_validate() FROM PUBLIC;
REVOKE ALL ON FUNCTION serde.shapes_invalidate() FROM PUBLIC;

-- Validates every written row exactly like serde_register and stamps its version; a row is
-- written, replaced or deleted only by the owner of its target type (and of every composite
-- that type decodes into through domains and arrays), TRUNCATE only by the owner of them all.
CREATE TRIGGER shapes_validate BEFORE INSERT OR UPDATE OR DELETE ON serde.shapes
    FOR EACH ROW EXECUTE FUNCTION serde.shapes_validate();
CREATE TRIGGER shapes_truncate BEFORE TRUNCATE ON serde.shapes
    FOR EACH STATEMENT EXECUTE FUNCTION serde.shapes_validate();
-- Tells every backend's plan cache to re-check (transactional: also undone by ROLLBACK).
CREATE TRIGGER shapes_invalidate AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON serde.shapes
    FOR EACH STATEMENT EXECUTE FUNCTION serde.shapes_invalidate();
-- Fire under session_replication_role = replica too.
ALTER TABLE serde.shapes ENABLE ALWAYS TRIGGER shapes_validate;
ALTER TABLE serde.shapes ENABLE ALWAYS TRIGGER shapes_truncate;
ALTER TABLE serde.shapes ENABLE ALWAYS TRIGGER shapes_invalidate;

-- ---- registration -----------------------------------------------------------------------------

-- register/unregister: SECURITY INVOKER with fully qualified bodies (no SET search_path, so
-- that the validation trigger names types the way the caller's search_path shows them).
CREATE FUNCTION serde_register(shape text, target regtype, options jsonb DEFAULT '{}')
RETURNS void
LANGUAGE sql VOLATILE PARALLEL UNSAFE SECURITY INVOKER
AS $$
    INSERT INTO serde.shapes AS s (name, target, options)
    VALUES ($1, $2, COALESCE($3, '{}'::pg_catalog.jsonb))
    ON CONFLICT (name) DO UPDATE SET target = EXCLUDED.target, options = EXCLUDED.options
$$;

CREATE FUNCTION serde_unregister(shape text)
RETURNS boolean
LANGUAGE sql VOLATILE PARALLEL UNSAFE SECURITY INVOKER
AS $$
    WITH gone AS (DELETE FROM serde.shapes WHERE name OPERATOR(pg_catalog.=) $1 RETURNING 1)
    SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 FROM gone
$$;

CREATE FUNCTION serde_describe(shape text)
RETURNS jsonb
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_describe';

CREATE FUNCTION serde_cache_stats()
RETURNS TABLE (plans int, compiles bigint, hits bigint, invalidations bigint, bytes bigint)
LANGUAGE c VOLATILE PARALLEL RESTRICTED ROWS 1
AS 'MODULE_PATHNAME', 'serde_cache_stats';

-- ---- decoding ---------------------------------------------------------------------------------
-- Not STRICT: the shape is resolved (and its errors raised) before a NULL document gives NULL.

-- text documents
CREATE FUNCTION serde_decode(target anyelement, doc text)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode(target anyelement, doc text, shape text)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode(shape text, doc text)
RETURNS record LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_shape';
CREATE FUNCTION serde_valid(target anyelement, doc text)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid(target anyelement, doc text, shape text)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid(shape text, doc text)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_shape';

-- json documents
CREATE FUNCTION serde_decode(target anyelement, doc json)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode(target anyelement, doc json, shape text)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode(shape text, doc json)
RETURNS record LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_shape';
CREATE FUNCTION serde_valid(target anyelement, doc json)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid(target anyelement, doc json, shape text)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid(shape text, doc json)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_shape';

-- jsonb documents
CREATE FUNCTION serde_decode(target anyelement, doc jsonb)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode(target anyelement, doc jsonb, shape text)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode(shape text, doc jsonb)
RETURNS record LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_shape';
CREATE FUNCTION serde_valid(target anyelement, doc jsonb)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid(target anyelement, doc jsonb, shape text)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid(shape text, doc jsonb)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_shape';

-- bytea documents
CREATE FUNCTION serde_decode(target anyelement, doc bytea)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode(target anyelement, doc bytea, shape text)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode(shape text, doc bytea)
RETURNS record LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_shape';
CREATE FUNCTION serde_valid(target anyelement, doc bytea)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid(target anyelement, doc bytea, shape text)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid(shape text, doc bytea)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_shape';

-- xml documents (docs/reference.md, "Functions"): the same forms on xml, and the *_xml forms for XML held in text
-- (an untyped literal is JSON text for serde_decode; a malformed ::xml value never reaches serde)
CREATE FUNCTION serde_decode(target anyelement, doc xml)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode(target anyelement, doc xml, shape text)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode(shape text, doc xml)
RETURNS record LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_shape';
CREATE FUNCTION serde_decode_xml(target anyelement, doc text)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode_xml(target anyelement, doc text, shape text)
RETURNS anyelement LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_typed';
CREATE FUNCTION serde_decode_xml(shape text, doc text)
RETURNS record LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_decode_shape';
CREATE FUNCTION serde_valid(target anyelement, doc xml)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid(target anyelement, doc xml, shape text)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid(shape text, doc xml)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_shape';
CREATE FUNCTION serde_valid_xml(target anyelement, doc text)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid_xml(target anyelement, doc text, shape text)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_typed';
CREATE FUNCTION serde_valid_xml(shape text, doc text)
RETURNS boolean LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'serde_valid_shape';

-- ---- all violations: serde_errors ---------------------------------------------------------------
-- Same argument forms as serde_valid.  Every violation in document order (capped by
-- serde.max_errors); malformed input yields one row; byte_offset is NULL for jsonb.

CREATE FUNCTION serde_errors(target anyelement, doc text)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors(target anyelement, doc text, shape text)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors(shape text, doc text)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_shape';

CREATE FUNCTION serde_errors(target anyelement, doc json)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors(target anyelement, doc json, shape text)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors(shape text, doc json)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_shape';

CREATE FUNCTION serde_errors(target anyelement, doc jsonb)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors(target anyelement, doc jsonb, shape text)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors(shape text, doc jsonb)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_shape';

CREATE FUNCTION serde_errors(target anyelement, doc bytea)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors(target anyelement, doc bytea, shape text)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors(shape text, doc bytea)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_shape';

-- xml documents: byte_offset is that of the offending element's '<' (the message's DETAIL, when
-- raised, gives its line and column)
CREATE FUNCTION serde_errors(target anyelement, doc xml)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors(target anyelement, doc xml, shape text)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors(shape text, doc xml)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_shape';
CREATE FUNCTION serde_errors_xml(target anyelement, doc text)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors_xml(target anyelement, doc text, shape text)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_typed';
CREATE FUNCTION serde_errors_xml(shape text, doc text)
RETURNS TABLE (path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_shape';

-- ---- batches: serde_decode_each, serde_decode_each_report, serde_errors_each ---------------------
-- (docs/reference.md, "Batches and dead letters").  A JSON array (first non-blank byte '[') or
-- newline-delimited JSON; jsonb must be an array.  Rows come as the input is read, one item at a
-- time (memory bounded by the largest item).  ROWS 100: the planner's estimate per call, as for
-- jsonb_populate_recordset and jsonb_array_elements.  The typed forms take the shape as an
-- optional third argument ('' = the one shape registered for the type; no shape is named '') and
-- on_error ('raise': the first error ends the statement; 'skip': bad items are left out).

CREATE FUNCTION serde_decode_each(target anyelement, doc text, shape text DEFAULT '', on_error text DEFAULT 'raise')
RETURNS SETOF anyelement LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_typed';
CREATE FUNCTION serde_decode_each(shape text, doc text)
RETURNS SETOF record LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_shape';
CREATE FUNCTION serde_decode_each_report(target anyelement, doc text, shape text DEFAULT '')
RETURNS TABLE (item int, ok boolean, "row" anyelement, code text, path text, message text)
LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_report';
CREATE FUNCTION serde_errors_each(target anyelement, doc text)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each(target anyelement, doc text, shape text)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each(shape text, doc text)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_shape';

CREATE FUNCTION serde_decode_each(target anyelement, doc json, shape text DEFAULT '', on_error text DEFAULT 'raise')
RETURNS SETOF anyelement LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_typed';
CREATE FUNCTION serde_decode_each(shape text, doc json)
RETURNS SETOF record LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_shape';
CREATE FUNCTION serde_decode_each_report(target anyelement, doc json, shape text DEFAULT '')
RETURNS TABLE (item int, ok boolean, "row" anyelement, code text, path text, message text)
LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_report';
CREATE FUNCTION serde_errors_each(target anyelement, doc json)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each(target anyelement, doc json, shape text)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each(shape text, doc json)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_shape';

CREATE FUNCTION serde_decode_each(target anyelement, doc jsonb, shape text DEFAULT '', on_error text DEFAULT 'raise')
RETURNS SETOF anyelement LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_typed';
CREATE FUNCTION serde_decode_each(shape text, doc jsonb)
RETURNS SETOF record LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_shape';
CREATE FUNCTION serde_decode_each_report(target anyelement, doc jsonb, shape text DEFAULT '')
RETURNS TABLE (item int, ok boolean, "row" anyelement, code text, path text, message text)
LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_report';
CREATE FUNCTION serde_errors_each(target anyelement, doc jsonb)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each(target anyelement, doc jsonb, shape text)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each(shape text, doc jsonb)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_shape';

CREATE FUNCTION serde_decode_each(target anyelement, doc bytea, shape text DEFAULT '', on_error text DEFAULT 'raise')
RETURNS SETOF anyelement LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_typed';
CREATE FUNCTION serde_decode_each(shape text, doc bytea)
RETURNS SETOF record LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_shape';
CREATE FUNCTION serde_decode_each_report(target anyelement, doc bytea, shape text DEFAULT '')
RETURNS TABLE (item int, ok boolean, "row" anyelement, code text, path text, message text)
LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_report';
CREATE FUNCTION serde_errors_each(target anyelement, doc bytea)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each(target anyelement, doc bytea, shape text)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each(shape text, doc bytea)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_shape';
