#!/usr/bin/env python3
"""real_payloads.py — an independent reading of the real payloads in fixtures/real/.

    python3 test/real_payloads.py NAME     # prints the row NAME's document must decode to

Each reader below takes the document apart with Python's own json / xml.etree / datetime /
email.utils (nothing of serde), and writes the row that fixtures/sql/real_shapes.sql's
registration must produce, as `to_jsonb(row)` prints it under TimeZone UTC (timestamptz as
`2017-09-01T16:12:29+00:00`, timestamp without zone as `2024-03-18T09:41:07.21883`). The shell
side (test/real_payloads.sh) compares it with serde's row as jsonb (`=`), so key order, layout
and numeric scale do not matter.
"""
import datetime as dt
import email.utils
import json
import re
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "fixtures" / "real"


def tstz(d):
    """an aware datetime as to_jsonb writes a timestamptz under TimeZone UTC"""
    d = d.astimezone(dt.timezone.utc)
    s = d.strftime("%Y-%m-%dT%H:%M:%S")
    if d.microsecond:
        s += ("." + "%06d" % d.microsecond).rstrip("0")
    return s + "+00:00"


def rfc3339(s):
    return tstz(dt.datetime.fromisoformat(s.replace("Z", "+00:00")))


def codebuild_time(s):
    # "Sep 1, 2017 4:12:29 PM", in UTC
    return tstz(dt.datetime.strptime(s, "%b %d, %Y %I:%M:%S %p").replace(tzinfo=dt.timezone.utc))


def rfc2822(s):
    return tstz(email.utils.parsedate_to_datetime(s))


def kebab_to_snake(d):
    return {k.replace("-", "_"): v for k, v in d.items()}


def codebuild():
    doc = json.loads((HERE / "codebuild_state_change.json").read_text())
    info = doc["detail"]["additional-information"]
    phases = []
    for p in info["phases"]:
        phases.append({
            "phase_type": p["phase-type"],
            "phase_status": p.get("phase-status"),
            "start_time": codebuild_time(p["start-time"]),
            "end_time": codebuild_time(p["end-time"]) if "end-time" in p else None,
            "duration_in_seconds": p.get("duration-in-seconds"),
            "phase_context": p.get("phase-context"),
        })
    env = kebab_to_snake(info["environment"])
    detail = doc["detail"]
    return {
        "version": doc["version"], "id": doc["id"], "detail_type": doc["detail-type"],
        "source": doc["source"], "account": doc["account"], "time": rfc3339(doc["time"]),
        "region": doc["region"], "resources": doc["resources"],
        "detail": {
            "build_status": detail["build-status"], "project_name": detail["project-name"],
            "build_id": detail["build-id"], "current_phase": detail["current-phase"],
            "current_phase_context": detail["current-phase-context"], "version": detail["version"],
            "additional_information": {
                "artifact": info["artifact"], "environment": env,
                "timeout_in_minutes": info["timeout-in-minutes"],
                "build_complete": info["build-complete"], "initiator": info["initiator"],
                "build_start_time": codebuild_time(info["build-start-time"]),
                "source_location": info["source"]["location"], "source_type": info["source"]["type"],
                "logs_deep_link": info["logs"]["deep-link"], "phases": phases,
            },
        },
    }


def ses():
    doc = json.loads((HERE / "ses_delivery.json").read_text())
    m, ch, dl = doc["mail"], doc["mail"]["commonHeaders"], doc["delivery"]
    return {
        "notification_type": doc["notificationType"],
        "mail": {
            "timestamp": rfc3339(m["timestamp"]), "message_id": m["messageId"],
            "source": m["source"], "source_arn": m["sourceArn"], "source_ip": m["sourceIp"],
            "sending_account_id": m["sendingAccountId"], "destination": m["destination"],
            "headers_truncated": m["headersTruncated"], "headers": m["headers"],
            "common_headers": {"from": ch["from"], "date": rfc2822(ch["date"]), "to": ch["to"],
                               "message_id": ch["messageId"], "subject": ch["subject"]},
        },
        "delivery": {
            "timestamp": rfc3339(dl["timestamp"]), "recipients": dl["recipients"],
            "processing_time_millis": dl["processingTimeMillis"],
            "reporting_mta": dl["reportingMTA"], "smtp_response": dl["smtpResponse"],
            "remote_mta_ip": dl["remoteMtaIp"],
        },
    }


def npm(jsonb_order=False):
    rows = []
    mapped = {"name", "version", "description", "license", "author", "contributors", "repository",
              "homepage", "bugs", "funding", "keywords", "main", "type", "dependencies",
              "devDependencies", "engines", "scripts", "files"}

    def entries(d):
        # PostgreSQL: an array of (key, value) composites; SQLite's {"map": T}: an object
        if d is None or SQLITE:
            return d
        keys = list(d)
        if jsonb_order:
            keys.sort(key=lambda k: (len(k.encode()), k.encode()))
        return [{"key": k, "value": d[k]} for k in keys]

    def person(p):
        return {"name": p.get("name"), "email": p.get("email"), "url": p.get("url")}

    for p in json.loads((HERE / "npm_packages.json").read_text()):
        a, r = p.get("author"), p.get("repository")
        rows.append({
            "name": p.get("name"), "version": p.get("version"),
            "description": p.get("description"), "license": p.get("license"),
            "author_text": a if isinstance(a, str) else None,
            "author": person(a) if isinstance(a, dict) else None,
            "contributors": p.get("contributors"),
            "repository_text": r if isinstance(r, str) else None,
            "repository": ({"type": r.get("type"), "url": r.get("url"), "directory": r.get("directory")}
                           if isinstance(r, dict) else None),
            "homepage": p.get("homepage"), "bugs": p.get("bugs"), "funding": p.get("funding"),
            "keywords": p.get("keywords"), "main": p.get("main"), "type": p.get("type"),
            "dependencies": entries(p.get("dependencies")),
            "dev_dependencies": entries(p.get("devDependencies")),
            "engines": entries(p.get("engines")), "scripts": entries(p.get("scripts")),
            "files": p.get("files"),
            "extra": {k: v for k, v in p.items() if k not in mapped},
        })
    return rows


def dynamodb():
    doc = json.loads((HERE / "dynamodb_stream.json").read_text())

    def item(img):
        return None if img is None else {"id": int(img["Id"]["N"]), "message": img["Message"]["S"]}

    recs = []
    for r in doc["Records"]:
        d = r["dynamodb"]
        recs.append({
            "event_id": r["eventID"], "event_version": r["eventVersion"],
            "aws_region": r["awsRegion"], "event_name": r["eventName"],
            "event_source_arn": r["eventSourceARN"], "event_source": r["eventSource"],
            "dynamodb": {
                "key_id": int(d["Keys"]["Id"]["N"]), "new_image": item(d.get("NewImage")),
                "old_image": item(d.get("OldImage")),
                "sequence_number": int(Decimal(d["SequenceNumber"])),
                "size_bytes": d["SizeBytes"], "stream_view_type": d["StreamViewType"],
            },
        })
    return {"records": recs}


def xml_text(e, name):
    c = e.find(name)
    return None if c is None else (c.text or "")


def sitemap():
    ns = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    root = ET.parse(HERE / "sitemap.xml").getroot()
    urls = []
    for u in root.findall(ns + "url"):
        lm = xml_text(u, ns + "lastmod")
        if lm is not None:
            lm = tstz(dt.datetime.fromisoformat(lm) if "T" in lm else
                      dt.datetime.fromisoformat(lm + "T00:00:00+00:00"))
        pr = xml_text(u, ns + "priority")
        urls.append({"loc": xml_text(u, ns + "loc"), "lastmod": lm,
                     "changefreq": xml_text(u, ns + "changefreq"),
                     "priority": float(pr) if pr is not None else None})
    return {"urls": urls}


def s3_versions():
    root = ET.parse(HERE / "s3_list_object_versions.xml").getroot()
    ns = root.tag[: root.tag.index("}") + 1]

    def owner(e):
        o = e.find(ns + "Owner")
        return {"id": xml_text(o, ns + "ID"), "display_name": xml_text(o, ns + "DisplayName")}

    entries = []
    for e in root:
        local = e.tag[len(ns):]
        if local not in ("Version", "DeleteMarker"):
            continue
        common = {"key": xml_text(e, ns + "Key"), "version_id": xml_text(e, ns + "VersionId"),
                  "is_latest": xml_text(e, ns + "IsLatest") == "true",
                  "last_modified": rfc3339(xml_text(e, ns + "LastModified")), "owner": owner(e)}
        if local == "Version":
            v = dict(common, etag=xml_text(e, ns + "ETag"), size=int(xml_text(e, ns + "Size")),
                     storage_class=xml_text(e, ns + "StorageClass"))
            entries.append({"kind": local, "version": v, "delete_marker": None})
        else:
            entries.append({"kind": local, "version": None, "delete_marker": common})
    return {"name": xml_text(root, ns + "Name"), "prefix": xml_text(root, ns + "Prefix"),
            "key_marker": xml_text(root, ns + "KeyMarker"),
            "version_id_marker": xml_text(root, ns + "VersionIdMarker"),
            "max_keys": int(xml_text(root, ns + "MaxKeys")),
            "is_truncated": xml_text(root, ns + "IsTruncated") == "true", "entries": entries}


def podcast():
    it = "{http://www.itunes.com/dtds/podcast-1.0.dtd}"
    root = ET.parse(HERE / "podcast_feed.xml").getroot()
    ch = root.find("channel")

    def num(e, name):
        t = xml_text(e, name)
        return None if t is None else int(t.strip())

    def boolean(e, name):
        t = xml_text(e, name)
        return None if t is None else t.strip() in ("true", "1")

    items = []
    for i in ch.findall("item"):
        enc = i.find("enclosure")
        items.append({
            "title": xml_text(i, "title"), "itunes_title": xml_text(i, it + "title"),
            "episode_type": xml_text(i, it + "episodeType"), "episode": num(i, it + "episode"),
            "season": num(i, it + "season"), "description": xml_text(i, "description"),
            "enclosure": {"url": enc.get("url"), "length": int(enc.get("length")), "type": enc.get("type")},
            "guid": xml_text(i, "guid"), "pub_date": rfc2822(xml_text(i, "pubDate")),
            "duration": num(i, it + "duration"), "explicit": boolean(i, it + "explicit"),
        })
    owner = ch.find(it + "owner")
    cat = ch.find(it + "category")
    return {"version": root.get("version"), "channel": {
        "title": xml_text(ch, "title"), "link": xml_text(ch, "link"),
        "language": xml_text(ch, "language"), "copyright": xml_text(ch, "copyright"),
        "author": xml_text(ch, it + "author"), "description": xml_text(ch, "description"),
        "show_type": xml_text(ch, it + "type"),
        "owner": {"name": xml_text(owner, it + "name"), "email": xml_text(owner, it + "email")},
        "image_href": ch.find(it + "image").get("href"), "category": cat.get("text"),
        "subcategory": cat.find(it + "category").get("text"),
        "explicit": boolean(ch, it + "explicit"), "items": items}}


def junit():
    root = ET.parse(HERE / "junit_report.xml").getroot()

    def counts(e):
        return {k: int(e.get(k)) for k in ("tests", "failures", "errors", "skipped")}

    suites = []
    for s in root.findall("testsuite"):
        cases = []
        for c in s.findall("testcase"):
            f = c.find("failure")
            cases.append({
                "classname": c.get("classname"), "name": c.get("name"), "file": c.get("file"),
                "line": int(c.get("line")), "time": float(c.get("time")),
                "failure": None if f is None else {"message": f.get("message"), "type": f.get("type"),
                                                   "text": f.text or ""},
                "skipped": c.find("skipped") is not None,
                "system_out": xml_text(c, "system-out"),
            })
        props = s.find("properties")
        suites.append(dict(counts(s), name=s.get("name"), time=float(s.get("time")),
                           timestamp=s.get("timestamp").rstrip("0"), hostname=s.get("hostname"),
                           properties=None if props is None else
                           [{"name": p.get("name"), "value": p.get("value")} for p in props],
                           cases=cases))
    return dict(counts(root), name=root.get("name"), time=float(root.get("time")), suites=suites)


TS = re.compile(r"^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$")


def normal(v):
    """timestamps as instants (SQLite writes 2017-09-01T16:12:29Z, PostgreSQL +00:00), numbers
    as exact decimals (numeric scale aside), the rest as is"""
    if isinstance(v, dict):
        return {k: normal(x) for k, x in v.items()}
    if isinstance(v, list):
        return [normal(x) for x in v]
    if isinstance(v, str) and TS.match(v):
        return dt.datetime.fromisoformat(v.replace("Z", "+00:00")).isoformat()
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return Decimal(str(v)).normalize()
    return v


READERS = {"codebuild": codebuild, "ses": ses, "npm": npm, "npm_jsonb": lambda: npm(True), "dynamodb": dynamodb,
           "sitemap": sitemap, "s3_versions": s3_versions, "podcast": podcast, "junit": junit}

SQLITE = False

if __name__ == "__main__":
    # real_payloads.py NAME: the expected row; real_payloads.py --sqlite NAME ACTUAL: "same" when
    # ACTUAL (SQLite's serde_decode JSON, or a JSON array of them) is the expected row
    if sys.argv[1] == "--sqlite":
        SQLITE = True
        want = normal(READERS[sys.argv[2]]())
        got = normal(json.loads(sys.argv[3]))
        print("same" if want == got else json.dumps(got, ensure_ascii=False, default=str))
    else:
        print(json.dumps(READERS[sys.argv[1]](), ensure_ascii=False))
