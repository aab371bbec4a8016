-- options.sql — the field options (name, path, optional, default, nullable, skip, format, shape)
-- and shape options (rename, unknown, extra, coerce, optional) of docs/reference.md, "Shape level" and "Field level", and the
-- inheritance of the policy options by nested composites without their own shape.
-- `result` is the decoded row as text, or "ERROR <SQLSTATE>: <message> [<DETAIL>]".
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
-- dec(type, doc, shape): the typed LATERAL form with an explicit shape, on one text document
CREATE FUNCTION pg_temp.dec(typ text, doc text, shape text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT decoded::text FROM serde_decode(NULL::%s, %L, %L) decoded', typ, doc, shape))
$f$;

CREATE TYPE op_point AS (x int4, y int4);
CREATE TYPE op_row AS (amount_due int8, customer_name text, head_sha text, pt op_point);
-- the shapes of a bare point are registered for op_pt: a nested composite without "shape" uses the
-- one shape of its type (op_point has none until the "shape" section)
CREATE TYPE op_pt AS (x int4, y int4);

-- ---- name --------------------------------------------------------------------------------------
SELECT serde_register('OpName', 'op_row', '{"optional": true, "fields": {
    "amount_due": {"name": "total", "optional": false}, "customer_name": {"name": "odd key"}}}');
SELECT doc, pg_temp.dec('op_row', doc, 'OpName') AS result FROM (VALUES
    ('{"total": 5, "odd key": "Ann"}'),
    ('{"total": 5, "amount_due": 7, "customer_name": "x"}'),
    ('{"amount_due": 7}'),
    ('{"total": "5"}'),
    ('{"total": 5, "odd key": 1}')
) v(doc);

-- ---- path --------------------------------------------------------------------------------------
SELECT serde_register('OpPath', 'op_row', '{"optional": true, "fields": {
    "head_sha": {"path": ["head", "sha"], "optional": false},
    "customer_name": {"path": ["customer", "profile", "name"]}}}');
SELECT doc, pg_temp.dec('op_row', doc, 'OpPath') AS result FROM (VALUES
    ('{"head": {"sha": "abc", "ref": "main"}}'),
    ('{"head": {"sha": "abc"}, "customer": {"profile": {"name": "Ann"}}}'),
    ('{"head": {"sha": "abc"}, "customer": {"profile": {}}}'),
    ('{"head": {"sha": "abc"}, "customer": {}}'),
    ('{"head": {"sha": "abc"}, "customer": null}'),
    ('{"head": {"sha": "abc"}, "customer": {"profile": 1}}'),
    ('{"head": {"sha": "abc"}, "customer": {"profile": {"name": 1}}}'),
    ('{"head": {"sha": null}}'),
    ('{"head": {"ref": "main"}}'),
    ('{"head": {}}'),
    ('{}'),
    ('{"head": null}'),
    ('{"head": "abc"}'),
    ('{"head": ["abc"]}'),
    ('{"head": {"sha": 1}}'),
    ('{"head": {"sha": "a"}, "head_sha": "b"}')
) v(doc);

-- ---- optional (field and shape) ------------------------------------------------------------------
SELECT serde_register('OpStrict', 'op_pt');
SELECT serde_register('OpOptX', 'op_pt', '{"fields": {"x": {"optional": true}}}');
SELECT serde_register('OpOptAll', 'op_pt', '{"optional": true, "fields": {"y": {"optional": false}}}');
SELECT doc, pg_temp.dec('op_pt', doc, 'OpStrict') AS strict,
            pg_temp.dec('op_pt', doc, 'OpOptX') AS x_optional,
            pg_temp.dec('op_pt', doc, 'OpOptAll') AS all_but_y_optional FROM (VALUES
    ('{"x": 1, "y": 2}'),
    ('{"y": 2}'),
    ('{"x": 1}'),
    ('{}'),
    ('{"x": null, "y": null}')
) v(doc);

-- ---- default: used when the member is missing, not when it is null -----------------------------
CREATE TYPE op_colour AS ENUM ('red', 'green');
CREATE TYPE op_defaults AS (n int4, t text, c op_colour, j jsonb, a int4[], p op_point, ts timestamptz, b bytea);
SELECT serde_register('OpDefault', 'op_defaults', '{"fields": {
    "n": {"default": 42}, "t": {"default": "none"}, "c": {"default": "green"},
    "j": {"default": {"k": [1, "two"]}}, "a": {"default": [1, 2]}, "p": {"default": {"x": 1, "y": 2}},
    "ts": {"default": 0, "format": "unix"}, "b": {"default": "aGk="}}}');
SELECT doc, pg_temp.dec('op_defaults', doc, 'OpDefault') AS result FROM (VALUES
    ('{}'),
    ('{"n": 1, "t": "x", "c": "red", "j": null, "a": [], "p": {"x": 0, "y": 0}, "ts": 1, "b": ""}'),
    ('{"n": null, "t": null, "c": null, "j": null, "a": null, "p": null, "ts": null, "b": null}'),
    ('{"n": "1"}')
) v(doc);
-- a default given as JSON null means NULL when missing; an optional field defaults to NULL
SELECT serde_register('OpDefaultNull', 'op_pt', '{"fields": {"x": {"default": null}}}');
SELECT pg_temp.dec('op_pt', '{"y": 1}', 'OpDefaultNull') AS default_null;

-- ---- nullable ----------------------------------------------------------------------------------
SELECT serde_register('OpNotNull', 'op_pt', '{"fields": {
    "x": {"nullable": false}, "y": {"nullable": false, "optional": true}}}');
SELECT doc, pg_temp.dec('op_pt', doc, 'OpNotNull') AS result FROM (VALUES
    ('{"x": 1, "y": 2}'),
    ('{"x": 1}'),
    ('{"x": null, "y": 2}'),
    ('{"x": 1, "y": null}'),
    ('{"y": 2}')
) v(doc);
-- nullable false on an array column: the array may not be null, its elements may
CREATE TYPE op_list AS (xs int4[], pts op_point[]);
SELECT serde_register('OpListNotNull', 'op_list', '{"fields": {"xs": {"nullable": false}, "pts": {"optional": true}}}');
SELECT doc, pg_temp.dec('op_list', doc, 'OpListNotNull') AS result FROM (VALUES
    ('{"xs": [1, null]}'),
    ('{"xs": null}'),
    ('{"xs": [], "pts": [null, {"x": 1, "y": null}]}')
) v(doc);

-- ---- skip --------------------------------------------------------------------------------------
SELECT serde_register('OpSkip', 'op_pt', '{"fields": {"y": {"skip": true}}}');
SELECT serde_register('OpSkipReject', 'op_pt', '{"unknown": "reject", "fields": {"y": {"skip": true}}}');
SELECT doc, pg_temp.dec('op_pt', doc, 'OpSkip') AS skip,
            pg_temp.dec('op_pt', doc, 'OpSkipReject') AS skip_reject FROM (VALUES
    ('{"x": 1}'),
    ('{"x": 1, "y": 2}'),
    ('{"x": 1, "y": "not even an int"}'),
    ('{"y": 2}')
) v(doc);

-- ---- format (timestamps and bytea, also on array elements) --------------------------------------
CREATE TYPE op_fmt AS (t timestamptz, ts timestamptz[], b bytea, bs bytea[]);
SELECT serde_register('OpFormat', 'op_fmt', '{"optional": true, "fields": {
    "t": {"format": "unix_ms"}, "ts": {"format": "unix"}, "b": {"format": "hex"}, "bs": {"format": "base64url"}}}');
SELECT doc, pg_temp.try(format($q$SELECT concat_ws(' | ', to_char(d.t AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS'),
                (SELECT string_agg(to_char(x AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), ',') FROM unnest(d.ts) x),
                d.b::text, d.bs::text) FROM serde_decode(NULL::op_fmt, %L, 'OpFormat') d$q$, doc)) AS result
  FROM (VALUES
    ('{"t": 1700000000123}'),
    ('{"ts": [0, 86400]}'),
    ('{"b": "cafe", "bs": ["-_8", ""]}'),
    ('{"ts": [0, "1970-01-01T00:00:00Z"]}'),
    ('{"t": "2023-11-14T22:13:20Z"}'),
    ('{"bs": ["+/8"]}')
) v(doc);

-- format rfc2822 (RSS pubDate, e-mail and HTTP dates): optional weekday (checked), obsolete
-- zones and 2-digit years, -0000 is UTC; timestamp without time zone gets the UTC wall time
CREATE TYPE op_fmt2822 AS (t timestamptz, w timestamp, ts timestamptz[]);
SELECT serde_register('OpFormat2822', 'op_fmt2822', '{"optional": true, "fields": {
    "t": {"format": "rfc2822"}, "w": {"format": "rfc2822"}, "ts": {"format": "rfc2822"}}}');
SELECT doc, pg_temp.try(format($q$SELECT concat_ws(' | ', to_char(d.t AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                d.w::text, (SELECT string_agg(to_char(x AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), ',') FROM unnest(d.ts) x))
                FROM serde_decode(NULL::op_fmt2822, %L, 'OpFormat2822') d$q$, doc)) AS result
  FROM (VALUES
    ('{"t": "Tue, 10 Jun 2003 04:00:00 GMT"}'),
    ('{"t": "10 Jun 2003 00:00:00 EDT", "w": "Tue, 10 Jun 2003 06:30 +0230"}'),
    ('{"ts": ["Thu, 01 Jan 70 00:00:00 -0000", "Mon, 09 Jun 2003 21:00:00 PDT"]}'),
    ('{"t": "2003-06-10T04:00:00Z"}'),
    ('{"t": "Wed, 10 Jun 2003 04:00:00 GMT"}'),
    ('{"t": "Fri, 30 Feb 2024 04:00:00 GMT"}'),
    ('{"t": "10 Jun 2003 04:00:00 CET"}'),
    ('{"t": 1055217600}')
) v(doc);
SELECT serde_describe('OpFormat2822') -> 'fields' -> 0 -> 'format' AS described;
SELECT pg_temp.try($q$SELECT serde_register('OpFormat2822Bad', 'op_pt', '{"fields": {"x": {"format": "rfc2822"}}}')$q$) AS on_int;

-- ---- shape: a nested composite (or array of composites) decoded by another registered shape ------
-- (q names none: it uses the one shape of its type, OpPointCamel, and inherits unknown: reject)
CREATE TYPE op_outer AS (id int4, p op_point, ps op_point[], q op_point);
SELECT serde_register('OpPointCamel', 'op_point', '{"rename": "upper", "fields": {"y": {"optional": true}}}');
SELECT serde_register('OpOuter', 'op_outer', '{"unknown": "reject", "fields": {
    "p": {"shape": "OpPointCamel"}, "ps": {"shape": "OpPointCamel"}, "q": {"optional": true}}}');
SELECT doc, pg_temp.dec('op_outer', doc, 'OpOuter') AS result FROM (VALUES
    ('{"id": 1, "p": {"X": 1, "Y": 2}, "ps": [{"X": 3}, {"X": 4, "Y": 5}], "q": {"x": 6, "y": 7}}'),
    ('{"id": 1, "p": {"X": 1, "extra": true}, "ps": []}'),
    ('{"id": 1, "p": {"x": 1, "y": 2}, "ps": []}'),
    ('{"id": 1, "p": {"X": 1}, "ps": [{"X": 1}, {"Y": 1}]}'),
    ('{"id": 1, "p": {"X": 1}, "ps": [], "q": {"x": 1, "y": 2, "z": 3}}'),
    ('{"id": 1, "p": {"X": 1}, "ps": [], "q": {"X": 1, "Y": 2}}')
) v(doc);
-- op_point has no shape again below
SELECT serde_unregister('OpOuter') AND serde_unregister('OpPointCamel') AS unregistered;

-- ---- rename ------------------------------------------------------------------------------------
CREATE TYPE op_names AS (amount_due int4, id int4, tax_rate_2 int4, html_url text);
SELECT serde_register('OpCamel', 'op_names', '{"rename": "camel"}');
SELECT serde_register('OpPascal', 'op_names', '{"rename": "pascal"}');
SELECT serde_register('OpKebab', 'op_names', '{"rename": "kebab"}');
SELECT serde_register('OpUpper', 'op_names', '{"rename": "upper", "fields": {"html_url": {"name": "href"}}}');
SELECT shape, pg_temp.dec('op_names', doc, shape) AS result FROM (VALUES
    ('OpCamel',  '{"amountDue": 1, "id": 2, "taxRate2": 3, "htmlUrl": "u"}'),
    ('OpPascal', '{"AmountDue": 1, "Id": 2, "TaxRate2": 3, "HtmlUrl": "u"}'),
    ('OpKebab',  '{"amount-due": 1, "id": 2, "tax-rate-2": 3, "html-url": "u"}'),
    ('OpUpper',  '{"AMOUNT_DUE": 1, "ID": 2, "TAX_RATE_2": 3, "href": "u"}'),
    ('OpCamel',  '{"amount_due": 1, "id": 2, "taxRate2": 3, "htmlUrl": "u"}'),
    ('OpUpper',  '{"AMOUNT_DUE": 1, "ID": 2, "TAX_RATE_2": 3, "HTML_URL": "u"}')
) v(shape, doc);
-- the document names the shape maps, as serde_describe shows them
SELECT s.shape, string_agg(f->>'column' || '→' || (f->>'name'), ', ' ORDER BY ord) AS names
  FROM (VALUES ('OpCamel'), ('OpPascal'), ('OpKebab'), ('OpUpper')) s(shape),
       LATERAL jsonb_array_elements(serde_describe(s.shape)->'fields') WITH ORDINALITY AS e(f, ord)
 GROUP BY s.shape ORDER BY s.shape;

-- ---- unknown: ignore (default) / reject ----------------------------------------------------------
SELECT serde_register('OpIgnore', 'op_outer', '{"optional": true}');
SELECT serde_register('OpReject', 'op_outer', '{"optional": true, "unknown": "reject"}');
SELECT doc, pg_temp.dec('op_outer', doc, 'OpIgnore') AS "ignore",
            pg_temp.dec('op_outer', doc, 'OpReject') AS reject FROM (VALUES
    ('{"id": 1}'),
    ('{"id": 1, "nickname": "x"}'),
    ('{"nickname": {"deep": [1, 2]}, "id": 1}'),
    ('{"id": 1, "p": {"x": 1, "y": 2, "z": 3}}'),
    ('{"id": 1, "ps": [{"x": 1, "y": 2}, {"x": 1, "y": 2, "w": 0}]}'),
    ('{"id": 1, "ID": 2}')
) v(doc);
-- a path prefix member is not unknown
SELECT serde_register('OpRejectPath', 'op_row', '{"unknown": "reject", "optional": true, "fields": {
    "head_sha": {"path": ["head", "sha"]}}}');
SELECT doc, pg_temp.dec('op_row', doc, 'OpRejectPath') AS result FROM (VALUES
    ('{"head": {"sha": "abc"}, "amount_due": 1}'),
    ('{"head": {"sha": "abc", "ref": "main"}}'),
    ('{"heads": {}}')
) v(doc);

-- ---- extra: an object of all unmapped members ({} when none) -------------------------------------
CREATE TYPE op_extra AS (id int4, rest jsonb, p op_point);
CREATE TYPE op_extra_json AS (id int4, rest json);
SELECT serde_register('OpExtra', 'op_extra', '{"extra": "rest", "optional": true}');
SELECT serde_register('OpExtraJson', 'op_extra_json', '{"extra": "rest"}');
SELECT doc, pg_temp.dec('op_extra', doc, 'OpExtra') AS result FROM (VALUES
    ('{"id": 1}'),
    ('{"id": 1, "a": 1, "b": {"c": [true, null]}, "p": {"x": 1, "y": 2, "z": 3}}'),
    ('{"rest": {"x": 1}, "id": 2}'),
    ('{"id": 1, "a": [1, 2}')
) v(doc);
SELECT doc, pg_temp.dec('op_extra_json', doc, 'OpExtraJson') AS result FROM (VALUES
    ('{"id": 1}'),
    ('{"id": 1, "b":  2, "a": "\u00e9"}')
) v(doc);

-- ---- coerce ------------------------------------------------------------------------------------
CREATE TYPE op_coerce AS (t text, n numeric(6,2), f float8, i int4, b boolean, v varchar(3));
SELECT serde_register('OpCoerce', 'op_coerce', '{"optional": true, "coerce": true}');
SELECT serde_register('OpNoCoerce', 'op_coerce', '{"optional": true}');
SELECT doc, pg_temp.dec('op_coerce', doc, 'OpNoCoerce') AS strict,
            pg_temp.dec('op_coerce', doc, 'OpCoerce') AS coerce FROM (VALUES
    ('{"t": 12.50}'),
    ('{"t": -1e3}'),
    ('{"t": true}'),
    ('{"v": 1234}'),
    ('{"n": "12.5"}'),
    ('{"n": "12.555"}'),
    ('{"f": "2.5e3"}'),
    ('{"i": "7"}'),
    ('{"i": 7.0}'),
    ('{"i": "7.5"}'),
    ('{"b": "true"}'),
    ('{"b": "1"}'),
    ('{"b": 1}')
) v(doc);

-- ---- inheritance: nested composites without their own shape take the policy from above -------
CREATE TYPE op_leaf AS (leaf_value int4, leaf_name text);
CREATE TYPE op_mid AS (mid_leaf op_leaf, mid_leaves op_leaf[]);
CREATE TYPE op_top AS (top_mid op_mid);
SELECT serde_register('OpInherit', 'op_top', '{"rename": "camel", "unknown": "reject", "coerce": true, "optional": true}');
SELECT doc, pg_temp.dec('op_top', doc, 'OpInherit') AS result FROM (VALUES
    ('{"topMid": {"midLeaf": {"leafValue": "3", "leafName": 4}, "midLeaves": [{"leafValue": 1}]}}'),
    ('{"topMid": {"midLeaf": {}}}'),
    ('{}'),
    ('{"topMid": {"midLeaf": {"leaf_value": 1}}}'),
    ('{"topMid": {"midLeaves": [{}, {"leafValue": 1.5}]}}'),
    ('{"topMid": {"mid_leaf": {}}}')
) v(doc);
-- a nested composite with its own shape (named, or the one of its type) overrides what that shape
-- sets (rename) and inherits the rest (unknown, optional)
SELECT serde_register('OpLeafOwn', 'op_leaf', '{"rename": "kebab"}');
SELECT serde_register('OpInheritShape', 'op_mid', '{"rename": "camel", "unknown": "reject", "optional": true,
    "fields": {"mid_leaf": {"shape": "OpLeafOwn"}}}');
SELECT doc, pg_temp.dec('op_mid', doc, 'OpInheritShape') AS result FROM (VALUES
    ('{"midLeaf": {"leaf-value": 1, "leaf-name": "n", "other": 0}, "midLeaves": [{"leafValue": 2}]}'),
    ('{"midLeaf": {"leaf-value": 1}}'),
    ('{"midLeaf": {"leaf-value": "1", "leaf-name": "n"}}'),
    ('{"midLeaves": [{"leafValue": 2, "other": 0}]}')
) v(doc);

-- ---- clean up ----------------------------------------------------------------------------------
SELECT count(*) FILTER (WHERE serde_unregister(name)) AS unregistered
  FROM serde.shapes WHERE name LIKE 'Op%';
DROP TYPE op_top, op_mid, op_leaf, op_coerce, op_extra, op_extra_json, op_names, op_outer, op_fmt,
          op_list, op_defaults, op_colour, op_row, op_point, op_pt, op_fmt2822;
DROP FUNCTION pg_temp.dec(text, text, text), pg_temp.try(text);
