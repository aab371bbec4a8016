-- typmod.sql — the typmod of a typed call's target (docs/reference.md, "Types": varchar(n)/char(n) too long →
-- 22001, numeric(p,s) → 22003, never truncation or rounding) holds at the root as it does for a
-- column: numeric(5,2), varchar(2)[], char(4)[], timestamp(0), with the default options and with
-- a shape registered for the type (whose regtype has no typmod), in serde_decode (2 and 3
-- arguments), serde_valid, serde_errors and serde_decode_each, on text and jsonb documents.
-- `result` is the decoded value as text, or "ERROR <SQLSTATE>: <message> [<DETAIL>]".
SET client_min_messages = warning;   -- no NOTICE whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(det, '') || ']', '');
END $f$;

-- default options: the root's typmod, as a column's (text and jsonb documents)
SELECT target, doc,
       pg_temp.try(format('SELECT serde_decode(NULL::%s, %L::text)::text', target, doc)) AS text_result,
       pg_temp.try(format('SELECT serde_decode(NULL::%s, %L::jsonb)::text', target, doc)) AS jsonb_result
FROM (VALUES
    ('numeric(5,2)', '1000'),
    ('numeric(5,2)', '1.555'),
    ('numeric(5,2)', '1.5'),
    ('numeric', '1000.555'),
    ('varchar(2)[]', '["abcdef"]'),
    ('varchar(2)[]', '["ab", "c"]'),
    ('varchar[]', '["abcdef"]'),
    ('char(4)[]', '["abcdef"]'),
    ('char(4)[]', '["ab"]'),
    ('timestamp(0)', '"2024-01-01T00:00:00.7"'),
    ('timestamp(0)[]', '["2024-01-01T00:00:00.2"]'),
    -- other types take the typmod through their input function
    ('bit(3)[]', '["101", "1"]'),
    ('interval(0)[]', '["1.7 seconds"]')
) v(target, doc);

-- the same as a column (unchanged): the reference the root must match
CREATE TYPE tm_row AS (a numeric(5,2), b varchar(2)[]);
SELECT pg_temp.try($$SELECT serde_decode(NULL::tm_row, '{"a": 1000, "b": []}')::text$$) AS col_numeric,
       pg_temp.try($$SELECT serde_decode(NULL::tm_row, '{"a": 1, "b": ["abcdef"]}')::text$$) AS col_varchar;

-- domains over a typmod'd type (their typmod is the domain's own), and arrays of them
CREATE DOMAIN tm_amount AS numeric(4,1);
CREATE DOMAIN tm_codes AS varchar(2)[];
SELECT pg_temp.try($$SELECT serde_decode(NULL::tm_amount, '1000')::text$$) AS domain_numeric,
       pg_temp.try($$SELECT serde_decode(NULL::tm_amount[], '[1.5, 1000]')::text$$) AS domain_array,
       pg_temp.try($$SELECT serde_decode(NULL::tm_codes, '["abc"]')::text$$) AS domain_varchar_array;

-- a shape registered for the type: the call's typmod applies (2- and 3-argument forms), and the
-- plan of one typmod is not used for another (nor for none)
SELECT serde_register('TmNumber', 'numeric');
SELECT serde_register('TmChar', 'bpchar');
SELECT target, doc, shape,
       pg_temp.try(format('SELECT serde_decode(NULL::%s, %L::text, %L)::text', target, doc, shape)) AS text_result,
       pg_temp.try(format('SELECT serde_decode(NULL::%s, %L::jsonb, %L)::text', target, doc, shape)) AS jsonb_result
FROM (VALUES
    ('numeric(5,2)', '1000', 'TmNumber'),
    ('numeric(5,2)', '1.5', 'TmNumber'),
    ('numeric(6,2)', '1000', 'TmNumber'),
    ('numeric(3,0)', '1000', 'TmNumber'),
    ('numeric', '1000.555', 'TmNumber'),
    ('char(4)', '"abcdef"', 'TmChar'),
    ('char(4)', '"ab"', 'TmChar'),
    ('char', '"ab"', 'TmChar')
) v(target, doc, shape);
-- the 2-argument form finds TmNumber for numeric
SELECT pg_temp.try($$SELECT serde_decode(NULL::numeric(5,2), '1000')::text$$) AS two_args,
       pg_temp.try($$SELECT serde_decode(NULL::numeric, '1000.555')::text$$) AS two_args_no_typmod;
-- char(n) pads, as a char(n) column does
SELECT serde_decode(NULL::char(4), '"ab"', 'TmChar') = 'ab'::char(4) AS padded_equal,
       octet_length(serde_decode(NULL::char(4), '"ab"', 'TmChar')) AS padded_bytes,
       octet_length(serde_decode(NULL::char(4), '"ab"'::jsonb, 'TmChar')) AS padded_bytes_jsonb;

-- serde_valid, serde_errors
SELECT serde_valid(NULL::numeric(5,2), '1000') AS valid_2, serde_valid(NULL::numeric(5,2), '1000', 'TmNumber') AS valid_3,
       serde_valid(NULL::varchar(2)[], '["abc"]'::jsonb) AS valid_jsonb,
       serde_valid(NULL::numeric(6,2), '1000', 'TmNumber') AS valid_wider;
SELECT * FROM serde_errors(NULL::varchar(2)[], '["abc", "de", "fghi"]');
SELECT * FROM serde_errors(NULL::varchar(2)[], '["abc", "de", "fghi"]'::jsonb);
SELECT * FROM serde_errors(NULL::numeric(5,2), '1.555', 'TmNumber');

-- serde_decode_each (SETOF anyelement): every row has the typmod
SELECT * FROM serde_decode_each(NULL::numeric(5,2), '[1.5, 2]');
SELECT * FROM serde_decode_each(NULL::numeric(5,2), '1.5
2', 'TmNumber');
SELECT pg_temp.try($$SELECT count(*)::text FROM serde_decode_each(NULL::numeric(5,2), '[1.5, 1000]')$$) AS each_array,
       pg_temp.try($$SELECT count(*)::text FROM serde_decode_each(NULL::numeric(5,2), '1.5
1000', 'TmNumber')$$) AS each_ndjson,
       pg_temp.try($$SELECT count(*)::text FROM serde_decode_each(NULL::varchar(2)[], '[["a"], ["abc"]]'::jsonb)$$) AS each_jsonb;

-- the typmod of a column or a cast expression, not only of a literal
CREATE TEMP TABLE tm_targets (amount numeric(5,2), codes varchar(2)[]);
INSERT INTO tm_targets VALUES (NULL, NULL);
SELECT pg_temp.try($$SELECT serde_decode(amount, '1000')::text FROM tm_targets$$) AS from_column,
       pg_temp.try($$SELECT serde_decode(codes, '["abc"]')::text FROM tm_targets$$) AS from_array_column,
       pg_temp.try($$SELECT serde_decode(CAST(NULL AS numeric(5,2)), '1000')::text$$) AS from_cast;

-- the record form: a column definition list that asks for a typmod the shape's type does not
-- decode is refused (the executor lets text pass as varchar(2), which would return "abcdef")
CREATE TYPE tm_rec AS (a text, n numeric, v varchar(2));
SELECT serde_register('TmRec', 'tm_rec'::regtype);
SELECT * FROM serde_decode('TmRec', '{"a":"abcdef","n":1.234,"v":"ab"}') AS t(a varchar(2), n numeric, v varchar(2));
SELECT * FROM serde_decode('TmRec', '{"a":"abcdef","n":1.234,"v":"ab"}') AS t(a text, n numeric(3,1), v varchar(2));
SELECT * FROM serde_decode('TmRec', '{"a":"abcdef","n":1.234,"v":"ab"}') AS t(a text, n numeric, v varchar(3));
SELECT * FROM serde_decode_each('TmRec', '[{"a":"abcdef","n":1,"v":"ab"}]') AS t(a varchar(2), n numeric, v varchar(2));
-- the type's own typmods, or none, are fine
SELECT * FROM serde_decode('TmRec', '{"a":"abcdef","n":1.234,"v":"ab"}') AS t(a text, n numeric, v varchar(2));
SELECT * FROM serde_decode('TmRec', '{"a":"abcdef","n":1.234,"v":"ab"}') AS t(a text, n numeric, v varchar);
SELECT serde_unregister('TmRec');
DROP TYPE tm_rec;

-- exponent forms are parsed once by the core (issue 12 item 8) and give exactly what numeric_in
-- gives: the value and the display scale (fraction digits written minus the exponent), with and
-- without a typmod; long ones still go through numeric_in
SELECT lit, serde_decode(NULL::numeric, lit, 'TmNumber')::text AS serde, lit::numeric::text AS numeric_in,
       serde_decode(NULL::numeric(12,4), lit, 'TmNumber')::text AS serde_12_4,
       lit::numeric(12,4)::text AS numeric_in_12_4,
       serde_decode(NULL::numeric, lit, 'TmNumber')::text = lit::numeric::text AND
       serde_decode(NULL::numeric(12,4), lit, 'TmNumber')::text = lit::numeric(12,4)::text AS same
FROM (VALUES ('1e2'), ('1.5e3'), ('1.50e1'), ('15e-1'), ('15E-4'), ('-2.5E+2'), ('0.0015e3'),
             ('0e5'), ('-0.00e1'), ('1e-4'), ('12345678.9e-3'), ('1E+7'), ('-0e0')) v(lit);
SELECT lit, serde_decode(NULL::numeric, lit, 'TmNumber')::text = lit::numeric::text AS same
FROM (VALUES ('1e18'), ('1e-19'), ('123456789012345678901e-3'), ('1.5e300'), ('-1e-300')) v(lit);
