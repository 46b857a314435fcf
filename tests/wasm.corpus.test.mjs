// wasm.corpus.test.mjs: the whole submission corpus (tests/corpus/<id>/*.c)
// judged by the wasm backend must get the native judge's verdicts, case by
// case, with the same named mistake and bit-identical hidden inputs. A file
// whose wasm behaviour legitimately differs says so on its first line
// ("/* expect: AC; wasm: CE */") and must get exactly that verdict instead.
// The pipeline is the page's (wasm/pipeline.mjs), in process: two of them,
// so two compile workers share the work and each loads its toolchain once.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root, judge, expectation, namedMistake, spreadOf } from './lib/run.mjs';
import { nodePlatform } from '../wasm/platform_node.mjs';
import { createPipeline } from '../wasm/pipeline.mjs';

const corpus = join(root, 'tests', 'corpus');
const files = readdirSync(corpus).sort().flatMap((id) =>
  readdirSync(join(corpus, id)).filter((f) => f.endsWith('.c')).sort().map((f) => ({ id, f })));

// A tiny pool: each test borrows a pipeline and gives it back.
const free = [];
const waiters = [];
async function borrow(fn) {
  const p = free.pop() ?? await new Promise((resolve) => waiters.push(resolve));
  try {
    return await fn(p);
  } finally {
    const next = waiters.shift();
    if (next) next(p); else free.push(p);
  }
}

before(async () => {
  for (let i = 0; i < 2; i++) free.push(await createPipeline(nodePlatform()));
});
after(() => { for (const p of free) p.close(); });

const verdicts = (r) => r.cases.map((c) => `${c.name}:${c.verdict}`);
const hashes = (r) => r.cases.map((c) => `${c.name}:${c.input_hash}`);

describe('wasm corpus', { concurrency: 2 }, () => {
  for (const { id, f } of files) {
    const file = join(corpus, id, f);
    const want = expectation(file);
    const label = `${want.wasm.verdict}${want.wasm.mistake ? ` ${want.wasm.mistake}` : want.wasm.spread ? ` @${want.wasm.spread}` : ''}`;
    it(`${id}/${f}: ${label}${want.wasm.differs ? ` (natively ${want.verdict})` : ''}`, async () => {
      const path = relative(root, file);
      // One after the other: both run under wall-clock limits, and CI has
      // two cores for two files at a time.
      const nativeRun = await judge([id, path, '--json']);
      const wasmRun = await borrow((p) => p.judge(id, readFileSync(file, 'utf8'), { file: path }));
      const native = JSON.parse(nativeRun.stdout);
      const wasm = JSON.parse(wasmRun.json);
      const why = `wasm: ${JSON.stringify({ verdict: wasm.verdict, failed: wasm.failed_case, cases: wasm.cases.map((c) => c.detail).filter(Boolean), compile: wasm.compile })}`;
      assert.equal(wasm.backend, 'wasm');
      assert.equal(wasm.verdict, want.wasm.verdict, why);
      // A compile error is the learner's code, told as such: a compiler out
      // of memory (a macro bomb) is no crash of the compiler's.
      assert.doesNotMatch(wasm.compile?.diagnostics ?? '', /judge: the compiler failed/, why);
      if (want.wasm.verdict === 'WA') {
        assert.equal(namedMistake(wasm), want.wasm.mistake, why);
        assert.equal(spreadOf(wasm), want.wasm.spread, why);
      }
      if (want.wasm.differs) {
        // The difference must still be real, or the annotation goes.
        assert.equal(native.verdict, want.verdict, 'the native verdict changed: update the annotation');
        assert.notDeepEqual([native.verdict, namedMistake(native)], [wasm.verdict, namedMistake(wasm)],
          'both backends agree now: remove "; wasm: ..."');
        return;
      }
      assert.equal(wasm.verdict, native.verdict, why);
      assert.deepEqual(verdicts(wasm), verdicts(native), why);
      assert.equal(wasm.failed_case, native.failed_case, why);
      assert.equal(namedMistake(wasm), namedMistake(native), why);
      assert.equal(wasm.mistake?.partial, native.mistake?.partial, why);
      assert.deepEqual(wasm.mask, native.mask, 'the probed mask differs');
      if (native.cases.length) assert.deepEqual(hashes(wasm), hashes(native), 'hidden inputs differ');
    });
  }
});
