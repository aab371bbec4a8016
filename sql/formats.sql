-- formats.sql — the formats real APIs send (docs/reference.md, "Formats"): timestamps "iso8601"
-- (date or date-time; offsets Z, ±hh, ±hhmm, ±hh:mm: W3C sitemap lastmod) and a pattern
-- {"pattern": ..., "zone": ...} (CLDR letters: AWS CodeBuild's "Sep 1, 2017 4:12:29 PM"); bytea
-- "base64_mime" (SOAP / XML-signature base64 wrapped in lines); multi-dimensional arrays of a
-- scalar array type from nested JSON arrays.  From JSON text, jsonb and XML, in defaults, with
-- every value error and the register-time errors at their option paths.
-- `result` is the decoded row as text, or "ERROR <SQLSTATE>: <message> [<DETAIL>]".
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';

CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(det, '') || ']', '');
END $f$;
CREATE FUNCTION pg_temp.dec(typ text, doc text, shape text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT decoded::text FROM serde_decode(NULL::%s, %L, %L) decoded', typ, doc, shape))
$f$;
CREATE FUNCTION pg_temp.decb(typ text, doc text, shape text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT decoded::text FROM serde_decode(NULL::%s, %L::jsonb, %L) decoded', typ, doc, shape))
$f$;
-- jsonb input gives what text input gives (errors: the same, without the byte offset)
CREATE FUNCTION pg_temp.same(typ text, doc text, shape text) RETURNS bool LANGUAGE sql AS $f$
    SELECT pg_temp.decb(typ, doc, shape) = regexp_replace(pg_temp.dec(typ, doc, shape), ' \[at byte offset \d+\]$', '')
$f$;
CREATE FUNCTION pg_temp.decx(typ text, doc text, shape text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT decoded::text FROM serde_decode_xml(NULL::%s, %L, %L) decoded', typ, doc, shape))
$f$;
CREATE FUNCTION pg_temp.reg(typ text, opts text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT serde_register(%L, %L, %L)::text', 'FmBad', typ, opts))
$f$;

-- ---- iso8601: a W3C sitemap <url> ----------------------------------------------------------------
-- timestamptz: a date alone is midnight UTC, a date-time needs an offset; timestamp: as written
CREATE TYPE fm_url AS (loc text, lastmod timestamptz, seen timestamp, days timestamptz[]);
SELECT serde_register('FmUrl', 'fm_url', '{"xml": {"root": "url", "namespace": "http://www.sitemaps.org/schemas/sitemap/0.9"},
    "optional": true, "fields": {"lastmod": {"format": "iso8601"}, "seen": {"format": "iso8601"},
    "days": {"format": "iso8601", "default": ["2004-11-23", "2004-11-23T12:00:00+01"]}}}');
SELECT doc, pg_temp.dec('fm_url', doc, 'FmUrl') AS json_text, pg_temp.same('fm_url', doc, 'FmUrl') AS jsonb_same
  FROM (VALUES
    ('{"loc": "http://www.example.com/", "lastmod": "2005-01-01"}'),
    ('{"lastmod": "2004-12-23T18:00:15+00:00"}'),
    ('{"lastmod": "2004-11-23"}'),
    ('{"lastmod": "2004-12-23T18:00:15+0530", "seen": "2004-12-23T18:00:15"}'),
    ('{"lastmod": "2004-12-23T18:00-05", "seen": "2004-12-23 18:00"}'),
    ('{"lastmod": "2004-12-23t18:00:15.5z", "seen": "2004-12-23T18:00:15,25+01:00"}'),
    ('{"lastmod": "2004-12-23T18:00:15.1234565Z"}'),
    ('{"lastmod": "2004-12-31T24:00:00Z", "seen": "2004-12-31T24:00"}'),
    ('{"lastmod": "2024-02-29T23:59:60Z"}'),
    ('{"lastmod": "2004-12-23T18:00:00+14:00", "days": ["2004-12-23T18:00:00-15:59"]}'),
    ('{"days": []}'),
    -- errors: no offset for timestamptz, grammar, ranges
    ('{"lastmod": "2004-12-23T18:00:15"}'),
    ('{"lastmod": "2004-12-23T18"}'),
    ('{"lastmod": "2004-12-23T18:00:15+5"}'),
    ('{"lastmod": "2004-12-23T18:00:15+05:3"}'),
    ('{"lastmod": "20041223T180015Z"}'),
    ('{"lastmod": "2004-12-23T18:00:15.Z"}'),
    ('{"lastmod": "2004-12-23 "}'),
    ('{"lastmod": "2023-02-29"}'),
    ('{"lastmod": "2004-13-01T00:00Z"}'),
    ('{"lastmod": "2004-12-23T24:00:01Z"}'),
    ('{"lastmod": "2004-12-23T23:60Z"}'),
    ('{"lastmod": "2004-12-23T18:00:00+16:00"}'),
    ('{"lastmod": "0000-12-31"}'),
    ('{"lastmod": "0001-01-01T00:30:00+01"}'),
    ('{"lastmod": "9999-12-31T24:00Z"}'),
    ('{"lastmod": 1104537600}'),
    ('{"days": ["2005-01-01", "2005-01-01T00:00"]}')
) v(doc);
-- XML: the sitemap's own elements (text goes through the same converter)
SELECT pg_temp.decx('fm_url', '<url xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><loc>http://www.example.com/catalog?item=12</loc><lastmod>2004-11-23</lastmod><days>2005-01-01</days><days> 2004-12-23T18:00:15+00:00 </days></url>', 'FmUrl') AS xml;
SELECT pg_temp.decx('fm_url', '<url xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><lastmod>2004-11-23T10:00</lastmod></url>', 'FmUrl') AS xml_error;
SELECT serde_describe('FmUrl') -> 'fields' -> 1 -> 'format' AS described;

-- ---- pattern: AWS CodeBuild's build times -------------------------------------------------------
CREATE TYPE fm_build AS (id text, start_time timestamptz, end_time timestamptz, local_time timestamp,
    phases timestamptz[], logged timestamptz[], stamped timestamptz, day timestamptz);
SELECT serde_register('FmBuild', 'fm_build', '{"optional": true, "fields": {
    "start_time": {"name": "startTime", "format": {"pattern": "MMM d, yyyy h:mm:ss a", "zone": "UTC"}},
    "end_time": {"name": "endTime", "format": {"pattern": "MMM d, yyyy h:mm:ss a", "zone": "-07:00"}},
    "local_time": {"format": {"pattern": "dd/MM/yyyy HH:mm:ss.SSS"}},
    "phases": {"format": {"pattern": "MMM d, yyyy h:mm:ss a", "zone": "+02:00"}},
    "logged": {"format": {"pattern": "EEE, d MMMM yyyy HH:mm:ss Z"}},
    "stamped": {"format": {"pattern": "yyyy-MM-dd''T''HH:mm:ss.SSSSSSSSSXXX"}},
    "day": {"format": {"pattern": "''day'' d ''of'' M, yyyy ''at'' H''h''mm (XX)"},
            "default": "day 1 of 9, 2017 at 16h12 (Z)"}}}');
SELECT doc, pg_temp.dec('fm_build', doc, 'FmBuild') AS json_text, pg_temp.same('fm_build', doc, 'FmBuild') AS jsonb_same
  FROM (VALUES
    ('{"id": "codebuild-demo-project:b1e6661e", "startTime": "Sep 1, 2017 4:12:29 PM", "endTime": "Sep 1, 2017 4:22:29 PM"}'),
    ('{"startTime": "Jan 1, 2018 12:00:00 AM", "endTime": "JAN 1, 2018 12:30:00 pm"}'),
    ('{"startTime": "Feb 29, 2024 11:59:59 PM", "local_time": "29/02/2024 23:59:59.999"}'),
    ('{"phases": ["Sep 1, 2017 4:12:29 PM", "Sep 10, 2017 10:00:00 AM"]}'),
    ('{"logged": ["Fri, 1 September 2017 16:12:29 +0200", "Sat, 2 september 2017 01:00:00 -0000"]}'),
    ('{"stamped": "2017-09-01T16:12:29.123456789+05:30"}'),
    ('{"day": "day 31 of 12, 2017 at 0h05 (-0130)"}'),
    -- errors
    ('{"startTime": "Sep 1 2017 4:12:29 PM"}'),
    ('{"startTime": "Sept 1, 2017 4:12:29 PM"}'),
    ('{"startTime": "Sep 1, 2017 4:12:29"}'),
    ('{"startTime": "Sep 1, 2017 4:12:29 PM UTC"}'),
    ('{"startTime": "Sep 1, 2017 13:12:29 PM"}'),
    ('{"startTime": "Sep 1, 2017 0:12:29 AM"}'),
    ('{"startTime": "Feb 29, 2023 1:00:00 PM"}'),
    ('{"startTime": "Sep 1, 2017 4:60:00 PM"}'),
    ('{"local_time": "29/02/2024 23:59:59.99"}'),
    ('{"local_time": "29/02/2024 24:00:00.000"}'),
    ('{"logged": ["Sat, 1 September 2017 16:12:29 +0200"]}'),
    ('{"logged": ["Fri, 1 September 2017 16:12:29 +02:00"]}'),
    ('{"stamped": "2017-09-01T16:12:29.123+05:30"}'),
    ('{"startTime": 1504282349}'),
    ('{"phases": ["Sep 1, 2017 4:12:29 PM", "2017-09-01T16:12:29Z"]}')
) v(doc);
SELECT pg_temp.decx('fm_build', '<build><id>b1</id><startTime>Sep 1, 2017 4:12:29 PM</startTime><phases>Sep 1, 2017 4:12:29 PM</phases><phases>Sep 1, 2017 4:13:29 PM</phases></build>', 'FmBuild') AS xml;
SELECT pg_temp.decx('fm_build', '<build><startTime>Sep 31, 2017 4:12:29 PM</startTime></build>', 'FmBuild') AS xml_error;
-- two patterns on the same array type are two plan nodes
SELECT serde_describe('FmBuild') -> 'fields' -> 4 -> 'format' AS phases, serde_describe('FmBuild') -> 'fields' -> 5 -> 'format' AS logged;

-- ---- base64_mime: an XML signature's wrapped SignatureValue ------------------------------------
CREATE TYPE fm_sig AS (signature_value bytea, certs bytea[], raw bytea);
SELECT serde_register('FmSig', 'fm_sig', '{"xml": {"root": "Signature", "namespace": "http://www.w3.org/2000/09/xmldsig#"}, "optional": true, "fields": {
    "signature_value": {"name": "SignatureValue", "format": "base64_mime"},
    "certs": {"name": "X509Certificate", "format": "base64_mime"},
    "raw": {"default": "AQID"}}}');
SELECT doc, pg_temp.dec('fm_sig', doc, 'FmSig') AS json_text, pg_temp.same('fm_sig', doc, 'FmSig') AS jsonb_same
  FROM (VALUES
    ('{"SignatureValue": "SGVsbG8s\r\nIHdvcmxk\r\nIQ=="}'),
    ('{"SignatureValue": "  SGVs bG8s\tIHdv\ncmxk\n"}'),
    ('{"SignatureValue": "SGVsbG8sIHdvcmxkIQ", "X509Certificate": ["AQID\nBA==", ""]}'),
    ('{"SignatureValue": "SGVsbG8sIHdvcmxkIQ=\r\n="}'),
    -- errors
    ('{"SignatureValue": "SGVs\r\nbG8*"}'),
    ('{"SignatureValue": "SGVsbG8=QQ=="}'),
    ('{"SignatureValue": "SGVsbG8sIHdvcmxkIQ="}'),
    ('{"SignatureValue": "QUJD\nR"}'),
    ('{"SignatureValue": "SGVs-_8"}')
) v(doc);
SELECT pg_temp.decx('fm_sig', E'<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignatureValue>\n  SGVsbG8s\n  IHdvcmxk\n  IQ==\n</SignatureValue><X509Certificate>AQID\r\nBA==</X509Certificate></Signature>', 'FmSig') AS xml;
SELECT pg_temp.decx('fm_sig', E'<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignatureValue>SGVs\nbG8.</SignatureValue></Signature>', 'FmSig') AS xml_error;

-- ---- multi-dimensional arrays -----------------------------------------------------------------
CREATE TYPE fm_md AS (m float8[], t text[], i int4[], ts timestamptz[], j jsonb[], d date[]);
SELECT serde_register('FmMd', 'fm_md', '{"optional": true, "fields": {"ts": {"format": "iso8601"},
    "d": {"default": [["2024-01-01", "2024-01-02"], ["2024-02-01", null]]}}}');
SELECT doc, pg_temp.dec('fm_md', doc, 'FmMd') AS json_text, pg_temp.same('fm_md', doc, 'FmMd') AS jsonb_same
  FROM (VALUES
    ('{"m": [[1, 2], [3, 4]], "i": [1, 2, 3]}'),
    ('{"m": [[[1.5], [2]], [[3], [null]]], "t": [["a", "b"], ["c", null]]}'),
    ('{"ts": [["2004-11-23", "2004-11-24"]], "j": [[1, 2], {"a": [3]}]}'),
    ('{"m": [[[[[[1]]]]]]}'),
    ('{"m": [], "t": [[]], "i": [[], []]}'),
    -- errors: ragged, a scalar where an array is expected and the other way round, too deep
    ('{"m": [[1, 2], [3, 4, 5]]}'),
    ('{"m": [[1, 2], [3]]}'),
    ('{"m": [[1, 2], 3]}'),
    ('{"m": [[1, 2], null]}'),
    ('{"m": [1, [2, 3]]}'),
    ('{"m": [[[1, 2], [3, 4]], [[1, 2], [3, 4, 5]]]}'),
    ('{"m": [[[1, 2]], [[1], [2]]]}'),
    ('{"m": [[[1, 2]], [3]]}'),
    ('{"m": [[1, 2], [[1], [2]]]}'),
    ('{"m": [[], [1]]}'),
    ('{"m": [[[[[[[1]]]]]]]}'),
    ('{"i": [[1, 2], [3, 2147483648]]}'),
    ('{"ts": [["2004-11-23", "2004-11-24T10:00"]]}')
) v(doc);
SELECT array_dims(d.m) AS m, array_dims(d.t) AS t, array_dims(d.d) AS d, d.d AS d_default
  FROM serde_decode(NULL::fm_md, '{"m": [[[1], [2], [3]], [[4], [5], [6]]], "t": [["x", "y"]]}', 'FmMd') d;
-- serde_errors: every ragged index and every element error
SELECT path, code, message FROM serde_errors('FmMd', '{"m": [[1, 2], [3, 4, 5], [1, "x"], 7], "i": [[1], [2]], "t": [["a"], ["b", "c"]]}');
SELECT path, code, message FROM serde_errors('FmMd', '{"m": [[1, 2], [3, 4, 5], [1, "x"], 7], "i": [[1], [2]], "t": [["a"], ["b", "c"]]}'::jsonb);
-- XML: a repeated element gives one dimension (multi-dimensional arrays are JSON-only)
SELECT pg_temp.decx('fm_md', '<r><m>1</m><m>2</m><i>3</i></r>', 'FmMd') AS xml;

-- ---- register-time errors (22023 at the option's path) --------------------------------------------
SELECT opts, pg_temp.reg('fm_build', opts) AS result FROM (VALUES
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy Q", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yy", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMMMM d, yyyy", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy ''at", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy d", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM yyyy", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy h:mm", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy HH:mm a", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": 1, "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy XXX", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy", "zone": "Europe/Paris"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy", "zone": "+16:00"}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy", "zone": 2}}}}'),
    ('{"fields": {"start_time": {"format": {"pattern": "MMM d, yyyy", "zone": "UTC", "locale": "fr"}}}}'),
    ('{"fields": {"id": {"format": {"pattern": "MMM d, yyyy", "zone": "UTC"}}}}'),
    ('{"fields": {"start_time": {"format": ["iso8601"]}}}'),
    ('{"fields": {"start_time": {"format": "iso"}}}'),
    ('{"fields": {"start_time": {"format": "base64_mime"}}}'),
    ('{"fields": {"id": {"format": "iso8601"}}}'),
    ('{"fields": {"day": {"format": {"pattern": "d MMM yyyy", "zone": "UTC"}, "default": "1 Sept 2017"}}}'),
    ('{"fields": {"day": {"format": "iso8601", "default": "2017-09-01T10:00"}}}')
) v(opts);
SELECT pg_temp.reg('fm_md', opts) AS result FROM (VALUES
    ('{"fields": {"d": {"format": "iso8601"}}}'),
    ('{"fields": {"m": {"default": [[1, 2], [3]]}}}')
) v(opts);
