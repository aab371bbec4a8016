#!/usr/bin/env bash
# dump_restore.sh — pg_dump of a database with shapes restores into a fresh cluster and decodes
# identically (issue 5 point 7; docs/reference.md, "Functions", Catalog).
#
# Source: the database serde_dump_src on the caller's server (PGHOST/PGPORT/PGUSER, as
# scripts/test.sh exports them), built by test/dump_restore/setup.sql: the fixture types and
# shapes (fixtures/sql), shapes that refer to others stored *after* their users (and a chain and a
# recursive shape), tables of documents (text and jsonb, good and mutated), tables of decoded
# composite rows, a validating trigger.  Target: a fresh throwaway cluster (scripts/pgcluster.sh
# on port SERDE_DUMP_PORT, default 54339; stopped and removed afterwards), restored three ways:
#   custom   pg_dump -Fc | pg_restore --exit-on-error
#   plain    pg_dump (SQL) | psql -v ON_ERROR_STOP=1
#   inserts  pg_dump --inserts | psql -v ON_ERROR_STOP=1   (one INSERT per catalog row)
# test/dump_restore/decode.sql (the catalog, serde_describe of every shape, every document decoded
# from text and jsonb, typed decodes, serde_errors of every document, a serde_decode_each batch,
# the stored rows) must print exactly the same bytes in the source and in every restored copy.
#
# The inserts way restores each catalog row in its own statement, in physical order, so a
# referring shape comes before the shape it refers to; pg_dump's script sets
# check_function_bodies = off, under which the catalog trigger accepts such a reference (its
# options are compiled at first use, sql/registration.sql), so this restore must work too.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

SRC=serde_dump_src
PORT=${SERDE_DUMP_PORT:-54339}
DIR=/tmp/serde-pg-$UID-$PORT
BIN=/usr/lib/postgresql/15/bin
[[ -x $BIN/pg_dump ]] || BIN=$(pg_config --bindir)
TMP=$(mktemp -d)
if ((EUID == 0)); then chmod 755 "$TMP"; fi

cluster() { env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE SERDE_PGPORT="$PORT" SERDE_PGDIR="$DIR" \
    bash "$ROOT/scripts/pgcluster.sh" "$@"; }
psql_src_admin() { psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }
psql_dst() { psql -X -q -v ON_ERROR_STOP=1 -h "$DIR" -p "$PORT" -U postgres "$@"; }
cleanup() {
    cluster stop >/dev/null 2>&1 || true
    psql_src_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $SRC WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$TMP"
}
trap cleanup EXIT
cluster stop >/dev/null 2>&1 || true

status=0
fail() { echo "FAIL: $*"; status=1; }

# ---- the source -------------------------------------------------------------------------------------
psql_src_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $SRC WITH (FORCE)" -c "CREATE DATABASE $SRC"
{
    cat test/dump_restore/setup.sql
    for f in fixtures/json/mutated/*.json; do
        b=$(basename "$f")
        case $b in
            stripe_invoice.*) shape=StripeInvoice ;;
            github_pull_request.*) shape=GithubPullRequestEvent ;;
            k8s_deployment.*) shape=K8sDeployment ;;
            jsonapi_compound.*) shape=JsonApiDocument ;;
            msk_event.*) shape=MskEvent ;;
            msk_record.*) shape=MskRecord ;;
            *) echo "dump_restore: no shape for $f" >&2; exit 1 ;;
        esac
        printf '\\set content `cat %s`\n' "$f"
        printf "INSERT INTO inbox VALUES ('mutated/%s', '%s', :'content', :'content');\n" "$b" "$shape"
    done
} >"$TMP/setup.sql"
psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -f "$TMP/setup.sql" >/dev/null
echo "source: $(psql -X -At -d "$SRC" -c "SELECT count(*) || ' shapes, ' || (SELECT count(*) FROM inbox) || ' documents, '
      || (SELECT count(*) FROM serde.shapes s WHERE s.options::text LIKE '%\"shape\"%') || ' shapes referring to others' FROM serde.shapes")"
# the physical order pg_dump will use: referring shapes come first
echo "catalog order in the dump: $(psql -X -At -d "$SRC" -c "SELECT string_agg(name, ' ' ORDER BY ctid) FROM serde.shapes WHERE name ~ '^(Dr|StripeRecurring|StripePrice$|StripeInvoiceLine$)'")"

psql -X -d "$SRC" -f test/dump_restore/decode.sql >"$TMP/src.out" 2>&1
if grep -q '^psql:.*ERROR' "$TMP/src.out"; then
    fail "decode.sql failed in the source:"
    grep '^psql:.*ERROR' "$TMP/src.out" | head -5
fi
echo "source output: $(wc -l <"$TMP/src.out") lines, sha256 $(sha256sum "$TMP/src.out" | cut -c1-16)"

"$BIN/pg_dump" -Fc -d "$SRC" -f "$TMP/src.dump"
"$BIN/pg_dump" -d "$SRC" -f "$TMP/src.sql"
"$BIN/pg_dump" --inserts -d "$SRC" -f "$TMP/src_inserts.sql"
if ((EUID == 0)); then chmod 644 "$TMP"/src*; fi
echo "dumps: custom $(stat -c %s "$TMP/src.dump") bytes, plain $(stat -c %s "$TMP/src.sql") bytes, inserts $(stat -c %s "$TMP/src_inserts.sql") bytes"

# ---- a fresh cluster ----------------------------------------------------------------------------------
cluster start >/dev/null
echo "fresh cluster: $(psql_dst -At -d postgres -c "SELECT 'port ' || current_setting('port') || ', started ' || pg_postmaster_start_time()")"

restore() {   # restore WAY: create the database restored_WAY and load the dump into it
    local way=$1 db=restored_$1
    psql_dst -d postgres -c "CREATE DATABASE $db"
    case $way in
        custom) "$BIN/pg_restore" --exit-on-error -h "$DIR" -p "$PORT" -U postgres -d "$db" "$TMP/src.dump" ;;
        plain) psql_dst -d "$db" -f "$TMP/src.sql" ;;
        inserts) psql_dst -d "$db" -f "$TMP/src_inserts.sql" ;;
    esac
}

for way in custom plain inserts; do
    if ! restore "$way" >"$TMP/restore_$way.log" 2>&1; then
        msg="restore '$way' failed: $(grep -m1 -E 'ERROR|error' "$TMP/restore_$way.log" || tail -n 1 "$TMP/restore_$way.log")"
        fail "$msg"
        continue
    fi
    psql -X -h "$DIR" -p "$PORT" -U postgres -d "restored_$way" -f test/dump_restore/decode.sql >"$TMP/$way.out" 2>&1 || true
    if cmp -s "$TMP/src.out" "$TMP/$way.out"; then
        echo "restored ($way): output identical ($(wc -l <"$TMP/$way.out") lines, sha256 $(sha256sum "$TMP/$way.out" | cut -c1-16))"
    else
        fail "restored ($way): output differs from the source:"
        diff -u "$TMP/src.out" "$TMP/$way.out" | head -n 40
    fi
done

# sanity: the comparison is not vacuous
for needle in 'StripeInvoice' 'ERROR 2203A' '22032' 'DrTop' 'stored_equals_fresh'; do
    grep -q -- "$needle" "$TMP/src.out" || fail "the source output lacks '$needle'"
done
grep -q ' 7 of 25 documents valid' "$TMP/src.out" || fail "the source does not decode its 7 good documents: $(grep 'documents valid' "$TMP/src.out")"
if grep -q 'ERROR 42704' "$TMP/src.out"; then
    fail "the source output has unknown-shape errors"
fi

((status == 0)) && echo "PASS"
exit $status
