-- test/dump_restore/setup.sql — the source database of test/dump_restore.sh (run with psql from
-- the repository root): the fixture types and shapes, tables of documents, a table of decoded
-- rows, a validating trigger, and catalog rows stored in an order a restore must cope with.
SET client_min_messages = warning;
CREATE EXTENSION serde;
\i fixtures/sql/types.sql
\i fixtures/sql/shapes.sql

-- Re-register shapes that others refer to ("shape": …), after their users: an UPDATE writes a
-- new row version at the end of the table, so pg_dump's COPY (physical order) now lists the
-- referring shapes before the shapes they refer to.
SELECT serde_register(name, target, options)
  FROM serde.shapes
 WHERE name IN ('StripeRecurring', 'StripePrice', 'GithubUser', 'K8sContainer', 'JsonApiLinks')
 ORDER BY name;

-- a chain of shapes written in reverse order of dependency, and a recursive one
CREATE TYPE dr_leaf AS (id int4, tag text);
CREATE TYPE dr_mid AS (leaf dr_leaf, leaves dr_leaf[]);
CREATE TYPE dr_top AS (mid dr_mid, note text, tree jsonb);
SELECT serde_register('DrLeaf', 'dr_leaf');
SELECT serde_register('DrMid', 'dr_mid', '{"fields": {"leaf": {"shape": "DrLeaf"}, "leaves": {"shape": "DrLeaf", "default": []}}}');
SELECT serde_register('DrTop', 'dr_top', '{"rename": "camel", "fields": {"mid": {"shape": "DrMid"}, "note": {"optional": true},
                                            "tree": {"shape": "DrTop", "optional": true}}}');
SELECT serde_register('DrLeaf', 'dr_leaf', '{"fields": {"tag": {"name": "label", "default": "none"}}}');
SELECT serde_register('DrMid', 'dr_mid', '{"fields": {"leaf": {"shape": "DrLeaf"}, "leaves": {"shape": "DrLeaf", "default": []}}}');

-- the documents: every fixture, good and mutated, as text and as jsonb, with the shape to use
CREATE TABLE inbox (file text PRIMARY KEY, shape text NOT NULL, body text NOT NULL, body_jsonb jsonb);
\set content `cat fixtures/json/stripe_invoice.json`
INSERT INTO inbox VALUES ('stripe_invoice.json', 'StripeInvoice', :'content', :'content');
\set content `cat fixtures/json/github_pull_request.json`
INSERT INTO inbox VALUES ('github_pull_request.json', 'GithubPullRequestEvent', :'content', :'content');
\set content `cat fixtures/json/k8s_deployment.json`
INSERT INTO inbox VALUES ('k8s_deployment.json', 'K8sDeployment', :'content', :'content');
\set content `cat fixtures/json/jsonapi_compound.json`
INSERT INTO inbox VALUES ('jsonapi_compound.json', 'JsonApiDocument', :'content', :'content');
\set content `cat fixtures/json/msk_event.json`
INSERT INTO inbox VALUES ('msk_event.json', 'MskEvent', :'content', :'content');
\set content `cat fixtures/json/msk_record.json`
INSERT INTO inbox VALUES ('msk_record.json', 'MskRecord', :'content', :'content');
-- (the mutated copies, fixtures/json/mutated/*.json, are added by dump_restore.sh)
INSERT INTO inbox VALUES ('dr_top.json', 'DrTop',
    '{"mid": {"leaf": {"id": 1}, "leaves": [{"id": 2, "label": "b"}, {"id": 3}]}, "note": "n",
      "tree": {"mid": {"leaf": {"id": 4, "label": "d"}}, "tree": {"mid": {"leaf": {"id": 5}}}}}', NULL);
-- NDJSON of several MSK records, for serde_decode_each
CREATE TABLE batches (name text PRIMARY KEY, shape text NOT NULL, body text NOT NULL);
INSERT INTO batches
SELECT 'msk_records.ndjson', 'MskRecord',
       string_agg(replace(replace(body, E'\n', ' '), '"offset": 902331', '"offset": ' || (902330 + g)), E'\n')
  FROM inbox, generate_series(1, 5) g WHERE file = 'msk_record.json';

-- typed rows decoded into tables of the fixture types (composite columns restored by COPY)
CREATE TABLE invoices (id serial PRIMARY KEY, invoice stripe_invoice NOT NULL);
INSERT INTO invoices (invoice) SELECT serde_decode(NULL::stripe_invoice, body) FROM inbox WHERE file = 'stripe_invoice.json';
CREATE TABLE deployments AS SELECT d.* FROM inbox, LATERAL serde_decode(NULL::k8s_deployment, body) d
 WHERE file = 'k8s_deployment.json';

-- validation in a trigger (not a CHECK, which a restore would run before serde.shapes is back)
CREATE FUNCTION inbox_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.file NOT LIKE 'mutated/%' AND NOT serde_valid(NEW.shape, NEW.body) THEN
        RAISE EXCEPTION 'invalid document %', NEW.file;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER inbox_check BEFORE INSERT OR UPDATE ON inbox FOR EACH ROW EXECUTE FUNCTION inbox_check();
