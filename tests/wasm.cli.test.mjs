// wasm.cli.test.mjs: `node wasm/judge.mjs` is a drop-in for ./judge: the same
// errors and exit statuses, the same list, the same reports (times aside),
// the same working copy; and the wasm judge makes bit-identical hidden inputs
// for every case of every problem, under the default seed and another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, judge, judgeWasm } from './lib/run.mjs';
import { nodePlatform } from '../wasm/platform_node.mjs';
import { createPipeline } from '../wasm/pipeline.mjs';

const solution = join('problems', '49-causal-mha', 'solution.c');
const corpus = (f) => join('tests', 'corpus', '49', f);

for (const args of [
  [], ['999', solution], ['49', '/nonexistent/file.c'], ['49', solution, '--colour'],
  ['49', solution, '--seed', 'abc'], ['49', solution, '--seed', '-1'], ['49', solution, '--seed'],
  ['49', solution, 'extra'], ['49', 'problems'], ['list', 'x'],
]) {
  test(`bad input ${JSON.stringify(args)}: the same line on stderr and status 2 as ./judge`, async () => {
    const [n, w] = await Promise.all([judge(args), judgeWasm(args)]);
    assert.equal(n.code, 2);
    assert.equal(w.code, 2, w.stderr);
    assert.equal(w.stdout, '');
    if (args.length) assert.equal(w.stderr, n.stderr);
    else assert.match(w.stderr, /^usage: judge <id\|slug> \[FILE\] \[--json\] \[--seed N\] \[--lang en\|zh\]\n/);
  });
}

test('--help and list print what ./judge prints', async () => {
  const [n, w] = await Promise.all([judge(['list']), judgeWasm(['list'])]);
  assert.equal(w.code, 0);
  assert.equal(w.stdout, n.stdout);
  const h = await judgeWasm(['--help']);
  assert.equal(h.code, 0);
  // The same usage, but for the Environment line(s): each CLI has its own.
  const common = (text) => text.slice(0, text.indexOf('Environment:'));
  const native = (await judge(['--help'])).stdout;
  assert.ok(common(native).length > 100, native);
  assert.equal(common(h.stdout), common(native));
});

// The report without its measured numbers: times differ from run to run, and
// errors in the last bits (the native reference kernels may use FMA, wasm
// SIMD128 has none), so every number with a fraction is masked.
const unmeasured = (text) => text.replace(/ *\d+\.\d+ ms/g, ' t').replace(/-?\d+\.\d+(?:e[+-]?\d+)?/g, 'x');
const MEASURED = ['time_ms', 'ref_ms', 'max_abs', 'max_rel', 'max_ratio'];

for (const [file, code] of [[solution, 0], [corpus('wa-no-causal-mask.c'), 1], [corpus('ac-printf-debug.c'), 0],
  [corpus('re-write-past-end.c'), 1], [corpus('tle-infinite-loop.c'), 1]]) {
  test(`${file}: the same report as ./judge (measurements aside), status ${code}`, async () => {
    const [n, w] = await Promise.all([judge(['49', file]), judgeWasm(['49', file])]);
    assert.equal(n.code, code);
    assert.equal(w.code, code, w.stderr);
    assert.equal(unmeasured(w.stdout), unmeasured(n.stdout));
    const [nj, wj] = await Promise.all([judge(['49', file, '--json']), judgeWasm(['49', file, '--json'])]);
    const a = JSON.parse(nj.stdout), b = JSON.parse(wj.stdout);
    assert.equal(b.backend, 'wasm');
    for (const r of [a, b]) {
      delete r.backend;
      for (const c of r.cases) {
        for (const k of MEASURED) delete c[k];
        if (c.first_bad) { delete c.first_bad.expected; delete c.first_bad.got; }
      }
    }
    assert.deepEqual(b, a);
  });
}

test('without FILE: the same working copy, made once from the starter', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'wasm-cli-'));
  try {
    const env = { ...process.env, JUDGE_WORKSPACE: ws };
    const first = await judgeWasm(['49'], { env });
    const copy = join(ws, '49-causal-mha.c');
    assert.match(first.stderr, new RegExp(`created your working copy ${copy}`));
    assert.equal(readFileSync(copy, 'utf8'), readFileSync(join(root, 'problems', '49-causal-mha', 'starter.c'), 'utf8'));
    assert.equal(first.code, 1);
    const second = await judgeWasm(['causal-mha'], { env });
    assert.match(second.stderr, /judging your working copy/);
    assert.ok(existsSync(copy));
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('hidden inputs are bit-identical: every case of every problem, two seeds', async () => {
  const pipeline = await createPipeline(await nodePlatform());
  try {
    assert.ok(pipeline.problems.length >= 1);
    for (const p of pipeline.problems) {
      const file = join('problems', p.dir, 'solution.c');
      const source = readFileSync(join(root, file), 'utf8');
      for (const seed of [null, '7']) {
        const args = [String(p.id), file, '--json', ...(seed ? ['--seed', seed] : [])];
        const native = JSON.parse((await judge(args)).stdout);
        const wasm = JSON.parse((await pipeline.judge(p.id, source, seed ? { file, seed } : { file })).json);
        assert.equal(wasm.seed, native.seed);
        assert.ok(native.cases.length > 0, `${p.slug}: no cases`);
        assert.deepEqual(wasm.cases.map((c) => [c.name, c.input_hash]),
          native.cases.map((c) => [c.name, c.input_hash]), `${p.slug} seed ${seed ?? 'default'}`);
        assert.equal(wasm.verdict, 'AC', `${p.slug}: the reference solution under wasm`);
      }
    }
  } finally {
    pipeline.close();
  }
});
