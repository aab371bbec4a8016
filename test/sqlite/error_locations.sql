-- error_locations.sql — where an error is, in SQLite (docs/reference.md, 7.4): malformed JSON
-- ends its message with `(at line L, column C, byte offset N)` (columns count UTF-8 characters;
-- a CR is no line end), malformed XML with `(at line L, column C)`, libxml2's common messages in
-- plain words; serde_errors keeps byte_offset; serde_valid only answers.  Run as test/sqlite.sh
-- runs the others: sqlite3 < this file, output compared with expected/error_locations.out.
.load ./sqlite/serde
.mode list
.headers off
SELECT serde_register('ElItem', '{"optional": true, "fields": {"n": {"type": "integer"}, "name": {"type": "text"}}}');
SELECT serde_register('El', '{"optional": true, "fields": {"id": {"type": "integer"},
  "items": {"type": {"list": {"shape": "ElItem"}}}}}');
SELECT serde_register('ElX', '{"xml": {"root": "r"}, "optional": true, "fields": {"v": {"type": "text"}}}');
-- malformed JSON: truncated, bad escape, bad UTF-8, characters, a CR
SELECT serde_decode('El', '{' || char(10) || '  "id": 1,' || char(10) || '  "items": [' || char(10) || '    {"n": 1');
SELECT serde_decode('El', '{"id": 1,' || char(10) || ' "items": [{"name": "a\qb"}]}');
SELECT serde_decode('El', CAST(X'7B226964223A20312C0A20226974656D73223A205B7B226E616D65223A2022FF227D5D7D' AS TEXT));
SELECT serde_decode('El', '{"id": 1,' || char(10) || ' "items": [{"name": "é€", x}]}');
SELECT serde_decode('El', '{"id": 1,' || char(13) || ' "items": [}');
-- other errors: path and problem, no location in the message (as before)
SELECT serde_decode('El', '{"id": 1,' || char(10) || ' "items": [{"n": "x"}]}');
-- serde_errors: byte_offset, and the same message
.headers on
SELECT * FROM serde_errors('El', '{"id": 1,' || char(10) || ' "items": [{"n": "x"}, }');
SELECT * FROM serde_errors('El', '{"id": "1",' || char(10) || ' "items": [{"n": "x"}]}');
SELECT serde_valid('El', '{"id": 1,' || char(10) || ' "items": [}') AS valid;
-- the virtual table: the same message
CREATE VIRTUAL TABLE el USING serde(El);
SELECT * FROM el('{"id": 1,' || char(10) || '"items": [' || char(10) || '{"n": 1}');
-- XML: plain words, line and column
SELECT serde_decode_xml('ElX', '<r>' || char(10) || '  <v>salt & pepper</v>' || char(10) || '</r>');
SELECT serde_decode_xml('ElX', '<r>' || char(10) || '  <v>x</w>' || char(10) || '</r>');
SELECT serde_decode_xml('ElX', '<r/>' || char(10) || '<r/>');
SELECT serde_decode_xml('ElX', '<r><v>&nbsp;</v></r>');
SELECT serde_decode_xml('ElX', '<r><v a=1>x</v></r>');
SELECT serde_decode_xml('ElX', '<r><v a>x</v></r>');
SELECT serde_decode_xml('ElX', '<r><v>1 <2</v></r>');
SELECT serde_decode_xml('ElX', '<r><v>&#1;</v></r>');
SELECT * FROM serde_errors_xml('ElX', '<r>' || char(10) || '  <v>x</w>' || char(10) || '</r>');
