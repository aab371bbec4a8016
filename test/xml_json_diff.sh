#!/usr/bin/env bash
# xml_json_diff.sh — XML ≡ JSON differential test (issue 18 item 4): for every fixture shape that
# renders in both formats, generated documents and their mutations must give the same rows, the
# same serde_valid and the same serde_errors (codes and paths mapped) as JSON and as XML, in
# PostgreSQL and in SQLite.  See test/xml_json_diff.py for what is generated and compared.
#
#   bash test/xml_json_diff.sh            (PGHOST/PGPORT/PGUSER set, serde installed, as
#                                          scripts/test.sh runs it)
#
# Without PGHOST a throwaway cluster of scripts/pgcluster.sh is used (port SERDE_DIFF_PGPORT,
# default 54539; `make install` must have been run).  Builds sqlite/serde.so (`make sqlite`) if it
# is absent.  Prints "N passed, N failed"; exit status non-zero on any failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

if [[ ! -f sqlite/serde.so ]]; then
    make -s sqlite
fi

own_cluster=0
cleanup() {
    if ((own_cluster)); then
        env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE SERDE_PGPORT="${SERDE_DIFF_PGPORT:-54539}" \
            bash "$ROOT/scripts/pgcluster.sh" stop >/dev/null 2>&1 || true
    fi
}
trap cleanup EXIT
if [[ -z ${PGHOST:-} ]]; then
    port=${SERDE_DIFF_PGPORT:-54539}
    own_cluster=1
    env -u PGPORT SERDE_PGPORT="$port" bash scripts/pgcluster.sh start >/dev/null
    eval "$(SERDE_PGPORT="$port" bash scripts/pgcluster.sh env)"
    export PGHOST PGPORT PGUSER PGDATABASE
fi

/usr/bin/python3 test/xml_json_diff.py "$ROOT/sqlite/serde"
