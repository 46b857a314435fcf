// compiler.mjs: the compile step of the wasm backend, seen from the judge's
// side. Keeps one compile worker (one toolchain, loaded once), sends it the
// command of wasm/compile.mjs, stops it at the time limit, and caches results
// by content hash so unchanged code is never compiled twice. No Node APIs:
// the platform passes in how to start a worker and where to cache.
import { SOURCE_NAME, clangCommand, cacheKey, linkNotes, parseDiagnostics, withNotes } from './compile.mjs';

// A compile that runs longer is stopped and is a CE, so a macro bomb cannot
// hang the judge. Longer than native's limit: clang as wasm is a few times
// slower, and a fresh worker's first compile slower still (the engine
// compiles the toolchain's code while it runs).
const FIRST_COMPILE_MS = 60000;
const COMPILE_MS = 30000;
const NO_VECTORIZE = ['-fno-vectorize', '-fno-slp-vectorize'];
// Warm-ups (compile_worker.mjs): once a toolchain has compiled, whenever the
// judge has been idle WARM_IDLE_MS, one after another (WARM_GAP_MS apart)
// while it stays idle, at most WARM_MAX in the toolchain's life, and only
// while they still get faster: from the WARM_MIN-th on, they end for good
// once the best of the last WARM_WINDOW is not 5% better than the best
// before them. V8 optimises clang's functions as they get hot, and Chromium
// 156 took ~15-20 runs of 49's solution's -cc1 to get there (3.0 s, then
// 0.4-0.75 s for runs 2-10, 0.15-0.3 s from run 12 on; Node 20 took 4),
// with single runs ±30% apart and no steady gain for several runs at a time:
// a rule of two slower runs in a row had ended them at about the sixth, at
// twice the settled time, and the window rule alone, with one lucky first
// run, at the fifth.
const WARM_IDLE_MS = 1500;
const WARM_GAP_MS = 100;
export const WARM_MAX = 24;
export const WARM_MIN = 12;
const WARM_WINDOW = 4;
// A compile longer than this is not repeated (a Run could wait behind it),
// until a shorter one comes; the first in a page is slow, since V8 compiles
// clang as it first runs.
const WARM_LONGEST_MS = 5000;
// A worker's clock has its own origin: phases are told in ms since the epoch.
const epoch = () => performance.timeOrigin + performance.now();

// platform: { startCompileWorker(), clangUrl, shimObject (bytes), cache: { get, put },
//             compilerVersion, warmToolchain (warm-ups while idle) }.
// onProgress({ loaded, total, cached }) for the first download (compile_worker.mjs).
export function makeCompiler(platform, onProgress) {
  let worker = null, ready = null, compiled = 0, nextId = 1;
  const waiting = new Map();

  function start() {
    const w = platform.startCompileWorker();
    worker = w;
    compiled = 0;
    // After a failure the next compile starts a fresh worker.
    const fail = (err) => {
      if (worker === w) stop();
      return err;
    };
    ready = new Promise((resolve, reject) => {
      w.onMessage((m) => {
        if (m.type === 'progress') onProgress?.({ loaded: m.loaded, total: m.total, cached: m.cached });
        else if (m.type === 'ready') resolve();
        else if (m.type === 'failed') reject(fail(new Error(`cannot load the C compiler: ${m.message}`)));
        else if (m.type === 'result' || m.type === 'warmed' || m.type === 'planned') waiting.get(m.id)?.(m);
      });
      w.onError((e) => {
        const err = fail(new Error(`the compile worker failed: ${e?.message ?? e}`));
        reject(err);
        for (const done of waiting.values()) done({ error: err });
      });
    });
    const loading = epoch();
    ready.then(() => platform.phases?.([{ name: 'toolchain load', start: loading, end: epoch() }]), () => {});
    w.post({ type: 'init', clang: platform.clangUrl });
    // An idle compile worker must not keep a Node process alive; a failed
    // load is reported to whoever waits for a compile, not as unhandled.
    ready.then(() => w.unref?.(), () => {});
    return ready;
  }

  function stop() {
    worker?.terminate();
    worker = null;
    ready = null;
    warms = null;   // a fresh toolchain starts cold; its first compile warms it
    settled = false;
    warming?.({ error: true });   // a warm-up in flight never answers now
  }

  // The warm-ups: one at a time, in the compile queue (a compile asked for
  // meanwhile waits for at most one -cc1 and link; a Run of unchanged code
  // does not wait), never while the judge is busy.
  let warmTimer = null, warming = null, busy = 0;
  let warms = null;   // this toolchain's warm-up times (ms), once it has compiled; null: none to run
  let settled = false;   // they stopped gaining
  let repeatable = false;   // the last compile is short enough to repeat
  function idleSoon(wait = WARM_IDLE_MS) {
    clearTimeout(warmTimer);
    if (busy || !warms || !repeatable || settled || warms.length >= WARM_MAX || !worker) return;
    warmTimer = setTimeout(() => {
      const w = worker;
      const mine = previous.then(() => (busy || worker !== w ? null : warmNow(w)));
      previous = mine.catch(() => {});
    }, wait);
    warmTimer.unref?.();
  }
  async function warmNow(w) {
    const id = nextId++;
    // Held (Node) while it runs: a compile asked for meanwhile waits for it.
    w.ref?.();
    const m = await new Promise((resolve) => {
      warming = resolve;
      waiting.set(id, resolve);
      w.post({ type: 'warm', id });
    });
    w.unref?.();
    warming = null;
    waiting.delete(id);
    if (m.error || m.ms === null) return;   // the worker failed (stop() follows), or nothing to repeat
    warms.push(m.ms);
    const n = warms.length - WARM_WINDOW;
    settled = warms.length >= WARM_MIN && Math.min(...warms.slice(n)) > 0.95 * Math.min(...warms.slice(0, n));
    platform.phases?.([{ name: 'warm-up', start: epoch() - m.ms, end: epoch() }]);
    idleSoon(WARM_GAP_MS);
  }

  // This compile (its -cc1 and link) is the one the warm-ups repeat, from its time on.
  function repeatFrom(r) {
    const cc1 = r.steps?.find((s) => s.step === 'cc1');
    if (cc1 && platform.warmToolchain) {
      repeatable = cc1.end - cc1.start < WARM_LONGEST_MS;
      if (repeatable) warms ??= [];
    }
  }

  // The warm-ups' start on a file like the learner's, before any compile
  // (compiler.ahead): its output is dropped, and a compile asked for
  // meanwhile waits for it. Skipped when a compile came first (it warms the
  // toolchain itself) or the judge is judging then (the warm-ups wait for
  // the learner's first compile, as they did before there was this one).
  async function warmFirst(problem, source, w) {
    const command = { ...clangCommand({ problem, source, name: SOURCE_NAME, shim: platform.shimObject, color: false }),
      name: SOURCE_NAME };
    const mine = previous.then(async () => {
      if (busy || compiled || worker !== w) return;
      const start = epoch();
      const r = await runClangNow(command);
      platform.phases?.([{ name: 'warm-up', start, end: epoch() }]);
      repeatFrom(r);
      idleSoon(WARM_GAP_MS);
    });
    previous = mine.catch(() => {});   // a failed worker is the next compile's to report
    return previous;
  }

  // Compiles run one after another (the worker holds one toolchain), and a
  // compile's clock starts when it does: several judged at once (a class)
  // never charge one file's compile time, or its timeout, to another.
  let previous = Promise.resolve();
  function runClang(command) {
    const mine = previous.then(() => runClangNow(command));
    previous = mine.catch(() => {});
    return mine;
  }

  // The names of a command's files that are the judge's, not the learner's.
  const judgeFiles = (command) => Object.keys(command.files).filter((n) => n !== command.name);

  // One compile in the worker, or a CE when it runs out of time.
  let compiling = 0;   // compiles in the worker now (cancel() stops them)
  async function runClangNow(command) {
    if (!worker) start();
    const w = worker;
    w.ref?.();
    compiling++;
    try {
      await ready;
      const id = nextId++;
      const limit = compiled++ === 0 ? FIRST_COMPILE_MS : COMPILE_MS;
      return await new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          stop();   // the next compile starts a fresh toolchain
          resolve({ ok: false, wasm: null, timedOut: true, stderr: '', notes: [['compile_out_of_time']] });
        }, limit);
        waiting.set(id, (m) => {
          clearTimeout(timer);
          waiting.delete(id);
          if (m.error) reject(m.error);
          else resolve(m);
        });
        w.post({ type: 'compile', id, args: command.args, files: command.files, shared: judgeFiles(command) });
      });
    } finally {
      compiling--;
      w.unref?.();
    }
  }

  // A compile and its cache entry; phases gets where its time went.
  async function build(problem, command, key, name, phases) {
    const clang = async (c) => {
      const begin = epoch();
      const r = await runClang({ ...c, name });
      phases.push({ name: 'compile worker', start: begin, end: epoch() });
      for (const s of r.steps ?? []) phases.push({ name: s.step, start: s.start, end: s.end, instantiate: s.instantiate, ahead: s.ahead, pch: s.pch });
      return r;
    };
    let r = await clang(command);
    repeatFrom(r);
    // The toolchain is an LLVM snapshot: an assertion in its loop
    // vectoriser has been seen to abort on correct code. The learner's
    // code is not at fault, so compile it again without that pass.
    if (r.crashed && !r.oom)
      r = await clang({ ...command, args: [...command.args, ...NO_VECTORIZE] });
    const notes = [...r.notes ?? [], ...r.ok ? [] : linkNotes(r.stderr, problem)];
    const entry = { ok: r.ok, wasm: r.ok ? new Uint8Array(r.wasm) : null, diagnostics: r.stderr, notes };
    // A timeout may not repeat on a quieter machine, nor a crash on
    // another toolchain: never cache those.
    const start = epoch();
    if (!r.timedOut && !r.crashed) await platform.cache.put(key, entry);
    phases.push({ name: 'compile cache', start, end: epoch() });
    return entry;
  }
  // Compiles under way by cache key: the same code asked for again (Run
  // while the page compiles it ahead) waits for that one.
  const making = new Map();

  return {
    // The judge is judging or compiling (on) or done (off): no warm-up
    // runs meanwhile. After a verdict (warm) the learner reads it before the
    // next edit, so warm-ups start once the judge has been idle a while;
    // after a compile ahead the learner is about to press Run, so they wait
    // for the next verdict.
    busy(on, warm = false) {
      busy += on ? 1 : -1;
      clearTimeout(warmTimer);
      // Idle now: the worker instantiates the toolchain for the next
      // compile. Not between a compile and the judging that follows it at
      // once (the page's Run compiles, then runs, which marks itself busy
      // before any timer fires): making its two instances then took the CPU
      // from the run (the page's judge call 190-215 -> 157-163 ms, edited).
      if (!busy) setTimeout(() => { if (!busy) worker?.post({ type: 'prepare' }); }, 0);
      if (!busy && warm) idleSoon();
    },
    // Load the toolchain now (the page shows progress while the learner reads).
    load() { return worker ? ready : start(); },
    // The learner has opened `problem` (the page): once the toolchain is
    // loaded, the driver is asked for the steps of its command line, so the
    // first compile of a toolchain loaded while the learner reads (a first
    // visit, a reload) runs only -cc1 and the link. Resolves when that is
    // done (at once without a worker, as after a failed load). The starter's
    // headers are not precompiled ahead: a fresh toolchain's first -cc1 with
    // a PCH was no faster, and as often slower (an A/B in headless Chromium).
    // warmUp: a source like the learner's (or a promise of one), which the
    // warm-ups start on at once where the platform warms the toolchain up:
    // a fresh toolchain's first -cc1 took ~3 s in Chromium, and later ones
    // 0.4-0.75 s until about the twelfth, and a learner reading the
    // statement gives it that time.
    async ahead(problem, { warmUp } = {}) {
      const w = worker;
      const command = { ...clangCommand({ problem, source: problem.starter, name: SOURCE_NAME,
        shim: platform.shimObject, color: false }), name: SOURCE_NAME };
      try {
        await ready;
      } catch {
        return;
      }
      if (!w || worker !== w) return;
      const id = nextId++;
      w.ref?.();
      await new Promise((resolve) => {
        waiting.set(id, resolve);
        w.post({ type: 'plan', id, args: command.args, files: command.files, shared: judgeFiles(command) });
      });
      waiting.delete(id);
      w.unref?.();
      if (warmUp === undefined || !platform.warmToolchain) return;
      let source;
      try {
        source = await warmUp;
      } catch {
        return;   // no file to warm up on: the first compile warms the toolchain
      }
      if (typeof source === 'string') await warmFirst(problem, source, w);
    },
    // { ok, wasm, diagnostics, messages, cached, ms, phases } for `source`
    // under the virtual file name `name`; diagnostics is the compiler's text
    // and the judge's notes after it, each told by say(message, ...args);
    // phases: [{ name, start, end, instantiate?, ahead?, pch? }] (ms since the epoch),
    // where the time went (ahead: that step's toolchain was instantiated while
    // idle; pch: the learner's headers came precompiled).
    async compile(problem, source, { name, color = false, say } = {}) {
      const t0 = performance.now();
      const phases = [];
      const start = epoch();
      const command = clangCommand({ problem, source, name, shim: platform.shimObject, color });
      const key = await cacheKey(command, platform.compilerVersion);
      let entry = await platform.cache.get(key), cached = true;
      phases.push({ name: 'compile cache', start, end: epoch() });
      if (!entry) {
        cached = false;
        const begin = epoch();
        let mine = making.get(key);
        if (mine) {
          entry = await mine;
          phases.push({ name: 'compile under way', start: begin, end: epoch() });
        } else {
          mine = build(problem, command, key, name, phases);
          making.set(key, mine);
          try {
            entry = await mine;
          } finally {
            making.delete(key);
          }
        }
      }
      const diagnostics = withNotes(entry.diagnostics, entry.notes, say);
      return { ...entry, diagnostics, messages: parseDiagnostics(diagnostics, name), cached,
        ms: performance.now() - t0, phases };
    },
    // Stop the compiles under way (the learner pressed Stop during a macro
    // bomb, say): the worker goes, with its toolchain, and each compile
    // rejects with `error`; the next compile starts a fresh worker.
    cancel(error) {
      if (!compiling) return;
      const waiters = [...waiting.values()];
      stop();
      for (const done of waiters) done({ error });
    },
    close() {
      stop();
    },
  };
}
