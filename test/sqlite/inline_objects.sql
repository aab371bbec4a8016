-- inline_objects.sql — inline object types in SQLite descriptors (docs/reference.md 7.1):
-- "type": {"object": {<a descriptor>}} for a field, a list's element and a map's value, nested
-- three levels deep in one registration; decoding JSON and XML, the virtual table, serde_describe,
-- and the descriptor errors at their paths through the objects.  Run as test/sqlite.sh runs the
-- others: sqlite3 < this file, output compared with expected/inline_objects.out.
.load ./sqlite/serde
.mode list
.headers off
-- one registration for a CodeBuild-like event: detail -> phases (a list) -> contexts (an object);
-- each level inherits the rename of the level above (phase_context: camel, from build_phases)
SELECT serde_register('Build', '{"rename": "kebab", "fields": {
  "id": {"type": "text"},
  "detail": {"type": {"object": {"rename": "camel", "fields": {
    "project_name": {"type": "text"},
    "build_phases": {"type": {"list": {"object": {"rename": "camel", "optional": true, "fields": {
      "phase_type": {"type": {"enum": ["SUBMITTED", "BUILD", "COMPLETED"]}},
      "duration_in_seconds": {"type": "integer"},
      "start_time": {"type": "timestamp", "format": "unix"},
      "phase_context": {"type": {"object": {"fields": {
        "status_code": {"type": "text"}, "message": {"type": "text"}}}}}}}}}},
    "env": {"type": {"map": {"object": {"fields": {"value": {"type": "text"},
                                                   "secret": {"type": "boolean", "default": false}}}}}}}}}}}}');
SELECT serde_decode('Build', '{"id": "b-1", "detail": {"projectName": "web",
  "buildPhases": [{"phaseType": "SUBMITTED", "durationInSeconds": 0, "startTime": 1504282349,
                   "phaseContext": {"statusCode": "", "message": ""}},
                  {"phaseType": "BUILD", "durationInSeconds": 55}],
  "env": {"STAGE": {"value": "prod"}, "TOKEN": {"value": "x", "secret": true}}}}');
-- the document's errors: paths through the objects
SELECT serde_decode('Build', '{"id": "b-2", "detail": {"projectName": "web", "env": {},
  "buildPhases": [{"phaseType": "TEST"}]}}');
SELECT serde_decode('Build', '{"id": "b-3", "detail": {"projectName": "web", "buildPhases": [],
  "env": {"A": {"secret": true}}}}');
.headers on
SELECT path, code FROM serde_errors('Build', '{"id": 3, "detail": {"buildPhases": [{"phaseContext": {"message": 1}}]}}');
.headers off
-- serde_describe: the inline objects in place, no private shape name
SELECT json_extract(serde_describe('Build'), '$.fields[1].type', '$.fields[1].fields[1].type',
  '$.fields[1].fields[1].element.type', '$.fields[1].fields[1].element.fields[3].type',
  '$.fields[1].fields[1].element.fields[3].fields[1].column', '$.fields[1].fields[2].element.fields[1].type');
SELECT instr(serde_describe('Build'), '\u0001') AS private_name_shown;
-- the virtual table: one row per document, the inline objects as JSON text
CREATE VIRTUAL TABLE builds USING serde(Build);
SELECT name, type FROM pragma_table_info('builds');
.headers on
SELECT id, json_extract(detail, '$.build_phases[1].duration_in_seconds') AS build_seconds,
       json_extract(detail, '$.env.TOKEN.secret') AS token_secret
FROM builds('{"id": "b-4", "detail": {"projectName": "api", "env": {"TOKEN": {"value": "t", "secret": true}},
  "buildPhases": [{"phaseType": "SUBMITTED"}, {"phaseType": "BUILD", "durationInSeconds": 12}]}}');
.headers off
-- XML: inline objects are elements, their fields child elements or attributes
SELECT serde_register('Feed', '{"xml": {"root": "feed"}, "fields": {
  "title": {"type": "text"},
  "author": {"type": {"object": {"fields": {"name": {"type": "text"},
                                            "uri": {"type": "text", "optional": true}}}}},
  "entries": {"type": {"list": {"object": {"fields": {
     "id": {"type": "integer", "xml": "attribute"},
     "link": {"type": {"object": {"fields": {"href": {"type": "text", "xml": "attribute"},
                                              "rel": {"type": "text", "xml": "attribute", "default": "alternate"}}}}}}}}},
     "name": "entry"}}}');
SELECT serde_decode_xml('Feed', '<feed><title>T</title><author><name>Ann</name></author>
  <entry id="1"><link href="https://a/1"/></entry><entry id="2"><link href="https://a/2" rel="self"/></entry></feed>');
SELECT serde_decode('Feed', '{"title": "T", "author": {"name": "Ann"},
  "entry": [{"id": 1, "link": {"href": "https://a/1"}}]}');
SELECT serde_decode_xml('Feed', '<feed><title>T</title><author><uri>u</uri></author></feed>');
SELECT serde_decode_xml('Feed', '<feed><title>T</title><author><name>A</name></author><entry id="x"><link href="h"/></entry></feed>');
-- descriptor errors: the path through the objects to the fault
SELECT serde_register('Bad', '{"fields": {"detail": {"type": {"object": {"fields": {"x": {"type": "float"}}}}}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": {"list": {"object": {"fields": {"b": {"type": {"map": {"object": {"fields": {"c": {"type": {"enum": []}}}}}}}}}}}}}}');
SELECT serde_register('Bad', '{"fields": {"detail": {"type": {"object": ["x"]}}}}');
SELECT serde_register('Bad', '{"fields": {"detail": {"type": {"object": {"fields": {}}}}}}');
SELECT serde_register('Bad', '{"fields": {"detail": {"type": {"object": {"fields": {"x": {"type": "text", "format": "unix"}}}}}}}');
SELECT serde_register('Bad', '{"fields": {"detail": {"type": {"object": {"unknown": "never", "fields": {"x": {"type": "text"}}}}}}}');
SELECT serde_register('Bad', '{"fields": {"detail": {"type": {"object": {"fields": {"x": {"type": {"shape": "Nope"}}}}}}}}');
-- a named shape's own inline object: its error at the path in it
SELECT serde_register('Holder', '{"fields": {"o": {"type": {"object": {"fields": {"when": {"type": "date", "format": "rfc2822"}}}}}}}');
-- inline objects in a referenced shape, and a referenced shape in an inline object
SELECT serde_register('Holder', '{"fields": {"o": {"type": {"object": {"fields": {"when": {"type": "timestamp", "format": "unix"}}}}}}}');
SELECT serde_register('Uses', '{"fields": {"h": {"type": {"shape": "Holder"}},
  "w": {"type": {"object": {"fields": {"hs": {"type": {"list": {"shape": "Holder"}}}}}}}}}');
SELECT serde_decode('Uses', '{"h": {"o": {"when": 0}}, "w": {"hs": [{"o": {"when": 86400}}, {"o": null}]}}');
SELECT serde_decode('Uses', '{"h": {"o": {"when": 0}}, "w": {"hs": [{"o": {"when": "x"}}]}}');
-- re-registering the referenced shape is seen through the inline object (as through a shape)
SELECT serde_register('Holder', '{"fields": {"o": {"type": {"object": {"fields": {"when": {"type": "text"}}}}}}}');
SELECT serde_decode('Uses', '{"h": {"o": {"when": "0"}}, "w": {"hs": [{"o": {"when": "x"}}]}}');
-- shape-level options in an inline object: a union by tag whose variants are inline objects, extra
SELECT serde_register('U', '{"fields": {"ev": {"type": {"object": {"tag": "kind", "variants": {"click": "c", "key": "k"},
  "extra": "rest", "fields": {"kind": {"type": "text"},
    "c": {"type": {"object": {"fields": {"x": {"type": "integer"}}}}},
    "k": {"type": {"object": {"fields": {"code": {"type": "text"}}}}},
    "rest": {"type": "json"}}}}}}}');
SELECT serde_decode('U', '{"ev": {"kind": "click", "x": 3, "zz": 1}}');
SELECT serde_decode('U', '{"ev": {"kind": "key", "code": "A"}}');
SELECT serde_decode('U', '{"ev": {"kind": "nope"}}');
SELECT serde_register('U', '{"fields": {"ev": {"type": {"object": {"tag": "kind", "variants": {"click": "c"},
  "fields": {"kind": {"type": "text"}, "c": {"type": "text"}}}}}}}');
