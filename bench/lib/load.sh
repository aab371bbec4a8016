# bench/lib/load.sh — sourced by bench/run and bench/compare.
#
#   bench_load DB WORKLOAD_DIR WANT_SERDE LOGDIR
#
# (Re)creates database DB on the server named by PGHOST/PGPORT/PGUSER: benchmark settings,
# CREATE EXTENSION serde (when WANT_SERDE=1 and it works), fixtures/sql/types.sql,
# fixtures/sql/shapes.sql, fixtures/sql/xml_types.sql, the generated load.sql, serde.sql (also
# the XML fixtures' shapes) and twins.sql (the built-ins' twin types), bench.simdjson_floor(text)
# and bench.libxml2_floor(text) when serde_bench_floor.so is installed (bench_simdjson_floor,
# bench_libxml2_floor),
# the twin check (bench_twin_check), VACUUM ANALYZE, CHECKPOINT.
# Sets BENCH_SERDE_OK=1 if the extension is there, else 0. Must run from the repository root.
bench_load() {
    local db=$1 wl=$2 want=$3 logdir=$4
    # BENCH_FIXTURES: the types and shapes of the revision being measured (bench/compare: each
    # revision's own, as the options a shape may use change between revisions)
    local fx=${BENCH_FIXTURES:-fixtures/sql}
    BENCH_SERDE_OK=$want
    psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" 2>&1 |
        grep -v NOTICE || true
    # Settings for every benchmark connection: no JIT (its compile time would be measured), one
    # process per query (decode speed, not parallelism), no Memoize (it could cache the result of
    # a LATERAL call over identical documents).
    psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "ALTER DATABASE $db SET jit = off" \
        -c "ALTER DATABASE $db SET max_parallel_workers_per_gather = 0" \
        -c "ALTER DATABASE $db SET enable_memoize = off"
    if ((BENCH_SERDE_OK)) && ! psql -X -q -d "$db" -v ON_ERROR_STOP=1 -c "CREATE EXTENSION serde" 2>"$logdir/ext.log"; then
        cat "$logdir/ext.log" >&2
        echo "bench: CREATE EXTENSION serde failed — built-in competitors only" >&2
        BENCH_SERDE_OK=0
    fi
    psql -X -q -d "$db" -v ON_ERROR_STOP=1 -f "$fx/types.sql"
    psql -X -q -d "$db" -v ON_ERROR_STOP=1 -f "$fx/xml_types.sql"   # the XML workloads' types
    if ((BENCH_SERDE_OK)); then
        psql -X -q -d "$db" -v ON_ERROR_STOP=1 -f "$fx/shapes.sql" >/dev/null
    fi
    psql -X -q -d "$db" -v ON_ERROR_STOP=1 -f "$wl/load.sql" >/dev/null 2>"$logdir/load.log" || {
        cat "$logdir/load.log" >&2
        return 1
    }
    if ((BENCH_SERDE_OK)); then
        psql -X -q -d "$db" -f "$wl/serde.sql" >/dev/null 2>"$logdir/shapes.log" || true
        grep -h WARNING "$logdir/shapes.log" >&2 || true
    fi
    psql -X -q -d "$db" -v ON_ERROR_STOP=1 -f "$wl/twins.sql" >/dev/null 2>"$logdir/twins.log" || {
        cat "$logdir/twins.log" >&2
        return 1
    }
    grep -h WARNING "$logdir/twins.log" >&2 || true
    bench_simdjson_floor "$db" "$logdir"
    bench_libxml2_floor "$db" "$logdir"
    rm -f "$wl/twin_check.json"
    if ((BENCH_SERDE_OK)); then
        bench_twin_check "$db" "$wl/twin_check.json"
    fi
    psql -X -q -d "$db" -c "VACUUM (ANALYZE)" -c "CHECKPOINT"
}

#   bench_simdjson_floor DB LOGDIR
#
# The in-backend simdjson floor (competitor floor_simdjson): bench.simdjson_floor(text) from
# serde_bench_floor.so (bench/pgfloor, built and installed by bench/run; not part of serde), if
# the server can load it, checked on a small document. Needs schema bench (load.sql). Anything
# missing or failing only makes that competitor unavailable (measure.py available() looks for
# the function); the load goes on. Sets BENCH_FLOOR_OK=1 if the function works, else 0.
bench_simdjson_floor() {
    local db=$1 logdir=$2 log=$2/pgfloor_sql.log
    BENCH_FLOOR_OK=0
    if psql -X -q -d "$db" -v ON_ERROR_STOP=1 \
        -c "CREATE OR REPLACE FUNCTION bench.simdjson_floor(text) RETURNS int8 AS 'serde_bench_floor', 'serde_bench_floor'
            LANGUAGE C STRICT VOLATILE PARALLEL SAFE" \
        -c "SELECT bench.simdjson_floor('{\"a\":[1,2.5,\"x\",true,null,{}]}')" >/dev/null 2>"$log"; then
        BENCH_FLOOR_OK=1
        return 0
    fi
    if grep -q 'could not access file' "$log"; then
        echo "bench: serde_bench_floor.so is not installed on this server: no in-backend simdjson floor (floor_simdjson)" >&2
    else
        echo "bench: WARNING: bench.simdjson_floor(text) does not work here — competitor floor_simdjson unavailable:" >&2
        sed 's/^/  /' "$log" >&2
    fi
    psql -X -q -d "$db" -c "DROP FUNCTION IF EXISTS bench.simdjson_floor(text)" >/dev/null 2>&1 || true
    return 0
}

#   bench_libxml2_floor DB LOGDIR
#
# The libxml2 floor of the XML workloads (competitor floor_libxml2): bench.libxml2_floor(text)
# from the same serde_bench_floor.so (bench/pgfloor/pgfloor_xml.c), checked on a small document;
# like bench_simdjson_floor, anything missing only makes that competitor unavailable.
bench_libxml2_floor() {
    local db=$1 logdir=$2 log=$2/pgfloor_xml_sql.log
    if psql -X -q -d "$db" -v ON_ERROR_STOP=1 \
        -c "CREATE OR REPLACE FUNCTION bench.libxml2_floor(text) RETURNS int8 AS 'serde_bench_floor', 'serde_bench_xml_floor'
            LANGUAGE C STRICT VOLATILE PARALLEL SAFE" \
        -c "SELECT bench.libxml2_floor('<r a=\"1\"><v>x</v><![CDATA[y]]></r>')" >/dev/null 2>"$log"; then
        return 0
    fi
    if grep -q 'could not access file\|could not find function' "$log"; then
        echo "bench: serde_bench_floor.so (with the libxml2 floor) is not installed on this server: no floor_libxml2" >&2
    else
        echo "bench: WARNING: bench.libxml2_floor(text) does not work here — competitor floor_libxml2 unavailable:" >&2
        sed 's/^/  /' "$log" >&2
    fi
    psql -X -q -d "$db" -c "DROP FUNCTION IF EXISTS bench.libxml2_floor(text)" >/dev/null 2>&1 || true
    return 0
}

#   bench_twin_check DB OUT_JSON
#
# The fairness check of the twin types: per documents workload, how many non-NULL values
# (bench.nvalues: every column at every level, arrays of composites element by element) serde's
# row has, jsonb_populate_record's row on the twin, and on the original type (what the built-ins
# filled before twins). Printed to stderr (the bench log) and written to OUT_JSON, which the
# report turns into notes.
bench_twin_check() {
    local db=$1 out=$2
    psql -X -q -d "$db" -v ON_ERROR_STOP=1 -At -c "SELECT coalesce(json_object_agg(workload, json_build_object('serde', serde, 'twin', twin, 'original', original) ORDER BY ord), '{}')
        FROM bench.twin_check() WITH ORDINALITY c(workload, serde, twin, original, ord)" >"$out" || {
        echo "bench: twin check failed" >&2
        rm -f "$out"
        return 0
    }
    python3 - "$out" >&2 <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))
print("bench: twin check — non-NULL values in one decoded document (all levels)")
print(f"  {'workload':<22}{'serde':>7}{'populate on twin':>18}{'on original type':>18}")
for n, r in rows.items():
    orig = "error" if r["original"] is None else r["original"]
    print(f"  {n:<22}{r['serde']:>7}{r['twin']:>18}{orig:>18}")
EOF
}
