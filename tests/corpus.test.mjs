// corpus.test.mjs: every submission under tests/corpus/<id>/ judged by the
// native CLI must get the verdict (and the named mistake) its first line
// expects. Also holds the tolerance calibration (DESIGN point 6) to the real
// submissions: correct ones stay 10x inside it, classic mistakes 10x outside.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, judge, expectation, namedMistake, spreadOf } from './lib/run.mjs';

const corpus = join(root, 'tests', 'corpus');
const files = readdirSync(corpus).flatMap((id) =>
  readdirSync(join(corpus, id)).filter((f) => f.endsWith('.c')).map((f) => ({ id, f })));

test('the corpus is large enough to mean something', () => {
  assert.ok(files.length >= 25, `only ${files.length} submissions`);
});

describe('corpus', { concurrency: 2 }, () => {
for (const { id, f } of files) {
  const file = join(corpus, id, f);
  const want = expectation(file);
  it(`${id}/${f}: ${want.verdict}${want.mistake ? ` ${want.mistake}` : want.spread ? ` @${want.spread}` : ''}`, async () => {
    // A private TMPDIR shows that the judge leaves nothing behind.
    const tmp = mkdtempSync(join(tmpdir(), 'corpus-'));
    try {
      const r = await judge([id, file, '--json'], { env: { ...process.env, TMPDIR: tmp } });
      const report = JSON.parse(r.stdout);
      assert.equal(report.verdict, want.verdict, `${r.stdout}\n${r.stderr}`);
      assert.equal(r.code, want.verdict === 'AC' ? 0 : 1);
      if (want.verdict === 'WA') {
        assert.equal(namedMistake(report), want.mistake, JSON.stringify(report.cases));
        assert.equal(spreadOf(report), want.spread, JSON.stringify(report.spread));
      }
      // A mistake the file makes explains every case it fails, not some.
      if (want.mistake) assert.equal(report.mistake.partial, false, `named only for ${report.mistake.cases}`);
      const ratios = report.cases.filter((c) => 'max_ratio' in c)
        .map((c) => (typeof c.max_ratio === 'number' ? c.max_ratio : Infinity));
      if (want.verdict === 'AC') {
        assert.ok(Math.max(...ratios) <= 0.1, `a correct submission within 10x of the tolerance: ${ratios}`);
      }
      // (Told by the mask picture alone, a case has no wrong value to measure.)
      const failed = report.cases.find((c) => c.name === report.failed_case);
      if (want.mistake && failed.n_bad) {
        const ratio = typeof failed.max_ratio === 'number' ? failed.max_ratio : Infinity;
        assert.ok(ratio >= 10, `a classic mistake fails by 10x the tolerance: ${ratio}`);
      }
      assert.deepEqual(readdirSync(tmp), [], 'files left behind in TMPDIR');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
}
});

test('the sandbox kept a submission from writing a file', () => {
  assert.equal(existsSync('/tmp/pwned-by-learner'), false);
});
