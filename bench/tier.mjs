// tier.mjs: `make bench`'s speed-tier lines: 49's solution (and the corpus
// file written to reach gold, when there is one) judged with --speed on
// both backends, one line each:
//   RESULT peer=tier shape=49 backend=native|wasm file=.. case=.. ms=..
//          core_ms=.. ratio=.. rate=.. unit=.. pct_ceiling=.. simd=.. tier=..
// Prints figures; asserts nothing (a run that fails says so in a NOTE line).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = [join('problems', '49-causal-mha', 'solution.c'), join('tests', 'corpus', '49', 'AC-speed-gold.c')]
  .filter((f) => existsSync(join(root, f)));
const backends = [['native', [join(root, 'judge')]], ['wasm', [process.execPath, join(root, 'wasm', 'judge.mjs')]]];

for (const file of files)
  for (const [backend, cmd] of backends) {
    const r = spawnSync(cmd[0], [...cmd.slice(1), '49', file, '--speed', '--json'],
      { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
    let speed = null;
    try { speed = JSON.parse(r.stdout).speed; } catch { /* told below */ }
    if (!speed) {
      console.log(`NOTE peer=tier backend=${backend} file=${file}: no report (exit ${r.status}) ${r.stderr.trim()}`);
      continue;
    }
    if (speed.skipped) console.log(`NOTE peer=tier backend=${backend} file=${file}: ${speed.skipped.reason}`);
    for (const c of speed.cases)
      console.log(`RESULT peer=tier shape=49 backend=${backend} file=${file} case=${c.name} ms=${c.ms.toFixed(3)} ` +
        `core_ms=${c.core_ms.toFixed(3)} ratio=${c.ratio.toFixed(2)} rate=${c.rate.toFixed(2)} ` +
        `unit=${c.bound === 'bytes' ? 'GB/s' : 'GFLOP/s'} pct_ceiling=${c.pct_ceiling.toFixed(1)} ` +
        `simd=${speed.simd} tier=${c.tier}`);
    if (!speed.cases.length) console.log(`RESULT peer=tier shape=49 backend=${backend} file=${file} tier=${speed.tier}`);
  }
