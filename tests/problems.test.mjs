// problems.test.mjs: problems as data. Every problem folder is complete, and
// a malformed problem.json is refused by the generator with a message that
// names the file and the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, cpSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { root } from './lib/run.mjs';

const problems = join(root, 'problems');
const gen = join(root, 'libjudge', 'gen_problems.mjs');

// Folders only: problems/README.md documents the numbering.
for (const dir of readdirSync(problems, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
  test(`problems/${dir} has its metadata, statements, starter and solution`, () => {
    for (const f of ['problem.json', 'statement.en.md', 'statement.zh.md', 'starter.c', 'solution.c'])
      assert.ok(existsSync(join(problems, dir, f)), `${f} missing`);
    const p = JSON.parse(readFileSync(join(problems, dir, 'problem.json'), 'utf8'));
    assert.equal(dir, `${p.id}-${p.slug}`);
    assert.ok(p.cases.filter((c) => c.visible).length >= 1, 'no visible example');
    // The page shows the starter too: a comment telling only of ./judge
    // would send a learner in the browser to a terminal they may not have.
    const starter = readFileSync(join(problems, dir, 'starter.c'), 'utf8');
    if (/\.\/judge/.test(starter)) assert.match(starter, /Run on the page/, 'the starter names ./judge but not the page');
  });
}

function generate(mutate) {
  const dir = mkdtempSync(join(tmpdir(), 'gen-'));
  try {
    cpSync(join(problems, '49-causal-mha'), join(dir, '49-causal-mha'), { recursive: true });
    cpSync(join(problems, 'mistakes.json'), join(dir, 'mistakes.json'));
    const file = join(dir, '49-causal-mha', 'problem.json');
    writeFileSync(file, mutate(readFileSync(file, 'utf8')));
    return spawnSync('node', [gen, join(dir, 'out.c'), dir], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the generator accepts the real problems', () => {
  const r = generate((s) => s);
  assert.equal(r.status, 0, r.stderr);
});

for (const [what, mutate, message] of [
  ['broken JSON', (s) => s.slice(0, -10), /problem\.json: not valid JSON/],
  ['a case without T', (s) => s.replace('"name": "one-head", "B": 1, "T": 9,', '"name": "one-head", "B": 1,'),
    /problem\.json: cases\[2\]\.T must be an integer/],
  ['an unknown mask kind', (s) => s.replace('"mask": "left"', '"mask": "middle"'),
    /cases\[\d+\]\.mask must be one of none, ones, right, left, random/],
  ['a shape naming no param', (s) => s.replace('"shape": ["B", "T"]', '"shape": ["B", "Q"]'),
    /params\[6\]\.shape: Q is not an int param/],
  ['a wrong number of example values', (s) => s.replace('"x":  [1, 0, 1, 0,', '"x":  [1, 0, 1,'),
    /cases\[0\]\.tensors\.x must be 12 numbers/],
  ['a mistake turning an unknown knob', (s) => s.replace('"changes": {"scale": "one"}', '"changes": {"scaling": "one"}'),
    /mistakes\[0\]\.changes: scaling is not a knob of libjudge\/form\.json/],
  ['a knob value that does not exist', (s) => s.replace('"changes": {"scale": "one"}', '"changes": {"scale": "half"}'),
    /mistakes\[0\]\.changes\.scale must be one of one, inv_d, inv_sqrt_model/],
  ['a mistake with no text anywhere', (s) => s.replace('"id": "no_scale"', '"id": "no_such_mistake"'),
    /mistakes\[0\]: no_such_mistake has no title in problems\/mistakes\.json/],
  ['a mistake listed twice', (s) => s.replace('"id": "scale_by_d"', '"id": "no_scale"'),
    /mistakes\[\d+\]\.id no_scale is listed twice/],
  ['an attention view with the wrong axes', (s) => s.replace('"out": "out[b t f]"', '"out": "out[b t]"'),
    /attention\.out: one axis per dim of out \(3\)/],
  ['a problem without hints', (s) => s.replace(/\n  "hints": \[[^]*?\n  \],/, ''), /problem\.json: hints must be a list of 2 or 3 hints/],
  ['a single hint', (s) => s.replace(/(\n  "hints": \[\n    \{[^\n]*\}),[^]*?\n  \],/, '$1\n  ],'),
    /problem\.json: hints must be a list of 2 or 3 hints/],
  ['a hint without its Chinese', (s) => s.replace(/(\n  "hints": \[\n    \{"en": "[^"]*"), "zh": "[^"]*"/, '$1'),
    /problem\.json: hints\[0\]\.zh must be a string/],
]) {
  test(`the generator refuses ${what} with a clear message`, () => {
    const r = generate(mutate);
    assert.equal(r.status, 1);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });
}

// The worked example in the statements is the judge's visible case: the
// numbers a learner reads must be the reference's, to the 4 decimals shown.
test('exercise 49: both statements show the reference output of the example', async () => {
  const { judge } = await import('./lib/run.mjs');
  const r = await judge(['49', join(problems, '49-causal-mha', 'solution.c'), '--json']);
  const expected = JSON.parse(r.stdout).cases[0].example.out.expected;
  for (const lang of ['en', 'zh']) {
    const text = readFileSync(join(problems, '49-causal-mha', `statement.${lang}.md`), 'utf8');
    const m = /\\text\{out\} = \\begin\{pmatrix\}([^]*?)\\end\{pmatrix\}/.exec(text);
    assert.ok(m, `statement.${lang}.md has no out = pmatrix`);
    const shown = m[1].split(/\\\\|&/).map(Number);
    assert.equal(shown.length, expected.length);
    shown.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= 5e-5, `${lang}: element ${i}: ${v} vs ${expected[i]}`));
  }
});

// A statement that states the tolerance states the one in problem.json.
for (const dir of readdirSync(problems).filter((d) => existsSync(join(problems, d, 'problem.json')))) {
  test(`problems/${dir}: the statements' tolerance is problem.json's`, () => {
    const { tolerance } = JSON.parse(readFileSync(join(problems, dir, 'problem.json'), 'utf8'));
    const number = (k, e) => (k ? Number(k) : 1) * 10 ** Number(e);
    for (const lang of ['en', 'zh']) {
      const text = readFileSync(join(problems, dir, `statement.${lang}.md`), 'utf8');
      const m = /\\le\s*(?:(\d+)\s*\\cdot\s*)?10\^\{(-?\d+)\}\s*\+\s*(?:(\d+)\s*\\cdot\s*)?10\^\{(-?\d+)\}/.exec(text);
      if (!m) continue;   // exact problems say "exact" in words
      assert.ok(Math.abs(number(m[1], m[2]) - tolerance.atol) < 1e-12, `${lang}: atol ${m[0]} vs ${tolerance.atol}`);
      assert.ok(Math.abs(number(m[3], m[4]) - tolerance.rtol) < 1e-12, `${lang}: rtol ${m[0]} vs ${tolerance.rtol}`);
    }
  });
}

// ---- libjudge/messages.json: every sentence of a report in en and zh ----
const messagesFile = join(root, 'libjudge', 'messages.json');

function generateMessages(mutate) {
  const dir = mkdtempSync(join(tmpdir(), 'gen-'));
  try {
    cpSync(join(problems, '49-causal-mha'), join(dir, '49-causal-mha'), { recursive: true });
    cpSync(join(problems, 'mistakes.json'), join(dir, 'mistakes.json'));
    const file = join(dir, 'messages.json');
    const m = JSON.parse(readFileSync(messagesFile, 'utf8'));
    mutate(m);
    writeFileSync(file, JSON.stringify(m));
    return spawnSync('node', [gen, join(dir, 'out.c'), dir, file], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('both languages have the same set of messages, with the same printf conversions', () => {
  const m = JSON.parse(readFileSync(messagesFile, 'utf8'));
  const conv = (s) => s.match(/%[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|z)?[diouxXeEfgGcsp%]/g) ?? [];
  for (const [id, t] of Object.entries(m)) {
    assert.deepEqual(Object.keys(t).sort(), ['en', 'zh'], id);
    assert.deepEqual(conv(t.zh), conv(t.en), id);
  }
  assert.equal(generateMessages(() => {}).status, 0);
});

for (const [what, mutate, message] of [
  ['a message without its Chinese', (m) => { delete m.verdict_wa.zh; }, /messages\.json: verdict_wa has no zh text/],
  ['a message with an empty English', (m) => { m.col_case.en = ''; }, /messages\.json: col_case has no en text/],
  ['conversions that differ', (m) => { m.report_n_bad_int.zh = '  错误元素 %d 个（共 %zu 个）\n'; },
    /messages\.json: report_n_bad_int: en has conversions %zu %zu but zh has %d %zu/],
  ['conversions in another order', (m) => { m.report_first_bad_f32.zh = '%.9g：%s，%.9g\n'; },
    /messages\.json: report_first_bad_f32: en has conversions %s %\.9g %\.9g but zh has %\.9g %s %\.9g/],
  ['a lone percent sign', (m) => { m.detail_trap_rem_zero.en = 'x % 0'; }, /detail_trap_rem_zero: a % that starts no conversion/],
  ['a detail message with a number conversion', (m) => {
    m.detail_printed_too_much = { en: 'printed more than %d KiB', zh: '输出超过了 %d KiB' };
  }, /detail_printed_too_much: a detail_ message takes only %s/],
]) {
  test(`the generator refuses ${what} with a clear message`, () => {
    const r = generateMessages(mutate);
    assert.equal(r.status, 1);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });
}

test('an MLE hint must come in both languages', () => {
  const r = generate((s) => s.replace('"output_kb": 64', '"output_kb": 64, "mle_hint": { "en": "only English" }'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /problem\.json: limits\.mle_hint\.zh must be a string/);
});

// problem.json mangled at random (a deterministic generator): the generator
// accepts it or refuses it in one line naming the file, never with a stack
// trace from inside.
test('the generator survives a fuzzed problem.json', () => {
  let seed = 20261201;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
  for (let round = 0; round < 30; round++) {
    const r = generate((s) => {
      const at = rand(s.length), kind = rand(3);
      if (kind === 0) return s.slice(0, at) + s.slice(at + 1 + rand(40));           // cut
      if (kind === 1) return s.slice(0, at) + '"x": [], ' + s.slice(at);            // grown
      return s.replace(/-?\d+(\.\d+)?/g, (d) => (rand(8) ? d : String(-Number(d) * 1e9)));   // numbers
    });
    assert.ok(r.status === 0 || r.status === 1, `round ${round}: status ${r.status}\n${r.stderr}`);
    if (r.status === 1) {
      assert.equal(r.stderr.trim().split('\n').length, 1, `round ${round}: ${r.stderr}`);
      assert.match(r.stderr, /^gen_problems: problems\/49-causal-mha/, `round ${round}: ${r.stderr}`);
    }
  }
});
