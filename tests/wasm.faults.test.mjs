// wasm.faults.test.mjs: faults only the wasm backend has words for (trap
// kinds, the import allow-list, the NULL checks wasm needs because its memory
// has no unmapped page 0). Each file in tests/corpus-wasm/<id>/ says on its
// first line the verdict and a phrase the failing case's detail must hold:
//   /* wasm: RE "memory access out of bounds" */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
