-- one_of.sql — untagged unions by kind (field option `one_of`, docs/reference.md, "Untagged unions
-- (one_of)"): the field that carries it reads the member, the value's kind (string, number,
-- boolean, object, array) selects the column, the other listed columns are NULL.  npm's
-- package.json `author` / `repository` (a string or an object), `funding` (string, object or
-- array), `bin` (a string or a map), number-or-string, boolean; null, missing, defaults, `path`,
-- lists of composites, unknown: reject / extra; JSON text, jsonb and XML give the same rows;
-- serde_errors; serde_describe; every registration error (22023 at the option's path).
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- ---- npm's package.json ------------------------------------------------------------------------
CREATE TYPE oo_person AS (name text, email text, url text);
CREATE TYPE oo_repo AS (type text, url text, directory text);
CREATE TYPE oo_funding AS (type text, url text);
CREATE TYPE oo_bin AS (key text, value text);
CREATE TYPE oo_pkg AS (
    name text, version text,
    author_name text, author oo_person,
    repository_url text, repository oo_repo,
    funding_url text, funding oo_funding, fundings oo_funding[],
    bin_path text, bin oo_bin[]);
SELECT serde_register('OoPkg', 'oo_pkg', '{"optional": true, "fields": {
    "author": {"one_of": {"string": "author_name", "object": "author"}},
    "repository": {"one_of": {"string": "repository_url", "object": "repository"}},
    "funding": {"one_of": {"string": "funding_url", "object": "funding", "array": "fundings"}},
    "bin": {"map": true, "one_of": {"string": "bin_path", "object": "bin"}}}}');

-- strings
SELECT d.* FROM serde_decode(NULL::oo_pkg, '{"name": "left-pad", "version": "1.3.0",
    "author": "azer <azer@kodfabrik.com>", "repository": "github:left-pad/left-pad",
    "funding": "https://github.com/sponsors/x", "bin": "./cli.js"}') d;
-- objects
SELECT d.* FROM serde_decode(NULL::oo_pkg, '{"name": "express",
    "author": {"name": "TJ Holowaychuk", "email": "tj@vision-media.ca"},
    "repository": {"type": "git", "url": "https://github.com/expressjs/express.git"},
    "funding": {"type": "opencollective", "url": "https://opencollective.com/express"},
    "bin": {"express": "./bin/express", "ex": "./bin/ex"}}') d;
-- an array (funding), the other kinds absent or null: every listed column NULL
SELECT d.* FROM serde_decode(NULL::oo_pkg, '{"name": "vite", "author": null,
    "funding": [{"type": "github", "url": "https://github.com/sponsors/a"}, {"url": "https://b"}]}') d;
-- jsonb input gives the same rows
SELECT d.* FROM serde_decode(NULL::oo_pkg, '{"name": "left-pad", "author": "azer",
    "repository": {"type": "git", "url": "u"}, "funding": [{"url": "f"}], "bin": {"lp": "./lp"}}'::jsonb) d;
SELECT d.* FROM serde_decode(NULL::oo_pkg, '{"name": "left-pad", "author": "azer",
    "repository": {"type": "git", "url": "u"}, "funding": [{"url": "f"}], "bin": {"lp": "./lp"}}') d;
SELECT to_jsonb(serde_decode(NULL::oo_pkg, '{"author": {"name": "a"}, "funding": "f"}'::jsonb)) =
       to_jsonb(serde_decode(NULL::oo_pkg, '{"author": {"name": "a"}, "funding": "f"}')) AS same;
-- a kind with no column: 22032 at the member's path, found as the project describes values
SELECT * FROM serde_decode(NULL::oo_pkg, '{"name": "x", "author": 5}');
SELECT * FROM serde_decode(NULL::oo_pkg, '{"name": "x", "author": ["a", "b"]}');
SELECT * FROM serde_decode(NULL::oo_pkg, '{"name": "x", "funding": true}'::jsonb);
SELECT * FROM serde_decode(NULL::oo_pkg, '{"name": "x", "repository": 1.5e3}'::jsonb);
-- errors inside the selected column keep their paths
SELECT * FROM serde_decode(NULL::oo_pkg, '{"name": "x", "author": {"name": 1}}');
SELECT * FROM serde_decode(NULL::oo_pkg, '{"name": "x", "funding": [{"url": "a"}, {"url": 2}]}');
SELECT * FROM serde_decode(NULL::oo_pkg, '{"name": "x", "bin": {"a": "x", "b": []}}');
-- a listed column maps no member of its own: a member of its name is ignored here ...
SELECT d.* FROM serde_decode(NULL::oo_pkg, '{"name": "x", "author_name": "ignored", "author": "kept"}') d;
-- ... unknown under unknown: reject, and part of `extra`
CREATE TYPE oo_small AS (id int4, author_name text, author oo_person, rest jsonb);
SELECT serde_register('OoReject', 'oo_small', '{"unknown": "reject", "optional": true, "fields": {
    "author": {"one_of": {"string": "author_name", "object": "author"}}, "rest": {"skip": true}}}');
SELECT * FROM serde_decode(NULL::oo_small, '{"id": 1, "author_name": "a"}', 'OoReject');
SELECT * FROM serde_decode(NULL::oo_small, '{"id": 1, "author": {"name": "a", "nick": "b"}}', 'OoReject');
SELECT d.* FROM serde_decode(NULL::oo_small, '{"id": 1, "author": "a"}', 'OoReject') d;
SELECT serde_register('OoExtra', 'oo_small', '{"extra": "rest", "optional": true, "fields": {
    "author": {"one_of": {"string": "author_name", "object": "author"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_small, '{"id": 1, "author_name": "a", "author": {"name": "b"}, "x": 2}', 'OoExtra') d;
SELECT d.* FROM serde_decode(NULL::oo_small, '{"id": 1, "author_name": "a", "author": "b"}'::jsonb, 'OoExtra') d;

-- ---- number or string, boolean; null, missing, nullable, required ------------------------------
CREATE TYPE oo_val AS (k text, v_text text, v_num numeric(6,2), v_bool boolean, v_int int2);
SELECT serde_register('OoVal', 'oo_val', '{"fields": {
    "v_text": {"name": "v", "nullable": false,
               "one_of": {"string": "v_text", "number": "v_num", "boolean": "v_bool"}},
    "v_int": {"optional": true}}}');
SELECT d.* FROM serde_decode(NULL::oo_val, '{"k": "a", "v": "12.5"}') d;
SELECT d.* FROM serde_decode(NULL::oo_val, '{"k": "b", "v": 12.5}') d;
SELECT d.* FROM serde_decode(NULL::oo_val, '{"k": "c", "v": false}') d;
SELECT d.* FROM serde_decode(NULL::oo_val, '{"k": "c", "v": true}'::jsonb) d;
SELECT d.* FROM serde_decode(NULL::oo_val, '{"k": "b", "v": 12.5}'::jsonb) d;
-- the selected column's own rules: numeric(6,2)
SELECT * FROM serde_decode(NULL::oo_val, '{"k": "b", "v": 12345.5}');
SELECT * FROM serde_decode(NULL::oo_val, '{"k": "b", "v": 1.555}'::jsonb);
-- the carrying field's rules: nullable false (23502), required (2203A), the member's name
SELECT * FROM serde_decode(NULL::oo_val, '{"k": "d", "v": null}');
SELECT * FROM serde_decode(NULL::oo_val, '{"k": "d"}');
SELECT * FROM serde_decode(NULL::oo_val, '{"k": "d", "v": {}}');
SELECT * FROM serde_decode(NULL::oo_val, '{"k": "d", "v": []}'::jsonb);
-- the members named like listed columns are not the union's
SELECT d.* FROM serde_decode(NULL::oo_val, '{"k": "e", "v": 1, "v_num": "x", "v_text": 2}') d;
-- serde_valid / serde_errors: every violation, in document order, text and jsonb
SELECT serde_valid(NULL::oo_val, '{"k": "a", "v": "x"}'), serde_valid(NULL::oo_val, '{"k": "a", "v": [1]}');
SELECT * FROM serde_errors(NULL::oo_val, '{"k": 1, "v": [1], "v_int": 99999}');
SELECT path, code, message FROM serde_errors(NULL::oo_val, '{"k": 1, "v": [1], "v_int": 99999}'::jsonb);
SELECT * FROM serde_errors(NULL::oo_val, '{"v": null, "v_int": "x"}');
SELECT path, code, message FROM serde_errors(NULL::oo_pkg,
    '{"name": 1, "author": 7, "repository": {"url": 2}, "funding": [{"url": "a"}, 3], "bin": {"a": 1}}');

-- ---- defaults: the default's kind selects its column too ----------------------------------------
CREATE TYPE oo_def AS (id int4, lic_name text, lic oo_funding, lic_list oo_funding[]);
SELECT serde_register('OoFunding', 'oo_funding', '{"fields": {"url": {"optional": true}}}');
SELECT serde_register('OoDef', 'oo_def', '{"fields": {
    "lic": {"name": "license", "default": "MIT",
            "one_of": {"string": "lic_name", "object": "lic", "array": "lic_list"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_def, '{"id": 1}') d;
SELECT d.* FROM serde_decode(NULL::oo_def, '{"id": 1}'::jsonb) d;
SELECT d.* FROM serde_decode(NULL::oo_def, '{"id": 2, "license": {"type": "BSD"}}') d;
SELECT serde_register('OoDef', 'oo_def', '{"fields": {
    "lic": {"name": "license", "default": {"type": "ISC", "url": "https://isc.org"},
            "one_of": {"string": "lic_name", "object": "lic", "array": "lic_list"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_def, '{"id": 3}') d;
SELECT serde_register('OoDef', 'oo_def', '{"fields": {
    "lic": {"name": "license", "default": [{"type": "a"}, {"type": "b", "url": "u"}],
            "one_of": {"string": "lic_name", "object": "lic", "array": "lic_list"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_def, '{"id": 4}') d;
SELECT serde_register('OoDef', 'oo_def', '{"fields": {
    "lic": {"name": "license", "default": null,
            "one_of": {"string": "lic_name", "object": "lic", "array": "lic_list"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_def, '{"id": 5}') d;
SELECT f->>'column' AS column, f->'one_of' AS one_of, f->>'in_one_of' AS in_one_of, f->>'name' AS name,
       f->'default' AS default FROM jsonb_array_elements(serde_describe('OoDef')->'fields') f;
-- a default of a kind that has no column, or that does not fit the selected column
SELECT serde_register('OoDef', 'oo_def', '{"fields": {
    "lic": {"default": 5, "one_of": {"string": "lic_name", "object": "lic"}}}}');
SELECT serde_register('OoDef', 'oo_def', '{"fields": {
    "lic": {"default": {"type": 1}, "one_of": {"string": "lic_name", "object": "lic"}}}}');
SELECT serde_register('OoDef', 'oo_def', '{"fields": {
    "lic": {"default": [{"url": []}], "one_of": {"array": "lic_list", "object": "lic"}}}}');
SELECT serde_register('OoDef', 'oo_def', '{"fields": {
    "lic": {"default": {"type": 1}, "one_of": {"array": "lic_list", "string": "lic_name"}}}}');
-- a default inside a default (a composite default whose members go through a one_of)
CREATE TYPE oo_outer AS (id int4, inner_val oo_val);
SELECT serde_register('OoOuter', 'oo_outer',
    '{"fields": {"inner_val": {"shape": "OoVal", "default": {"k": "d", "v": 7}}}}');
SELECT d.id, (d.inner_val).* FROM serde_decode(NULL::oo_outer, '{"id": 1}') d;
SELECT serde_register('OoOuter', 'oo_outer',
    '{"fields": {"inner_val": {"shape": "OoVal", "default": {"k": "d", "v": [7]}}}}');

-- ---- `path`, lists of composites ---------------------------------------------------------------
CREATE TYPE oo_maint AS (role text, who_name text, who oo_person);
CREATE TYPE oo_team AS (team text, lead_name text, lead oo_person, members oo_maint[]);
SELECT serde_register('OoMaint', 'oo_maint', '{"optional": true, "fields": {
    "who": {"one_of": {"string": "who_name", "object": "who"}}}}');
SELECT serde_register('OoTeam', 'oo_team', '{"optional": true, "fields": {
    "lead": {"path": ["meta", "lead"], "one_of": {"object": "lead", "string": "lead_name"}},
    "members": {"shape": "OoMaint"}}}');
SELECT d.team, d.lead_name, d.lead, to_jsonb(d.members) AS members FROM serde_decode(NULL::oo_team,
    '{"team": "core", "meta": {"lead": "ann"}, "members": [{"role": "dev", "who": "bob"},
      {"role": "ops", "who": {"name": "cy", "url": "https://cy"}}, {"role": "x"}, {"who": null}]}') d;
SELECT d.team, d.lead_name, d.lead, to_jsonb(d.members) AS members FROM serde_decode(NULL::oo_team,
    '{"team": "core", "meta": {"lead": {"name": "ann"}}, "members": [{"role": "dev", "who": "bob"}]}'::jsonb) d;
SELECT d.team, d.lead_name, d.lead FROM serde_decode(NULL::oo_team, '{"team": "t", "meta": null}') d;
SELECT * FROM serde_decode(NULL::oo_team, '{"meta": {"lead": false}}');
SELECT * FROM serde_decode(NULL::oo_team, '{"members": [{"who": "a"}, {"who": 2}]}');
SELECT path, code, message FROM serde_errors(NULL::oo_team,
    '{"meta": {"lead": 1}, "members": [{"who": []}, {"who": {"name": 3}}, {"who": true}]}');

-- ---- inside a union by tag: a variant's one_of, and the object's own ---------------------------
CREATE TYPE oo_vperson AS (name text);
CREATE TYPE oo_vcard AS (last4 text, holder_name text, holder oo_vperson);
CREATE TYPE oo_vpay AS (id text, card oo_vcard, note_text text, note_num int4);
SELECT serde_register('OoVCard', 'oo_vcard', '{"optional": true, "fields": {
    "holder": {"default": "anon", "one_of": {"string": "holder_name", "object": "holder"}}}}');
SELECT serde_register('OoVPay', 'oo_vpay', '{"tag": "type", "variants": {"card": "card"}, "optional": true,
    "fields": {"card": {"shape": "OoVCard"}, "note_num": {"name": "note", "one_of": {"string": "note_text", "number": "note_num"}}}}');
SELECT d.id, (d.card).*, d.note_text, d.note_num FROM serde_decode(NULL::oo_vpay, '{"type": "card", "id": "1", "holder": "x", "note": 5}') d;
SELECT d.id, (d.card).*, d.note_text, d.note_num FROM serde_decode(NULL::oo_vpay, '{"type": "card", "id": "1", "holder": {"name": "y"}, "note": "n"}'::jsonb) d;
SELECT d.id, (d.card).*, d.note_text, d.note_num FROM serde_decode(NULL::oo_vpay, '{"type": "card", "id": "1"}') d;
SELECT d.id, (d.card).*, d.note_text, d.note_num FROM serde_decode(NULL::oo_vpay, '<p type="card"><holder><name>z</name></holder><note>7</note></p>'::xml) d;
SELECT * FROM serde_decode(NULL::oo_vpay, '{"type": "card", "id": "1", "holder": 1}');

-- ---- XML: an element with child elements is an object; text only (or empty) a string ------------
SELECT d.* FROM serde_decode(NULL::oo_pkg, '<package><name>x</name><author>Jane &lt;j@x.org&gt;</author>
  <repository><type>git</type><url>https://g/x.git</url></repository><funding>https://f</funding></package>'::xml) d;
SELECT d.* FROM serde_decode(NULL::oo_pkg, '<package><author>
    <name>Jane</name><email>j@x.org</email></author><repository>  git:x  </repository>
  <funding><type>t</type><url>u</url></funding><bin><a>./a</a><b>./b</b></bin></package>'::xml) d;
-- an empty element is the empty string; xsi:nil is null
SELECT quote_nullable(author_name) AS author_name, author, quote_nullable(repository_url) AS repository_url, repository
  FROM serde_decode(NULL::oo_pkg, '<package xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><author/><repository xsi:nil="true"/></package>'::xml) d;
-- number before boolean when text only and no string is listed
CREATE TYPE oo_nb AS (n int4, b boolean, o oo_funding);
SELECT serde_register('OoNb', 'oo_nb', '{"optional": true, "fields": {"n": {"name": "v", "one_of": {"boolean": "b", "number": "n"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_nb, '<r><v>12</v></r>'::xml) d;
SELECT * FROM serde_decode(NULL::oo_nb, '<r><v>true</v></r>'::xml);
SELECT d.* FROM serde_decode(NULL::oo_nb, '{"v": true}') d;
SELECT * FROM serde_decode(NULL::oo_nb, '<r><v><x>1</x></v></r>'::xml);
-- an attribute carries a scalar; an element without children and no scalar kind is an object
SELECT serde_register('OoNb', 'oo_nb', '{"optional": true, "fields": {"n": {"name": "v", "xml": "attribute", "one_of": {"boolean": "b", "number": "n"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_nb, '<r v="1"/>'::xml) d;
SELECT serde_register('OoNb', 'oo_nb', '{"optional": true, "fields": {"o": {"name": "v", "one_of": {"object": "o"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_nb, '<r><v/></r>'::xml) d;
SELECT d.* FROM serde_decode(NULL::oo_nb, '<r><v type="x"/></r>'::xml) d;
SELECT * FROM serde_decode(NULL::oo_nb, '{"v": "x"}');
-- XML errors: no column for the kind (2200N), at the element, with line and column
SELECT * FROM serde_decode(NULL::oo_val, '<r><k>a</k><v><x/></v></r>'::xml);
SELECT serde_register('OoNbX', 'oo_nb', '{"optional": true, "fields": {"n": {"name": "v", "one_of": {"boolean": "b", "number": "n"}},
    "b": {}, "o": {"name": "w", "one_of": {"object": "o"}}}}');
SELECT * FROM serde_decode_xml(NULL::oo_nb, E'<r>\n  <v>99999999999</v></r>', 'OoNbX');
-- (w: text only, no scalar kind listed: an object, whose text is never unknown)
SELECT path, code, message FROM serde_errors_xml('OoNbX', '<r><v>x</v><w>y</w><v>1</v></r>');
SELECT * FROM serde_decode(NULL::oo_val, '<r><k>a</k><v>12345.5</v></r>'::xml);
SELECT * FROM serde_decode(NULL::oo_small, '<r><id>1</id><author_name>a</author_name></r>'::xml, 'OoReject');
SELECT d.* FROM serde_decode(NULL::oo_small, '<r><id>1</id><author_name>a</author_name><author>b</author></r>'::xml, 'OoExtra') d;
SELECT * FROM serde_decode(NULL::oo_val, '<r><k>a</k></r>'::xml);
SELECT * FROM serde_errors_xml('OoPkg', '<package><author><name><b/></name></author><funding><x>1</x></funding><repository>r</repository><repository>s</repository></package>');
-- an array in XML: an element with child elements when no object is listed (its items: the
-- listed column's xml_item, or every child element)
CREATE TYPE oo_kw AS (kw_text text, kws text[]);
SELECT serde_register('OoKw', 'oo_kw', '{"fields": {"kws": {"name": "keywords", "xml_item": "k",
    "one_of": {"string": "kw_text", "array": "kws"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_kw, '<r><keywords><k>a</k><k>b</k></keywords></r>'::xml) d;
SELECT d.* FROM serde_decode(NULL::oo_kw, '<r><keywords>a, b</keywords></r>'::xml) d;
SELECT d.* FROM serde_decode(NULL::oo_kw, '{"keywords": ["a", "b"]}') d;
SELECT serde_register('OoKw', 'oo_kw', '{"fields": {"kw_text": {"name": "keywords",
    "one_of": {"string": "kw_text", "array": "kws"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_kw, '<r><keywords><k>a</k><x>b</x></keywords></r>'::xml) d;
SELECT d.* FROM serde_decode(NULL::oo_kw, '{"keywords": "a"}'::jsonb) d;
SELECT * FROM serde_decode(NULL::oo_kw, '<r><keywords><k>a</k></keywords><keywords>b</keywords></r>'::xml);
-- lists of composites and path in XML
SELECT serde_register('OoTeamX', 'oo_team', '{"optional": true, "fields": {
    "lead": {"path": ["meta", "lead"], "one_of": {"object": "lead", "string": "lead_name"}},
    "members": {"shape": "OoMaint", "xml_item": "m"}}}');
SELECT d.team, d.lead_name, d.lead, to_jsonb(d.members) AS members FROM serde_decode(NULL::oo_team,
    '<t><team>core</team><meta><lead><name>ann</name></lead></meta><members><m><role>dev</role><who>bob</who></m><m><who><name>cy</name></who></m></members></t>'::xml, 'OoTeamX') d;
SELECT path, code, message FROM serde_errors_xml('OoTeamX',
    '<t><meta><lead>x</lead></meta><members><m><who><name><n/></name></who></m><m><who><a/></who></m></members></t>');

-- ---- serde_describe ------------------------------------------------------------------------------
SELECT f->>'column' AS column, f->'one_of' AS one_of, f->>'in_one_of' AS in_one_of, f->>'name' AS name,
       f->'xml' AS xml FROM jsonb_array_elements(serde_describe('OoPkg')->'fields') f;

-- ---- a domain's CHECK in a listed column: reported at the member that held the value ------------
CREATE DOMAIN oo_pos AS int4 CHECK (VALUE > 0);
CREATE TYPE oo_dom AS (s text, n oo_pos);
SELECT serde_register('OoDom', 'oo_dom', '{"fields": {"s": {"name": "v", "one_of": {"string": "s", "number": "n"}}}}');
SELECT * FROM serde_decode(NULL::oo_dom, '{"v": -1}');
SELECT * FROM serde_errors(NULL::oo_dom, '{"v": -1}');
SELECT * FROM serde_errors(NULL::oo_dom, '{"v": -1}'::jsonb);
SELECT d.* FROM serde_decode(NULL::oo_dom, '{"v": 3}') d;
SELECT serde_register('OoDom', 'oo_dom', '{"fields": {"s": {"path": ["a", "v"], "one_of": {"string": "s", "number": "n"}}}}');
SELECT * FROM serde_errors(NULL::oo_dom, '{"a": {"v": -3}}');
SELECT serde_register('OoDom', 'oo_dom', '{"fields": {"s": {"path": ["a", "v"], "one_of": {"number": "n", "boolean": "s"}}}}');
SELECT * FROM serde_errors(NULL::oo_dom, '<r><a><v>-3</v></a></r>'::xml);
SELECT serde_register('OoDom', 'oo_dom', '{"fields": {"s": {"name": "v", "xml": "attribute", "one_of": {"number": "n", "boolean": "s"}}}}');
SELECT * FROM serde_decode(NULL::oo_dom, '<r v="-3"/>'::xml);

-- ---- registration errors: 22023 at the option's path ----------------------------------------------
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": "author_name"}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {}}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"strnig": "author_name", "object": "author"}}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": 1, "object": "author"}}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": "nope", "object": "author"}}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": "author_name"}}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": "author", "object": "author"}}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {
    "author": {"one_of": {"string": "author_name", "object": "author"}},
    "repository": {"one_of": {"string": "author_name", "object": "repository"}}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {
    "author": {"one_of": {"string": "author_name", "object": "author"}},
    "author_name": {"one_of": {"string": "author_name"}}}}');
-- a listed column takes value options only (format, shape, map, xml_item)
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": "author_name", "object": "author"}},
    "author_name": {"name": "an"}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": "author_name", "object": "author"}},
    "author_name": {"path": ["a", "b"]}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": "author_name", "object": "author"}},
    "author_name": {"optional": true}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": "author_name", "object": "author"}},
    "author_name": {"default": "x"}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": "author_name", "object": "author"}},
    "author_name": {"nullable": false}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": "author_name", "object": "author"}},
    "author_name": {"skip": true}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"skip": true, "one_of": {"string": "author_name", "object": "author"}}}}');
SELECT serde_register('OoBad', 'oo_small', '{"extra": "rest", "fields": {"author": {"one_of": {"string": "author_name", "object": "rest"}}}}');
SELECT serde_register('OoBad', 'oo_small', '{"extra": "rest", "fields": {"rest": {"one_of": {"string": "author_name", "object": "rest"}}}}');
CREATE TYPE oo_card AS (last4 text);
CREATE TYPE oo_pay AS (id text, card oo_card, note text);
SELECT serde_register('OoBad', 'oo_pay', '{"tag": "type", "variants": {"card": "card"},
    "fields": {"note": {"one_of": {"string": "note", "object": "card"}}}}');
-- a kind whose column can never take it
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"string": "author", "object": "author_name"}}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"author": {"one_of": {"array": "author", "string": "author_name"}}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"funding": {"one_of": {"object": "fundings", "string": "funding"}}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"bin": {"one_of": {"array": "bin", "string": "bin_path"}, "map": true}}}');
SELECT serde_register('OoBad', 'oo_pkg', '{"fields": {"bin": {"one_of": {"number": "bin", "string": "bin_path"}}}}');
-- json / jsonb columns take any kind
CREATE TYPE oo_any AS (s text, j jsonb);
SELECT serde_register('OoAny', 'oo_any', '{"fields": {"j": {"name": "v", "one_of": {"string": "s", "object": "j", "array": "j"}}}}');
SELECT serde_register('OoAny', 'oo_any', '{"fields": {"j": {"name": "v", "one_of": {"string": "s", "object": "j"}}}}');
SELECT d.* FROM serde_decode(NULL::oo_any, '{"v": {"a": [1, 2]}}') d;
SELECT d.* FROM serde_decode(NULL::oo_any, '{"v": "x"}'::jsonb) d;
-- a NOT NULL domain is refused in a group of several columns
CREATE DOMAIN oo_nn_text AS text NOT NULL;
CREATE TYPE oo_nn AS (a oo_nn_text, b int4);
SELECT serde_register('OoBad', 'oo_nn', '{"fields": {"b": {"one_of": {"string": "a", "number": "b"}}}}');
SELECT serde_register('OoBad', 'oo_nn', '{"fields": {"a": {"one_of": {"string": "a"}}}}');
SELECT serde_decode(NULL::oo_nn, '{"a": "x", "b": 1}', 'OoBad');
SELECT serde_decode(NULL::oo_nn, '{"a": 1, "b": 1}', 'OoBad');
SELECT serde_unregister('OoBad');
