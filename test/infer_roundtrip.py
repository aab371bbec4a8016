#!/usr/bin/env python3
"""infer_roundtrip.py — serde_infer's acceptance test (docs/reference.md, "From samples to a shape:
serde_infer"): for every JSON and XML fixture document (fixtures/json/*.json, fixtures/xml/*.xml, fixtures/real/*;
not the mutated or hostile ones), and for the set of documents of one kind, the inferred script
runs in a fresh schema, every sample decodes, and the decoded row written back with the shape's
document names (read from serde_describe) equals the sample: JSON compared with the parsed
document, XML with an independent reading by xml.etree.  Values compare by meaning where the
column type rewrites them: numbers as decimals, timestamps as instants (unix formats too), uuids
in any case; a NULL column equals an absent or null member.  Needs psql on PATH (PG* set)."""
import datetime
import decimal
import email.utils
import glob
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

D = decimal.Decimal
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
failures = 0


def psql(sql):
    r = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d",
                        os.environ.get("SERDE_RT_DB", "contrib_regression")],
                       input=sql, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip())
    return r.stdout


def dq(s):
    tag = "$serde_rt$"
    assert tag not in s
    return tag + s + tag


describe_cache = {}


def describe(shape):
    if shape not in describe_cache:
        describe_cache[shape] = json.loads(psql("SELECT serde_describe(%s);" % dq(shape)),
                                           parse_float=D, parse_int=D)
    return describe_cache[shape]


def shape_fields(node):
    """the fields of a composite field or shape description (expanding referenced shapes)"""
    if "fields" in node:
        return node
    sh = node.get("shape") or (node.get("element") or {}).get("shape")
    return describe(sh) if sh else None


# ---- writing a decoded row back with the document's names ----------------------------------

def back_json(value, field):
    if value is None:
        return None
    sub = None
    if "map" in field and field["map"]:
        pair = shape_fields(field)
        vf = [f for f in pair["fields"] if f["column"] == "value"][0]
        return {e["key"]: back_json(e["value"], vf) for e in value}
    if field.get("fields") or field.get("shape") or (field.get("element") or {}).get("shape"):
        sub = shape_fields(field)
    if sub is not None and isinstance(value, list):
        return [back_obj(v, sub) if v is not None else None for v in value]
    if sub is not None:
        return back_obj(value, sub)
    return ("fmt", field.get("format"), value)


def back_obj(row, desc):
    out = {}
    variants = desc.get("variants") or {}
    vcols = set(variants.values())
    by_col = {f["column"]: f for f in desc["fields"]}
    listed = set()              # one_of's other columns: read through the carrying field
    for f in desc["fields"]:
        if isinstance(f.get("one_of"), dict):
            listed |= set(f["one_of"].values()) - {f["column"]}
    for f in desc["fields"]:
        col = f["column"]
        v = row.get(col)
        if col in listed:
            continue
        if isinstance(f.get("one_of"), dict):
            for c in f["one_of"].values():
                if row.get(c) is not None:
                    out[f["name"]] = back_json(row[c], dict(by_col[c], name=f["name"]))
            continue
        if col in vcols:
            if v is not None:
                out.update(back_obj(v, shape_fields(f)))
            continue
        if v is None:
            continue
        out[f["name"]] = back_json(v, f)
    return out


def instant(s):
    if isinstance(s, str):
        t = s.strip()
        try:
            return datetime.datetime.fromisoformat(t.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            pass
        try:
            return email.utils.parsedate_to_datetime(t)
        except (TypeError, ValueError, IndexError):
            return None
    return None


def utc(dt):
    if dt.tzinfo is None:
        return dt.replace(tzinfo=datetime.timezone.utc)
    return dt


def leaf_equal(orig, fmt, back):
    if isinstance(back, bool) or isinstance(orig, bool):
        if isinstance(orig, str):
            return {"true": True, "1": True, "false": False, "0": False}.get(orig.strip()) == back
        return orig == back
    if fmt in ("unix", "unix_ms"):
        o = D(str(orig).strip())
        b = utc(instant(back)).timestamp()
        return abs(o / (1000 if fmt == "unix_ms" else 1) - D(str(b))) < D("0.000001")
    if isinstance(back, D):
        try:
            return D(str(orig).strip()) == back
        except decimal.InvalidOperation:
            return False
    if isinstance(back, str) and isinstance(orig, str):
        if orig == back or orig.lower() == back.lower() and len(orig) == 36:
            return True
        a, b = instant(orig), instant(back)
        if a and b:
            return utc(a) == utc(b)
        return False
    if isinstance(back, (dict, list)) and not isinstance(orig, str):
        return deep_equal(orig, back)     # a jsonb column
    return orig == back


def deep_equal(orig, back):
    if isinstance(back, tuple):
        return leaf_equal(orig, back[1], back[2]) if not isinstance(back[2], (dict, list)) \
            else deep_equal(orig, back[2])
    if isinstance(orig, dict) and isinstance(back, dict):
        ok = {k: v for k, v in orig.items() if v is not None}
        bk = {k: v for k, v in back.items() if v is not None}
        return ok.keys() == bk.keys() and all(deep_equal(ok[k], bk[k]) for k in ok)
    if isinstance(orig, list) and isinstance(back, list):
        return len(orig) == len(back) and all(deep_equal(a, b) for a, b in zip(orig, back))
    if orig is None or back is None:
        return orig is None and back is None
    return leaf_equal(orig, None, back)


# ---- XML: an independent reading (xml.etree) and the row written back with XML names -----------

def xml_read(el):
    """an element as {(kind, name): value}: attributes, child elements (repeated: lists), text"""
    if not len(el) and not el.attrib:
        return el.text or ""
    out = {}
    for k, v in el.attrib.items():
        if k.startswith("{http://www.w3.org/2001/XMLSchema-instance}"):
            continue
        out[("attribute", k)] = v
    for c in el:
        if c.get("{http://www.w3.org/2001/XMLSchema-instance}nil") in ("true", "1"):
            continue
        key = ("element", c.tag if c.tag.startswith("{") else "{}" + c.tag)
        val = xml_read(c)
        if key in out:
            if not isinstance(out[key], list) or not getattr(out[key], "rep", False):
                out[key] = Rep([out[key]])
            out[key].append(val)
        else:
            out[key] = val
    text = "".join([el.text or ""] + [c.tail or "" for c in el])
    if text.strip():
        out[("text", "")] = text
    return out


class Rep(list):
    rep = True


def xname(f, ns):
    x = f.get("xml") or {}
    name = x.get("name") or f["name"]
    kind = x.get("kind", "element")
    if kind == "element" and not name.startswith("{"):
        name = "{%s}%s" % (ns or "", name)
    if kind == "attribute" and name.startswith("{}"):
        name = name[2:]
    return kind, name, x.get("item")


def back_xml(row, desc, ns):
    """ns: the namespace a name without {uri} is in (the field element's, or the shape's own)"""
    own = (desc.get("xml") or {}).get("namespace")
    if own is not None:
        ns = own
    out = {}
    for f in desc["fields"]:
        v = row.get(f["column"])
        kind, name, item = xname(f, ns)
        if kind == "text":
            name = ""
        if v is None:
            continue
        sub = shape_fields(f) if (f.get("fields") or f.get("shape") or
                                  (f.get("element") or {}).get("shape")) else None
        ens = name[1:name.index("}")] if name.startswith("{") else ns
        conv = (lambda x, sub=sub, ens=ens: back_xml(x, sub, ens)) if sub else (lambda x: ("fmt", f.get("format"), x))
        if isinstance(v, list):
            items = Rep([conv(x) for x in v])
            if item:
                iname = item if item.startswith("{") else "{%s}%s" % (ens or "", item)
                out[(kind, name)] = {("element", iname): items} if items else ""
            else:
                if not items:
                    continue
                out[(kind, name)] = items if len(items) > 1 else items[0]
        else:
            out[(kind, name)] = conv(v)
    return out


def xml_equal(orig, back):
    if (isinstance(back, tuple) and isinstance(back[2], str) and back[2].startswith("<") and
            not isinstance(orig, str)):
        # an xml column: the element verbatim, read the same way as the document
        return xml_read(ET.fromstring(back[2].encode())) == orig
    if isinstance(back, tuple):
        if not leaf_equal(orig, back[1], back[2]):
            print("    value differs: %r, decoded %r" % (orig, back[2]))
            return False
        return True
    if isinstance(back, dict) and isinstance(orig, dict):
        if orig.keys() != back.keys():
            print("    keys differ:", sorted(map(str, orig.keys() ^ back.keys()))[:6])
            return False
        for k in orig:
            if not xml_equal(orig[k], back[k]):
                print("    at", k)
                return False
        return True
    if isinstance(back, dict) and isinstance(orig, str) and not orig.strip():
        # an empty element: no lists' items, and its text (if mapped) '' or NULL
        return not back or all((isinstance(v, list) and not v) or
                               (isinstance(v, tuple) and v[2] in ("", None)) for v in back.values())
    if isinstance(back, dict) and isinstance(orig, str):
        return xml_equal({("text", ""): orig}, back)   # a text-only occurrence of the element
    if isinstance(orig, list) and isinstance(back, list):
        if len(orig) != len(back):
            print("    lengths differ: %d, decoded %d" % (len(orig), len(back)))
            return False
        return all(xml_equal(a, b) for a, b in zip(orig, back))
    if isinstance(back, list) and len(back) == 1:
        return xml_equal(orig, back[0])
    if isinstance(orig, list) and len(orig) == 1:
        return xml_equal(orig[0], back)
    print("    differs: %r, decoded %r" % (str(orig)[:80], str(back)[:80]))
    return False


def case(label, docs, is_xml, n):
    global failures
    schema = "infer_rt_%d" % n
    opts = json.dumps({"schema": schema, "name": "doc"})
    values = ",".join("(%d, %s::%s)" % (i, dq(d), "xml" if is_xml else "text")
                      for i, d in enumerate(docs))
    try:
        script = psql("SELECT serde_infer(d, %s ORDER BY i) FROM (VALUES %s) v(i, d);"
                      % (dq(opts), values))
        psql("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s;\n%s" % (schema, schema, script))
        desc = describe(schema + ".doc")
        if not is_xml:
            # a top-level array is a batch: the script decodes each of its elements
            docs = [json.dumps(e) for d in docs
                    for e in (json.loads(d) if d.lstrip().startswith("[") else [json.loads(d)])]
        for i, d in enumerate(docs):
            fn = "serde_decode_xml" if is_xml else "serde_decode"
            row = json.loads(psql("SET TimeZone = 'UTC'; SELECT to_jsonb(%s(%s, %s));"
                                  % (fn, dq(schema + ".doc"), dq(d))), parse_float=D, parse_int=D)
            if is_xml:
                ok = xml_equal(xml_read(ET.fromstring(d.encode())), back_xml(row, desc, None))
            else:
                ok = deep_equal(json.loads(d, parse_float=D, parse_int=D), back_obj(row, desc))
            if not ok:
                raise RuntimeError("sample %d: the decoded row written back differs" % (i + 1))
        print("ok: %s" % label)
    except RuntimeError as e:
        print("FAIL: %s: %s" % (label, e))
        failures += 1
    finally:
        shapes = psql("SELECT string_agg(name, ' ') FROM serde.shapes WHERE name LIKE %s;"
                      % dq(schema + ".%")).split()
        for s in shapes:
            psql("SELECT serde_unregister(%s);" % dq(s))
        psql("DROP SCHEMA IF EXISTS %s CASCADE;" % schema)


def main():
    n = 0
    jfiles = sorted(glob.glob(os.path.join(ROOT, "fixtures/json/*.json")) +
                    glob.glob(os.path.join(ROOT, "fixtures/real/*.json")))
    xfiles = sorted(glob.glob(os.path.join(ROOT, "fixtures/xml/*.xml")) +
                    glob.glob(os.path.join(ROOT, "fixtures/real/*.xml")))
    for f in jfiles + xfiles:
        n += 1
        case(os.path.relpath(f, ROOT), [open(f, encoding="utf-8").read()], f.endswith(".xml"), n)
    # the documents of one kind together: the Kafka event and its record, every XML feed
    groups = [("fixtures/json/msk_*.json", False)]
    # every JSON fixture together: their members conflict (a string here, an object there), so
    # the script decodes through one_of
    groups.append(("fixtures/json/*.json", False))
    for pattern, is_xml in groups:
        files = sorted(glob.glob(os.path.join(ROOT, pattern)))
        n += 1
        case(pattern + " (together)", [open(f, encoding="utf-8").read() for f in files], is_xml, n)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
