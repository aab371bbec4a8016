#!/usr/bin/env bash
# upgrade.sh — a database made with serde 1.0 keeps its shapes and decodes the same after
# ALTER EXTENSION serde UPDATE, and its pg_dump restores into a fresh database where the newest
# version is the default (docs/reference.md, "Installing and upgrading").
#
# On the caller's server (PGHOST/PGPORT/PGUSER, as scripts/test.sh exports them):
#   1. database serde_upgrade: CREATE EXTENSION serde VERSION '1.0' (checked: 1.0 exactly, none
#      of 1.1's comments), then test/dump_restore/setup.sql (the fixture types and shapes, shapes
#      referring to others, tables of good and mutated documents, stored decoded rows, a
#      validating trigger); test/dump_restore/decode.sql prints everything (the catalog, every
#      shape compiled, every document decoded from text and jsonb, typed decodes, serde_errors,
#      a serde_decode_each batch, the stored rows) -> before.out
#   2. pg_dump of that 1.0 database (plain SQL), taken now
#   3. ALTER EXTENSION serde UPDATE in a session that has decoded already (its plan cache lives
#      on: it decodes again after the update); the version is the default one; the catalog rows
#      (name, target, options, version) are byte-identical; decode.sql in a new session prints
#      exactly before.out
#   4. the dump restored into a fresh database serde_upgrade_restored: CREATE EXTENSION there
#      installs the default version (1.1), the shapes come back from the dump, and decode.sql
#      prints exactly before.out
# The dump step needs a pg_dump at least as new as the server; with an older one (the 17/18
# matrix uses the system's 15 clients) it is skipped, and says so.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DB=serde_upgrade
DST=serde_upgrade_restored
FROM=1.0
BIN=/usr/lib/postgresql/15/bin
[[ -x $BIN/pg_dump ]] || BIN=$(pg_config --bindir)
TMP=$(mktemp -d)
if ((EUID == 0)); then chmod 755 "$TMP"; fi

admin() { psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }
drop_dbs() { admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" \
                   -c "DROP DATABASE IF EXISTS $DST WITH (FORCE)"; }
cleanup() { drop_dbs >/dev/null 2>&1 || true; rm -rf "$TMP"; }
trap cleanup EXIT

status=0
fail() { echo "FAIL: $*"; status=1; }
q() { psql -X -At -v ON_ERROR_STOP=1 "$@"; }

# released install scripts never change (a change goes into a new serde--A--B.sql)
declare -A released=([serde--1.0.sql]=32494222e90668aa0fecdf0a2e3d6956aebad5c1b667dc4105c8d4e10aefe0ed)
for f in "${!released[@]}"; do
    [[ $(sha256sum "$f" | cut -d' ' -f1) == "${released[$f]}" ]] || fail "$f differs from the released script"
done

default=$(q -d "${PGDATABASE:-postgres}" -c "SELECT default_version FROM pg_available_extensions WHERE name = 'serde'")
[[ -n $default ]] || { echo "FAIL: serde is not installed on this server"; exit 1; }
q -d "${PGDATABASE:-postgres}" -c "SELECT 'server ' || current_setting('server_version') || ', serde default version $default, update path $FROM -> $default: ' || coalesce((SELECT path FROM pg_extension_update_paths('serde') WHERE source = '$FROM' AND target = '$default'), 'NONE')"

# ---- 1. a 1.0 database ---------------------------------------------------------------------------
drop_dbs
admin -c "CREATE DATABASE $DB"
{
    sed "s/^CREATE EXTENSION serde;$/CREATE EXTENSION serde VERSION '$FROM';/" test/dump_restore/setup.sql
    for f in fixtures/json/mutated/*.json; do
        b=$(basename "$f")
        case $b in
            stripe_invoice.*) shape=StripeInvoice ;;
            github_pull_request.*) shape=GithubPullRequestEvent ;;
            k8s_deployment.*) shape=K8sDeployment ;;
            jsonapi_compound.*) shape=JsonApiDocument ;;
            msk_event.*) shape=MskEvent ;;
            msk_record.*) shape=MskRecord ;;
            *) echo "upgrade: no shape for $f" >&2; exit 1 ;;
        esac
        printf '\\set content `cat %s`\n' "$f"
        printf "INSERT INTO inbox VALUES ('mutated/%s', '%s', :'content', :'content');\n" "$b" "$shape"
    done
} >"$TMP/setup.sql"
grep -q "VERSION '$FROM'" "$TMP/setup.sql" || { echo "FAIL: setup.sql no longer creates the extension the way this test expects"; exit 1; }
psql -X -q -v ON_ERROR_STOP=1 -d "$DB" -f "$TMP/setup.sql" >/dev/null

v=$(q -d "$DB" -c "SELECT extversion FROM pg_extension WHERE extname = 'serde'")
[[ $v == "$FROM" ]] || fail "CREATE EXTENSION serde VERSION '$FROM' installed '$v'"
commented=$(q -d "$DB" -c "SELECT count(*) FROM pg_depend d WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'serde')
                            AND d.classid = 'pg_proc'::regclass AND obj_description(d.objid, 'pg_proc') IS NOT NULL")
[[ $commented == 0 ]] || fail "version $FROM has $commented commented functions: serde--$FROM.sql is not the released script"
echo "1.0 database: $(q -d "$DB" -c "SELECT count(*) || ' shapes, ' || (SELECT count(*) FROM inbox) || ' documents, ' ||
      (SELECT count(*) FROM pg_depend d WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'serde') AND d.classid = 'pg_proc'::regclass) || ' functions' FROM serde.shapes")"

catalog_sql="SELECT name, target::text, options::text, version FROM serde.shapes ORDER BY name COLLATE \"C\""
q -d "$DB" -c "$catalog_sql" >"$TMP/catalog_before"
psql -X -d "$DB" -f test/dump_restore/decode.sql >"$TMP/before.out" 2>&1
grep -q ' 7 of 25 documents valid' "$TMP/before.out" || fail "1.0 does not decode its 7 good documents: $(grep 'documents valid' "$TMP/before.out")"
if grep -q '^psql:.*ERROR' "$TMP/before.out"; then
    fail "decode.sql failed under $FROM: $(grep -m1 '^psql:.*ERROR' "$TMP/before.out")"
fi
echo "1.0 output: $(wc -l <"$TMP/before.out") lines, sha256 $(sha256sum "$TMP/before.out" | cut -c1-16)"

# ---- 2. its dump ---------------------------------------------------------------------------------
dump_ok=0
pgdump_major=$("$BIN/pg_dump" --version | sed -E 's/.* ([0-9]+)(\.[0-9]+)?.*/\1/')
server_major=$(q -d "$DB" -c "SELECT current_setting('server_version_num')::int / 10000")
if ((pgdump_major >= server_major)); then
    "$BIN/pg_dump" -d "$DB" -f "$TMP/dump.sql"
    dump_ok=1
    grep -q '^CREATE EXTENSION IF NOT EXISTS serde' "$TMP/dump.sql" || fail "the dump does not create the extension"
else
    echo "pg_dump $pgdump_major is older than server $server_major: the dump step is skipped"
fi

# ---- 3. ALTER EXTENSION serde UPDATE -------------------------------------------------------------
# one session: decodes (plans cached), updates, decodes again with the same plans
same_session=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" <<'EOF'
SELECT count(*) FILTER (WHERE serde_valid(shape, body)) FROM inbox;
ALTER EXTENSION serde UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'serde';
SELECT count(*) FILTER (WHERE serde_valid(shape, body)) FROM inbox;
SELECT count(*) FROM inbox, LATERAL serde_decode(NULL::stripe_invoice, body) d WHERE shape = 'StripeInvoice' AND serde_valid(shape, body);
EOF
) || fail "ALTER EXTENSION serde UPDATE failed"
echo "update in a session that had decoded: $(echo $same_session)"
read -r valid_before ver_after valid_after typed <<<"$(echo $same_session)"
[[ $ver_after == "$default" ]] || fail "after ALTER EXTENSION serde UPDATE the version is '$ver_after', not the default '$default'"
[[ $valid_before == 7 && $valid_after == 7 ]] || fail "valid documents before/after the update in one session: $valid_before/$valid_after (want 7/7)"
[[ ${typed:-0} =~ ^[1-9][0-9]*$ ]] || fail "no typed decode after the update"

q -d "$DB" -c "$catalog_sql" >"$TMP/catalog_after"
if cmp -s "$TMP/catalog_before" "$TMP/catalog_after"; then
    echo "catalog after the update: identical ($(wc -l <"$TMP/catalog_after") shapes, versions included)"
else
    fail "the update changed the catalog:"
    diff -u "$TMP/catalog_before" "$TMP/catalog_after" | head -20
fi
psql -X -d "$DB" -f test/dump_restore/decode.sql >"$TMP/after.out" 2>&1
if cmp -s "$TMP/before.out" "$TMP/after.out"; then
    echo "decode after the update: output identical ($(wc -l <"$TMP/after.out") lines)"
else
    fail "decode output differs after the update:"
    diff -u "$TMP/before.out" "$TMP/after.out" | head -40
fi
nocomment=$(q -d "$DB" -c "SELECT count(*) FROM pg_depend d WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'serde')
                            AND d.classid = 'pg_proc'::regclass AND obj_description(d.objid, 'pg_proc') IS NULL")
[[ $nocomment == 0 ]] || fail "after the update $nocomment functions have no comment"

# ---- 4. the 1.0 dump restored where the default is newer -----------------------------------------
if ((dump_ok)); then
    admin -c "CREATE DATABASE $DST"
    if ! psql -X -q -v ON_ERROR_STOP=1 -d "$DST" -f "$TMP/dump.sql" >"$TMP/restore.log" 2>&1; then
        fail "restoring the $FROM dump failed: $(grep -m1 ERROR "$TMP/restore.log")"
    else
        v=$(q -d "$DST" -c "SELECT extversion FROM pg_extension WHERE extname = 'serde'")
        [[ $v == "$default" ]] || fail "the restored database has serde '$v', not the default '$default'"
        n=$(q -d "$DST" -c "SELECT count(*) FROM serde.shapes")
        psql -X -d "$DST" -f test/dump_restore/decode.sql >"$TMP/restored.out" 2>&1
        if cmp -s "$TMP/before.out" "$TMP/restored.out"; then
            echo "1.0 dump restored into serde $v: $n shapes, decode output identical"
        else
            fail "the restored database decodes differently:"
            diff -u "$TMP/before.out" "$TMP/restored.out" | head -40
        fi
    fi
fi

((status == 0)) && echo "PASS"
exit $status
