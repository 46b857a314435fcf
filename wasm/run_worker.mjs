// run_worker.mjs: the learner's side of a wasm judging run, in a worker of its
// own (a Node worker_thread or a page's module Worker), which the main side
// terminates at the time limit. The job runner.c does natively: lay out each
// request's buffers in the learner module's memory exactly as the request
// says (guards included), call the function, send every buffer back. It
// decides nothing and never sees an expected output; it reports what happened
// (a reply, a trap, an exit, an allocation that failed, output) and the main
// side (wasm/run.mjs) turns that into verdicts. Wire format: libjudge/judge.h.
import { makeWasi, Exit, Unwind, HostFault } from './wasi.mjs';
import { STACK_GUARD_BYTES, LINKED_STACK_BYTES } from './compile.mjs';
import { workerPort } from './worker_port.mjs';
import { loadJudgeCore } from './judge_core.mjs';

// Bytes 0 to STACK_GUARD_BYTES: below the stack (linked first), zero unless
// something wrote where natively nothing is mapped. A change in the first
// 4096 is told as a write through a NULL-based pointer.
const ZERO_PAGE = 4096;

class OutOfMemory extends Error {
  constructor(bytes) { super('out of memory'); this.bytes = bytes; }
}
class NullPointer extends Error {
  constructor(where) { super('null pointer'); this.where = where; }
}
class Flood extends Unwind {}

// Times for the judge's record of where a run's time went: ms since the
// epoch, as the main side's clock has another origin.
const epoch = () => performance.timeOrigin + performance.now();

// A NUL-terminated string in the learner's memory (a file name from UBSan).
function cString(memory, at) {
  const u8 = new Uint8Array(memory.buffer);
  at >>>= 0;
  const end = u8.indexOf(0, at);
  return new TextDecoder().decode(u8.subarray(at, Math.min(end < 0 ? at : end, at + 512)));
}

// Whether the stack pointer (exported by the link) lies outside the 8 MiB
// of stack: below it, in the guard, or wrapped past address 0. A trap leaves
// it where it was, so this tells a stack overflow from a wild pointer.
function stackOverflowed(x) {
  const sp = x?.__stack_pointer?.value;
  if (sp === undefined) return false;
  return (sp >>> 0) < STACK_GUARD_BYTES || (sp >>> 0) > LINKED_STACK_BYTES;
}

// What ended a call, as plain data the main side classifies. `running`: the
// learner function (or constructors) that was running, if any; then an
// exception of the host's own is the program's fault (RE), not the judge's.
// x: the module's exports, once there are any.
function describe(e, running, x) {
  if (e instanceof Exit) return { kind: 'exit', code: e.code };
  if (e instanceof OutOfMemory) return { kind: 'oom', bytes: e.bytes };
  if (e instanceof NullPointer) return { kind: 'null', ...e.where };
  if (e instanceof Flood) return { kind: 'flood' };
  if (e instanceof WebAssembly.RuntimeError) return { kind: 'trap', message: e.message, overflowed: stackOverflowed(x) };
  if (e instanceof RangeError && /call stack/i.test(e.message)) return { kind: 'trap', message: 'call stack exhausted' };
  if (e instanceof HostFault) return { kind: 'host', call: e.call, reason: e.reason };
  if (running) return { kind: 'host', call: running, reason: String(e?.message ?? e) };
  return { kind: 'internal', message: String(e?.stack ?? e) };
}

// job: { module, guard (wasm/guard.wat's module), fn, memory: { initial, maximum } (pages), outputCap (bytes),
//        calls, requests: [Uint8Array] (every call's, or when paced the
//        first's: each later one comes with the main side's go-ahead,
//        { type: 'next', request }), wire: the C judge's jw_wire_json
//        (magic numbers, element sizes by judge_type), core: null, or
//        for a paced session { module: judge.wasm's, key: the problem }:
//        the core is timed here, on this thread, right after each of the
//        learner's calls on the same request, and the reply carries it as
//        coreMs (judge.h, judge_time_speed_core) }. post(message,
//        transfer) talks to the main side; next() resolves to the request
//        of the next go-ahead.
export async function runJob(job, post, next) {
  const got = epoch();
  let outLen = 0;
  const write = (fd, bytes) => {
    const room = job.outputCap - outLen;
    // A copy: bytes is a view of the learner's memory.
    const keep = bytes.slice(0, Math.max(0, room));
    outLen += keep.length;
    if (keep.length) post({ type: 'out', bytes: keep });
    if (bytes.length > room) throw new Flood();
  };
  const core = job.core ? await loadJudgeCore(job.core.module) : null;
  const { memory, reused } = memoryFor(job.memory);
  const judge = {
    out_of_memory(bytes) { throw new OutOfMemory(bytes >>> 0); },
    null_pointer(file, line, column) {
      throw new NullPointer({ file: cString(memory, file), line: line >>> 0, column: column >>> 0 });
    },
  };
  const instance = await WebAssembly.instantiate(job.module, {
    wasi_snapshot_preview1: makeWasi(memory, write), env: { memory }, judge,
  });
  const x = instance.exports;
  const { dirty } = (await WebAssembly.instantiate(job.guard, { env: { memory } })).exports;
  const stray = () => strayWrite(memory, dirty);
  post({ type: 'loaded', got, at: epoch(), ahead: reused });
  // The learner's constructors run here, as they do before main natively.
  try {
    x._initialize?.();
  } catch (e) {
    post({ type: 'fault', k: 0, started: false, ...describe(e, 'the constructors', x) });
    return;
  }
  const strayed = stray();
  if (strayed) {
    post({ type: 'fault', k: 0, started: false, ...strayed });
    return;
  }
  post({ type: 'hello' });
  for (let k = 0; k < job.calls; k++) {
    const request = k < job.requests.length ? job.requests[k] : await next();
    let reply;
    const start = epoch();
    try {
      reply = call(x, memory, job.fn, request, job.wire, stray);
    } catch (e) {
      post({ type: 'fault', k, started: true, ...describe(e, job.fn, x) });
      return;
    }
    if (reply.kind) {
      post({ type: 'fault', k, started: true, ...reply });
      return;
    }
    const end = epoch();
    const coreMs = core?.timeSpeedCore(job.core.key, request) ?? null;
    post({ type: 'reply', k, bytes: reply.bytes, start, end, coreMs }, [reply.bytes.buffer]);
    // Freed after the reply is out: a learner who wrecked the heap makes
    // free() trap, but the judge already holds the buffers that show where.
    // The last call's are not freed: the worker ends with the run.
    if (k + 1 === job.calls) break;
    try {
      for (const ptr of reply.regions) x.free(ptr);
    } catch (e) {
      post({ type: 'fault', k: k + 1, started: true, ...describe(e, 'free', x) });
      return;
    }
  }
  post({ type: 'done' });
}

// One call: allocate each region with the module's own malloc (in param
// order, as runner.c does), copy the request in, call, copy everything back.
// stray(): what strayWrite finds after the call.
function call(x, memory, fn, req, wire, stray) {
  const dv = new DataView(req.buffer, req.byteOffset, req.byteLength);
  const index = dv.getUint32(4, true), n = dv.getUint32(8, true);
  const args = [], regions = [];
  let at = 12 + 16 * n, replyLen = 16;
  for (let i = 0; i < n; i++) {
    const d = 12 + 16 * i;
    const type = dv.getUint32(d, true), isNull = dv.getUint32(d + 4, true);
    const count = dv.getUint32(d + 8, true), guard = dv.getUint32(d + 12, true);
    const size = wire.types[type]?.size;
    if (size === undefined) throw new Error(`a request with param type ${type}, which the wire format lacks`);
    if (size === 0) { args.push(count | 0); continue; }
    if (isNull) { args.push(0); continue; }
    const bytes = (count + 2 * guard) * size;
    // Linked with --wrap=malloc, the export is the wrapped malloc: a
    // failure there is MLE as natively (runner.c's malloc is wrapped too).
    const ptr = (x.malloc ?? x.__wrap_malloc)(bytes) >>> 0;
    if (!ptr) return { kind: 'oom', bytes };
    if (ptr + bytes > memory.buffer.byteLength)
      return { kind: 'host', call: 'malloc', reason: `it returned ${ptr}, past the end of the memory` };
    new Uint8Array(memory.buffer, ptr, bytes).set(req.subarray(at, at + bytes));
    regions.push({ ptr, bytes });
    args.push(ptr + guard * size);
    at += bytes;
    replyLen += bytes;
  }
  const t0 = performance.now();
  x[fn](...args);
  const ns = BigInt(Math.round((performance.now() - t0) * 1e6));
  x.fflush?.(0);
  const strayed = stray();
  if (strayed) return strayed;
  const reply = new Uint8Array(replyLen);
  const rv = new DataView(reply.buffer);
  rv.setUint32(0, wire.magic.reply, true);
  rv.setUint32(4, index, true);
  rv.setBigUint64(8, ns, true);
  let out = 16;
  for (const r of regions) {
    reply.set(new Uint8Array(memory.buffer, r.ptr, r.bytes), out);
    out += r.bytes;
  }
  return { bytes: reply, regions: regions.map((r) => r.ptr) };
}

// Wasm faults only past the end of its memory: a write below the stack is
// seen afterwards, as a guard byte that is no longer zero. dirty(): the
// guard module's scan (wasm/guard.wat); only when it finds a byte that is
// not zero is the first one looked for.
function strayWrite(memory, dirty) {
  if (!dirty(STACK_GUARD_BYTES)) return null;
  const address = new Uint8Array(memory.buffer, 0, STACK_GUARD_BYTES).findIndex((b) => b !== 0);
  return address < ZERO_PAGE ? { kind: 'zero_page', address } : { kind: 'stray', address };
}

// A fresh memory's pages come in as they are first touched, and the first
// check of the guard touches 4 MiB of them: 17-45 ms of every run's start in
// Chromium 156, 12 ms in Node 20 (2-vCPU VM). So a worker started ahead
// makes its memory then ('memory': the cap the main side expects, at the
// smallest size a module's memory can have) and reads the guard once, while
// the learner reads. A job whose cap is the same takes it, grown to the
// job's own size: the same memory a fresh one would be (the same size,
// maximum and bytes, all zero); any other job makes its own.
let made = null;   // { memory, initial, maximum }
function makeMemory({ initial, maximum }) {
  const memory = new WebAssembly.Memory({ initial, maximum });
  new Uint8Array(memory.buffer, 0, STACK_GUARD_BYTES).indexOf(1);   // reads every byte of the guard
  return { memory, initial, maximum };
}
function memoryFor({ initial, maximum }) {
  const mine = made;
  made = null;
  if (mine?.maximum !== maximum || mine.initial > initial)
    return { memory: new WebAssembly.Memory({ initial, maximum }), reused: false };
  mine.memory.grow(initial - mine.initial);
  return { memory: mine.memory, reused: true };
}

// As a worker: one job per worker, then the main side ends it; a paced
// job's go-aheads are queued, so one that comes early is not lost.
const port = await workerPort();
const ahead = [];
let waiting = null;
const next = () => new Promise((resolve) => {
  if (ahead.length) resolve(ahead.shift()); else waiting = resolve;
});
port.listen((m) => {
  if (m.type === 'memory') {
    try {
      made = makeMemory(m.memory);
    } catch {
      made = null;   // none to spare: the job makes its own
    }
    return;
  }
  if (m.type === 'next') {
    if (waiting) { waiting(m.request); waiting = null; } else ahead.push(m.request);
    return;
  }
  runJob(m, port.post, next).catch((e) => port.post({ type: 'fault', k: 0, started: false, ...describe(e) }));
});
