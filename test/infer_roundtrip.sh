#!/usr/bin/env bash
# infer_roundtrip.sh — serde_infer's acceptance test: every JSON and XML fixture document (and
# sets of them) decodes with the script inferred from it, and the row written back equals the
# document (test/infer_roundtrip.py says how).  Needs a running server (PG* as scripts/test.sh
# sets them) and python3; runs in a database of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
DB=serde_infer_roundtrip
psql -X -q -d "${PGDATABASE:-postgres}" -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
trap 'psql -X -q -d "${PGDATABASE:-postgres}" -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true' EXIT
psql -X -q -d $DB -c "CREATE EXTENSION serde" >/dev/null
SERDE_RT_DB=$DB python3 test/infer_roundtrip.py
