// bench.mjs: how fast the page judges, in headless Chromium on localhost
// (`make bench-web`). Problem 49's reference solution:
//   cold:   a fresh profile opens the page and runs; the clock runs from
//           navigation to the verdict, compiler download included;
//   warm:   Run again, unchanged code (the compile is cached): the median
//           of several, the time from the click to the verdict;
//   edited: Run after a small edit (the compiler is warm, the code is new);
//   reload: the page reloaded, the learner's last code back in the editor
//           (its module in the compile cache), Run as soon as the editor
//           shows; navigation to verdict, the median of three;
//   paused: Run a few seconds after an edit (the page compiles meanwhile);
//   read:   an edit some seconds after the last verdict (the learner read
//           it; the page warms the compiler up meanwhile), Run at once;
//   first read: a first visit (a fresh profile) where the learner reads the
//           statement a while, then pastes code and runs it: the page
//           loads and warms the compiler meanwhile; the click to the verdict.
// Targets (issue 16): edited re-run 400 ms, cold 3 s, reload 700 ms. Printed,
// not asserted: a loaded machine is slower, not wrong. A `phases` line per
// kind of run says where its time went, from the judge's User Timing
// measures ("judge: <phase>", wasm/platform_web.mjs) and the page's own
// ("page: <phase>", web/src/main.js): on a shared machine the shares mean
// more than the absolute times. Runs are timed twice: by this script (the
// click to the verdict seen, Playwright's own time included, the figures
// the targets were set on) and on the page's clock (the click event to the
// verdict in the DOM), printed apart as `clock=page`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, setCode, runAndWait, chromiumMissing } from './chromium.mjs';
import { serve } from './serve.mjs';
import { root } from './site.mjs';

if (chromiumMissing) {
  console.error(`bench-web: ${chromiumMissing}`);
  process.exit(2);
}
const solution = readFileSync(join(root, 'problems', '49-causal-mha', 'solution.c'), 'utf8');
const RUNS = 7;
const PAUSE_MS = 3000;   // a pause before Run, long enough for a compile on a loaded machine
const READ_MS = 8000;    // reading a verdict before the next edit
const FIRST_READ_MS = 20000;   // reading the statement on a first visit before the first Run
const { server, url } = await serve({ root: join(root, 'build', 'web') });
let browser = await launch();
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

// The judge's measures since the last clear, in ms per phase (summed over
// the phase's pieces; the toolchain's instantiations apart, as "instantiate",
// taken out of the step that paid them), and the page's own navigation.
async function phases(page) {
  return page.evaluate(() => {
    const sum = {};
    const add = (name, ms) => { sum[name] = (sum[name] ?? 0) + ms; };
    for (const m of performance.getEntriesByType('measure')) {
      // The page's own (web/src/main.js, "page: <phase>") keep their prefix.
      if (m.name.startsWith('page: ')) add(m.name.replace(': ', ' '), m.duration);
      if (!m.name.startsWith('judge: ')) continue;
      const name = m.name.slice(7), inst = m.detail?.instantiate;
      add(name, m.duration - (inst ?? 0));
      if (inst !== undefined) add('instantiate', inst);
    }
    const nav = performance.getEntriesByType('navigation')[0];
    if (nav) add('page load', nav.domContentLoadedEventEnd - nav.startTime);
    performance.clearMeasures();
    return sum;
  });
}
const phaseLine = (what, p) => `phases peer=web shape=49 what=${what} ` +
  Object.entries(p).map(([k, v]) => `${k.replace(/ /g, '_')}=${Math.round(v)}`).join(' ');
// Per phase, the median over several runs.
function medianPhases(list) {
  const names = [...new Set(list.flatMap((p) => Object.keys(p)))];
  return Object.fromEntries(names.map((n) => {
    const v = list.map((p) => p[n] ?? 0).sort((a, b) => a - b);
    return [n, v[v.length >> 1]];
  }));
}

// The time from navigation to the verdict, and its steps as the learner
// sees them (the page loaded, the editor shown, Run pressed to the verdict).
// code: what the learner writes first (none: Run what the editor holds).
async function firstVerdict(page, go, code) {
  const t0 = Date.now();
  await go();
  const loaded = Date.now();
  // Looked for at every frame, as runAndWait looks for the verdict: a
  // locator's waitFor retries after 0, 20, 100, 100 ms, so an editor shown
  // 120 ms after the load event was seen ~100 ms late.
  await page.waitForFunction(() => document.querySelector('.cm-content'), null, { polling: 'raf' });
  const shown = Date.now();
  if (code !== undefined) await setCode(page, code);
  const pressed = Date.now();
  const verdict = await runAndWait(page);
  if (verdict !== 'AC') throw new Error(`the reference solution got ${verdict}`);
  const end = Date.now();
  return { ms: end - t0, steps: { 'to load event': loaded - t0, 'to editor': shown - loaded, 'set code': pressed - shown,
    'run to verdict': end - pressed } };
}

try {
  const page = await browser.context.newPage();
  const { ms: cold, steps: coldSteps } = await firstVerdict(page, () => page.goto(`${url}#/49-causal-mha`), solution);
  const coldPhases = { ...coldSteps, ...await phases(page) };
  // n runs, each after before(i) (which returns phases of its own to keep),
  // timed from the click to the verdict: the times sorted, the phases per run.
  async function timedRuns(n, before = async () => ({})) {
    const ms = [], list = [];
    for (let i = 0; i < n; i++) {
      const extra = await before(i);
      await phases(page);
      const t0 = Date.now();
      await runAndWait(page);
      ms.push(Date.now() - t0);
      list.push({ ...extra, ...await phases(page) });
    }
    return [ms.sort((a, b) => a - b), list];
  }
  const [warm, warmPhases] = await timedRuns(RUNS);
  // An edit: the compiler is warm but the module is new.
  const [edited, editedPhases] = await timedRuns(3, async (i) => {
    await setCode(page, `${solution}\n/* edit ${i} */\n`);
    return {};
  });
  // An edit, then the pause a person makes before Run: the page compiles
  // during it (web/src/ahead.js), so Run is left with the judging.
  const [paused, pausedPhases] = await timedRuns(3, async (i) => {
    await setCode(page, `${solution}\n/* pause ${i} */\n`);
    await page.waitForTimeout(PAUSE_MS);
    return {};
  });
  // An edit after reading the verdict: the warm-ups ran meanwhile.
  const [read, readPhases] = await timedRuns(3, async (i) => {
    await page.waitForTimeout(READ_MS);
    await setCode(page, `${solution}\n/* read ${i} */\n`);
    return { 'warm-ups before': (await phases(page))['warm-up'] ?? 0 };
  });
  // Reloads, one after another: the median, with its phases.
  const reloads = [];
  for (let i = 0; i < 3; i++) {
    const { ms, steps } = await firstVerdict(page, () => page.reload());
    reloads.push({ ms, phases: { ...steps, ...await phases(page) } });
  }
  reloads.sort((a, b) => a.ms - b.ms);
  const { ms: reload, phases: reloadPhases } = reloads[1];

  // A first visit again (a fresh profile), read before the first Run.
  await browser.close();
  browser = await launch();
  const first = await browser.context.newPage();
  await first.goto(`${url}#/49-causal-mha`);
  await first.waitForTimeout(FIRST_READ_MS);
  await setCode(first, solution);
  const warmed = (await phases(first))['warm-up'] ?? 0;
  const t0 = Date.now();
  if (await runAndWait(first) !== 'AC') throw new Error('the reference solution did not get AC');
  const firstRead = Date.now() - t0;
  const firstReadPhases = { 'warm-ups before': warmed, ...await phases(first) };

  const median = warm[warm.length >> 1];
  // The same runs on the page's own clock: from the click event's timeStamp
  // to the verdict in the DOM (web/src/main.js). What is left of the figures
  // above is the harness's: Playwright's click (actionability checks) and
  // its polling for the verdict.
  const PRESS = 'page press to verdict';
  const onPage = (list) => list.map((p) => Math.round(p[PRESS] ?? NaN)).sort((a, b) => a - b);
  const warmPage = onPage(warmPhases), editedPage = onPage(editedPhases), pausedPage = onPage(pausedPhases);
  const readPage = onPage(readPhases);
  const line = (label, value, note = '') => console.log(`  ${label.padEnd(58)} ${value}${note && `   (${note})`}`);
  console.log('web: problem 49, reference solution, headless Chromium, localhost');
  line('cold page-to-first-verdict (compiler download included)', seconds(cold), 'target < 3 s');
  line(`warm re-run, unchanged code, median of ${RUNS}`, seconds(median),
    `min ${seconds(warm[0])}, max ${seconds(warm.at(-1))}`);
  line('run after an edit (warm compiler, recompiles), median of 3', seconds(edited[1]), 'target < 0.4 s');
  line('page reload to verdict (compiler from the cache), median of 3', seconds(reload),
    `min ${seconds(reloads[0].ms)}, max ${seconds(reloads[2].ms)}; target < 0.7 s`);
  line(`run ${PAUSE_MS / 1000} s after an edit (compiled meanwhile), median of 3`, seconds(paused[1]));
  line(`run after an edit ${READ_MS / 1000} s after the last verdict, median of 3`, seconds(read[1]));
  line(`first visit, Run after reading ${FIRST_READ_MS / 1000} s (compiler loaded and warmed meanwhile)`, seconds(firstRead),
    `page clock ${seconds(firstReadPhases[PRESS])}`);
  line('  the same four kinds, click event to verdict on the page\'s clock',
    `warm ${seconds(warmPage[warmPage.length >> 1])}, edited ${seconds(editedPage[1])}, paused ${seconds(pausedPage[1])}, read ${seconds(readPage[1])}`);
  console.log(phaseLine('cold_first_verdict', coldPhases));
  console.log(phaseLine('warm_rerun', medianPhases(warmPhases)));
  console.log(phaseLine('edited_rerun', medianPhases(editedPhases)));
  console.log(phaseLine('read_edited_rerun', medianPhases(readPhases)));
  console.log(phaseLine('reload_first_verdict', reloadPhases));
  console.log(phaseLine('first_visit_read_run', firstReadPhases));
  console.log(`RESULT peer=web shape=49 what=cold_first_verdict ms=${cold}`);
  console.log(`RESULT peer=web shape=49 what=warm_rerun min_ms=${warm[0]} median_ms=${median} max_ms=${warm.at(-1)}`);
  console.log(`RESULT peer=web shape=49 what=edited_rerun min_ms=${edited[0]} median_ms=${edited[1]} max_ms=${edited[2]}`);
  console.log(`RESULT peer=web shape=49 what=reload_first_verdict min_ms=${reloads[0].ms} median_ms=${reload} max_ms=${reloads[2].ms}`);
  console.log(`RESULT peer=web shape=49 what=paused_edited_rerun min_ms=${paused[0]} median_ms=${paused[1]} max_ms=${paused[2]}`);
  const pageLine = (what, v) => console.log(`RESULT peer=web shape=49 what=${what} clock=page min_ms=${v[0]} median_ms=${v[v.length >> 1]} max_ms=${v.at(-1)}`);
  pageLine('warm_rerun', warmPage);
  pageLine('edited_rerun', editedPage);
  pageLine('paused_edited_rerun', pausedPage);
  console.log(`RESULT peer=web shape=49 what=read_edited_rerun min_ms=${read[0]} median_ms=${read[1]} max_ms=${read[2]}`);
  pageLine('read_edited_rerun', readPage);
  console.log(`RESULT peer=web shape=49 what=first_visit_read_run ms=${firstRead}`);
  console.log(`RESULT peer=web shape=49 what=first_visit_read_run clock=page ms=${Math.round(firstReadPhases[PRESS])}`);
} finally {
  await browser.close();
  server.close();
}
