#!/usr/bin/env bash
# compile_scale.sh — compiling a shape is linear in its fields, and capped (docs/reference.md,
# "Limits"; issue 19 item 3).  In SQLite, through Python's sqlite3 module:
#   1. time: serde_register of a flat shape of N integer fields (descriptor read, plan compiled,
#      column names checked) and its first use in a fresh connection (compiled again from the
#      catalog), in CPU time, best of 3, for N = 5,000 and 20,000: 4x the fields must take at
#      most 6x the time (it took 10x-20x when name lookups were linear scans);
#   2. the caps: 32,767 fields in one shape register, 32,768 are refused; shapes of a tree with
#      more than 50,000 fields together are refused; both with their pinned messages.
# Builds `make sqlite` first.  Exit status non-zero on any failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
make -s sqlite

/usr/bin/python3 - "$PWD/sqlite/serde" <<'PY'
import json, os, sqlite3, sys, tempfile, time

EXT = sys.argv[1]
fails = 0

def connect(path=":memory:"):
    c = sqlite3.connect(path)
    c.enable_load_extension(True)
    c.load_extension(EXT)
    c.enable_load_extension(False)
    return c

def desc(n, prefix="f"):
    return json.dumps({"fields": {f"{prefix}{i}": {"type": "integer", "optional": True}
                                  for i in range(n)}})

def cpu(fn):
    t0 = time.process_time()
    fn()
    return time.process_time() - t0

def measure(n, tmp):
    """Best of 3 CPU seconds of (register, first use in a new connection) for n fields."""
    d = desc(n)
    reg, use = [], []
    for k in range(3):
        path = os.path.join(tmp, "s%d_%d.db" % (n, k))
        c = connect(path)
        reg.append(cpu(lambda: c.execute("SELECT serde_register('W', ?)", (d,))))
        c.commit()
        c.close()
        c = connect(path)
        use.append(cpu(lambda: c.execute("""SELECT length(serde_decode('W', '{"f1": 1}'))""").fetchone()))
        c.close()
    return min(reg), min(use)

with tempfile.TemporaryDirectory() as tmp:
    small, big = 5000, 20000
    r5, u5 = measure(small, tmp)
    r20, u20 = measure(big, tmp)
    for what, a, b in (("serde_register", r5, r20), ("first use", u5, u20)):
        ratio = b / max(a, 0.002)
        ok = ratio <= 6.0
        print("%s: %s %d fields %.3f s, %d fields %.3f s CPU (best of 3): %.1fx for 4x the fields"
              % ("ok" if ok else "FAIL", what, small, a, big, b, ratio))
        fails += not ok

def expect_error(c, sql, args, want, label):
    global fails
    try:
        c.execute(sql, args)
        print("FAIL: %s: no error (expected %r)" % (label, want))
        fails += 1
    except sqlite3.Error as e:
        ok = str(e) == want
        print("%s: %s: %s" % ("ok" if ok else "FAIL", label, e))
        if not ok:
            print("   expected: %s" % want)
        fails += not ok

c = connect()
try:
    c.execute("SELECT serde_register('Max', ?)", (desc(32767),))
    n = c.execute("""SELECT length(serde_decode('Max', '{"f32766": 7}'))""").fetchone()[0]
    print("ok: 32767 fields in one shape register and decode (%d bytes of JSON)" % n)
except sqlite3.Error as e:
    print("FAIL: 32767 fields: %s" % e)
    fails += 1
expect_error(c, "SELECT serde_register('Over', ?)", (desc(32768),),
             "Over: $.fields: the shape has 32768 fields, more than 32767 (a limit of serde)",
             "32768 fields in one shape")
c.execute("SELECT serde_register('A', ?)", (desc(25000, "a"),))
c.execute("SELECT serde_register('B', ?)", (desc(25000, "b"),))
tree = json.dumps({"fields": {"a": {"type": {"shape": "A"}}, "b": {"type": {"shape": "B"}}}})
expect_error(c, "SELECT serde_register('Tree', ?)", (tree,),
             'Tree: $.fields.b.type.shape: in shape "B" at $.fields: the shapes of the tree have '
             'more than 50000 fields together (a limit of serde)',
             "50002 fields in a tree of shapes")
ok_tree = json.dumps({"fields": {"a": {"type": {"shape": "A"}}}})
try:
    c.execute("SELECT serde_register('TreeOk', ?)", (ok_tree,))
    print("ok: 25001 fields in a tree of shapes register")
except sqlite3.Error as e:
    print("FAIL: 25001 fields in a tree: %s" % e)
    fails += 1
c.close()
print("FAIL: compile_scale" if fails else "ok: compile_scale")
sys.exit(1 if fails else 0)
PY
