// wasm.faults.test.mjs: faults only the wasm backend has words for (trap
// kinds, the import allow-list, the NULL checks wasm needs because its memory
// has no unmapped page 0). Each file in tests/corpus-wasm/<id>/ says on its
// first line the verdict and a phrase the failing case's detail must hold:
//   /* wasm: RE "memory access out of bounds" */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, basename } from 'node:path';
import { root } from './lib/run.mjs';
import { nodePlatform } from '../wasm/platform_node.mjs';
import { createPipeline } from '../wasm/pipeline.mjs';

const dir = join(root, 'tests', 'corpus-wasm');
const files = readdirSync(dir).flatMap((id) =>
  readdirSync(join(dir, id)).filter((f) => f.endsWith('.c')).sort().map((f) => ({ id, f })));

function want(file) {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0];
  const m = /^\/\* wasm: (AC|WA|CE|RE|TLE|MLE|OLE) "([^"]+)" \*\/$/.exec(first);
  if (!m) throw new Error(`${file}: the first line must be /* wasm: VERDICT "detail" */`);
  return { verdict: m[1], detail: m[2] };
}

test('every wasm-only fault gets its verdict and names its kind', async (t) => {
  assert.ok(files.length >= 8, `only ${files.length} wasm fault files`);
  const pipeline = await createPipeline(nodePlatform());
  try {
    for (const { id, f } of files) {
      const file = join(dir, id, f);
      const w = want(file);
      await t.test(`${id}/${f}: ${w.verdict} "${w.detail}"`, async () => {
        const r = JSON.parse((await pipeline.judge(id, readFileSync(file, 'utf8'), { file: f })).json);
        const failed = r.cases.find((c) => c.name === r.failed_case);
        assert.equal(r.verdict, w.verdict, JSON.stringify({ failed, compile: r.compile }));
        assert.ok(failed?.detail?.includes(w.detail), `detail: ${failed?.detail}`);
      });
    }
  } finally {
    pipeline.close();
  }
});

// The run worker's guard scan (wasm/guard.wat) on its own: one byte set
// anywhere in the guard, its first and last 64 bytes included, is seen; a
// byte just past it, or none, is not.
test('the guard scan sees one byte anywhere in the guard, and nothing past it', async () => {
  const { STACK_GUARD_BYTES: n } = await import('../wasm/compile.mjs');
  const guard = new WebAssembly.Module(readFileSync(join(root, 'build', 'wasm', 'guard.wasm')));
  const memory = new WebAssembly.Memory({ initial: n / 65536 + 1 });
  const { dirty } = new WebAssembly.Instance(guard, { env: { memory } }).exports;
  const bytes = new Uint8Array(memory.buffer);
  assert.equal(dirty(n), 0);
  for (const at of [0, 1, 15, 16, 47, 63, 64, 4095, 4096, 1 << 20, n - 64, n - 17, n - 1]) {
    bytes[at] = 0x80;
    assert.equal(dirty(n), 1, `a byte at ${at}`);
    bytes[at] = 0;
  }
  bytes[n] = 1;
  assert.equal(dirty(n), 0, 'a byte past the guard');
});

// A page's pipeline (its run worker started ahead); taken() gives, for each
// run worker since the last call, whether its memory was made ahead.
async function aheadPipeline() {
  let list = [];
  const pipeline = await createPipeline({ ...nodePlatform(), warmRunWorker: true,
    phases: (phases) => { list.push(...phases.filter((p) => p.name === 'module instantiate').map((p) => p.ahead)); } });
  return { pipeline, taken: () => list.splice(0) };
}

// A run worker started ahead makes its memory for the last run's cap, and a
// run with the same cap takes it (wasm/run_worker.mjs). Whatever the code
// does, the report must be the one a fresh memory gives: faults, their
// words and where they struck included. 55's cap (4 MB of data) is far below
// 49's, so its MLE right after 49's runs shows a memory made for another cap
// is not taken.
test('a memory made ahead gives the reports a fresh one does, and only a run with its cap takes it', async () => {
  const cases = [
    ...['ac-textbook.c', 're-write-before-start.c', 're-write-past-end.c', 're-stack-overflow.c', 're-constructor-exit.c',
      're-null-mask-deref.c', 'mle-leak-loop.c', 'mle-memset-1gib.c', 'ole-printf-flood.c']
      .map((f) => ['49', join(root, 'tests', 'corpus', '49', f)]),
    ...files.filter((x) => x.id === '49').map(({ id, f }) => [id, join(dir, id, f)]),
    ['55', join(root, 'tests', 'corpus', '55', 'mle-full-scores.c')],
    ['55', join(root, 'tests', 'corpus', '55', 'ac-row-online.c')],
    ['55', join(root, 'tests', 'corpus', '55', 'wa-all-zeros.c')],
  ];
  const fresh = await createPipeline(nodePlatform());
  const { pipeline: ahead, taken } = await aheadPipeline();
  // The report without its timings, and the compile's (cached or not).
  const report = async (pipeline, id, file) => JSON.parse((await pipeline.judge(id, readFileSync(file, 'utf8'),
    { file: basename(file) })).json, (k, v) => (/(^|_)ms$/.test(k) || k === 'compile' ? undefined : v));
  try {
    let last = null;   // the problem of the last run that reached a run worker
    for (const [id, file] of cases) {
      const want = await report(fresh, id, file);
      taken();
      const got = await report(ahead, id, file);
      assert.deepEqual(got, want, `${id}/${basename(file)}: the same report`);
      const made = taken();
      if (!made.length) continue;   // refused before running (the module asks too much memory)
      assert.deepEqual(made, [id === last], `${id}/${basename(file)}: made ahead ${made}, after a run of ${last}`);
      last = id;
    }
  } finally {
    fresh.close();
    ahead.close();
  }
});

// A speed run's tensors are far larger than its cases', so is its memory's
// cap: the spare after it still makes its memory for the cases' cap, which
// the next run (a correctness run) takes.
test('a speed run leaves the memory made ahead at the correctness runs\' cap', async () => {
  const file = join(root, 'tests', 'corpus', '52', 'ac-online-softmax.c');
  const { pipeline, taken } = await aheadPipeline();
  const judge = async (speed) => {
    const { verdict } = await pipeline.judge('52', readFileSync(file, 'utf8'), { file: basename(file), speed });
    assert.equal(verdict, 'AC');
    return taken();
  };
  try {
    assert.deepEqual(await judge(false), [false], 'the first run: no cap known');
    assert.deepEqual(await judge(true), [true, false], 'the cases, then the speed case');
    assert.deepEqual(await judge(false), [true], 'the run after a speed run');
  } finally {
    pipeline.close();
  }
});
