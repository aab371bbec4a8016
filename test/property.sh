#!/usr/bin/env bash
# test/property.sh — runs the property test (test/property.py) against the server in PGHOST /
# PGPORT / PGUSER: random shapes and documents decoded from text, json, jsonb and bytea must
# agree, and serde_errors must be empty exactly when serde_decode succeeds.  A fixed seed;
# extra arguments go to property.py (--seed N, --shapes N, --docs N, --verbose).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec python3 test/property.py "$@"
