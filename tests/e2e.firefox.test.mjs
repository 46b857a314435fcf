// e2e.firefox.test.mjs: the page end to end in Debian's Firefox ESR, driven
// by puppeteer-core over WebDriver BiDi: the list, a problem, an accepted
// solution, a named mistake, and the same page offline from the service
// worker. tests/e2e.test.mjs covers the rest in Chromium; this file checks
// that the compiler, the workers and the offline layer work in Firefox too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/run.mjs';

const skip = existsSync(join(root, 'wasm', 'api.mjs')) ? false : 'wasm/api.mjs is not there yet';
const { firefoxMissing, launch, setCode, runAndWait } = await import('../web/firefox.mjs');
const artifacts = join(root, 'tests', 'artifacts');
const solution = readFileSync(join(root, 'problems', '49-causal-mha', 'solution.c'), 'utf8');

let server, url, browser, page;
const errors = [];

before(async () => {
  if (skip) return;
  // A missing browser is a failure, not a skip: tools/setup installs it.
  if (firefoxMissing) throw new Error(firefoxMissing);
  execFileSync('make', ['-s', 'web'], { cwd: root, stdio: 'inherit', timeout: 600_000 });
  const { serve } = await import('../web/serve.mjs');
  ({ server, url } = await serve({ root: join(root, 'build', 'web') }));
  mkdirSync(artifacts, { recursive: true });
  browser = await launch();
  page = await browser.browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
});

after(async () => {
  await browser?.close();
  server?.close();
});

const shot = (name) => page.screenshot({ path: join(artifacts, `firefox-${name}.png`) });

test('firefox: the list shows every problem, and 49 opens with its statement and starter', { skip }, async () => {
  await page.goto(`${url}#/`);
  await page.waitForSelector('table.problems a[href="#/49-causal-mha"]', { timeout: 60_000 });
  await shot('list');
  await page.click('a[href="#/49-causal-mha"]');
  await page.waitForSelector('.statement .katex-display');
  assert.equal(await page.$$eval('.statement .katex-error', (x) => x.length), 0, 'every formula renders');
  const starter = readFileSync(join(root, 'problems', '49-causal-mha', 'starter.c'), 'utf8');
  assert.equal(await page.$eval('.cm-content', (el) => el.cmTile.root.view.state.doc.toString()), starter);
});

test('firefox: a correct solution is Accepted, compiled and judged in the browser', { skip }, async () => {
  await setCode(page, solution);
  assert.equal(await runAndWait(page), 'AC');
  assert.ok(await page.$$eval('table.cases tbody tr', (x) => x.length) >= 10);
  await shot('accepted');
});

test('firefox: a classic mistake is named', { skip }, async () => {
  await setCode(page, readFileSync(join(root, 'tests', 'corpus', '49', 'wa-no-scale.c'), 'utf8'));
  assert.equal(await runAndWait(page), 'WA');
  assert.equal(await page.$eval('.mistake', (el) => el.dataset.mistake), 'no_scale');
  await shot('wrong-answer');
});

test('firefox: offline after the first visit, from the service worker', { skip }, async () => {
  // Firefox's HTTP cache is off (web/firefox.mjs): with the server gone,
  // only the worker's caches can serve the page and the compiler.
  await page.waitForFunction(() => document.getElementById('download').hidden, { timeout: 120_000 });
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  server = null;
  await page.reload();
  await page.waitForSelector('.statement .katex');
  await setCode(page, solution.replace('void mha', '/* offline */\nvoid mha'));
  assert.equal(await runAndWait(page), 'AC');
  await shot('offline-accepted');
});

test('firefox: no console errors along the way', { skip }, () => {
  assert.deepEqual(errors, []);
});
