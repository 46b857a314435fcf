// judge.test.mjs: the C tests of the judge's diagnosis (tests/judge_test.c), one
// node test per C test, so a failure names itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './lib/run.mjs';

const bin = join(root, 'build', 'judge_test');
const names = execFileSync(bin, ['--list'], { encoding: 'utf8' }).trim().split('\n');

// The slowest test runs as two processes at once (CHECK_SHARD, tests/check.h),
// each taking every other mistake, on CI's two cores.
const shards = (name) => (name === 'every_mistake_names_itself' ? 2 : 1);

function run(name, shard) {
  return new Promise((resolve) => {
    execFile(bin, [name], { env: { ...process.env, CHECK_SHARD: shard }, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? error.code ?? 'killed' : 0, out: `${stdout}${stderr}` }));
  });
}

for (const name of names) {
  test(`judge: ${name}`, async () => {
    const n = shards(name);
    const runs = await Promise.all(Array.from({ length: n }, (_, i) => run(name, `${i}/${n}`)));
    for (const r of runs) assert.equal(r.code, 0, r.out);
  });
}
