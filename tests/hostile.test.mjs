// hostile.test.mjs: submissions written as an attacker would, judged natively
// (tests/hostile/*.c, each file's first line its expected verdict): none may
// touch the judge, a neighbour judged at the same time, or the machine, and
// each gets its verdict in bounded time. Then a signal to the judge at any
// moment, and a class graded two at a time with the README's command (a folder, -j 2).
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync }
  from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, judge, judgeBin, expectation, namedMistake } from './lib/run.mjs';

const hostile = join(root, 'tests', 'hostile');
const corpus49 = join(root, 'tests', 'corpus', '49');
const files = readdirSync(hostile).filter((f) => f.endsWith('.c')).sort();

// Processes still running whose command line names `dir`: the runner lives
// in dir/judge-XXXXXX/run, and every compiler command names that folder too.
function processesIn(dir) {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(dir));
}

function privateTmp(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

// The attacks of issue 11, one file each: a verdict other than the expected
// one means the attack got through (each probe zeroes its answer then) or the
// judge mistook the fault.
describe('hostile submissions', { concurrency: 2 }, () => {
  for (const f of files) {
    const file = join(hostile, f);
    const want = expectation(file);
    it(`${f}: ${want.verdict}`, async () => {
      const tmp = privateTmp('hostile-');
      try {
        const started = Date.now();
        const r = await judge(['49', file, '--json'], { env: { ...process.env, TMPDIR: tmp } });
        const took = Date.now() - started;
        const report = JSON.parse(r.stdout);
        assert.equal(report.verdict, want.verdict, `${r.stdout.slice(0, 2000)}\n${r.stderr}`);
        assert.equal(r.code, want.verdict === 'AC' ? 0 : 1);
        // The slowest honest outcome is a TLE: 2 s of run, 300 ms of last words,
        // then the kill. Trickling output once kept the judge for minutes.
        assert.ok(took < 10_000, `judged in ${took} ms`);
        assert.deepEqual(readdirSync(tmp), [], 'files left behind in TMPDIR');
        assert.deepEqual(processesIn(tmp), [], 'processes left behind');
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  }
});

test('the times are the runner\'s: a write() or clock_gettime() of the learner\'s cannot forge them', async () => {
  const r = await judge(['49', join(hostile, 'ac-forges-its-times.c'), '--json']);
  for (const c of JSON.parse(r.stdout).cases) assert.ok(c.time_ms >= 1.9, `${c.name}: ${c.time_ms} ms, for 2 ms spent`);
});

test('the stack verdicts name their cause', async () => {
  const detail = async (f) => {
    const r = await judge(['49', join(hostile, f), '--json']);
    const report = JSON.parse(r.stdout);
    return report.cases.find((c) => c.name === report.failed_case).detail;
  };
  assert.match(await detail('re-stack-array-16mib.c'), /^stack overflow/);
  assert.match(await detail('re-stack-local-matrix.c'), /^stack overflow/);
  assert.match(await detail('mle-mmap-then-recurse.c'), /stack could not grow/);
  assert.match(await detail('re-heap-smash.c'), /SIGABRT/);
});

test('scratch space written past its end is the learner\'s own buffer, not an input', async () => {
  const file = join(root, 'tests', 'corpus', '55', 're-scratch-stats-after-the-tile.c');
  const report = JSON.parse((await judge(['55', file, '--json'])).stdout);
  assert.equal(report.cases.find((c) => c.name === report.failed_case).detail,
    'wrote scratch[4096], past its end: scratch has 4096 elements, indices 0 to 4095');
});

test('a signal with no story of its own is named, in English or Chinese', async () => {
  for (const [lang, want] of [['en', 'ended by a signal it did not handle (SIGPIPE)'], ['zh', '被一个它没有处理的信号终止（SIGPIPE）']]) {
    const report = JSON.parse((await judge(['49', join(hostile, 're-raise-sigpipe.c'), '--json', '--lang', lang])).stdout);
    assert.equal(report.cases.find((c) => c.name === report.failed_case).detail, want);
  }
});

// Each compile-time attack is refused for its own reason, not by chance.
test('the compile-time attacks fail where they should', async () => {
  const diagnostics = async (f) => {
    const r = await judge(['49', join(hostile, f), '--json']);
    return JSON.parse(r.stdout).compile.diagnostics;
  };
  assert.match(await diagnostics('ce-lto-section.c'), /link-time section \.gnu\.lto_/);
  assert.match(await diagnostics('ce-initialised-64mib.c'), /judge: the compiled program passed the judge's 64 MiB limit on a file/);
  assert.match(await diagnostics('ce-incbin-secret.c'), /\/etc\/passwd/);
  assert.doesNotMatch(await diagnostics('ce-incbin-secret.c'), /root:/);
  assert.match(await diagnostics('ce-includes-neighbour.c'), /ac-honest\.c: Permission denied/);
  assert.equal(existsSync('/tmp/pwned-by-lto'), false);
});

// Start ./judge, send `signal` after `afterMs`; resolves how it ended.
function judgeThenSignal(file, signal, afterMs, tmp) {
  return new Promise((resolve) => {
    const child = spawn(judgeBin, ['49', file, '--json'],
      { cwd: root, env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let sentAt = 0;
    child.stdout.on('data', (d) => { stdout += d; });
    const timer = setTimeout(() => { sentAt = Date.now(); child.kill(signal); }, afterMs);
    child.on('exit', (code, sig) => {
      clearTimeout(timer);
      resolve({ code, signal: sig, stdout, reactedMs: sentAt ? Date.now() - sentAt : -1 });
    });
  });
}

// Starting, compiling (the macro bomb keeps the compiler busy for seconds),
// running (a program asleep in a call, one printing dots): wherever the judge
// waits, it cleans up and dies of the signal. Each file runs far longer than
// its delay, so the signal never comes after the end.
describe('a signal to the judge', { concurrency: 1 }, () => {
  const cases = [
    ['SIGTERM', 'compiling', join(corpus49, 'ce-macro-bomb.c'), 600],
    ['SIGINT', 'running', join(corpus49, 'tle-sleep-forever.c'), 1500],
    ['SIGHUP', 'the program trickles output', join(hostile, 'tle-trickle.c'), 1500],
    ['SIGTERM', 'just started', join(corpus49, 'ce-macro-bomb.c'), 60],
  ];
  for (const [signal, where, file, afterMs] of cases) {
    it(`${signal} while ${where}`, async () => {
      const tmp = privateTmp('signal-');
      try {
        const r = await judgeThenSignal(file, signal, afterMs, tmp);
        assert.equal(r.signal, signal, `exit code ${r.code}`);
        assert.equal(r.stdout, '', 'no report from an interrupted run');
        assert.ok(r.reactedMs >= 0 && r.reactedMs < 1000, `died ${r.reactedMs} ms after the signal`);
        assert.deepEqual(readdirSync(tmp), [], 'files left behind in TMPDIR');
        assert.deepEqual(processesIn(tmp), [], 'processes left behind');
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  }
});

// A class graded as the README says (a folder, -j 2): every hostile file among
// two thirds of the problem-49 corpus (all but the slow-by-design TLE files and
// compiler bombs), so attackers run beside honest neighbours. Afterwards every
// JSON parses, every verdict is as its file expects, nothing runs, nothing is
// left in TMPDIR.
test('class-grading soak: 40+ submissions judged two at a time', async () => {
  const slow = (f) => f.startsWith('tle-') || ['ce-macro-bomb.c', 'ce-include-dev-zero.c'].includes(f);
  const honest = readdirSync(corpus49).filter((f) => f.endsWith('.c') && !slow(f)).sort()
    .filter((_, i) => i % 3 !== 2);
  const work = privateTmp('soak-');
  const tmp = join(work, 'tmp');
  const dir = join(work, 'class');
  try {
    mkdirSync(tmp);
    mkdirSync(dir);
    for (const f of honest) copyFileSync(join(corpus49, f), join(dir, f));
    for (const f of readdirSync(hostile)) copyFileSync(join(hostile, f), join(dir, f));
    const submissions = readdirSync(dir).filter((f) => f.endsWith('.c'));
    assert.ok(submissions.length >= 40, `only ${submissions.length} submissions`);
    const started = Date.now();
    await new Promise((resolve, reject) => {
      const grade = `./judge 49 ${dir} -j 2 --json > ${join(work, 'class.jsonl')}`;
      const grading = spawn('sh', ['-c', grade],
        { cwd: root, env: { ...process.env, TMPDIR: tmp }, stdio: 'ignore' });
      grading.on('error', reject);
      grading.on('exit', resolve);
    });
    const took = Date.now() - started;
    const wrong = [];
    const lines = readFileSync(join(work, 'class.jsonl'), 'utf8').split('\n').filter(Boolean);
    assert.equal(lines.length, submissions.length, 'one line per file');
    for (const [i, f] of [...submissions].sort().entries()) {
      const text = lines[i];
      let report;
      try {
        report = JSON.parse(text);
      } catch {
        wrong.push(`${f}: not JSON: ${text.slice(0, 200)}`);
        continue;
      }
      if (report.file !== join(dir, f)) wrong.push(`line ${i}: ${report.file}, expected ${f}`);
      const want = expectation(join(dir, f));
      if (report.verdict !== want.verdict) {
        wrong.push(`${f}: ${report.verdict}, expected ${want.verdict}`);
      } else if (want.verdict === 'WA' && namedMistake(report) !== want.mistake) {
        wrong.push(`${f}: mistake ${namedMistake(report)}, expected ${want.mistake}`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.deepEqual(processesIn(work), [], 'processes left behind');
    assert.deepEqual(readdirSync(tmp), [], 'files left behind in TMPDIR');
    assert.ok(took < 90_000, `the soak took ${took} ms`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
