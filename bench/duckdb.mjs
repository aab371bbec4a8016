// bench/duckdb.mjs — the DuckDB side of bench/duckdb: one in-memory DuckDB instance, driven by
// bench/lib/duckdb_rounds.py over stdin/stdout, one JSON object per line each way.
//
//   {"cmd": "load", "name": W, "doc": PATH, "copies": N, "structure": {...}, "select": [SQL, ...]}
//       table w_W: N copies of the document's bytes, copy i followed by a distinct run of 12
//       blanks/newlines (its number in binary: every stored string differs, so nothing keyed by
//       the bytes can be reused, and every copy parses to the same value); checks that the
//       transform runs and returns N structs; answers {"ok": true, "plan": EXPLAIN ANALYZE text}
//   {"cmd": "time", "name": W, "threads": T | null, "ms": MS}
//       T threads (null: DuckDB's default); the transform statement and the scan floor
//       alternately until each has run ~MS ms; answers the per-statement times in ns
//   {"cmd": "version"}
//
// The package comes from the npm registry (@duckdb/node-api); bench/duckdb installs it into a
// cache directory outside the repository and sets NODE_PATH. Never a test dependency.
import { createRequire } from 'node:module';
import readline from 'node:readline';

const require = createRequire(import.meta.url);
const modDir = process.env.SERDE_DUCKDB_DIR;
const { DuckDBInstance } = require(require.resolve('@duckdb/node-api', { paths: [modDir] }));

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
const defaultThreads = (await con.runAndReadAll("SELECT current_setting('threads')")).getRows()[0][0];
const tables = {};

const q = (s) => "'" + String(s).replaceAll("'", "''") + "'";

async function scalar(sql) {
  return (await con.runAndReadAll(sql)).getRows()[0];
}

async function load(m) {
  const t = `w_${m.name}`;
  const blanks = "array_to_string(list_transform(range(12), b -> CASE WHEN (i >> b) & 1 = 1 " +
    "THEN chr(10) ELSE ' ' END), '')";
  await con.run(`DROP TABLE IF EXISTS ${t}`);
  await con.run(`CREATE TABLE ${t} AS SELECT i::INTEGER AS id, content || ${blanks} AS body ` +
    `FROM read_text(${q(m.doc)}), range(${m.copies}) r(i) ORDER BY i`);
  const distinct = (await scalar(`SELECT count(DISTINCT body), count(*) FROM ${t}`)).map(Number);
  if (distinct[0] !== m.copies || distinct[1] !== m.copies) throw new Error(`${t}: ${distinct} rows`);
  const st = q(JSON.stringify(m.structure));
  const sel = m.select.join(', ');
  const transform = `SELECT ${sel} FROM (SELECT json_transform_strict(body, ${st}) AS s FROM ${t})`;
  const floor = `SELECT sum(strlen(body)) FROM ${t}`;
  const r = await scalar(transform);
  if (Number(r[0]) !== m.copies) throw new Error(`${t}: transform returned ${r}`);
  const plan = (await con.runAndReadAll(`EXPLAIN ANALYZE ${transform}`)).getRows().map((x) => x[1]).join('\n');
  tables[m.name] = { transform, floor };
  return { ok: true, result: r.map(String), plan, transform, floor };
}

async function timeOne(sql) {
  const t0 = process.hrtime.bigint();
  await con.runAndReadAll(sql);
  return Number(process.hrtime.bigint() - t0);
}

async function time(m) {
  const t = tables[m.name];
  await con.run(`SET threads = ${m.threads ?? defaultThreads}`);
  const out = { transform: [], floor: [] };
  await timeOne(t.transform); await timeOne(t.floor);           // warm-up, not kept
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(2 * m.ms * 1e6));
  while (out.transform.length < 5 || process.hrtime.bigint() - start < budget) {
    out.transform.push(await timeOne(t.transform));
    out.floor.push(await timeOne(t.floor));
    if (out.transform.length >= 5000) break;
  }
  return { threads: Number(m.threads ?? defaultThreads), ...out };
}

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const m = JSON.parse(line);
  let res;
  try {
    if (m.cmd === 'load') res = await load(m);
    else if (m.cmd === 'time') res = await time(m);
    else if (m.cmd === 'version') {
      const v = await scalar('SELECT version()');
      const pkg = require(require.resolve('@duckdb/node-api/package.json', { paths: [modDir] }));
      res = { duckdb: String(v[0]), node_api: pkg.version, default_threads: Number(defaultThreads) };
    } else res = { error: `unknown cmd ${m.cmd}` };
  } catch (e) {
    res = { error: String(e && e.message ? e.message : e) };
  }
  process.stdout.write(JSON.stringify(res) + '\n');
}
