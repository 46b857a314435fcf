// peers.mjs: `make bench-peers`, and the peers of `make bench` (bench/run.mjs
// calls it once per peer): onnxruntime-node, onnxruntime-web and tfjs-wasm
// on the shapes of bench/att_bench.c, one thread each, each peer and shape
// in a child process of its own (measure.mjs). Prints their RESULT, CHECK
// and SKIP lines; after a SKIP the peer's other shapes are not tried.
//
//   node bench/peers/peers.mjs [--peer NAME] [--shapes abc] [--runs N]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PEERS } from './registry.mjs';
import { SHAPES } from './shapes.mjs';

const usage = `usage: node bench/peers/peers.mjs [--peer ${Object.keys(PEERS).join('|')}] [--shapes abc] [--runs N]`;
const fail = (why) => { console.error(`peers: ${why}\n${usage}`); process.exit(2); };

const args = process.argv.slice(2);
let names = Object.keys(PEERS), shapes = Object.keys(SHAPES), runs = '10';
for (let i = 0; i < args.length; i += 2) {
  const [flag, value] = [args[i], args[i + 1]];
  if (value === undefined) fail(`${flag} needs a value`);
  if (flag === '--peer') names = [value];
  else if (flag === '--shapes') shapes = [...value];
  else if (flag === '--runs') runs = value;
  else fail(`unknown option ${flag}`);
}
for (const n of names) if (!PEERS[n]) fail(`unknown peer ${n}`);
for (const c of shapes) if (!SHAPES[c]) fail(`unknown shape ${c}`);
if (!/^[1-9][0-9]*$/.test(runs)) fail(`--runs takes a count, not ${runs}`);
// npm writes it as an install's last step, so a half install counts as none.
if (!existsSync(fileURLToPath(new URL('./node_modules/.package-lock.json', import.meta.url))))
  fail('bench/peers is not installed: `make bench-peers` installs the peers');

const measure = fileURLToPath(new URL('./measure.mjs', import.meta.url));
let failed = false;
for (const name of names)
  for (const shape of shapes) {
    const r = spawnSync(process.execPath, [measure, name, shape, runs],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
    process.stdout.write(r.stdout ?? '');
    if (r.status !== 0) {
      console.error(`peers: ${name} shape ${shape}: ${r.signal ? `killed by ${r.signal}` : r.error ? r.error.message : `exit ${r.status}`}`);
      failed = true;
    }
    if (/^SKIP /m.test(r.stdout ?? '')) break;
  }
process.exitCode = failed ? 1 : 0;
