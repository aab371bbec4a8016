#!/usr/bin/env bash
# dist.sh — the release tarball builds from scratch and installs a working extension, and
# META.json (PGXN) agrees with serde.control.
#
#   1. META.json: valid JSON with the keys PGXN's spec 1.0.0 requires (name, abstract, version,
#      maintainer, license, provides, meta-spec); its version and provides.serde.version are
#      serde.control's default_version with a patch level (1.1 -> 1.1.0); PostgreSQL >= 15
#   2. make dist DIST_OUT=<tmp>: serde-<version>.tar.gz, everything under serde-<version>/, holding
#      every tracked file (every serde--*.sql among them) and nothing built
#   3. unpacked in a fresh directory: make (-Werror: warning-free), make install DESTDIR=…; the
#      installed files: serde.so, serde.control, every serde--*.sql
#   4. that installation, made private (scripts/private-install.sh), serves a throwaway cluster
#      (port SERDE_DIST_PORT, default 54341): CREATE EXTENSION serde is the default version, a
#      shape registers and a document decodes
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
PORT=${SERDE_DIST_PORT:-54341}
TMP=$(mktemp -d)
if ((EUID == 0)); then chmod 755 "$TMP"; fi
PGDIR=/tmp/serde-pg-$UID-$PORT
cluster() { env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE PG_CONFIG="$PRIV_PG_CONFIG" SERDE_PGPORT="$PORT" \
    SERDE_PGDIR="$PGDIR" bash "$ROOT/scripts/pgcluster.sh" "$@"; }
PRIV_PG_CONFIG=
cleanup() {
    [[ -n $PRIV_PG_CONFIG ]] && cluster stop >/dev/null 2>&1 || true
    rm -rf "$TMP"
}
trap cleanup EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

control_version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" serde.control)
[[ -n $control_version ]] || { echo "FAIL: no default_version in serde.control"; exit 1; }
version=$control_version.0

# ---- 1. META.json -----------------------------------------------------------------------------------
python3 - "$version" <<'PY' || status=1
import json, sys
want = sys.argv[1]
bad = []
try:
    m = json.load(open("META.json"))
except Exception as e:
    print("FAIL: META.json is not valid JSON: %s" % e); sys.exit(1)
for k in ("name", "abstract", "version", "maintainer", "license", "provides", "meta-spec"):
    if k not in m: bad.append("META.json lacks '%s'" % k)
if m.get("name") != "serde": bad.append("name is %r" % m.get("name"))
if m.get("version") != want: bad.append("version %r, serde.control says %r" % (m.get("version"), want))
p = m.get("provides", {}).get("serde", {})
if p.get("version") != want: bad.append("provides.serde.version %r, want %r" % (p.get("version"), want))
for k in ("file", "abstract"):
    if not p.get(k): bad.append("provides.serde.%s missing" % k)
import os
for k in ("file", "docfile"):
    if p.get(k) and not os.path.exists(p[k]): bad.append("provides.serde.%s %r does not exist" % (k, p[k]))
if m.get("meta-spec", {}).get("version") != "1.0.0": bad.append("meta-spec.version is not 1.0.0")
for phase in ("build", "runtime"):
    if m.get("prereqs", {}).get(phase, {}).get("requires", {}).get("PostgreSQL") != "15.0.0":
        bad.append("prereqs.%s.requires.PostgreSQL is not 15.0.0" % phase)
if not m.get("tags"): bad.append("no tags")
if not isinstance(m.get("maintainer"), list) or not m["maintainer"]: bad.append("maintainer must be a non-empty list")
for b in bad: print("FAIL: META.json: " + b)
if not bad: print("META.json: serde %s, license %s, %d tags" % (m["version"], m["license"], len(m["tags"])))
sys.exit(1 if bad else 0)
PY

# ---- 2. make dist -------------------------------------------------------------------------------------
make -s dist DIST_OUT="$TMP" >/dev/null
tarball=$TMP/serde-$version.tar.gz
[[ -f $tarball ]] || { echo "FAIL: make dist made no $tarball"; exit 1; }
tar -tzf "$tarball" | sort >"$TMP/list"
if grep -v "^serde-$version/" "$TMP/list" | grep -q .; then fail "entries outside serde-$version/: $(grep -v "^serde-$version/" "$TMP/list" | head -3)"; fi
git ls-files | sed "s|^|serde-$version/|" | sort >"$TMP/tracked"
missing=$(comm -23 "$TMP/tracked" <(grep -v '/$' "$TMP/list") | head -5)
if [[ -n $missing ]]; then
    # the working tree may have files not committed yet: dist archives HEAD
    missing=$(for f in $missing; do git cat-file -e "HEAD:${f#serde-$version/}" 2>/dev/null && echo "$f"; done)
    [[ -z $missing ]] || fail "the tarball lacks tracked files: $missing"
fi
for f in serde.control META.json Makefile serde.map; do
    grep -qx "serde-$version/$f" "$TMP/list" || fail "the tarball lacks $f"
done
sqls=$(grep -cE "^serde-$version/serde--[0-9.]+(--[0-9.]+)?\.sql$" "$TMP/list" || true)
if grep -qE '\.(o|so|tar\.gz)$' "$TMP/list"; then fail "the tarball holds built files: $(grep -E '\.(o|so|tar\.gz)$' "$TMP/list" | head -3)"; fi
echo "tarball: $(basename "$tarball"), $(stat -c %s "$tarball") bytes, $(grep -vc '/$' "$TMP/list") files, $sqls install/update scripts"

# ---- 3. build it from scratch -------------------------------------------------------------------------
tar -xzf "$tarball" -C "$TMP"
src=$TMP/serde-$version
start=$(date +%s)
if ! make -C "$src" -s -j2 >"$TMP/build.log" 2>&1; then
    fail "the tarball does not build:"; tail -n 20 "$TMP/build.log"
    exit 1
fi
if grep -qiE 'warning' "$TMP/build.log"; then fail "the build warns:"; grep -iE 'warning' "$TMP/build.log" | head -5; fi
make -C "$src" -s install DESTDIR="$TMP/root" >"$TMP/install.log" 2>&1 || { fail "make install failed"; tail "$TMP/install.log"; exit 1; }
pkglib=$TMP/root$(pg_config --pkglibdir) share=$TMP/root$(pg_config --sharedir)/extension
for f in "$pkglib/serde.so" "$share/serde.control"; do [[ -f $f ]] || fail "not installed: $f"; done
for f in "$src"/serde--*.sql; do [[ -f $share/$(basename "$f") ]] || fail "not installed: $(basename "$f")"; done
echo "built from scratch in $(($(date +%s) - start)) s, installed: serde.so, serde.control, $(ls "$share"/serde--*.sql | wc -l) scripts"

# ---- 4. it works ------------------------------------------------------------------------------------
PRIV_PG_CONFIG=$(bash scripts/private-install.sh "$TMP/root")
cluster stop >/dev/null 2>&1 || true
cluster start >/dev/null 2>&1 || { fail "a cluster on the tarball's installation did not start"; exit 1; }
out=$(psql -X -At -q -v ON_ERROR_STOP=1 -h "$PGDIR" -p "$PORT" -U postgres -d postgres 2>&1 <<'SQL'
CREATE EXTENSION serde;
SELECT extversion FROM pg_extension WHERE extname = 'serde';
CREATE TYPE dist_inv AS (id text, total int8);
SELECT serde_register('DistInv', 'dist_inv', '{"fields": {"total": {"name": "amount_due"}}}');
SELECT d.id || ' ' || d.total FROM serde_decode(NULL::dist_inv, '{"id": "in_1", "amount_due": 5}') d;
SQL
) || fail "the tarball's extension does not work: $out"
got_version=$(echo "$out" | sed -n 1p)
[[ $got_version == "$control_version" ]] || fail "CREATE EXTENSION installed '$got_version', not $control_version"
[[ $(echo "$out" | sed -n 3p) == "in_1 5" ]] || fail "decode gave: $out"
echo "installed from the tarball: serde $got_version, decode: $(echo "$out" | sed -n 3p)"

((status == 0)) && echo "PASS"
exit $status
