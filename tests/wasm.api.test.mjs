// wasm.api.test.mjs: the page's contract, wasm/api.mjs, exercised in Node:
// the problem list, compile with structured diagnostics and the content-hash
// cache, run returning the --json report, seeds, and cancel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/run.mjs';
import { createJudge } from '../wasm/api.mjs';

const solution = readFileSync(join(root, 'problems', '49-causal-mha', 'solution.c'), 'utf8');
const corpus = (f) => readFileSync(join(root, 'tests', 'corpus', '49', f), 'utf8');
let judge;
const progress = [];

before(async () => { judge = await createJudge({ onProgress: (p) => progress.push(p) }); });
after(() => judge.close());

test('problems: the fields the page uses, from the C judge\'s own table', () => {
  const p = judge.problems.find((q) => q.id === 49);
  assert.ok(p, 'problem 49 is listed');
  assert.equal(p.slug, 'causal-mha');
  assert.equal(p.dir, '49-causal-mha');
  assert.deepEqual(Object.keys(p.title).sort(), ['en', 'zh']);
  assert.equal(p.function, 'mha');
  assert.match(p.prototype, /^void mha\(float \*out, const float \*x,.*int causal\);\n$/);
  assert.equal(p.starter, readFileSync(join(root, 'problems', '49-causal-mha', 'starter.c'), 'utf8'));
  assert.deepEqual(Object.keys(p.limits).sort(), ['memory_mb', 'output_kb', 'time_ms']);
  assert.deepEqual(p.hints, JSON.parse(readFileSync(join(root, 'problems', '49-causal-mha', 'problem.json'), 'utf8')).hints);
  assert.ok(progress.some((e) => e.phase === 'judge' && e.loaded > 0 && e.total >= e.loaded));
});

test('prepare: the compiler fetched on request, once', async () => {
  const first = judge.prepare();
  assert.equal(judge.prepare(), first, 'a second prepare() waits for the same download');
  await first;
  assert.equal(judge.prepare(), first, 'and once it is here, nothing starts again');
});

test('find: the C judge\'s lookup, by id, slug or folder, and null for none', () => {
  for (const key of [49, '49', 'causal-mha', '49-causal-mha'])
    assert.equal(judge.find(key), judge.problems.find((q) => q.id === 49), `key ${key}`);
  assert.equal(judge.find('no-such-problem'), null);
  assert.equal(judge.find('4'), null);
});

test('compile: structured diagnostics with the learner\'s lines, then the cache', async () => {
  const broken = `${solution}\nint broken(void) { return undeclared_thing; }\n/* ${Date.now()} */\n`;
  const r = await judge.compile('causal-mha', broken);
  assert.equal(r.ok, false);
  assert.equal(r.cached, false);
  const line = broken.split('\n').findIndex((l) => l.includes('undeclared_thing')) + 1;
  const m = r.messages.find((x) => x.severity === 'error');
  assert.equal(m.line, line, JSON.stringify(r.messages));
  assert.ok(m.column > 0);
  assert.match(m.message, /undeclared_thing/);
  assert.match(r.diagnostics, /error:/);
  const last = progress.filter((e) => e.phase === 'compiler').at(-1);
  assert.ok(last && last.total > 50e6 && last.loaded === last.total, `compiler download progress: ${JSON.stringify(last)}`);
  const again = await judge.compile(49, broken);
  assert.equal(again.cached, true, 'unchanged code compiled twice');
  assert.deepEqual(again.messages, r.messages);
  assert.equal(typeof again.ms, 'number');
});

test('compile: a wrong signature is an error (the prototype is force-included)', async () => {
  const r = await judge.compile(49, 'int mha(void) { return 0; }\n');
  assert.equal(r.ok, false);
  assert.ok(r.messages.some((m) => m.line === 1 && m.severity === 'error'), JSON.stringify(r.messages));
});

test('compile: a missing function is a link error in the judge\'s words', async () => {
  const r = await judge.compile(49, 'void mah(void) {}\n');
  assert.equal(r.ok, false);
  assert.match(r.diagnostics, /judge: the file must define the function mha/);
  assert.ok(r.messages.some((m) => m.line === 0 && /must define the function mha/.test(m.message)));
  // In the page's language, from the same cached compile.
  const zh = await judge.compile(49, 'void mah(void) {}\n', { lang: 'zh' });
  assert.equal(zh.cached, true);
  assert.ok(zh.messages.some((m) => m.line === 0 && /^文件必须定义函数 mha（/.test(m.message)), JSON.stringify(zh.messages));
  assert.doesNotMatch(zh.diagnostics, /must define/);
});

test('run: the --json report object, with per-case times and the wasm backend', async () => {
  const r = await judge.run(49, solution);
  assert.equal(r.verdict, 'AC');
  assert.equal(r.backend, 'wasm');
  assert.equal(r.compile.ok, true);
  assert.ok(r.cases.length >= 10);
  for (const c of r.cases) {
    assert.equal(typeof c.time_ms, 'number');
    assert.equal(typeof c.ref_ms, 'number');
    assert.match(c.input_hash, /^[0-9a-f]{16}$/);
  }
  const wrong = await judge.run(49, corpus('wa-no-scale.c'));
  assert.equal(wrong.verdict, 'WA');
  assert.equal(wrong.mistake.id, 'no_scale');
});

test('run: judging again with the same seed copies the inputs and references made the first time', async () => {
  // Their times come along (made again, no two of them would match).
  const ref = (r) => r.cases.map((c) => c.ref_ms);
  const a = await judge.run(49, solution);
  const b = await judge.run(49, corpus('wa-no-scale.c'));
  assert.deepEqual(ref(b), ref(a));
  assert.equal(b.mistake.id, 'no_scale');
  const other = await judge.run(49, solution, { seed: 7 });
  assert.notEqual(other.cases[1].input_hash, a.cases[1].input_hash);
  const back = await judge.run(49, solution);
  assert.equal(back.cases[1].input_hash, a.cases[1].input_hash);
});

test('run: { seed } makes other hidden inputs', async () => {
  const a = await judge.run(49, solution, { seed: 1 });
  const b = await judge.run(49, solution, { seed: 2n });
  assert.equal(a.seed, 1);
  assert.equal(b.seed, 2);
  assert.notEqual(a.cases[1].input_hash, b.cases[1].input_hash);
});

test('run: printf output comes back, capped; flooding is OLE', async () => {
  const r = await judge.run(49, corpus('ac-printf-debug.c'));
  assert.equal(r.verdict, 'AC');
  assert.match(r.output, /^mha: B=1 T=3 d=4 H=2 causal=1 mask=no\n/);
  const calls = r.output.split('\n').filter((l) => l.startsWith('mha: ')).length;
  assert.ok(calls > r.cases.length, `one line per call, got ${calls}: the rest was never flushed`);
  const flood = await judge.run(49, corpus('ole-printf-flood.c'));
  assert.equal(flood.verdict, 'OLE');
  assert.equal(Buffer.byteLength(flood.output), 64 * 1024);
});

test('cancel: a spinning run stops at once and run() rejects as Cancelled', async () => {
  const spin = corpus('tle-infinite-loop.c');
  await judge.compile(49, spin);   // so the run starts at once
  const t0 = performance.now();
  const running = judge.run(49, spin);
  setTimeout(() => judge.cancel(), 300);
  await assert.rejects(running, (e) => e.name === 'Cancelled');
  assert.ok(performance.now() - t0 < 1900, 'cancel waited for the time limit');
  const after = await judge.run(49, solution);
  assert.equal(after.verdict, 'AC', 'the judge works after a cancel');
});

test('bad input: an unknown problem is a clear error', async () => {
  await assert.rejects(judge.run(404, solution), /no problem '404'/);
  await assert.rejects(judge.compile('nope', solution), /no problem 'nope'/);
});
