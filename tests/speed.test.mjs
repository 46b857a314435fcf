// speed.test.mjs: `--speed`, the speed tier (libjudge/speed.c), on both
// backends. No timed assertion: the figures are whatever this machine
// gives, so the tests hold their shape and their arithmetic (ratio, rates,
// % of the ceiling, tiers by the documented thresholds) and the rules (no
// speed run unless every case passes; a wrong result there is WA). The
// speed cases are big: each backend runs 49's solution once, and the other
// problems' natively (the backends share the counting, speed.c).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { judge, judgeWasm, judgeBin, root } from './lib/run.mjs';
import { nodePlatform } from '../wasm/platform_node.mjs';
import { createPipeline } from '../wasm/pipeline.mjs';

const solution = join('problems', '49-causal-mha', 'solution.c');
const slow = { timeout: 600_000 };
const rank = ['gold', 'silver', 'bronze', 'none'];
// The best tier whose threshold (a ratio to the core's time) the ratio is within.
const tierOf = (tiers, ratio) => rank.find((t) => t === 'none' || ratio <= tiers[t]);
const close = (a, b) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));

function checkSpeed(speed, backend) {
  assert.deepEqual(Object.keys(speed), ['backend', 'simd', 'tier', 'tiers', 'cases', 'skipped']);
  // README: gold within 1.25x the core's time, silver 2x, bronze 4x.
  assert.deepEqual(speed.tiers, { gold: 1.25, silver: 2, bronze: 4 });
  assert.equal(speed.backend, backend);
  assert.ok(['avx512', 'avx2', 'v128', 'scalar'].includes(speed.simd), speed.simd);
  assert.equal(speed.skipped, null);
  assert.equal(speed.cases.length, 1);
  const c = speed.cases[0];
  assert.deepEqual(Object.keys(c), ['name', 'sizes', 'runs', 'ms', 'min_ms', 'core_ms', 'ratio', 'bound', 'work',
    'rate', 'core_rate', 'ceiling', 'pct_ceiling', 'tier']);
  assert.equal(c.name, 'speed-512');
  assert.deepEqual(c.sizes, { B: 1, T: 512, d: 512, n_heads: 8, causal: 1 });
  assert.ok(c.runs >= 5);
  assert.ok(c.min_ms > 0 && c.min_ms <= c.ms && c.core_ms > 0, JSON.stringify(c));
  assert.ok(close(c.ratio, c.ms / c.core_ms), JSON.stringify(c));
  // core/att_work.c: 8 T d^2 + 2 T (T + 1) d, the causal half skipped.
  assert.equal(c.bound, 'flops');
  assert.equal(c.work, 8 * 512 * 512 * 512 + 2 * 512 * 513 * 512);
  assert.ok(close(c.rate, c.work / (c.ms * 1e6)) && close(c.core_rate, c.work / (c.core_ms * 1e6)), JSON.stringify(c));
  assert.ok(c.ceiling > 0 && close(c.pct_ceiling, (c.rate / c.ceiling) * 100), JSON.stringify(c));
  assert.equal(c.tier, tierOf(speed.tiers, c.ratio));
  assert.equal(speed.tier, rank[Math.max(...speed.cases.map((x) => rank.indexOf(x.tier)))]);
}

for (const [backend, run] of [['native', judge], ['wasm', judgeWasm]]) {
  test(`${backend}: 49's solution with --speed --json has the speed object, its figures consistent`, async () => {
    const r = await run(['49', solution, '--speed', '--json'], slow);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.verdict, 'AC');
    checkSpeed(report.speed, backend);
  });

  test(`${backend}: a wrong submission gets no speed run, and the reason`, async () => {
    const r = await run(['49', join('tests', 'corpus', '49', 'wa-no-causal-mask.c'), '--speed', '--json']);
    assert.equal(r.code, 1, r.stderr);
    const { verdict, speed } = JSON.parse(r.stdout);
    assert.equal(verdict, 'WA');
    assert.equal(speed.tier, 'none');
    assert.deepEqual(speed.cases, []);
    assert.match(speed.skipped.reason, /not run: .*every correctness case passes \(the verdict is WA\)/);
  });
}

// The other speed cases, each with its work counted here again from the
// statement's sizes (core/att_work.c's counts, written out).
const others = [
  { id: '52', dir: '52-kv-cache-decode', sizes: { B: 1, S_max: 4096, H: 8, D: 128 }, bound: 'bytes',
    // the K and V rows of 4096 positions, q and out, as floats
    work: 4 * (2 * 4096 * 8 * 128 + 2 * 8 * 128) },
  { id: '59', dir: '59-paged-decode', bound: 'bytes',
    sizes: { B: 1, H: 32, Hkv: 8, D: 128, num_blocks: 272, block_size: 16, max_blocks: 256 },
    // the 8 kv heads' K and V rows of 4096 positions once, q and out of 32 heads
    work: 4 * (2 * 4096 * 8 * 128 + 2 * 32 * 128) },
  { id: '61', dir: '61-mla-decode', bound: 'flops',
    sizes: { B: 1, H: 32, S: 4096, d_c: 512, d_nope: 128, d_r: 64, d_v: 128 },
    // per head: q_lat (2 d_c d_nope), per key a score (2 (d_c + d_r)) and a latent sum (2 d_c), out (2 d_c d_v)
    work: 32 * 2 * (512 * 128 + 4096 * (2 * 512 + 64) + 512 * 128) },
  { id: '64', dir: '64-int8-kv-cache', sizes: { B: 1, S_max: 4096, H: 32, D: 128 }, bound: 'bytes',
    // int8 K and V rows, a float scale per (position, head) for each, q k v out as floats
    work: 2 * 4096 * 32 * 128 + 2 * 4 * 4096 * 32 + 4 * 4 * 32 * 128 },
];
for (const o of others) {
  test(`native: ${o.id}'s speed case, bound by ${o.bound === 'bytes' ? 'reading memory' : 'arithmetic'}, counts its work as att_work.c does`, slow, async () => {
    const r = await judge([o.id, join('problems', o.dir, 'solution.c'), '--speed', '--json'], slow);
    assert.equal(r.code, 0, r.stderr);
    const { speed } = JSON.parse(r.stdout);
    assert.equal(speed.skipped, null);
    const [c] = speed.cases;
    assert.deepEqual(c.sizes, o.sizes);
    assert.equal(c.bound, o.bound);
    assert.equal(c.work, o.work);
    assert.ok(c.core_ms > 0 && close(c.ratio, c.ms / c.core_ms), JSON.stringify(c));
    assert.ok(close(c.rate, c.work / (c.ms * 1e6)) && close(c.pct_ceiling, (c.rate / c.ceiling) * 100), JSON.stringify(c));
    assert.equal(c.tier, tierOf(speed.tiers, c.ratio));
    assert.equal(speed.tier, c.tier);
  });
}

test('native: a wrong result in a speed case is WA of that case, told in both languages', async () => {
  const file = join('tests', 'speed', '49-window-256.c');
  const r = await judge(['49', file, '--speed', '--json'], slow);
  assert.equal(r.code, 1, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.verdict, 'WA');
  assert.equal(report.failed_case, 'speed-512');
  assert.ok(report.cases.every((c) => c.verdict === 'AC'));
  assert.deepEqual(report.speed.cases, []);
  assert.match(report.speed.skipped.reason, /^speed case speed-512: wrong result, \d+ values outside the tolerance/);
  const zh = await judge(['49', file, '--speed', '--lang', 'zh'], slow);
  assert.equal(zh.code, 1);
  assert.match(zh.stdout, /速度用例 speed-512：结果错误/);
  assert.doesNotMatch(zh.stdout, /没有哪个已知错误/);
});

// Past the speed runs' budget (100x the core's time, plus 10 s): no tier,
// "too slow", and the verdict stays the correctness run's, on both backends.
for (const [backend, run] of [['native', judge], ['wasm', judgeWasm]]) {
  test(`${backend}: speed runs past their budget are too slow, the verdict AC`, slow, async () => {
    const file = join('tests', 'speed', '49-spins-at-speed.c');
    const r = await run(['49', file, '--speed', '--json'], slow);
    assert.equal(r.code, 0, r.stderr);
    const { verdict, speed } = JSON.parse(r.stdout);
    assert.equal(verdict, 'AC');
    assert.deepEqual(speed.cases, []);
    assert.equal(speed.tier, 'none');
    assert.match(speed.skipped.reason, /^no tier, too slow: .*budget of \d+\.\d s \(100× the core's time on the same calls, plus 10 s\)$/);
  });
}

// Every process's parent and allowed CPUs, from /proc (Linux).
function processes() {
  const all = new Map();
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      all.set(Number(pid), { ppid: Number(status.match(/^PPid:\s*(\d+)/m)[1]),
        cpus: status.match(/^Cpus_allowed_list:\s*(\S+)/m)[1] });
    } catch { /* gone meanwhile */ }
  }
  return all;
}

// native.c pins the speed runs to the judge's CPU: the learner's calls (in
// the child) and the core's timings (in the judge) on two CPUs measured the
// CPUs as much as the code. The file sleeps in its speed calls, so the
// judge's processes can be looked at meanwhile.
test('native: the speed runs\' child and the judge are on one CPU, the same', { ...slow,
  skip: availableParallelism() < 2 && 'one CPU: nothing to pin' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aj-pin-'));
  const file = join(dir, 'sleepy.c');
  writeFileSync(file, `#define mha gold_mha
${readFileSync(join(root, 'tests', 'corpus', '49', 'AC-speed-gold.c'), 'utf8')}
#undef mha
#include <time.h>
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    if (T == 512) nanosleep(&(struct timespec){ 0, 150000000 }, NULL);
    gold_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
}
`);
  try {
    const child = spawn(judgeBin, ['49', file, '--speed', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (b) => { stdout += b; });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const seen = [];   // [the judge's CPUs, its descendants' CPUs] while it has any
    let running = true;
    exited.then(() => { running = false; });
    while (running) {
      const all = processes(), mine = all.get(child.pid);
      const below = [...all].filter(([, p]) => {
        for (let up = p.ppid; up > 1; up = all.get(up)?.ppid ?? 0) if (up === child.pid) return true;
        return false;
      }).map(([, p]) => p.cpus);
      if (mine && below.length) seen.push([mine.cpus, below]);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(await exited, 0, stdout);
    assert.ok(JSON.parse(stdout).speed.cases.length === 1, stdout);
    const pinned = seen.filter(([cpus, below]) => /^\d+$/.test(cpus) && below.every((c) => c === cpus));
    assert.ok(pinned.length > 0, `never pinned with its child: ${JSON.stringify(seen.slice(-5))}`);
    assert.ok(seen.some(([cpus]) => !/^\d+$/.test(cpus)), 'the correctness runs are not pinned');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--speed judges one file: refused with --watch, on both CLIs alike', async () => {
  const args = ['49', solution, '--speed', '--watch'];
  const [n, w] = await Promise.all([judge(args), judgeWasm(args)]);
  assert.equal(n.code, 2);
  assert.match(n.stderr, /--speed judges one file/);
  assert.equal(w.code, 2);
  assert.equal(w.stderr, n.stderr);
});

// The core is timed right after each of the learner's speed calls (speed.c),
// in wasm by the run worker itself, on the learner's thread (judge.h,
// judge_time_speed_core): the report's core median is the one of the times
// the worker sent. The requests still go one at a time, each after the reply
// before it (neither side holds every call's tensors).
test('wasm: the run worker times the core after each speed call; each call starts after the reply before it', slow, async () => {
  const platform = nodePlatform();
  const epoch = () => performance.timeOrigin + performance.now();
  const logs = [];   // per run worker: when the judge said 'next', and the replies
  const startRunWorker = () => {
    const w = platform.startRunWorker(), log = { nexts: [], replies: [] };
    logs.push(log);
    return {
      ...w,
      post: (data, transfer) => {
        if (data.type === 'next') log.nexts.push(epoch());
        w.post(data, transfer);
      },
      onMessage: (fn) => w.onMessage((m) => {
        if (m.type === 'reply') log.replies.push(m);
        fn(m);
      }),
    };
  };
  const pipeline = await createPipeline({ ...platform, startRunWorker });
  try {
    const r = JSON.parse((await pipeline.judge('49', readFileSync(solution, 'utf8'), { speed: true })).json);
    assert.equal(r.verdict, 'AC');
    assert.equal(r.speed.skipped, null);
    const paced = logs.filter((l) => l.nexts.length);
    assert.equal(paced.length, 1, 'the speed runs, and only they, are paced');
    const [{ nexts, replies }] = paced;
    assert.equal(replies.length, r.speed.cases[0].runs + 1);   // and the warm-up
    assert.equal(nexts.length, replies.length - 1);
    for (let k = 1; k < replies.length; k++)
      assert.ok(replies[k].start >= nexts[k - 1] - 1, `call ${k} started ${(nexts[k - 1] - replies[k].start).toFixed(1)} ms before its go-ahead`);
    assert.ok(replies.every((m) => m.coreMs > 0), JSON.stringify(replies.map((m) => m.coreMs)));
    assert.ok(logs.filter((l) => !l.nexts.length).every((l) => l.replies.every((m) => m.coreMs === null)),
      'the correctness runs time no core in the worker');
    const timed = replies.slice(1).map((m) => m.coreMs).sort((a, b) => a - b);   // call 0 warms up
    assert.ok(close(r.speed.cases[0].core_ms, timed[(timed.length - 1) / 2]), `${r.speed.cases[0].core_ms} vs ${timed}`);
  } finally {
    pipeline.close();
  }
});
