// core.test.mjs: the C tests of the judge's diagnosis (tests/judge_test.c), one
// node test per C test, so a failure names itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './lib/run.mjs';

const bin = join(root, 'build', 'judge_test');
const names = execFileSync(bin, ['--list'], { encoding: 'utf8' }).trim().split('\n');

for (const name of names) {
  test(`judge: ${name}`, () => {
    const r = spawnSync(bin, [name], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });
}
