// ref.test.mjs: the C tests of the exercises' reference kernels, one file of
// tests per family (tests/ref_<family>_test.c, e.g. ref_cache_test.c for
// 52-56), each built here against the plain C files of the core (warnings on,
// as the Makefile builds; the SIMD files need the Makefile's per-file flags
// and are not needed), one node test per C test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/run.mjs';

const core = ['att_ref.c', 'att_attn_ref.c', 'att_rng.c', 'att_status.c', ...readdirSync(join(root, 'core'))
  .filter((f) => /^att_ref_.*\.c$/.test(f))].map((f) => join(root, 'core', f));
mkdirSync(join(root, 'build'), { recursive: true });

for (const file of readdirSync(join(root, 'tests')).filter((f) => /^ref_\w+_test\.c$/.test(f)).sort()) {
  const family = file.slice(0, -'_test.c'.length);
  const bin = join(root, 'build', `${family}_test`);
  execFileSync(process.env.CC || 'cc', ['-O2', '-g', '-Wall', '-Wextra', '-I', join(root, 'core'),
    '-o', bin, join(root, 'tests', file), ...core, '-lm'], { stdio: 'inherit' });
  const names = execFileSync(bin, ['--list'], { encoding: 'utf8' }).trim().split('\n');
  for (const name of names) {
    test(`${family}: ${name}`, () => {
      const r = spawnSync(bin, [name], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    });
  }
}
