#!/usr/bin/env python3
"""bench/lib/duckdb_rounds.py — serde against DuckDB's json_transform_strict (issue 23), the
measuring half of bench/duckdb.

    python3 bench/lib/duckdb_rounds.py --manifest M --out-dir D [--only W,..] [--rounds N]
                                        [--target-ms MS] [--copies N]

Talks to the bench server named by PGHOST/PGPORT (database serde_bench, loaded by bench/run) and
to one `node bench/duckdb.mjs` process (DuckDB in memory). Per documents workload:
- the DuckDB structure is made from the built-ins' twin type of the workload (README.md, *Twin
  types*: column names = the member names serde reads, `path` members as nested objects, unix
  times as int8), pruned to the members present in the document (json_transform_strict raises an
  error on a missing key);
- DuckDB stores as many copies of the document as the PostgreSQL table (or --copies), each made
  distinct by a trailing run of blanks;
- every round: one pgbench run interleaving serde_text, floor_simdjson and floor (measure.py's
  machinery), and DuckDB with threads=1 and with its default threads, each alternating the
  transform statement with its scan floor; the order PostgreSQL/DuckDB alternates by round.
Writes D/duckdb.json and D/duckdb.md (per-round ratios, medians [min–max]).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure as M  # noqa: E402

ROOT = M.ROOT
PG_TO_DUCK = {"text": "VARCHAR", "varchar": "VARCHAR", "bpchar": "VARCHAR", "name": "VARCHAR",
              "int2": "SMALLINT", "int4": "INTEGER", "int8": "BIGINT", "bool": "BOOLEAN",
              "float4": "FLOAT", "float8": "DOUBLE", "timestamptz": "TIMESTAMPTZ",
              "timestamp": "TIMESTAMP", "date": "DATE", "uuid": "UUID", "jsonb": "JSON", "json": "JSON",
              "bytea": "VARCHAR"}


def type_info(db, oid, cache={}):
    if oid not in cache:
        r = M.psql(db, f"SELECT typtype, typcategory, typelem::int, typbasetype::int, typname, typrelid::int "
                       f"FROM pg_type WHERE oid = {oid}").split("|")
        cache[oid] = r
    return cache[oid]


def duck_type(db, oid, fmt, notes):
    typtype, cat, elem, base, name, relid = type_info(db, oid)
    if typtype == "d":
        return duck_type(db, int(base), fmt, notes)
    if cat == "A":
        return [duck_type(db, int(elem), re.sub(r"\[\]$", "", fmt), notes)]
    if typtype == "c":
        rows = M.psql(db, f"SELECT attname, atttypid::int, format_type(atttypid, atttypmod) FROM pg_attribute "
                          f"WHERE attrelid = {relid} AND attnum > 0 AND NOT attisdropped ORDER BY attnum")
        out = {}
        for line in rows.splitlines():
            a, t, f = line.split("|")
            out[a] = duck_type(db, int(t), f, notes)
        return out
    if typtype == "e":
        notes.add("enums as VARCHAR (no label check)")
        return "VARCHAR"
    if name == "numeric":
        m = re.match(r"numeric\((\d+),(\d+)\)", fmt)
        return f"DECIMAL({m.group(1)},{m.group(2)})" if m else "DOUBLE"
    if name in ("varchar", "bpchar") and "(" in fmt:
        notes.add("varchar(n) as VARCHAR (no length check)")
    if name == "bytea":
        notes.add("bytea: base64 text, decoded with from_base64 where a top-level column")
    return PG_TO_DUCK.get(name, "VARCHAR")


def prune(struct, value, dropped, path="$"):
    """Keep only the members the document has (in every element of an array): json_transform_strict
    raises an error on a missing key."""
    if not isinstance(struct, dict) or not isinstance(value, dict):
        return struct       # null (or not an object): kept as it is
    return prune_all(struct, [value], dropped, path)


def prune_all(t, values, dropped, path):
    if isinstance(t, list):
        items = [x for v in values if isinstance(v, list) for x in v]
        return [prune_all(t[0], items, dropped, path + "[]")] if items else t
    if isinstance(t, dict):
        objs = [v for v in values if isinstance(v, dict)]
        if not objs:
            return t
        out = {}
        for k, tt in t.items():
            present = [v[k] for v in objs if k in v]
            if len(present) < len(objs):
                dropped.append(f"{path}.{k}")
                continue
            out[k] = prune_all(tt, present, dropped, f"{path}.{k}")
        if not out:         # DuckDB has no empty STRUCT: the value kept as JSON
            dropped.append(f"{path} (no member present: JSON)")
            return "JSON"
        return out
    return t


class Duck:
    def __init__(self):
        env = dict(os.environ)
        self.p = subprocess.Popen(["node", os.path.join(ROOT, "bench", "duckdb.mjs")], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env)

    def ask(self, **m):
        self.p.stdin.write(json.dumps(m) + "\n")
        self.p.stdin.flush()
        r = json.loads(self.p.stdout.readline())
        if "error" in r:
            raise RuntimeError(f"duckdb: {r['error']}")
        return r


def lq(xs):
    xs = sorted(xs)
    return xs[(len(xs) - 1) // 4]


def med_range(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return None
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--db", default="serde_bench")
    ap.add_argument("--only", default="stripe_invoice,github_pull_request,k8s_deployment,jsonapi_compound,"
                                      "msk_event,msk_record")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--target-ms", type=float, default=300)
    ap.add_argument("--copies", type=int, default=0, help="DuckDB copies (0: as many as the PostgreSQL table)")
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--command", default="bench/duckdb")
    a = ap.parse_args()

    man = {w["name"]: w for w in M.load_manifest(a.manifest)}
    names = [n for n in a.only.split(",") if n]
    duck = Duck()
    ver = duck.ask(cmd="version")
    M.log(f"DuckDB {ver['duckdb']} (@duckdb/node-api {ver['node_api']}), default threads {ver['default_threads']}")
    out = {"env": {"duckdb": ver, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                   "loadavg_start": os.getloadavg()[0], "command": a.command,
                   "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"],
                                            capture_output=True, text=True).stdout.strip(),
                   "dirty": bool(subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "src"],
                                                capture_output=True, text=True).stdout.strip())},
           "workloads": {}}
    t0 = time.time()
    for name in names:
        w = man[name]
        notes = set()
        oid = int(M.psql(a.db, f"SELECT '{w['pop_type']}'::regtype::oid"))
        struct = duck_type(a.db, oid, w["pop_type"], notes)
        with open(w["doc"], encoding="utf-8") as f:
            doc = json.load(f)
        dropped = []
        struct = prune(struct, doc, dropped)
        sel = ["count(s)"]
        tw = M.psql(a.db, f"SELECT attname FROM pg_attribute WHERE attrelid = '{w['pop_type']}'::regclass "
                          f"AND atttypid = 'bytea'::regtype AND attnum > 0 AND NOT attisdropped").split()
        for k in tw:
            if k in struct:
                sel.append(f'sum(octet_length(from_base64(s."{k}")))')
        copies = a.copies or w["rows"]
        info = duck.ask(cmd="load", name=name, doc=w["doc"], copies=copies, structure=struct, select=sel)
        comps = {c["name"]: c for c in w["competitors"]}
        use = [comps[c] for c in ("serde_text", "floor_simdjson", "floor_detoast", "floor") if c in comps]
        # calibration (and warm-up) of the pgbench transaction counts, as measure.py warm does
        txns = {}
        for c in use:
            lat = M.pgbench(a.db, c["script"], 3)
            txns[c["name"]] = int(min(20000, max(8, a.target_ms * 1000 / max(statistics.median(lat[1:] or lat or [1]), 1))))
        total = sum(txns.values())
        rec = {"rows": w["rows"], "copies": copies, "bytes": w["bytes"], "structure": struct,
               "select": sel, "dropped": dropped, "notes": sorted(notes), "plan": info["plan"],
               "transform_sql": info["transform"], "rounds": []}
        for r in range(a.rounds):
            rd = {}

            def pg():
                res = M.pgbench_multi(a.db, [(c["script"], txns[c["name"]]) for c in use], total)
                for i, c in enumerate(use):
                    rd["pg_" + c["name"]] = M.warm_latency(res[i]) * 1000.0   # ns per statement

            def dk():
                for label, th in (("duck1", 1), ("duckN", None)):
                    t = duck.ask(cmd="time", name=name, threads=th, ms=a.target_ms / 2)
                    rd[label + "_transform"] = lq(t["transform"])
                    rd[label + "_floor"] = lq(t["floor"])
                    rd[label + "_threads"] = t["threads"]
            (pg(), dk()) if r % 2 == 0 else (dk(), pg())
            fl = rd["pg_floor"]
            rd["serde_net"] = (rd["pg_serde_text"] - fl) / w["rows"]
            if "pg_floor_simdjson" in rd:
                rd["backend_floor_net"] = (rd["pg_floor_simdjson"] - fl) / w["rows"]
                rd["serde_per_backend_floor"] = rd["serde_net"] / rd["backend_floor_net"]
            # serde's decode of bytes already in memory: net less the TOAST fetch (ascii(body) − floor);
            # DuckDB's strings are in memory, its floor reads them as they are
            if "pg_floor_detoast" in rd:
                rd["serde_decode"] = max(rd["serde_net"] - (rd["pg_floor_detoast"] - fl) / w["rows"], 1.0)
            for label in ("duck1", "duckN"):
                rd[label + "_net"] = (rd[label + "_transform"] - rd[label + "_floor"]) / copies
                rd[label + "_ratio"] = rd[label + "_net"] / rd["serde_net"]
                if "serde_decode" in rd:
                    rd[label + "_ratio_mem"] = rd[label + "_net"] / rd["serde_decode"]
            rec["rounds"].append(rd)
        for k in ("serde_net", "backend_floor_net", "serde_per_backend_floor", "duck1_net", "duckN_net",
                  "duck1_ratio", "duckN_ratio", "serde_decode", "duck1_ratio_mem", "duckN_ratio_mem"):
            rec[k] = med_range([rd.get(k) for rd in rec["rounds"] if rd.get(k) is not None])
        out["workloads"][name] = rec
        M.log(f"{name}: serde {rec['serde_net']['median']:.0f} ns, DuckDB 1 thread {rec['duck1_net']['median']:.0f} ns "
              f"({rec['duck1_ratio']['median']:.2f}x), default {rec['duckN_net']['median']:.0f} ns "
              f"({rec['duckN_ratio']['median']:.2f}x), serde/backend floor "
              f"{(rec['serde_per_backend_floor'] or {}).get('median', float('nan')):.2f}  [{time.time() - t0:.0f}s]")
    out["env"]["loadavg_end"] = os.getloadavg()[0]
    os.makedirs(a.out_dir, exist_ok=True)
    with open(os.path.join(a.out_dir, "duckdb.json"), "w") as f:
        json.dump(out, f, indent=1)
    report(out, os.path.join(a.out_dir, "duckdb.md"))


def fmt(v):
    return "n/a" if v is None else (f"{v / 1000:.1f} µs" if v >= 10000 else f"{v:,.0f} ns")


def report(out, path):
    e = out["env"]
    L = [f"# serde vs DuckDB json_transform_strict ({e['command']})", "",
         f"- date {e['date']}, commit {e['commit']}{' + uncommitted src/' if e['dirty'] else ''}, "
         f"1-min load {e['loadavg_start']:.2f} → {e['loadavg_end']:.2f}",
         f"- DuckDB {e['duckdb']['duckdb']} (@duckdb/node-api {e['duckdb']['node_api']}), default threads "
         f"{e['duckdb']['default_threads']}", "",
         "| workload | serde net | DuckDB net, 1 thread | ratio (DuckDB ÷ serde) | DuckDB net, default threads | ratio | "
         "serde/backend floor | ≥ 1.25× | ≤ 1.5× floor | serde net less its TOAST fetch | DuckDB (1 thread) ÷ that |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]
    for n, r in out["workloads"].items():
        def x(d):
            return "n/a" if not d else f"**{d['median']:.2f}×** [{d['min']:.2f}–{d['max']:.2f}]"
        bf = r["serde_per_backend_floor"]
        L.append(f"| `{n}` | {fmt(r['serde_net']['median'])} | {fmt(r['duck1_net']['median'])} | {x(r['duck1_ratio'])} | "
                 f"{fmt(r['duckN_net']['median'])} | {x(r['duckN_ratio'])} | {x(bf)} | "
                 f"{'met' if r['duck1_ratio']['median'] >= 1.25 else 'missed'} | "
                 f"{'n/a' if not bf else ('met' if bf['median'] <= 1.5 else 'missed')} | "
                 f"{fmt(r['serde_decode']['median']) if r.get('serde_decode') else 'n/a'} | {x(r.get('duck1_ratio_mem'))} |")
    L.append("")
    for n, r in out["workloads"].items():
        L.append(f"- `{n}`: {r['copies']} DuckDB copies, {r['rows']} PostgreSQL rows; "
                 f"members not in the document (left out of the structure): {', '.join(r['dropped']) or 'none'}; "
                 f"{'; '.join(r['notes'])}")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))


if __name__ == "__main__":
    main()
