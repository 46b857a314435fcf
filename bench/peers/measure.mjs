// measure.mjs: one peer on one shape, in a process of its own (peers.mjs
// starts one per pair, so no peer's memory or threads meet another's).
// Loads the peer (SKIP if it cannot), runs it twice to warm up, checks the
// output against the float64 reference (CHECK), then times N runs (RESULT),
// in the line format of bench/att_bench.c.
//
//   node bench/peers/measure.mjs PEER SHAPE RUNS
import { performance } from 'node:perf_hooks';
import { PEERS, installedVersion } from './registry.mjs';
import { compare, decodeReference, mhaReference } from './reference.mjs';
import { SHAPES, counts, inputs } from './shapes.mjs';

const WARMUP = 2;
// att_bench.c checks the core's (a)/(b) on the first 128 tokens, and with
// these tolerances.
const CHECK_ROWS = 128;
const TOLERANCE = { mha: 2e-5, decode: 1e-5 };

const [name, shapeName, runsArg] = process.argv.slice(2);
const peer = PEERS[name], s = SHAPES[shapeName], runs = Number(runsArg);
if (!peer || !s || !Number.isInteger(runs) || runs < 1) {
  console.error(`usage: measure.mjs ${Object.keys(PEERS).join('|')} ${Object.keys(SHAPES).join('|')} RUNS`);
  process.exit(2);
}

// A note is one word: RESULT and SKIP lines are split at spaces.
const word = (text) => text.split('\n')[0].trim().replace(/\s+/g, '-').slice(0, 160);
// With a two-digit exponent, as att_bench.c's %.3g prints a small error.
const small = (x) => x.toExponential(2).replace(/e([+-])(\d)$/, 'e$10$2');

let loaded;
try {
  loaded = await peer.load();
} catch (e) {
  console.log(`SKIP peer=${name} note=${word(e.message)}`);
  process.exit(0);
}

const inp = inputs(s);
const [reference, tol] = s.shape === 'c'
  ? [decodeReference(s, inp), TOLERANCE.decode]
  : [mhaReference(s, inp, CHECK_ROWS), TOLERANCE.mha];
const { notes, run } = await loaded.open(s, inp);

let out;
for (let i = 0; i < WARMUP; i++) out = await run();
const { bad, maxAbs } = compare(out, reference, tol, tol);
console.log(`CHECK peer=${name} shape=${s.shape} threads=1 bad=${bad} max_abs=${small(maxAbs)}`);

const times = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  await run();
  times.push(performance.now() - t0);
}
times.sort((x, y) => x - y);
const median = runs % 2 ? times[(runs - 1) / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
const { flops, bytes } = counts(s);
// The package without its npm scope: tfjs-backend-wasm-4.22.0.
const note = [`${peer.pkg.replace(/^@[^/]*\//, '')}-${installedVersion(peer.pkg)}`, ...notes, `runs=${runs}`].join(',');
console.log(`RESULT peer=${name} shape=${s.shape} threads=1 min_ms=${times[0].toFixed(3)} median_ms=${median.toFixed(3)} ` +
  `max_ms=${times[runs - 1].toFixed(3)} flops=${flops} bytes=${bytes} note=${note}`);
