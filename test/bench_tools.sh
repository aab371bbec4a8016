#!/usr/bin/env bash
# bench_tools.sh — the benchmark's own tools still build and run (bench/ is not exercised by any
# other test, and a broken floor would only show in the next benchmark run):
#   1. bench/run, bench/compare, bench/profile, bench/json_table and bench/lib/*.sh parse (bash -n); the Python
#      files compile; bench/workloads/gen.py generates the workloads;
#   2. both floors build as bench/run builds them (bench/lib/build_floors.sh, -Werror);
#   3. bench/floor.cpp (the standalone simdjson floor) parses every fixture document with status
#      "ok", and reports a malformed one as an error;
#   4. bench/pgfloor (serde_bench_floor.so, the floor inside the backend) loads into the test
#      server by absolute path (nothing is installed), returns the same sink for the same
#      document twice, and raises 22P02 on malformed JSON;
#   5. the libxml2 floor in the same module (bench/pgfloor/pgfloor_xml.c) parses every XML fixture
#      and raises 2200M on malformed XML; PostgreSQL's xpath() still works after it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
tmp=$(mktemp -d /tmp/serde-bench-tools-XXXXXX)
DB=serde_bench_tools
psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }
cleanup() {
    psql_admin -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
check() { # check NAME EXPECTED ACTUAL
    if [[ $2 == "$3" ]]; then
        echo "ok: $1"
    else
        echo "FAIL: $1: expected '$2', got '$3'"
        fail=1
    fi
}

# 1. scripts parse, the generator runs
for f in bench/run bench/compare bench/profile bench/json_table bench/lib/load.sh bench/lib/build_floors.sh; do
    bash -n "$f"
done
python3 -c 'import sys
for f in sys.argv[1:]:
    compile(open(f).read(), f, "exec")' bench/lib/*.py bench/workloads/gen.py
python3 bench/workloads/gen.py --out "$tmp/workloads" >/dev/null 2>&1
check "gen.py writes a manifest with the in-backend floor competitor" yes \
    "$(grep -q '"floor_simdjson"' "$tmp/workloads/manifest.json" && echo yes || echo no)"

# 2./3. the standalone floor program
bash bench/lib/build_floors.sh "$tmp" program
printf '{"a": [1, 2,' >"$tmp/bad.json"
"$tmp/floor" --runs 1 --min-ms 1 fixtures/json/*.json "$tmp/bad.json" >"$tmp/floor.tsv" 2>/dev/null
ndocs=$(ls fixtures/json/*.json | wc -l)
check "floor: every fixture parses" "$ndocs" "$(awk -F'\t' 'NR > 1 && $1 != "bad.json" && $8 == "ok"' "$tmp/floor.tsv" | wc -l)"
check "floor: a truncated document is an error" 1 "$(awk -F'\t' '$1 == "bad.json" && $8 != "ok"' "$tmp/floor.tsv" | wc -l)"

# 2./4. the in-backend floor, built as bench/run builds it, loaded by path
bash bench/lib/build_floors.sh "$tmp" module
chmod 755 "$tmp"
chmod 644 "$tmp/serde_bench_floor.so"
psql_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
doc=$(cat fixtures/json/stripe_invoice.json)
out=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" -v doc="$doc" 2>&1 <<EOF
CREATE FUNCTION simdjson_floor(text) RETURNS int8 AS '$tmp/serde_bench_floor.so', 'serde_bench_floor'
    LANGUAGE C STRICT VOLATILE;
SELECT simdjson_floor(:'doc') = simdjson_floor(:'doc') AND simdjson_floor(:'doc') > 0;
SELECT simdjson_floor(repeat(' ', 5000) || '[1]') > 0;
\set ON_ERROR_STOP 0
\set VERBOSITY sqlstate
SELECT simdjson_floor('{"a": [1, 2,');
EOF
)
check "in-backend floor: same sink twice, padded copy grows, malformed raises 22P02" $'t\nt\nERROR:  22P02' "$out"

# 5. the libxml2 floor of the XML workloads (same module): the same sink for the same document
# twice (the context is reset between documents), every XML fixture parses, malformed XML and an
# unbound prefix raise 2200M, and PostgreSQL's own XML functions still work afterwards
s3=$(cat fixtures/xml/s3_list_bucket.xml)
out=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" -v doc="$s3" 2>&1 <<EOF
CREATE FUNCTION libxml2_floor(text) RETURNS int8 AS '$tmp/serde_bench_floor.so', 'serde_bench_xml_floor'
    LANGUAGE C STRICT VOLATILE;
SELECT libxml2_floor(:'doc') = libxml2_floor(:'doc') AND libxml2_floor(:'doc') > 0;
\set ON_ERROR_STOP 0
\set VERBOSITY sqlstate
SELECT libxml2_floor('<r><v>x</w></r>');
SELECT libxml2_floor('<r><x:v/></r>');
\set ON_ERROR_STOP 1
SELECT xpath('/r/a/text()', '<r><a>1</a></r>'::xml)::text, libxml2_floor('<r/>') > 0;
EOF
)
check "libxml2 floor: same sink twice, malformed and unbound prefix raise 2200M, xpath() still works" \
    $'t\nERROR:  2200M\nERROR:  2200M\n{1}|t' "$out"
nok=0
for f in fixtures/xml/*.xml; do
    r=$(psql -X -q -At -d "$DB" -v doc="$(cat "$f")" <<<"SELECT libxml2_floor(:'doc') > 0;" 2>&1)
    [[ $r == t ]] && nok=$((nok + 1))
done
check "libxml2 floor: every XML fixture parses" "$(ls fixtures/xml/*.xml | wc -l)" "$nok"

if ((fail)); then
    echo "bench_tools: FAILED"
    exit 1
fi
echo "bench_tools: all checks passed"
