#!/usr/bin/env bash
# scripts/demo.sh — build and install serde, then decode every demo fixture into typed rows.
#
#   bash scripts/demo.sh
#
# Steps: install missing Debian packages (scripts/deps.sh), `make -j2`, `make install`, start a
# throwaway PostgreSQL 15 cluster (scripts/pgcluster.sh; skipped when PGHOST is set), recreate
# the database serde_demo, CREATE EXTENSION serde, load fixtures/sql/types.sql and shapes.sql,
# then for each line `file<TAB>type<TAB>shape` of fixtures/demo.tsv store fixtures/json/<file> in
# table inbox and print its decoded row:
#   SELECT d.* FROM inbox, LATERAL serde_decode(NULL::<type>, body, '<shape>') d WHERE name = …
# Then it decodes one bad document to show serde's error (SQLSTATE, path, DETAIL).  Finally the
# SQLite extension (make sqlite): .load, register the Stripe descriptors, serde_decode, the virtual
# table, one error and serde_errors, in the sqlite3 shell.
#
# The throwaway cluster is stopped at the end unless SERDE_KEEP=1. Exits non-zero if any step
# failed (a good fixture that does not decode, or a bad one that does).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

TSV=fixtures/demo.tsv
BAD=fixtures/json/mutated/stripe_invoice.wrong_type.json

section() { printf '\n==== %s ====\n\n' "$*"; }

failures=0
fail() {
    echo "demo: FAILED: $*" >&2
    failures=$((failures + 1))
}

# ---- build and install --------------------------------------------------------------------------
section "Dependencies (scripts/deps.sh)"
bash scripts/deps.sh
echo "all packages present"

section "Build (make -j2)"
make -j2

section "Install (make install)"
make install

# ---- server -------------------------------------------------------------------------------------
section "PostgreSQL server"
own_cluster=0
if [[ -z ${PGHOST:-} ]]; then
    own_cluster=1
fi
cleanup() {
    if ((own_cluster)); then
        if [[ ${SERDE_KEEP:-0} == 1 ]]; then
            echo
            echo "demo: SERDE_KEEP=1: the cluster keeps running. Connect with:"
            echo "    eval \"\$(bash scripts/pgcluster.sh env)\"; psql -d serde_demo"
            echo "and stop it with: bash scripts/pgcluster.sh stop"
        else
            bash scripts/pgcluster.sh stop || true
        fi
    fi
}
trap cleanup EXIT

bash scripts/pgcluster.sh start
eval "$(bash scripts/pgcluster.sh env)"
export PGCLIENTENCODING=UTF8
psql -X -At -d "${PGDATABASE:-postgres}" -c "SELECT 'server: ' || version()"

PSQL=(psql -X -q --pset=pager=off)

section "Database serde_demo"
"${PSQL[@]}" -v ON_ERROR_STOP=1 -d postgres \
    -c 'SET client_min_messages = warning' \
    -c 'DROP DATABASE IF EXISTS serde_demo WITH (FORCE)' \
    -c 'CREATE DATABASE serde_demo'
export PGDATABASE=serde_demo

for f in fixtures/sql/types.sql fixtures/sql/shapes.sql "$TSV"; do
    [[ -f $f ]] || { echo "demo: missing $f" >&2; exit 1; }
done

echo "CREATE EXTENSION serde; \\i fixtures/sql/types.sql; \\i fixtures/sql/shapes.sql"
"${PSQL[@]}" -v ON_ERROR_STOP=1 \
    -c 'CREATE EXTENSION serde' \
    -f fixtures/sql/types.sql \
    -f fixtures/sql/shapes.sql \
    -c 'CREATE TABLE inbox (name text PRIMARY KEY, body text NOT NULL)'
"${PSQL[@]}" -c "SELECT extname, extversion FROM pg_extension WHERE extname = 'serde'"

# ---- decode every fixture -------------------------------------------------------------------------
declare -A type_of=() shape_of=()
rows=()
while IFS=$'\t' read -r file type shape rest || [[ -n ${file:-} ]]; do
    [[ -z $file || $file == \#* ]] && continue
    if [[ -n ${rest:-} || -z ${type:-} || -z ${shape:-} ]]; then
        fail "$TSV: bad line '$file	${type:-}	${shape:-}'"
        continue
    fi
    # Only plain names: the type is pasted into SQL, the file name into a shell command.
    if ! [[ $file =~ ^[A-Za-z0-9_.-]+$ && $type =~ ^[A-Za-z_][A-Za-z0-9_.]*$ ]]; then
        fail "$TSV: unexpected characters in '$file' / '$type'"
        continue
    fi
    type_of[$file]=$type
    shape_of[$file]=$shape
    rows+=("$file")
done <"$TSV"

for file in "${rows[@]}"; do
    path=fixtures/json/$file
    type=${type_of[$file]}
    shape=${shape_of[$file]}
    name=${file%.json}
    section "$file -> $type (shape $shape)"
    if [[ ! -f $path ]]; then
        fail "missing fixture $path"
        continue
    fi
    echo "-- $(wc -c <"$path") bytes"
    echo "SELECT d.* FROM inbox, LATERAL serde_decode(NULL::$type, body, '$shape') d WHERE name = '$name';"
    echo
    if ! "${PSQL[@]}" -v ON_ERROR_STOP=1 -v name="$name" -v path="$path" -v shape="$shape" <<SQL
\\set body \`cat :'path'\`
INSERT INTO inbox (name, body) VALUES (:'name', :'body');
\\x on
SELECT d.* FROM inbox, LATERAL serde_decode(NULL::$type, body, :'shape') d WHERE name = :'name';
SQL
    then
        fail "$file did not decode"
    fi
done

# ---- one bad document ------------------------------------------------------------------------------
bad_file=$(basename "$BAD")
base=${bad_file%%.*}.json
section "A bad document: $BAD"
if [[ ! -f $BAD ]]; then
    fail "missing fixture $BAD"
elif [[ -z ${type_of[$base]:-} ]]; then
    fail "$TSV has no line for $base (needed for $bad_file)"
else
    type=${type_of[$base]}
    shape=${shape_of[$base]}
    name=${bad_file%.json}
    echo "\\set VERBOSITY verbose"
    echo "SELECT d.* FROM inbox, LATERAL serde_decode(NULL::$type, body, '$shape') d WHERE name = '$name';"
    echo
    # No ON_ERROR_STOP: the decode is expected to fail; psql reports the error and goes on.
    out=$("${PSQL[@]}" -v name="$name" -v path="$BAD" -v shape="$shape" 2>&1 <<SQL
\\set body \`cat :'path'\`
INSERT INTO inbox (name, body) VALUES (:'name', :'body');
\\set VERBOSITY verbose
SELECT d.* FROM inbox, LATERAL serde_decode(NULL::$type, body, :'shape') d WHERE name = :'name';
SQL
    ) || true
    printf '%s\n' "$out"
    if ! grep -q '^ERROR:' <<<"$out"; then
        fail "the bad document $bad_file decoded without an error"
    fi

    echo
    echo "The same document through serde_valid and serde_errors (every violation):"
    echo
    if ! "${PSQL[@]}" -v ON_ERROR_STOP=1 -v name="$name" -v shape="$shape" <<SQL
SELECT serde_valid(NULL::$type, body, :'shape') AS valid FROM inbox WHERE name = :'name';
SELECT e.* FROM inbox, LATERAL serde_errors(NULL::$type, body, :'shape') e WHERE name = :'name';
SQL
    then
        fail "serde_valid / serde_errors on $bad_file"
    fi
fi

# ---- XML: the same engine, a libxml2 SAX2 walker ------------------------------------------------------
section "XML: an S3 ListBucketResult (fixtures/xml/s3_list_bucket.xml) through serde_decode_xml"
echo "\\i fixtures/sql/xml_types.sql; \\i fixtures/sql/xml_shapes.sql"
echo "SELECT d.name, d.is_truncated, cardinality(d.contents) AS objects, (d.contents[3]).key, (d.contents[3]).size"
echo "  FROM xml_inbox, LATERAL serde_decode_xml(NULL::s3_list_bucket_result, body) d;"
echo
if ! "${PSQL[@]}" -v ON_ERROR_STOP=1 <<SQL
\\set QUIET on
\\i fixtures/sql/xml_types.sql
\\i fixtures/sql/xml_shapes.sql
CREATE TABLE xml_inbox (name text PRIMARY KEY, body text NOT NULL);
\\set body \`cat fixtures/xml/s3_list_bucket.xml\`
INSERT INTO xml_inbox VALUES ('s3', :'body');
\\set body \`cat fixtures/xml/mutated/s3_list_bucket.wrong_value.xml\`
INSERT INTO xml_inbox VALUES ('s3_bad', :'body');
\\set QUIET off
SELECT d.name, d.is_truncated, cardinality(d.contents) AS objects, (d.contents[3]).key, (d.contents[3]).size
  FROM xml_inbox, LATERAL serde_decode_xml(NULL::s3_list_bucket_result, body) d WHERE xml_inbox.name = 's3';
SELECT e.* FROM xml_inbox, LATERAL serde_errors_xml(NULL::s3_list_bucket_result, body) e WHERE xml_inbox.name = 's3_bad';
SQL
then
    fail "the XML fixture did not decode"
fi
echo
echo "The mutated copy raises (VERBOSITY verbose: SQLSTATE and the line/column DETAIL):"
out=$("${PSQL[@]}" 2>&1 <<SQL
\\set VERBOSITY verbose
SELECT d.name FROM xml_inbox, LATERAL serde_decode_xml(NULL::s3_list_bucket_result, body) d WHERE xml_inbox.name = 's3_bad';
SQL
) || true
printf '%s\n' "$out"
grep -q '^ERROR:  2200N' <<<"$out" || fail "the mutated XML document did not raise 2200N"

# ---- SQLite: the same core as a SQLite extension ----------------------------------------------------
section "SQLite: make sqlite; sqlite3 :memory: with .load ./sqlite/serde"
make -s sqlite
SQLITE_DEMO=$(cat <<'SQL'
.load ./sqlite/serde
-- the Stripe shapes as typed descriptors (fixtures/descriptors/stripe_invoice.json), in order
SELECT key AS registered FROM json_each(readfile('fixtures/descriptors/stripe_invoice.json'))
 WHERE serde_register(key, value) IS NULL;
CREATE TABLE inbox(name TEXT PRIMARY KEY, body TEXT NOT NULL);
INSERT INTO inbox VALUES ('stripe_invoice', readfile('fixtures/json/stripe_invoice.json')),
    ('stripe_invoice.wrong_type', readfile('fixtures/json/mutated/stripe_invoice.wrong_type.json'));
-- serde_decode: the row as canonical JSON (first 240 characters)
SELECT substr(serde_decode('StripeInvoice', body), 1, 240) || '...' FROM inbox WHERE name = 'stripe_invoice';
-- the virtual table: one typed column per field
CREATE VIRTUAL TABLE invoices USING serde(StripeInvoice);
.mode line
SELECT i.id, i.customer, i.status, i.total, typeof(i.total) AS total_type, i.created, i.paid_at,
       json_array_length(i.lines, '$.data') AS line_items
  FROM inbox, invoices(inbox.body) AS i WHERE name = 'stripe_invoice';
.mode list
-- one error: <shape>: <path>: <problem>, then every violation through serde_errors
SELECT serde_decode('StripeInvoice', body) FROM inbox WHERE name = 'stripe_invoice.wrong_type';
.mode line
SELECT e.* FROM inbox, serde_errors('StripeInvoice', inbox.body) AS e WHERE name = 'stripe_invoice.wrong_type';
SQL
)
printf '%s\n\n' "$SQLITE_DEMO"
out=$(sqlite3 :memory: <<<"$SQLITE_DEMO" 2>&1) || true
printf '%s\n' "$out"
if ! grep -q '^registered$\|StripeInvoice$' <<<"$out" || ! grep -q 'total_type = integer' <<<"$out"; then
    fail "the SQLite extension did not decode the Stripe invoice"
fi
if ! grep -q 'StripeInvoice: \$.lines.data\[2\].amount: expected integer' <<<"$out"; then
    fail "the SQLite extension did not reject the bad document"
fi

section "Summary"
if ((failures > 0)); then
    echo "demo: $failures step(s) failed"
    exit 1
fi
echo "demo: all ${#rows[@]} fixtures decoded; the bad document was rejected"
