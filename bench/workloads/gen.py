#!/usr/bin/env python3
"""bench/workloads/gen.py — generate the benchmark workloads.

    python3 bench/workloads/gen.py [--out DIR] [--target-bytes N]

Writes into DIR (default bench/out/workloads):
  docs/<workload>.json   one document per workload (the bytes every competitor and the floor
                         program parse; every row of the workload's table holds this document)
  docs.copy              the same documents as COPY text data for bench.docs(name, body)
  load.sql               schema `bench`: generated types (with the diagnostics' twin types for
                         the built-ins), document tables (STORAGE EXTERNAL: no TOAST
                         compression), helper functions (twins, the twin check).
                         Needs fixtures/sql/types.sql loaded first; no extension needed.
  serde.sql              shape registrations for the generated types (needs the extension; a
                         registration that fails is recorded in bench.skipped, not fatal)
  twins.sql              the documents' twin types for the built-ins, made from serde_describe()
                         of their shapes (after serde.sql; without serde, from column names)
  manifest.json          the workloads: group, type, table, rows, bytes, competitors (SQL), notes
  scripts/W__C.sql       one pgbench script per workload W and competitor C

Every statement decodes all `rows` stored copies of the document (LATERAL form, one call per
document) and consumes the full row with count(d.*), so nothing is optimised away; the
per-statement floor is the same query with octet_length(body) (reads the row, does not detoast).
"""
import argparse
import json
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIX = os.path.join(ROOT, "fixtures")

rnd = random.Random(20240501)

# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def sql_lit(s):
    return "'" + s.replace("'", "''") + "'"


def jdump(obj, indent=None):
    return json.dumps(obj, indent=indent, ensure_ascii=False, separators=None if indent else (",", ":"))


WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
         "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu").split()


def words(n):
    return " ".join(rnd.choice(WORDS) for _ in range(n))


def rows_for(nbytes, target):
    return max(5, min(2000, round(target / max(nbytes, 1))))


# --------------------------------------------------------------------------------------------
# workload definitions
# --------------------------------------------------------------------------------------------

class W:
    def __init__(self, name, group, doc_text, type_, shape=None, pop_type=None, records=1,
                 notes=(), serde_shapes=(), twin=None, rows=None, err=None):
        self.name = name
        self.group = group
        self.doc = doc_text
        self.type = type_
        self.shape = shape            # explicit shape name for the 3-argument form (None: 2-arg)
        self.pop_type = pop_type or type_
        self.records = records        # records per document (batches)
        self.notes = list(notes)
        self.serde_shapes = list(serde_shapes)
        self.twin = twin              # error workloads: the valid twin workload name
        self.rows = rows
        self.err = err                # error workloads: what is wrong
        self.unix_ts = False          # documents: the twin fallback without serde makes timestamptz int8
        self.competitors = []
        try:
            json.loads(doc_text)
            self.valid_json = True
        except ValueError:
            self.valid_json = False


# What the built-ins still do not do on their twin types (bench.pop_twin: column names = the member
# names serde reads, unix times as int8, `path` members through nested composite columns). The
# report adds the value counts of bench.twin_check() (bench/lib/load.sh) under these.
TWIN = "built-ins use a twin type whose column names are the member names serde reads, at every level"


def no_defaults(members):
    return (f"the built-ins apply no defaults ({members}; only a document lacking the member would differ) "
            "and no required/non-null checks")


DOC_NOTES = {
    "stripe_invoice": [
        TWIN + "; the unix-second times (created, period_start/end, due_date, paid_at, the lines' period "
        "start/end, price created) are int8 columns: populate_record cannot make timestamptz of them",
        "`path` members (paid_at = status_transitions.paid_at, the lines' period.start/end) are read through "
        "nested composite twin columns, not flattened",
        no_defaults("attempt_count, metadata, lines.object, the lines' quantity and metadata, price metadata"),
    ],
    "github_pull_request": [
        TWIN + " (`user` for the column author, `default` for is_default)",
        "`path` members (head.ref, head.sha, head.repo.full_name, base.ref, base.sha, installation.id) are read "
        "through nested composite twin columns, not flattened",
        no_defaults("draft, custom_properties"),
    ],
    "k8s_deployment": [
        TWIN + " (camelCase: apiVersion, imagePullPolicy, …)",
        no_defaults("replicas, imagePullPolicy, restartPolicy"),
    ],
    "jsonapi_compound": [
        TWIN + " (camelCase: wordCount)",
        no_defaults("included"),
    ],
    "msk_event": [
        TWIN + " (camelCase: eventSource, eventSourceArn, bootstrapServers)",
        no_defaults("records"),
    ],
    "msk_record": [
        TWIN + " (camelCase; `offset`, `timestamp` for record_offset, record_time); the unix-millisecond "
        "timestamp is an int8 column: populate_record cannot make a timestamptz of it",
        "`key` and `value` (bytea, base64 by default): the built-ins read the base64 text into bytea as it is, "
        "without decoding it",
        no_defaults("headers"),
    ],
}


def fixture_workloads():
    out = []
    with open(os.path.join(FIX, "demo.tsv")) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fname, typ, shape = line.split("\t")[:3]
            with open(os.path.join(FIX, "json", fname), encoding="utf-8") as jf:
                text = jf.read()
            name = os.path.splitext(fname)[0]
            w = W(name, "documents", text, typ, pop_type=f"bench.{typ}__pop", notes=DOC_NOTES.get(name, ()),
                  serde_shapes=[shape])
            w.unix_ts = name == "stripe_invoice"   # bench.attr_twin fallback: its times are unix seconds
            out.append(w)
    return out


def stored_jsonb_workloads(docs):
    """The realistic fixtures as most users keep them: in a jsonb column (issue 12 item 7). Same
    document, types, shapes and twins as the documents group; every competitor reads the stored
    jsonb (serde_text reads the text column of the same table, for the text path's speed on the
    same document) and the floor is jsonb_typeof(bodyb), which detoasts the value."""
    out = []
    for d in docs:
        w = W("jb_" + d.name, "stored_jsonb", d.doc, d.type, pop_type=d.pop_type, serde_shapes=d.serde_shapes,
              notes=["the documents group's " + d.name + " stored as jsonb; net = statement − jsonb_typeof(bodyb) "
                     "(a floor that fetches and detoasts the jsonb); serde (text) reads the text column of the same "
                     "rows, net of the same floor"])
        out.append(w)
    return out


def diag_workloads(types_sql, shapes_sql):
    out = []

    # 20 int columns: 10 int4, 10 int8
    cols = [f"c{i:02d} {'int4' if i <= 10 else 'int8'}" for i in range(1, 21)]
    types_sql.append(f"CREATE TYPE bench.ints20 AS ({', '.join(cols)});")
    doc = {}
    for i in range(1, 21):
        doc[f"c{i:02d}"] = rnd.randint(-2_000_000_000, 2_000_000_000) if i <= 10 else rnd.randint(-10**15, 10**15)
    shapes_sql.append(("B_Ints20", "bench.ints20", {}))
    out.append(W("ints20", "diagnostics", jdump(doc), "bench.ints20", serde_shapes=["B_Ints20"]))

    # 20 text columns (plain ASCII, one escape each in two of them, one non-ASCII)
    types_sql.append(f"CREATE TYPE bench.texts20 AS ({', '.join(f't{i:02d} text' for i in range(1, 21))});")
    doc = {f"t{i:02d}": words(rnd.randint(3, 7)) for i in range(1, 21)}
    doc["t05"] += ' "quoted"\nsecond line'
    doc["t12"] += " caf\u00e9 \u00fcber"
    shapes_sql.append(("B_Texts20", "bench.texts20", {}))
    out.append(W("texts20", "diagnostics", jdump(doc), "bench.texts20", serde_shapes=["B_Texts20"]))

    # exact numerics: 10 numeric(14,4) + 2 unconstrained
    cols = [f"n{i:02d} numeric(14,4)" for i in range(1, 11)] + ["n11 numeric", "n12 numeric"]
    types_sql.append(f"CREATE TYPE bench.numerics AS ({', '.join(cols)});")
    parts = []
    for i in range(1, 11):
        parts.append(f'"n{i:02d}":{rnd.randint(0, 10**9)}.{rnd.randint(0, 9999):04d}')
    parts.append('"n11":123456789012345678901234.5678901234')
    parts.append('"n12":0.000000000123')
    shapes_sql.append(("B_Numerics", "bench.numerics", {}))
    out.append(W("numerics", "diagnostics", "{" + ",".join(parts) + "}", "bench.numerics",
                 serde_shapes=["B_Numerics"]))

    # timestamps, RFC 3339
    types_sql.append(f"CREATE TYPE bench.ts_rfc3339 AS ({', '.join(f'ts{i:02d} timestamptz' for i in range(1, 11))});")
    vals = ["2024-05-01T12:34:56Z", "2024-05-01T12:34:56.123456Z", "2023-12-31T23:59:59+02:00",
            "2024-02-29T00:00:00.5-05:30", "2024-05-08T15:43:31.870Z", "2021-01-01T00:00:00Z",
            "2024-05-01T12:34:56.789+00:00", "1999-12-31T23:59:59.999999Z", "2024-07-04T09:15:00-07:00",
            "2030-06-15T18:00:00.25Z"]
    doc = {f"ts{i:02d}": v for i, v in enumerate(vals, 1)}
    shapes_sql.append(("B_TsRfc3339", "bench.ts_rfc3339", {}))
    out.append(W("ts_rfc3339", "diagnostics", jdump(doc), "bench.ts_rfc3339", serde_shapes=["B_TsRfc3339"]))

    # timestamps, unix seconds (format: unix)
    types_sql.append(f"CREATE TYPE bench.ts_unix AS ({', '.join(f'ts{i:02d} timestamptz' for i in range(1, 11))});")
    types_sql.append(f"CREATE TYPE bench.ts_unix__pop AS ({', '.join(f'ts{i:02d} float8' for i in range(1, 11))});")
    parts = []
    for i in range(1, 11):
        v = rnd.randint(1_500_000_000, 1_800_000_000)
        parts.append(f'"ts{i:02d}":{v}' + (".25" if i % 3 == 0 else ""))
    shapes_sql.append(("B_TsUnix", "bench.ts_unix",
                       {"fields": {f"ts{i:02d}": {"format": "unix"} for i in range(1, 11)}}))
    out.append(W("ts_unix", "diagnostics", "{" + ",".join(parts) + "}", "bench.ts_unix",
                 pop_type="bench.ts_unix__pop", serde_shapes=["B_TsUnix"],
                 notes=["built-ins read the numbers into float8 columns (they cannot make timestamps of them)"]))

    # enums
    labels = ["crimson", "vermilion", "amber", "chartreuse", "emerald", "turquoise", "ultramarine",
              "violet", "magenta", "sepia", "charcoal", "ivory"]
    types_sql.append(f"CREATE TYPE bench.color AS ENUM ({', '.join(sql_lit(l) for l in labels)});")
    types_sql.append(f"CREATE TYPE bench.enums AS ({', '.join(f'e{i:02d} bench.color' for i in range(1, 11))});")
    doc = {f"e{i:02d}": rnd.choice(labels) for i in range(1, 11)}
    enums_doc = doc
    shapes_sql.append(("B_Enums", "bench.enums", {}))
    out.append(W("enums", "diagnostics", jdump(doc), "bench.enums", serde_shapes=["B_Enums"]))

    # 1,000-element scalar list
    types_sql.append("CREATE TYPE bench.list1000 AS (id text, xs int8[]);")
    xs = [rnd.randint(0, 10 ** rnd.randint(1, 10)) for _ in range(1000)]
    list_doc = {"id": "list-1", "xs": xs}
    shapes_sql.append(("B_List1000", "bench.list1000", {}))
    out.append(W("list1000", "diagnostics", jdump(list_doc), "bench.list1000", serde_shapes=["B_List1000"]))

    # 1,000-member map (map: true on an array of (key text, value int8))
    types_sql.append("CREATE TYPE bench.kv AS (key text, value int8);")
    types_sql.append("CREATE TYPE bench.map1000 AS (id text, m bench.kv[]);")
    types_sql.append("CREATE TYPE bench.map1000__pop AS (id text, m jsonb);")
    m = {f"key-{i:04d}-{rnd.choice(WORDS)}": rnd.randint(0, 10**9) for i in range(1000)}
    shapes_sql.append(("B_Map1000", "bench.map1000", {"fields": {"m": {"map": True}}}))
    out.append(W("map1000", "diagnostics", jdump({"id": "map-1", "m": m}), "bench.map1000",
                 pop_type="bench.map1000__pop", serde_shapes=["B_Map1000"],
                 notes=["built-ins keep the map as one jsonb value (no per-member typing) — less work for them"]))

    # nested composites 5 deep: each level 4 scalars + the child
    for lvl in range(5, 0, -1):
        child = f", child bench.nest{lvl + 1}" if lvl < 5 else ""
        types_sql.append(f"CREATE TYPE bench.nest{lvl} AS (id int8, name text, score float8, ok boolean{child});")

    def nest(lvl):
        d = {"id": rnd.randint(1, 10**12), "name": words(3), "score": round(rnd.random() * 1000, 3), "ok": lvl % 2 == 0}
        if lvl < 5:
            d["child"] = nest(lvl + 1)
        return d
    shapes_sql.append(("B_Nest5", "bench.nest1", {}))
    out.append(W("nested5", "diagnostics", jdump(nest(1)), "bench.nest1", serde_shapes=["B_Nest5"]))

    # a union list: 100 events, tag "kind" selects the variant column
    types_sql.append("CREATE TYPE bench.ev_click AS (x int4, y int4, button text);")
    types_sql.append("CREATE TYPE bench.ev_key AS (key text, code int4, shift boolean);")
    types_sql.append("CREATE TYPE bench.event AS (kind text, at int8, click bench.ev_click, keypress bench.ev_key);")
    types_sql.append("CREATE TYPE bench.union_list AS (id text, events bench.event[]);")
    evs = []
    for i in range(100):
        if i % 2 == 0:
            evs.append({"kind": "click", "at": 1714525337000 + i, "x": rnd.randint(0, 1920), "y": rnd.randint(0, 1080),
                        "button": rnd.choice(["left", "right"])})
        else:
            evs.append({"kind": "key", "at": 1714525337000 + i, "key": rnd.choice("abcdefgh"), "code": rnd.randint(60, 90),
                        "shift": bool(i % 3)})
    shapes_sql.append(("B_Event", "bench.event", {"tag": "kind", "variants": {"click": "click", "key": "keypress"}}))
    shapes_sql.append(("B_UnionList", "bench.union_list", {"fields": {"events": {"shape": "B_Event"}}}))
    out.append(W("union_list", "diagnostics", jdump({"id": "u-1", "events": evs}), "bench.union_list",
                 serde_shapes=["B_Event", "B_UnionList"],
                 notes=["built-ins have no unions: variant members are not found and the variant columns come back NULL"]))

    # unknown members: 10 mapped + 40 unknown (ignored), and 10 mapped under unknown: reject
    cols = "id int8, name text, email text, active boolean, score float8, n1 int4, n2 int4, tag text, city text, zip text"
    types_sql.append(f"CREATE TYPE bench.unk AS ({cols});")
    types_sql.append(f"CREATE TYPE bench.unk_r AS ({cols});")
    known = {"id": 123456789, "name": "Ada Lovelace", "email": "ada@example.com", "active": True, "score": 98.25,
             "n1": 17, "n2": -4, "tag": "vip", "city": "London", "zip": "N1 9GU"}
    unk = dict(known)
    for i in range(40):
        k = f"extra_{i:02d}"
        kind = i % 4
        unk[k] = (words(4) if kind == 0 else rnd.randint(0, 10**9) if kind == 1 else
                  {"a": words(2), "b": [1, 2, 3], "c": {"d": None}} if kind == 2 else [words(1), 2.5, True, None])
    # interleave: shuffle unknown members among the known ones, known order kept
    items = list(unk.items())
    kn = [it for it in items if it[0] in known]
    un = [it for it in items if it[0] not in known]
    merged = []
    for i, it in enumerate(kn):
        merged.append(it)
        merged.extend(un[i * 4:(i + 1) * 4])
    unk_doc = dict(merged)
    shapes_sql.append(("B_Unk", "bench.unk", {}))
    shapes_sql.append(("B_UnkReject", "bench.unk_r", {"unknown": "reject"}))
    out.append(W("unknown_ignored", "diagnostics", jdump(unk_doc), "bench.unk", serde_shapes=["B_Unk"],
                 notes=["10 mapped + 40 unknown members (nested values), unknown: ignore"]))
    out.append(W("unknown_rejected", "diagnostics", jdump(known), "bench.unk_r", serde_shapes=["B_UnkReject"],
                 notes=["the 10 mapped members only, unknown: reject (the check, no error)"]))
    return out, enums_doc, list_doc, unk_doc


def batch_workloads(types_sql, shapes_sql):
    types_sql.append("CREATE TYPE bench.flat AS (id int8, name text, email text, score float8, active boolean, "
                     "created timestamptz, tags text[], amount numeric(12,2));")
    shapes_sql.append(("B_Flat", "bench.flat", {}))

    def rec(i):
        return {"id": 1000000 + i, "name": words(2).title(), "email": f"user{i}@example.com",
                "score": round(rnd.random() * 100, 4), "active": i % 3 != 0,
                "created": f"2024-05-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:{(7 * i) % 60:02d}Z",
                "tags": [rnd.choice(WORDS) for _ in range(i % 4)],
                "amount": f"{rnd.randint(0, 99999)}.{rnd.randint(0, 99):02d}"}
    out = []
    for n in (0, 1, 100, 1000):
        recs = [rec(i) for i in range(n)]
        # amounts as JSON numbers (exact)
        text = "[" + ",".join(jdump(r).replace('"amount":"' + r["amount"] + '"', '"amount":' + r["amount"])
                              for r in recs) + "]"
        out.append(W(f"batch{n}", "batches", text, "bench.flat", records=n, serde_shapes=["B_Flat"],
                     notes=[f"a JSON array of {n} flat records (8 columns)"]))
    return out


XML_DOCS = [
    # (fixture, type, shape): fixtures/xml/<fixture>.xml, types in fixtures/sql/xml_types.sql,
    # shapes in fixtures/sql/xml_shapes.sql (both loaded by bench/lib/load.sh), the XMLTABLE
    # query in bench/workloads/xml/<fixture>.xmltable.sql
    ("s3_list_bucket", "s3_list_bucket_result", "S3ListBucketResult"),
    ("rss_feed", "rss_feed", "RssFeed"),
]


def xml_workloads(types_sql, shapes_sql):
    """The XML group (issue 13 item 7): the S3 listing and the RSS feed, decoded by
    serde_decode_xml (and validated by serde_valid_xml) against the XMLTABLE query a user writes
    for the same columns (bench/workloads/xml/<fixture>.xmltable.sql, checked against the
    fixtures' expected rows by test/xml_fixtures.sh), PostgreSQL's own parse (CAST(body AS xml))
    and the libxml2 floor in the backend (bench.libxml2_floor, bench/pgfloor/pgfloor_xml.c). The
    serde competitors require serde_decode_xml / serde_valid_xml and the shape, so they are
    skipped with a note until the XML decoder exists."""
    # the types are fixtures/sql/xml_types.sql (bench/lib/load.sh loads it); the shapes are
    # fixtures/sql/xml_shapes.sql's, registered from serde.sql like the generated ones (a
    # registration that fails is recorded in bench.skipped and its competitors are skipped)
    del types_sql
    with open(os.path.join(FIX, "sql", "xml_shapes.sql"), encoding="utf-8") as f:
        sql = "".join(line for line in f if not line.lstrip().startswith("--"))
    for m in re.finditer(r"serde_register\('([^']+)', '([^']+)'::regtype, '([^']*)'\)", sql):
        shapes_sql.append((m.group(1), m.group(2), json.loads(m.group(3))))
    out = []
    for fixture, typ, shape in XML_DOCS:
        with open(os.path.join(FIX, "xml", fixture + ".xml"), encoding="utf-8") as f:
            text = f.read()
        with open(os.path.join(ROOT, "bench", "workloads", "xml", fixture + ".xmltable.sql"), encoding="utf-8") as f:
            xt = "".join(line for line in f if not line.startswith("--")).strip()
        w = W("xml_" + fixture, "xml", text, typ, serde_shapes=[shape],
              notes=[f"fixtures/xml/{fixture}.xml; XMLTABLE = bench/workloads/xml/{fixture}.xmltable.sql "
                     "(no validation: a missing element is NULL, an unknown one ignored)"])
        w.xmltable = xt
        w.xmltable_fn = f"bench.xmltable_{fixture}"
        out.append(w)
    return out


def error_workloads(by_name, enums_doc, list_doc, unk_doc):
    out = []
    d = dict(enums_doc)
    d["e10"] = "ultraviolet"
    out.append(W("err_bad_enum", "errors", jdump(d), "bench.enums", serde_shapes=["B_Enums"], twin="enums",
                 err="unknown enum label in the last member"))
    d = dict(list_doc)
    d["xs"] = list(list_doc["xs"][:-1]) + ["x"]
    out.append(W("err_bad_last_item", "errors", jdump(d), "bench.list1000", serde_shapes=["B_List1000"],
                 twin="list1000", err="last of 1,000 list items is a string"))
    s = by_name["stripe_invoice"].doc.rstrip()
    assert s.endswith("}")
    out.append(W("err_malformed", "errors", s[:-1], "stripe_invoice", serde_shapes=["StripeInvoice"],
                 pop_type="bench.stripe_invoice__pop", twin="stripe_invoice",
                 err="Stripe invoice without its final '}' (found at the very end)"))
    out.append(W("err_unknown_member", "errors", jdump(unk_doc), "bench.unk_r", serde_shapes=["B_UnkReject"],
                 twin="unknown_rejected", err="unknown member (the 2nd member) under unknown: reject"))
    return out


# --------------------------------------------------------------------------------------------
# competitors
# --------------------------------------------------------------------------------------------

def q_lateral(table, fromexpr, agg="count(d.*)"):
    return f"SELECT {agg} FROM {table} w, LATERAL {fromexpr} d;"


def add_competitors(w, by_name):
    t = w.table
    shape_arg = f", {sql_lit(w.shape)}" if w.shape else ""
    C = w.competitors

    def comp(name, sql, kind, requires=(), note=None, table=None):
        C.append({"name": name, "sql": sql, "kind": kind, "requires": list(requires), "note": note,
                  "table": table or t})

    serde_req = ["fn:serde_decode"] + [f"shape:{s}" for s in w.serde_shapes]
    valid_req = ["fn:serde_valid"] + [f"shape:{s}" for s in w.serde_shapes]
    if w.group in ("documents", "diagnostics"):
        comp("serde_text", q_lateral(t, f"serde_decode(NULL::{w.type}, w.body{shape_arg})"), "serde", serde_req)
        comp("serde_jsonb", q_lateral(t, f"serde_decode(NULL::{w.type}, w.bodyb{shape_arg})"), "serde", serde_req)
        if w.group == "documents":
            comp("serde_valid", q_lateral(t, f"serde_valid(NULL::{w.type}, w.body{shape_arg})",
                                          "count(*) FILTER (WHERE d)"), "serde", valid_req)
        comp("jsonb_populate_record", q_lateral(t, f"jsonb_populate_record(NULL::{w.pop_type}, w.body::jsonb)"), "builtin")
        comp("json_populate_record", q_lateral(t, f"json_populate_record(NULL::{w.pop_type}, w.body::json)"), "builtin")
        comp("cast_jsonb", q_lateral(t, "CAST(w.body AS jsonb)"), "builtin")
    elif w.group == "stored_jsonb":
        comp("serde_jsonb", q_lateral(t, f"serde_decode(NULL::{w.type}, w.bodyb{shape_arg})"), "serde", serde_req)
        comp("jsonb_populate_record", q_lateral(t, f"jsonb_populate_record(NULL::{w.pop_type}, w.bodyb)"), "builtin",
             note="the stored jsonb, no cast")
        comp("serde_text", q_lateral(t, f"serde_decode(NULL::{w.type}, w.body{shape_arg})"), "serde", serde_req,
             note="the text column of the same rows")
        comp("floor", q_lateral(t, "jsonb_typeof(w.bodyb)"), "floor",
             note="per-statement floor of this group: reads the row and detoasts the jsonb (jsonb_typeof)")
        comp("floor_text", q_lateral(t, "ascii(w.body)"), "floor",
             note="reads and detoasts the text column")
        return
    elif w.group == "batches":
        each_req = ["fn:serde_decode_each"] + [f"shape:{s}" for s in w.serde_shapes]
        comp("serde_each_text", q_lateral(t, f"serde_decode_each(NULL::{w.type}, w.body)"), "serde", each_req)
        comp("serde_each_jsonb", q_lateral(t, f"serde_decode_each(NULL::{w.type}, w.bodyb)"), "serde", each_req)
        comp("serde_array_text", q_lateral(t, f"serde_decode(NULL::{w.type}[], w.body)", "count(d.*)"), "serde",
             ["fn:serde_decode"] + [f"shape:{s}" for s in w.serde_shapes],
             note="one flat[] array value per document instead of rows")
        comp("jsonb_populate_recordset", q_lateral(t, f"jsonb_populate_recordset(NULL::{w.pop_type}, w.body::jsonb)"), "builtin")
        comp("json_populate_recordset", q_lateral(t, f"json_populate_recordset(NULL::{w.pop_type}, w.body::json)"), "builtin")
        comp("cast_jsonb", q_lateral(t, "CAST(w.body AS jsonb)"), "builtin")
    elif w.group == "xml":
        xreq = [f"shape:{s}" for s in w.serde_shapes]
        comp("serde_xml", q_lateral(t, f"serde_decode_xml(NULL::{w.type}, w.body{shape_arg})"), "serde",
             ["fn:serde_decode_xml"] + xreq)
        comp("serde_valid_xml", q_lateral(t, f"serde_valid_xml(NULL::{w.type}, w.body{shape_arg})",
                                          "count(*) FILTER (WHERE d)"), "serde", ["fn:serde_valid_xml"] + xreq)
        comp("xmltable", q_lateral(t, f"{w.xmltable_fn}(w.body)"), "builtin",
             note=f"the XMLTABLE query a user writes for the same columns (bench/workloads/xml/), wrapped in the "
                  f"SQL function {w.xmltable_fn}(text) because pgbench would take its XPath prefixes (s3:Key) "
                  "for variables")
        comp("cast_xml", q_lateral(t, "CAST(w.body AS xml)"), "builtin",
             note="PostgreSQL's XML parse floor (xml_in: a libxml2 DOM parse, then discarded)")
        comp("floor_libxml2", q_lateral(t, "bench.libxml2_floor(w.body)"), "floor", ["proc:bench.libxml2_floor(text)"],
             note="libxml2 SAX2 push parse of the stored document inside the backend, every node touched (bench/pgfloor)")
    elif w.group == "errors":
        twin = by_name[w.twin]
        comp("serde_valid_text", q_lateral(t, f"serde_valid(NULL::{w.type}, w.body{shape_arg})",
                                           "count(*) FILTER (WHERE NOT d)"), "serde", valid_req)
        if w.valid_json:
            comp("serde_valid_jsonb", q_lateral(t, f"serde_valid(NULL::{w.type}, w.bodyb{shape_arg})",
                                                "count(*) FILTER (WHERE NOT d)"), "serde", valid_req)
        if w.name != "err_unknown_member":
            comp("try_jsonb_populate_record",
                 q_lateral(t, f"bench.try_populate(NULL::{w.pop_type}, w.body)", "count(*) FILTER (WHERE NOT d)"),
                 "builtin", note="plpgsql BEGIN … EXCEPTION around jsonb_populate_record(NULL::t, body::jsonb)")
        comp("twin_serde_valid", q_lateral(twin.table, f"serde_valid(NULL::{twin.type}, w.body)",
                                           "count(*) FILTER (WHERE d)"), "serde", valid_req,
             note=f"serde_valid on the valid twin ({twin.name})", table=twin.table)
    if w.group in ("documents", "diagnostics", "batches") and w.valid_json:
        # the physical floor inside the backend, in the same statement shape: detoast, padded copy
        # and bench/floor_walk.h's simdjson On-Demand walk (every value touched) of the whole
        # stored document (a batch: the whole array once) — bench/pgfloor, serde_bench_floor.so
        comp("floor_simdjson", q_lateral(t, "bench.simdjson_floor(w.body)"), "floor",
             ["proc:bench.simdjson_floor(text)"],
             note="simdjson On-Demand touch walk of the stored document inside the backend (bench/pgfloor)")
    comp("floor", q_lateral(t, "octet_length(w.body)"), "floor",
         note="per-statement floor: reads the row, does not detoast or parse")
    comp("floor_detoast", q_lateral(t, "ascii(w.body)"), "floor",
         note="reads and detoasts the document (ascii() of the first character), does not parse")


# --------------------------------------------------------------------------------------------
# SQL
# --------------------------------------------------------------------------------------------

POP_TWIN_FN = r"""
-- Twin types for the built-in competitors (jsonb_populate_record & co.). populate_record matches
-- JSON members to column names, reads no unix times into timestamptz and knows no options, so
-- the built-ins get a twin of the target type that a user would write to have them fill the same
-- columns: at every nesting level the column names are the member names serde reads (taken from
-- serde_describe(), i.e. after rename/name), unix-time members (format unix/unix_ms) are int8,
-- a `path` member becomes a nested composite column along its path (period.start), skipped
-- columns are left out. Everything else keeps serde's type. Twins are named <type>__pop (a
-- second, different twin of the same type <type>__pop1, …); bench.twins lists them.
CREATE TABLE bench.twins (name text PRIMARY KEY, base text NOT NULL, cols text NOT NULL);

-- bench.twin_type(base, cols): the twin type `base` with these column definitions (reused if
-- one with the same columns exists)
CREATE FUNCTION bench.twin_type(p_base text, p_cols text[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    def text := array_to_string(p_cols, ', ');
    tname text;
    n int := 0;
BEGIN
    SELECT t.name INTO tname FROM bench.twins t WHERE t.base = p_base AND t.cols = def;
    IF FOUND THEN
        RETURN tname;
    END IF;
    LOOP
        tname := 'bench.' || quote_ident(p_base || '__pop' || CASE WHEN n > 0 THEN n::text ELSE '' END);
        EXIT WHEN to_regtype(tname) IS NULL;
        n := n + 1;
    END LOOP;
    EXECUTE format('CREATE TYPE %s AS (%s)', tname, def);
    INSERT INTO bench.twins VALUES (tname, p_base, def);
    RETURN tname;
END $$;

-- bench.twin_col(field): the twin's column type for one field of serde_describe() output
CREATE FUNCTION bench.twin_col(f jsonb) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    el jsonb := f->'element';
BEGIN
    IF f ? 'fields' OR f ? 'shape' THEN
        RETURN bench.twin_of(f, (SELECT typname FROM pg_type WHERE oid = to_regtype(f->>'type')));
    ELSIF el ? 'fields' OR el ? 'shape' THEN
        RETURN bench.twin_of(el, (SELECT typname FROM pg_type WHERE oid = to_regtype(el->>'type'))) || '[]';
    ELSIF f->>'format' IN ('unix', 'unix_ms') THEN
        RETURN 'int8';
    ELSIF el->>'format' IN ('unix', 'unix_ms') THEN
        RETURN 'int8[]';
    END IF;
    RETURN f->>'type';
END $$;

-- bench.twin_of(node, base): the twin of one composite node of serde_describe() output (a
-- nested shape that serde_describe did not expand is described here). Members read through a
-- `path` are grouped by their first step into a nested composite column named after it,
-- `<base>_<step>__pop`; a step that is also a member of its own is left out (no such column).
CREATE FUNCTION bench.twin_of(node jsonb, p_base text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    f jsonb;
    cols text[] := '{}';
    steps text[] := '{}';
    plain text[];
    step text;
BEGIN
    IF NOT node ? 'fields' THEN
        node := serde_describe(node->>'shape');
    END IF;
    SELECT coalesce(array_agg(e->>'name'), '{}') INTO plain FROM jsonb_array_elements(node->'fields') e
     WHERE NOT e ? 'path' AND NOT coalesce((e->>'skip')::boolean, false);
    FOR f IN SELECT * FROM jsonb_array_elements(node->'fields') LOOP
        CONTINUE WHEN coalesce((f->>'skip')::boolean, false);
        IF NOT f ? 'path' THEN
            cols := cols || (quote_ident(f->>'name') || ' ' || bench.twin_col(f));
            CONTINUE;
        END IF;
        step := f->'path'->>0;
        CONTINUE WHEN step = ANY (steps) OR step = ANY (plain);
        steps := steps || step;
        cols := cols || (quote_ident(step) || ' ' || bench.twin_of(jsonb_build_object('fields',
            (SELECT jsonb_agg(CASE WHEN jsonb_array_length(e->'path') = 2 THEN e - 'path'
                                   ELSE jsonb_set(e, '{path}', (e->'path') - 0) END)
               FROM jsonb_array_elements(node->'fields') e WHERE e->'path'->>0 = step)),
            p_base || '_' || step));
    END LOOP;
    RETURN bench.twin_type(p_base, cols);
END $$;

-- bench.attr_twin(t, unix_ts): the twin made from the type alone, for when serde (or the shape)
-- is not there: same column names, timestamptz as int8 if unix_ts (the documents' times are unix
-- seconds), composite columns and arrays of composites recursively.
CREATE FUNCTION bench.attr_twin(t regtype, unix_ts boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    cols text[] := '{}';
    a record;
    ty text;
BEGIN
    FOR a IN SELECT attname, atttypid, atttypmod, et.oid AS elem, et.typtype AS elemtype, ct.typtype
               FROM pg_attribute JOIN pg_type ct ON ct.oid = atttypid
               LEFT JOIN pg_type et ON et.oid = ct.typelem AND ct.typcategory = 'A'
              WHERE attrelid = (SELECT typrelid FROM pg_type WHERE oid = t) AND attnum > 0 AND NOT attisdropped
              ORDER BY attnum LOOP
        IF a.atttypid = 'timestamptz'::regtype AND unix_ts THEN
            ty := 'int8';
        ELSIF a.elemtype = 'c' THEN
            ty := bench.attr_twin(a.elem::regtype, unix_ts) || '[]';
        ELSIF a.typtype = 'c' THEN
            ty := bench.attr_twin(a.atttypid::regtype, unix_ts);
        ELSE
            ty := format_type(a.atttypid, a.atttypmod);
        END IF;
        cols := cols || (quote_ident(a.attname) || ' ' || ty);
    END LOOP;
    RETURN bench.twin_type((SELECT typname FROM pg_type WHERE oid = t), cols);
END $$;

-- bench.pop_twin(t, shape, unix_ts): the built-ins' twin of type t as decoded by shape; without
-- serde or the shape, bench.attr_twin(t, unix_ts) (column names only: renamed members are missed)
CREATE FUNCTION bench.pop_twin(t regtype, shape text, unix_ts boolean) RETURNS regtype LANGUAGE plpgsql AS $$
DECLARE
    d jsonb;
BEGIN
    BEGIN
        d := serde_describe(shape);
    EXCEPTION WHEN others THEN
        RAISE WARNING 'bench: no serde_describe(%) (%): twin of % by column names only', shape, SQLERRM, t;
        RETURN bench.attr_twin(t, unix_ts)::regtype;
    END;
    RETURN bench.twin_of(d, (SELECT typname FROM pg_type WHERE oid = t))::regtype;
END $$;

-- bench.nvalues(j, t): the non-NULL values in j = to_jsonb(a value of composite type t),
-- counted per column of t at every level: a composite column counts its own columns, an array
-- of composites its elements' columns, any other non-NULL column (scalar, array, jsonb) is 1.
CREATE FUNCTION bench.nvalues(j jsonb, t regtype) RETURNS int LANGUAGE plpgsql STABLE AS $$
DECLARE
    a record;
    v jsonb;
    n int := 0;
BEGIN
    IF j IS NULL OR jsonb_typeof(j) <> 'object' THEN
        RETURN 0;
    END IF;
    FOR a IN SELECT attname, atttypid, ct.typtype, et.oid AS elem, et.typtype AS elemtype
               FROM pg_attribute JOIN pg_type ct ON ct.oid = atttypid
               LEFT JOIN pg_type et ON et.oid = ct.typelem AND ct.typcategory = 'A'
              WHERE attrelid = (SELECT typrelid FROM pg_type WHERE oid = t) AND attnum > 0 AND NOT attisdropped LOOP
        v := j -> a.attname::text;
        CONTINUE WHEN v IS NULL OR jsonb_typeof(v) = 'null';
        IF a.typtype = 'c' THEN
            n := n + bench.nvalues(v, a.atttypid::regtype);
        ELSIF a.elemtype = 'c' THEN
            n := n + (SELECT coalesce(sum(bench.nvalues(e, a.elem::regtype)), 0) FROM jsonb_array_elements(v) e);
        ELSE
            n := n + 1;
        END IF;
    END LOOP;
    RETURN n;
END $$;

-- The documents workloads whose built-ins use a twin (filled by load.sql).
CREATE TABLE bench.twin_workloads (workload text PRIMARY KEY, type regtype, shape text, pop_type text,
                                   ord serial);

-- bench.twin_check(): per documents workload, the values (bench.nvalues) in serde's row, in
-- jsonb_populate_record's row on the twin, and on the original type (what the built-ins filled
-- before twins; NULL if it fails, e.g. unix times into timestamptz). Needs serde.
CREATE FUNCTION bench.twin_check() RETURNS TABLE (workload text, serde int, twin int, original int)
LANGUAGE plpgsql AS $$
DECLARE
    w record;
BEGIN
    FOR w IN SELECT * FROM bench.twin_workloads ORDER BY ord LOOP
        workload := w.workload;
        EXECUTE format('SELECT bench.nvalues(to_jsonb(serde_decode(NULL::%s, body, %L)), %L), '
                       'bench.nvalues(to_jsonb(jsonb_populate_record(NULL::%s, body::jsonb)), %L) '
                       'FROM bench.docs WHERE name = %L', w.type, w.shape, w.type, w.pop_type, w.pop_type, w.workload)
           INTO serde, twin;
        BEGIN
            EXECUTE format('SELECT bench.nvalues(to_jsonb(jsonb_populate_record(NULL::%s, body::jsonb)), %L) '
                           'FROM bench.docs WHERE name = %L', w.type, w.type, w.workload) INTO original;
        EXCEPTION WHEN others THEN
            original := NULL;
        END;
        RETURN NEXT;
    END LOOP;
END $$;

-- What users write today to validate without aborting: catch the error in plpgsql.
CREATE FUNCTION bench.try_populate(t anyelement, body text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    PERFORM jsonb_populate_record(t, body::jsonb);
    RETURN true;
EXCEPTION WHEN others THEN
    RETURN false;
END $$;
"""


def copy_escape(s):
    return (s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "workloads"))
    ap.add_argument("--target-bytes", type=int, default=1_000_000,
                    help="document bytes per statement (rows = target/size, within 5..2000)")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(os.path.join(out, "docs"), exist_ok=True)
    os.makedirs(os.path.join(out, "scripts"), exist_ok=True)
    for d in ("docs", "scripts"):
        for f in os.listdir(os.path.join(out, d)):
            os.unlink(os.path.join(out, d, f))

    types_sql, shapes_sql = [], []
    docs = fixture_workloads()
    diags, enums_doc, list_doc, unk_doc = diag_workloads(types_sql, shapes_sql)
    batches = batch_workloads(types_sql, shapes_sql)
    allw = docs + stored_jsonb_workloads(docs) + diags + batches + xml_workloads(types_sql, shapes_sql)
    by_name = {w.name: w for w in allw}
    errs = error_workloads(by_name, enums_doc, list_doc, unk_doc)
    allw += errs
    by_name.update({w.name: w for w in errs})

    for w in allw:
        w.table = f"bench.w_{w.name}"
        w.bytes = len(w.doc.encode("utf-8"))
    for w in allw:
        if w.twin:
            w.rows = by_name[w.twin].rows or rows_for(by_name[w.twin].bytes, args.target_bytes)
        elif w.rows is None:
            w.rows = rows_for(w.bytes, args.target_bytes)
    for w in allw:
        add_competitors(w, by_name)

    # documents
    with open(os.path.join(out, "docs.copy"), "w", encoding="utf-8") as cf:
        for w in allw:
            with open(os.path.join(out, "docs", w.name + (".xml" if w.group == "xml" else ".json")), "w",
                      encoding="utf-8") as f:
                f.write(w.doc)
            cf.write(f"{w.name}\t{copy_escape(w.doc)}\n")

    # load.sql
    L = ["-- generated by bench/workloads/gen.py; needs fixtures/sql/types.sql",
         "\\set ON_ERROR_STOP on",
         "DROP SCHEMA IF EXISTS bench CASCADE;",
         "CREATE SCHEMA bench;",
         "CREATE TABLE bench.skipped (what text, reason text);",
         "CREATE TABLE bench.docs (name text PRIMARY KEY, body text);",
         "ALTER TABLE bench.docs ALTER COLUMN body SET STORAGE EXTERNAL;",
         f"\\copy bench.docs (name, body) FROM {sql_lit(os.path.join(out, 'docs.copy'))}",
         POP_TWIN_FN]
    L += types_sql
    for w in allw:
        if w.group == "xml":
            # the XMLTABLE competitor: pgbench replaces every :name in a script, even inside string
            # literals (XPath prefixes such as s3:Key), so the query runs inside a SQL function
            # (not inlined: its plan is made once per statement execution, i.e. once per `rows`
            # documents, and reused for all of them)
            L.append(f"CREATE FUNCTION {w.xmltable_fn}(text) RETURNS {w.type} LANGUAGE sql STABLE PARALLEL SAFE AS $xt$\n"
                     f"SELECT d.* FROM (SELECT $1 AS body) w, LATERAL (\n{w.xmltable}\n) d\n$xt$;")
    for w in allw:
        if w.group == "documents":
            L.append(f"INSERT INTO bench.twin_workloads (workload, type, shape, pop_type) VALUES ({sql_lit(w.name)}, {sql_lit(w.type)}, "
                     f"{sql_lit(w.serde_shapes[0])}, {sql_lit(w.pop_type)});")
    for w in allw:
        L.append(f"CREATE TABLE {w.table} (id int, body text, bodyb jsonb);")
        L.append(f"ALTER TABLE {w.table} ALTER COLUMN body SET STORAGE EXTERNAL, "
                 f"ALTER COLUMN bodyb SET STORAGE EXTERNAL;")
        bj = "d.body::jsonb" if w.valid_json else "NULL::jsonb"
        L.append(f"INSERT INTO {w.table} SELECT g, d.body, {bj} FROM bench.docs d, generate_series(1, {w.rows}) g "
                 f"WHERE d.name = {sql_lit(w.name)};")
        if w.group == "documents":   # one-row copy for the cold measurements
            one = w.table.replace(".w_", ".one_")
            L.append(f"CREATE TABLE {one} (id int, body text, bodyb jsonb);")
            L.append(f"ALTER TABLE {one} ALTER COLUMN body SET STORAGE EXTERNAL, ALTER COLUMN bodyb SET STORAGE EXTERNAL;")
            L.append(f"INSERT INTO {one} SELECT * FROM {w.table} WHERE id = 1;")
    with open(os.path.join(out, "load.sql"), "w") as f:
        f.write("\n".join(L) + "\n")

    # serde.sql: each registration on its own; failures are recorded, not fatal
    S = ["-- generated by bench/workloads/gen.py; needs CREATE EXTENSION serde and load.sql"]
    for name, typ, opts in shapes_sql:
        S.append(f"""DO $$ BEGIN
    PERFORM serde_register({sql_lit(name)}, {sql_lit(typ)}::regtype, {sql_lit(json.dumps(opts))}::jsonb);
EXCEPTION WHEN others THEN
    INSERT INTO bench.skipped VALUES ('shape:{name}', SQLERRM);
    RAISE WARNING 'bench: shape {name} not registered: %', SQLERRM;
END $$;""")
    with open(os.path.join(out, "serde.sql"), "w") as f:
        f.write("\n".join(S) + "\n")

    # twins.sql: the built-ins' twin types (after serde.sql: they are made from serde_describe)
    T = ["-- generated by bench/workloads/gen.py; after load.sql and serde.sql (without serde: column names only)",
         "\\set ON_ERROR_STOP on"]
    for w in allw:
        if w.group == "documents":
            T.append(f"""DO $$ BEGIN
    IF bench.pop_twin({sql_lit(w.type)}::regtype, {sql_lit(w.serde_shapes[0])}, {str(w.unix_ts).lower()})::text <> {sql_lit(w.pop_type)} THEN
        RAISE EXCEPTION 'bench: the twin of {w.type} is not {w.pop_type}';
    END IF;
END $$;""")
    with open(os.path.join(out, "twins.sql"), "w") as f:
        f.write("\n".join(T) + "\n")

    # scripts + manifest
    man = []
    for w in allw:
        for c in w.competitors:
            # pgbench would replace a :name (even inside a string literal) by a parameter
            if re.search(r"(?<!:):[A-Za-z_]", c["sql"]):
                sys.exit(f"gen: {w.name}/{c['name']}: ':name' in a pgbench script (pgbench variable syntax)")
            fn = os.path.join(out, "scripts", f"{w.name}__{c['name']}.sql")
            with open(fn, "w") as f:
                f.write(c["sql"] + "\n")
            c["script"] = fn
        man.append({"name": w.name, "group": w.group, "type": w.type, "pop_type": w.pop_type,
                    "shapes": w.serde_shapes, "table": w.table, "rows": w.rows, "bytes": w.bytes,
                    "records": w.records,
                    # the simdjson floor program's input (none for XML documents)
                    "doc": None if w.group == "xml" else os.path.join(out, "docs", w.name + ".json"),
                    "valid_json": w.valid_json, "twin": w.twin, "error": w.err, "notes": w.notes,
                    "competitors": w.competitors})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(man, f, indent=1)
    print(f"gen: {len(allw)} workloads, {sum(len(w.competitors) for w in allw)} scripts in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
