// compile_worker.mjs: @yowasp/clang (clang and wasm-ld built as wasm) in a
// worker of its own, so a compile never blocks the page and a runaway one
// (a macro bomb) can be stopped by terminating the worker. Messages:
//   in:  { type: 'init', clang }            the URL of @yowasp/clang's bundle.js
//        { type: 'compile', id, args, files, shared }   shared: the names in
//            files that are the judge's, not the learner's (the shim, the prototype)
//        { type: 'plan', id, args, files, shared }   a compile to come: ask the driver for its steps now
//        { type: 'warm', id }                  run the last compile's -cc1 and link again, output dropped
//        { type: 'prepare' }                   the judge is idle: precompile the last file's headers,
//            instantiate the toolchain ahead
//   out: { type: 'progress', loaded, total, cached }  the toolchain's first download, in bytes
//            crossing the network; when none did, bytes read, cached: from a cache
//        { type: 'ready' } | { type: 'failed', message }
//        { type: 'result', id, ok, crashed, oom, wasm, stderr, notes, steps }   crashed: clang itself failed
//            (oom: for want of memory);
//            notes: the judge's own lines to add, as [message of messages.json, ...its arguments];
//            steps: [{ step, start, end, instantiate, ahead, pch }] (ms since the epoch; instantiate:
//            how much of it was instantiating the toolchain; ahead: its instance was made ahead;
//            pch: the learner's headers came precompiled)
//        { type: 'warmed', id, ms }            ms: that -cc1's time, or null when there was none
//        { type: 'planned', id }               that plan is done
import { workerPort } from './worker_port.mjs';
import { OUTPUT, leadingHeaders } from './compile.mjs';

const port = await workerPort();
let runClang = null, runLLVM = null;

// Every tool run instantiates the toolchain afresh (a WASI command's globals
// cannot be reset, so an instance is never run twice): how long that takes
// is counted here, to tell it from the tool's own work.
let instantiating = 0;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (source, imports) => {
  const t0 = performance.now();
  try {
    const spare = await spareFor(source, imports);
    if (spare) return spare;
    const made = await instantiate.call(WebAssembly, source, imports);
    seen(source, imports, made);
    return made;
  } finally {
    instantiating += performance.now() - t0;
  }
};

// Instantiating the toolchain (its 18 MB memory, 9 MB of data, and the
// garbage collection the last run's memory then costs) takes 15-45 ms, twice
// per edited compile. So while the judge is idle ('prepare') instances are
// made ahead, and a tool run is handed one instead of waiting for a new one.
// It is the very instance the run would make: the bundle's big module imports
// only the exports of a small module with no imports (the WASI adapter's
// table, filled in later by the run's own fix-up module), and neither has a
// start function, so nothing of a run is in them yet. Which of the bundle's
// modules those are, and how one's exports feed the other's imports, is
// learnt from the first run; a run that does not match takes no spare.
const SPARES = 2;   // an edited compile's -cc1 and wasm-ld
let shape = null;   // { table, main, links: [[module, name, export]] }
let lastTable = null;   // { module, instance }: the last instance of a module without imports
const spares = [];      // [{ table, main }]
let making = null, handed = null, running = 0, used = 0;   // used: spares run so far

function seen(source, imports, instance) {
  if (!(source instanceof WebAssembly.Module)) return;
  if (imports === undefined && WebAssembly.Module.imports(source).length === 0) {
    lastTable = { module: source, instance };
    return;
  }
  const table = lastTable;
  lastTable = null;
  if (shape || !table) return;
  const exported = new Map(Object.entries(table.instance.exports).map(([name, v]) => [v, name]));
  const links = WebAssembly.Module.imports(source).map(({ module, name }) =>
    [module, name, exported.get(imports?.[module]?.[name])]);
  if (links.length && links.every((l) => l[2] !== undefined)) shape = { table: table.module, main: source, links };
}

async function spareFor(source, imports) {
  if (shape && source === shape.table && imports === undefined) {
    if (!spares.length && making) await making.catch(() => {});   // a failed one: instantiate as always
    handed = spares.shift() ?? null;
    return handed?.table ?? null;
  }
  const mine = handed;
  handed = null;
  const linked = mine && source === shape.main &&
    shape.links.every(([m, n, e]) => imports?.[m]?.[n] === mine.table.exports[e]);
  if (!linked) return null;
  used++;
  return mine.main;
}

async function makeSpare() {
  const table = await instantiate.call(WebAssembly, shape.table);
  const imports = {};
  for (const [m, n, e] of shape.links) (imports[m] ??= {})[n] = table.exports[e];
  spares.push({ table, main: await instantiate.call(WebAssembly, shape.main, imports) });
}

// Between tool runs only: a spare made while one runs would delay it.
async function prepare() {
  if (wanted && !running) await buildHeaders();
  while (shape && !making && !running && spares.length < SPARES) {
    making = makeSpare();
    try {
      await making;
    } catch {
      return;   // out of memory, say: runs instantiate as they always did
    } finally {
      making = null;
    }
  }
}

const now = () => performance.timeOrigin + performance.now();

// The bundle hands WebAssembly.compileStreaming a Response of its own (to
// count the bytes), which has no URL, so a browser never keeps the compiled
// toolchain in its code cache and compiles 75 MB again on every visit
// (FIELD-NOTES). So each .wasm the bundle fetches is compiled from the
// browser's own response, and the bundle's copy is only read, for its
// progress. The bundle fetches and compiles its modules one at a time.
//
// The toolchain's files are read from the HTTP cache first (Chromium keeps
// the compiled code only for a module compiled from there), then from Cache
// Storage (the page's offline layer keeps them there), and only then from
// the network, and never through a service worker: through one, the 105 MB
// took ~4-5 s in Chromium instead of ~2 s (web/README.md). Returns what
// crossed the network so far: { total } (the Content-Lengths: the sizes the
// server sent, Brotli), and whether anything came from a cache.
function fetchFromTheBrowser() {
  const fetch0 = globalThis.fetch, compile0 = WebAssembly.compileStreaming;
  const wire = { total: 0, cached: false };
  if (typeof fetch0 !== 'function' || typeof compile0 !== 'function') return wire;
  let compiling = null;
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input, location.href).href;
    if (!/\.(wasm|tar)$/.test(new URL(url).pathname)) return fetch0(input, init);
    let r = await fetch0(url, { cache: 'only-if-cached', mode: 'same-origin' }).catch(() => null);
    if (!r?.ok) r = typeof caches === 'object' ? await caches.match(url).catch(() => null) : null;
    if (r) wire.cached = true;
    else {
      r = await fetch0(input, init);
      if (!r.ok) return r;
      wire.total += Number(r.headers.get('content-length')) || 0;
    }
    if (!url.endsWith('.wasm')) return r;
    const copy = r.clone();
    compiling = compile0.call(WebAssembly, r);
    return copy;
  };
  WebAssembly.compileStreaming = async (source) => {
    const mine = compiling;
    compiling = null;
    if (!mine) return compile0.call(WebAssembly, source);
    const reader = (await source).body.getReader();
    while (!(await reader.read()).done) { /* counted by the bundle as it passes */ }
    return mine;
  };
  return wire;
}

async function init(url) {
  try {
    // In Node the bundle reads files and compiles their bytes.
    const wire = typeof process !== 'object' ? fetchFromTheBrowser() : { total: 0, cached: false };
    ({ runClang, runLLVM } = await import(url));
    // Fetch and compile the toolchain now, with progress (a compile passed
    // fetchProgress ignores it: FIELD-NOTES). The bundle counts decoded
    // bytes: their share of what crossed the network is told, from the
    // first bytes on (by then it is known where they come from).
    await runClang(null, {}, {
      fetchProgress: ({ totalLength: total, doneLength: loaded }) => {
        if (!loaded) return;
        if (wire.total) port.post({ type: 'progress', loaded: Math.round((loaded / total) * wire.total), total: wire.total });
        else port.post({ type: 'progress', loaded, total, cached: wire.cached });
      },
    });
    port.post({ type: 'ready' });
  } catch (e) {
    port.post({ type: 'failed', message: String(e?.message ?? e) });
  }
}

// What `clang` does with a command line is the same for every source: ask
// the driver once (`-###`) for its steps, then run them directly, so a
// compile instantiates the toolchain for -cc1 and wasm-ld only, not for the
// driver too. Used only when the driver's answer is exactly the steps
// expected (the learner's -cc1, then the link); anything else (a driver
// warning, another layout) goes through runClang as it is.
const plans = new Map();    // JSON(args) -> Promise of { learner, link } | null

const HEADER = /^(clang version |Target: |Thread model: |InstalledDir: |Build config: )/;

// One line of `clang -###`: the arguments, each quoted, backslash escapes.
function unquote(line) {
  const args = [];
  for (const m of line.matchAll(/ "((?:[^"\\]|\\.)*)"/g)) args.push(m[1].replace(/\\(.)/g, '$1'));
  return args[0] === '' ? args.slice(1) : args;
}

// The plan for a command line, asked for once: a compile that comes while
// it is being asked for (compiler.ahead) waits for that answer.
function plan(args, files, shared) {
  const key = JSON.stringify(args);
  if (!plans.has(key)) plans.set(key, askDriver(args, files, shared));
  return plans.get(key);
}

async function askDriver(args, files, shared) {
  let text = '', p = null;
  const keep = (bytes) => { if (bytes) text += new TextDecoder().decode(bytes); };
  try {
    await runLLVM(['clang', '-###', ...args], files, { stdout: keep, stderr: keep });
    const lines = text.split('\n').filter((l) => l !== '' && l !== ' (in-process)');
    if (lines.every((l) => HEADER.test(l) || l.startsWith(' "'))) {
      const steps = lines.filter((l) => l.startsWith(' "')).map(unquote);
      const cc1 = steps.filter((s) => s[1] === '-cc1');
      const link = steps.filter((s) => s[0] === 'wasm-ld');
      if (link.length === 1 && cc1.length === 1 && !shared.includes(cc1[0].at(-1)) && steps.length === 2 && steps[1] === link[0])
        p = { learner: cc1[0], link: link[0] };
    }
  } catch {
    p = null;   // the driver refused the line: runClang says why, in its words
  }
  return p;
}

// The learner's system headers, precompiled. Most files begin with the same
// few #include lines, and in a fresh page parsing those headers is a good
// part of the learner's -cc1. So for a file that begins with includes of
// headers compile.mjs lists (leadingHeaders), the judge's prototype and those
// headers are compiled once into a PCH, while the judge is idle after the
// first compile that lacked it, and later -cc1 runs load it in their place
// (-include-pch for -include of the prototype: the same declarations in the
// same order, and the file's own #include lines find their headers already
// included). The object is the same. So are the messages, unless one points
// outside the learner's file (its "In file included from" line would name
// the PCH's header, not the learner's line): then that -cc1 runs again
// without the PCH, and its answer is the one kept.
const PCH_DIR = 'judge-pch', PCH_FILE = 'headers.pch', PCH_HEADER = 'judge_headers.h';
const PCH_KEPT = 8;
const pchs = new Map();   // JSON(the PCH's -cc1 and the files it reads) -> bytes | null (does not build)
let wanted = null;        // { key, cmd, files }: the PCH the last compile lacked

function precompiled(learner, files, shared) {
  // In colour clang highlights a message's code by lexing it again, and with a
  // PCH keywords lost their colour (seen on the corpus): colour goes without.
  if (learner.includes('-fcolor-diagnostics')) return null;
  const name = learner.at(-1), headers = leadingHeaders(files[name]);
  const at = learner.indexOf('-include'), o = learner.indexOf('-o'), main = learner.indexOf('-main-file-name');
  if (!headers.length || at < 0 || learner.indexOf('-include', at + 1) >= 0 || !shared.includes(learner[at + 1]) ||
      o < 0 || main < 0 || !learner.includes('-emit-obj') || learner.slice(-3).join(' ') !== `-x c ${name}`) return null;
  const path = `/${PCH_DIR}/${PCH_FILE}`;
  // Named after its own header, so files of other names share it.
  const cmd = learner.map((a, i) => (a === '-emit-obj' ? '-emit-pch' : i === o + 1 ? path : i === main + 1 ? PCH_HEADER : a));
  cmd.splice(-3, 3, '-x', 'c-header', PCH_HEADER);
  const text = headers.map((h) => `#include <${h}>\n`).join('');
  return {
    key: JSON.stringify({ cmd, files: [[PCH_HEADER, text], [learner[at + 1], files[learner[at + 1]]]] }),
    text,
    build: { cmd, files: { ...files, [PCH_HEADER]: text } },
    use: [...learner.slice(0, at), '-include-pch', path, ...learner.slice(at + 2)],
  };
}

// Every message of a -cc1 run is located in the learner's file: none names a
// header, where the PCH's include chain would show instead of the file's.
function onlyInTheFile(text, name) {
  return text.replace(/\x1b\[[0-9;]*m/g, '').split('\n').every((l) =>
    !/^In file included from |(?:^|: )(?:fatal error|error|warning|note|remark): /.test(l) || l.startsWith(`${name}:`));
}

// While idle: the PCH the last compile lacked.
async function buildHeaders() {
  const w = wanted;
  wanted = null;
  if (pchs.has(w.key)) return;
  let bytes = null, said = false;
  const quiet = (b) => { if (b?.length) said = true; };
  running++;
  try {
    const built = await runLLVM(w.cmd, w.files, { stdout: quiet, stderr: quiet, decodeASCII: false });
    bytes = said ? null : built[PCH_DIR]?.[PCH_FILE] ?? null;
  } catch {
    /* headers that do not precompile are compiled with the file, as before */
  } finally {
    running--;
  }
  pchs.set(w.key, bytes);
  for (const k of pchs.keys()) if (pchs.size > PCH_KEPT) pchs.delete(k);
}

// The learner's -cc1: with the PCH when there is one and its messages are
// the same as without, else as the driver said.
async function learnerStep(p, files, shared, options, step, steps, stderr) {
  const h = precompiled(p.learner, files, shared), pch = h && pchs.get(h.key);
  if (pch) {
    // The PCH names the headers it was made from: they must be there.
    const input = { ...files, [PCH_HEADER]: h.text, [PCH_DIR]: { [PCH_FILE]: pch } };
    const chunks = [], keep = (b) => { if (b) chunks.push(b.slice()); };
    let out = null, failed = null;
    try {
      out = await step('cc1', h.use, input, { ...options, stdout: keep, stderr: keep });
    } catch (e) {
      failed = e;
    }
    const text = chunks.map((c) => new TextDecoder().decode(c)).join('');
    if (onlyInTheFile(text, p.learner.at(-1)) && (!failed || typeof failed.code === 'number') &&
        !/Assertion failed|PLEASE submit a bug report|LLVM ERROR/.test(text)) {
      steps.at(-1).pch = true;
      last = { cmd: h.use, files: input };
      for (const c of chunks) stderr(c);
      if (failed) throw failed;
      delete out[PCH_DIR];
      delete out[PCH_HEADER];
      return out;
    }
    steps.at(-1).step = 'cc1 with PCH, dropped';
  }
  last = { cmd: p.learner, files };
  if (h && !pchs.has(h.key)) wanted = { key: h.key, ...h.build };
  return step('cc1', p.learner, files);
}

async function runPlan(p, files, shared, options, steps, stderr) {
  const step = async (name, cmd, input, opts = options) => {
    const start = now(), before = instantiating, spent = used;
    try {
      return await runLLVM(cmd, input, opts);
    } finally {
      steps.push({ step: name, start, end: now(), instantiate: instantiating - before, ahead: used > spent });
    }
  };
  const out = await learnerStep(p, files, shared, options, step, steps, stderr);
  lastLink = { cmd: p.link, files: out };
  return step('wasm-ld', p.link, out);
}

// V8 runs the toolchain first as baseline code and optimises its functions
// as they get hot, so the first compiles in a page are up to twice as slow
// as later ones. A warm-up runs the last compile's -cc1 and link again while
// the judge has nothing to do, so the next edit finds more of clang and
// wasm-ld optimised: -cc1 is where the time goes, but the link, run once a
// compile, took 2-3x its settled ~70 ms for the first ten compiles in
// Chromium 156. Its output and messages are dropped.
let last = null;       // { cmd, files } of the last planned compile's -cc1
let lastLink = null;   // and of the last link
async function warm({ id }) {
  let ms = null;
  running++;
  if (last) {
    const t0 = performance.now();
    const dropped = { stdout: () => {}, stderr: () => {}, decodeASCII: false };
    try {
      await runLLVM(last.cmd, last.files, dropped);
    } catch {
      /* a file that does not compile warms the toolchain just as well */
    }
    try {
      if (lastLink) await runLLVM(lastLink.cmd, lastLink.files, dropped);
    } catch {
      /* nor does a link that fails */
    }
    ms = performance.now() - t0;
  }
  running--;
  port.post({ type: 'warmed', id, ms });
  prepare();   // still idle: the next run's instances, made now
}

async function compile({ id, args, files, shared = [] }) {
  const chunks = [];
  const stderr = (bytes) => { if (bytes) chunks.push(new TextDecoder().decode(bytes)); };
  const options = { stdout: stderr, stderr, decodeASCII: false };
  const steps = [];
  let ok = true, wasm = null, crashed = false, oom = false;
  const notes = [];
  running++;
  try {
    const start = now(), before = instantiating, asked = !plans.has(JSON.stringify(args));
    const p = await plan(args, files, shared);
    if (asked) steps.push({ step: 'driver', start, end: now(), instantiate: instantiating - before });
    const out = p ? await runPlan(p, files, shared, options, steps, stderr)
      : await runClang(['clang', ...args], files, options);
    wasm = out[OUTPUT]?.slice() ?? null;   // its own buffer, to transfer
  } catch (e) {
    // A failed compile throws Exit with a code; anything else is the
    // compiler crashing, which the learner sees as a compile error too.
    ok = false;
    crashed = typeof e?.code !== 'number' || /Assertion failed|PLEASE submit a bug report|LLVM ERROR/.test(chunks.join(''));
    // Out of memory (a macro bomb): the learner's to hear of, in words, and
    // not worth a second compile as a crash is (compiler.mjs).
    oom = /LLVM ERROR: out of memory/.test(chunks.join(''));
    if (oom) notes.push(['compile_out_of_memory']);
    else if (crashed) notes.push(['compile_crashed', String(e?.message ?? e)]);
  }
  if (ok && !wasm) { ok = false; notes.push(['compile_no_module']); }
  running--;
  port.post({ type: 'result', id, ok, crashed, oom, wasm, stderr: chunks.join(''), notes, steps }, wasm ? [wasm.buffer] : []);
}

// A compile to come (compiler.ahead): its command line's plan, now.
async function planAhead({ id, args, files, shared }) {
  running++;
  await plan(args, files, shared);
  running--;
  port.post({ type: 'planned', id });
}

port.listen((m) => {
  if (m.type === 'init') init(m.clang);
  else if (m.type === 'compile') compile(m);
  else if (m.type === 'plan') planAhead(m);
  else if (m.type === 'warm') warm(m);
  else if (m.type === 'prepare') prepare();
});
