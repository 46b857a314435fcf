// wasm.compile.test.mjs: the compile worker runs the driver's steps itself
// (wasm/compile_worker.mjs), with the shim's object built with the judge:
// the modules and messages must be exactly runClang's, and an edited file
// must cost only its own -cc1 and the link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './lib/run.mjs';
import { nodePlatform } from '../wasm/platform_node.mjs';
import { createPipeline } from '../wasm/pipeline.mjs';
import { makeCompiler, WARM_MAX, WARM_MIN } from '../wasm/compiler.mjs';
import { clangCommand, OUTPUT } from '../wasm/compile.mjs';

const corpus = (f) => readFileSync(join(root, 'tests', 'corpus', '49', f), 'utf8');
const solution = readFileSync(join(root, 'problems', '49-causal-mha', 'solution.c'), 'utf8');
let platform, pipeline, compiler, runClang, cacheDir, problem;
// compile()'s options: its notes told in English.
const english = { name: 'submission.c', say: (m, ...a) => pipeline.say(m, 'en', ...a) };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

before(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), 'aj-compile-'));
  const node = nodePlatform({ cacheDir });
  // What the pipeline hands makeCompiler: the platform and the shim's object.
  platform = { ...node, shimObject: await node.readBytes('learner_shim.o') };
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
  const command = clangCommand({ problem, source, name: 'submission.c', shim: platform.shimObject, color: false });
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
    const got = await compiler.compile(problem, source, english);
    assert.equal(got.ok, want.wasm !== null, f);
    if (want.wasm) assert.ok(Buffer.from(got.wasm).equals(Buffer.from(want.wasm)), `${f}: the same module`);
    assert.ok(got.diagnostics.startsWith(want.text), `${f}: the same messages first`);
    if (!got.ok) assert.match(got.diagnostics, /error/, `${f}: a compile error`);
  }
});

test('a file: its own -cc1 and the link only, never the shim; once edited, never the driver again', async () => {
  const steps = async (source) => (await compiler.compile(problem, source, english)).phases.map((p) => p.name)
    .filter((n) => !/^compile /.test(n));
  assert.deepEqual((await steps(`${solution}\n/* first */\n`)).filter((n) => n !== 'driver'), ['cc1', 'wasm-ld']);
  assert.deepEqual(await steps(`${solution}\n/* edited */\n`), ['cc1', 'wasm-ld']);
});

test('once the judge is idle the toolchain is instantiated ahead: the next -cc1 and link run on those instances, with runClang\'s modules and messages', async () => {
  const ahead = (r) => Object.fromEntries(r.phases.filter((p) => p.ahead !== undefined).map((p) => [p.name, p.ahead]));
  await compiler.compile(problem, `${solution}\n/* before idle */\n`, english);   // the toolchain is running
  for (const [i, source] of [corpus('ac-online-softmax.c'), corpus('ce-misspelled-name.c'), `${solution}\n/* ahead */\n`].entries()) {
    compiler.busy(true);
    compiler.busy(false);
    await sleep(1500);
    const got = await compiler.compile(problem, `${source}\n/* idle ${i} */\n`, english);
    const want = await reference(`${source}\n/* idle ${i} */\n`);
    assert.ok(got.ok ? Buffer.from(got.wasm).equals(Buffer.from(want.wasm)) : want.wasm === null, `${i}: the same module`);
    assert.ok(got.diagnostics.startsWith(want.text), `${i}: the same messages first`);
    const made = ahead(got);
    assert.ok(made.cc1 && Object.values(made).every((v) => v === true), `${i}: made ahead: ${JSON.stringify(made)}`);
  }
  // Busy all along (no idle moment): nothing was made ahead.
  const busy = await compiler.compile(problem, `${solution}\n/* never idle */\n`, english);
  assert.deepEqual(ahead(busy), { cc1: false, 'wasm-ld': false });
});

test('a file that begins with system includes: once idle, its -cc1 loads them precompiled, with runClang\'s modules and messages; a message pointing into a header drops the PCH', async () => {
  const cc1 = (r) => r.phases.filter((p) => /^cc1( |$)/.test(p.name)).map((p) => (p.pch ? 'cc1 with PCH' : p.name));
  const idle = async () => { compiler.busy(true); compiler.busy(false); await sleep(4000); };
  const check = async (source, steps, what) => {
    const got = await compiler.compile(problem, source, english);
    const want = await reference(source);
    assert.ok(got.ok ? Buffer.from(got.wasm).equals(Buffer.from(want.wasm)) : want.wasm === null, `${what}: the same module`);
    assert.ok(got.diagnostics.startsWith(want.text), `${what}: the same messages first`);
    assert.deepEqual(cc1(got), steps, what);
    return got;
  };
  // Headers no other test begins with, so their PCH is not made yet.
  const file = `#include <float.h>\n${solution}`;
  await check(`${file}\n/* headers 1 */\n`, ['cc1'], 'the first compile of these headers');
  await idle();
  await check(`${file}\n/* headers 2 */\n`, ['cc1 with PCH'], 'an edit');
  const warned = await check(`${file}\nstatic void judge_unused(void) { int n; }\n`, ['cc1 with PCH'], 'a warning in the file');
  assert.match(warned.diagnostics, /submission\.c:\d+:\d+: warning/);
  await check(`${file}\nint abs(float x);\n`, ['cc1 with PCH, dropped', 'cc1'], 'a note in stdlib.h');
  // A macro defined before the includes: compiled as it is, never with the PCH.
  await check(`#define JUDGE_FIRST 1\n${solution}`, ['cc1'], 'a macro first');
});

test('a problem readied ahead: a fresh toolchain\'s first compile asks no driver, with runClang\'s module and messages', async () => {
  const fresh = makeCompiler(platform);
  try {
    await fresh.load();
    await fresh.ahead(problem);
    const source = `${problem.starter}\n/* readied ahead */\n`;
    const got = await fresh.compile(problem, source, english);
    const want = await reference(source);
    assert.ok(got.ok && Buffer.from(got.wasm).equals(Buffer.from(want.wasm)), 'the same module');
    assert.ok(got.diagnostics.startsWith(want.text), 'the same messages first');
    const steps = got.phases.filter((p) => !/^compile /.test(p.name));
    assert.deepEqual(steps.map((p) => p.name), ['cc1', 'wasm-ld']);
  } finally {
    fresh.close();
  }
});

test('the same code asked for twice at once is compiled once', async () => {
  const source = `${solution}\n/* twice */\n`;
  const [a, b] = await Promise.all([1, 2].map(() => compiler.compile(problem, source, english)));
  const compiles = [a, b].filter((r) => r.phases.some((p) => p.name === 'cc1'));
  assert.equal(compiles.length, 1);
  assert.ok([a, b].some((r) => r.phases.some((p) => p.name === 'compile under way')));
  assert.ok(Buffer.from(a.wasm).equals(Buffer.from(b.wasm)));
});

test('warm-ups: after a verdict and a pause the last -cc1 and link run again, never while busy or after a compile ahead, and modules stay the same', async () => {
  const seen = [];
  const warming = makeCompiler({ ...platform, warmToolchain: true, phases: (list) => seen.push(...list.map((p) => p.name)) });
  const warmUps = () => seen.filter((n) => n === 'warm-up').length;
  try {
    // A compile ahead: the learner is about to press Run, nothing follows.
    warming.busy(true);
    await warming.compile(problem, `${solution}\n/* ahead */\n`, english);
    warming.busy(false);
    await sleep(2500);
    assert.equal(warmUps(), 0, 'no warm-up after a compile ahead');
    // A verdict: once idle a while, warm-ups come.
    warming.busy(true);
    warming.busy(false, true);
    for (let t = 0; t < 60 && warmUps() === 0; t++) await sleep(500);
    assert.ok(warmUps() > 0, 'a warm-up after a verdict');
    // Judging again: the next compile waits for at most the one in flight,
    // makes runClang's module, and no warm-up starts while busy.
    warming.busy(true);
    const source = `${solution}\n/* after warm-ups */\n`;
    const got = await warming.compile(problem, source, english);
    assert.ok(Buffer.from(got.wasm).equals(Buffer.from((await reference(source)).wasm)), 'the same module');
    const n = warmUps();
    await sleep(2500);
    assert.equal(warmUps(), n, 'none while busy');
  } finally {
    warming.close();
  }
});

// A compile worker that answers at once, its -cc1 and warm-ups taking
// times(k) ms for the k-th warm-up: warm-ups that gain nothing must stop,
// and later compiles on that worker must not start them again; warm-ups
// that keep gaining go on, to the cap.
function fakeWorker(warms, times, posted, cc1Ms) {
  let listener = null;
  const reply = (m) => setTimeout(() => listener?.(m), 0);
  return {
    onMessage(fn) { listener = fn; },
    onError() {},
    terminate() { listener = null; },
    post(m) {
      posted?.push(m.type);
      if (m.type === 'init') reply({ type: 'ready' });
      else if (m.type === 'plan') reply({ type: 'planned', id: m.id });
      else if (m.type === 'warm') {
        warms.push(m.id);
        reply({ type: 'warmed', id: m.id, ms: times(warms.length - 1) });
      } else if (m.type === 'compile') {
        const start = performance.timeOrigin + performance.now();
        reply({ type: 'result', id: m.id, ok: true, crashed: false, wasm: new Uint8Array([0, 97, 115, 109]),
          stderr: '', steps: [{ step: 'cc1', start, end: start + cc1Ms(), instantiate: 0 }] });
      }
    },
  };
}

function fakeCompiler(warms, times, posted, cc1Ms = () => 100) {
  const entries = new Map();
  return makeCompiler({
    startCompileWorker: () => fakeWorker(warms, times, posted, cc1Ms), clangUrl: 'fake', shimObject: new Uint8Array(), compilerVersion: 'fake',
    warmToolchain: true,
    cache: { get: async (k) => entries.get(k), put: async (k, v) => { entries.set(k, v); } },
  });
}

// Waits until no warm-up has come for a while.
async function quiet(warms) {
  for (let n = -1; n !== warms.length;) {
    n = warms.length;
    await sleep(2500);
  }
}

test('warm-ups that stop gaining stay stopped for that worker', async () => {
  const warms = [];
  // Noisy but no faster: they end once the rule applies.
  const fake = fakeCompiler(warms, (k) => (k % 2 ? 104 : 100));
  const verdict = async (source) => {
    fake.busy(true);
    await fake.compile(problem, source, english);
    fake.busy(false, true);
  };
  try {
    await verdict('int first;');
    await quiet(warms);
    assert.equal(warms.length, WARM_MIN, 'warm-ups that gain nothing end');
    await verdict('int second;');
    await sleep(2500);
    assert.equal(warms.length, WARM_MIN, 'no warm-ups after a later compile');
  } finally {
    fake.close();
  }
});

test('no instances are made ahead between a compile and the judging that follows it at once', async () => {
  const posted = [];
  const fake = fakeCompiler([], () => 100, posted);
  try {
    fake.busy(true);
    await fake.compile(problem, 'int compiled;', english);
    fake.busy(false);
    fake.busy(true);   // the run, at once
    await sleep(100);
    assert.ok(!posted.includes('prepare'), 'none while the run follows');
    fake.busy(false);
    await sleep(100);
    assert.ok(posted.includes('prepare'), 'made once idle');
  } finally {
    fake.close();
  }
});

test('a compile too long to repeat has no warm-ups, until a shorter one comes', async () => {
  const warms = [];
  let ms = 100;
  const fake = fakeCompiler(warms, () => 100, undefined, () => ms);
  const verdict = async (source) => {
    fake.busy(true);
    await fake.compile(problem, source, english);
    fake.busy(false, true);
  };
  try {
    await verdict('int quick;');   // warm-ups may come for this toolchain
    ms = 6000;
    await verdict('int slow;');    // before any did: the last compile is long
    await sleep(2500);
    assert.equal(warms.length, 0, 'none after a long compile');
    ms = 100;
    await verdict('int quick again;');
    await quiet(warms);
    assert.ok(warms.length > 0, 'after a short one');
  } finally {
    fake.close();
  }
});

test('warm-ups that keep gaining go on while idle, to the cap', async () => {
  const warms = [];
  const fake = fakeCompiler(warms, (k) => 1000 * 0.9 ** k);
  try {
    fake.busy(true);
    await fake.compile(problem, 'int gaining;', english);
    fake.busy(false, true);
    await quiet(warms);
    assert.equal(warms.length, WARM_MAX);
  } finally {
    fake.close();
  }
});

test('a warm-up source is compiled once the toolchain is here, then repeated while idle; not after a compile', async () => {
  const warms = [], posted = [];
  const fake = fakeCompiler(warms, () => 100, posted);
  try {
    fake.load();
    await fake.ahead(problem, { warmUp: Promise.resolve('int reference;') });
    assert.equal(posted.filter((t) => t === 'compile').length, 1, 'compiled before any compile was asked for');
    await quiet(warms);
    assert.equal(warms.length, WARM_MIN, 'then repeated, as after a verdict');
    assert.equal((await fake.compile(problem, 'int reference;', english)).cached, false, 'its output was dropped');
  } finally {
    fake.close();
  }
  const later = [], posted2 = [];
  const compiledFirst = fakeCompiler(later, () => 100, posted2);
  try {
    compiledFirst.busy(true);
    await compiledFirst.compile(problem, 'int mine;', english);
    compiledFirst.busy(false);
    await compiledFirst.ahead(problem, { warmUp: 'int reference;' });
    await sleep(2500);
    assert.equal(posted2.filter((t) => t === 'compile').length, 1, 'no warm-up compile after the learner\'s');
    assert.equal(later.length, 0, 'nor warm-ups before a verdict');
  } finally {
    compiledFirst.close();
  }
});

// A compile worker whose clang always crashes: the judge's line says so in
// the learner's language, the compile is tried once more without the
// vectoriser, and a crash is never cached.
test('a crashing compiler: one retry without the vectoriser, its note in either language, nothing cached', async () => {
  const compiles = [], entries = new Map();
  let listener = null;
  const crashing = makeCompiler({
    startCompileWorker: () => ({
      onMessage(fn) { listener = fn; },
      onError() {},
      terminate() { listener = null; },
      post(m) {
        if (m.type === 'init') setTimeout(() => listener?.({ type: 'ready' }), 0);
        else if (m.type === 'compile') {
          compiles.push(m.args);
          setTimeout(() => listener?.({ type: 'result', id: m.id, ok: false, crashed: true, wasm: null,
            stderr: 'LLVM ERROR: boom\n', notes: [['compile_crashed', 'RuntimeError: unreachable']], steps: [] }), 0);
        }
      },
    }),
    clangUrl: 'fake', shimObject: new Uint8Array(), compilerVersion: 'fake',
    cache: { get: async (k) => entries.get(k), put: async (k, v) => { entries.set(k, v); } },
  });
  try {
    const en = await crashing.compile(problem, 'int crash;', english);
    assert.equal(en.ok, false);
    assert.match(en.diagnostics, /LLVM ERROR: boom\n.*the compiler failed: RuntimeError: unreachable/s);
    assert.equal(compiles.length, 2, 'tried once more');
    assert.deepEqual(compiles[1], [...compiles[0], '-fno-vectorize', '-fno-slp-vectorize'], 'the retry, without the vectoriser');
    assert.equal(entries.size, 0, 'a crash is not cached');
    const zh = await crashing.compile(problem, 'int crash;', { ...english, say: (m, ...a) => pipeline.say(m, 'zh', ...a) });
    assert.match(zh.diagnostics, /编译器自身出错：RuntimeError: unreachable/);
  } finally {
    crashing.close();
  }
});

test('cancel() stops a compile under way: it rejects, its worker goes, and the next compile starts a fresh one', async () => {
  const started = [], terminated = [];
  const compiler = makeCompiler({
    startCompileWorker: () => {
      let listener = null;
      const n = started.length;
      started.push(n);
      return {
        onMessage(fn) { listener = fn; },
        onError() {},
        terminate() { terminated.push(n); },
        post(m) {
          if (m.type === 'init') setTimeout(() => listener?.({ type: 'ready' }), 0);
          // The first worker's compile never ends (a macro bomb); a later one's does.
          if (m.type === 'compile' && n > 0) setTimeout(() => listener?.({ type: 'result', id: m.id, ok: true, crashed: false,
            wasm: new Uint8Array([0, 97, 115, 109]), stderr: '', steps: [] }), 0);
        },
      };
    },
    clangUrl: 'fake', shimObject: new Uint8Array(), compilerVersion: 'fake',
    cache: { get: async () => undefined, put: async () => {} },
  });
  try {
    compiler.cancel(new Error('nothing to stop'));   // no compile: nothing happens
    assert.deepEqual(terminated, []);
    const hung = compiler.compile(problem, 'int bomb;', english);
    await new Promise((r) => setTimeout(r, 50));
    compiler.cancel(Object.assign(new Error('stopped'), { name: 'Cancelled' }));
    await assert.rejects(hung, { name: 'Cancelled' });
    assert.deepEqual(terminated, [0]);
    const next = await compiler.compile(problem, 'int fine;', english);
    assert.equal(next.ok, true);
    assert.equal(started.length, 2);
  } finally {
    compiler.close();
  }
});
