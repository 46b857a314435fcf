// kernels.test.mjs: the fast kernels' C tests (tests/kernels_test.c) and the
// core's (tests/core_test.c), each in the three builds mk/simd.mk makes:
// native, native with SIMDE_NO_NATIVE (SIMDe's portable C), and wasm
// (emcc -msimd128) under Node. Each binary runs once; every C test becomes
// one node test, so a failure names its build and itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './lib/run.mjs';

const b = (...p) => join(root, 'build', ...p);
const builds = [
  { name: 'native', kernels: [b('kernels_test')], core: [b('core_test')] },
  { name: 'no-native', kernels: [b('ktest', 'nonative', 'kernels_test')], core: [b('ktest', 'nonative', 'core_test')] },
  {
    name: 'wasm',
    kernels: [process.execPath, b('ktest', 'wasm', 'kernels_test.cjs')],
    core: [process.execPath, b('ktest', 'wasm', 'core_test.cjs')],
    missing: 'needs Emscripten (apt-get install emscripten), then make',
  },
];

function run(cmd, args) {
  return spawnSync(cmd[0], [...cmd.slice(1), ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
}

const cpuHasAvx512 = (() => {
  try { return /\bavx512f\b/.test(readFileSync('/proc/cpuinfo', 'utf8')); } catch { return false; }
})();

for (const build of builds) {
  for (const suite of ['kernels', 'core']) {
    const cmd = build[suite];
    const bin = cmd[cmd.length - 1];
    if (!existsSync(bin)) {
      test(`${suite} (${build.name}): built`, () => assert.fail(`${bin} is missing: ${build.missing ?? 'run make'}`));
      continue;
    }
    const names = run(cmd, ['--list']).stdout.trim().split('\n');
    const all = run(cmd, []);
    const lines = new Map(all.stdout.split('\n').map((l) => [l.slice(5), l.slice(0, 4)]));
    for (const name of names) {
      test(`${suite} (${build.name}): ${name}`, () => {
        assert.equal(lines.get(name), 'ok  ', `${name}:\n${all.stderr}`);
      });
    }
    test(`${suite} (${build.name}): summary and exit status`, () => {
      assert.match(all.stdout, new RegExp(`^${names.length} passed, 0 failed$`, 'm'), all.stdout + all.stderr);
      assert.equal(all.status, 0);
    });
  }
}

// Every SIMD level is exercised where the build can run it: all three when
// SIMDe emulates (no-native, wasm), and natively at least what the CPU has.
test('kernels: the levels each build runs', () => {
  for (const build of builds) {
    const bin = build.kernels[build.kernels.length - 1];
    if (!existsSync(bin)) continue;
    const levels = run(build.kernels, ['--levels']).stdout.trim().split('\n').map((l) => l.split(' ')[0]);
    if (build.name === 'native') {
      assert.ok(levels.includes('v128'), `native levels: ${levels}`);
      if (cpuHasAvx512 && process.arch === 'x64') assert.ok(levels.includes('avx512'), `native levels: ${levels}`);
    } else {
      assert.deepEqual(levels, ['v128', 'avx2', 'avx512'], `${build.name} levels`);
    }
  }
});
