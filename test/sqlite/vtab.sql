-- vtab.sql — CREATE VIRTUAL TABLE … USING serde(Shape) from the sqlite3 shell (docs/reference.md, "The virtual table"): one
-- row per document with one typed column per field (INTEGER, REAL, TEXT, BLOB, JSON text), the
-- hidden document column, joins, NULL documents, errors; columns fixed at creation (recorded in
-- the shadow table), the error asking to recreate it after the shape's columns changed, a change
-- that keeps the columns taking effect; rename and drop.  Run on a database file by
-- test/sqlite.sh (the table must survive reopening: .open).
.load ./sqlite/serde
.mode list
.headers on
SELECT serde_register('Line', '{"fields": {"sku": {"type": "text"}, "qty": {"type": "integer", "default": 1}}}');
SELECT serde_register('Invoice', '{"optional": true, "fields": {
  "id": {"type": "text", "optional": false, "nullable": false},
  "total": {"type": "integer", "name": "amount_due"}, "rate": {"type": "real"}, "exact": {"type": "numeric"},
  "paid": {"type": "boolean"}, "at": {"type": "timestamp"}, "due": {"type": "date"}, "ref": {"type": "uuid"},
  "sig": {"type": "blob"}, "status": {"type": {"enum": ["draft", "open", "paid"]}},
  "meta": {"type": "json", "default": {}}, "lines": {"type": {"list": {"shape": "Line"}}},
  "tags": {"type": {"map": "text"}}, "first": {"type": {"shape": "Line"}}, "doc": {"type": "text"}}}');
CREATE VIRTUAL TABLE inv USING serde(Invoice);
-- the field named doc pushes the document column to serde_doc
SELECT name, type, hidden FROM pragma_table_xinfo('inv');
SELECT * FROM inv('{"id": "in_1", "amount_due": 1250, "rate": 0.2, "exact": 10.50, "paid": false,
  "at": "2024-06-30T12:00:00+02:00", "due": "2024-07-31", "ref": "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11",
  "sig": "aGk=", "status": "open", "lines": [{"sku": "a"}, {"sku": "b", "qty": 3}],
  "tags": {"k": "v"}, "first": {"sku": "a"}, "doc": "the doc field"}');
SELECT typeof(id), typeof(total), typeof(rate), typeof(exact), typeof(paid), typeof(at), typeof(sig),
       typeof(meta), hex(sig), meta FROM inv('{"id": "x", "amount_due": 1, "rate": 1, "exact": 1, "paid": true,
       "at": "2024-06-30T12:00:00Z", "sig": "AAEC"}');
-- a json column holds the value's text as the document has it (validated), its default as written;
-- JSON null is NULL
SELECT serde_register('J', '{"fields": {"a": {"type": "json"}, "b": {"type": "json", "default": {"x" : [1, 2]}},
  "c": {"type": "json", "optional": true}}}');
CREATE VIRTUAL TABLE j USING serde(J);
SELECT '<' || a || '>' AS a, '<' || b || '>' AS b, quote(c) AS c FROM j('{"a":  [1,  {"q" : "\u00e9"} ]  , "c": null}');
SELECT '<' || a || '>' AS a FROM j('{"a":1.50e3 }');
SELECT serde_decode('J', '{"a":  [1,  {"q" : "\u00e9"} ]  , "c": null}') AS canonical;
-- the document by name, and from a table: one row per document, none for NULL
CREATE TABLE inbox(n INTEGER PRIMARY KEY, body TEXT);
INSERT INTO inbox(body) VALUES ('{"id": "a", "amount_due": 1}'), (NULL), ('{"id": "b", "lines": [{"sku": "z"}]}');
SELECT n, i.id, i.total, i.lines FROM inbox, inv(inbox.body) AS i ORDER BY n;
SELECT id FROM inv WHERE serde_doc = '{"id": "c"}';
-- the document column is the argument: it reads as NULL
SELECT id, quote(serde_doc) FROM inv('{"id": "d"}');
SELECT sum(i.total IS NULL) AS no_total, count(*) AS rows FROM inbox JOIN inv AS i ON i.serde_doc = inbox.body;
-- errors name the shape and the path; the statement stops
SELECT * FROM inv('{"id": "x", "lines": [{"sku": 1}]}');
SELECT * FROM inv('{"id": "x"');
SELECT * FROM inv('{"amount_due": 1}');
SELECT n, i.id FROM inbox, inv(inbox.body) AS i WHERE n < 3;
-- no document: a clear error
SELECT * FROM inv;
CREATE VIRTUAL TABLE bad USING serde(Nope);
CREATE VIRTUAL TABLE bad USING serde;
CREATE VIRTUAL TABLE bad USING serde(Line, Invoice);
CREATE VIRTUAL TABLE quoted USING serde('Line');
SELECT * FROM quoted('{"sku": "q"}');
-- a change that keeps the columns takes effect
SELECT serde_register('Line', '{"rename": "upper", "fields": {"sku": {"type": "text"}, "qty": {"type": "integer", "default": 5}}}');
CREATE VIRTUAL TABLE lines USING serde(Line);
SELECT * FROM lines('{"SKU": "u"}');
SELECT * FROM quoted('{"SKU": "u"}');
-- a change of the columns: the table asks to be recreated
SELECT serde_register('Line', '{"fields": {"sku": {"type": "text"}, "qty": {"type": "real"}}}');
SELECT * FROM lines('{"sku": "u", "qty": 1}');
SELECT serde_register('Line', '{"fields": {"sku": {"type": "text"}, "qty": {"type": "integer"}, "note": {"type": "text", "optional": true}}}');
SELECT * FROM lines('{"sku": "u", "qty": 1}');
DROP TABLE lines;
CREATE VIRTUAL TABLE lines USING serde(Line);
SELECT * FROM lines('{"sku": "u", "qty": 1}');
-- the shape gone
SELECT serde_unregister('Line');
SELECT * FROM lines('{"sku": "u", "qty": 1}');
SELECT serde_register('Line', '{"fields": {"sku": {"type": "text"}, "qty": {"type": "integer"}, "note": {"type": "text", "optional": true}}}');
-- rename (the shadow table follows) and drop (it goes)
ALTER TABLE lines RENAME TO lines2;
SELECT name FROM sqlite_master WHERE name LIKE 'lines%' ORDER BY name;
SELECT * FROM lines2('{"sku": "r", "qty": 2}');
-- the columns survive reopening the database
.open DBFILE
.load ./sqlite/serde
SELECT * FROM lines2('{"sku": "after reopen", "qty": 2}');
SELECT * FROM inv('{"id": "after reopen"}');
DROP TABLE lines2;
SELECT name FROM sqlite_master WHERE name LIKE 'lines%' ORDER BY name;
-- the shadow table is protected in defensive mode
.dbconfig defensive on
INSERT INTO inv_columns VALUES ('x', 'y', 1, 'doc');
