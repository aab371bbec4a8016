#!/usr/bin/env bash
# scripts/pgcluster.sh start|stop|env|status — a throwaway PostgreSQL 15 cluster for the tests,
# the demo and the benchmarks.
#
#   bash scripts/pgcluster.sh start        initdb (first time) and start; waits until ready
#   eval "$(bash scripts/pgcluster.sh env)" point psql/pg_regress at it (PGHOST PGPORT PGUSER PGDATABASE)
#   bash scripts/pgcluster.sh stop         stop it and delete its directory
#   bash scripts/pgcluster.sh status       exit 0 if it is running
#
# If PGHOST is already set (and is not this script's own socket directory), the user's server is
# used instead: start and stop do nothing and env prints the user's settings.
#
# Settings (environment):
#   SERDE_PGPORT   port (default 54329). The server listens only on a Unix socket in its own
#                  directory, so the port never collides with other servers' TCP ports.
#   SERDE_PGDIR    private directory (default /tmp/serde-pg-$UID-$SERDE_PGPORT) holding data/,
#                  the socket and server.log
#   SERDE_PG_OPTS  extra server options appended to pg_ctl -o, e.g.
#                  SERDE_PG_OPTS="-c shared_preload_libraries=serde". If the cluster is already
#                  running with different options, start restarts it.
#   PG_CONFIG      pg_config to find the server binaries (default: PostgreSQL 15's)
#
# As root, initdb and the server run as the unprivileged `postgres` user (initdb refuses root);
# otherwise as the current user. The superuser is always named `postgres`, authentication is
# `trust`. The server is started with PGHOST/PGPORT/PGUSER pointing at itself, so libpq inside
# the backend (dblink, postgres_fdw) reaches this cluster with just `dbname=…`.
set -euo pipefail

prog=pgcluster

die() { echo "$prog: $*" >&2; exit 1; }

find_bindir() {
    local d
    if [[ -n ${PG_CONFIG:-} ]]; then
        d=$("$PG_CONFIG" --bindir) || die "PG_CONFIG=$PG_CONFIG --bindir failed"
    elif [[ -x /usr/lib/postgresql/15/bin/pg_ctl ]]; then
        d=/usr/lib/postgresql/15/bin
    else
        d=$(pg_config --bindir 2>/dev/null) || die "cannot find PostgreSQL binaries (set PG_CONFIG)"
    fi
    [[ -x $d/pg_ctl && -x $d/initdb ]] || die "no pg_ctl/initdb in $d"
    printf '%s\n' "$d"
}

PORT=${SERDE_PGPORT:-54329}
DIR=${SERDE_PGDIR:-/tmp/serde-pg-$UID-$PORT}
MARKER=.serde-pgcluster

# PGHOST pointing at a directory made by this script (e.g. after `eval "$(… env)"`) is ours:
# adopt that directory and its port so stop/status act on it.
if [[ -n ${PGHOST:-} && -f ${PGHOST}/$MARKER ]]; then
    DIR=$PGHOST
    if [[ -z ${SERDE_PGPORT:-} && -f $DIR/port ]]; then
        PORT=$(<"$DIR/port")
    fi
fi

if ! [[ $PORT =~ ^[0-9]{1,5}$ ]] || ((10#$PORT < 1 || 10#$PORT > 65535)); then
    die "bad port '$PORT' (SERDE_PGPORT)"
fi
[[ $DIR == /* ]] || die "SERDE_PGDIR must be an absolute path: $DIR"
# Unix socket paths are limited to 107 bytes.
((${#DIR} + 20 < 107)) || die "directory path too long for a Unix socket: $DIR"

DATA=$DIR/data
LOG=$DIR/server.log

user_pghost() { [[ -n ${PGHOST:-} && $PGHOST != "$DIR" ]]; }

# Run a command as the cluster owner, from inside the cluster directory (the owner may not be
# able to read the caller's working directory).
as_owner() {
    if ((EUID == 0)); then
        (cd "$DIR" && runuser -u postgres -- "$@")
    else
        (cd "$DIR" && "$@")
    fi
}

server_opts() {
    printf '%s' "-p $PORT -k $DIR -c listen_addresses='' -c max_prepared_transactions=0"
    printf '%s' " -c fsync=off -c shared_buffers=128MB"
    if [[ -n ${SERDE_PG_OPTS:-} ]]; then
        printf ' %s' "$SERDE_PG_OPTS"
    fi
}

is_running() {
    [[ -f $DATA/PG_VERSION ]] || return 1
    as_owner "$BIN/pg_ctl" status -D "$DATA" >/dev/null 2>&1
}

cmd_start() {
    if user_pghost; then
        echo "$prog: PGHOST is set ($PGHOST); using that server, not starting one" >&2
        return 0
    fi
    BIN=$(find_bindir)

    if [[ ! -f $DIR/$MARKER ]]; then
        if [[ -e $DIR ]] && [[ -n $(ls -A "$DIR" 2>/dev/null) ]]; then
            die "$DIR exists and was not made by this script; remove it or set SERDE_PGDIR"
        fi
        mkdir -p "$DIR"
        : >"$DIR/$MARKER"
        printf '%s\n' "$PORT" >"$DIR/port"
        if ((EUID == 0)); then
            id -u postgres >/dev/null 2>&1 || die "user 'postgres' missing (run scripts/deps.sh)"
            chown -R postgres:postgres "$DIR"
        fi
        chmod 700 "$DIR"
    fi

    if [[ ! -f $DATA/PG_VERSION ]]; then
        local locale_opt=(--no-locale)
        if locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$'; then
            locale_opt=(--locale=C.UTF-8)
        fi
        if ! as_owner "$BIN/initdb" -D "$DATA" -U postgres -A trust -E UTF8 "${locale_opt[@]}" \
                --no-sync --no-instructions >"$DIR/initdb.log" 2>&1; then
            cat "$DIR/initdb.log" >&2
            die "initdb failed"
        fi
    fi

    local opts
    opts=$(server_opts)
    if is_running; then
        if [[ -f $DIR/server.opts && $(<"$DIR/server.opts") == "$opts" ]]; then
            echo "$prog: already running on port $PORT (socket dir $DIR)" >&2
            return 0
        fi
        echo "$prog: server options changed; restarting" >&2
        as_owner "$BIN/pg_ctl" stop -D "$DATA" -m fast -w -t 60 >/dev/null
    fi

    if ! as_owner env PGHOST="$DIR" PGPORT="$PORT" PGUSER=postgres \
            "$BIN/pg_ctl" start -D "$DATA" -l "$LOG" -w -t 60 -o "$opts" >/dev/null 2>&1; then
        echo "$prog: server did not start; last lines of $LOG:" >&2
        tail -n 30 "$LOG" >&2 || true
        return 1
    fi
    printf '%s\n' "$opts" >"$DIR/server.opts"
    [[ $EUID -ne 0 ]] || chown postgres:postgres "$DIR/server.opts"

    local i
    for ((i = 0; i < 60; i++)); do
        if "$BIN/pg_isready" -q -h "$DIR" -p "$PORT" -U postgres -d postgres; then
            echo "$prog: running on port $PORT (socket dir $DIR, log $LOG)" >&2
            return 0
        fi
        sleep 0.5
    done
    tail -n 30 "$LOG" >&2 || true
    die "server started but does not accept connections"
}

cmd_stop() {
    if user_pghost; then
        echo "$prog: PGHOST is set ($PGHOST); not stopping the user's server" >&2
        return 0
    fi
    [[ -e $DIR ]] || return 0
    [[ -f $DIR/$MARKER ]] || die "$DIR was not made by this script; not removing it"
    BIN=$(find_bindir)
    if [[ -f $DATA/postmaster.pid ]] && is_running; then
        if ! as_owner "$BIN/pg_ctl" stop -D "$DATA" -m fast -w -t 60 >/dev/null 2>&1; then
            as_owner "$BIN/pg_ctl" stop -D "$DATA" -m immediate -w -t 30 >/dev/null 2>&1 || true
        fi
        if is_running; then
            die "server in $DATA did not stop; not removing $DIR"
        fi
    fi
    rm -rf -- "$DIR"
    echo "$prog: stopped; removed $DIR" >&2
}

cmd_env() {
    if user_pghost; then
        local v
        for v in PGHOST PGPORT PGUSER PGDATABASE; do
            if [[ -n ${!v:-} ]]; then
                printf 'export %s=%q\n' "$v" "${!v}"
            fi
        done
        return 0
    fi
    printf 'export PGHOST=%q\n' "$DIR"
    printf 'export PGPORT=%q\n' "$PORT"
    printf 'export PGUSER=postgres\n'
    printf 'export PGDATABASE=postgres\n'
}

cmd_status() {
    if user_pghost; then
        echo "$prog: PGHOST is set ($PGHOST); user's server" >&2
        return 0
    fi
    BIN=$(find_bindir)
    if [[ -f $DIR/$MARKER ]] && is_running; then
        echo "$prog: running on port $PORT (socket dir $DIR)" >&2
        return 0
    fi
    echo "$prog: not running ($DIR)" >&2
    return 3
}

case ${1:-} in
    start) cmd_start ;;
    stop) cmd_stop ;;
    env) cmd_env ;;
    status) cmd_status ;;
    *)
        echo "usage: $0 start|stop|env|status" >&2
        exit 2
        ;;
esac
