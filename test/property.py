#!/usr/bin/env python3
"""test/property.py — a property test for serde's JSON decoding in PostgreSQL (issue 4).

Generates random shapes (composite types with random column kinds: integers, floats, numerics,
text/varchar, booleans, timestamps, dates, uuids, enums, bytea, json/jsonb, domains, inet,
arrays, nested composites (inline or through a shape of their own), arrays of composites and
maps; optional fields, defaults, renamed and non-nullable fields, `unknown: reject`, `coerce`)
and random documents for them, valid and subtly invalid, then decodes every document from
text, json, jsonb and bytea and checks that:

  * text, json and bytea input agree exactly (rows, error codes, messages, offsets);
  * jsonb input equals text input of the jsonb's own rendering (doc::jsonb::text) — results,
    and errors in the same order, apart from byte offsets (jsonb has none);
  * when the document contains nothing jsonb normalises (no exponents, duplicate keys or
    multi-member maps), jsonb input equals text input: same row, same set of (code, path);
  * for every input: serde_errors is empty exactly when serde_decode succeeds, serde_valid is
    true exactly then, and a failed serde_decode reports a row of serde_errors (code and
    message) before which serde_errors lists only domain CHECK / NOT NULL violations (checked
    after the document is read); byte offsets only for text input.

Runs psql through subprocess (no driver) against PGHOST/PGPORT/PGUSER; works in its own
database (serde_property, dropped afterwards).  A fixed seed by default:

    python3 test/property.py [--seed N] [--shapes N] [--docs N] [--keep] [--verbose]

Prints one summary line; exits non-zero on any failure.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

DB = os.environ.get("SERDE_PROPERTY_DB", "serde_property")

# ---------------------------------------------------------------------------------------------
# JSON text with control over literals, member order and duplicates
# ---------------------------------------------------------------------------------------------


class Raw:
    """A JSON literal written as is (numbers: '1e2', '1.50', '-0')."""

    def __init__(self, text):
        self.text = text


class Obj:
    """A JSON object as an ordered list of (key, value) pairs (duplicates allowed)."""

    def __init__(self, pairs=None):
        self.pairs = list(pairs or [])


class MapObj(Obj):
    """An object read by a `map: true` column: its member order is the result's order."""


def jstr(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def dump(v, rnd):
    sp = rnd.choice(["", "", " ", "\n  "])
    if isinstance(v, Raw):
        return v.text
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return jstr(v)
    if isinstance(v, list):
        return "[" + ("," + sp).join(dump(x, rnd) for x in v) + "]"
    if isinstance(v, Obj):
        return "{" + sp + ("," + sp).join(jstr(k) + ":" + sp + dump(x, rnd) for k, x in v.pairs) + sp + "}"
    raise TypeError(v)


def sensitive(v):
    """Does jsonb's normalisation change what this document decodes to?"""
    if isinstance(v, Raw):
        t = v.text.lower()
        return "e" in t or t.lstrip("-").strip("0.") == "" and t.startswith("-")
    if isinstance(v, list):
        return any(sensitive(x) for x in v)
    if isinstance(v, Obj):
        keys = [k for k, _ in v.pairs]
        if isinstance(v, MapObj) and len(keys) > 1:
            return True         # jsonb reorders the members, and so the map's elements
        return len(keys) != len(set(keys)) or any(sensitive(x) for _, x in v.pairs)
    return False


def has_nul(v):
    if isinstance(v, str):
        return "\x00" in v
    if isinstance(v, list):
        return any(has_nul(x) for x in v)
    if isinstance(v, Obj):
        return any("\x00" in k or has_nul(x) for k, x in v.pairs)
    return False


# ---------------------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------------------

SCALARS = ["int2", "int4", "int8", "float4", "float8", "numeric_ps", "numeric", "text", "varchar",
           "bool", "timestamptz", "timestamp", "date", "uuid", "enum", "bytea", "jsonb", "json",
           "nonneg", "nntext", "inet"]


class Field:
    def __init__(self, col, kind):
        self.col = col
        self.kind = kind
        self.json = col
        self.optional = False
        self.default = None     # JSON text, or None
        self.nullable = True


class Shape:
    def __init__(self, name, typ):
        self.name = name
        self.typ = typ
        self.fields = []
        self.reject = False
        self.coerce = False
        self.all_optional = False
        self.registered = False


class Gen:
    def __init__(self, rnd, prefix):
        self.rnd = rnd
        self.prefix = prefix
        self.n = 0
        self.ddl = []
        self.shapes = []
        self.types = []         # to drop, in creation order

    def fresh(self, what):
        self.n += 1
        return "%s_%s%d" % (self.prefix, what, self.n)

    # ---- kinds -------------------------------------------------------------------------------
    def kind(self, depth):
        r = self.rnd
        roll = r.random()
        if depth < 2 and roll < 0.10:
            return {"t": "comp", "shape": self.composite(depth + 1, top=False)}
        if depth < 2 and roll < 0.16:
            return {"t": "array", "elem": {"t": "comp", "shape": self.composite(depth + 1, top=False)}}
        if depth < 2 and roll < 0.21:
            return self.map_kind(depth)
        if roll < 0.30:
            return {"t": "array", "elem": self.scalar()}
        return self.scalar()

    def scalar(self):
        r = self.rnd
        t = r.choice(SCALARS)
        k = {"t": t}
        if t == "numeric_ps":
            p = r.randint(1, 12)
            k["p"], k["s"] = p, r.randint(0, min(p, 4))
        elif t == "varchar":
            k["n"] = r.randint(1, 8)
        elif t == "enum":
            name = self.fresh("enum")
            labels = r.sample(["red", "green", "blue", "Dark Gray", "x", "öl", "a b"], r.randint(1, 4))
            self.ddl.append("CREATE TYPE %s AS ENUM (%s);" % (name, ", ".join(sqlq(l) for l in labels)))
            self.types.append(name)
            k["type"], k["labels"] = name, labels
        return k

    def map_kind(self, depth):
        value = self.scalar() if self.rnd.random() < 0.7 else {"t": "array", "elem": self.scalar()}
        name = self.fresh("pair")
        self.ddl.append("CREATE TYPE %s AS (key text, value %s);" % (name, sqltype(value)))
        self.types.append(name)
        return {"t": "map", "pair": name, "value": value}

    def composite(self, depth, top):
        r = self.rnd
        typ = self.fresh("t")
        shape = Shape(self.fresh("Shape") if (top or r.random() < 0.5) else None, typ)
        ncols = r.randint(1, 7 if top else 4)
        for i in range(ncols):
            f = Field("c%d_%s" % (i, r.choice(["id", "name", "val", "x", "amount", "at"])), self.kind(depth))
            shape.fields.append(f)
        self.ddl.append("CREATE TYPE %s AS (%s);" % (
            typ, ", ".join("%s %s" % (f.col, sqltype(f.kind)) for f in shape.fields)))
        self.types.append(typ)
        # options
        opts = {}
        fields = {}
        if r.random() < 0.25:
            shape.reject = True
            opts["unknown"] = "reject"
        if r.random() < 0.15:
            shape.coerce = True
            opts["coerce"] = True
        if r.random() < 0.15:
            shape.all_optional = True
            opts["optional"] = True
        for f in shape.fields:
            fo = {}
            if r.random() < 0.15:
                f.json = r.choice(["renamed", "odd key", "ключ", "a.b", ""]) + "_" + f.col
                fo["name"] = f.json
            if r.random() < 0.25:
                f.optional = True
                fo["optional"] = True
            elif shape.all_optional:
                f.optional = True
            if r.random() < 0.15 and default_for(f.kind) is not None:
                f.default = default_for(f.kind)
                fo["default"] = json.loads(f.default)
            if r.random() < 0.15:
                f.nullable = False
                fo["nullable"] = False
            if f.kind["t"] == "nntext":
                f.nullable = False      # the domain is NOT NULL
            if f.kind["t"] == "map":
                fo["map"] = True
            comp = f.kind if f.kind["t"] == "comp" else f.kind.get("elem") if f.kind["t"] == "array" else None
            if comp and comp["t"] == "comp" and comp["shape"].name:
                fo["shape"] = comp["shape"].name
            if fo:
                fields[f.col] = fo
        if fields:
            opts["fields"] = fields
        shape.opts = opts
        if shape.name:
            self.ddl.append("SELECT serde_register(%s, %s, %s);" % (
                sqlq(shape.name), sqlq(typ), sqlq(json.dumps(opts))))
            self.shapes.append(shape)
        else:
            # decoded inline: it inherits the policy of the shape above it (and its own field
            # options do not apply), so forget them
            for f in shape.fields:
                f.json, f.optional, f.default, f.nullable = f.col, False, None, f.kind["t"] != "nntext"
            shape.reject = shape.coerce = shape.all_optional = False
            shape.opts = {}
        return shape


def default_for(k):
    t = k["t"]
    return {"int2": "7", "int4": "-3", "int8": "42", "float8": "1.5", "numeric": "2.25",
            "text": '"dflt"', "bool": "true", "date": '"2020-01-01"', "jsonb": '{"d": [1]}',
            "timestamptz": '"2020-01-01T00:00:00Z"', "uuid": '"00000000-0000-0000-0000-000000000001"'
            }.get(t)


def sqlq(s):
    return "'" + s.replace("'", "''") + "'"


def sqltype(k):
    t = k["t"]
    if t == "numeric_ps":
        return "numeric(%d,%d)" % (k["p"], k["s"])
    if t == "varchar":
        return "varchar(%d)" % k["n"]
    if t == "enum":
        return k["type"]
    if t == "array":
        return sqltype(k["elem"]) + "[]"
    if t == "comp":
        return k["shape"].typ
    if t == "map":
        return k["pair"] + "[]"
    if t == "nonneg":
        return "prop_nonneg"
    if t == "nntext":
        return "prop_nntext"
    return t


# ---------------------------------------------------------------------------------------------
# Documents
# ---------------------------------------------------------------------------------------------

TEXTS = ["", "a", "hello", "café", "日本語", 'q"uote', "back\\slash", "tab\there", "new\nline",
         "emoji 😀", "x" * 12]


class Docs:
    def __init__(self, rnd):
        self.rnd = rnd

    def valid(self, k, policy):
        r = self.rnd
        t = k["t"]
        if t == "int2":
            return Raw(str(r.choice([0, 1, -1, 32767, -32768, r.randint(-999, 999)])))
        if t == "int4":
            return Raw(str(r.choice([0, 2147483647, -2147483648, r.randint(-10**6, 10**6)])))
        if t == "int8":
            return Raw(str(r.choice([0, 9223372036854775807, -9223372036854775808, r.randint(-10**12, 10**12)])))
        if t in ("float4", "float8"):
            return Raw(r.choice(["0", "1.5", "-2.25", "3", "0.1", "123456.789", "-0.5", "100"]))
        if t == "numeric_ps":
            p, s = k["p"], k["s"]
            ip = r.randint(0, 10 ** (p - s) - 1) if p > s else 0
            lit = str(ip)
            if s:
                lit += "." + "".join(r.choice("0123456789") for _ in range(r.randint(1, s)))
            return Raw(("-" if r.random() < 0.3 else "") + lit)
        if t == "numeric":
            return Raw(r.choice(["0", "1.50", "-3.14159", "123456789012345678901234567890",
                                 "0.000000000000000000001", "42"]))
        if t in ("text", "nntext"):
            return r.choice(TEXTS[:-1])
        if t == "varchar":
            return r.choice([s for s in TEXTS if len(s) <= k["n"]])
        if t == "bool":
            return r.random() < 0.5
        if t == "timestamptz":
            return r.choice(["2024-05-01T10:00:00Z", "1999-12-31T23:59:59.999999+05:30",
                             "2024-02-29 12:00:00-08:00", "1970-01-01t00:00:00z", "2024-05-01T10:00:00.123456789Z"])
        if t == "timestamp":
            return r.choice(["2024-05-01T10:00:00", "2024-05-01T10:00:00Z", "2000-01-01 00:00:00.5",
                             "2024-05-01T10:00:00+02:00"])
        if t == "date":
            return r.choice(["2024-02-29", "1970-01-01", "0001-01-01", "2999-12-31"])
        if t == "uuid":
            return r.choice(["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11",
                             "00000000-0000-0000-0000-000000000000"])
        if t == "enum":
            return r.choice(k["labels"])
        if t == "bytea":
            return r.choice(["", "AAEC", "aGVsbG8=", "3q2+7w=="])
        if t in ("jsonb", "json"):
            return self.any_json(2)
        if t == "nonneg":
            return Raw(str(r.randint(0, 1000)))
        if t == "inet":
            return r.choice(["10.0.0.1", "::1", "192.168.0.0/16"])
        if t == "array":
            return [self.valid(k["elem"], policy) for _ in range(r.randint(0, 3))]
        if t == "map":
            keys = r.sample(["a", "b", "zz", "odd key", "ü", ""], r.randint(0, 3))
            return MapObj((key, self.valid(k["value"], policy)) for key in keys)
        if t == "comp":
            return self.object(k["shape"], policy)
        raise ValueError(t)

    def any_json(self, depth):
        r = self.rnd
        roll = r.random()
        if depth > 0 and roll < 0.25:
            return [self.any_json(depth - 1) for _ in range(r.randint(0, 3))]
        if depth > 0 and roll < 0.45:
            return Obj((r.choice(["a", "b", "c", "é"]) + str(i), self.any_json(depth - 1)) for i in range(r.randint(0, 3)))
        return r.choice([None, True, False, Raw("1"), Raw("-2.5"), Raw("10"), "s", "ü"])

    def object(self, shape, policy):
        r = self.rnd
        pol = policy if not shape.name else shape
        pairs = []
        for f in shape.fields:
            must = not (f.optional or f.default is not None or pol.all_optional)
            if not must and r.random() < 0.4:
                continue
            if f.nullable and f.kind["t"] != "nntext" and r.random() < 0.08:
                pairs.append((f.json, None))
            else:
                pairs.append((f.json, self.valid(f.kind, pol)))
        if not pol.reject and r.random() < 0.3:
            pairs.append(("unmapped_" + str(r.randint(0, 9)), self.any_json(2)))
        r.shuffle(pairs)
        return Obj(pairs)

    # ---- subtle mistakes ---------------------------------------------------------------------
    def invalid(self, k):
        r = self.rnd
        t = k["t"]
        generic = [Obj([("x", Raw("1"))]), [Raw("1")], "str", Raw("1.5"), True]
        specific = {
            "int2": [Raw("32768"), Raw("-32769"), Raw("1.0"), Raw("1e2"), "12", Raw("1.5")],
            "int4": [Raw("2147483648"), Raw("1.0"), Raw("2E1"), "7", Raw("-0.0")],
            "int8": [Raw("9223372036854775808"), Raw("10.5"), Raw("1e3"), "9"],
            "float4": [Raw("1e39"), Raw("-3.5e38"), "1.5", False],
            "float8": [Raw("1e400"), "x", Raw("-1e309")],
            "numeric_ps": [Raw("1." + "1" * (k.get("s", 0) + 1)), Raw("9" * (k.get("p", 1) - k.get("s", 0) + 1)),
                           Raw("1e%d" % (k.get("p", 1) + 1)), "1.5"],
            "numeric": ["1", Raw("1e99999999"), True],
            "text": [Raw("5"), False, "nul\x00byte", [("a")]],
            "nntext": [None, Raw("5")],
            "varchar": ["y" * (k.get("n", 1) + 1), Raw("12")],
            "bool": ["true", Raw("1"), Raw("0")],
            "timestamptz": ["2024-05-01T10:00:00", "2024-02-30T00:00:00Z", "2024-05-01T25:00:00Z",
                            "yesterday", "2024-05-01", Raw("1714557600")],
            "timestamp": ["2024-13-01T00:00:00", "2024-05-01", "10:00"],
            "date": ["2023-02-29", "2024-00-10", "20240101", "2024-05-01T00:00:00Z"],
            "uuid": ["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1", "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "{a0eebc99}"],
            "enum": ["RED", "purple", Raw("0"), ""],
            "bytea": ["@@@", "AAE", "aGVsbG8"],
            "jsonb": [],
            "json": [],
            "nonneg": [Raw("-1"), Raw("-100")],
            "inet": [Raw("10")],
            "array": ["[1,2]", Obj(), [self.invalid(k["elem"]) if "elem" in k else Raw("1")]],
            "map": [[Raw("1")], Obj([("k", self.invalid(k["value"]) if "value" in k else Raw("1"))])],
            "comp": [[], "x"],
        }[t]
        if t in ("jsonb", "json"):
            return None         # anything is valid there
        if t == "comp":
            specific.append(self.broken_object(k["shape"]))
        choices = specific * 3 + generic
        return r.choice(choices)

    def broken_object(self, shape):
        r = self.rnd
        o = self.object(shape, shape)
        roll = r.random()
        if roll < 0.3 and o.pairs:
            del o.pairs[r.randrange(len(o.pairs))]      # maybe a required member
        elif roll < 0.5:
            o.pairs.append(("unknown_member", Raw("1")))
        elif roll < 0.65 and o.pairs:
            o.pairs.append(r.choice(o.pairs))             # a duplicate
        elif o.pairs:
            i = r.randrange(len(o.pairs))
            o.pairs[i] = (o.pairs[i][0], None)
        return o

    def mutate(self, doc, shape):
        """Replaces one member somewhere in doc by a subtly wrong value (in place)."""
        r = self.rnd
        sites = []
        collect_sites(doc, shape, sites)
        if not sites:
            return
        obj, idx, f = r.choice(sites)
        roll = r.random()
        if roll < 0.12:
            del obj.pairs[idx]
        elif roll < 0.2:
            obj.pairs[idx] = (obj.pairs[idx][0], None)
        elif roll < 0.26:
            obj.pairs.insert(idx, obj.pairs[idx])         # duplicate member
        elif roll < 0.32:
            obj.pairs.append(("surprise", Raw("0")))
        else:
            bad = self.invalid(f.kind)
            if bad is not None:
                obj.pairs[idx] = (obj.pairs[idx][0], bad)


def collect_sites(v, shape, sites):
    if not isinstance(v, Obj) or shape is None:
        return
    byname = {f.json: f for f in shape.fields}
    for i, (key, val) in enumerate(v.pairs):
        f = byname.get(key)
        if not f:
            continue
        sites.append((v, i, f))
        t = f.kind["t"]
        if t == "comp":
            collect_sites(val, f.kind["shape"], sites)
        elif t == "array" and f.kind["elem"]["t"] == "comp" and isinstance(val, list):
            for x in val:
                collect_sites(x, f.kind["elem"]["shape"], sites)


# ---------------------------------------------------------------------------------------------
# Running it
# ---------------------------------------------------------------------------------------------

PROBE = r"""
CREATE FUNCTION pg_temp.probe(typ text, shape text, doc text, kind text) RETURNS jsonb
LANGUAGE plpgsql AS $f$
DECLARE
    src text := CASE kind
        WHEN 'text' THEN format('%L::text', doc)
        WHEN 'json' THEN format('%L::json', doc)
        WHEN 'jsonb' THEN format('%L::jsonb', doc)
        WHEN 'bytea' THEN format('convert_to(%L, ''UTF8'')', doc)
        WHEN 'jsonbtext' THEN format('(%L::jsonb)::text', doc) END;
    r jsonb;
    res jsonb;
    errs jsonb;
    v boolean;
    st text;
    msg text;
    det text;
BEGIN
    BEGIN
        EXECUTE format('SELECT to_jsonb(serde_decode(NULL::%s, %s, %L))', typ, src, shape) INTO r;
        res := jsonb_build_object('ok', true, 'val', r);
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
        res := jsonb_build_object('ok', false, 'code', st, 'msg', msg, 'det', det);
    END;
    BEGIN
        EXECUTE format('SELECT coalesce(jsonb_agg(jsonb_build_array(code, path, message, byte_offset) ORDER BY n), ''[]'')
                          FROM serde_errors(NULL::%s, %s, %L) WITH ORDINALITY e(path, code, message, byte_offset, n)',
                       typ, src, shape) INTO errs;
        res := res || jsonb_build_object('errs', errs);
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
        res := res || jsonb_build_object('errs_raised', st, 'errs_msg', msg);
    END;
    BEGIN
        EXECUTE format('SELECT serde_valid(NULL::%s, %s, %L)', typ, src, shape) INTO v;
        res := res || jsonb_build_object('valid', v);
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE;
        res := res || jsonb_build_object('valid_raised', st);
    END;
    RETURN res;
END $f$;
"""


def psql(args, sql=None, db=None, check=True):
    cmd = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-F", "\t", "-d", db or "postgres"] + args
    p = subprocess.run(cmd, input=sql, capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("property: psql failed (%s)" % " ".join(args))
    return p


def errpaths(res):
    return [(e[0], e[1]) for e in res.get("errs", [])]


def compare(doc, shape, results, flags):
    """Returns a list of failure descriptions for one document."""
    fails = []
    t = results.get("text")

    def fail(what, a=None, b=None):
        fails.append({"doc": doc, "shape": shape, "what": what, "a": a, "b": b})

    # each input on its own: serde_errors / serde_valid / serde_decode agree
    for kind, res in results.items():
        if "errs_raised" in res:
            # an error raised inside another type's input function: serde_decode raises it too
            if res["ok"] or res["code"] != res["errs_raised"]:
                fail("%s: serde_errors raised %s but serde_decode %s" % (
                    kind, res["errs_raised"], "succeeded" if res["ok"] else res["code"]), res)
            continue
        errs = res.get("errs", [])
        if res["ok"] != (len(errs) == 0):
            fail("%s: serde_errors %s but serde_decode %s" % (
                kind, "empty" if not errs else "not empty", "succeeded" if res["ok"] else "failed"), res)
        if res["ok"] != (res.get("valid") is True):
            fail("%s: serde_valid is %s but serde_decode %s" % (
                kind, res.get("valid", "raised " + str(res.get("valid_raised"))),
                "succeeded" if res["ok"] else "failed"), res)
        if not res["ok"] and errs:
            # serde_decode stops at the first violation serde's parser finds; domain CHECK and
            # NOT NULL violations (23514/23502) are checked once the document is read, and a
            # missing member is listed at the start of its object (document order) although it
            # is only known when the object ends, so in serde_errors' document order only those
            # may come before it.
            # (a malformed document is malformed for serde_decode too, even after a value error)
            at = [i for i, e in enumerate(errs) if e[0] == res["code"] and e[2] == res["msg"]]
            if not at or any(e[0] not in ("23514", "23502") and
                             not (e[0] == "2203A" and e[2].endswith("missing required member"))
                             for e in errs[:at[0]]):
                fail("%s: serde_decode's error is not serde_errors' first row of serde's own" % kind, res)
        for e in errs:
            has_offset = e[3] is not None
            if kind in ("jsonb",) and has_offset:
                fail("%s: an offset for jsonb input" % kind, res)
            if kind in ("text", "json", "bytea") and not has_offset:
                fail("%s: no offset for text input" % kind, res)
    # text, json, bytea: exactly the same
    for kind in ("json", "bytea"):
        if kind in results and t is not None and results[kind] != t:
            fail("text and %s differ" % kind, t, results[kind])
    # jsonb equals text input of its own rendering (paths, codes, messages, order; no offsets)
    jb, jt = results.get("jsonb"), results.get("jsonbtext")
    if jb is not None and jt is not None:
        a = dict(jt)
        b = dict(jb)
        a.pop("det", None)
        b.pop("det", None)
        a["errs"] = [x[:3] for x in a.get("errs", [])]
        b["errs"] = [x[:3] for x in b.get("errs", [])]
        if a != b:
            fail("jsonb and text of jsonb::text differ", jt, jb)
    # nothing to normalise: jsonb equals text (same row, same set of code+path)
    if jb is not None and t is not None and not flags["sensitive"]:
        if jb["ok"] != t["ok"] or (t["ok"] and jb["val"] != t["val"]):
            fail("text and jsonb differ", t, jb)
        elif "errs_raised" in t or "errs_raised" in jb:
            if t.get("errs_raised") != jb.get("errs_raised"):
                fail("text and jsonb raise differently", t, jb)
        elif sorted(errpaths(t)) != sorted(errpaths(jb)):
            fail("text and jsonb find different violations", t, jb)
    return fails


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--shapes", type=int, default=30)
    ap.add_argument("--docs", type=int, default=20, help="documents per shape")
    ap.add_argument("--keep", action="store_true", help="keep the database")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    started = time.time()
    rnd = random.Random(a.seed)

    gen = Gen(rnd, "pp")
    gen.ddl.append("CREATE DOMAIN prop_nonneg AS int4 CHECK (VALUE >= 0);")
    gen.ddl.append("CREATE DOMAIN prop_nntext AS text NOT NULL;")
    tops = [gen.composite(0, top=True) for _ in range(a.shapes)]
    docs = Docs(rnd)
    cases = []
    for shape in tops:
        for i in range(a.docs):
            d = docs.object(shape, shape)
            roll = rnd.random()
            if roll < 0.35:
                pass                                    # valid (as generated)
            elif roll < 0.93:
                for _ in range(rnd.choice([1, 1, 1, 2, 3])):
                    docs.mutate(d, shape)
            elif roll < 0.96:
                d = rnd.choice([[d], Raw("5"), "s", None])   # not an object
            text = dump(d, rnd)
            flags = {"sensitive": sensitive(d), "malformed": False, "nul": has_nul(d)}
            if roll >= 0.96:
                cut = rnd.randint(0, max(0, len(text) - 1))
                text = text[:cut] + rnd.choice(["", ",", "}", "]]", "tru", "\"\\x\""])
                flags["malformed"] = True
            cases.append((shape, text, flags))

    # the database
    psql(["-c", "DROP DATABASE IF EXISTS %s" % DB])
    psql(["-c", "CREATE DATABASE %s" % DB])
    try:
        setup = "SET client_min_messages = warning;\nCREATE EXTENSION serde;\n" + "\n".join(gen.ddl) + "\n"
        psql([], sql=setup, db=DB)
        lines = ["SET client_min_messages = warning;", PROBE,
                 "CREATE TEMP TABLE docs (id int, typ text, shape text, doc text, kinds text[]);"]
        rows = []
        for i, (shape, text, flags) in enumerate(cases):
            kinds = ["text", "bytea"]
            if not flags["malformed"]:
                kinds.append("json")
                if not flags["nul"]:
                    kinds += ["jsonb", "jsonbtext"]
            rows.append("(%d, %s, %s, %s, %s)" % (i, sqlq(shape.typ), sqlq(shape.name), sqlq(text),
                                                   sqlq("{" + ",".join(kinds) + "}")))
        for j in range(0, len(rows), 200):
            lines.append("INSERT INTO docs VALUES\n" + ",\n".join(rows[j:j + 200]) + ";")
        lines.append("SELECT id, k, pg_temp.probe(typ, shape, doc, k) FROM docs, unnest(kinds) k ORDER BY id, k;")
        with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
            f.write("\n".join(lines) + "\n")
            script = f.name
        try:
            out = psql(["-f", script], db=DB).stdout
        finally:
            os.unlink(script)
    finally:
        if not a.keep:
            psql(["-c", "DROP DATABASE IF EXISTS %s" % DB], check=False)

    results = {}
    probes = 0
    for line in out.splitlines():
        if not line.strip():
            continue
        i, kind, res = line.split("\t", 2)
        results.setdefault(int(i), {})[kind] = json.loads(res)
        probes += 1

    failures = []
    stats = {"ok": 0, "invalid": 0, "raised": 0, "sensitive": 0, "malformed": 0}
    for i, (shape, text, flags) in enumerate(cases):
        res = results.get(i)
        if not res or "text" not in res:
            failures.append({"doc": text, "shape": shape.name, "what": "no result"})
            continue
        t = res["text"]
        stats["ok" if t["ok"] else "invalid"] += 1
        stats["raised"] += "errs_raised" in t
        stats["sensitive"] += flags["sensitive"]
        stats["malformed"] += flags["malformed"]
        failures += compare(text, shape.name, res, flags)

    for fl in failures[:10]:
        print("FAIL: %s\n  shape %s\n  doc   %s" % (fl["what"], fl["shape"], fl["doc"]))
        if fl.get("a") is not None:
            print("  a     %s" % json.dumps(fl["a"], ensure_ascii=False))
        if fl.get("b") is not None:
            print("  b     %s" % json.dumps(fl["b"], ensure_ascii=False))
        if a.verbose:
            for s in gen.shapes:
                if s.name == fl["shape"]:
                    print("  opts  %s" % json.dumps(s.opts))
    print("property: seed %d: %d shapes (%d registered), %d documents (%d decode, %d invalid, %d raise, "
          "%d jsonb-normalised, %d malformed), %d probes, %d failures, %.1fs" % (
              a.seed, len(tops), len(gen.shapes), len(cases), stats["ok"], stats["invalid"],
              stats["raised"], stats["sensitive"], stats["malformed"], probes, len(failures),
              time.time() - started))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
