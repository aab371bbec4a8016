#!/usr/bin/env bash
# scripts/private-install.sh ROOT — turn ROOT (where `make install DESTDIR=ROOT` put serde) into a
# private PostgreSQL 15 installation that loads that serde only, so that several builds of serde
# (bench/compare's two revisions, parallel work trees) can run side by side without touching the
# system's extension directories.
#
#   make -s -j2 && make -s install DESTDIR=$PWD/tmp/root
#   bash scripts/private-install.sh $PWD/tmp/root
#   PG_CONFIG=$PWD/tmp/root$(pg_config --bindir)/pg_config SERDE_PGPORT=54410 bash scripts/pgcluster.sh start
#
# How: copies of the server binaries (postgres, pg_ctl, initdb, pg_isready, pg_config) go next to
# symlinks to the system's other programs (psql, which pg_regress needs), libraries and share
# files (cp -f: a re-run while the server runs replaces a busy binary). PostgreSQL finds its
# share/ and lib/ directories relative to its own executable, so a server started from ROOT's
# bin/ reads ROOT's serde.control, serde--*.sql and serde.so. Prints the private pg_config's path.
set -euo pipefail
root=${1:?usage: private-install.sh ROOT}
root=$(cd "$root" && pwd)
SYS_BIN=$(pg_config --bindir)
SYS_SHARE=$(pg_config --sharedir)
SYS_PKGLIB=$(pg_config --pkglibdir)
bin=$root$SYS_BIN share=$root$SYS_SHARE lib=$root$SYS_PKGLIB
mkdir -p "$bin" "$share/extension" "$lib"
for f in postgres pg_ctl initdb pg_isready pg_config; do cp -f "$SYS_BIN/$f" "$bin/"; done
# the client programs (psql for pg_regress, pg_dump, pgbench, ...) need no relocation: symlinks
for f in "$SYS_BIN"/*; do
    [[ -e $bin/$(basename "$f") ]] || ln -s "$f" "$bin/"
done
for f in "$SYS_PKGLIB"/*; do
    [[ -e $lib/$(basename "$f") || $(basename "$f") == serde.so ]] || ln -s "$f" "$lib/"
done
for f in "$SYS_SHARE"/*; do
    [[ $(basename "$f") == extension || -e $share/$(basename "$f") ]] || ln -s "$f" "$share/"
done
for f in "$SYS_SHARE"/extension/*; do
    case $(basename "$f") in serde.control | serde--*) ;; *) [[ -e $share/extension/$(basename "$f") ]] || ln -s "$f" "$share/extension/" ;; esac
done
# headers, so that `make` with PG_CONFIG pointing here finds the server's
inc=$(pg_config --pkgincludedir)
if [[ ! -e $root$inc ]]; then
    mkdir -p "$(dirname "$root$inc")"
    ln -s "$inc" "$root$inc"
fi
[[ -f $lib/serde.so && -f $share/extension/serde.control ]] || { echo "private-install: serde is not installed under $root" >&2; exit 1; }
[[ $("$bin/pg_config" --pkglibdir) == "$lib" ]] || { echo "private-install: relocation failed under $root" >&2; exit 1; }
echo "$bin/pg_config"
