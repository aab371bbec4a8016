#!/usr/bin/env bash
# cancel.sh — statement_timeout and query cancel (pg_cancel_backend) stop long serde decodes
# promptly (DESIGN §4): the time from the timeout (or the cancel request) to the error must stay
# under 1 s, for serde_decode_each over a JSON array, NDJSON and jsonb, and for serde_decode,
# serde_valid and serde_errors over the same big array.
#
# Uses PGHOST/PGPORT/PGUSER (as scripts/test.sh exports them); creates and drops the database
# serde_cancel_test.  Settings (environment):
#   SERDE_CANCEL_ROWS      elements of the test array (default 400000, about 40 MB of JSON)
#   SERDE_CANCEL_LIMIT_MS  allowed latency (default 1000)
# A measurement over the limit is repeated once (the machine may be busy) and fails only if the
# repeat is over the limit too.  Prints one line per measurement and the worst latency per mode.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DB=serde_cancel_test
ROWS=${SERDE_CANCEL_ROWS:-400000}
LIMIT_MS=${SERDE_CANCEL_LIMIT_MS:-1000}
TMP=$(mktemp -d)

psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }
cleanup() {
    rm -rf "$TMP"
    psql_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
psql_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

start_time=$(q -c "SELECT pg_postmaster_start_time()")

# documents stored uncompressed (STORAGE EXTERNAL), so detoasting is a plain copy
q >/dev/null <<EOF
CREATE EXTENSION serde;
CREATE TYPE cn_row AS (id int8, name text, amount numeric(12,2), at timestamptz, tags text[]);
CREATE TABLE cn_docs (kind text PRIMARY KEY, doc text, jdoc jsonb);
ALTER TABLE cn_docs ALTER doc SET STORAGE EXTERNAL, ALTER jdoc SET STORAGE EXTERNAL;
CREATE TEMP TABLE elems AS
SELECT format('{"id": %s, "name": "item %s", "amount": %s.25, "at": "2024-06-01T10:00:00Z", "tags": ["a", "b"]}',
              g, g, g % 100000) AS e
  FROM generate_series(1, $ROWS) g;
INSERT INTO cn_docs (kind, doc) SELECT 'array', '[' || string_agg(e, ',') || ']' FROM elems;
INSERT INTO cn_docs (kind, doc) SELECT 'ndjson', string_agg(e, E'\n') FROM elems;
INSERT INTO cn_docs (kind, jdoc) SELECT 'jsonb', doc::jsonb FROM cn_docs WHERE kind = 'array';
