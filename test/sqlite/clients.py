"""clients.py — the SQLite extension from Python's standard sqlite3 module (Debian's python3,
which can load extensions): loading, every function, the virtual table, result codes of errors,
and the changes the plan cache must honour when they come from ANOTHER connection (one that
never loaded serde, so only the catalog's plain-SQL triggers run): a commit there is seen by the
next statement here, an open read transaction here keeps its snapshot, a write to another table
there recompiles nothing here.  Usage: /usr/bin/python3 test/sqlite/clients.py ./sqlite/serde"""
import os
import sqlite3
import sys
import tempfile

EXT = sys.argv[1] if len(sys.argv) > 1 else "./sqlite/serde"
failures = 0


def check(what, got, want):
    global failures
    if got == want:
        print(f"ok: {what}")
    else:
        failures += 1
        print(f"FAIL: {what}\n  got:  {got!r}\n  want: {want!r}")


def error_of(conn, sql, *args):
    try:
        conn.execute(sql, args).fetchall()
    except sqlite3.Error as e:
        return (getattr(e, "sqlite_errorname", type(e).__name__), str(e))
    return None


def stats(conn):
    return conn.execute("SELECT compiles, invalidations FROM serde_cache_stats()").fetchone()


def connect(path, load=True):
    conn = sqlite3.connect(path, isolation_level=None)   # autocommit: explicit BEGIN only
    if load:
        conn.enable_load_extension(True)
        conn.load_extension(EXT)
        conn.enable_load_extension(False)
    return conn


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "t.db")
    a = connect(path)
    a.execute("PRAGMA journal_mode = wal")  # readers and a writer at once (snapshots)
    b = connect(path, load=False)          # a writer without serde

    # ---- functions -------------------------------------------------------------------------
    a.execute("""SELECT serde_register('Invoice', '{"optional": true, "fields": {
        "id": {"type": "text", "optional": false}, "total": {"type": "integer", "name": "amount_due"},
        "at": {"type": "timestamp", "format": "unix"}, "sig": {"type": "blob"}}}')""")
    check("serde_decode", a.execute("SELECT serde_decode('Invoice', ?)",
                                    ('{"id": "in_1", "amount_due": 5, "at": 1700000000, "sig": "aGk="}',)).fetchone()[0],
          '{"id":"in_1","total":5,"at":"2023-11-14T22:13:20Z","sig":"aGk="}')
    check("serde_decode of bytes (a BLOB)", a.execute("SELECT serde_decode('Invoice', ?)", (b'{"id": "b"}',)).fetchone()[0],
          '{"id":"b","total":null,"at":null,"sig":null}')
    check("serde_valid", a.execute("SELECT serde_valid('Invoice', '{}'), serde_valid('Invoice', '{\"id\": \"x\"}')").fetchone(), (0, 1))
    check("serde_errors", a.execute("SELECT path, code, message, byte_offset FROM serde_errors('Invoice', '{\"amount_due\": \"5\"}')").fetchall(),
          [("$.id", "2203A", "Invoice: $.id: missing required member", 0),
           ("$.amount_due", "22032", 'Invoice: $.amount_due: expected integer, found string "5"', 15)])
    a.execute("CREATE VIRTUAL TABLE inv USING serde(Invoice)")
    check("virtual table, typed values", a.execute("SELECT id, total, at, sig FROM inv(?)", ('{"id": "v", "amount_due": 7, "sig": "aGk="}',)).fetchone(),
          ("v", 7, None, b"hi"))
    check("error: result code and message", error_of(a, "SELECT serde_decode('Invoice', '{\"id\": 1}')"),
          ("SQLITE_MISMATCH", "Invoice: $.id: expected string, found number 1"))
    check("error: malformed", error_of(a, "SELECT serde_decode('Invoice', '{')"),
          ("SQLITE_ERROR", "Invoice: $: malformed JSON: unexpected end of input (at line 1, column 2, byte offset 1)"))
    check("error: unknown shape", error_of(a, "SELECT serde_decode('Nope', '{}')"),
          ("SQLITE_ERROR", 'shape "Nope" does not exist'))
    check("error: virtual table", error_of(a, "SELECT * FROM inv('[]')"),
          ("SQLITE_MISMATCH", "Invoice: $: expected object, found array"))
    check("error: descriptor", error_of(a, "SELECT serde_register('X', '{\"fields\": {\"a\": {\"type\": \"int\"}}}')")[1][:36],
          'X: $.fields.a.type: unknown type "in')
    # the writer without serde cannot call it (and its triggers need none)
    check("no serde in b", error_of(b, "SELECT serde_decode('Invoice', '{}')")[1], "no such function: serde_decode")

    # ---- changes from another connection ------------------------------------------------------
    doc = '{"id": "x", "amount_due": 5}'
    a.execute("SELECT serde_decode('Invoice', ?)", (doc,))
    s0 = stats(a)
    b.execute("""UPDATE serde_shapes SET descriptor = '{"fields": {"id": {"type": "text"}, "total": {"type": "text", "name": "amount_due", "optional": true}}}'
                 WHERE name = 'Invoice'""")
    check("b's UPDATE (its trigger bumped version) seen by a's next statement",
          a.execute("SELECT serde_decode('Invoice', ?)", ('{"id": "x", "amount_due": "5"}',)).fetchone()[0], '{"id":"x","total":"5"}')
    s1 = stats(a)
    check("... one compile, one invalidation", (s1[0] - s0[0], s1[1] - s0[1]), (1, 1))
    # a read transaction in a keeps its snapshot (WAL); after it ends, the change is seen
    a.execute("BEGIN")
    a.execute("SELECT count(*) FROM serde_shapes").fetchone()
    b.execute("""UPDATE serde_shapes SET descriptor = '{"fields": {"id": {"type": "integer"}}}' WHERE name = 'Invoice'""")
    check("inside a's read transaction: a's snapshot",
          a.execute("SELECT serde_decode('Invoice', '{\"id\": \"x\", \"amount_due\": \"5\"}')").fetchone()[0], '{"id":"x","total":"5"}')
    a.execute("COMMIT")
    check("after it: b's change", a.execute("SELECT serde_decode('Invoice', '{\"id\": 7}')").fetchone()[0], '{"id":7}')
    # b's writes to other tables recompile nothing in a
    b.execute("CREATE TABLE other(x)")
    s2 = stats(a)
    for i in range(20):
        b.execute("INSERT INTO other VALUES (?)", (i,))
        a.execute("SELECT serde_decode('Invoice', '{\"id\": 7}')").fetchone()
    s3 = stats(a)
    check("20 writes to another table by b, 20 statements in a: no compile", (s3[0] - s2[0], s3[1] - s2[1]), (0, 0))
    # b deletes the shape; b inserts it again (version from the trigger)
    b.execute("DELETE FROM serde_shapes WHERE name = 'Invoice'")
    check("b's DELETE", error_of(a, "SELECT serde_decode('Invoice', '{}')"), ("SQLITE_ERROR", 'shape "Invoice" does not exist'))
    b.execute("""INSERT INTO serde_shapes(name, descriptor) VALUES ('Invoice', '{"fields": {"id": {"type": "integer"}, "total": {"type": "integer", "name": "amount_due"}}}')""")
    check("b's INSERT", a.execute("SELECT serde_decode('Invoice', '{\"id\": 7, \"amount_due\": 1}')").fetchone()[0], '{"id":7,"total":1}')
    # a rolled-back transaction in b changes nothing
    b.execute("BEGIN")
    b.execute("""UPDATE serde_shapes SET descriptor = '{"fields": {"id": {"type": "text"}}}' WHERE name = 'Invoice'""")
    b.execute("ROLLBACK")
    check("b's rollback", a.execute("SELECT serde_decode('Invoice', '{\"id\": 7, \"amount_due\": 1}')").fetchone()[0], '{"id":7,"total":1}')
    # the virtual table: same columns keep working, other columns ask to recreate
    b.execute("""UPDATE serde_shapes SET descriptor = '{"optional": true, "fields": {"id": {"type": "text"}, "total": {"type": "integer", "name": "amount_due"},
                 "at": {"type": "timestamp"}, "sig": {"type": "blob", "format": "hex"}}}' WHERE name = 'Invoice'""")
    check("virtual table after a change that keeps its columns", a.execute("SELECT id, sig FROM inv('{\"id\": \"h\", \"sig\": \"6869\"}')").fetchone(), ("h", b"hi"))
    b.execute("""UPDATE serde_shapes SET descriptor = '{"fields": {"id": {"type": "text"}}}' WHERE name = 'Invoice'""")
    check("virtual table after its columns changed", error_of(a, "SELECT * FROM inv('{\"id\": \"h\"}')")[1][:48],
          "Invoice: the shape's columns changed since virtu")
    # a second connection with serde has its own cache
    c = connect(path)
    check("another connection's own cache", c.execute("SELECT plans, compiles FROM serde_cache_stats()").fetchone(), (0, 0))
    c.execute("SELECT serde_decode('Invoice', '{\"id\": \"h\"}')")
    check("... compiles for itself", c.execute("SELECT plans, compiles FROM serde_cache_stats()").fetchone(), (1, 1))
    for conn in (a, b, c):
        conn.close()

print("clients.py:", "FAIL" if failures else "ok", f"({failures} failed)")
sys.exit(1 if failures else 0)
