-- authoring.sql — one registration per document (docs/reference.md, "Nested composites and
-- inheritance", "Inline nested options", field-level "coerce"): a nested composite without "shape"
-- uses the one shape registered for its type (several: 22023), plans follow the nested shapes they
-- use; rename / unknown / coerce / optional flow down and a nested shape overrides only what it
-- sets; inline nested options; field-level coerce; serde_describe's "from"; a map's "shape" naming
-- its value type's shape; the same rules for XML documents.
-- `r` is the decoded row as text, or "ERROR <SQLSTATE>: <message> [<DETAIL>]".
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
CREATE EXTENSION IF NOT EXISTS dblink;
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
-- dec(shape, doc): the row of a JSON document as text; x(shape, doc): the same for XML
CREATE FUNCTION pg_temp.dec(shape text, doc text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT serde_decode(%L, %L)::text', shape, doc))
$f$;
CREATE FUNCTION pg_temp.x(shape text, doc text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT serde_decode_xml(%L, %L)::text', shape, doc))
$f$;
-- reg(shape, target, options): 'ok' or the error
CREATE FUNCTION pg_temp.reg(shape text, target text, options text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format($q$SELECT 'ok' FROM serde_register(%L, %L, %L)$q$, shape, target, options))
$f$;

-- ---- a nested composite uses the one shape of its type (two levels) ----------------------------
CREATE TYPE au_leaf AS (leaf_value int4, leaf_name text);
CREATE TYPE au_note AS (body text);
CREATE TYPE au_mid AS (mid_leaf au_leaf, mid_leaves au_leaf[]);
CREATE TYPE au_top AS (id int4, top_mid au_mid, note au_note);
SELECT serde_register('AuLeaf', 'au_leaf', '{"fields": {"leaf_value": {"name": "v"}}}'),
       serde_register('AuMid', 'au_mid', '{"fields": {"mid_leaf": {"name": "leaf"}}}'),
       serde_register('AuTop', 'au_top', '{"optional": true}');
SELECT pg_temp.dec('AuTop', '{"id": 1, "top_mid": {"leaf": {"v": 1, "leaf_name": "a"},
    "mid_leaves": [{"v": 2, "leaf_name": "b"}]}, "note": {"body": "n"}}') AS r;
-- AuTop's optional flows down through AuMid and AuLeaf, which do not set it
SELECT pg_temp.dec('AuTop', '{"top_mid": {"leaf": {}}}') AS r;
-- the typed form too: the root by its type's shape, the nested ones by theirs
SELECT d.id, (d.top_mid).mid_leaf FROM serde_decode(NULL::au_top, '{"id": 2, "top_mid": {"leaf": {"v": 3}}}') d;
SELECT f->>'column' AS col, f->>'shape' AS shape, f->'element'->>'shape' AS element_shape
  FROM jsonb_array_elements(serde_describe('AuTop')->'fields') f;

-- ---- plans follow the shapes they found by type (same session, cached plan) ---------------------
SELECT serde_register('AuLeaf', 'au_leaf', '{"fields": {"leaf_value": {"name": "value"}}}');
SELECT pg_temp.dec('AuTop', '{"top_mid": {"leaf": {"value": 4, "v": 5}}}') AS r;
-- a new shape for a nested type that had none
SELECT pg_temp.dec('AuTop', '{"note": {"body": "plain", "BODY": "upper"}}') AS before_aunote;
SELECT serde_register('AuNote', 'au_note', '{"rename": "upper"}');
SELECT pg_temp.dec('AuTop', '{"note": {"body": "plain", "BODY": "upper"}}') AS after_aunote;
SELECT serde_unregister('AuNote');
SELECT pg_temp.dec('AuTop', '{"note": {"body": "plain", "BODY": "upper"}}') AS after_unregister;

-- another session's plan follows too (it cached AuTop before the nested shape changed)
SELECT dblink_connect('au_peer', 'dbname=' || current_database());
SELECT r AS peer_before FROM dblink('au_peer', $$SELECT serde_decode('AuTop', '{"note": {"body": "b", "BODY": "B"}}')::text$$) AS t(r text);
SELECT serde_register('AuNote', 'au_note', '{"rename": "upper"}');
SELECT r AS peer_after FROM dblink('au_peer', $$SELECT serde_decode('AuTop', '{"note": {"body": "b", "BODY": "B"}}')::text$$) AS t(r text);
SELECT serde_unregister('AuNote');
SELECT r AS peer_unregistered FROM dblink('au_peer', $$SELECT serde_decode('AuTop', '{"note": {"body": "b", "BODY": "B"}}')::text$$) AS t(r text);
SELECT dblink_disconnect('au_peer');

-- registration order does not matter, also within one statement (rows validated one by one)
CREATE TYPE or_in AS (v int4);
CREATE TYPE or_out AS (i or_in);
INSERT INTO serde.shapes (name, target, options) VALUES ('OrOut', 'or_out', '{}'), ('OrIn', 'or_in', '{"rename": "upper"}');
SELECT pg_temp.dec('OrOut', '{"i": {"V": 1}}') AS parent_first;
DELETE FROM serde.shapes WHERE name IN ('OrOut', 'OrIn');
INSERT INTO serde.shapes (name, target, options) VALUES ('OrIn', 'or_in', '{"rename": "upper"}'), ('OrOut', 'or_out', '{}');
SELECT pg_temp.dec('OrOut', '{"i": {"V": 2}}') AS child_first;
UPDATE serde.shapes SET options = '{"rename": "camel", "fields": {"v": {"name": "w"}}}' WHERE name = 'OrIn';
SELECT pg_temp.dec('OrOut', '{"i": {"w": 3}}') AS after_update;

-- ---- several shapes for a nested type: the parent must choose -----------------------------------
SELECT serde_register('AuLeaf2', 'au_leaf', '{"rename": "upper"}');
-- a parent registered before the second shape existed fails when its plan is built again
SELECT pg_temp.dec('AuTop', '{"id": 1}') AS r;
SELECT pg_temp.reg('AuMid2', 'au_mid', '{}') AS ambiguous;
SELECT pg_temp.reg('AuMid2', 'au_mid', '{"fields": {"mid_leaf": {"shape": "AuLeaf2"}}}') AS one_chosen;
SELECT pg_temp.reg('AuMid2', 'au_mid', '{"fields": {"mid_leaf": {"shape": "AuLeaf2"}, "mid_leaves": {"shape": "AuLeaf"}}}') AS both_chosen;
SELECT pg_temp.dec('AuMid2', '{"mid_leaf": {"LEAF_VALUE": 1, "LEAF_NAME": "y"}, "mid_leaves": [{"value": 2, "leaf_name": "x"}]}') AS r;
-- with check_function_bodies off (as pg_dump scripts set it) such a row waits until first use,
-- like a reference to a shape restored later
SET check_function_bodies = off;
SELECT pg_temp.reg('AuMid3', 'au_mid', '{}') AS restored;
RESET check_function_bodies;
SELECT pg_temp.dec('AuMid3', '{}') AS r;
SELECT serde_unregister('AuLeaf2'), serde_unregister('AuMid2'), serde_unregister('AuMid3');
SELECT pg_temp.dec('AuTop', '{"id": 1, "top_mid": {"leaf": {"value": 6}}}') AS r;

-- ---- inheritance: each policy set at the top, overridden one level down, inherited below ----------
CREATE TYPE in_c AS (c_val int4, c_text text);
CREATE TYPE in_b AS (b_val int4, b_c in_c);
CREATE TYPE in_a AS (a_val int4, a_b in_b);
-- in_c has no shape: every level below a shape takes its policies
SELECT serde_register('InA', 'in_a', '{"rename": "camel", "unknown": "reject", "coerce": true, "optional": true}'),
       serde_register('InB', 'in_b', '{"rename": "upper"}');
SELECT doc, pg_temp.dec('InA', doc) AS r FROM (VALUES
    ('{"aVal": "1", "aB": {"B_VAL": "2", "B_C": {"C_VAL": "3"}}}'),
    ('{"aB": {"B_C": {"c_val": 3}}}'),
    ('{"aB": {"bVal": 2}}')
) v(doc);
SELECT serde_unregister('InB'), serde_unregister('InA');
-- one pair of shapes per policy: the top sets it, the middle overrides it, the bottom (no shape) inherits
SELECT serde_register('InBRename', 'in_b', '{"rename": "upper"}'),
       serde_register('InARename', 'in_a', '{"rename": "camel", "fields": {"a_b": {"shape": "InBRename"}}}'),
       serde_register('InBUnknown', 'in_b', '{"unknown": "ignore"}'),
       serde_register('InAUnknown', 'in_a', '{"unknown": "reject", "optional": true, "fields": {"a_b": {"shape": "InBUnknown"}}}'),
       serde_register('InBCoerce', 'in_b', '{"coerce": false}'),
       serde_register('InACoerce', 'in_a', '{"coerce": true, "optional": true, "fields": {"a_b": {"shape": "InBCoerce"}}}'),
       serde_register('InBOptional', 'in_b', '{"optional": false}'),
       serde_register('InAOptional', 'in_a', '{"optional": true, "fields": {"a_b": {"shape": "InBOptional"}}}');
-- "rename": "none" undoes an inherited rename
SELECT serde_register('InBNoRename', 'in_b', '{"rename": "none"}'),
       serde_register('InANoRename', 'in_a', '{"rename": "camel", "fields": {"a_b": {"shape": "InBNoRename"}}}');
SELECT pg_temp.dec('InANoRename', '{"aVal": 1, "aB": {"b_val": 2, "b_c": {"c_val": 3, "c_text": "t"}}}') AS r;
SELECT serde_describe('InANoRename') #> '{fields,1,from}' AS middle_from;
SELECT shape, doc, pg_temp.dec(shape, doc) AS r FROM (VALUES
    ('InARename', '{"aVal": 1, "aB": {"B_VAL": 2, "B_C": {"C_VAL": 3, "C_TEXT": "t"}}}'),
    ('InAUnknown', '{"zz": 0}'),
    ('InAUnknown', '{"a_b": {"zz": 0, "b_c": {"zz": 0, "c_val": 3}}}'),
    ('InACoerce', '{"a_val": "1"}'),
    ('InACoerce', '{"a_b": {"b_val": "2"}}'),
    ('InACoerce', '{"a_b": {"b_c": {"c_val": "3"}}}'),
    ('InAOptional', '{}'),
    ('InAOptional', '{"a_b": {"b_val": 2, "b_c": {"c_val": 3}}}'),
    ('InAOptional', '{"a_b": {"b_val": 2, "b_c": {"c_val": 3, "c_text": null}}}')
) v(shape, doc);
-- serde_describe: where each policy in force comes from, per composite
SELECT serde_describe('InACoerce') -> 'from' AS top,
       serde_describe('InACoerce') -> 'fields' -> 1 -> 'from' AS middle,
       serde_describe('InACoerce') -> 'fields' -> 1 -> 'fields' -> 1 -> 'from' AS bottom;
SELECT (serde_describe('InAOptional') -> 'fields' -> 1 -> 'fields' -> 1) - 'fields' AS bottom_optional;

-- ---- inline nested options (three levels deep) ---------------------------------------------------
CREATE TYPE cb_phase AS (phase_type text, duration int4, start_time timestamptz);
CREATE TYPE cb_detail AS (build_id text, phases cb_phase[]);
CREATE TYPE cb_event AS (id text, detail cb_detail);
-- cb_phase has a shape of its own: inline options replace it for that field
SELECT serde_register('CbPhase', 'cb_phase', '{"rename": "pascal"}');
SELECT serde_register('CbEvent', 'cb_event', '{"fields": {"detail": {"fields": {"phases": {"fields": {
    "duration": {"coerce": true}, "start_time": {"format": "unix", "optional": true}}}}}}}');
SELECT serde_register('CbEventByType', 'cb_event', '{}');
SELECT shape, pg_temp.dec(shape, doc) AS r FROM (VALUES
    ('CbEvent', '{"id": "e1", "detail": {"build_id": "b1", "phases": [{"phase_type": "SUBMITTED", "duration": 60.0, "start_time": 1504282349}, {"phase_type": "BUILD", "duration": "12"}]}}'),
    ('CbEvent', '{"id": "e1", "detail": {"build_id": "b1", "phases": [{"phase_type": "BUILD", "duration": 1.5}]}}'),
    ('CbEvent', '{"id": "e1", "detail": {"build_id": "b1", "phases": [{"PhaseType": "BUILD", "Duration": 1}]}}'),
    ('CbEventByType', '{"id": "e1", "detail": {"build_id": "b1", "phases": [{"PhaseType": "BUILD", "Duration": 1, "StartTime": "2017-09-01T16:12:29Z"}]}}')
) v(shape, doc);
SELECT (serde_describe('CbEvent') #> '{fields,1,fields,1,element,fields,1}') - 'xml' AS duration_field,
       serde_describe('CbEvent') #> '{fields,1,fields,1,element,from}' AS phase_from;
-- inline options are an anonymous shape: they inherit from above and override what they set
SELECT serde_register('CbEventCamel', 'cb_event', '{"rename": "camel", "unknown": "reject", "fields": {
    "detail": {"unknown": "ignore", "fields": {"phases": {"rename": "kebab"}}}}}');
SELECT pg_temp.dec('CbEventCamel', '{"id": "e", "detail": {"buildId": "b", "zz": 1, "phases": [{"phase-type": "T", "duration": 1, "zz": 2, "start-time": "2017-09-01T16:12:29Z"}]}}') AS r;
SELECT pg_temp.dec('CbEventCamel', '{"id": "e", "zz": 0}') AS r;
SELECT serde_describe('CbEventCamel') #> '{fields,1,fields,1,element,from}' AS phase_from;
-- "fields": {} decodes the type's columns under the policies above, without the type's shape
SELECT serde_register('CbEventPlain', 'cb_event', '{"fields": {"detail": {"fields": {"phases": {"fields": {}}}}}}');
SELECT pg_temp.dec('CbEventPlain', '{"id": "e", "detail": {"build_id": "b", "phases": [{"phase_type": "T", "duration": 1, "start_time": "2017-09-01T16:12:29Z"}]}}') AS r;

-- ---- errors of inline options, at their real option paths ----------------------------------------
SELECT options, pg_temp.reg('CbBad', 'cb_event', options) AS result FROM (VALUES
    ('{"fields": {"detail": {"shape": "CbDetail", "fields": {}}}}'),
    ('{"fields": {"detail": {"fields": {"phases": {"fields": {"duration": {"coerce": 1}}}}}}}'),
    ('{"fields": {"detail": {"fields": {"phases": {"fields": {"duration": {"strnig": 1}}}}}}}'),
    ('{"fields": {"detail": {"fields": {"phases": {"fields": {"duration": {"fields": {}}}}}}}}'),
    ('{"fields": {"detail": {"fields": {"nope": {}}}}}'),
    ('{"fields": {"detail": {"rename": "snake"}}}'),
    ('{"fields": {"detail": {"unknown": "strict"}}}'),
    ('{"fields": {"detail": {"fields": []}}}'),
    ('{"fields": {"detail": {"extra": "build_id"}}}'),
    ('{"fields": {"detail": {"tag": "kind"}}}'),
    ('{"fields": {"detail": {"xml": {"root": "Detail"}}}}'),
    ('{"fields": {"detail": {"xml": {"nspace": "urn:x"}}}}'),
    ('{"fields": {"id": {"xml": {"namespace": "urn:x"}}}}'),
    ('{"fields": {"id": {"rename": "camel"}}}'),
    ('{"fields": {"detail": {"fields": {"build_id": {"skip": true, "coerce": true}}}}}'),
    ('{"fields": {"detail": {"fields": {"fields": {}}}}}')
) v(options);

-- ---- field-level coerce: a scalar column, a composite column and its subtree ---------------------
CREATE TYPE fc_in AS (n int4, flag bool);
CREATE TYPE fc_row AS (a int4, b int4, t text, inner_ fc_in);
SELECT serde_register('FcRow', 'fc_row', '{"optional": true, "fields": {"a": {"coerce": true}, "inner_": {"coerce": true}}}'),
       serde_register('FcOff', 'fc_row', '{"optional": true, "coerce": true, "fields": {"b": {"coerce": false}, "inner_": {"coerce": false}}}');
SELECT shape, doc, pg_temp.dec(shape, doc) AS r FROM (VALUES
    ('FcRow', '{"a": "1", "inner_": {"n": "2", "flag": "true"}}'),
    ('FcRow', '{"b": "1"}'),
    ('FcRow', '{"t": 5}'),
    ('FcOff', '{"a": "1", "t": 5}'),
    ('FcOff', '{"b": "1"}'),
    ('FcOff', '{"inner_": {"n": "2"}}')
) v(shape, doc);
SELECT f->>'column' AS col, f->'coerce' AS field_coerce, f->'from' AS composite_from
  FROM jsonb_array_elements(serde_describe('FcRow')->'fields') f;

-- ---- a map's "shape" may name its value type's shape (or its (key, value) composite's) -------------
CREATE TYPE mp_kv AS (key text, value au_leaf);
CREATE TYPE mp_row AS (m mp_kv[]);
SELECT serde_register('MpValue', 'mp_row', '{"fields": {"m": {"map": true, "shape": "AuLeaf"}}}'),
       serde_register('MpEntry', 'mp_kv', '{"fields": {"value": {"name": "val"}}}'),
       serde_register('MpByEntry', 'mp_row', '{"fields": {"m": {"map": true, "shape": "MpEntry"}}}'),
       serde_register('MpByType', 'mp_row', '{"fields": {"m": {"map": true}}}');
SELECT shape, pg_temp.dec(shape, '{"m": {"k1": {"value": 1, "leaf_name": "a"}}}') AS r
  FROM unnest(ARRAY['MpValue', 'MpByEntry', 'MpByType']) shape;
SELECT pg_temp.reg('MpBad', 'mp_row', '{"fields": {"m": {"map": true, "shape": "InBRename"}}}') AS wrong_value_shape;

-- ---- XML: the same rules ---------------------------------------------------------------------------
SELECT pg_temp.x('AuTop', '<au_top><id>1</id><top_mid><leaf><value>1</value><leaf_name>a</leaf_name></leaf>'
    '<mid_leaves><value>2</value></mid_leaves><mid_leaves><value>3</value></mid_leaves></top_mid></au_top>') AS by_type;
SELECT shape, doc, pg_temp.x(shape, doc) AS r FROM (VALUES
    ('InARename', '<r><aVal>1</aVal><aB><B_VAL>2</B_VAL><B_C><C_VAL>3</C_VAL><C_TEXT>t</C_TEXT></B_C></aB></r>'),
    ('InAUnknown', '<r><a_b><zz/><b_c><zz/><c_val>3</c_val></b_c></a_b></r>'),
    ('InAUnknown', '<r><zz/></r>'),
    ('InACoerce', '<r><a_val>1.0</a_val></r>'),
    ('InACoerce', '<r><a_b><b_c><c_val>3.0</c_val></b_c></a_b></r>'),
    ('InAOptional', '<r><a_b><b_val>2</b_val><b_c><c_val>3</c_val></b_c></a_b></r>'),
    ('CbEvent', '<e><id>e1</id><detail><build_id>b1</build_id><phases><phase_type>BUILD</phase_type><duration>60.0</duration></phases></detail></e>'),
    ('CbEventByType', '<e><id>e1</id><detail><build_id>b1</build_id><phases><PhaseType>BUILD</PhaseType><Duration>60.0</Duration></phases></detail></e>'),
    ('FcRow', '<r><a>1.0</a><inner_><n>2.0</n></inner_></r>'),
    ('FcRow', '<r><b>1.0</b></r>')
) v(shape, doc);

-- inline "xml": {"namespace": ...}: the namespace of the nested composite's elements
CREATE TYPE xn_in AS (v int4);
CREATE TYPE xn_out AS (id int4, i xn_in);
SELECT serde_register('XnOut', 'xn_out', '{"fields": {"i": {"xml": {"namespace": "urn:i"}}}}');
SELECT pg_temp.x('XnOut', '<o><id>1</id><i><v xmlns="urn:i">2</v></i></o>') AS inline_namespace,
       pg_temp.x('XnOut', '<o><id>1</id><i><v>2</v></i></o>') AS no_namespace;
SELECT serde_describe('XnOut') -> 'fields' -> 1 -> 'xml_namespace' AS described;

-- ---- clean up -------------------------------------------------------------------------------------
SELECT count(*) FILTER (WHERE serde_unregister(name)) AS unregistered
  FROM serde.shapes WHERE name ~ '^(Au|In|Cb|Fc|Mp|Or|Xn)';
DROP TYPE mp_row, mp_kv, fc_row, fc_in, cb_event, cb_detail, cb_phase, in_a, in_b, in_c, au_top, au_mid,
          au_note, au_leaf, or_out, or_in, xn_out, xn_in;
