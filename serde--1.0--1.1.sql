-- serde--1.0--1.1.sql — from 1.0 to 1.1: ALTER EXTENSION serde UPDATE runs it on a 1.0
-- installation, and CREATE EXTENSION serde (1.1, the default) runs serde--1.0.sql and then it.
-- Released scripts never change: every later change to the SQL API goes into a new
-- serde--A--B.sql (test/upgrade.sh tests the update path with shapes kept).
--
-- 1.1: a COMMENT on every function and catalog object (\df+ and \dx+ show them); new functions
-- of this release come here too.

\echo Use "ALTER EXTENSION serde UPDATE TO '1.1'" to load this file. \quit

-- ---- comments on the 1.0 objects -------------------------------------------------------------

COMMENT ON SEQUENCE serde.shape_version IS
    'versions of serde.shapes rows: every INSERT or UPDATE of a shape takes the next value';
COMMENT ON FUNCTION serde.shapes_invalidate() IS
    'trigger on serde.shapes: tells every backend''s plan cache to re-check after a change';
COMMENT ON FUNCTION serde.shapes_validate() IS
    'trigger on serde.shapes: validates every written row like serde_register, stamps its version, and lets only the owner of a target type write its shapes';

-- registration and introspection
COMMENT ON FUNCTION serde_cache_stats() IS
    'this backend''s plan cache: plans cached, compiles, hits, invalidations, bytes';
--
COMMENT ON FUNCTION serde_describe(text) IS
    'the compiled shape as jsonb: every field, its document name, type and options';
--
COMMENT ON FUNCTION serde_register(text, regtype, jsonb) IS
    'create or replace a shape: its name, the type it decodes into (target) and its options (docs/reference.md, 3. Shape options); validated against the type, 22023 with the option''s path';
COMMENT ON FUNCTION serde_unregister(text) IS
    'drop a shape; false if it did not exist';

-- serde_decode
COMMENT ON FUNCTION serde_decode(anyelement, text) IS
    'decode a JSON document in text into the type of target (a NULL of that type), with the one shape registered for that type (none: default options); every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode(anyelement, text, text) IS
    'decode a JSON document in text into the type of target (a NULL of that type), with the shape named by the third argument; every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode(text, text) IS
    'decode a JSON document in text with the shape named by the first argument; the shape''s row as one record';
COMMENT ON FUNCTION serde_decode(anyelement, json) IS
    'decode a json document into the type of target (a NULL of that type), with the one shape registered for that type (none: default options); every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode(anyelement, json, text) IS
    'decode a json document into the type of target (a NULL of that type), with the shape named by the third argument; every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode(text, json) IS
    'decode a json document with the shape named by the first argument; the shape''s row as one record';
COMMENT ON FUNCTION serde_decode(anyelement, jsonb) IS
    'decode a jsonb document into the type of target (a NULL of that type), with the one shape registered for that type (none: default options); every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode(anyelement, jsonb, text) IS
    'decode a jsonb document into the type of target (a NULL of that type), with the shape named by the third argument; every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode(text, jsonb) IS
    'decode a jsonb document with the shape named by the first argument; the shape''s row as one record';
COMMENT ON FUNCTION serde_decode(anyelement, bytea) IS
    'decode a JSON document in bytea (UTF-8) into the type of target (a NULL of that type), with the one shape registered for that type (none: default options); every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode(anyelement, bytea, text) IS
    'decode a JSON document in bytea (UTF-8) into the type of target (a NULL of that type), with the shape named by the third argument; every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode(text, bytea) IS
    'decode a JSON document in bytea (UTF-8) with the shape named by the first argument; the shape''s row as one record';
COMMENT ON FUNCTION serde_decode(anyelement, xml) IS
    'decode an xml document into the type of target (a NULL of that type), with the one shape registered for that type (none: default options); every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode(anyelement, xml, text) IS
    'decode an xml document into the type of target (a NULL of that type), with the shape named by the third argument; every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode(text, xml) IS
    'decode an xml document with the shape named by the first argument; the shape''s row as one record';

-- serde_valid
COMMENT ON FUNCTION serde_valid(anyelement, text) IS
    'whether a JSON document in text decodes into the type of target (a NULL of that type), with the one shape registered for that type (none: default options) (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(anyelement, text, text) IS
    'whether a JSON document in text decodes into the type of target (a NULL of that type), with the shape named by the third argument (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(text, text) IS
    'whether a JSON document in text decodes with the shape named by the first argument (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(anyelement, json) IS
    'whether a json document decodes into the type of target (a NULL of that type), with the one shape registered for that type (none: default options) (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(anyelement, json, text) IS
    'whether a json document decodes into the type of target (a NULL of that type), with the shape named by the third argument (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(text, json) IS
    'whether a json document decodes with the shape named by the first argument (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(anyelement, jsonb) IS
    'whether a jsonb document decodes into the type of target (a NULL of that type), with the one shape registered for that type (none: default options) (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(anyelement, jsonb, text) IS
    'whether a jsonb document decodes into the type of target (a NULL of that type), with the shape named by the third argument (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(text, jsonb) IS
    'whether a jsonb document decodes with the shape named by the first argument (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(anyelement, bytea) IS
    'whether a JSON document in bytea (UTF-8) decodes into the type of target (a NULL of that type), with the one shape registered for that type (none: default options) (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(anyelement, bytea, text) IS
    'whether a JSON document in bytea (UTF-8) decodes into the type of target (a NULL of that type), with the shape named by the third argument (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(text, bytea) IS
    'whether a JSON document in bytea (UTF-8) decodes with the shape named by the first argument (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(anyelement, xml) IS
    'whether an xml document decodes into the type of target (a NULL of that type), with the one shape registered for that type (none: default options) (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(anyelement, xml, text) IS
    'whether an xml document decodes into the type of target (a NULL of that type), with the shape named by the third argument (false instead of a document error)';
COMMENT ON FUNCTION serde_valid(text, xml) IS
    'whether an xml document decodes with the shape named by the first argument (false instead of a document error)';

-- serde_errors
COMMENT ON FUNCTION serde_errors(anyelement, text) IS
    'every violation of a JSON document in text, decoded into the type of target (a NULL of that type), with the one shape registered for that type (none: default options): path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(anyelement, text, text) IS
    'every violation of a JSON document in text, decoded into the type of target (a NULL of that type), with the shape named by the third argument: path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(text, text) IS
    'every violation of a JSON document in text, decoded with the shape named by the first argument: path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(anyelement, json) IS
    'every violation of a json document, decoded into the type of target (a NULL of that type), with the one shape registered for that type (none: default options): path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(anyelement, json, text) IS
    'every violation of a json document, decoded into the type of target (a NULL of that type), with the shape named by the third argument: path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(text, json) IS
    'every violation of a json document, decoded with the shape named by the first argument: path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(anyelement, jsonb) IS
    'every violation of a jsonb document, decoded into the type of target (a NULL of that type), with the one shape registered for that type (none: default options): path, SQLSTATE, message, byte offset (NULL: jsonb has none), in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(anyelement, jsonb, text) IS
    'every violation of a jsonb document, decoded into the type of target (a NULL of that type), with the shape named by the third argument: path, SQLSTATE, message, byte offset (NULL: jsonb has none), in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(text, jsonb) IS
    'every violation of a jsonb document, decoded with the shape named by the first argument: path, SQLSTATE, message, byte offset (NULL: jsonb has none), in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(anyelement, bytea) IS
    'every violation of a JSON document in bytea (UTF-8), decoded into the type of target (a NULL of that type), with the one shape registered for that type (none: default options): path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(anyelement, bytea, text) IS
    'every violation of a JSON document in bytea (UTF-8), decoded into the type of target (a NULL of that type), with the shape named by the third argument: path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(text, bytea) IS
    'every violation of a JSON document in bytea (UTF-8), decoded with the shape named by the first argument: path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(anyelement, xml) IS
    'every violation of an xml document, decoded into the type of target (a NULL of that type), with the one shape registered for that type (none: default options): path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(anyelement, xml, text) IS
    'every violation of an xml document, decoded into the type of target (a NULL of that type), with the shape named by the third argument: path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors(text, xml) IS
    'every violation of an xml document, decoded with the shape named by the first argument: path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';

-- serde_decode_each
COMMENT ON FUNCTION serde_decode_each(text, text) IS
    'one row per element of a JSON array or newline-delimited JSON in text, decoded with the shape named by the first argument; rows stream as they are read, and the first error ends the statement';
COMMENT ON FUNCTION serde_decode_each(text, json) IS
    'one row per element of a JSON array or newline-delimited JSON in json, decoded with the shape named by the first argument; rows stream as they are read, and the first error ends the statement';
COMMENT ON FUNCTION serde_decode_each(text, jsonb) IS
    'one row per element of a jsonb array, decoded with the shape named by the first argument; rows stream as they are read, and the first error ends the statement';
COMMENT ON FUNCTION serde_decode_each(text, bytea) IS
    'one row per element of a JSON array or newline-delimited JSON in bytea (UTF-8), decoded with the shape named by the first argument; rows stream as they are read, and the first error ends the statement';

-- serde_decode_xml
COMMENT ON FUNCTION serde_decode_xml(anyelement, text) IS
    'decode XML held in text into the type of target (a NULL of that type), with the one shape registered for that type (none: default options); every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode_xml(anyelement, text, text) IS
    'decode XML held in text into the type of target (a NULL of that type), with the shape named by the third argument; every value checked, an error names the exact place';
COMMENT ON FUNCTION serde_decode_xml(text, text) IS
    'decode XML held in text with the shape named by the first argument; the shape''s row as one record';

-- serde_valid_xml
COMMENT ON FUNCTION serde_valid_xml(anyelement, text) IS
    'whether XML held in text decodes into the type of target (a NULL of that type), with the one shape registered for that type (none: default options) (false instead of a document error)';
COMMENT ON FUNCTION serde_valid_xml(anyelement, text, text) IS
    'whether XML held in text decodes into the type of target (a NULL of that type), with the shape named by the third argument (false instead of a document error)';
COMMENT ON FUNCTION serde_valid_xml(text, text) IS
    'whether XML held in text decodes with the shape named by the first argument (false instead of a document error)';

-- serde_errors_xml
COMMENT ON FUNCTION serde_errors_xml(anyelement, text) IS
    'every violation of XML held in text, decoded into the type of target (a NULL of that type), with the one shape registered for that type (none: default options): path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors_xml(anyelement, text, text) IS
    'every violation of XML held in text, decoded into the type of target (a NULL of that type), with the shape named by the third argument: path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';
COMMENT ON FUNCTION serde_errors_xml(text, text) IS
    'every violation of XML held in text, decoded with the shape named by the first argument: path, SQLSTATE, message, byte offset, in document order (at most serde.max_errors)';

-- ---- new in 1.1 ------------------------------------------------------------------------------

-- serde_infer: from sample documents to the CREATE TYPE + serde_register script that decodes
-- them (docs/reference.md, "From samples to a shape: serde_infer").  An aggregate; over one value
-- (SELECT serde_infer(doc)) it is the one-document form.
CREATE FUNCTION serde_infer_step(internal, text) RETURNS internal
LANGUAGE c STABLE PARALLEL SAFE AS 'MODULE_PATHNAME', 'serde_infer_step';
CREATE FUNCTION serde_infer_step(internal, text, jsonb) RETURNS internal
LANGUAGE c STABLE PARALLEL SAFE AS 'MODULE_PATHNAME', 'serde_infer_step';
CREATE FUNCTION serde_infer_step(internal, json) RETURNS internal
LANGUAGE c STABLE PARALLEL SAFE AS 'MODULE_PATHNAME', 'serde_infer_step';
CREATE FUNCTION serde_infer_step(internal, json, jsonb) RETURNS internal
LANGUAGE c STABLE PARALLEL SAFE AS 'MODULE_PATHNAME', 'serde_infer_step';
CREATE FUNCTION serde_infer_step(internal, jsonb) RETURNS internal
LANGUAGE c STABLE PARALLEL SAFE AS 'MODULE_PATHNAME', 'serde_infer_step';
CREATE FUNCTION serde_infer_step(internal, jsonb, jsonb) RETURNS internal
LANGUAGE c STABLE PARALLEL SAFE AS 'MODULE_PATHNAME', 'serde_infer_step';
CREATE FUNCTION serde_infer_step(internal, xml) RETURNS internal
LANGUAGE c STABLE PARALLEL SAFE AS 'MODULE_PATHNAME', 'serde_infer_step';
CREATE FUNCTION serde_infer_step(internal, xml, jsonb) RETURNS internal
LANGUAGE c STABLE PARALLEL SAFE AS 'MODULE_PATHNAME', 'serde_infer_step';
CREATE FUNCTION serde_infer_final(internal) RETURNS text
LANGUAGE c STABLE PARALLEL SAFE AS 'MODULE_PATHNAME', 'serde_infer_final';

CREATE AGGREGATE serde_infer(docs text) (SFUNC = serde_infer_step, STYPE = internal,
    FINALFUNC = serde_infer_final);
CREATE AGGREGATE serde_infer(docs text, options jsonb) (SFUNC = serde_infer_step,
    STYPE = internal, FINALFUNC = serde_infer_final);
CREATE AGGREGATE serde_infer(docs json) (SFUNC = serde_infer_step, STYPE = internal,
    FINALFUNC = serde_infer_final);
CREATE AGGREGATE serde_infer(docs json, options jsonb) (SFUNC = serde_infer_step,
    STYPE = internal, FINALFUNC = serde_infer_final);
CREATE AGGREGATE serde_infer(docs jsonb) (SFUNC = serde_infer_step, STYPE = internal,
    FINALFUNC = serde_infer_final);
CREATE AGGREGATE serde_infer(docs jsonb, options jsonb) (SFUNC = serde_infer_step,
    STYPE = internal, FINALFUNC = serde_infer_final);
CREATE AGGREGATE serde_infer(docs xml) (SFUNC = serde_infer_step, STYPE = internal,
    FINALFUNC = serde_infer_final);
CREATE AGGREGATE serde_infer(docs xml, options jsonb) (SFUNC = serde_infer_step,
    STYPE = internal, FINALFUNC = serde_infer_final);
COMMENT ON AGGREGATE serde_infer(text) IS 'the CREATE TYPE + serde_register script that decodes every sample (JSON, or XML when it starts with <)';
COMMENT ON AGGREGATE serde_infer(text, jsonb) IS 'serde_infer with options: name, prefix, schema, max_samples, enums, strict';
COMMENT ON AGGREGATE serde_infer(json) IS 'the CREATE TYPE + serde_register script that decodes every JSON sample';
COMMENT ON AGGREGATE serde_infer(json, jsonb) IS 'serde_infer with options: name, prefix, schema, max_samples, enums, strict';
COMMENT ON AGGREGATE serde_infer(jsonb) IS 'the CREATE TYPE + serde_register script that decodes every JSON sample';
COMMENT ON AGGREGATE serde_infer(jsonb, jsonb) IS 'serde_infer with options: name, prefix, schema, max_samples, enums, strict';
COMMENT ON AGGREGATE serde_infer(xml) IS 'the CREATE TYPE + serde_register script that decodes every XML sample';
COMMENT ON AGGREGATE serde_infer(xml, jsonb) IS 'serde_infer with options: name, prefix, schema, max_samples, enums, strict';
COMMENT ON FUNCTION serde_infer_final(internal) IS 'final function of the serde_infer aggregates: renders the script';
COMMENT ON FUNCTION serde_infer_step(internal, text) IS 'transition function of serde_infer(text): reads one sample into the model';
COMMENT ON FUNCTION serde_infer_step(internal, text, jsonb) IS 'transition function of serde_infer(text, jsonb): reads one sample into the model (options from the first row)';
COMMENT ON FUNCTION serde_infer_step(internal, json) IS 'transition function of serde_infer(json): reads one sample into the model';
COMMENT ON FUNCTION serde_infer_step(internal, json, jsonb) IS 'transition function of serde_infer(json, jsonb): reads one sample into the model (options from the first row)';
COMMENT ON FUNCTION serde_infer_step(internal, jsonb) IS 'transition function of serde_infer(jsonb): reads one sample into the model';
COMMENT ON FUNCTION serde_infer_step(internal, jsonb, jsonb) IS 'transition function of serde_infer(jsonb, jsonb): reads one sample into the model (options from the first row)';
COMMENT ON FUNCTION serde_infer_step(internal, xml) IS 'transition function of serde_infer(xml): reads one sample into the model';
COMMENT ON FUNCTION serde_infer_step(internal, xml, jsonb) IS 'transition function of serde_infer(xml, jsonb): reads one sample into the model (options from the first row)';

-- batches (docs/reference.md, "Batches and dead letters"): serde_decode_each streams and takes
-- on_error; its typed forms become one function with defaults (shape '' = the type's own shape),
-- so the 1.0 typed forms (2 and 3 arguments) are replaced. A view that calls them must be dropped
-- before the update and created again after it (a pg_dump restore needs nothing: it names the
-- function by its arguments, which resolve to the new one).
DROP FUNCTION serde_decode_each(anyelement, text);
DROP FUNCTION serde_decode_each(anyelement, text, text);
DROP FUNCTION serde_decode_each(anyelement, json);
DROP FUNCTION serde_decode_each(anyelement, json, text);
DROP FUNCTION serde_decode_each(anyelement, jsonb);
DROP FUNCTION serde_decode_each(anyelement, jsonb, text);
DROP FUNCTION serde_decode_each(anyelement, bytea);
DROP FUNCTION serde_decode_each(anyelement, bytea, text);

CREATE FUNCTION serde_decode_each(target anyelement, doc text, shape text DEFAULT '', on_error text DEFAULT 'raise')
RETURNS SETOF anyelement LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_typed';
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

COMMENT ON FUNCTION serde_decode_each(anyelement, text, text, text) IS
    'the rows of a JSON array or NDJSON (text), each item decoded into the type of target with the shape named by the third argument ('''' = the one registered for the type), streamed as they are read; on_error ''raise'' (default) or ''skip'' (bad items left out)';
COMMENT ON FUNCTION serde_decode_each_report(anyelement, text, text) IS
    'one row per item of a JSON array or NDJSON (text): item, ok, the decoded row or NULL, and the SQLSTATE, path and message of the first error of a bad item (a dead-letter feed)';
COMMENT ON FUNCTION serde_errors_each(anyelement, text) IS
    'every violation of every item of a JSON array or NDJSON (text), decoded into the type of target with the one shape registered for it: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each(anyelement, text, text) IS
    'every violation of every item of a JSON array or NDJSON (text), decoded into the type of target with the shape named by the third argument: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each(text, text) IS
    'every violation of every item of a JSON array or NDJSON (text), decoded with the named shape: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_decode_each(anyelement, json, text, text) IS
    'the rows of a JSON array or NDJSON (json), each item decoded into the type of target with the shape named by the third argument ('''' = the one registered for the type), streamed as they are read; on_error ''raise'' (default) or ''skip'' (bad items left out)';
COMMENT ON FUNCTION serde_decode_each_report(anyelement, json, text) IS
    'one row per item of a JSON array or NDJSON (json): item, ok, the decoded row or NULL, and the SQLSTATE, path and message of the first error of a bad item (a dead-letter feed)';
COMMENT ON FUNCTION serde_errors_each(anyelement, json) IS
    'every violation of every item of a JSON array or NDJSON (json), decoded into the type of target with the one shape registered for it: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each(anyelement, json, text) IS
    'every violation of every item of a JSON array or NDJSON (json), decoded into the type of target with the shape named by the third argument: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each(text, json) IS
    'every violation of every item of a JSON array or NDJSON (json), decoded with the named shape: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_decode_each(anyelement, jsonb, text, text) IS
    'the rows of a JSON array or NDJSON (jsonb), each item decoded into the type of target with the shape named by the third argument ('''' = the one registered for the type), streamed as they are read; on_error ''raise'' (default) or ''skip'' (bad items left out)';
COMMENT ON FUNCTION serde_decode_each_report(anyelement, jsonb, text) IS
    'one row per item of a JSON array or NDJSON (jsonb): item, ok, the decoded row or NULL, and the SQLSTATE, path and message of the first error of a bad item (a dead-letter feed)';
COMMENT ON FUNCTION serde_errors_each(anyelement, jsonb) IS
    'every violation of every item of a JSON array or NDJSON (jsonb), decoded into the type of target with the one shape registered for it: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each(anyelement, jsonb, text) IS
    'every violation of every item of a JSON array or NDJSON (jsonb), decoded into the type of target with the shape named by the third argument: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each(text, jsonb) IS
    'every violation of every item of a JSON array or NDJSON (jsonb), decoded with the named shape: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_decode_each(anyelement, bytea, text, text) IS
    'the rows of a JSON array or NDJSON (bytea), each item decoded into the type of target with the shape named by the third argument ('''' = the one registered for the type), streamed as they are read; on_error ''raise'' (default) or ''skip'' (bad items left out)';
COMMENT ON FUNCTION serde_decode_each_report(anyelement, bytea, text) IS
    'one row per item of a JSON array or NDJSON (bytea): item, ok, the decoded row or NULL, and the SQLSTATE, path and message of the first error of a bad item (a dead-letter feed)';
COMMENT ON FUNCTION serde_errors_each(anyelement, bytea) IS
    'every violation of every item of a JSON array or NDJSON (bytea), decoded into the type of target with the one shape registered for it: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each(anyelement, bytea, text) IS
    'every violation of every item of a JSON array or NDJSON (bytea), decoded into the type of target with the shape named by the third argument: item, path, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each(text, bytea) IS
    'every violation of every item of a JSON array or NDJSON (bytea), decoded with the named shape: item, path, SQLSTATE, message, byte offset';

-- XML batches (docs/reference.md, "Batches and dead letters"): the document's root element is the
-- batch, each of its child elements one item, decoded as serde_decode_xml decodes a document.
CREATE FUNCTION serde_decode_each_xml(target anyelement, doc text, shape text DEFAULT '', on_error text DEFAULT 'raise')
RETURNS SETOF anyelement LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_typed';
CREATE FUNCTION serde_decode_each_xml(shape text, doc text)
RETURNS SETOF record LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_shape';
CREATE FUNCTION serde_decode_each_report_xml(target anyelement, doc text, shape text DEFAULT '')
RETURNS TABLE (item int, ok boolean, "row" anyelement, code text, path text, message text)
LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_report';
CREATE FUNCTION serde_errors_each_xml(target anyelement, doc text)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each_xml(target anyelement, doc text, shape text)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each_xml(shape text, doc text)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_shape';
CREATE FUNCTION serde_decode_each_xml(target anyelement, doc xml, shape text DEFAULT '', on_error text DEFAULT 'raise')
RETURNS SETOF anyelement LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_typed';
CREATE FUNCTION serde_decode_each_xml(shape text, doc xml)
RETURNS SETOF record LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_shape';
CREATE FUNCTION serde_decode_each_report_xml(target anyelement, doc xml, shape text DEFAULT '')
RETURNS TABLE (item int, ok boolean, "row" anyelement, code text, path text, message text)
LANGUAGE c STABLE PARALLEL SAFE ROWS 100
AS 'MODULE_PATHNAME', 'serde_decode_each_report';
CREATE FUNCTION serde_errors_each_xml(target anyelement, doc xml)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each_xml(target anyelement, doc xml, shape text)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_typed';
CREATE FUNCTION serde_errors_each_xml(shape text, doc xml)
RETURNS TABLE (item int, path text, code text, message text, byte_offset bigint)
LANGUAGE c STABLE PARALLEL SAFE ROWS 10
AS 'MODULE_PATHNAME', 'serde_errors_each_shape';

COMMENT ON FUNCTION serde_decode_each_xml(anyelement, text, text, text) IS
    'the rows of an XML batch (text): each child element of the root element decoded into the type of target with the shape named by the third argument ('''' = the one registered for the type), streamed as they are read; on_error ''raise'' (default) or ''skip'' (bad items left out)';
COMMENT ON FUNCTION serde_decode_each_xml(text, text) IS
    'the rows of an XML batch (text): each child element of the root element decoded with the named shape into a record (column definition list)';
COMMENT ON FUNCTION serde_decode_each_report_xml(anyelement, text, text) IS
    'one row per child element of an XML batch (text): item, ok, the decoded row or NULL, and the SQLSTATE, XPath and message of the first error of a bad item (a dead-letter feed)';
COMMENT ON FUNCTION serde_errors_each_xml(anyelement, text) IS
    'every violation of every child element of an XML batch (text), decoded into the type of target with the one shape registered for it: item, XPath, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each_xml(anyelement, text, text) IS
    'every violation of every child element of an XML batch (text), decoded into the type of target with the shape named by the third argument: item, XPath, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each_xml(text, text) IS
    'every violation of every child element of an XML batch (text), decoded with the named shape: item, XPath, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_decode_each_xml(anyelement, xml, text, text) IS
    'the rows of an XML batch (xml): each child element of the root element decoded into the type of target with the shape named by the third argument ('''' = the one registered for the type), streamed as they are read; on_error ''raise'' (default) or ''skip'' (bad items left out)';
COMMENT ON FUNCTION serde_decode_each_xml(text, xml) IS
    'the rows of an XML batch (xml): each child element of the root element decoded with the named shape into a record (column definition list)';
COMMENT ON FUNCTION serde_decode_each_report_xml(anyelement, xml, text) IS
    'one row per child element of an XML batch (xml): item, ok, the decoded row or NULL, and the SQLSTATE, XPath and message of the first error of a bad item (a dead-letter feed)';
COMMENT ON FUNCTION serde_errors_each_xml(anyelement, xml) IS
    'every violation of every child element of an XML batch (xml), decoded into the type of target with the one shape registered for it: item, XPath, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each_xml(anyelement, xml, text) IS
    'every violation of every child element of an XML batch (xml), decoded into the type of target with the shape named by the third argument: item, XPath, SQLSTATE, message, byte offset';
COMMENT ON FUNCTION serde_errors_each_xml(text, xml) IS
    'every violation of every child element of an XML batch (xml), decoded with the named shape: item, XPath, SQLSTATE, message, byte offset';
