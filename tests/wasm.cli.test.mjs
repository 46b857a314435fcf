// wasm.cli.test.mjs: `node wasm/judge.mjs` is a drop-in for ./judge: the same
// errors and exit statuses, the same list, the same reports (times aside),
// the same working copy; and the wasm judge makes bit-identical hidden inputs
// for every case of every problem, under the default seed and another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, judge, judgeWasm, judgeWasmCli, watchSaves } from './lib/run.mjs';
import { nodePlatform } from '../wasm/platform_node.mjs';
import { createPipeline } from '../wasm/pipeline.mjs';

const solution = join('problems', '49-causal-mha', 'solution.c');
const corpus = (f) => join('tests', 'corpus', '49', f);

for (const args of [
  [], ['999', solution], ['49', '/nonexistent/file.c'], ['49', solution, '--colour'],
  ['49', solution, '--seed', 'abc'], ['49', solution, '--seed', '-1'], ['49', solution, '--seed'],
  ['49', solution, '-j', 'x'], ['49', 'problems'], ['list', 'x'], ['49', solution, '--json', '--csv'],
  ['--completion', 'fish'], ['49', solution, solution, '--watch'],
]) {
  test(`bad input ${JSON.stringify(args)}: the same line on stderr and status 2 as ./judge`, async () => {
    const [n, w] = await Promise.all([judge(args), judgeWasm(args)]);
    assert.equal(n.code, 2);
    assert.equal(w.code, 2, w.stderr);
    assert.equal(w.stdout, '');
    if (args.length) assert.equal(w.stderr, n.stderr);
    else assert.match(w.stderr, /^usage: judge <id\|slug> \[FILE\] \[--json\] \[--seed N\] \[--lang en\|zh\]/);
    if (!args.length) return;
    // The same complaint in Chinese, on both CLIs alike.
    const zh = [...args, '--lang', 'zh'];
    const [nz, wz] = await Promise.all([judge(zh), judgeWasm(zh)]);
    assert.equal(nz.code, 2);
    assert.equal(wz.stderr, nz.stderr);
    assert.match(nz.stderr, /^judge: .*[\u4e00-\u9fff]/, nz.stderr);
  });
}

test('--help and list print what ./judge prints', async () => {
  const [n, w] = await Promise.all([judge(['list']), judgeWasm(['list'])]);
  assert.equal(w.code, 0);
  assert.equal(w.stdout, n.stdout);
  const h = await judgeWasm(['--help']);
  assert.equal(h.code, 0);
  // The same usage, but for the Environment line(s): each CLI has its own.
  const common = (text) => text.slice(0, text.indexOf('Environment:'));
  const native = (await judge(['--help'])).stdout;
  assert.ok(common(native).length > 100, native);
  assert.equal(common(h.stdout), common(native));
});

// The report without its measured numbers: times differ from run to run, and
// errors in the last bits (the native reference kernels may use FMA, wasm
// SIMD128 has none), so every number with a fraction is masked.
const unmeasured = (text) => text.replace(/ *\d+\.\d+ ms/g, ' t').replace(/-?\d+\.\d+(?:e[+-]?\d+)?/g, 'x');
const MEASURED = ['time_ms', 'ref_ms', 'max_abs', 'max_rel', 'max_ratio'];

for (const [file, code] of [[solution, 0], [corpus('wa-no-causal-mask.c'), 1], [corpus('ac-printf-debug.c'), 0],
  [corpus('re-write-past-end.c'), 1], [corpus('tle-infinite-loop.c'), 1]]) {
  test(`${file}: the same report as ./judge (measurements aside), status ${code}`, async () => {
    const [n, w] = await Promise.all([judge(['49', file]), judgeWasm(['49', file])]);
    assert.equal(n.code, code);
    assert.equal(w.code, code, w.stderr);
    assert.equal(unmeasured(w.stdout), unmeasured(n.stdout));
    const [nj, wj] = await Promise.all([judge(['49', file, '--json']), judgeWasm(['49', file, '--json'])]);
    const a = JSON.parse(nj.stdout), b = JSON.parse(wj.stdout);
    assert.equal(b.backend, 'wasm');
    for (const r of [a, b]) {
      delete r.backend;
      for (const c of r.cases) {
        for (const k of MEASURED) delete c[k];
        if (c.first_bad) { delete c.first_bad.expected; delete c.first_bad.got; }
      }
    }
    assert.deepEqual(b, a);
  });
}

test('without FILE: the same working copy, made once from the starter', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'wasm-cli-'));
  try {
    const env = { ...process.env, JUDGE_WORKSPACE: ws };
    const first = await judgeWasm(['49'], { env });
    const copy = join(ws, '49-causal-mha.c');
    assert.match(first.stderr, new RegExp(`created your working copy ${copy}`));
    assert.equal(readFileSync(copy, 'utf8'), readFileSync(join(root, 'problems', '49-causal-mha', 'starter.c'), 'utf8'));
    assert.equal(first.code, 1);
    const second = await judgeWasm(['causal-mha'], { env });
    assert.match(second.stderr, /judging your working copy/);
    assert.ok(existsSync(copy));
    const [nz, wz] = await Promise.all([judge(['49', '--lang', 'zh'], { env }), judgeWasm(['49', '--lang', 'zh'], { env })]);
    assert.equal(wz.stderr.split('\n')[0], `judge: 正在评测你的工作副本 ${copy}`);
    assert.equal(nz.stderr.split('\n')[0], wz.stderr.split('\n')[0]);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('hidden inputs are bit-identical: every case of every problem, two seeds', async () => {
  const pipeline = await createPipeline(nodePlatform());
  try {
    assert.ok(pipeline.problems.length >= 1);
    for (const p of pipeline.problems) {
      const file = join('problems', p.dir, 'solution.c');
      const source = readFileSync(join(root, file), 'utf8');
      for (const seed of [null, '7']) {
        const args = [String(p.id), file, '--json', ...(seed ? ['--seed', seed] : [])];
        const native = JSON.parse((await judge(args)).stdout);
        const wasm = JSON.parse((await pipeline.judge(p.id, source, seed ? { file, seed } : { file })).json);
        assert.equal(wasm.seed, native.seed);
        assert.ok(native.cases.length > 0, `${p.slug}: no cases`);
        assert.deepEqual(wasm.cases.map((c) => [c.name, c.input_hash]),
          native.cases.map((c) => [c.name, c.input_hash]), `${p.slug} seed ${seed ?? 'default'}`);
        assert.equal(wasm.verdict, 'AC', `${p.slug}: the reference solution under wasm`);
      }
    }
  } finally {
    pipeline.close();
  }
});

// ---- the report's language, and text that cannot forge it: as ./judge ----
const forge = join('tests', 'corpus-i18n', '49-forge-verdict.c');

for (const file of [corpus('wa-no-causal-mask.c'), corpus('re-write-past-end.c'), corpus('tle-infinite-loop.c')]) {
  test(`${file} --lang zh: the same Chinese report as ./judge, the same ids as in English`, async () => {
    const [n, w] = await Promise.all([judge(['49', file, '--lang', 'zh']), judgeWasm(['49', file, '--lang', 'zh'])]);
    assert.equal(w.code, 1, w.stderr);
    assert.equal(unmeasured(w.stdout), unmeasured(n.stdout));
    assert.match(w.stdout, /^ {2}用例 +判定 +用时 +最大绝对误差 +错误数$/m);
    assert.match(w.stdout, /\n判定：(WA（答案错误）|RE（运行错误）|TLE（时间超限）)\n$/);
    assert.match(w.stdout, /用例 example：(out\[.*\]：应为 \S+，实际为 \S+|写了 out\[12\]，超出了它的末尾|2000 毫秒后仍在运行)/);
    const [en, zh] = await Promise.all(['en', 'zh'].map(async (lang) =>
      JSON.parse((await judgeWasm(['49', file, '--json', '--lang', lang])).stdout)));
    assert.equal(zh.lang, 'zh');
    assert.equal(zh.verdict, en.verdict);
    assert.notEqual(zh.verdict_text, en.verdict_text);
    const failed = (r) => r.cases.find((c) => c.name === r.failed_case);
    assert.equal(failed(zh).detail_id, failed(en).detail_id);
  });
}

// A trap is told in the judge's words in either language: the engine's
// own ("divide by zero", "unreachable") differ between browsers and are
// English only.
test('a trap is told in the judge\'s words, not the engine\'s, in English and Chinese', async () => {
  for (const [file, en, zh, engine] of [
    ['re-div-by-zero.c', 'integer division by zero', '整数除以零', /divide by zero/],
    ['re-abort.c', 'abort() was called or unreachable code was reached', '调用了 abort() 或执行到了不可达代码', /unreachable\)|wasm/],
    ['re-stack-overflow.c', 'stack overflow: the stack grew past its 8 MiB', '栈溢出：栈超过了 8 MiB', /out of bounds|wasm/],
  ]) {
    for (const [lang, text] of [['en', en], ['zh', zh]]) {
      const r = JSON.parse((await judgeWasm(['49', corpus(file), '--json', '--lang', lang])).stdout);
      const detail = r.cases.find((c) => c.name === r.failed_case).detail;
      assert.ok(detail.startsWith(text), `${file} ${lang}: ${detail}`);
      assert.doesNotMatch(detail, engine, `${file} ${lang}`);
    }
  }
});

// The judge's own lines under clang's (a link error explained): in the
// report's language on both CLIs, whichever language compiled it first (the
// wasm compile cache keeps clang's text, not the judge's words).
// A helper defined under another name than it is called by is named; the
// problem's function, which is defined, is not.
const defineMha = ['judge: the file must define the function mha', 'judge: 文件必须定义函数 mha'];
for (const [file, en, zh, never = []] of [
  ['ce-misspelled-name.c', 'judge: the file must define the function mha (', 'judge: 文件必须定义函数 mha（'],
  ['ce-defines-main.c', 'judge: remove main(): a submission defines only mha;', 'judge: 请删去 main()：提交只需定义 mha，'],
  ['ce-helper-misspelt.c', 'judge: dot_row is used but defined nowhere: a misspelt name,', 'judge: 用到了 dot_row，但哪里都没有定义它：名字拼错了', defineMha],
]) {
  test(`${file}: the judge's line under the link error in English and in Chinese, on both CLIs`, async () => {
    for (const [lang, line, other] of [['en', en, zh], ['zh', zh, en]]) {
      const [n, w] = await Promise.all([judge(['49', corpus(file), '--lang', lang]), judgeWasm(['49', corpus(file), '--lang', lang])]);
      for (const [cli, r] of [['native', n], ['wasm', w]]) {
        assert.equal(r.code, 1, `${cli} ${lang}: ${r.stderr}`);
        assert.ok(r.stdout.includes(line), `${cli} ${lang}: ${r.stdout}`);
        assert.ok(!r.stdout.includes(other), `${cli} ${lang}: only its own language`);
        for (const text of never) assert.ok(!r.stdout.includes(text), `${cli} ${lang}: ${r.stdout}`);
      }
      const json = JSON.parse((await judgeWasm(['49', corpus(file), '--json', '--lang', lang])).stdout);
      assert.ok(json.compile.diagnostics.includes(line), `wasm --json ${lang}: ${json.compile.diagnostics}`);
    }
  });
}

test('after --, a file whose name starts with - is a file, on both CLIs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dash-'));
  try {
    writeFileSync(join(dir, '-x.c'), readFileSync(join(root, 'problems', '49-causal-mha', 'solution.c')));
    for (const run of [judge, judgeWasm]) {
      const r = await run(['49', '--json', '--', join(dir, '-x.c')]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).verdict, 'AC');
      assert.equal((await run(['49', '-x.c'], { cwd: dir })).code, 2, 'without --, an option');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing file: the same line on both CLIs, the system error in the report\'s language', async () => {
  for (const [lang, want] of [['en', 'judge: cannot read /nonexistent/file.c: No such file or directory\n'],
    ['zh', 'judge: 无法读取 /nonexistent/file.c：没有这个文件或目录\n']]) {
    const [n, w] = await Promise.all([judge(['49', '/nonexistent/file.c', '--lang', lang]), judgeWasm(['49', '/nonexistent/file.c', '--lang', lang])]);
    assert.equal(n.stderr, want);
    assert.equal(w.stderr, want);
    assert.equal(w.code, 2);
  }
});

test('LANG=zh_CN.UTF-8 picks Chinese, LC_ALL first; --lang xx is the same one line as ./judge', async () => {
  const env = (vars) => ({ env: { ...process.env, LC_ALL: '', LANG: '', ...vars } });
  const zh = await judgeWasm(['49', solution], env({ LANG: 'zh_CN.UTF-8' }));
  assert.match(zh.stdout, /判定：AC（通过）\n你的用时：.*\n$/);
  const en = await judgeWasm(['49', solution], env({ LANG: 'zh_CN.UTF-8', LC_ALL: 'C' }));
  assert.match(en.stdout, /verdict: AC \(Accepted\)\nyour time: .*\n$/);
  const [n, w] = await Promise.all([judge(['49', solution, '--lang', 'xx']), judgeWasm(['49', solution, '--lang', 'xx'])]);
  assert.equal(w.code, 2);
  assert.equal(w.stdout, '');
  assert.equal(w.stderr, n.stderr);
  assert.equal(w.stderr, "judge: --lang needs en or zh, not 'xx'\n");
  const [nh, wh] = await Promise.all([judge(['--help', '--lang', 'zh']), judgeWasm(['--help', '--lang', 'zh'])]);
  const common = (text) => text.slice(0, text.indexOf('环境变量：'));
  assert.match(wh.stdout, /^用法：judge/);
  assert.equal(common(wh.stdout), common(nh.stdout));
});

test('control characters from the program and in the file name are escaped, as natively', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wasm-cli-'));
  try {
    const named = join(dir, 'a\x1b[2Jb.c');
    writeFileSync(named, readFileSync(join(root, forge), 'utf8'));
    for (const file of [forge, named]) {
      const [n, w] = await Promise.all([judge(['49', file]), judgeWasm(['49', file])]);
      assert.equal(w.code, 1, w.stderr);
      assert.match(w.stdout, /^ {2}\| \\x1b\[32mverdict: AC\\r$/m);
      assert.doesNotMatch(w.stdout, /[\x00-\x08\x0b-\x1f\x7f]/);
      assert.equal(unmeasured(w.stdout), unmeasured(n.stdout));
    }
    assert.match((await judgeWasm(['49', named])).stdout, /^file: .*a\\x1b\[2Jb\.c$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- issue 15 ----
test('--version, the completion scripts and --hint print what ./judge prints', async () => {
  for (const args of [['--version'], ['--completion', 'bash'], ['--completion', 'zsh'], ['49', '--hint'], ['49', '--hint', '2', '--lang', 'zh']]) {
    // A workspace each: --hint counts in it, and the two run at once.
    const ws = [mkdtempSync(join(tmpdir(), 'hint-')), mkdtempSync(join(tmpdir(), 'wasm-hint-'))];
    try {
      const env = ws.map((w) => {
        const e = { ...process.env, JUDGE_WORKSPACE: w };
        delete e.LC_ALL;
        delete e.LANG;
        return e;
      });
      const [n, w] = await Promise.all([judge(args, { env: env[0] }), judgeWasm(args, { env: env[1] })]);
      assert.equal(w.code, n.code, `${args}: ${w.stderr}`);
      assert.equal(w.stdout, n.stdout, args.join(' '));
      assert.equal(w.stderr, n.stderr, args.join(' '));
    } finally {
      for (const w of ws) rmSync(w, { recursive: true, force: true });
    }
  }
});

test('an accepted report ends with the time beside the reference\'s, as natively', { timeout: 180_000 }, async () => {
  const r = await judgeWasm(['49', solution]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\nyour time: [\d.]+ ms in all, the reference [\d.]+ ms \([\d.]+× the reference\)\n$/);
});

test('--watch judges again after a save', { timeout: 300_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'wasm-watch-'));
  try {
    const r = await watchSaves(process.execPath, [judgeWasmCli, '49'], {
      tmp, env: process.env, reportsWanted: 2,
      first: join(root, corpus('wa-no-scale.c')),
      saves: [{ after: 1, file: join(root, solution) }],
    });
    assert.equal(r.signal, 'SIGINT', `exit ${r.code}`);
    assert.deepEqual(r.reports.map((x) => x.verdict), ['WA', 'AC']);
    assert.ok(r.reports.every((x) => x.backend === 'wasm' && x.file === r.file));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
