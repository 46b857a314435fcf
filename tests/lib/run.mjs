// run.mjs: helpers the tests share: run the native CLI, read a corpus file's
// expected verdict.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const judgeBin = join(root, 'judge');

// Run ./judge with args; resolves { code, stdout, stderr } whatever the exit.
export function judge(args, options = {}) {
  return new Promise((resolve) => {
    execFile(judgeBin, args, { cwd: root, timeout: 60_000, maxBuffer: 16 << 20, ...options },
      (error, stdout, stderr) => {
        resolve({ code: error ? error.code ?? 'killed' : 0, stdout, stderr });
      });
  });
}

// "/* expect: WA no_scale */" on a corpus file's first line.
export function expectation(file) {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0];
  const m = /^\/\* expect: (AC|WA|CE|RE|TLE|MLE|OLE)(?: ([a-z_]+))? \*\/$/.exec(first);
  if (!m) throw new Error(`${file}: the first line must be /* expect: VERDICT [mistake] */`);
  return { verdict: m[1], mistake: m[2] ?? null };
}
