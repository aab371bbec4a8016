#!/usr/bin/env bash
# real_payloads.sh — the real public payloads of fixtures/real/ (README there: where each comes
# from) decode exactly, each with the registrations of fixtures/sql/real_shapes.sql (one per
# document, plus one per type reused in several places):
#   1. every JSON document is JSON and every XML document is well-formed (Python);
#   2. fixtures/sql/real_types.sql and real_shapes.sql load into a fresh database;
#   3. each document decodes — from text, and the JSON ones from jsonb too — into exactly the
#      row that test/real_payloads.py reads out of it on its own (Python's json / xml.etree /
#      datetime / email.utils; nothing of serde), compared as jsonb under TimeZone UTC;
#   4. the SQLite extension decodes the JSON documents with the descriptors of
#      fixtures/real/sqlite/*.json into the same rows (skipped when sqlite3 is absent).
# Needs a running server (PGHOST/PGPORT as scripts/test.sh sets them) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
DB=serde_real_payloads
R=fixtures/real
psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }
psql_db() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
trap 'psql_admin -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true' EXIT
fail=0

for f in "$R"/*.json; do python3 -m json.tool "$f" >/dev/null || { echo "FAIL: $f is not JSON"; fail=1; }; done
for f in "$R"/*.xml; do
    python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$f" || { echo "FAIL: $f is not well-formed"; fail=1; }
done

psql_admin -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql_db -c "CREATE EXTENSION serde" -f fixtures/sql/real_types.sql -f fixtures/sql/real_shapes.sql >/dev/null

# check NAME FILE SQL: SQL is an expression over :'doc' giving the decoded value as jsonb
check() {
    local name=$1 file=$2 expr=$3 want got
    want=$(python3 test/real_payloads.py "$name")
    # (psql interpolates :'doc' in its input, not in -c strings)
    got=$(psql_db -v doc="$(cat "$file")" -v want="$want" 2>&1 <<<"SET TimeZone = 'UTC';
SELECT CASE WHEN ($expr) = :'want'::jsonb THEN 'same' ELSE ($expr)::text END;") || true
    if [[ $got == same ]]; then
        echo "ok: $name ($file) decodes to the independent reading"
    else
        echo "FAIL: $name ($file): serde gave"
        echo "  $got"
        echo "  the independent reading is"
        echo "  $want"
        fail=1
    fi
}
check codebuild "$R/codebuild_state_change.json" "to_jsonb(serde_decode(NULL::codebuild_event, :'doc'))"
check codebuild "$R/codebuild_state_change.json" "to_jsonb(serde_decode(NULL::codebuild_event, :'doc'::jsonb))"
check ses "$R/ses_delivery.json" "to_jsonb(serde_decode(NULL::ses_notification, :'doc'))"
check ses "$R/ses_delivery.json" "to_jsonb(serde_decode(NULL::ses_notification, :'doc'::jsonb))"
check npm "$R/npm_packages.json" "(SELECT jsonb_agg(to_jsonb(p)) FROM serde_decode_each(NULL::npm_package, :'doc') p)"
# (from jsonb, a map's entries come in jsonb's key order: shorter keys first, then bytewise)
check npm_jsonb "$R/npm_packages.json" "(SELECT jsonb_agg(to_jsonb(p)) FROM serde_decode_each(NULL::npm_package, :'doc'::jsonb) p)"
check dynamodb "$R/dynamodb_stream.json" "to_jsonb(serde_decode(NULL::ddb_stream_event, :'doc'))"
check dynamodb "$R/dynamodb_stream.json" "to_jsonb(serde_decode(NULL::ddb_stream_event, :'doc'::jsonb))"
check sitemap "$R/sitemap.xml" "to_jsonb(serde_decode_xml(NULL::sitemap, :'doc'))"
check s3_versions "$R/s3_list_object_versions.xml" "to_jsonb(serde_decode_xml(NULL::s3v_list_versions, :'doc'))"
check podcast "$R/podcast_feed.xml" "to_jsonb(serde_decode_xml(NULL::podcast_feed, :'doc'))"
check junit "$R/junit_report.xml" "to_jsonb(serde_decode_xml(NULL::junit_report, :'doc'))"

# the same documents, one registration each, counted: the number docs/authoring.md states
got=$(psql_db -c "SELECT string_agg(n::text, ' ' ORDER BY t) FROM (SELECT target::regtype::text t, count(*) n FROM serde.shapes GROUP BY 1) s")
echo "registrations per type: $got"
n=$(psql_db -c "SELECT count(*) FROM serde.shapes")
if [[ $n != 10 ]]; then echo "FAIL: real_shapes.sql registers $n shapes, docs/authoring.md says 10"; fail=1; fi

# 4. SQLite: the descriptors of fixtures/real/sqlite/ (the same options, with SQLite's types and
#    inline objects), the same independent reading (maps are objects there, timestamps UTC `Z`)
if command -v sqlite3 >/dev/null && [[ -f sqlite/serde.so ]]; then
    regs=""
    for n in DdbItem S3vOwner CodeBuildEvent SesNotification NpmPackage DdbStreamEvent Sitemap S3ListVersions PodcastFeed JunitReport; do
        regs+="SELECT serde_register('$n', readfile('$R/sqlite/$n.json'));"
    done
    sq() { sqlite3 -bail :memory: -cmd ".load ./sqlite/serde" "$regs" "$1" 2>&1 | tail -n 1; }
    sqcheck() { # NAME SQL
        local got res
        got=$(sq "$2")
        res=$(python3 test/real_payloads.py --sqlite "$1" "$got" 2>&1) || true
        if [[ $res == same ]]; then
            echo "ok: SQLite: $1 decodes to the independent reading"
        else
            echo "FAIL: SQLite: $1: serde gave"
            echo "  $got"
            echo "  normalised: $res"
            fail=1
        fi
    }
    sqcheck codebuild "SELECT serde_decode('CodeBuildEvent', readfile('$R/codebuild_state_change.json'))"
    sqcheck ses "SELECT serde_decode('SesNotification', readfile('$R/ses_delivery.json'))"
    sqcheck npm "SELECT json_group_array(json(serde_decode('NpmPackage', value))) FROM json_each(readfile('$R/npm_packages.json'))"
    sqcheck dynamodb "SELECT serde_decode('DdbStreamEvent', readfile('$R/dynamodb_stream.json'))"
    sqcheck sitemap "SELECT serde_decode_xml('Sitemap', readfile('$R/sitemap.xml'))"
    sqcheck s3_versions "SELECT serde_decode_xml('S3ListVersions', readfile('$R/s3_list_object_versions.xml'))"
    sqcheck podcast "SELECT serde_decode_xml('PodcastFeed', readfile('$R/podcast_feed.xml'))"
    sqcheck junit "SELECT serde_decode_xml('JunitReport', readfile('$R/junit_report.xml'))"
else
    echo "skipped: SQLite (no sqlite3 shell or sqlite/serde.so: make sqlite)"
fi

if ((fail)); then echo "real_payloads: FAILED"; exit 1; fi
echo "real_payloads: all passed"
