"""compare_pg.py — the realistic fixtures decode to the same values in SQLite as in PostgreSQL
(issue 14 acceptance): the fixture types and shapes (fixtures/sql/types.sql, shapes.sql) are
loaded into a scratch PostgreSQL database; SQLite descriptors are generated from PostgreSQL's own
catalog (each shape's options plus a "type" per column, from pg_attribute/pg_type: varchar(n) ->
text, int2/int4/int8 -> integer, numeric(p,s) -> numeric, timestamptz -> timestamp, enums ->
{"enum": labels}, arrays -> {"list": T}, a composite column with a `shape` option -> {"shape": S},
one without -> a generated shape carrying the policy it inherits) and registered in SQLite; then
every fixtures/json/*.json is decoded by both hosts and the values compared one by one (SQLite's
canonical JSON against to_jsonb of PostgreSQL's row, read with types: numerics as decimals, times
as instants, bytea as bytes), and each mutated fixture must fail in both with the same SQLSTATE
and path as fixtures/json/mutated/EXPECTED.tsv.
Usage: /usr/bin/python3 test/sqlite/compare_pg.py ./sqlite/serde   (PGHOST/PGPORT/PGUSER set)"""
import base64
import datetime
import decimal
import json
import os
import sqlite3
import subprocess
import sys

EXT = sys.argv[1] if len(sys.argv) > 1 else "./sqlite/serde"
DB = "serde_sqlite_cmp"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = {   # file -> shape
    "stripe_invoice": "StripeInvoice", "github_pull_request": "GithubPullRequestEvent",
    "k8s_deployment": "K8sDeployment", "jsonapi_compound": "JsonApiDocument",
    "msk_event": "MskEvent", "msk_record": "MskRecord",
}
failures = 0


def psql(sql, db=DB, variables=None):
    cmd = ["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", db]
    for k, v in (variables or {}).items():
        cmd += ["-v", f"{k}={v}"]
    r = subprocess.run(cmd, input=sql, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip())
    return r.stdout.rstrip("\n")


# ---- descriptors from PostgreSQL's catalog ------------------------------------------------------
SCALARS = {"text": "text", "varchar": "text", "bpchar": "text", "name": "text", "int2": "integer",
           "int4": "integer", "int8": "integer", "float4": "real", "float8": "real",
           "numeric": "numeric", "bool": "boolean", "timestamptz": "timestamp", "timestamp": "timestamp",
           "date": "date", "uuid": "uuid", "bytea": "blob", "json": "json", "jsonb": "json"}
POLICY = ("rename", "unknown", "coerce", "optional")


class Gen:
    def __init__(self, types, shapes):
        self.types, self.shapes = types, shapes     # oid -> info; name -> (target oid, options)
        self.out = {}                               # shape name -> descriptor, in dependency order
        self.busy = set()                           # being generated (recursion through json)

    def scalar_or_list(self, oid, policy, owner, shape=None):
        t = self.types[str(oid)]
        if t["typtype"] == "d":
            return self.scalar_or_list(t["base"], policy, owner, shape)
        if t["typtype"] == "e":
            return {"enum": t["labels"]}
        if t["category"] == "A":
            return {"list": self.scalar_or_list(t["elem"], policy, owner, shape)}
        if t["typtype"] == "c":
            if shape:
                self.shape(shape)
                return {"shape": shape}
            return {"shape": self.generated(oid, policy, owner)}
        if t["name"] not in SCALARS:
            raise RuntimeError(f"type {t['name']} has no SQLite type")
        return SCALARS[t["name"]]

    def generated(self, oid, policy, owner):
        """a composite without a shape: a generated shape with the policy in force"""
        name = f"{self.types[str(oid)]['name']}~{owner}"[:63]
        if name not in self.out and name not in self.busy:
            self.busy.add(name)
            self.out[name] = self.descriptor(oid, dict(policy), {}, owner)   # after what it uses
        return name

    def shape(self, name):
        if name in self.out or name in self.busy:
            return
        self.busy.add(name)
        oid, options = self.shapes[name]
        self.out[name] = self.descriptor(oid, {k: options[k] for k in POLICY if k in options}, options, name)

    def descriptor(self, oid, policy, options, owner):
        d = {k: v for k, v in options.items() if k != "fields"}
        d.update(policy)
        fields = {}
        fopts = options.get("fields", {})
        for col, coid in self.types[str(oid)]["cols"]:
            f = dict(fopts.get(col, {}))
            shape = f.pop("shape", None)
            t = self.types[str(coid)]
            while t["typtype"] == "d":
                t = self.types[str(t["base"])]
            if t["name"] in ("json", "jsonb") and shape:
                f["shape"] = shape                  # a json column validated by a shape
                self.shape(shape)
                shape = None
            if f.pop("map", False):
                value = self.types[str(t["elem"])]["cols"][1][1]
                f["type"] = {"map": self.scalar_or_list(value, policy, owner, shape)}
            else:
                f["type"] = self.scalar_or_list(coid, policy, owner, shape)
            fields[col] = f
        d["fields"] = fields
        return d


# ---- value comparison ---------------------------------------------------------------------------
def instant(s):
    try:
        return datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        return None


def same(pg, sq, path, counter):
    """PostgreSQL's to_jsonb value against SQLite's canonical JSON value"""
    if isinstance(pg, dict) and isinstance(sq, dict):
        if set(pg) != set(sq):
            return f"{path}: keys {sorted(pg)} != {sorted(sq)}"
        for k in pg:
            r = same(pg[k], sq[k], f"{path}.{k}", counter)
            if r:
                return r
        return None
    if isinstance(pg, list) and isinstance(sq, dict):     # a map: (key, value) rows vs object
        pg = {e["key"]: e["value"] for e in pg}
        return same(pg, sq, path, counter)
    if isinstance(pg, list) and isinstance(sq, list):
        if len(pg) != len(sq):
            return f"{path}: {len(pg)} elements != {len(sq)}"
        for i, (a, b) in enumerate(zip(pg, sq)):
            r = same(a, b, f"{path}[{i}]", counter)
            if r:
                return r
        return None
    counter[0] += 1
    if isinstance(pg, bool) or isinstance(sq, bool) or pg is None or sq is None:
        return None if pg is sq or pg == sq and type(pg) is type(sq) else f"{path}: {pg!r} != {sq!r}"
    if isinstance(pg, (int, float, decimal.Decimal)) and isinstance(sq, (int, float, decimal.Decimal)):
        return None if decimal.Decimal(str(pg)) == decimal.Decimal(str(sq)) else f"{path}: {pg!r} != {sq!r}"
    if isinstance(pg, str) and isinstance(sq, str):
        if pg == sq:
            return None
        if pg.startswith("\\x"):                                   # bytea: hex vs base64
            return None if bytes.fromhex(pg[2:]) == base64.b64decode(sq) else f"{path}: bytes differ"
        a, b = instant(pg), instant(sq)
        if a and b and a == b and sq.endswith("Z"):
            return None
        return f"{path}: {pg!r} != {sq!r}"
    return f"{path}: {pg!r} ({type(pg).__name__}) != {sq!r} ({type(sq).__name__})"


def main():
    global failures
    psql(f"DROP DATABASE IF EXISTS {DB}", db="postgres")
    psql(f"CREATE DATABASE {DB}", db="postgres")
    try:
        psql("SET client_min_messages = warning; CREATE EXTENSION serde;\n\\i fixtures/sql/types.sql\n\\i fixtures/sql/shapes.sql\n")
        types = json.loads(psql("""
SELECT json_object_agg(t.oid, json_build_object(
    'name', t.typname, 'typtype', t.typtype, 'category', t.typcategory, 'elem', t.typelem,
    'base', t.typbasetype,
    'labels', (SELECT json_agg(e.enumlabel ORDER BY e.enumsortorder) FROM pg_enum e WHERE e.enumtypid = t.oid),
    'cols', (SELECT json_agg(json_build_array(a.attname, a.atttypid) ORDER BY a.attnum)
               FROM pg_attribute a WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped)))
FROM pg_type t"""))
        shapes = {}
        for line in psql("SELECT json_build_array(name, target::oid, options) FROM serde.shapes").splitlines():
            name, oid, options = json.loads(line)
            shapes[name] = (oid, options)
        gen = Gen(types, shapes)
        for s in sorted(shapes):
            gen.shape(s)

        conn = sqlite3.connect(":memory:")
        conn.enable_load_extension(True)
        conn.load_extension(EXT)
        for name, d in gen.out.items():
            conn.execute("SELECT serde_register(?, ?)", (name, json.dumps(d)))
        print(f"registered {len(gen.out)} SQLite shapes generated from {len(shapes)} PostgreSQL shapes")

        for fx, shape in FIXTURES.items():
            with open(os.path.join(ROOT, "fixtures/json", fx + ".json")) as f:
                doc = f.read()
            target = types[str(shapes[shape][0])]["name"]
            pg = json.loads(psql(f"SET TimeZone = 'UTC'; SELECT to_jsonb(d) FROM serde_decode(NULL::{target}, :'doc', '{shape}') d",
                                 variables={"doc": doc}), parse_float=decimal.Decimal)
            sq = json.loads(conn.execute("SELECT serde_decode(?, ?)", (shape, doc)).fetchone()[0],
                            parse_float=decimal.Decimal)
            counter = [0]
            r = same(pg, sq, "$", counter)
            if r:
                failures += 1
                print(f"FAIL: {fx}: {r}")
            else:
                print(f"ok: {fx}.json ({shape}): {counter[0]} values equal")

        with open(os.path.join(ROOT, "fixtures/json/mutated/EXPECTED.tsv")) as f:
            expected = [l.rstrip("\n").split("\t") for l in f if l.strip()]
        agree = 0
        for file, code, path in expected:
            with open(os.path.join(ROOT, "fixtures/json/mutated", file)) as f:
                doc = f.read()
            shape = FIXTURES[file.split(".")[0]]
            target = types[str(shapes[shape][0])]["name"]
            pg = psql(f"SELECT code || ' ' || path FROM serde_errors(NULL::{target}, :'doc', '{shape}') LIMIT 1",
                      variables={"doc": doc})
            row = conn.execute("SELECT code || ' ' || path FROM serde_errors(?, ?) LIMIT 1", (shape, doc)).fetchone()
            sq = row[0] if row else "(valid)"
            if pg == sq == f"{code} {path}":
                agree += 1
            else:
                failures += 1
                print(f"FAIL: {file}: expected {code} {path}, PostgreSQL {pg}, SQLite {sq}")
        print(f"ok: {agree} of {len(expected)} mutated fixtures fail with the same SQLSTATE and path in both")
        conn.close()
    finally:
        psql(f"DROP DATABASE IF EXISTS {DB}", db="postgres")
    print("compare_pg.py:", "FAIL" if failures else "ok", f"({failures} failed)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
