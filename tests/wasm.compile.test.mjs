// wasm.compile.test.mjs: the compile worker runs the driver's steps itself
// and keeps the shim's object (wasm/compile_worker.mjs): the modules and
// messages must be exactly runClang's, and an edited file must cost only its
// own -cc1 and the link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './lib/run.mjs';
import { nodePlatform } from '../wasm/platform_node.mjs';
import { createPipeline } from '../wasm/pipeline.mjs';
import { makeCompiler } from '../wasm/compiler.mjs';
import { clangCommand, OUTPUT } from '../wasm/compile.mjs';

const corpus = (f) => readFileSync(join(root, 'tests', 'corpus', '49', f), 'utf8');
const solution = readFileSync(join(root, 'problems', '49-causal-mha', 'solution.c'), 'utf8');
let platform, pipeline, compiler, runClang, cacheDir, problem;

before(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), 'aj-compile-'));
  platform = await nodePlatform({ cacheDir });
  pipeline = await createPipeline(platform);
  problem = pipeline.find(49);
  compiler = makeCompiler(platform);
  ({ runClang } = await import(platform.clangUrl));
});
after(() => {
  compiler.close();
  pipeline.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

// What @yowasp/clang's own runClang makes of the same command.
async function reference(source) {
  const command = clangCommand({ problem, source, name: 'submission.c', shim: platform.shimSource, color: false });
  let text = '';
  const keep = (b) => { if (b) text += new TextDecoder().decode(b); };
  try {
    const out = await runClang(['clang', ...command.args], command.files, { stdout: keep, stderr: keep, decodeASCII: false });
    return { wasm: out[OUTPUT], text };
  } catch {
    return { wasm: null, text };
  }
}

test('the modules and messages are runClang\'s, byte for byte', async () => {
  for (const f of ['ac-online-softmax.c', 'ac-printf-debug.c', 'ce-syntax-error.c', 'ce-misspelled-name.c', 'ce-defines-main.c']) {
    const source = corpus(f);
    const want = await reference(source);
    const got = await compiler.compile(problem, source, { name: 'submission.c' });
    assert.equal(got.ok, want.wasm !== null, f);
    if (want.wasm) assert.ok(Buffer.from(got.wasm).equals(Buffer.from(want.wasm)), `${f}: the same module`);
    assert.ok(got.diagnostics.startsWith(want.text), `${f}: the same messages first`);
    if (!got.ok) assert.match(got.diagnostics, /error/, `${f}: a compile error`);
  }
});

test('an edited file: its own -cc1 and the link only, never the driver or the shim again', async () => {
  const steps = async (source) => (await compiler.compile(problem, source, { name: 'submission.c' })).phases.map((p) => p.name);
  await steps(`${solution}\n/* first */\n`);
  const again = await steps(`${solution}\n/* edited */\n`);
  assert.deepEqual(again.filter((n) => !/^compile /.test(n)), ['cc1', 'wasm-ld']);
});

test('the same code asked for twice at once is compiled once', async () => {
  const source = `${solution}\n/* twice */\n`;
  const [a, b] = await Promise.all([1, 2].map(() => compiler.compile(problem, source, { name: 'submission.c' })));
  const compiles = [a, b].filter((r) => r.phases.some((p) => p.name === 'cc1'));
  assert.equal(compiles.length, 1);
  assert.ok([a, b].some((r) => r.phases.some((p) => p.name === 'compile under way')));
  assert.ok(Buffer.from(a.wasm).equals(Buffer.from(b.wasm)));
});
