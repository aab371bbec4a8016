-- fixtures.sql — every fixture of fixtures/ decodes with its shape (a few key columns of each are
-- printed), and each mutated copy fails with the SQLSTATE and path listed in
-- fixtures/json/mutated/EXPECTED.tsv.  Files are read client-side with psql backticks, relative
-- to the directory pg_regress runs in (the repository root, as `make installcheck` does).
SET client_min_messages = warning;   -- no NOTICE whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- the fixture types and shapes (quietly: their scripts are long)
\set ECHO none
\o /dev/null
\i fixtures/sql/types.sql
\i fixtures/sql/shapes.sql
\o
\set ECHO all
SELECT count(*) AS fixture_shapes FROM serde.shapes
 WHERE name ~ '^(Stripe|Github|K8s|JsonApi|Msk)';

CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(det, '') || ']', '');
END $f$;

-- ---- the documents ----------------------------------------------------------------------------------
CREATE TABLE fx_docs (file text PRIMARY KEY, body text NOT NULL);
\set content `cat fixtures/json/stripe_invoice.json`
INSERT INTO fx_docs VALUES ('stripe_invoice.json', :'content');
\set content `cat fixtures/json/github_pull_request.json`
INSERT INTO fx_docs VALUES ('github_pull_request.json', :'content');
\set content `cat fixtures/json/k8s_deployment.json`
INSERT INTO fx_docs VALUES ('k8s_deployment.json', :'content');
\set content `cat fixtures/json/jsonapi_compound.json`
INSERT INTO fx_docs VALUES ('jsonapi_compound.json', :'content');
\set content `cat fixtures/json/msk_event.json`
INSERT INTO fx_docs VALUES ('msk_event.json', :'content');
\set content `cat fixtures/json/msk_record.json`
INSERT INTO fx_docs VALUES ('msk_record.json', :'content');
\set content `cat fixtures/json/mutated/stripe_invoice.wrong_type.json`
INSERT INTO fx_docs VALUES ('stripe_invoice.wrong_type.json', :'content');
\set content `cat fixtures/json/mutated/stripe_invoice.missing.json`
INSERT INTO fx_docs VALUES ('stripe_invoice.missing.json', :'content');
\set content `cat fixtures/json/mutated/stripe_invoice.bad_enum.json`
INSERT INTO fx_docs VALUES ('stripe_invoice.bad_enum.json', :'content');
\set content `cat fixtures/json/mutated/github_pull_request.wrong_type.json`
INSERT INTO fx_docs VALUES ('github_pull_request.wrong_type.json', :'content');
\set content `cat fixtures/json/mutated/github_pull_request.missing.json`
INSERT INTO fx_docs VALUES ('github_pull_request.missing.json', :'content');
\set content `cat fixtures/json/mutated/github_pull_request.bad_enum.json`
INSERT INTO fx_docs VALUES ('github_pull_request.bad_enum.json', :'content');
\set content `cat fixtures/json/mutated/k8s_deployment.wrong_type.json`
INSERT INTO fx_docs VALUES ('k8s_deployment.wrong_type.json', :'content');
\set content `cat fixtures/json/mutated/k8s_deployment.missing.json`
INSERT INTO fx_docs VALUES ('k8s_deployment.missing.json', :'content');
\set content `cat fixtures/json/mutated/k8s_deployment.bad_enum.json`
INSERT INTO fx_docs VALUES ('k8s_deployment.bad_enum.json', :'content');
\set content `cat fixtures/json/mutated/jsonapi_compound.wrong_type.json`
INSERT INTO fx_docs VALUES ('jsonapi_compound.wrong_type.json', :'content');
\set content `cat fixtures/json/mutated/jsonapi_compound.missing.json`
INSERT INTO fx_docs VALUES ('jsonapi_compound.missing.json', :'content');
\set content `cat fixtures/json/mutated/jsonapi_compound.bad_enum.json`
INSERT INTO fx_docs VALUES ('jsonapi_compound.bad_enum.json', :'content');
\set content `cat fixtures/json/mutated/msk_event.wrong_type.json`
INSERT INTO fx_docs VALUES ('msk_event.wrong_type.json', :'content');
\set content `cat fixtures/json/mutated/msk_event.missing.json`
INSERT INTO fx_docs VALUES ('msk_event.missing.json', :'content');
\set content `cat fixtures/json/mutated/msk_event.bad_enum.json`
INSERT INTO fx_docs VALUES ('msk_event.bad_enum.json', :'content');
\set content `cat fixtures/json/mutated/msk_record.wrong_type.json`
INSERT INTO fx_docs VALUES ('msk_record.wrong_type.json', :'content');
\set content `cat fixtures/json/mutated/msk_record.missing.json`
INSERT INTO fx_docs VALUES ('msk_record.missing.json', :'content');
\set content `cat fixtures/json/mutated/msk_record.bad_enum.json`
INSERT INTO fx_docs VALUES ('msk_record.bad_enum.json', :'content');
-- fixtures/demo.tsv (file → type → shape) and fixtures/json/mutated/EXPECTED.tsv (file → SQLSTATE → path)
\set content `cat fixtures/demo.tsv`
CREATE TABLE fx_demo AS
SELECT split_part(l, E'\t', 1) AS file, split_part(l, E'\t', 2)::regtype AS target, split_part(l, E'\t', 3) AS shape
  FROM regexp_split_to_table(:'content', E'\n') l WHERE l <> '';
\set content `cat fixtures/json/mutated/EXPECTED.tsv`
CREATE TABLE fx_expected AS
SELECT split_part(l, E'\t', 1) AS file, split_part(l, E'\t', 2) AS sqlstate, split_part(l, E'\t', 3) AS path
  FROM regexp_split_to_table(:'content', E'\n') l WHERE l <> '';
SELECT (SELECT count(*) FROM fx_docs) AS documents, (SELECT count(*) FROM fx_demo) AS fixtures,
       (SELECT count(*) FROM fx_expected) AS mutations;

-- ---- every fixture decodes: valid, typed form, record form, and as jsonb ------------------------------
SELECT m.file, m.shape, m.target,
       serde_valid(m.shape, f.body) AS valid,
       serde_valid(m.shape, f.body::jsonb) AS valid_jsonb,
       serde_valid(m.shape, convert_to(f.body, 'UTF8')) AS valid_bytea,
       pg_temp.try(format('SELECT (serde_decode(%L, %L) IS DISTINCT FROM NULL)::text', m.shape, f.body)) AS record_form,
       pg_temp.try(format('SELECT (d IS DISTINCT FROM NULL)::text FROM serde_decode(NULL::%s, %L, %L) d',
                          m.target, f.body, m.shape)) AS typed_form,
       pg_temp.try(format('SELECT (serde_decode(%L, %L)::text = serde_decode(%L, %L::jsonb)::text)::text',
                          m.shape, f.body, m.shape, f.body)) AS jsonb_equal
  FROM fx_demo m JOIN fx_docs f USING (file) ORDER BY m.file;

-- ---- key columns of each fixture (typed LATERAL form) ------------------------------------------------
-- Stripe invoice: unix timestamps, path, default, skip, enums, nested line list with prices
SET TimeZone = 'UTC';
SELECT d.id, d.status, d.amount_due, d.total, d.currency, d.created, d.paid_at, d.due_date,
       d.attempt_count, d.received_at IS NULL AS skipped, d.metadata,
       (d.default_tax_rates[1]).percentage AS tax_pct
  FROM fx_docs f, LATERAL serde_decode(NULL::stripe_invoice, f.body) d WHERE f.file = 'stripe_invoice.json';
SELECT l.id, l.amount, l.quantity, l.period_start, l.period_end, l.type, (l.price).unit_amount,
       ((l.price).recurring).billing_interval, (l.price).recurring IS NULL AS one_time
  FROM fx_docs f, LATERAL serde_decode(NULL::stripe_invoice, f.body) d, LATERAL unnest((d.lines).data) l
 WHERE f.file = 'stripe_invoice.json';
-- GitHub pull_request webhook: paths 2 and 3 deep, GithubUser reused, labels, skip
SELECT d.action, d.number, d.installation_id, d.delivery_id IS NULL AS skipped, (d.sender).login AS sender,
       (d.repository).full_name, ((d.repository).owner).type AS owner_type
  FROM fx_docs f, LATERAL serde_decode(NULL::gh_pull_request_event, f.body) d
 WHERE f.file = 'github_pull_request.json';
SELECT p.id, p.state, p.merged, p.draft, (p.author).login AS author, p.head_ref, p.head_sha,
       p.head_repo_full_name, p.base_ref, p.merged_at, p.milestone IS NULL AS no_milestone,
       cardinality(p.requested_reviewers) AS reviewers, p.author_association
  FROM fx_docs f, LATERAL serde_decode(NULL::gh_pull_request_event, f.body) d, LATERAL (SELECT (d.pull_request).*) p
 WHERE f.file = 'github_pull_request.json';
SELECT l.id, l.name, l.color, l.is_default
  FROM fx_docs f, LATERAL serde_decode(NULL::gh_pull_request_event, f.body) d,
       LATERAL unnest((d.pull_request).labels) l
 WHERE f.file = 'github_pull_request.json';
-- Kubernetes Deployment: camelCase through 6 levels, sparse, defaults, inherited policy
SELECT d.api_version, d.kind, (d.metadata).name, (d.metadata).uid, (d.metadata).creation_timestamp,
       (d.spec).replicas, (d.spec).paused, ((d.spec).strategy).type AS strategy,
       (d.status).ready_replicas, (d.status).unavailable_replicas
  FROM fx_docs f, LATERAL serde_decode(NULL::k8s_deployment, f.body) d WHERE f.file = 'k8s_deployment.json';
SELECT c.name, c.image, c.image_pull_policy, cardinality(c.ports) AS ports, cardinality(c.env) AS env,
       (c.resources).limits, (c.ports[1]).container_port, (c.ports[1]).protocol
  FROM fx_docs f, LATERAL serde_decode(NULL::k8s_deployment, f.body) d,
       LATERAL unnest((((d.spec).template).spec).containers) c
 WHERE f.file = 'k8s_deployment.json';
SELECT s.type, s.status, s.reason, s.last_update_time
  FROM fx_docs f, LATERAL serde_decode(NULL::k8s_deployment, f.body) d, LATERAL unnest((d.status).conditions) s
 WHERE f.file = 'k8s_deployment.json';
-- JSON:API compound document
SELECT cardinality(d.data) AS articles, cardinality(d.included) AS included, (d.links).next, (d.links).prev,
       d.meta
  FROM fx_docs f, LATERAL serde_decode(NULL::jsonapi_document, f.body) d WHERE f.file = 'jsonapi_compound.json';
SELECT a.type, a.id, (a.attributes).title, (a.attributes).word_count, (a.attributes).created
  FROM fx_docs f, LATERAL serde_decode(NULL::jsonapi_document, f.body) d, LATERAL unnest(d.data) a
 WHERE f.file = 'jsonapi_compound.json';
SELECT r.type, r.id, r.attributes
  FROM fx_docs f, LATERAL serde_decode(NULL::jsonapi_document, f.body) d, LATERAL unnest(d.included) r
 WHERE f.file = 'jsonapi_compound.json';
-- AWS MSK: the event, and one record (unix_ms, base64)
SELECT d.event_source, d.event_source_arn, d.bootstrap_servers, jsonb_object_keys(d.records) AS partitions
  FROM fx_docs f, LATERAL serde_decode(NULL::msk_event, f.body) d WHERE f.file = 'msk_event.json';
SELECT d.topic, d.partition, d.record_offset, d.record_time, d.timestamp_type, convert_from(d.key, 'UTF8') AS key,
       convert_from(d.value, 'UTF8')::jsonb->>'status' AS value_status, jsonb_array_length(d.headers) AS headers
  FROM fx_docs f, LATERAL serde_decode(NULL::msk_record, f.body) d WHERE f.file = 'msk_record.json';
-- each record of the event decodes with MskRecord too
SELECT r.key AS partition, count(*) AS records, min(x.record_offset) AS first_offset, bool_and(x.topic IS NOT NULL) AS ok
  FROM fx_docs f, LATERAL serde_decode(NULL::msk_event, f.body) d, LATERAL jsonb_each(d.records) r,
       LATERAL jsonb_array_elements(r.value) e, LATERAL serde_decode(NULL::msk_record, e.value) x
 WHERE f.file = 'msk_event.json' GROUP BY r.key ORDER BY r.key;
RESET TimeZone;

-- ---- each mutated copy fails with the SQLSTATE and path of EXPECTED.tsv ------------------------------
CREATE TABLE fx_results AS
SELECT e.file, e.sqlstate AS expected_state, e.path AS expected_path, m.shape,
       pg_temp.try(format('SELECT serde_decode(%L, %L)::text', m.shape, f.body)) AS result,
       pg_temp.try(format('SELECT serde_decode(%L, %L::jsonb)::text', m.shape, f.body)) AS jsonb_result
  FROM fx_expected e
  JOIN fx_docs f USING (file)
  JOIN fx_demo m ON m.file = split_part(e.file, '.', 1) || '.json';
SELECT file, expected_state, expected_path,
       result LIKE 'ERROR ' || expected_state || ': ' || shape || ': ' || expected_path || ': %' AS matches,
       jsonb_result LIKE 'ERROR ' || expected_state || ': ' || shape || ': ' || expected_path || ': %' AS jsonb_matches,
       serde_valid(shape, (SELECT body FROM fx_docs d WHERE d.file = r.file)) AS valid
  FROM fx_results r ORDER BY file;
-- the full messages
SELECT file, result FROM fx_results ORDER BY file;
-- the path finds the changed value in the mutated document (for a missing member: in the original)
SELECT e.file, e.path,
       coalesce(jsonb_path_query_first(f.body::jsonb, e.path::jsonpath),
                jsonb_path_query_first(o.body::jsonb, e.path::jsonpath)) IS NOT NULL AS path_found,
       jsonb_path_query_first(f.body::jsonb, e.path::jsonpath) IS NULL AS missing_in_mutated
  FROM fx_expected e JOIN fx_docs f USING (file) JOIN fx_docs o ON o.file = split_part(e.file, '.', 1) || '.json'
 ORDER BY e.file;

-- ---- clean up ----------------------------------------------------------------------------------------
DROP TABLE fx_results, fx_expected, fx_demo, fx_docs;
SELECT count(*) FILTER (WHERE serde_unregister(name)) AS unregistered
  FROM (SELECT name FROM serde.shapes WHERE name ~ '^(Stripe|Github|K8s|JsonApi|Msk)') s;
DROP TYPE stripe_invoice, stripe_tax_rate, stripe_invoice_line_list, stripe_invoice_line, stripe_price,
          stripe_recurring, stripe_usage_type, stripe_recurring_interval, stripe_price_type,
          stripe_line_item_type, stripe_billing_reason, stripe_collection_method, stripe_invoice_status;
DROP TYPE gh_pull_request_event, gh_pull_request, gh_repository, gh_milestone, gh_label, gh_user,
          gh_milestone_state, gh_repo_visibility, gh_author_association, gh_account_type, gh_pr_state,
          gh_pr_action;
DROP TYPE k8s_deployment, k8s_deployment_status, k8s_deployment_condition, k8s_deployment_spec,
          k8s_deployment_strategy, k8s_rolling_update, k8s_label_selector, k8s_pod_template, k8s_pod_spec,
          k8s_container, k8s_volume_mount, k8s_resource_requirements, k8s_env_var, k8s_container_port,
          k8s_object_meta, k8s_condition_status, k8s_strategy_type, k8s_restart_policy, k8s_pull_policy,
          k8s_protocol;
DROP TYPE jsonapi_document, jsonapi_pagination_links, jsonapi_resource, jsonapi_article,
          jsonapi_article_relationships, jsonapi_article_attributes, jsonapi_to_many, jsonapi_to_one,
          jsonapi_relationship_links, jsonapi_resource_identifier, jsonapi_resource_type;
DROP TYPE msk_event, msk_record, msk_timestamp_type, msk_event_source;
DROP FUNCTION pg_temp.try(text);
