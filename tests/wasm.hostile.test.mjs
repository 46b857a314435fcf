// wasm.hostile.test.mjs: submissions that attack the wasm host rather than
// the problem (bad pointers and lengths handed to WASI, huge or endless
// allocations, writes where no buffer lives, a stack past its 8 MiB). Each
// file in tests/hostile-wasm/<id>/ is judged by both CLIs: neither may end as
// a judge error (exit 2), and each gives the verdict on the file's first line
// (tests/lib/run.mjs expectation()). A second line
//   /* wasm cause: "stack overflow" */
// is a phrase the wasm verdict's detail must hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, judge, judgeWasm, expectation } from './lib/run.mjs';

const dir = join(root, 'tests', 'hostile-wasm');
const files = readdirSync(dir).flatMap((id) =>
  readdirSync(join(dir, id)).filter((f) => f.endsWith('.c')).sort().map((f) => ({ id, f })));

// The verdict of one CLI run, or a failed assertion saying what came back.
function verdictOf(r, backend) {
  assert.notEqual(r.code, 2, `${backend}: judge error: ${r.stderr}`);
  let report;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    assert.fail(`${backend}: not JSON (exit ${r.code}): ${r.stdout.slice(0, 300)} ${r.stderr}`);
  }
  const failed = report.cases.find((c) => c.name === report.failed_case);
  return { verdict: report.verdict, detail: failed?.detail ?? '' };
}

function wasmCause(file) {
  const second = readFileSync(file, 'utf8').split('\n', 2)[1] ?? '';
  return /^\/\* wasm cause: "([^"]+)" \*\/$/.exec(second)?.[1] ?? null;
}

test('the hostile corpus is there', () => {
  assert.ok(files.length >= 9, `only ${files.length} hostile files`);
});

for (const { id, f } of files) {
  const file = join(dir, id, f);
  const want = expectation(file);
  const cause = wasmCause(file);
  test(`${id}/${f}: wasm ${want.wasm.verdict}, native ${want.verdict}`, async () => {
    const wasm = verdictOf(await judgeWasm([id, file, '--json']), 'wasm');
    assert.equal(wasm.verdict, want.wasm.verdict, `wasm: ${wasm.detail}`);
    if (cause) assert.ok(wasm.detail.includes(cause), `wasm detail: ${wasm.detail}`);
    const native = verdictOf(await judge([id, file, '--json']), 'native');
    assert.equal(native.verdict, want.verdict, `native: ${native.detail}`);
  });
}
