// run.mjs: `make bench`. Runs bench/att_bench natively (1 and 2 threads)
// and as wasm under Node, with the machine's ceilings and the baselines
// (textbook scalar C, OpenBLAS) and, once `make bench-peers` has installed
// them, onnxruntime-node, onnxruntime-web and tfjs-wasm (bench/peers) in the
// same run, then prints the table and one RESULT line per measurement.
// Prints figures; asserts nothing.
//
//   node bench/run.mjs [--quick]     --quick: 3 timed runs instead of 10
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const native = join(root, 'build', 'bench', 'att_bench');
const wasm = join(root, 'build', 'bench', 'att_bench.cjs');
const peers = join(root, 'bench', 'peers', 'peers.mjs');
// Written by npm as an install's last step (mk/bench.mk waits for it too).
const peersInstalled = join(root, 'bench', 'peers', 'node_modules', '.package-lock.json');
const runs = process.argv.includes('--quick') ? '3' : '10';

const loadavg = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const cpu = (() => {
  try { return /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))[1]; } catch { return os.cpus()[0]?.model ?? '?'; }
})();

const results = [];   // { fields, load, where }
const parts = [];     // the core's (a) and (b) in parts: { fields, where }
const ceilings = {};  // `${where}:${name}:${threads}` -> value
const notes = [];

function run(where, cmd, args, env = {}) {
  const load0 = os.loadavg()[0];
  const r = spawnSync(cmd[0], [...cmd.slice(1), ...args], {
    encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 24,
  });
  if (r.status !== 0) notes.push(`${where} ${args.join(' ')}: ${r.signal ? `killed by ${r.signal}` : `exit ${r.status}`} ${r.stderr.trim()}`);
  else if (r.stderr.trim()) notes.push(`${where} ${args.join(' ')}: ${r.stderr.trim()}`);
  const load = ((load0 + os.loadavg()[0]) / 2).toFixed(2);
  for (const line of r.stdout.split('\n')) {
    const m = /^(RESULT|CEILING|CHECK|SKIP|PART) (.*)$/.exec(line);
    if (!m) continue;
    const fields = Object.fromEntries(m[2].split(' ').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
    if (m[1] === 'RESULT') results.push({ fields, load, where });
    else if (m[1] === 'PART') parts.push({ fields, where });
    else if (m[1] === 'CEILING') {
      const k = `${where}:${fields.name}:${fields.threads}`;
      ceilings[k] = Math.max(ceilings[k] ?? 0, Number(fields.value));
    }
    else if (m[1] === 'CHECK') notes.push(`${where} check ${fields.peer} shape ${fields.shape} threads ${fields.threads}: ${fields.bad} bad, max abs err ${fields.max_abs}`);
    else notes.push(`${where} ${fields.peer} skipped: ${fields.note}`);
  }
}

console.log(`att bench  ${new Date().toISOString()}  ${cpu}, ${os.cpus().length} logical CPUs`);
console.log(`load average at start: ${loadavg()}`);

if (!existsSync(native)) { console.error('bench: build/bench/att_bench is missing (make bench builds it)'); process.exit(2); }
// Debian's OpenBLAS 0.3.21 takes a KVM guest with AVX-512 for an old core
// and runs SSE3 kernels there: name the core when the CPU has AVX-512. Other
// CPUs keep OpenBLAS's own choice (forcing SKYLAKEX without AVX-512 is an
// illegal instruction).
const cpuFlags = (() => { try { return /^flags\s*:(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))[1].split(' '); } catch { return []; } })();
const blasCore = cpuFlags.includes('avx512f') ? { OPENBLAS_CORETYPE: 'SKYLAKEX' } : {};
const blasEnv = { ...blasCore, OPENBLAS_NUM_THREADS: '1' };
notes.push(`openblas: OPENBLAS_CORETYPE=${blasCore.OPENBLAS_CORETYPE ?? "unset (OpenBLAS's own choice)"}`);
run('native', [native], ['ceil']);
for (const t of ['1', '2']) run('native', [native], ['core', '--threads', t, '--runs', runs, '--name', 'att-core']);
for (const t of ['1', '2'])
  run('native', [native], ['openblas', '--threads', t, '--runs', runs, '--name', 'openblas'], { ...blasEnv, OPENBLAS_NUM_THREADS: t });
// The scalar baseline is slow on (b) (2.3e10 FLOP at ~1 GFLOP/s, 20-40 s a
// run): one warm-up and 3 timed runs, said in its note.
run('native', [native], ['scalar', '--shapes', 'ac', '--runs', runs, '--name', 'scalar-c']);
run('native', [native], ['scalar', '--shapes', 'b', '--runs', '3', '--warmup', '1', '--name', 'scalar-c']);
if (existsSync(wasm)) {
  run('wasm', [process.execPath, wasm], ['ceil']);
  run('wasm', [process.execPath, wasm], ['core', '--runs', runs, '--name', 'att-core-wasm']);
  run('wasm', [process.execPath, wasm], ['scalar', '--shapes', 'ac', '--runs', runs, '--name', 'scalar-c-wasm']);
} else notes.push('wasm: build/bench/att_bench.cjs is missing (needs Emscripten)');
// The issue's peers, one thread each, when `make bench-peers` has installed
// them (bench/peers). onnxruntime-node runs native code; onnxruntime-web and
// tfjs-wasm run wasm in this Node, so each is held to that side's ceilings.
if (existsSync(peersInstalled)) {
  for (const [peer, where] of [['onnxruntime-node', 'native'], ['onnxruntime-web', 'wasm'], ['tfjs-wasm', 'wasm']])
    run(where, [process.execPath, peers], ['--peer', peer, '--runs', runs]);
} else notes.push('peers: onnxruntime-node, onnxruntime-web and tfjs-wasm are not installed; `make bench-peers` installs them');
// The ceilings again at the end; the table uses the better of the two.
run('native', [native], ['ceil']);
if (existsSync(wasm)) run('wasm', [process.execPath, wasm], ['ceil']);

// bench/peers/shapes.mjs states the shapes and counts again, in JS: a
// figure whose counts differ from the core's for its shape is not comparable.
const counts = {};
for (const { fields: f } of results) {
  const k = `${f.flops}/${f.bytes}`;
  counts[f.shape] ??= k;
  if (counts[f.shape] !== k) notes.push(`${f.peer} shape ${f.shape}: flops/bytes ${k}, not ${counts[f.shape]} as the first figure of that shape: the shapes differ`);
}

// The work no implementation of a shape can skip (att_bench.c's real_flops,
// the causal half left out, and real_bytes; the peers print neither): % limit
// holds every row of a shape to the same work, whatever it computes.
const work = {};
for (const { fields: f } of results) {
  if (!f.real_flops) continue;
  const k = `${f.real_flops}/${f.real_bytes}`;
  work[f.shape] ??= { flops: Number(f.real_flops), bytes: Number(f.real_bytes), k };
  if (work[f.shape].k !== k) notes.push(`${f.peer} shape ${f.shape}: real_flops/real_bytes ${k}, not ${work[f.shape].k}`);
}

// Ceiling of a measurement, as measured on as many threads at once: FMA
// throughput of the widest native width for (a)/(b), read bandwidth for (c)
// (memory-bound). att_bench measures two threads natively only (wasm has
// one), at the widest width.
function ceiling(r) {
  const f = r.fields, at = (name) => ceilings[`${r.where}:${name}:${f.threads}`];
  if (f.shape === 'c') return [at('read_bw'), 'GB/s', 'read'];
  const name = ['avx512', 'avx2', 'v128'].find((n) => ceilings[`${r.where}:fma_${n}:1`]) ?? 'v128';
  return [at(`fma_${name}`), 'GFLOP/s', name];
}

// % limit: the time the shape's work takes at the ceiling over the median,
// in percent (flops for (a)/(b), bytes read for (c), as ceiling() bounds
// them); null where a ceiling or the work is unknown.
function pctLimit(r) {
  const f = r.fields, w = work[f.shape], [c, unit] = ceiling(r);
  if (!c || !w) return null;
  return 100 * (unit === 'GB/s' ? w.bytes : w.flops) / (Number(f.median_ms) * 1e6) / c;
}

const pad = (s, n) => String(s).padStart(n);
console.log('\nceilings (where:name:threads, the better of the start and the end of this run):');
for (const [k, v] of Object.entries(ceilings)) console.log(`  ${k.padEnd(24)} ${v} ${k.includes('read_bw') ? 'GB/s' : 'GFLOP/s'}`);
console.log(`\n${'peer'.padEnd(16)} shape thr ${pad('min ms', 9)} ${pad('median', 9)} ${pad('max ms', 9)} ${pad('GFLOP/s', 8)} ${pad('GB/s', 6)} ${pad('% ceil', 7)} ${pad('% limit', 7)} ${pad('GF/s@min', 8)}  load  note`);
for (const r of results) {
  const f = r.fields, med = Number(f.median_ms);
  const gflops = Number(f.flops) / (med * 1e6), gbs = Number(f.bytes) / (med * 1e6);
  const [c, unit, cname] = ceiling(r);
  const pct = c ? (100 * (unit === 'GB/s' ? gbs : gflops) / c).toFixed(0) + '%' : '-';
  const lim = pctLimit(r), limit = lim === null ? '-' : lim.toFixed(0) + '%';
  console.log(`${f.peer.padEnd(16)} ${pad(f.shape, 5)} ${pad(f.threads, 3)} ${pad(f.min_ms, 9)} ${pad(f.median_ms, 9)} ${pad(f.max_ms, 9)} ${pad(gflops.toFixed(1), 8)} ${pad(gbs.toFixed(2), 6)} ${pad(pct, 7)} ${pad(limit, 7)} ${pad((Number(f.flops) / (Number(f.min_ms) * 1e6)).toFixed(1), 8)}  ${r.load}  ${f.note} (vs ${cname})`);
}
console.log('\nGFLOP/s, GB/s and % ceil at the median; GF/s@min at the fastest run.');
console.log('GFLOP/s: dense count 8 T d^2 + 4 T^2 d for (a)/(b) (the masked half included, as the');
console.log('peers compute it), 4 S D H for (c); GB/s: bytes / median; % ceil: of the FMA ceiling');
console.log('for (a)/(b), of read bandwidth for (c), each measured on the row\'s threads at once. % limit: the same ceilings, over');
console.log('the work no one can skip: 8 T d^2 + 2 T (T+1) d FLOP for (a)/(b) (the causal half');
console.log('left out, as this core does), the bytes read for (c). load: 1-min load average.');
// Where the core's (a) and (b) spend their time: each part timed alone, its
// share of the whole run's median and its own % of the FMA ceiling (the
// attention's work without the causal half, as % limit counts it).
if (parts.length) console.log('\nthe core in parts, each timed alone (four projections, then the attention):');
for (const p of parts.filter((p) => p.fields.part === 'projection')) {
  const f = p.fields, whole = results.find((r) => r.where === p.where && r.fields.peer === f.peer && r.fields.shape === f.shape && r.fields.threads === f.threads);
  const att = parts.find((a) => a.where === p.where && a.fields.part === 'attention' && a.fields.peer === f.peer && a.fields.shape === f.shape && a.fields.threads === f.threads);
  if (!whole || !att) continue;
  const [c] = ceiling(whole), of = (x) => `${(100 * Number(x.fields.flops) / (Number(x.fields.median_ms) * 1e6) / c).toFixed(0)}% of the ceiling`;
  const share = (ms) => `${(100 * ms / Number(whole.fields.median_ms)).toFixed(0)}% of the run`;
  console.log(`  ${f.peer} (${f.shape}) ${f.threads} thr: projections 4 x ${f.median_ms} ms (${share(4 * Number(f.median_ms))}) at ${of(p)}; attention ${att.fields.median_ms} ms (${share(Number(att.fields.median_ms))}) at ${of(att)}`);
}
// Two threads against one, for each peer run on both, beside what the
// machine's own ceilings gain from the second thread in the same run.
const scaling = [];
for (const r of results.filter((r) => r.fields.threads === '2')) {
  const one = results.find((o) => o.where === r.where && o.fields.threads === '1' && o.fields.peer === r.fields.peer && o.fields.shape === r.fields.shape);
  if (one) scaling.push(`${r.fields.peer} (${r.fields.shape}) ${(Number(one.fields.median_ms) / Number(r.fields.median_ms)).toFixed(2)}x`);
}
const gain = (name) => (ceilings[`native:${name}:2`] / ceilings[`native:${name}:1`]).toFixed(2);
const fmaName = ['avx512', 'avx2'].find((n) => ceilings[`native:fma_${n}:2`]);
if (scaling.length) console.log(`\ntwo threads over one, at the medians: ${scaling.join(', ')}; the ceilings: fma ${fmaName ? gain(`fma_${fmaName}`) : '-'}x, read ${gain('read_bw')}x`);
if (notes.length) console.log('\n' + notes.join('\n'));
console.log(`\nload average at end: ${loadavg()}\n`);
for (const r of results) {
  const f = r.fields, lim = pctLimit(r);
  console.log(`RESULT peer=${f.peer} shape=${f.shape} threads=${f.threads} min_ms=${f.min_ms} median_ms=${f.median_ms} max_ms=${f.max_ms} flops=${f.flops} bytes=${f.bytes}${lim === null ? '' : ` pct_limit=${lim.toFixed(1)}`} note=${f.note},load=${r.load}`);
}
