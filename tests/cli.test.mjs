// cli.test.mjs: ./judge behaves like a good Unix tool: usage, errors with
// status 2 and one clear line, exit statuses by verdict, plain output when
// piped, the working copy that is made once and never overwritten.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync, rmSync, existsSync, cpSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { root, judge, judgeBin, watchSaves } from './lib/run.mjs';

const solution = join(root, 'problems', '49-causal-mha', 'solution.c');
const starter = join(root, 'problems', '49-causal-mha', 'starter.c');

function scratch() {
  return mkdtempSync(join(tmpdir(), 'cli-'));
}

test('--help prints the usage and exits 0', async () => {
  const r = await judge(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^usage: judge <id\|slug> \[FILE\] \[--json\] \[--seed N\]/);
});

test('no arguments: usage on stderr, status 2', async () => {
  const r = await judge([]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^usage:/);
  assert.equal(r.stdout, '');
});

for (const [args, pattern] of [
  [['99', solution], /^judge: no problem '99' \(judge list shows them\)\n$/],
  [['49', '/nonexistent/file.c'], /^judge: cannot read \/nonexistent\/file\.c: No such file or directory\n$/],
  [['49', solution, '--colour'], /^judge: unknown option --colour \(see judge --help\)\n$/],
  [['49', solution, '--seed', 'abc'], /^judge: --seed needs a non-negative integer, not 'abc'\n$/],
  [['49', solution, '--seed'], /^judge: --seed needs a number\n$/],
  [['49', solution, '-j', 'x'], /^judge: -j needs a positive number, not 'x'\n$/],
  [['49', '/dev/null'], /is not a regular file\n$/],
  [['49', root], /holds no \.c files\n$/],
]) {
  test(`bad input ${JSON.stringify(args.map((a) => a.replace(root, '.')))}: one line, status 2`, async () => {
    const r = await judge(args);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, pattern);
    assert.equal(r.stdout, '');
  });
}

test('the mask picture past ten keys puts the tens above the units, each column under its own', async () => {
  const r = await judge(['50', join(root, 'tests', 'corpus', '50', 'wa-no-window.c')]);
  const lines = r.stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith('  q\\k '));
  assert.ok(at > 0, r.stdout);
  assert.equal(lines[at], '  q\\k  0 1 2 3 4 5 6 7 8 9 0 1     0 1 2 3 4 5 6 7 8 9 0 1');
  assert.equal(lines[at - 1], `${' '.repeat(26)} 1 1${' '.repeat(24)} 1 1`);
});

test('list shows problem 49 with its slug, difficulty and title', async () => {
  const r = await judge(['list']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^\s*49\s+causal-mha\s+medium\s+Causal multi-head attention$/m);
  const zh = await judge(['list', '--lang', 'zh']);
  assert.match(zh.stdout, /^\s*49\s+causal-mha\s+中等\s+因果多头注意力$/m);
  assert.doesNotMatch(zh.stdout, /easy|medium|hard/);
});

test('printed bytes that are not UTF-8 (a surrogate, past U+10FFFF) leave --json UTF-8; a bidi control is escaped in the text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-utf8-'));
  try {
    const file = join(dir, 'utf.c');
    writeFileSync(file, `${readFileSync(solution, 'utf8')}
#include <stdio.h>
__attribute__((constructor)) static void say(void) { printf("a\\xed\\xa0\\x80 b\\xf4\\x90\\x80\\x80 c\\xe2\\x80\\xae" "evil ok\\n"); }
`);
    const json = spawnSync(judgeBin, ['49', file, '--json']).stdout;
    const report = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
    assert.equal(report.output, 'a\ufffd\ufffd\ufffd b\ufffd\ufffd\ufffd\ufffd c\u202eevil ok\n');
    const text = spawnSync(judgeBin, ['49', file], { encoding: 'utf8' }).stdout;
    assert.ok(text.includes('c\\xe2\\x80\\xaeevil ok'), text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no C compiler: exit 2 and one line saying what to do, in English or Chinese', async () => {
  for (const [lang, want] of [['en', "judge: cannot run the C compiler 'nosuchcc': install one"], ['zh', 'judge: 无法运行 C 编译器“nosuchcc”：请安装一个']]) {
    const r = await judge(['49', solution, '--lang', lang], { env: { ...process.env, JUDGE_CC: 'nosuchcc' } });
    assert.equal(r.code, 2);
    assert.ok(r.stderr.startsWith(want), r.stderr);
  }
});

test('a file judged through a link is C whatever its target is named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-link-'));
  try {
    writeFileSync(join(dir, 'mine.txt'), readFileSync(solution));
    symlinkSync(join(dir, 'mine.txt'), join(dir, 'mine.c'));
    const r = await judge(['49', join(dir, 'mine.c')]);
    assert.equal(r.code, 0, r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the reference solution is AC by id and by slug, with status 0', async () => {
  for (const key of ['49', 'causal-mha']) {
    const r = await judge([key, solution]);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /verdict: AC \(Accepted\)\nyour time: .*\n$/);
  }
});

test('piped output is plain: no terminal colour codes', async () => {
  const r = await judge(['49', join(root, 'tests', 'corpus', '49', 'wa-no-scale.c')]);
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stdout, /\x1b\[/);
  assert.match(r.stdout, /Likely mistake: the scores are not scaled by 1\/sqrt\(D\) \[no_scale\]/);
});

test('a wrong answer names the first bad element by its coordinates', async () => {
  const r = await judge(['49', join(root, 'tests', 'corpus', '49', 'wa-no-causal-mask.c'), '--json']);
  const report = JSON.parse(r.stdout);
  const failed = report.cases.find((c) => c.name === report.failed_case);
  assert.match(failed.first_bad.where, /^out\[b=\d+, t=\d+, feature \d+ \(head \d+, dim \d+\)\]$/);
  assert.equal(typeof failed.first_bad.expected, 'number');
  assert.ok(failed.n_bad > 0 && failed.n_bad <= failed.n);
  // The mask picture: query 0 sees the future in yours, not in expected.
  assert.equal(report.mask.differs, true);
  assert.equal(report.mask.expected[0][0], '1');
  assert.equal(report.mask.expected[0][1], '0');
  assert.equal(report.mask.yours[0][1], '1');
  const text = await judge(['49', join(root, 'tests', 'corpus', '49', 'wa-no-causal-mask.c')]);
  assert.match(text.stdout, /! query 0 sees key 1, which it must not/);
});

// Integer outputs are compared as integers, and so is their error: two
// counts near 1e17 that are 32 apart are 0 apart as doubles.
test('an int64 output a few off near 1e17: the error is the gap, not 0', async () => {
  const file = join(root, 'tests', 'corpus', '56', 'wa-computed-in-double.c');
  const report = JSON.parse((await judge(['56', file, '--json'])).stdout);
  const failed = report.cases.find((c) => c.name === report.failed_case);
  assert.ok(failed.max_abs > 0 && failed.max_abs < 1000, `max_abs ${failed.max_abs}`);
});

test('outputs never set are told by their own note, without "no known mistake" beside it, in both languages', async () => {
  const dir = scratch();
  try {
    const file = join(dir, 'last-row-skipped.c');
    const code = readFileSync(join(root, 'problems', '45-stable-softmax', 'solution.c'), 'utf8');
    writeFileSync(file, code.replace('for (int r = 0; r < rows; r++)', 'for (int r = 0; r < rows - 1; r++)'));
    const en = (await judge(['45', file, '--lang', 'en'])).stdout;
    assert.match(en, /output elements never set: \d+/);
    assert.doesNotMatch(en, /No known mistake/);
    const zh = (await judge(['45', file, '--lang', 'zh'])).stdout;
    assert.match(zh, /从未被赋值/);
    assert.doesNotMatch(zh, /没有哪个已知错误/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Outputs that are NaN make the error NaN, in every form it is read in:
// never 0, as if only the finite elements counted.
test('NaN outputs: the error is NaN in the table, the line under it, the JSON and the class CSV', async () => {
  const file = join(root, 'tests', 'corpus', '60', 'wa-empty-nan-two-pass.c');
  const report = JSON.parse((await judge(['60', file, '--json'])).stdout);
  const failed = report.cases.find((c) => c.name === report.failed_case);
  assert.equal(failed.first_bad.got, 'NaN');
  assert.equal(failed.max_abs, 'NaN');
  const text = (await judge(['60', file])).stdout;
  assert.match(text, new RegExp(`\\n  ${failed.name} +WA +[0-9.]+ ms +nan +${failed.n_bad} / ${failed.n}\\n`));
  assert.match(text, /elements wrong; max abs err nan, max rel err nan /);
  assert.match(text, /, got nan\n/, 'a NaN shown without its sign bit (-nan), as the table shows it');
  const csv = (await judge(['60', file, file, '--csv'])).stdout.split('\n');
  assert.match(csv[1], /,WA,empty_split_nan,one-split,nan,/);
});

// 65 has a case name longer than the case column's 18: the column widens.
test('the case table stays in line whatever the length of a case name, in both languages', async () => {
  const file = join(root, 'problems', '65-attention-backward', 'solution.c');
  for (const lang of ['en', 'zh']) {
    const lines = (await judge(['65', file, '--lang', lang])).stdout.split('\n');
    const at = lines.findIndex((l) => /^  \S/.test(l));
    const rows = lines.slice(at + 1, lines.indexOf('', at));
    assert.ok(rows.some((l) => l.includes('queries-without-keys')), lang);
    // Every verdict starts in one column, the header's (CJK counting two).
    const width = (t) => [...t].reduce((n, ch) => n + (/[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 2 : 1), 0);
    const starts = rows.map((l) => width(l.slice(0, l.search(/ AC /) + 1)));
    assert.equal(new Set(starts).size, 1, `${lang}: ${rows.join('\n')}`);
    assert.equal(width(lines[at].slice(0, lines[at].indexOf(lang === 'en' ? 'verdict' : '判定'))), starts[0], lang);
  }
});

// A write into an output's guard is the learner's own index going out of
// bounds; into an input's guard (inputs are const) a stray write from some
// other buffer: the words tell the two apart.
test('a write out of bounds says whether it hit an output or an input, in both languages', async () => {
  const corpus = join(root, 'tests', 'corpus', '49');
  const out = (await judge(['49', join(corpus, 're-write-before-start.c')])).stdout;
  assert.match(out, /: wrote out\[-1\], before its start: out has \d+ elements, indices 0 to \d+\n/);
  const input = (await judge(['49', join(corpus, 're-write-past-input.c')])).stdout;
  assert.match(input, /: wrote wo\[16\], past its end: wo is an input \(16 elements, indices 0 to 15\) that nothing should write/);
  const zh = (await judge(['49', join(corpus, 're-write-past-input.c'), '--lang', 'zh'])).stdout;
  assert.match(zh, /写了 wo\[16\]，超出了它的末尾：wo 是输入/);
});

test('--json is one JSON object with the fixed fields', async () => {
  const r = await judge(['49', solution, '--json']);
  const report = JSON.parse(r.stdout);
  assert.equal(report.verdict, 'AC');
  assert.deepEqual(report.problem, { id: 49, slug: 'causal-mha', title: 'Causal multi-head attention' });
  assert.ok(report.cases.length >= 10);
  assert.equal(report.cases[0].name, 'example');
  assert.equal(report.cases[0].visible, true);
  assert.ok(report.cases.slice(1).every((c) => !c.visible));
  assert.equal(report.mistake, null);
});

test('--seed makes other hidden inputs; a correct solution passes every seed', async () => {
  const a = JSON.parse((await judge(['49', solution, '--json', '--seed', '1'])).stdout);
  const b = JSON.parse((await judge(['49', solution, '--json', '--seed', '2'])).stdout);
  assert.equal(a.seed, 1);
  assert.equal(b.seed, 2);
  assert.equal(a.verdict, 'AC');
  assert.equal(b.verdict, 'AC');
  const wrong = join(root, 'tests', 'corpus', '49', 'wa-no-scale.c');
  const c = JSON.parse((await judge(['49', wrong, '--json', '--seed', '1'])).stdout);
  const d = JSON.parse((await judge(['49', wrong, '--json', '--seed', '2'])).stdout);
  assert.notEqual(c.cases[1].max_abs, d.cases[1].max_abs, 'the hidden inputs did not change');
});

test('without FILE: the working copy is made from the starter, judged, and never overwritten', async () => {
  const ws = scratch();
  try {
    const env = { ...process.env, JUDGE_WORKSPACE: ws };
    const first = await judge(['49'], { env });
    const copy = join(ws, '49-causal-mha.c');
    assert.match(first.stderr, new RegExp(`created your working copy ${copy}`));
    assert.equal(readFileSync(copy, 'utf8'), readFileSync(starter, 'utf8'));
    assert.equal(first.code, 1);
    assert.match(first.stdout, /verdict: WA/, 'the starter compiles and is wrong');

    writeFileSync(copy, readFileSync(solution, 'utf8'));
    const second = await judge(['causal-mha'], { env });
    assert.match(second.stderr, /judging your working copy/);
    assert.equal(second.code, 0, second.stdout);
    assert.equal(readFileSync(copy, 'utf8'), readFileSync(solution, 'utf8'), 'the learner\'s file changed');
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('the default workspace sits beside the program, and git ignores it', () => {
  const ignored = spawnSync('git', ['check-ignore', '-q', 'workspace/49-causal-mha.c'], { cwd: root });
  assert.equal(ignored.status, 0, 'workspace/ is not git-ignored');
});

test('a copied ./judge works from another folder (the problems are built in)', async () => {
  const dir = scratch();
  try {
    cpSync(join(root, 'judge'), join(dir, 'judge'));
    const r = spawnSync(join(dir, 'judge'), ['49', solution], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.ok(!existsSync(join(dir, 'workspace')), 'made a workspace though FILE was given');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a compile error shows the compiler\'s own diagnostics with the learner\'s path', async () => {
  const file = join(root, 'tests', 'corpus', '49', 'ce-syntax-error.c');
  const r = await judge(['49', file]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /ce-syntax-error\.c:\d+:\d+: error:/);
  assert.match(r.stdout, /verdict: CE \(Compile Error\)/);
});

test('Ctrl-C ends a run at once, leaves nothing behind, and the judge dies of SIGINT', async () => {
  const { spawn } = await import('node:child_process');
  const { readdirSync } = await import('node:fs');
  const tmp = scratch();
  try {
    const child = spawn(join(root, 'judge'), ['49', join(root, 'tests', 'corpus', '49', 'tle-infinite-loop.c')],
      { env: { ...process.env, TMPDIR: tmp } });
    setTimeout(() => child.kill('SIGINT'), 700);
    const started = Date.now();
    const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    assert.equal(signal, 'SIGINT', `exit code ${code}`);
    assert.ok(Date.now() - started < 1900, 'it waited for the time limit instead');
    assert.deepEqual(readdirSync(tmp), []);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

// Its only wrong case is 55's largest, which every way of every mistake
// simulates first: minutes of search without its time limit (libjudge/judge.c).
const costly = join(root, 'tests', 'corpus', '55', 'wa-last-tile-s-mod-bc.c');

test('a mistake search that would take minutes stops at its time limit, and says so', async () => {
  const r = await judge(['55', costly, '--json']);
  const report = JSON.parse(r.stdout);
  assert.equal(report.verdict, 'WA');
  assert.equal(report.search_cut, true);
  assert.equal(report.mistake, null);
  const text = await judge(['55', costly, '--lang', 'zh']);
  assert.match(text.stdout, /搜索到了时间上限就停了/);
});

test('Ctrl-C ends a mistake search at once', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(join(root, 'judge'), ['55', costly]);
  let killed = 0;
  // Compiled and run in ~1 s, then 20 s of search: at 5 s it is searching,
  // even on a loaded machine (sent during the run, SIGINT would prove nothing here).
  setTimeout(() => { killed = Date.now(); child.kill('SIGINT'); }, 5000);
  const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  assert.equal(signal, 'SIGINT', `exit code ${code}`);
  assert.ok(killed && Date.now() - killed < 1000, `it went on for ${Date.now() - killed} ms after SIGINT`);
});

test('--json stays valid UTF-8 JSON whatever bytes the program prints', async () => {
  const file = join(root, 'tests', 'corpus', '49', 'wa-prints-binary.c');
  const r = await judge(['49', file, '--json'], { encoding: 'buffer' });
  const text = new TextDecoder('utf-8', { fatal: true }).decode(r.stdout);
  const report = JSON.parse(text);
  assert.match(report.output, /^bad \ufffd\ufffd bytes, good é 注意, nul:\u0000!\n/);
});

// ---- the report's language, and text that cannot forge it ----
const corpus49 = (f) => join(root, 'tests', 'corpus', '49', f);
const forge = join(root, 'tests', 'corpus-i18n', '49-forge-verdict.c');
const withLang = (vars) => ({ env: { ...process.env, LC_ALL: '', LANG: '', ...vars } });

test('--lang zh: the verdict, case table, first wrong element and fault in Chinese', async () => {
  const wa = await judge(['49', corpus49('wa-no-causal-mask.c'), '--lang', 'zh']);
  assert.equal(wa.code, 1);
  assert.match(wa.stdout, /^49 causal-mha: 因果多头注意力$/m);
  assert.match(wa.stdout, /^ {2}用例 +判定 +用时 +最大绝对误差 +错误数$/m);
  assert.match(wa.stdout, /^ {2}example（示例） +WA /m);
  assert.match(wa.stdout, /^WA，用例 \S+：out\[批次 \d+, 位置 t=\d+, 特征 \d+（头 \d+，维 \d+）\]：应为 \S+，实际为 \S+$/m);
  assert.match(wa.stdout, /^ {2}错误元素 \d+ 个（共 \d+ 个）；最大绝对误差/m);
  assert.match(wa.stdout, /哪些键能被哪些查询看到/);
  assert.match(wa.stdout, /! 查询 0 看到了键 1，但它不应看到/);
  assert.match(wa.stdout, /\n判定：WA（答案错误）\n$/);
  assert.doesNotMatch(wa.stdout, /expected|elements wrong|verdict:/);
  const tle = await judge(['49', corpus49('tle-infinite-loop.c'), '--lang', 'zh']);
  assert.match(tle.stdout, /TLE，用例 example：2000 毫秒后仍在运行（所有调用合计）/);
  const re = await judge(['49', corpus49('re-write-past-end.c'), '--lang', 'zh']);
  assert.match(re.stdout, /RE，用例 example：写了 out\[12\]，超出了它的末尾：out 有 12 个元素，下标为 0 到 11/);
  assert.match(re.stdout, /判定：RE（运行错误）/);
});

test('--lang zh --json: the texts are Chinese, every id is the same as in English', async () => {
  for (const f of ['wa-no-causal-mask.c', 're-write-past-end.c', 'tle-infinite-loop.c']) {
    const [en, zh] = await Promise.all(['en', 'zh'].map(async (lang) =>
      JSON.parse((await judge(['49', corpus49(f), '--json', '--lang', lang])).stdout)));
    assert.equal(en.lang, 'en');
    assert.equal(zh.lang, 'zh');
    assert.equal(zh.problem.title, '因果多头注意力');
    assert.notEqual(zh.verdict_text, en.verdict_text);
    const ids = (r) => ({ verdict: r.verdict, failed: r.failed_case, mistake: r.mistake?.id ?? null,
      cases: r.cases.map((c) => [c.name, c.verdict, c.detail_id ?? null, c.first_bad?.param ?? null,
        c.first_bad?.index ?? null]) });
    assert.deepEqual(ids(zh), ids(en), f);
    const where = zh.cases.find((c) => c.first_bad)?.first_bad.where;   /* told in Chinese too */
    if (where) assert.match(where, /[\u4e00-\u9fff]/, `${f}: ${where}`);
    const failed = zh.cases.find((c) => c.name === zh.failed_case);
    if (failed.detail) {
      assert.match(failed.detail, /[\u4e00-\u9fff]/, `${f}: ${failed.detail}`);
      assert.notEqual(failed.detail, en.cases.find((c) => c.name === en.failed_case).detail);
    }
  }
});

test('the language comes from LC_ALL, then LANG; --lang wins over both', async () => {
  const verdict = async (args, vars) => JSON.parse((await judge(['49', solution, '--json', ...args],
    withLang(vars))).stdout).verdict_text;
  assert.equal(await verdict([], { LANG: 'zh_CN.UTF-8' }), '通过');
  assert.equal(await verdict([], { LANG: 'zh_CN.UTF-8', LC_ALL: 'C' }), 'Accepted');
  assert.equal(await verdict([], { LANG: 'en_US.UTF-8', LC_ALL: 'zh_TW' }), '通过');
  assert.equal(await verdict([], {}), 'Accepted');
  assert.equal(await verdict(['--lang', 'en'], { LANG: 'zh_CN.UTF-8' }), 'Accepted');
  const help = await judge(['--help', '--lang', 'zh']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^用法：judge/);
});

for (const args of [['--lang', 'xx'], ['--lang']]) {
  test(`bad language ${args.join(' ')}: one line, status 2`, async () => {
    const r = await judge(['49', solution, ...args]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^judge: --lang needs en or zh(, not 'xx')?\n$/);
    assert.equal(r.stdout, '');
  });
}

test('control characters the program prints are shown escaped, never raw', async () => {
  for (const lang of ['en', 'zh']) {
    const r = await judge(['49', forge, '--lang', lang]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^ {2}\| \\x1b\[32mverdict: AC\\r$/m);
    assert.doesNotMatch(r.stdout, /[\x00-\x08\x0b-\x1f\x7f]/);
  }
});

test('a file name and compiler warnings cannot carry control characters either', async () => {
  const dir = scratch();
  try {
    const file = join(dir, 'a\x1b[2Jb.c');
    // A #warning's text reaches the diagnostics byte for byte.
    writeFileSync(file, `#warning "x\x1b[1Ay"\n${readFileSync(forge, 'utf8')}`);
    const r = await judge(['49', file]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^file: .*a\\x1b\[2Jb\.c$/m);
    assert.match(r.stdout, /warning: #warning "x\\x1b\[1Ay"/);
    assert.doesNotMatch(r.stdout, /[\x00-\x08\x0b-\x1f\x7f]/);
    const json = JSON.parse((await judge(['49', file, '--json'])).stdout);
    assert.equal(json.file, file, 'the JSON keeps the name itself');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A realloc that fails past a size, preloaded into ./judge alone (it takes
// itself out of the environment, so the compiler and the program run as ever).
const failingRealloc = `#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
void *realloc(void *p, size_t n)
{
    static void *(*real)(void *, size_t);
    if (!real) real = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    return n > 6000 ? NULL : real(p, n);
}
__attribute__((constructor)) static void only_the_judge(void) { unsetenv("LD_PRELOAD"); }
`;

test('a report the judge cannot write whole is exit 2 with one line, never cut-off JSON', async (t) => {
  const dir = scratch();
  try {
    writeFileSync(join(dir, 'fail.c'), failingRealloc);
    const built = spawnSync('cc', ['-shared', '-fPIC', '-o', join(dir, 'fail.so'), join(dir, 'fail.c'), '-ldl']);
    if (built.status !== 0) { t.skip('cannot build a preloaded library here'); return; }
    const env = { ...process.env, LD_PRELOAD: join(dir, 'fail.so') };
    const r = await judge(['49', corpus49('wa-no-scale.c'), '--json'], { env });
    assert.equal(r.code, 2, r.stdout.slice(-200));
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'judge: out of memory writing the report\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- issue 15: a learner's habits ----
const corpusFile = (f) => join(root, 'tests', 'corpus', '49', f);

test('an accepted report ends with the time beside the reference\'s, from the JSON\'s own numbers', async () => {
  const [text, json] = await Promise.all([judge(['49', solution]), judge(['49', solution, '--json'])]);
  const m = /\nyour time: ([\d.]+) ms in all, the reference ([\d.]+) ms \(([\d.]+)× the reference\)\n$/.exec(text.stdout);
  assert.ok(m, text.stdout.slice(-300));
  assert.ok(Number(m[1]) > 0 && Number(m[2]) > 0);
  // The ratio is of the unrounded times: within what printing the times to
  // 3 decimals and the ratio to 2 can move it (comparing both rounded to 1
  // decimal failed whenever the ratio sat on a rounding boundary).
  const [mine, ref0, ratio] = m.slice(1, 4).map(Number);
  const slack = 0.005 + (mine / ref0) * (0.0005 / mine + 0.0005 / ref0) * 1.01;
  assert.ok(Math.abs(ratio - mine / ref0) <= slack, `${ratio} against ${mine} / ${ref0}`);
  const ref = JSON.parse(json.stdout).cases.reduce((a, c) => a + c.ref_ms, 0);
  assert.ok(ref > 0);
  const wrong = await judge(['49', corpusFile('wa-no-scale.c')]);
  assert.doesNotMatch(wrong.stdout, /your time/, 'only an accepted run is timed against the reference');
  const zh = await judge(['49', solution, '--lang', 'zh']);
  assert.match(zh.stdout, /\n你的用时：共 [\d.]+ 毫秒，参考实现 [\d.]+ 毫秒（是参考的 [\d.]+ 倍）\n$/);
});

test('--watch judges again after a save, and a save mid-run drops that run', { timeout: 120_000 }, async () => {
  const tmp = scratch();
  try {
    const env = { ...process.env, TMPDIR: join(tmp, 't') };
    mkdirSync(env.TMPDIR);
    const r = await watchSaves(judgeBin, ['49'], {
      tmp, env, reportsWanted: 2,
      first: corpusFile('wa-no-scale.c'),
      saves: [{ after: 1, file: corpusFile('tle-infinite-loop.c') }, { after: 1, file: solution, delayMs: 1200 }],
    });
    assert.equal(r.signal, 'SIGINT', `exit ${r.code}`);
    // The loop's run was cut short by the save: no TLE report, only the AC.
    assert.deepEqual(r.reports.map((x) => x.verdict), ['WA', 'AC']);
    assert.ok(r.reports.every((x) => x.file === r.file));
    assert.deepEqual(readdirSync(env.TMPDIR), [], 'files left behind');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('--version is package.json\'s; the completion scripts are valid bash and zsh and ask judge list', async () => {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal((await judge(['--version'])).stdout, `judge ${version}\n`);
  const bash = await judge(['--completion', 'bash']);
  assert.equal(bash.code, 0);
  assert.match(bash.stdout, /complete .*-F _judge_complete judge/);
  assert.equal(spawnSync('bash', ['-n'], { input: bash.stdout }).status, 0);
  // Completing the first word lists the problems judge list knows, by id and slug.
  const script = `${bash.stdout}\nCOMP_WORDS=(${judgeBin} ca); COMP_CWORD=1; _judge_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const done = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  assert.deepEqual(done.stdout.split('\n').filter(Boolean).sort(), ['causal-mha']);
  const zsh = await judge(['--completion', 'zsh']);
  assert.equal(zsh.code, 0);
  const hasZsh = spawnSync('zsh', ['-c', 'true']).status === 0;
  if (hasZsh) assert.equal(spawnSync('zsh', ['-n'], { input: zsh.stdout }).status, 0);
  const bad = await judge(['--completion', 'fish']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr, "judge: --completion needs bash or zsh, not 'fish'\n");
});

test('--hint: the next hint each time (kept in workspace/.hints), --hint N any one, in the CLI\'s language', async () => {
  const dir = scratch();
  try {
    const hints = JSON.parse(readFileSync(join(root, 'problems', '49-causal-mha', 'problem.json'), 'utf8')).hints;
    const n = hints.length;
    const ws = join(dir, 'ws');
    const env = { ...process.env, JUDGE_WORKSPACE: ws, LANG: 'C' };
    const hint = (...args) => spawnSync(join(root, 'judge'), ['49', '--hint', ...args], { env, encoding: 'utf8' });
    const one = hint();
    assert.equal(one.status, 0, one.stderr);
    assert.equal(one.stdout, `hint 1 of ${n} (problem 49 causal-mha):\n  ${hints[0].en}\n`);
    assert.equal(readFileSync(join(ws, '.hints'), 'utf8'), '49 1\n');
    for (let k = 2; k < n; k++) assert.equal(hint().stdout, `hint ${k} of ${n} (problem 49 causal-mha):\n  ${hints[k - 1].en}\n`);
    const last = hint();
    assert.ok(last.stdout.startsWith(`hint ${n} of ${n} (problem 49 causal-mha):\n  ${hints[n - 1].en}\nThat was the last hint; judge 49 --hint N`),
      last.stdout);
    assert.equal(hint().stdout, last.stdout, 'after the last, the last again');
    assert.equal(hint('1').stdout, one.stdout);
    assert.equal(readFileSync(join(ws, '.hints'), 'utf8'), `49 ${n}\n`, '--hint N does not move the count back');
    assert.equal(hint('1', '--lang', 'zh').stdout, `第 1 条提示，共 ${n} 条（第 49 题 causal-mha）：\n  ${hints[0].zh}\n`);
    const bad = hint(String(n + 1));
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr, `judge: problem 49 has hints 1 to ${n}, not ${n + 1}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

