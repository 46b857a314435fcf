// bench.mjs: what the wasm backend costs, printed (`make bench-wasm`): the
// compile of problem 49's reference solution with @yowasp/clang (toolchain
// load, first compile, warm compile), judging it end to end in Node (cold:
// compile included; warm: compile skipped by the cache; and the CLI as a
// learner runs it), and the wasm/native ratio of the time inside the
// learner's function and of the judge's reference kernels, case by case.
// Figures only: nothing here passes or fails.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodePlatform } from './platform_node.mjs';
import { createPipeline } from './pipeline.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = join('problems', '49-causal-mha', 'solution.c');
const source = readFileSync(join(root, file), 'utf8');
const ms = (t) => `${t.toFixed(0).padStart(7)} ms`;
const line = (what, t) => console.log(`  ${what.padEnd(52)} ${ms(t)}`);
const sum = (r, key) => r.cases.reduce((a, c) => a + (typeof c[key] === 'number' ? c[key] : 0), 0);

const cache = mkdtempSync(join(tmpdir(), 'bench-wasm-'));
try {
  console.log('wasm backend, problem 49, reference solution');
  let t0 = performance.now();
  const pipeline = await createPipeline(nodePlatform({ cacheDir: cache }));
  line('load the judge (judge.wasm)', performance.now() - t0);
  // Unique comments defeat the cache without changing the code.
  t0 = performance.now();
  const first = await pipeline.compile(49, `${source}\n/* first */\n`);
  line('compile, first (toolchain load + cold compile)', performance.now() - t0);
  const warm = [];
  for (let i = 0; i < 3; i++) warm.push((await pipeline.compile(49, `${source}\n/* warm ${i} */\n`)).ms);
  line('compile, warm (best of 3)', Math.min(...warm));
  if (!first.ok) throw new Error(first.diagnostics);

  t0 = performance.now();
  await pipeline.judge(49, `${source}\n/* judge cold */\n`, { file });
  line('judge end to end, compile included', performance.now() - t0);
  const runs = [];
  let report;
  for (let i = 0; i < 3; i++) {
    t0 = performance.now();
    report = JSON.parse((await pipeline.judge(49, source, { file })).json);
    runs.push(performance.now() - t0);
  }
  line('judge end to end, warm (cached compile; best of 3)', Math.min(...runs));
  pipeline.close();

  const env = { ...process.env, JUDGE_WASM_CACHE: cache };
  t0 = performance.now();
  execFileSync(process.execPath, [join(root, 'wasm', 'judge.mjs'), '49', file, '--json'], { cwd: root, env });
  line('node wasm/judge.mjs 49 (warm cache), whole process', performance.now() - t0);
  t0 = performance.now();
  const native = JSON.parse(execFileSync(join(root, 'judge'), ['49', file, '--json'], { cwd: root, encoding: 'utf8' }));
  line('./judge 49 (native, compile included)', performance.now() - t0);

  console.log('\n  case               learner fn: wasm / native       reference: wasm / native');
  for (const c of report.cases) {
    const n = native.cases.find((x) => x.name === c.name);
    const f = (a, b) => `${a.toFixed(3).padStart(8)} /${b.toFixed(3).padStart(8)} ms ${(a / b).toFixed(1).padStart(5)}x`;
    console.log(`  ${c.name.padEnd(18)} ${f(c.time_ms, n.time_ms)}    ${f(c.ref_ms, n.ref_ms)}`);
  }
  const fw = sum(report, 'time_ms'), fn = sum(native, 'time_ms');
  const rw = sum(report, 'ref_ms'), rn = sum(native, 'ref_ms');
  console.log(`  ${'all cases'.padEnd(18)} ratio wasm/native: learner fn ${(fw / fn).toFixed(2)}x, reference ${(rw / rn).toFixed(2)}x`);
} finally {
  rmSync(cache, { recursive: true, force: true });
}
