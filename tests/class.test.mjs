// class.test.mjs: grading a class (issue 15) on both CLIs. A class of 30+
// files (correct, wrong, crashing, looping, hostile) judged as a folder and
// as a list: the JSON lines, the CSV, the table's counts and the HTML page
// agree with each other, with the files' expected verdicts and with single
// reports; -j 1 and -j 2 give the same results; exit statuses; the page
// opens from file:// in headless Chromium with no console errors, no
// network, and a report opens from its row.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, copyFileSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, judge, judgeWasm, expectation, namedMistake } from './lib/run.mjs';

const corpus49 = join(root, 'tests', 'corpus', '49');
const hostile = join(root, 'tests', 'hostile');
// Two thirds of the kinds the corpus has, one slow-by-design TLE, and
// hostile files beside them (one copies its neighbour ac-honest.c).
const FROM_CORPUS = [
  'ac-textbook.c', 'ac-online-softmax.c', 'ac-double-accum.c', 'ac-printf-debug.c', 'ac-static-scratch.c',
  'ac-vla-stack.c', 'wa-no-scale.c', 'wa-no-causal-mask.c', 'wa-pair-no-scale-no-causal.c', 'wa-all-zeros.c',
  'wa-head-stride.c', 'wa-padding-ignored.c', 'wa-scale-sqrt-d.c', 'wa-softmax-overflow.c', 'wa-no-o-proj.c',
  'wa-state-cache-by-shape.c', 'wa-weights-transposed.c', 'wa-diagonal-masked.c', 'ce-syntax-error.c',
  'ce-misspelled-name.c', 'ce-returns-int.c', 're-abort.c', 're-div-by-zero.c', 're-write-past-end.c',
  're-stack-overflow.c', 'tle-infinite-loop.c', 'mle-static-array.c', 'ole-printf-flood.c',
];
const FROM_HOSTILE = ['ac-honest.c', 'ce-includes-neighbour.c', 'ac-prlimit-parent.c', 'ac-stat-proc.c', 'ac-signals-elsewhere.c'];

let work, dir, tmp;
const files = () => readdirSync(dir).filter((f) => f.endsWith('.c')).sort();
const env = () => {
  const e = { ...process.env, TMPDIR: tmp };
  delete e.LC_ALL;
  delete e.LANG;
  return e;
};

before(() => {
  work = mkdtempSync(join(tmpdir(), 'class-'));
  dir = join(work, 'class');
  tmp = join(work, 'tmp');
  mkdirSync(dir);
  mkdirSync(tmp);
  for (const f of FROM_CORPUS) copyFileSync(join(corpus49, f), join(dir, f));
  for (const f of FROM_HOSTILE) copyFileSync(join(hostile, f), join(dir, f));
});
after(() => rmSync(work, { recursive: true, force: true }));

const lines = (text) => text.split('\n').filter(Boolean);

// A CSV of class.c's (no field here holds a comma or a quote but an error).
function csvRows(text) {
  const [head, ...rows] = lines(text);
  const names = head.split(',');
  return rows.map((r) => {
    const cells = r.match(/("([^"]|"")*"|[^,]*)(,|$)/g).map((c) => c.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"'));
    return Object.fromEntries(names.map((n, i) => [n, cells[i]]));
  });
}

// The counts line the table ends with, computed from the reports.
function countsOf(reports) {
  const order = ['AC', 'WA', 'CE', 'RE', 'TLE', 'MLE', 'OLE'];
  const parts = [];
  for (const v of order) {
    const of = reports.filter((r) => r.verdict === v);
    if (!of.length) continue;
    let part = `${of.length} ${v}`;
    if (v === 'WA') {
      const by = new Map();
      for (const r of of) by.set(namedMistake(r) ?? '', (by.get(namedMistake(r) ?? '') ?? 0) + 1);
      const list = [...by].sort(([a, x], [b, y]) => (!a - !b) || (y - x) || (a < b ? -1 : 1));
      part += ` (${list.map(([id, n]) => `${n} ${id || 'unnamed'}`).join(', ')})`;
    }
    parts.push(part);
  }
  return parts.join(' · ');
}

// A report without what is measured (times, errors in the last bits).
const MEASURED = new Set(['time_ms', 'ref_ms', 'max_abs', 'max_rel', 'max_ratio', 'expected', 'got', 'example']);
// Compiler messages name the run's own temporary folder and object file.
const unmeasured = (report) => JSON.parse(JSON.stringify(report, (k, v) => (MEASURED.has(k) ? undefined
  : k === 'diagnostics' ? v.replace(/\/judge-[A-Za-z0-9]{6}\//g, '/judge-*/').replace(/\bcc\w+\.o\b/g, 'cc*.o') : v)));

let native2;   // the folder, -j 2, --json: the rows the other runs are held to

test('native: a folder, -j 2, --json: one report per file in order, each as expected', { timeout: 240_000 }, async () => {
  const r = await judge(['49', dir, '-j', '2', '--json'], { env: env(), timeout: 240_000 });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr, '', 'nothing on stderr when it is not a terminal');
  const reports = lines(r.stdout).map((l) => JSON.parse(l));
  assert.deepEqual(reports.map((x) => x.file), files().map((f) => join(dir, f)));
  assert.ok(reports.length >= 30);
  native2 = reports;
  const wrong = [];
  for (const x of reports) {
    const want = expectation(x.file);
    if (x.verdict !== want.verdict || (want.verdict === 'WA' && namedMistake(x) !== want.mistake))
      wrong.push(`${x.file}: ${x.verdict} ${namedMistake(x)}, expected ${want.verdict} ${want.mistake}`);
  }
  assert.deepEqual(wrong, []);
  assert.deepEqual(readdirSync(tmp), [], 'files left behind in TMPDIR');
});

test('native: a single report equals its line of the class', { timeout: 120_000 }, async () => {
  assert.ok(native2);
  for (const f of ['wa-pair-no-scale-no-causal.c', 're-abort.c', 'ac-textbook.c']) {
    const file = join(dir, f);
    const one = await judge(['49', file, '--json'], { env: env() });
    const line = native2.find((x) => x.file === file);
    assert.deepEqual(unmeasured(JSON.parse(one.stdout)), unmeasured(line), f);
  }
});

let page;
test('native: the same class as a list, -j 1: the CSV, the table and the page agree with the JSON', { timeout: 300_000 }, async () => {
  assert.ok(native2);
  const list = [...files().map((f) => join(dir, f)), join(dir, 'missing.c')];
  page = join(work, 'class.html');
  const csv = await judge(['49', ...list, '-j', '1', '--csv', '--html', page], { env: env(), timeout: 300_000 });
  assert.equal(csv.code, 1, csv.stderr);
  assert.equal(csv.stderr, `judge: wrote ${page}\n`);
  const rows = csvRows(csv.stdout);
  assert.deepEqual(rows.map((x) => x.file), list);
  native2.forEach((x, i) => {
    assert.equal(rows[i].verdict, x.verdict, x.file);
    assert.equal(rows[i].mistake, namedMistake(x) ?? '', x.file);
    assert.equal(rows[i].failed_case, x.failed_case ?? '', x.file);
    const ran = x.cases.filter((c) => Number.isFinite(c.time_ms));
    assert.equal(rows[i].time_ms === '', ran.length === 0, x.file);
  });
  const missing = rows.at(-1);
  assert.equal(missing.verdict, '');
  assert.match(missing.error, /^cannot read .*missing\.c: No such file or directory$/);
  // A teacher reading Chinese gets that row's error in Chinese, on both CLIs.
  const lone = [join(dir, 'ac-textbook.c'), join(dir, 'missing.c')];
  const [nz, wz] = await Promise.all([judge(['49', ...lone, '--csv', '--lang', 'zh'], { env: env() }),
    judgeWasm(['49', ...lone, '--csv', '--lang', 'zh'], { env: env() })]);
  for (const r of [nz, wz]) assert.match(csvRows(r.stdout).at(-1).error, /^无法读取 .*missing\.c：没有这个文件或目录$/, r.stderr);

  // The page holds every report the JSON lines hold (times aside) and a row each.
  const html = readFileSync(page, 'utf8');
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href=|\bfetch\(|\bimport\(/, 'nothing fetched');
  const held = JSON.parse(/<script type="application\/json" id="reports">([\s\S]*?)<\/script>/.exec(html)[1]);
  assert.equal(held.length, list.length);
  assert.equal(held.at(-1), null);
  held.slice(0, -1).forEach((x, i) => assert.deepEqual(unmeasured(x), unmeasured(native2[i])));

  const text = await judge(['49', dir, '-j', '2'], { env: env(), timeout: 240_000 });
  assert.equal(text.code, 1);
  assert.equal(lines(text.stdout).at(-1), countsOf(native2));
  assert.equal(lines(text.stdout).length, native2.length + 2);
});

test('the page opens from file:// with no console errors, and a report opens from its row', { timeout: 120_000 }, async (t) => {
  const { chromiumMissing, launch, watchErrors } = await import('../web/chromium.mjs');
  if (chromiumMissing) return t.skip(chromiumMissing);
  assert.ok(page, 'the page was written');
  const browser = await launch();
  try {
    const tab = await browser.context.newPage();
    const errors = watchErrors(tab);
    const fetched = [];
    tab.on('request', (q) => { if (!q.url().startsWith('file:')) fetched.push(q.url()); });
    await tab.goto(pathToFileURL(page).href);
    assert.equal(await tab.locator('table.class tbody tr').count(), native2.length + 1);
    const i = native2.findIndex((x) => x.verdict === 'WA' && x.mask && namedMistake(x));
    const button = tab.locator('button.open').nth(i);
    await button.click();
    const report = tab.locator('tr.report');
    await report.locator('.verdict').waitFor();
    assert.equal(await report.locator('.verdict').getAttribute('data-verdict'), 'WA');
    assert.equal(await report.locator('[data-mistake]').getAttribute('data-mistake'), native2[i].mistake.id);
    assert.ok(await report.locator('table.cases tbody tr').count() >= 2, 'the case table');
    assert.ok(await report.locator('svg.mask').count() === 1, 'the mask picture');
    assert.ok(await report.locator('svg.heat').count() >= 1, 'the heatmap');
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    await button.click();
    assert.equal(await tab.locator('tr.report').count(), 0, 'the row closes again');
    // A pair of mistakes: both named in the opened report, as in the table.
    const pair = native2.findIndex((x) => x.mistake?.also);
    await tab.locator('button.open').nth(pair).click();
    const both = await tab.locator('tr.report [data-mistake]').textContent();
    for (const m of [native2[pair].mistake, native2[pair].mistake.also]) assert.ok(both.includes(m.id) && both.includes(m.title), both);
    await tab.locator('button.open').nth(pair).click();
    assert.deepEqual(errors, []);
    assert.deepEqual(fetched, []);
  } finally {
    await browser.close();
  }
});

test('a symbolic link in a class is not judged, on both CLIs: what it points to never shows', async () => {
  const links = join(work, 'links');
  mkdirSync(links, { recursive: true });
  copyFileSync(join(corpus49, 'ac-textbook.c'), join(links, 'alice.c'));
  const secret = join(work, 'secret.txt');
  writeFileSync(secret, 'SECRET_TOKEN=abc123\n');
  symlinkSync(secret, join(links, 'carol.c'));
  symlinkSync(join(links, 'alice.c'), join(links, 'dave.c'));
  for (const run of [judge, judgeWasm]) {
    const r = await run(['49', links, '--json'], { env: env() });
    const rows = lines(r.stdout).map((l) => JSON.parse(l));
    assert.deepEqual(rows.map((x) => x.verdict ?? 'not judged'), ['AC', 'not judged', 'not judged'], r.stdout);
    assert.match(rows[1].error, /carol\.c is a symbolic link/);
    assert.doesNotMatch(r.stdout, /SECRET_TOKEN/);
  }
});

test('a file name with an escape sequence is written as \\x1b in the CSV, on both CLIs', async () => {
  const odd = join(work, 'odd');
  mkdirSync(odd, { recursive: true });
  copyFileSync(join(corpus49, 'ac-textbook.c'), join(odd, 'a\x1b[31mred.c'));
  for (const run of [judge, judgeWasm]) {
    const r = await run(['49', odd, '--csv'], { env: env() });
    assert.ok(!r.stdout.includes('\x1b'), 'no escape byte reaches the terminal');
    assert.match(r.stdout, /a\\x1b\[31mred\.c,AC,/);
  }
});

test('exit statuses: 0 when every file is AC, 2 for bad usage with one line', async () => {
  const ac = await judge(['49', join(dir, 'ac-textbook.c'), join(dir, 'ac-honest.c'), '--csv'], { env: env() });
  assert.equal(ac.code, 0, ac.stdout);
  const empty = join(work, 'empty');
  mkdirSync(empty, { recursive: true });
  for (const [args, pattern] of [
    [['49', dir, '-j', '0'], /^judge: -j needs a positive number, not '0'\n$/],
    [['49', dir, '--json', '--csv'], /^judge: --json and --csv cannot be used together\n$/],
    [['49', dir, '--watch'], /^judge: --watch judges one file, not a class\n$/],
    [['49', empty], /^judge: .*empty holds no \.c files\n$/],
    [['49', dir, '--html'], /^judge: --html needs a value\n$/],
    // Said before the class is judged, not after.
    [['49', dir, '--html', '/nonexistent/x.html'], /^judge: cannot write \/nonexistent\/x\.html: No such file or directory\n$/],
    // `--html *.c` would take the first file for the page and write over it.
    [['49', '--html', join(dir, 'ac-textbook.c'), join(dir, 'ac-honest.c')], /^judge: --html writes a web page, so its name ends in \.html, not '.*ac-textbook\.c'/],
  ]) {
    const r = await judge(args, { env: env() });
    assert.equal(r.code, 2, `${args}: ${r.stdout}`);
    assert.match(r.stderr, pattern);
    assert.equal(r.stdout, '');
    const w = await judgeWasm(args, { env: env() });
    assert.equal(w.code, 2, `wasm ${args}: ${w.stdout}`);
    assert.equal(w.stderr, r.stderr);
  }
  assert.match(readFileSync(join(dir, 'ac-textbook.c'), 'utf8'), /void mha\(/, 'the submission is still there');
});

test('wasm: the folder, -j 2: the same rows and the same table as ./judge', { timeout: 600_000 }, async () => {
  assert.ok(native2);
  const json = await judgeWasm(['49', dir, '-j', '2', '--json'], { env: env(), timeout: 600_000 });
  assert.equal(json.code, 1, json.stderr);
  const reports = lines(json.stdout).map((l) => JSON.parse(l));
  assert.deepEqual(reports.map((x) => x.file), native2.map((x) => x.file));
  const wrong = [];
  for (const x of reports) {
    assert.equal(x.backend, 'wasm');
    if (FROM_HOSTILE.some((f) => x.file.endsWith(`/${f}`))) continue;   // attacks on the native sandbox
    const want = expectation(x.file).wasm;
    if (x.verdict !== want.verdict || (want.verdict === 'WA' && namedMistake(x) !== want.mistake))
      wrong.push(`${x.file}: ${x.verdict} ${namedMistake(x)}, expected ${want.verdict} ${want.mistake}`);
  }
  assert.deepEqual(wrong, []);
  // The table is class.c's on both: the same but for the measured numbers,
  // on the rows both backends judge alike.
  const text = await judgeWasm(['49', dir, '-j', '2'], { env: env(), timeout: 600_000 });
  assert.equal(lines(text.stdout).at(-1), countsOf(reports));
  const same = native2.map((x, i) => x.verdict === reports[i].verdict);
  const masked = (t) => lines(t).slice(1, -1).filter((_, i) => same[i]).map((l) => l.replace(/\S*\d\.\d+\S*( ms)?/g, '').replace(/\s+/g, ' ').trim());
  const nat = await judge(['49', dir, '-j', '2'], { env: env(), timeout: 240_000 });
  assert.deepEqual(masked(text.stdout), masked(nat.stdout));
});
