-- one_of.sql — untagged unions by kind (field option `one_of`, docs/reference.md, "Untagged unions
-- (one_of)") in SQLite: descriptors pass the option through to the compiler, so the same rules as
-- PostgreSQL (sql/one_of.sql): the kind selects the column, the others are NULL; null, missing,
-- defaults, `path`, lists, unknown: reject / extra, XML, serde_errors, serde_describe, and the
-- registration errors at the option's path (a kind written twice: SQLite keeps the descriptor's
-- text, where PostgreSQL's jsonb keeps the last).  Run by test/sqlite.sh.
.load ./sqlite/serde
.mode list
.headers on
SELECT serde_register('Person', '{"optional": true, "fields": {"name": {"type": "text"}, "email": {"type": "text"}}}');
SELECT serde_register('Pkg', '{"optional": true, "fields": {
  "name": {"type": "text"},
  "author_name": {"type": "text"},
  "author": {"type": {"shape": "Person"}, "one_of": {"string": "author_name", "object": "author"}},
  "funding_url": {"type": "text"},
  "fundings": {"type": {"list": "text"}},
  "funding": {"type": "json", "one_of": {"string": "funding_url", "array": "fundings", "object": "funding"}},
  "bin_path": {"type": "text"},
  "bin": {"type": {"map": "text"}, "one_of": {"string": "bin_path", "object": "bin"}}}}');
SELECT serde_decode('Pkg', '{"name": "left-pad", "author": "azer", "funding": "https://f", "bin": "./cli.js"}') AS strings;
SELECT serde_decode('Pkg', '{"name": "express", "author": {"name": "TJ"}, "funding": {"type": "oc"}, "bin": {"ex": "./ex"}}') AS objects;
SELECT serde_decode('Pkg', '{"funding": ["a", "b"], "author": null}') AS arrays;
-- the virtual table: one typed column each
CREATE VIRTUAL TABLE pkg USING serde(Pkg);
SELECT name, quote(author_name), author, quote(funding_url), fundings, quote(funding), bin_path, bin
  FROM pkg('{"name": "x", "author": {"email": "e"}, "funding": "f", "bin": "b"}');
-- a kind with no column; errors inside the selected column; every error collected
SELECT serde_decode('Pkg', '{"author": 5}');
SELECT serde_decode('Pkg', '{"author": {"name": 1}}');
SELECT serde_valid('Pkg', '{"author": true}'), serde_valid('Pkg', '{"author": "a"}');
SELECT * FROM serde_errors('Pkg', '{"name": 1, "author": [1], "funding": 2, "bin": {"a": 1}}');
-- a member named like a listed column is not the union's: ignored, unknown, or extra
SELECT serde_decode('Pkg', '{"author_name": "ignored", "author": "kept"}') AS ignored;
SELECT serde_register('Strict', '{"unknown": "reject", "optional": true, "fields": {
  "author_name": {"type": "text"}, "author": {"type": {"shape": "Person"}, "one_of": {"string": "author_name", "object": "author"}}}}');
SELECT serde_decode('Strict', '{"author_name": "a"}');
SELECT serde_register('Extra', '{"extra": "rest", "optional": true, "fields": {
  "author_name": {"type": "text"}, "author": {"type": {"shape": "Person"}, "one_of": {"string": "author_name", "object": "author"}},
  "rest": {"type": "json"}}}');
SELECT serde_decode('Extra', '{"author_name": "a", "author": "b", "x": 1}') AS extra;
-- number or string or boolean; nullable false, required; path; a default selects its column too
SELECT serde_register('Val', '{"fields": {
  "v_text": {"type": "text", "path": ["meta", "v"], "nullable": false, "default": 2.5,
             "one_of": {"string": "v_text", "number": "v_num", "boolean": "v_bool"}},
  "v_num": {"type": "numeric"}, "v_bool": {"type": "boolean"}}}');
SELECT serde_decode('Val', '{"meta": {"v": "x"}}') AS s, serde_decode('Val', '{"meta": {"v": 1.50}}') AS n,
       serde_decode('Val', '{"meta": {"v": false}}') AS b, serde_decode('Val', '{"meta": {}}') AS dflt;
CREATE VIRTUAL TABLE val USING serde(Val);
SELECT quote(v_text), quote(v_num), quote(v_bool) FROM val('{"meta": {}}');
SELECT serde_decode('Val', '{"meta": {"v": null}}');
SELECT serde_decode('Val', '{"meta": {"v": {}}}');
SELECT * FROM serde_errors('Val', '{"meta": {"v": []}}');
SELECT serde_register('Val2', '{"fields": {"a": {"type": "text", "default": {"x": 1}, "one_of": {"string": "a", "array": "b"}},
  "b": {"type": {"list": "integer"}}}}');
SELECT serde_register('Val2', '{"fields": {"a": {"type": "text", "default": ["x"], "one_of": {"string": "a", "array": "b"}},
  "b": {"type": {"list": "integer"}}}}');
SELECT serde_register('Val2', '{"fields": {"a": {"type": "text", "default": [7], "one_of": {"string": "a", "array": "b"}},
  "b": {"type": {"list": "integer"}}}}');
SELECT serde_decode('Val2', '{}') AS dflt;
-- lists of composites
SELECT serde_register('Member', '{"optional": true, "fields": {"who_name": {"type": "text"},
  "who": {"type": {"shape": "Person"}, "one_of": {"object": "who", "string": "who_name"}}}}');
SELECT serde_register('Team', '{"fields": {"members": {"type": {"list": {"shape": "Member"}}}}}');
SELECT serde_decode('Team', '{"members": [{"who": "a"}, {"who": {"name": "b"}}, {}]}') AS team;
SELECT * FROM serde_errors('Team', '{"members": [{"who": 1}, {"who": {"name": 2}}, {"who": []}]}');
-- XML: child elements make an object, text only (or empty) a string
SELECT serde_decode_xml('Pkg', '<p><name>x</name><author>azer</author><bin><a>./a</a></bin></p>') AS xml_strings;
SELECT serde_decode_xml('Pkg', '<p><author><name>TJ</name></author><bin>./b</bin><funding/></p>') AS xml_objects;
SELECT serde_decode_xml('Team', '<t><members><who>a</who></members><members><who><name>b</name></who></members></t>') AS xml_team;
SELECT serde_decode_xml('Val', '<r><meta><v><x/></v></meta></r>');
SELECT * FROM serde_errors_xml('Team', '<t><members><who><name><n/></name></who></members></t>');
-- serde_describe shows the group
SELECT json_extract(serde_describe('Pkg'), '$.fields[1]', '$.fields[2].one_of', '$.fields[4].in_one_of');
-- registration errors: 22023 at the option's path
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text", "one_of": ["a"]}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text", "one_of": {"strnig": "a"}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text", "one_of": {"string": "a", "string": "b"}}, "b": {"type": "text"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text", "one_of": {"string": "b"}}, "b": {"type": "text"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text", "one_of": {"string": "a", "number": "c"}}, "b": {"type": "text"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text", "one_of": {"string": "a", "object": "b"}}, "b": {"type": "integer"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text", "one_of": {"string": "a", "number": "b"}}, "b": {"type": "integer", "name": "bb"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "text", "one_of": {"string": "a", "number": "b"}}, "b": {"type": "integer", "one_of": {"number": "b"}}}}');
