// ref_cache.test.mjs: the C tests of the reference kernels of exercises
// 52-56 (tests/ref_cache_test.c), built here against the plain C files of
// the core they use (warnings on, as the Makefile builds; the SIMD files need
// the Makefile's per-file flags and are not needed), one node test per C test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/run.mjs';

const bin = join(root, 'build', 'ref_cache_test');
const core = ['att_ref.c', 'att_attn_ref.c', 'att_rng.c', 'att_status.c', ...readdirSync(join(root, 'core'))
  .filter((f) => /^att_ref_.*\.c$/.test(f))].map((f) => join(root, 'core', f));
mkdirSync(join(root, 'build'), { recursive: true });
execFileSync(process.env.CC || 'cc', ['-O2', '-g', '-Wall', '-Wextra', '-I', join(root, 'core'),
  '-o', bin, join(root, 'tests', 'ref_cache_test.c'), ...core, '-lm'], { stdio: 'inherit' });
const names = execFileSync(bin, ['--list'], { encoding: 'utf8' }).trim().split('\n');

for (const name of names) {
  test(`ref_cache: ${name}`, () => {
    const r = spawnSync(bin, [name], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });
}
