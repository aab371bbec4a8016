-- recursive.sql — recursive documents (an expression tree, a comment thread, a linked list):
-- the recursive part decodes into a jsonb (or json) column with `shape` naming a shape, here the
-- shape itself (docs/reference.md, "Field level"): the value (or each element of an array) is validated against that
-- shape and stored unchanged.  Recursion is bounded by serde.max_depth, with a clear error past it.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- ---- an expression tree: {"op": "add", "args": [<expr>, ...]} or {"op": "num", "value": 1} ---------
CREATE TYPE rc_op AS ENUM ('num', 'neg', 'add', 'mul');
CREATE TYPE rc_expr AS (op rc_op, value numeric, args jsonb);
-- a shape may refer to itself (registered in one go)
SELECT serde_register('RcExpr', 'rc_expr', '{"unknown": "reject",
    "fields": {"value": {"optional": true}, "args": {"shape": "RcExpr", "optional": true}}}');

SELECT e.op, e.value, e.args FROM serde_decode(NULL::rc_expr,
    '{"op": "add", "args": [{"op": "num", "value": 1},
                            {"op": "mul", "args": [{"op": "num", "value": 2.5}, {"op": "neg", "args": [{"op": "num", "value": 3}]}]}]}') e;
-- the stored value is the document's subtree, unchanged
SELECT e.args = '[{"op": "num", "value": 1}, {"op": "neg", "args": [{"op": "num", "value": 2}]}]'::jsonb AS unchanged
  FROM serde_decode(NULL::rc_expr, '{"op": "add", "args": [{"op": "num", "value": 1}, {"op": "neg", "args": [{"op": "num", "value": 2}]}]}') e;
-- from jsonb and json input alike
SELECT e.op, e.args FROM serde_decode(NULL::rc_expr,
    '{"op": "neg", "args": [{"op": "neg", "args": [{"op": "num", "value": 7}]}]}'::jsonb) e;
SELECT e.op, e.args FROM serde_decode(NULL::rc_expr,
    '{"op": "neg", "args": [{"op": "neg", "args": [{"op": "num", "value": 7}]}]}'::json) e;
-- the args can be walked with SQL afterwards, and decoded again level by level
SELECT a.op, a.value FROM serde_decode(NULL::rc_expr,
    '{"op": "add", "args": [{"op": "num", "value": 1}, {"op": "num", "value": 2}]}') e,
    LATERAL serde_decode_each(NULL::rc_expr, e.args) a;

-- bad documents deep inside: the path goes down the tree
SELECT serde_decode(NULL::rc_expr, '{"op": "add", "args": [{"op": "num", "value": 1},
    {"op": "mul", "args": [{"op": "num", "value": "2"}, {"op": "num", "value": 3}]}]}');
SELECT serde_decode(NULL::rc_expr, '{"op": "add", "args": [{"op": "num", "value": 1},
    {"op": "mul", "args": [{"op": "num", "value": "2"}, {"op": "num", "value": 3}]}]}'::jsonb);
SELECT serde_decode(NULL::rc_expr, '{"op": "add", "args": [{"op": "pow", "args": []}]}');
SELECT serde_decode(NULL::rc_expr, '{"op": "add", "args": [{"op": "num", "value": 1, "unit": "m"}]}');
SELECT serde_decode(NULL::rc_expr, '{"op": "add", "args": [{"value": 1}]}');
SELECT serde_decode(NULL::rc_expr, '{"op": "add", "args": [5]}');
SELECT serde_decode(NULL::rc_expr, '{"op": "add", "args": {"op": "num", "value": []}}');
-- every violation in the tree
SELECT * FROM serde_errors(NULL::rc_expr, '{"op": "add", "args": [{"op": "num", "value": true},
    {"op": "mul", "args": [{"op": "sqrt"}, {"value": 3}, {"op": "num", "args": "x"}]}]}');
SELECT path, code, message FROM serde_errors(NULL::rc_expr, '{"op": "add", "args": [{"op": "num", "value": true},
    {"op": "mul", "args": [{"op": "sqrt"}, {"value": 3}, {"op": "num", "args": "x"}]}]}'::jsonb);
SELECT serde_valid(NULL::rc_expr, '{"op": "num", "value": 1}') AS leaf,
       serde_valid(NULL::rc_expr, '{"op": "neg", "args": [{"op": "num", "value": "1"}]}') AS bad_leaf;

-- ---- serde.max_depth bounds the recursion (the root value is at depth 1) ----------------------------
-- rc_nest(n): n "neg" levels around a number; each level is an object plus an array
CREATE FUNCTION pg_temp.rc_nest(n int) RETURNS text LANGUAGE sql AS $$
    SELECT repeat('{"op": "neg", "args": [', n) || '{"op": "num", "value": 1}' || repeat(']}', n)
$$;
SET serde.max_depth = 9;
SELECT (serde_decode(NULL::rc_expr, pg_temp.rc_nest(4))).op AS depth_9;
SELECT (serde_decode(NULL::rc_expr, pg_temp.rc_nest(4)::jsonb)).op AS depth_9_jsonb;
SELECT serde_decode(NULL::rc_expr, pg_temp.rc_nest(5));
SELECT serde_decode(NULL::rc_expr, pg_temp.rc_nest(5)::jsonb);
SELECT serde_valid(NULL::rc_expr, pg_temp.rc_nest(5));
SELECT * FROM serde_errors(NULL::rc_expr, pg_temp.rc_nest(5));
RESET serde.max_depth;
-- the default, 512: 255 levels fit (depth 511), 256 do not
SELECT (serde_decode(NULL::rc_expr, pg_temp.rc_nest(255))).op AS depth_511;
SELECT (serde_decode(NULL::rc_expr, pg_temp.rc_nest(255)::jsonb)).op AS depth_511_jsonb;
SELECT substr(serde_decode(NULL::rc_expr, pg_temp.rc_nest(256))::text, 1, 20);
SELECT substr(serde_decode(NULL::rc_expr, pg_temp.rc_nest(256)::jsonb)::text, 1, 20);
-- a raised limit is still bounded by the stack: an error, never a crash
-- (where exactly the stack runs out depends on the build, so only the error is shown); for
-- serde_valid the stack is a limit the document exceeds, so it answers false
SET serde.max_depth = 100000;
DO $$
BEGIN
    PERFORM serde_decode(NULL::rc_expr, pg_temp.rc_nest(30000));
    RAISE NOTICE 'decoded';
EXCEPTION WHEN statement_too_complex THEN
    RAISE NOTICE '% %', SQLSTATE, regexp_replace(SQLERRM, '^.*: ', '');
END $$;
SELECT serde_valid(NULL::rc_expr, pg_temp.rc_nest(30000)) AS valid_30000;
RESET serde.max_depth;

-- ---- a comment thread: replies are comments -------------------------------------------------------
CREATE TYPE rc_comment AS (id int8, author text, body text, at timestamptz, replies json);
SELECT serde_register('RcComment', 'rc_comment',
    '{"fields": {"replies": {"shape": "RcComment", "default": []}, "at": {"name": "created_at"}}}');
SELECT c.id, c.author, c.replies FROM serde_decode(NULL::rc_comment, '{"id": 1, "author": "ann", "body": "first!",
    "created_at": "2024-05-01T10:00:00Z", "replies": [
      {"id": 2, "author": "bob", "body": "re",  "created_at": "2024-05-01T10:05:00Z",
       "replies": [{"id": 4, "author": "ann", "body": "re re", "created_at": "2024-05-01T10:06:00Z"}]},
      {"id": 3, "author": "cy",  "body": "+1",  "created_at": "2024-05-01T10:07:00Z", "replies": []}]}') c;
-- json keeps the text exactly as written (whitespace included)
SELECT c.replies FROM serde_decode(NULL::rc_comment, '{"id": 1, "author": "a", "body": "b",
    "created_at": "2024-05-01T10:00:00Z", "replies" :  [ {"id":2,"author":"b","body":"c","created_at":"2024-05-01T10:00:00Z"} ] }') c;
-- a thread read as NDJSON, one root comment per line
SELECT c.id, json_array_length(c.replies) AS replies FROM serde_decode_each(NULL::rc_comment,
    E'{"id": 1, "author": "a", "body": "x", "created_at": "2024-05-01T10:00:00Z"}\n'
    '{"id": 5, "author": "b", "body": "y", "created_at": "2024-05-01T11:00:00Z", "replies": [{"id": 6, "author": "c", "body": "z", "created_at": "2024-05-01T11:01:00Z"}]}') c;
SELECT serde_decode(NULL::rc_comment, '{"id": 1, "author": "a", "body": "b", "created_at": "2024-05-01T10:00:00Z",
    "replies": [{"id": 2, "author": "b", "body": "c", "created_at": "2024-05-01T10:00:00Z",
                 "replies": [{"id": "3", "author": "c", "body": "d", "created_at": "2024-05-01T10:00:00"}]}]}');
SELECT path, code, message FROM serde_errors(NULL::rc_comment, '{"id": 1, "author": "a", "body": "b", "created_at": "2024-05-01T10:00:00Z",
    "replies": [{"id": 2, "author": "b", "body": "c", "created_at": "2024-05-01T10:00:00Z",
                 "replies": [{"id": "3", "author": "c", "body": "d", "created_at": "2024-05-01T10:00:00"}]}]}');
SELECT serde_decode(NULL::rc_comment, '{"id": 1, "author": "a", "body": "b", "created_at": "2024-05-01T10:00:00Z", "replies": {"id": 2}}');

-- ---- a linked list (a single object, not an array), and mutual recursion ------------------------------
CREATE TYPE rc_node AS (value int4, next jsonb);
SELECT serde_register('RcNode', 'rc_node', '{"fields": {"next": {"shape": "RcNode", "optional": true}}}');
SELECT n.value, n.next FROM serde_decode(NULL::rc_node, '{"value": 1, "next": {"value": 2, "next": {"value": 3, "next": null}}}') n;
SELECT serde_decode(NULL::rc_node, '{"value": 1, "next": {"value": 2, "next": {"value": 3.5}}}');
-- a folder holds files and folders; a file points back to its folder
CREATE TYPE rc_folder AS (name text, children jsonb);
CREATE TYPE rc_file AS (name text, size int8, parent jsonb);
SELECT serde_register('RcFolder', 'rc_folder', '{"fields": {"children": {"shape": "RcFile"}}}');
SELECT serde_register('RcFolder', 'rc_folder', '{}');
SELECT serde_register('RcFile', 'rc_file', '{"fields": {"parent": {"shape": "RcFolder", "optional": true}}}');
SELECT serde_register('RcFolder', 'rc_folder', '{"fields": {"children": {"shape": "RcFile"}}}');
SELECT f.name, f.children FROM serde_decode(NULL::rc_folder,
    '{"name": "root", "children": [{"name": "a.txt", "size": 3, "parent": {"name": "up", "children": []}}]}') f;
SELECT serde_decode(NULL::rc_folder,
    '{"name": "root", "children": [{"name": "a.txt", "size": 3, "parent": {"name": "up", "children": [{"name": "b", "size": -1.5}]}}]}');

-- ---- registration: a `shape` on a json/jsonb column must name a composite shape -------------------
SELECT serde_register('RcBad', 'rc_node', '{"fields": {"next": {"shape": "NoSuchShape"}}}');
SELECT serde_register('RcInt', 'int4');
SELECT serde_register('RcBad', 'rc_node', '{"fields": {"next": {"shape": "RcInt"}}}');
SELECT serde_register('RcBad', 'rc_node', '{"fields": {"value": {"shape": "RcNode"}}}');

-- clean up
SELECT serde_unregister('RcExpr'), serde_unregister('RcComment'), serde_unregister('RcNode'),
       serde_unregister('RcFolder'), serde_unregister('RcFile'), serde_unregister('RcInt'), serde_unregister('RcBad');
DROP TYPE rc_expr, rc_op, rc_comment, rc_node, rc_folder, rc_file;
