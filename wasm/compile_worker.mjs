// compile_worker.mjs: @yowasp/clang (clang and wasm-ld built as wasm) in a
// worker of its own, so a compile never blocks the page and a runaway one
// (a macro bomb) can be stopped by terminating the worker. Messages:
//   in:  { type: 'init', clang }            the URL of @yowasp/clang's bundle.js
//        { type: 'compile', id, args, files }
//   out: { type: 'progress', loaded, total }  the toolchain's first download
//        { type: 'ready' } | { type: 'failed', message }
//        { type: 'result', id, ok, crashed, wasm, stderr }   crashed: clang itself failed
import { workerPort } from './worker_port.mjs';
import { OUTPUT } from './compile.mjs';

const port = await workerPort();
let runClang = null;

async function init(url) {
  try {
    ({ runClang } = await import(url));
    // Fetch and compile the toolchain now, with progress (a compile passed
    // fetchProgress ignores it: FIELD-NOTES).
    await runClang(null, {}, {
      fetchProgress: ({ totalLength, doneLength }) =>
        port.post({ type: 'progress', loaded: doneLength, total: totalLength }),
    });
    port.post({ type: 'ready' });
  } catch (e) {
    port.post({ type: 'failed', message: String(e?.message ?? e) });
  }
}

async function compile({ id, args, files }) {
  const chunks = [];
  const stderr = (bytes) => { if (bytes) chunks.push(new TextDecoder().decode(bytes)); };
  let ok = true, wasm = null, crashed = false;
  try {
    const out = await runClang(['clang', ...args], files, { stdout: stderr, stderr, decodeASCII: false });
    wasm = out[OUTPUT]?.slice() ?? null;   // its own buffer, to transfer
  } catch (e) {
    // A failed compile throws Exit with a code; anything else is the
    // compiler crashing, which the learner sees as a compile error too.
    ok = false;
    crashed = typeof e?.code !== 'number' || /Assertion failed|PLEASE submit a bug report|LLVM ERROR/.test(chunks.join(''));
    if (crashed) chunks.push(`judge: the compiler failed: ${e?.message ?? e}\n`);
  }
  if (ok && !wasm) { ok = false; chunks.push('judge: the compiler produced no module\n'); }
  port.post({ type: 'result', id, ok, crashed, wasm, stderr: chunks.join('') }, wasm ? [wasm.buffer] : []);
}

port.listen((m) => {
  if (m.type === 'init') init(m.clang);
  else if (m.type === 'compile') compile(m);
});
