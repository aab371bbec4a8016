-- functions.sql — the SQLite functions from the sqlite3 shell (docs/reference.md, "SQLite"): serde_register and its
-- errors (every descriptor type and option, what SQLite has no type for), serde_unregister,
-- serde_decode's canonical JSON for every type, serde_valid, serde_describe, serde_errors and
-- bad input (malformed JSON, invalid UTF-8, deep nesting, NULLs, unknown shapes) with pinned
-- messages and result codes.  Run by test/sqlite.sh: sqlite3 :memory: < this file, output
-- (stdout and stderr) compared with expected/functions.out.
.load ./sqlite/serde
.mode list
.headers off
-- no catalog before the first serde_register
SELECT count(*) FROM sqlite_master WHERE name = 'serde_shapes';
SELECT serde_unregister('Nothing');
SELECT serde_decode('Nothing', '{}');

-- ---- registration ---------------------------------------------------------------------------
SELECT serde_register('Addr', '{"fields": {"city": {"type": "text"}, "zip": {"type": "text", "optional": true}}}');
SELECT name, version FROM serde_shapes;
SELECT type, name FROM sqlite_master WHERE tbl_name = 'serde_shapes' ORDER BY name;
-- every type of §3.3, and the field options
SELECT serde_register('All', '{"rename": "camel", "fields": {
  "t": {"type": "text"}, "int_val": {"type": "integer"}, "r": {"type": "real"}, "n": {"type": "numeric"},
  "b": {"type": "boolean"}, "ts": {"type": "timestamp"}, "ts_unix": {"type": "timestamp", "format": "unix"},
  "ts_ms": {"type": "timestamp", "format": "unix_ms"}, "d": {"type": "date"}, "u": {"type": "uuid"},
  "bl": {"type": "blob"}, "bh": {"type": "blob", "format": "hex"}, "bu": {"type": "blob", "format": "base64url"},
  "j": {"type": "json"}, "e": {"type": {"enum": ["red", "green"]}}, "li": {"type": {"list": "integer"}},
  "m": {"type": {"map": "real"}}, "a": {"type": {"shape": "Addr"}}, "la": {"type": {"list": {"shape": "Addr"}}},
  "sk": {"type": "text", "skip": true}, "deep": {"type": "text", "path": ["x", "y"]},
  "def": {"type": "integer", "default": 42}, "opt": {"type": "text", "optional": true},
  "nn": {"type": "text", "optional": true, "nullable": false}, "named": {"type": "text", "name": "Other Name"}}}');
SELECT serde_decode('All', '{"t": "hi \"there\"\n", "intVal": 9007199254740993, "r": 1.5,
  "n": 123456789012345678901234.5678, "b": true, "ts": "2024-06-30T23:59:59.123456-01:00",
  "tsUnix": 1700000000.5, "tsMs": 1700000000123, "d": "2024-02-29",
  "u": "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "bl": "aGVsbG8=", "bh": "68656c6c6f", "bu": "_-8",
  "j": {"a": [1, 2 ,  {"b": null}], "s": "\u00e9"}, "e": "green", "li": [1, 2, 3], "m": {"x": 1, "y": 2.5},
  "a": {"city": "Oslo"}, "la": [{"city": "A", "zip": "1"}, {"city": null}], "sk": "ignored",
  "x": {"y": "deep!"}, "Other Name": "n"}');
-- the JSON subtype: json functions take the result as JSON, not as a string
SELECT json_object('row', serde_decode('Addr', '{"city": "Oslo"}'));
SELECT serde_decode('Addr', '{"city": "Oslo"}') ->> '$.city';
-- a BLOB document is UTF-8 bytes
SELECT serde_decode('Addr', CAST('{"city": "Bergen"}' AS BLOB));
-- NULL document: NULL; NULL shape, unknown shape: errors
SELECT quote(serde_decode('Addr', NULL)), quote(serde_valid('Addr', NULL));
SELECT serde_decode(NULL, '{}');
SELECT serde_valid('Nope', '{}');
-- shape-level options: unknown reject, extra, coerce, optional, tag/variants
SELECT serde_register('Strict', '{"unknown": "reject", "fields": {"a": {"type": "integer"}}}');
SELECT serde_decode('Strict', '{"a": 1, "b": 2}');
SELECT serde_register('Extra', '{"extra": "rest", "fields": {"a": {"type": "integer"}, "rest": {"type": "json"}}}');
SELECT serde_decode('Extra', '{"a": 1, "b": [2], "c": "x"}');
SELECT serde_register('Loose', '{"coerce": true, "optional": true, "fields": {"i": {"type": "integer"}, "t": {"type": "text"},
  "b": {"type": "boolean"}, "gone": {"type": "text"}}}');
SELECT serde_decode('Loose', '{"i": "3", "t": 1.5, "b": "true"}');
SELECT serde_register('Card', '{"fields": {"last4": {"type": "text"}}}');
SELECT serde_register('Bank', '{"fields": {"iban": {"type": "text"}}}');
SELECT serde_register('Payment', '{"tag": "kind", "variants": {"card": "card", "bank": "bank"},
  "fields": {"kind": {"type": "text"}, "card": {"type": {"shape": "Card"}}, "bank": {"type": {"shape": "Bank"}}}}');
SELECT serde_decode('Payment', '{"kind": "card", "last4": "4242"}');
SELECT serde_decode('Payment', '{"kind": "cash"}');
-- rename styles; the XML options are accepted and compiled now (decoding XML comes with the XML walker)
SELECT serde_register('Styles', '{"rename": "pascal", "fields": {"amount_due": {"type": "integer"},
  "sub": {"type": {"shape": "Kebab"}, "optional": true}}}');
SELECT serde_register('Kebab', '{"rename": "kebab", "fields": {"amount_due": {"type": "integer"}}}');
SELECT serde_register('Styles', '{"rename": "pascal", "fields": {"amount_due": {"type": "integer"},
  "sub": {"type": {"shape": "Kebab"}, "optional": true}}}');
SELECT serde_decode('Styles', '{"AmountDue": 1, "sub": {"amount-due": 2}, "Sub": {"amount-due": 3}}');
SELECT serde_register('Feed', '{"xml": {"root": "feed", "namespace": "http://www.w3.org/2005/Atom"},
  "fields": {"id": {"type": "text", "xml": "attribute"}, "title": {"type": "text", "xml": "text"},
  "tags": {"type": {"list": "text"}, "xml_item": "tag"}, "link": {"type": "text", "name": "{http://other}link"}}}');
SELECT json_extract(serde_describe('Feed'), '$.xml', '$.fields[0].xml', '$.fields[2].xml');
SELECT serde_register('Bad', '{"xml": {"root": "a b"}, "fields": {"id": {"type": "text"}}}');
SELECT serde_register('Bad', '{"fields": {"id": {"type": "text", "xml": "comment"}}}');
-- a recursive document through a json column validated by a shape (here the shape itself)
SELECT serde_register('Expr', '{"unknown": "reject", "fields": {"op": {"type": {"enum": ["num", "neg", "add"]}},
  "value": {"type": "numeric", "optional": true}, "args": {"type": "json", "shape": "Expr", "optional": true}}}');
SELECT serde_decode('Expr', '{"op": "add", "args": [{"op": "num", "value": 1}, {"op": "neg", "args": [{"op": "num", "value": 2}]}]}');
SELECT serde_decode('Expr', '{"op": "add", "args": [{"op": "num", "value": 1}, {"op": "neg", "args": [{"op": "pow"}]}]}');
-- a map of shapes
SELECT serde_register('Book', '{"fields": {"by_isbn": {"type": {"map": {"shape": "Addr"}}}}}');
SELECT serde_decode('Book', '{"by_isbn": {"x": {"city": "A"}, "y": {"city": "B"}}}');
SELECT serde_decode('Book', '{"by_isbn": {"x": {"city": "A"}, "x": {"city": "B"}}}');
-- re-registering replaces (and bumps the version)
SELECT serde_register('Addr', '{"fields": {"city": {"type": "text"}, "zip": {"type": "text", "default": "0000"}}}');
SELECT serde_decode('Addr', '{"city": "Oslo"}');
SELECT name FROM serde_shapes WHERE version = (SELECT max(version) FROM serde_shapes);

-- ---- bad descriptors: 22023 with the descriptor path -----------------------------------------
SELECT serde_register('Bad', '{"fields": {"a": {"type": "int4"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "time"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "varchar(20)"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text", "map": true}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text", "bogus": 1}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text"}}, "bogus": 1}');
SELECT serde_register('Bad', '{"fields": {"a": {"name": "x"}}}');
SELECT serde_register('Bad', '{"fields": {}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": {"shape": "Nope"}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": {"shape": "Bad"}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "integer", "default": "x"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "date", "format": "unix"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": {"enum": []}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": {"list": {"list": "text"}}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "json"}}, "extra": "a", "unknown": "reject"}');
SELECT serde_register('Bad', '{"rename": "snake", "fields": {"a": {"type": "text"}}}');
SELECT serde_register('Bad', 'not json');
SELECT serde_register('Bad', '[]');
SELECT serde_register('Bad', NULL);
SELECT serde_register('', '{"fields": {"a": {"type": "text"}}}');
SELECT serde_register(NULL, '{"fields": {"a": {"type": "text"}}}');
SELECT serde_register('a' || char(1), '{"fields": {"a": {"type": "text"}}}');
SELECT serde_register(printf('%.64c', 'x'), '{"fields": {"a": {"type": "text"}}}');
SELECT count(*) FROM serde_shapes WHERE name = 'Bad';

-- ---- document errors: <shape>: <path>: <problem>, with the result code ------------------------
SELECT serde_decode('All', '{"t": 1}');
SELECT serde_decode('Strict', '{"a": 1.0}');
SELECT serde_decode('Strict', '{"a": 9223372036854775808}');
SELECT serde_decode('Addr', '{"zip": "1"}');
SELECT serde_decode('Addr', '{"city": "a", "city": "b"}');
SELECT serde_decode('All', '{"t": "x", "intVal": 1, "r": 1e400}');
SELECT serde_register('Dates', '{"fields": {"d": {"type": "date"}, "ts": {"type": "timestamp", "optional": true}}}');
SELECT serde_decode('Dates', '{"d": "2024-02-30"}');
SELECT serde_decode('Dates', '{"d": "2024-02-28", "ts": "2024-06-01T10:00:00"}');
SELECT serde_register('NN', '{"fields": {"a": {"type": "text", "nullable": false}}}');
SELECT serde_decode('NN', '{"a": null}');
-- malformed and hostile input
SELECT serde_decode('Addr', '{"city": "Oslo"');
SELECT serde_decode('Addr', '{"city": "Oslo"} {"city": "x"}');
SELECT serde_decode('Addr', CAST(x'7b2263697479223a2022ff227d' AS BLOB));
SELECT serde_decode('Addr', '');
SELECT serde_decode('Addr', 5);
-- nesting: 512 levels at most (the root value is level 1), also inside a json value
SELECT serde_decode('Extra', '{"a": 1, "z": ' || printf('%.510c', '[') || printf('%.510c', ']') || '}') IS NOT NULL;
SELECT length(serde_decode('Extra', '{"a": 1, "z": ' || printf('%.511c', '[') || printf('%.511c', ']') || '}'));
SELECT code, length(path), substr(message, -45), byte_offset
  FROM serde_errors('Extra', '{"a": 1, "z": ' || printf('%.512c', '[') || printf('%.512c', ']') || '}');
SELECT code, length(path), substr(message, -45), byte_offset
  FROM serde_errors('Extra', '{"a": 1, "z": ' || printf('%.100000c', '[') || printf('%.100000c', ']') || '}');
SELECT serde_valid('Extra', '{"a": 1, "z": ' || printf('%.100000c', '[') || printf('%.100000c', ']') || '}');
SELECT serde_decode('Addr', '{"city": "' || printf('%.100c', 'x') || '", "zip": ' || printf('%.100c', '[') || '}');
SELECT serde_decode('Addr', '{"city": "a\u0000b"}');
SELECT serde_valid('Addr', '{"city": "Oslo"'), serde_valid('Addr', '{"city": 1}'), serde_valid('Addr', '{"city": "x"}');

-- ---- serde_errors: every violation, in document order ------------------------------------------
.headers on
SELECT * FROM serde_errors('All', '{"t": 7, "intVal": "x", "r": true, "n": "1", "b": 1, "ts": "2024-13-01T00:00:00Z",
  "tsUnix": "x", "tsMs": 1, "d": "2024-02-30", "u": "nope", "bl": "!!", "bh": "zz", "bu": "+",
  "j": 1, "e": "blue", "li": [1, "2", 3.5], "m": {"x": "y"}, "a": {"city": 1}, "la": [1],
  "x": {"y": 1}, "nn": null, "Other Name": 1}');
SELECT * FROM serde_errors('Addr', '{"city": "Oslo"');
SELECT * FROM serde_errors('Addr', '{"city": "Oslo"}');
SELECT count(*) FROM serde_errors('Addr', NULL);
-- at most 100 rows
SELECT serde_register('Li', '{"fields": {"l": {"type": {"list": "integer"}}}}');
SELECT count(*) FROM serde_errors('Li', '{"l": [' || substr(replace(printf('%.300c', 'x'), 'x', '"x",'), 1, 1199) || ']}');
.headers off
SELECT * FROM serde_errors(NULL, '{}');
SELECT * FROM serde_errors('Nope', '{}');
SELECT * FROM serde_errors('Addr');
SELECT * FROM serde_errors;
-- a table of documents
CREATE TABLE inbox(id INTEGER PRIMARY KEY, body TEXT);
INSERT INTO inbox(body) VALUES ('{"city": "Oslo"}'), ('{"city": 5}'), ('{"zip": 1}'), (NULL);
SELECT i.id, e.path, e.code, e.byte_offset FROM inbox i, serde_errors('Addr', i.body) e;
SELECT id, serde_valid('Addr', body) FROM inbox;

-- ---- serde_describe, unregister -------------------------------------------------------------
SELECT serde_describe('Card');
SELECT serde_unregister('Card'), serde_unregister('Card');
SELECT serde_decode('Card', '{}');
-- a shape whose referenced shape is gone fails at its next use, naming it
SELECT serde_decode('Payment', '{"kind": "card", "last4": "4242"}');
SELECT serde_unregister(NULL);
-- XML: the same shapes through serde_decode_xml / serde_valid_xml (attributes, text trimmed for
-- non-text kinds, a flattened list of non-adjacent repeats, an ignored unknown element)
SELECT serde_register('XPt', '{"xml": {"root": "pt"}, "fields": {"x": {"type": "integer"}, "y": {"type": "integer", "xml": "attribute"}, "tags": {"type": {"list": "text"}, "name": "tag"}}}');
SELECT serde_decode_xml('XPt', '<pt y="2"><x> 1 </x><tag>a</tag><z/><tag>b</tag></pt>');
SELECT serde_decode_xml('XPt', '<pt y="2"><x>1</x></pt>');
SELECT serde_valid_xml('XPt', '<pt y="2"><x>1x</x></pt>'), serde_valid_xml('XPt', '<pt y="2"><x>1</x></pt>'), serde_valid_xml('XPt', NULL);
SELECT serde_decode_xml('XPt', '<pt y="2"><x>1x</x></pt>');
SELECT serde_decode_xml('XPt', '<pt><x>1</x></pt>');
SELECT serde_decode_xml('XPt', '<other/>');
-- malformed and hostile XML
SELECT serde_decode_xml('XPt', '<pt y="2"><x>1</x>');
SELECT serde_decode_xml('XPt', '<!DOCTYPE d [<!ENTITY a "aaaa">]><pt y="&a;"/>');
SELECT serde_decode_xml('XPt', '<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><pt y="1"><x>&x;</x></pt>');
SELECT serde_valid_xml('XPt', '<pt');
-- serde_errors_xml: every violation with its XPath and byte offset; malformed XML is one row
SELECT * FROM serde_errors_xml('XPt', '<pt y="2"><x>1x</x></pt>');
SELECT count(*) FROM serde_errors_xml('XPt', '<pt y="2"><x>1</x><tag>t</tag></pt>');
SELECT * FROM serde_errors_xml('XPt', '<pt y="2"><x>1</x>');
SELECT * FROM serde_errors_xml('XPt', NULL);
SELECT * FROM serde_errors_xml('NoSuchShape', '<pt/>');
SELECT serde_unregister('XPt');
-- XML extra (the unmapped elements and attributes as JSON) and a union by a tag element
SELECT serde_register('XRest', '{"extra": "rest", "fields": {"id": {"type": "integer", "xml": "attribute"}, "rest": {"type": "json"}}}');
SELECT serde_decode_xml('XRest', '<r id="1" lang="en"><c>red</c><d u="cm">12</d><c>blue</c></r>');
SELECT serde_register('XCard', '{"fields": {"number": {"type": "text"}}}');
SELECT serde_register('XPay', '{"tag": "kind", "variants": {"card": "card"}, "fields": {"amount": {"type": "integer"}, "card": {"type": {"shape": "XCard"}}}}');
SELECT serde_decode_xml('XPay', '<pay><amount>5</amount><kind>card</kind><number>42</number></pay>');
SELECT serde_decode_xml('XPay', '<pay kind="cash"><amount>5</amount></pay>');
SELECT serde_unregister('XPay'), serde_unregister('XCard'), serde_unregister('XRest');
