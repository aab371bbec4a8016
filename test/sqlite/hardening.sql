-- hardening.sql — issue 19 from the sqlite3 shell: CDATA line ends (CR LF, lone CR -> LF; &#13;
-- stays a CR), timestamps whose offset leaves 0001..9999 in UTC refused (22008, every format),
-- what `numeric` gives for exponent forms (docs/reference.md, the SQLite types table), and a
-- libxml2 message on one line.  Run as test/sqlite.sh runs the others: sqlite3 :memory: < this
-- file, output compared with expected/hardening.out.
.load ./sqlite/serde
.mode list
.headers off
SELECT serde_register('Xh', '{"xml": {"root": "r"}, "optional": true, "fields": {"t": {"type": "text"},
  "tz": {"type": "timestamp"}, "r2": {"type": "timestamp", "format": "rfc2822"},
  "u": {"type": "timestamp", "format": "unix"}, "n": {"type": "numeric"}}}');
SELECT serde_decode_xml('Xh', char(60,114,62,60,116,62) || '<![CDATA[x' || char(13,10) || 'y' || char(13) || 'z]]>&#13;</t></r>');
SELECT serde_decode('Xh', '{"tz": "0001-01-01T00:30:00+01:00"}');
SELECT serde_decode('Xh', '{"tz": "9999-12-31T23:30:00-01:00"}');
SELECT serde_decode('Xh', '{"tz": "0001-01-01T01:00:00+01:00"}');
SELECT serde_decode_xml('Xh', '<r><tz>9999-12-31T19:00:00-05:00</tz></r>');
SELECT serde_decode('Xh', '{"r2": "Mon, 1 Jan 0001 00:30:00 +0100"}');
SELECT serde_decode('Xh', '{"u": 253402300800}');
SELECT code, path FROM serde_errors('Xh', '{"tz": "0001-01-01T00:00:00+00:01"}');
SELECT serde_decode('Xh', '{"n": 1.5e3}'), serde_decode('Xh', '{"n": 1.50e1}'), serde_decode('Xh', '{"n": 0.10}');
SELECT serde_decode('Xh', '{"n": 1e-20}'), serde_decode('Xh', '{"n": -0}');
SELECT serde_decode_xml('Xh', '<r><t><![CDATA[x' || char(10) || 'y ' || char(1) || ' z]]></t></r>');
