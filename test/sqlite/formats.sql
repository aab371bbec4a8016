-- formats.sql — issue 20 item 6 from the sqlite3 shell: timestamps "iso8601" (date or date-time,
-- offsets Z / ±hh / ±hhmm / ±hh:mm: W3C sitemap lastmod) and {"pattern", "zone"} (AWS CodeBuild's
-- "Sep 1, 2017 4:12:29 PM"), blobs "base64_mime" (line-wrapped base64), from JSON and XML, in
-- defaults, with their register-time errors (22023 at the option's path) and value errors; a list
-- of reals refuses a nested array (multi-dimensional arrays are PostgreSQL's).  Run as
-- test/sqlite.sh runs the others: sqlite3 :memory: < this file, output compared with
-- expected/formats.out.
.load ./sqlite/serde
.mode list
.headers off
SELECT serde_register('Sm', '{"xml": {"root": "url"}, "optional": true, "fields": {
  "loc": {"type": "text"}, "lastmod": {"type": "timestamp", "format": "iso8601"},
  "built": {"type": "timestamp", "format": {"pattern": "MMM d, yyyy h:mm:ss a", "zone": "UTC"}},
  "local": {"type": "timestamp", "format": {"pattern": "dd.MM.yyyy HH:mm", "zone": "+02:00"}},
  "stamped": {"type": "timestamp", "format": {"pattern": "yyyy-MM-dd''T''HH:mm:ss.SSSXXX"}},
  "sig": {"type": "blob", "format": "base64_mime"},
  "since": {"type": "timestamp", "format": "iso8601", "default": "2004-11-23"}}}');
-- sitemap lastmod: a date alone is midnight UTC; ±hh:mm, ±hhmm, ±hh, Z
SELECT serde_decode('Sm', '{"lastmod": "2005-01-01"}');
SELECT serde_decode('Sm', '{"lastmod": "2004-12-23T18:00:15+00:00"}');
SELECT serde_decode('Sm', '{"lastmod": "2004-12-23T18:00:15+0530"}');
SELECT serde_decode('Sm', '{"lastmod": "2004-12-23T18:00-05"}');
SELECT serde_decode('Sm', '{"lastmod": "2004-12-23 18:00:15.1234567Z"}');
SELECT serde_decode('Sm', '{"lastmod": "2004-12-23T24:00:00Z"}');
-- patterns: CodeBuild's dates (12 AM is midnight, 12 PM noon), a fixed zone, the offset from the text
SELECT serde_decode('Sm', '{"built": "Sep 1, 2017 4:12:29 PM"}');
SELECT serde_decode('Sm', '{"built": "Sep 1, 2017 12:12:29 am"}');
SELECT serde_decode('Sm', '{"built": "Dec 31, 2017 12:00:00 PM"}');
SELECT serde_decode('Sm', '{"local": "29.02.2024 01:30"}');
SELECT serde_decode('Sm', '{"stamped": "2017-09-01T16:12:29.500+02:00"}');
-- MIME base64: lines wrapped with CR LF, spaces and tabs between groups
SELECT serde_decode('Sm', '{"sig": "SGVs\r\nbG8s\r\n IHdv\tcmxk"}');
SELECT serde_decode('Sm', '{"sig": "SGVsbG8=\n"}');
-- XML: the same converters
SELECT serde_decode_xml('Sm', '<url><loc>https://example.com/</loc><lastmod>2004-11-23</lastmod><built>Sep 1, 2017 4:12:29 PM</built><sig>SGVs
bG8=</sig></url>');
-- value errors
SELECT code, path, message FROM serde_errors('Sm', '{"lastmod": "2004-12-23T18:00:15"}');
SELECT code, path, message FROM serde_errors('Sm', '{"lastmod": "2004-12-23T18:00:15+05:3"}');
SELECT code, path, message FROM serde_errors('Sm', '{"lastmod": "2023-02-29"}');
SELECT code, path, message FROM serde_errors('Sm', '{"lastmod": "2004-12-23T24:00:01Z"}');
SELECT code, path, message FROM serde_errors('Sm', '{"lastmod": "2004-12-23T18:00:00+16:00"}');
SELECT code, path, message FROM serde_errors('Sm', '{"built": "Sep 1 2017 4:12:29 PM"}');
SELECT code, path, message FROM serde_errors('Sm', '{"built": "Sep 1, 2017 13:12:29 PM"}');
SELECT code, path, message FROM serde_errors('Sm', '{"built": "Feb 30, 2017 1:12:29 PM"}');
SELECT code, path, message FROM serde_errors('Sm', '{"sig": "SGVs\r\nbG8*"}');
SELECT code, path, message FROM serde_errors('Sm', '{"sig": "SGVsbG8=QQ=="}');
SELECT code, path, message FROM serde_errors_xml('Sm', '<url><built>Sep 1, 2017</built></url>');
-- register-time errors
SELECT serde_register('Bad', '{"fields": {"a": {"type": "timestamp", "format": {"pattern": "MMM d, yyyy Q", "zone": "UTC"}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "timestamp", "format": {"pattern": "MMM d, yyyy"}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "timestamp", "format": {"pattern": "yyyy-MM-ddXXX", "zone": "UTC"}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "timestamp", "format": {"pattern": "yyyy-MM-dd", "zone": "CET"}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "timestamp", "format": {"pattern": "yyyy-MM-dd", "zone": "UTC", "locale": "en"}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "blob", "format": {"pattern": "yyyy-MM-dd"}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "date", "format": "iso8601"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "timestamp", "format": "base64_mime"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "timestamp", "format": "iso8601", "default": "2004-12-23T18:00"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "timestamp", "format": {"pattern": "d MMM yyyy", "zone": "UTC"}, "default": "1 Sept 2017"}}}');
-- multi-dimensional arrays are PostgreSQL's: a list of reals refuses a nested array
SELECT serde_register('Ll', '{"optional": true, "fields": {"v": {"type": {"list": "real"}}}}');
SELECT code, path, message FROM serde_errors('Ll', '{"v": [[1, 2], [3, 4]]}');
