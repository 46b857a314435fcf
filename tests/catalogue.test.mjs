// catalogue.test.mjs: the exercise set as a learner meets it. For every
// problem folder: `./judge list` shows it with its slug, difficulty and title;
// its solution.c is accepted and its starter.c compiles and is judged WA (not
// CE, not AC), by id and with the JSON report naming the problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { root, judge } from './lib/run.mjs';

const problems = join(root, 'problems');
const catalogue = readdirSync(problems, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(problems, d.name, 'problem.json')))
  .map((d) => ({ dir: d.name, ...JSON.parse(readFileSync(join(problems, d.name, 'problem.json'), 'utf8')) }));

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('the catalogue is not empty', () => {
  assert.ok(catalogue.length >= 1);
});

test('judge list shows every problem with its slug, difficulty and title', async () => {
  const r = await judge(['list']);
  assert.equal(r.code, 0, r.stderr);
  for (const p of catalogue) {
    const line = new RegExp(`^\\s*${p.id}\\s+${escape(p.slug)}\\s+${escape(p.difficulty)}\\s+${escape(p.title.en)}$`, 'm');
    assert.match(r.stdout, line, `problem ${p.id} is missing from judge list`);
  }
  const listed = r.stdout.split('\n').filter((l) => /^\s*\d+\s/.test(l)).length;
  assert.equal(listed, catalogue.length, 'judge list shows a problem with no folder');
});

for (const p of catalogue) {
  test(`${p.dir}: solution.c is AC, starter.c is WA`, async () => {
    const sol = await judge([String(p.id), join(problems, p.dir, 'solution.c'), '--json']);
    const s = JSON.parse(sol.stdout);
    assert.equal(s.problem.id, p.id);
    assert.equal(s.verdict, 'AC', `solution: ${sol.stdout.slice(0, 2000)}`);
    assert.equal(sol.code, 0);
    assert.equal(s.cases.length, p.cases.length);

    const start = await judge([String(p.id), join(problems, p.dir, 'starter.c'), '--json']);
    const t = JSON.parse(start.stdout);
    assert.equal(t.compile.ok, true, `the starter must compile: ${t.compile.diagnostics}`);
    assert.equal(t.verdict, 'WA', `starter: ${start.stdout.slice(0, 2000)}`);
    assert.equal(start.code, 1);
  });
}

// Properties the chapter states, seen through the judge: a submission that
// gets one thing wrong on purpose is right exactly on the cases where the
// property makes that thing irrelevant, and wrong on the others.
const caseVerdicts = async (id, file) => {
  const r = JSON.parse((await judge([id, join(root, 'tests', 'corpus', id, file), '--json'])).stdout);
  return Object.fromEntries(r.cases.map((c) => [c.name, c.verdict]));
};
const casesOf = (id) => catalogue.find((p) => String(p.id) === id).cases;

for (const [what, id, file, irrelevant] of [
  ['50: a window W >= T is plain causal attention', '50', 'wa-no-window.c', (c) => c.W >= c.T],
  ['51: GQA with Hkv = H is multi-head attention (any head pairing is the same)', '51',
    'wa-kv-head-modulo.c', (c) => c.Hkv === c.H || c.Hkv === 1],
  ['51: GQA with Hkv = 1 is multi-query attention', '51', 'wa-kv-head-always-first.c',
    (c) => c.Hkv === 1],
  ['47: with S = T or T = 1 the KV-cache offset changes nothing it must not', '47',
    'wa-causal-no-offset.c', (c) => c.S === c.T || !c.causal],
]) {
  test(what, async () => {
    const got = await caseVerdicts(id, file);
    for (const c of casesOf(id)) {
      assert.equal(got[c.name], irrelevant(c) ? 'AC' : 'WA', `case ${c.name}`);
    }
  });
}
