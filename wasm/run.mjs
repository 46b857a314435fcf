// run.mjs: the judge's side of a wasm judging run, the counterpart of
// run_calls() in libjudge/native.c. It checks the learner module (imports on
// the allow-list, memory within the cap), starts a fresh run worker for it,
// hands it every request, keeps the clock (the worker is terminated at the
// limit), and turns what the worker reports into replies and faults for the
// session. The verdicts are the C judge's; the only judgement made here is
// naming how a run ended (a trap, an exit, a timeout), as native.c does with
// signals. No Node APIs: the platform passes in how to start a worker.
import { ALLOWED_IMPORTS } from './wasi.mjs';
import { importedMemory } from './wasm_imports.mjs';
import { LINKED_STACK_BYTES } from './compile.mjs';

const STARTUP_MS = 2000;   // the learner's constructors, as natively
const BOOT_MS = 20000;     // the worker itself starting: the judge's time, not the learner's
const PAGE = 65536;
const SLACK_BYTES = 1 << 20;   // the C library's own data and malloc's bookkeeping
const SYNC_COMPILE_MAX = 4 << 20;   // larger: compiled off the page's main thread, which it would hold up

// The cap on the learner module's memory, in pages: the problem's limit for
// the learner's own data (static, heap), plus what is not theirs, as native.c
// counts it: the stack (linked first, 8 MiB, and its guard) and one call's buffers (the
// largest request, as the runner holds one call at a time).
function memoryCap(problem, largestRequest) {
  return Math.ceil((LINKED_STACK_BYTES + problem.limits.memory_mb * (1 << 20) + largestRequest + SLACK_BYTES) / PAGE);
}

export class Cancelled extends Error {
  constructor() {
    super('the run was cancelled');
    this.name = 'Cancelled';
  }
}

// Why a run ended is told by the C judge, in the report's language: a fault
// here is [verdict, message, args], a detail_ message of
// libjudge/messages.json and its arguments (strings, or { msg } for a
// message of its own). The same fault has the same words as natively.

// A trap's message (the engine's words, which differ between browsers)
// told the way native.c tells a signal: a message of the judge's, with the
// engine's words only for a trap it does not know.
function trapStory(message) {
  const stories = [
    [/out of bounds|offset is out/i, 'detail_trap_bounds'],
    [/unreachable/i, 'detail_trap_unreachable'],
    [/divide by zero|division by zero/i, 'detail_trap_div_zero'],
    [/remainder by zero/i, 'detail_trap_rem_zero'],
    [/integer overflow/i, 'detail_trap_overflow'],
    [/unrepresentable|float.*int|invalid conversion/i, 'detail_trap_conversion'],
    [/call stack/i, 'detail_trap_stack'],
    [/table|indirect call|signature|null function/i, 'detail_trap_pointer'],
  ];
  return stories.find(([re]) => re.test(message))?.[1];
}

// A worker's report of how the run ended: [verdict, message, args].
function classify(f, problem) {
  const when = f.started ? '' : { msg: 'detail_before_start' };
  switch (f.kind) {
  case 'exit':
    return ['RE', 'detail_exit', [String(f.code), when, problem.function]];
  case 'oom':
    return ['MLE', 'detail_alloc_failed', [String(f.bytes), String(problem.limits.memory_mb)]];
  case 'flood':
    return ['OLE', 'detail_printed_too_much', [String(problem.limits.output_kb)]];
  case 'null':
    return ['RE', 'detail_null_at', [String(f.line), String(f.column), when]];
  case 'zero_page':
    return ['RE', 'detail_zero_page', [String(f.address)]];
  case 'stray':
    return ['RE', 'detail_stray', [String(f.address), when]];
  case 'host':
    return ['RE', 'detail_host', [String(f.call), String(f.reason), when]];
  case 'trap':
    if (f.overflowed) return ['RE', 'detail_stack_overflow_trap', [when]];
    return trapStory(f.message) ? ['RE', trapStory(f.message), [when]] : ['RE', 'detail_trap_other', [String(f.message), when]];
  default:
    return null;
  }
}

// Refuse a module the worker must not even start: [verdict, message, args] or null.
export function checkModule(module, bytes, problem, maxPages) {
  for (const imp of WebAssembly.Module.imports(module)) {
    const name = `${imp.module}.${imp.name}`;
    const kindOk = name === 'env.memory' ? imp.kind === 'memory' : imp.kind === 'function';
    if (!ALLOWED_IMPORTS.has(name) || !kindOk) return ['RE', 'detail_import_refused', [name, imp.kind]];
  }
  const mem = importedMemory(bytes);
  if (!mem || mem.shared) return ['RE', 'detail_no_memory_import', []];
  if (mem.min > maxPages)
    return ['MLE', 'detail_static_data', [String(Math.ceil((mem.min * PAGE - LINKED_STACK_BYTES) / (1 << 20))),
      String(problem.limits.memory_mb)]];
  return null;
}

const epoch = () => performance.timeOrigin + performance.now();

// Fresh run workers, one started ahead of its run: a worker's start (its
// modules loaded, its port open) is then paid while the learner edits, not
// between Run and the verdict. Each is still used for one run only. The
// next one is started only when asked (after a run), never while a run is
// timed. start(): the platform's startRunWorker.
export function runWorkers(start) {
  let spare = null;
  // The last correctness run's memory cap (pages): a spare makes a memory
  // with it ahead (run_worker.mjs), which the next run takes if its cap is
  // the same. A speed run's cap (its far larger tensors) is not kept: the
  // run after one is a correctness run again.
  let cap = null;
  // A worker that fails before its run has handlers keeps the error for them.
  const early = (w) => {
    let handler = null, failure = null;
    w.onError((e) => { if (handler) handler(e); else failure ??= e; });
    w.unref?.();   // an idle spare never keeps a Node process alive
    return { ...w, onError: (fn) => { handler = fn; if (failure) fn(failure); } };
  };
  return {
    // A worker for a run whose memory cap is `maximum` pages; keep: whether
    // the spare started next makes its memory for that cap.
    take(maximum, keep = true) {
      const w = spare ?? early(start());
      spare = null;
      if (keep) cap = maximum;
      w.ref?.();
      return w;
    },
    warm() {
      if (spare) return;
      spare = early(start());
      // As small as any module's memory can be (the stack): a job grows it to its own.
      if (cap) spare.post({ type: 'memory', memory: { initial: LINKED_STACK_BYTES / PAGE, maximum: cap } });
    },
    close() { spare?.terminate(); spare = null; },
  };
}

// The learner's module, compiled, synchronously where that is allowed: an
// asynchronous compile's first step waits for one of V8's background
// threads, which after a compile are busy optimising clang (an edited Run's
// module waited 8-90 ms for one in Chromium, and took 0-11 ms compiled
// here). A page may be refused a large module on its main thread (Chromium
// before 114: over 4 KB): that one, and any over SYNC_COMPILE_MAX, is
// compiled asynchronously.
async function compileModule(wasm) {
  if (wasm.byteLength <= SYNC_COMPILE_MAX) {
    try {
      return new WebAssembly.Module(wasm);
    } catch (e) {
      if (e instanceof WebAssembly.CompileError) throw e;
    }
  }
  return WebAssembly.compile(wasm);
}

// Run every call of `session` against the learner module `wasm` (bytes);
// guard: wasm/guard.wat's compiled module, for the worker.
// A paced session's calls wait, each, for the reply before it to be handed
// in (the session times the core then: judge.h, judge_session_paced), and
// its request comes with that go-ahead.
// startWorker() gives { post(data, transfer), onMessage(fn), onError(fn),
// terminate() } for a fresh wasm/run_worker.mjs. Returns { done, cancel }:
// done resolves when the session has all its replies and faults, and rejects
// only for a fault of the judge's own (or Cancelled). phases, when given,
// gets where the time went: [{ name, start, end }] in ms since the epoch.
export function runSession({ session, problem, wasm, guard, startWorker, phases = [] }) {
  let cancelled = false;
  let cancel = () => { cancelled = true; };
  const since = (name, start, end = epoch()) => phases.push({ name, start, end });
  const compiling = epoch();
  // The worker gets the compiled module, not the bytes to compile again.
  const done = compileModule(wasm).then((module) => new Promise((resolve, reject) => {
    if (cancelled) throw new Cancelled();
    since('module compile', compiling);
    let judging = epoch();
    const calls = session.calls, paced = session.paced;
    // A paced session's requests go one at a time, each with its go-ahead:
    // then neither side holds every call's tensors at once (a speed case's
    // are tens of MB a call).
    const requests = Array.from({ length: paced ? Math.min(1, calls) : calls }, (_, k) => session.request(k));
    const largest = Math.max(0, ...Array.from({ length: calls }, (_, k) => session.requestLength(k)));
    const maxPages = memoryCap(problem, largest);
    const refused = checkModule(module, wasm, problem, maxPages);
    if (refused) {
      session.fault(0, ...refused);
      resolve();
      return;
    }
    since('requests', judging);
    const cap = problem.limits.output_kb * 1024;
    const output = [];
    let outLen = 0, next = 0, started = false, timer = null, finished = false;
    const posted = epoch();
    const worker = startWorker(maxPages);
    let replying = 0;

    const finish = (error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      worker.terminate();
      const all = new Uint8Array(outLen);
      let at = 0;
      for (const chunk of output) { all.set(chunk, at); at += chunk.length; }
      if (error) { reject(error); return; }
      session.output(all);
      phases.push({ name: 'replies', start: posted, end: posted + replying });
      resolve();
    };
    const deadline = (ms, fn) => {
      clearTimeout(timer);
      timer = setTimeout(fn, ms);
    };
    cancel = () => finish(new Cancelled());
    let ends = 0;   // the calls' deadline, ms since the epoch
    const tooLong = () => {
      session.fault(next, 'TLE', 'detail_still_running', [String(problem.limits.time_ms)]);
      finish();
    };

    deadline(BOOT_MS, () => finish(new Error(`the run worker did not start within ${BOOT_MS / 1000} s`)));
    worker.onError((e) => finish(new Error(`the run worker failed: ${e?.message ?? e}`)));
    worker.onMessage((m) => {
      if (finished) return;
      switch (m.type) {
      case 'loaded':
        // The job's copy to the worker (structured clone), then the
        // learner's module instantiated there.
        since('job message', posted, m.got);
        phases.push({ name: 'module instantiate', start: m.got, end: m.at, ahead: m.ahead });
        deadline(STARTUP_MS, () => {
          session.fault(0, 'TLE', 'detail_no_start', [String(STARTUP_MS)]);
          finish();
        });
        break;
      case 'hello':
        started = true;
        ends = epoch() + problem.limits.time_ms;
        deadline(problem.limits.time_ms, tooLong);
        break;
      case 'out': {
        const keep = m.bytes.subarray(0, Math.max(0, cap - outLen));
        output.push(keep);
        outLen += keep.length;
        break;
      }
      case 'reply': {
        const t = epoch();
        if (m.coreMs != null) session.coreTimed(m.k, m.coreMs);
        session.reply(m.k, m.bytes);
        replying += epoch() - t;
        since('calls', m.start, m.end);
        next = m.k + 1;
        if (paced && next < calls) {
          // Making the next call's inputs is the judge's time, not the
          // learner's, as in native.c's run_calls (the core's timing, in
          // the worker here, is still counted: the budget's fixed part
          // covers it).
          const made = epoch();
          const request = session.request(next);
          ends += epoch() - made;
          deadline(ends - epoch(), tooLong);
          worker.post({ type: 'next', request }, [request.buffer]);
        }
        break;
      }
      case 'fault': {
        const fault = classify({ ...m, started: m.started && started }, problem);
        if (!fault) { finish(new Error(`the run worker failed: ${m.message}`)); break; }
        session.fault(m.k, ...fault);
        finish();
        break;
      }
      case 'done':
        finish();
        break;
      default:
        finish(new Error(`the run worker said something unknown: ${m.type}`));
      }
    });
    const pages = importedMemory(wasm).min;
    // The requests are each its own copy (session.request), so they are
    // handed over, not copied again: problem 49's 1.6 MB took 25-60 ms of a
    // verdict to clone in Chromium 156 (the `job message` phase; 2-8 ms now).
    worker.post({
      module, guard, fn: problem.function, calls, requests, paced, outputCap: cap, wire: session.core.wire,
      // A paced session's core is timed in the worker, on the learner's thread.
      core: paced ? { module: session.core.module, key: String(problem.id) } : null,
      memory: { initial: pages, maximum: maxPages },
    }, requests.map((r) => r.buffer));
  }));
  return { done, cancel: () => cancel() };
}

// The fresh run of a session (judge.h): a wrong case no mistake explains,
// again alone in a fresh worker, once the session's own calls have all run.
// Returns { done, cancel } as runSession does.
export function runFresh({ session, problem, wasm, guard, startWorker, phases }) {
  const fresh = session.fresh();
  if (!fresh) return { done: Promise.resolve(), cancel() {} };
  return runSession({ session: fresh, problem, wasm, guard, startWorker, phases });
}

// The speed runs of a session that asked for them (judge.h, "speed"), once
// its own calls have all run: the same module in a fresh worker, with the
// speed runs' own time limit. Returns { done, cancel } as runSession does.
export function runSpeed({ session, problem, wasm, guard, startWorker, phases }) {
  const speed = session.speed();
  if (!speed) return { done: Promise.resolve(), cancel() {} };
  const limits = { ...problem.limits, time_ms: speed.timeMs };
  return runSession({ session: speed, problem: { ...problem, limits }, wasm, guard, startWorker, phases });
}
