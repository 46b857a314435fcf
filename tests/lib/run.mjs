// run.mjs: helpers the tests share: run the native CLI (and the wasm one),
// read a corpus file's expected verdict.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const judgeBin = join(root, 'judge');

// The report's language follows LC_ALL and LANG: a test that wants one says
// so (options.env), so the machine's own locale does not leak in.
function withEnv(options) {
  if (options.env) return options;
  const env = { ...process.env };
  delete env.LC_ALL;
  delete env.LANG;
  return { ...options, env };
}

// Run ./judge with args; resolves { code, stdout, stderr } whatever the exit.
export function judge(args, options = {}) {
  return new Promise((resolve) => {
    execFile(judgeBin, args, { cwd: root, timeout: 60_000, maxBuffer: 16 << 20, ...withEnv(options) },
      (error, stdout, stderr) => {
        resolve({ code: error ? error.code ?? 'killed' : 0, stdout, stderr });
      });
  });
}

export const judgeWasmCli = join(root, 'wasm', 'judge.mjs');

// Run `node wasm/judge.mjs` with args, like judge().
export function judgeWasm(args, options = {}) {
  return new Promise((resolve) => {
    execFile(process.execPath, [judgeWasmCli, ...args],
      { cwd: root, timeout: 180_000, maxBuffer: 16 << 20, ...withEnv(options) },
      (error, stdout, stderr) => {
        resolve({ code: error ? error.code ?? 'killed' : 0, stdout, stderr });
      });
  });
}

// "/* expect: WA no_scale */" on a corpus file's first line ("WA a+b": the
// pair a and b together; "WA" alone: no mistake may be named, nor where the
// wrong outputs lie; "WA @batch": no mistake, and the report's spread, where
// they lie). A file whose behaviour legitimately differs in wasm says so
// after the native verdict, "/* expect: AC; wasm: CE */"; `wasm` is then that
// verdict (and mistake), otherwise the same as natively.
export function expectation(file) {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0];
  const V = '(AC|WA|CE|RE|TLE|MLE|OLE)(?: ([a-z_]+(?:\\+[a-z_]+)?|@[a-z]+))?';
  const m = new RegExp(`^/\\* expect: ${V}(?:; wasm: ${V})? \\*/$`).exec(first);
  if (!m) throw new Error(`${file}: the first line must be /* expect: VERDICT [mistake|@spread][; wasm: VERDICT [mistake|@spread]] */`);
  const named = (verdict, id) => ({ verdict, mistake: id?.startsWith('@') ? null : id ?? null,
    spread: id?.startsWith('@') ? id.slice(1) : null });
  const native = named(m[1], m[2]);
  const wasm = m[3] ? { ...named(m[3], m[4]), differs: true } : { ...native, differs: false };
  return { ...native, wasm };
}

// Where a report says the wrong outputs lie when it names no mistake
// ("batch", "head", "slice"), or null.
export const spreadOf = (report) => report.spread?.id ?? null;

// The mistake a report names, as an expect line writes it: "no_scale",
// "a+b" for a pair, null for none.
export function namedMistake(report) {
  const m = report.mistake;
  return m ? (m.also ? `${m.id}+${m.also.id}` : m.id) : null;
}

// `--watch --json` on a copy of a file, saved over with each of `saves` in
// turn: saves[i] is { after: n, file } (written once n reports have come,
// or at once with after: 0, delayMs later). Resolves { reports, signal,
// code } once every save has been judged (one report more than the last
// `after`) and SIGINT has ended it.
export async function watchSaves(command, args, { first, saves, env, tmp, reportsWanted }) {
  const { spawn } = await import('node:child_process');
  const { copyFileSync } = await import('node:fs');
  const file = join(tmp, 'watched.c');
  copyFileSync(first, file);
  const child = spawn(command, [...args, file, '--watch', '--json'], { cwd: root, env });
  let out = '';
  // Whole lines only: a report arrives in pieces.
  const reports = () => out.split('\n').slice(0, -1).filter(Boolean).map((l) => JSON.parse(l));
  const pending = [...saves];
  const save = () => {
    while (pending.length && reports().length >= pending[0].after) {
      const { file: next, delayMs = 0 } = pending.shift();
      setTimeout(() => copyFileSync(next, file), delayMs);
    }
  };
  save();
  child.stdout.on('data', (d) => {
    out += d;
    save();
    if (reports().length >= reportsWanted && !pending.length) child.kill('SIGINT');
  });
  const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  return { reports: reports(), code, signal, file };
}
