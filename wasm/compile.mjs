// compile.mjs: how learner C becomes a wasm module, as data: the clang
// command, the cache key, and the diagnostics read back as records. The
// compiler itself runs in wasm/compile_worker.mjs; wasm/compiler.mjs drives
// it. No Node APIs.

export const SOURCE_NAME = 'submission.c';
const PROTO = 'judge_proto.h';
// The shim (learner_shim.c) is compiled once, when the judge is built
// (wasm/build_shim.mjs), with the learner's flags: its object only is linked
// into each module, so no compile runs its -cc1 again.
const SHIM_SOURCE = 'judge_shim.c';
export const SHIM_OBJECT = 'judge_shim.o';
export const OUTPUT = 'submission.wasm';
export const STACK_BYTES = 8 << 20;   // the native default stack: deep VLAs work the same
// Linked below the stack (so at address 0) and never the learner's: natively
// nothing is mapped at low addresses, so a wild write there or a stack deeper
// than 8 MiB faults. The run worker checks after each call that these bytes
// are still zero (a NULL-based write lands here too).
export const STACK_GUARD_BYTES = 4 << 20;
export const LINKED_STACK_BYTES = STACK_BYTES + STACK_GUARD_BYTES;

// How every C file of a module is compiled, the learner's and the shim's.
const COMPILE_FLAGS = [
  '--target=wasm32-wasip1', '-O2', '-msimd128',
  // The toolchain is an assertions build, whose driver keeps IR value
  // names and verifies the IR after the front end; a release clang (the
  // native judge's) does neither. Without them -cc1 is ~4% faster, and
  // the objects and messages are the same (seen on 65 files of the corpus).
  '-Xclang', '-disable-llvm-verifier', '-Xclang', '-discard-value-names',
  '-Wall',
  // Wasm has no unmapped page 0: check NULL accesses in the code (the shim
  // reports them), so reading through NULL is RE as it is natively.
  '-fsanitize=null', '-fno-sanitize-recover=null',
  // signal.h and raise() as the C standard has them (raise ends the run).
  '-D_WASI_EMULATED_SIGNAL',
];

// The shim's compile: its source in, its object out.
export function shimCommand(source) {
  return { args: [...COMPILE_FLAGS, '-fdiagnostics-color=never', '-c', SHIM_SOURCE, '-o', SHIM_OBJECT],
    files: { [SHIM_SOURCE]: source } };
}

// The clang command line (without "clang") and its virtual files; shim:
// the shim's object (shimCommand).
export function clangCommand({ problem, source, name, shim, color }) {
  const args = [
    ...COMPILE_FLAGS,
    color ? '-fdiagnostics-color=always' : '-fdiagnostics-color=never',
    // A reactor: no main is called; the loader calls the function itself.
    '-mexec-model=reactor',
    // The prototype, force-included: a different signature is a compile error.
    '-include', PROTO,
    name, SHIM_OBJECT, '-o', OUTPUT, '-lwasi-emulated-signal',
    // The stack first, so overflowing it traps instead of corrupting data.
    '-Wl,--stack-first', `-Wl,-z,stack-size=${LINKED_STACK_BYTES}`,
    // The loader makes the memory, with the problem's cap as its maximum.
    '-Wl,--import-memory',
    '-Wl,--strip-debug',
    // A failed allocation reaches the loader (the shim): MLE, as natively.
    '-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc',
    `-Wl,--export=${problem.function}`, '-Wl,--export=malloc', '-Wl,--export=free',
    // Flushed after every call, as runner.c does: a partial line printed
    // before the run ends still reaches the learner.
    '-Wl,--export=fflush',
    // Read after a trap: a stack pointer outside the stack is an overflow.
    '-Wl,--export=__stack_pointer',
  ];
  return { args, files: { [name]: source, [PROTO]: problem.prototype, [SHIM_OBJECT]: shim } };
}

// Headers a precompiled header may stand for (compile_worker.mjs): guarded
// against a second inclusion, and each seen, on every file of the corpus,
// to give the same objects and messages with it as without.
const PRECOMPILED = new Set(['math.h', 'stdlib.h', 'string.h', 'stddef.h', 'float.h', 'stdint.h', 'stdio.h']);

// The headers of the learner's leading `#include <...>` lines, in order,
// after nothing but blank lines and comments: what a precompiled header may
// stand for. It stops at anything else (a macro defined first, another
// header, a line continued with a backslash, more on an include's line).
export function leadingHeaders(source) {
  const token = /([ \t\n\r\f\v]+)|(\/\/[^\n]*)|(\/\*[\s\S]*?\*\/)|#[ \t]*include[ \t]*<([^>\n]*)>[ \t\r]*(?=\n|$)/y;
  const headers = [];
  for (let m; (m = token.exec(source));) {
    if (m[2] && /\\\s*$/.test(m[2])) break;
    if (m[4] !== undefined) {
      if (!PRECOMPILED.has(m[4])) break;
      headers.push(m[4]);
    }
  }
  return headers;
}

// A file name safe for the compiler's virtual file system, kept recognisable
// in diagnostics ("attention.c:12:5: error: ...").
export function sourceName(path) {
  const base = String(path ?? '').split(/[\\/]/).pop().replace(/[^A-Za-z0-9._-]/g, '_');
  return /^[A-Za-z0-9_][A-Za-z0-9._-]*\.c$/.test(base) ? base : SOURCE_NAME;
}

// The cache key: everything that decides the module and its diagnostics
// (v: the entries' form; 2: the judge's notes kept apart from clang's text;
// 3: a symbol other than the problem's function, undefined, noted as such).
export async function cacheKey(command, compilerVersion) {
  const text = JSON.stringify({ v: 3, compilerVersion, ...command });
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// The link errors a learner meets, as the judge's notes: [message of
// messages.json, its arguments] (as native.c's explain_link_error), told in
// the learner's language when the compile is reported, not when it is
// cached: the problem's function not defined (wasm-ld cannot export it),
// another symbol used but defined nowhere (the first four), a main.
export function linkNotes(stderr, problem) {
  const notes = [];
  const undefined = [...new Set([...stderr.matchAll(/undefined symbol: (\S+)/g)].map((m) => m[1]))].slice(0, 4);
  for (const name of undefined.filter((n) => n !== problem.function)) notes.push(['compile_undefined_symbol', name]);
  if (undefined.includes(problem.function) || stderr.includes(`symbol exported via --export not found: ${problem.function}`))
    notes.push(['compile_define_function', problem.function]);
  if (/duplicate symbol: main\b/.test(stderr)) notes.push(['compile_remove_main', problem.function]);
  return notes;
}

// The compiler's text and, after it, the judge's notes as its own lines;
// say(message, ...args): a message's text in the learner's language.
export function withNotes(diagnostics, notes = [], say) {
  return diagnostics + notes.map(([msg, ...args]) => `judge: ${say(msg, ...args)}\n`).join('');
}

// Diagnostics as records for the editor: the learner's file's positions, and
// link errors and the judge's own lines with line = column = 0.
export function parseDiagnostics(text, name) {
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
  const messages = [];
  for (const line of plain.split('\n')) {
    let m = /^(.*?):(\d+):(\d+): (fatal error|error|warning|note): (.*)$/.exec(line);
    if (m) {
      if (m[1] === name)
        messages.push({ line: Number(m[2]), column: Number(m[3]),
          severity: m[4] === 'fatal error' ? 'error' : m[4], message: m[5] });
      continue;
    }
    m = /^(?:wasm-ld|clang|judge)[^:]*: (?:(error|warning): )?(.*)$/.exec(line);
    if (m) messages.push({ line: 0, column: 0, severity: m[1] ?? 'error', message: m[2] });
  }
  return messages;
}

// Show the learner's own path for the virtual file name in diagnostics.
export function withPath(text, name, path) {
  if (!path || path === name) return text;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(^|\\n)((?:\\x1b\\[[0-9;]*m)*)${escaped}:`, 'g'), `$1$2${path}:`);
}
