// main.js: the page. Two views, chosen by the URL's hash so any static host
// serves it: the problem list (#/) and a problem (#/49-causal-mha): statement,
// editor, Run, results. Everything about problems comes from judge.problems
// (in the bundle: problems.js) and the statements; every verdict comes from
// the wasm judge.
import './style.css';
import { h } from './dom.js';
import { say, t, setLanguage } from './text.js';
import * as store from './store.js';
import { lazyJudge, loadJudge, measureSpeed, offlineLayer, offlineQuiet } from './judge.js';
import { problemByDir, problems, solutionText } from './problems.js';
import { createEditor } from './editor.js';
import { compileAhead } from './ahead.js';
import { statementHtml } from './statement.js';
import { renderReport } from './results.js';
import { downloadBar } from './download.js';
import { divider, tabs } from './layout.js';
import { wideBlocks } from './wide.js';
import { helpPanel } from './help.js';
import { historyPanel } from './history.js';
import { progressTools } from './progress.js';
import { ask } from './dialog.js';
import { hasSpeed, speedSection, tierBadge } from './speed.js';

const main = document.getElementById('main');
const langButton = document.getElementById('lang');
const download = downloadBar({
  box: document.getElementById('download'),
  bar: document.getElementById('download-bar'),
  label: document.getElementById('download-label'),
});
const onProgress = (p) => download.progress(p);

// How long a page that reopens the learner's code waits before loading the
// toolchain, when nothing needs it sooner (problemView).
const TOOLCHAIN_LATER_MS = 2500;

let lang = store.lang();
let view = null;   // the open problem view, or null on the list
let routeId = 0;   // bumps on every navigation, so a slow load cannot draw a stale view

function applyLanguage() {
  setLanguage(lang);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  // The button names the other language in that language (中文 / English).
  langButton.textContent = t('langButton');
  langButton.lang = lang === 'zh' ? 'en' : 'zh-CN';
  langButton.title = t('langLabel');
  document.getElementById('nav-list').textContent = t('problems');
  skipLink.textContent = t('skip');
  download.relabel();
}

// The skip link moves focus to the main area; followed as a link, its #main
// would be read as a route (the problem "main").
const skipLink = document.querySelector('a.skip');
skipLink.addEventListener('click', (e) => {
  e.preventDefault();
  main.focus();
});

langButton.addEventListener('click', () => {
  lang = lang === 'en' ? 'zh' : 'en';
  store.setLang(lang);
  applyLanguage();
  if (view) view.relabel();
  else showList();
});

function fail(where, error) {
  main.replaceChildren(h('p', { class: 'error', role: 'alert' }, `${t('failed')}: ${error?.message ?? error}`));
  console.warn(where, error);
}

function showList() {
  document.title = 'Attention judge';
  document.body.classList.remove('workspace');
  const rows = problems.map((p) => {
    const status = store.status(p.id);
    return h('tr', {},
      h('td', { class: 'num' }, p.id),
      h('td', {}, h('a', { href: `#/${p.dir}` }, p.title[lang] || p.title.en)),
      h('td', {}, h('span', { class: `difficulty ${p.difficulty}` }, p.difficulty_text[lang])),
      h('td', {}, h('span', { class: `status ${status}`, 'data-status': status }, t(status)), tierBadge(p.id)));
  });
  main.replaceChildren(
    h('h1', {}, t('problems')),
    h('p', { class: 'muted' }, t('intro')),
    h('table', { class: 'problems' },
      h('thead', {}, h('tr', {}, ['#', t('title'), t('difficulty'), t('status')].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows)),
    progressTools(problems.map((p) => p.id), () => showList()));
}

// A problem is drawn at once, the judge loading meanwhile (a call to it
// waits for the load); a key that is not a folder's name (problem: null)
// asks the judge.
async function showProblem(key, problem) {
  const id = routeId;
  if (!problem) {
    try {
      problem = (await loadJudge(onProgress)).find(key);
    } catch (e) {
      return fail('problem', e);
    }
    if (id !== routeId) return;
  }
  if (!problem) {
    main.replaceChildren(h('p', { role: 'alert' }, t('noProblem'), ' ', h('a', { href: '#/' }, t('back'))));
    return;
  }
  view = problemView(lazyJudge(onProgress), problem);
}

// Whether a problem's page loads the toolchain at once (problemView says why).
const toolchainAtOnce = (problem) => store.code(problem.id) === null;

function problemView(judge, problem) {
  const statement = h('article', { class: 'statement', 'aria-labelledby': 'problem-title' });
  const runButton = h('button', { type: 'button', class: 'primary', id: 'run' });
  const stopButton = h('button', { type: 'button', id: 'stop', hidden: true });
  const resetButton = h('button', { type: 'button', id: 'reset' });
  // The live region: what a screen reader says when a run ends.
  const state = h('span', { class: 'state', role: 'status', 'aria-live': 'polite' });
  const results = h('section', { class: 'results', id: 'results', tabindex: '-1', 'aria-labelledby': 'tab-results' });
  const editorBox = h('div', { class: 'editor' });
  const dialog = h('dialog', { class: 'confirm' });
  const heading = h('h1', { id: 'problem-title' });
  const back = h('a', { href: '#/', class: 'back' });
  const note = h('p', { class: 'muted note', role: 'status' });

  const langNow = () => lang;
  const help = helpPanel(problem, { dialog, lang: langNow });
  const history = historyPanel(problem, { lang: langNow, onRestore: (code) => restore(code) });

  const statementPane = h('div', { class: 'pane statement-pane', id: 'pane-statement' }, back, heading, statement, help.node);
  const codePane = h('div', { class: 'pane code-pane', id: 'pane-code' }, editorBox);
  const resultsPane = h('div', { class: 'pane results-pane', id: 'pane-results' }, results, history.node);
  const toolbar = h('div', { class: 'toolbar' }, runButton, stopButton, resetButton, state);
  const page = h('div', { class: 'problem' });
  const view = tabs([
    { name: 'statement', label: 'tabStatement', node: statementPane },
    { name: 'code', label: 'tabCode', node: codePane },
    { name: 'results', label: 'tabResults', node: resultsPane },
  ], (name) => { page.dataset.tab = name; });
  const split = divider(page);
  // In the DOM the toolbar comes right after the editor: one Tab from the
  // code reaches Run.
  page.append(view.node, statementPane, split.node, h('div', { class: 'work' }, codePane, toolbar, note, resultsPane));
  main.replaceChildren(page, dialog);
  document.body.classList.add('workspace');
  view.select(store.code(problem.id) === null ? 'statement' : 'code');

  const ahead = compileAhead(judge, problem.id);
  // The code as this page last saved or read it. Another tab open on the
  // same problem saves its own: before this one saves over that, it keeps it
  // in the history as a draft, so neither tab's typing is lost.
  let saved = store.code(problem.id);
  function save(text) {
    const there = store.code(problem.id);
    if (there !== null && there !== saved && there !== text &&
        !store.history(problem.id).some((e) => e.code === there)) {
      store.addHistory(problem.id, { at: Date.now(), verdict: 'draft', mistake: null, code: there });
      history.render();
      setNote(() => t('otherTab'));
    }
    store.setCode(problem.id, text);
    saved = text;
  }
  const editor = createEditor(editorBox, {
    doc: saved ?? problem.starter,
    label: t('editorLabel'),
    onChange: (text) => {
      save(text);
      ahead.soon(text);
    },
    onRun: () => run(),
  });
  // The learner's own code, back on the page, is compiled while they read;
  // the starter is not (a first Run would wait behind it). That code is
  // usually compiled already (a reload): its verdict needs no toolchain, and
  // loading the toolchain meanwhile (75 MB of wasm) would take the cores it
  // needs. So the toolchain comes at once only for a learner who has no code
  // here yet; otherwise after the first verdict, after a pause, or with the
  // first compile that is not cached, whichever comes first. A failed
  // download shows again at the first compile.
  // Once loaded, the toolchain warms up on the problem's reference solution
  // (code like the learner's) while the learner reads: V8 optimises clang
  // only as it runs, and a fresh page's first compile took seconds.
  let later = null;
  const prepare = () => {
    clearTimeout(later);
    const warmUp = solutionText(problem);
    warmUp.catch(() => {});   // none: the first compile warms the toolchain
    judge.prepare({ key: problem.id, warmUp }).catch(() => {});
  };
  if (toolchainAtOnce(problem)) prepare();
  else {
    judge.prepare({ toolchain: false }).catch(() => {});
    later = setTimeout(prepare, TOOLCHAIN_LATER_MS);
    ahead.soon(editor.text());
  }

  let running = false;
  let stopped = false;
  let shown = null;   // { source, report } on screen, to redraw in another language
  let speed = null;   // the Speed section of the accepted run on screen (speed.js)

  async function renderStatement() {
    try {
      const html = await statementHtml(problem.dir, lang);
      statement.innerHTML = html;   // rendered at build time with html: false: no raw HTML gets through
      statement.lang = lang === 'zh' ? 'zh-CN' : 'en';
      wide.watch(statement, { later: true });
    } catch (e) {
      statement.replaceChildren(h('p', { class: 'error', role: 'alert' }, String(e.message ?? e)));
    }
  }

  const wide = wideBlocks(() => t('wideBlock'));
  const resized = new ResizeObserver(() => wide.remeasure());
  resized.observe(statementPane);
  resized.observe(resultsPane);

  function showReport(report) {
    results.replaceChildren(...renderReport(report, problem.limits));
    if (speed) {
      speed.render();
      results.append(speed.node);
    }
    wide.watch(results);
  }

  function relabel() {
    document.title = `${problem.id}. ${problem.title[lang] || problem.title.en} · Attention judge`;
    heading.textContent = `${problem.id}. ${problem.title[lang] || problem.title.en}`;
    back.textContent = `← ${t('back')}`;
    // The shortcut is for keyboards; a phone's Run button says only Run.
    runButton.replaceChildren(t('run'), h('kbd', { 'aria-hidden': 'true' }, /Mac/.test(navigator.platform) ? '⌘↵' : 'Ctrl+Enter'));
    runButton.setAttribute('aria-keyshortcuts', 'Control+Enter');
    stopButton.textContent = t('stop');
    resetButton.textContent = t('reset');
    view.relabel();
    split.relabel();
    help.render();
    history.render();
    renderStatement();
    setNote(noteLabel);
    setState(stateLabel);
    if (shown && !running) retranslate();
  }

  // The report's own words (verdict, mistake, details) come from the judge in
  // one language: a switch asks the judge again for the same code, and until
  // it answers the page's words are redrawn around the old report.
  let translating = null;   // that second judging, which a Run cancels
  async function retranslate() {
    const { source, report } = shown;
    showReport(report);   // the page's words, now
    if (report.lang === lang || speed?.busy) return;
    try {
      await translating;
      translating = judge.run(problem.id, source, { lang });
      const again = await translating;
      if (shown?.report === report && !running && again.verdict === report.verdict) {
        shown = { source, report: again };
        showReport(again);
        setState(stateLabel);
      }
    } catch {
      /* cancelled by a run or a navigation: the shown report stays */
    } finally {
      translating = null;
    }
  }

  // The state and the note say what they say in the page's language: each
  // is kept as a function of it, and drawn again when the language changes.
  let stateLabel = null, noteLabel = null;
  const setState = (label) => { stateLabel = label; state.textContent = label?.() ?? ''; };
  const setNote = (label) => { noteLabel = label; note.textContent = label?.() ?? ''; };

  function busy(on, label = null) {
    running = on;
    // Run stays focusable while a run goes on (a disabled button would drop
    // the focus to <body>); it only ignores presses.
    runButton.setAttribute('aria-disabled', String(on));
    stopButton.hidden = !on;
    setState(label);
    page.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  // pressed: when the click or key that asked for the run happened (the
  // event's timeStamp), so the page's own clock measures press to verdict.
  async function run(pressed = performance.now()) {
    if (running) return;
    const began = performance.now();
    ahead.stop();
    const source = editor.text();
    save(source);
    stopped = false;
    if (speed?.busy) judge.cancel();   // a new run replaces a speed run of the old code
    shown = null;
    speed = null;
    setNote(null);
    busy(true, () => t('compiling'));
    offlineQuiet(false);
    results.replaceChildren();
    try {
      if (translating) {
        judge.cancel();
        await translating.catch(() => {});
      }
      // Compile first for the line-by-line messages; run() then finds the
      // module in the judge's compile cache (and reports a CE in its words).
      const compiled = await judge.compile(problem.id, source, { lang });
      const compiledAt = performance.now();
      if (stopped) throw new Error('stopped');   // the learner left this problem
      editor.mark(compiled.messages);
      // clang's first error under the editor too: on a phone the Code tab
      // shows its mark, and a mark's message needs a pointer to hover it.
      const error = compiled.messages?.find((m) => m.severity === 'error' && m.line >= 1);
      if (error) setNote(() => say('firstError', { line: error.line, message: error.message }));
      if (compiled.ok) setState(() => t('judging'));
      // The report speaks the language the page is shown in.
      const report = await judge.run(problem.id, source, { lang });
      const judgedAt = performance.now();
      store.recordRun(problem.id, report.verdict);
      store.addHistory(problem.id, {
        at: Date.now(), verdict: report.verdict, code: source,
        mistake: report.mistake ? { id: report.mistake.id, title: report.mistake.title } : null,
      });
      shown = { source, report };
      const storedAt = performance.now();
      // Speed runs take seconds: the verdict shows now, the section offers one.
      // A re-translation in flight finishes first: one judging at a time.
      if (hasSpeed(problem, report)) {
        speed = speedSection(problem, { measure: async () => {
          await translating?.catch(() => {});
          offlineQuiet(false);   // timings are best taken alone
          try {
            return await measureSpeed(judge, problem.id, source, { lang });
          } finally {
            offlineQuiet(true);
          }
        } });
      }
      showReport(report);
      help.render();
      history.render();
      // On a phone the results are a tab of their own; a compile error is
      // best read in the code, where its line is marked.
      view.select(report.verdict === 'CE' ? 'code' : 'results');
      // The verdict's words are the shown report's, which a switch of language replaces.
      busy(false, () => say('announce', { verdict: shown.report.verdict, text: shown.report.verdict_text ?? '' }));
      timeRun({ pressed, began, compiledAt, judgedAt, storedAt, drawn: performance.now() });
      prepare();
    } catch (e) {
      busy(false, stopped ? () => t('stopped') : null);
      if (!stopped) results.replaceChildren(h('p', { class: 'error', role: 'alert' }, `${t('failed')}: ${e?.message ?? e}`));
    } finally {
      offlineQuiet(true);
    }
  }

  // Whatever replaces the editor's text keeps the text it replaces: in the
  // history as a draft (unless a run already holds it), and in the undo stack.
  function keep() {
    const text = editor.text();
    if (!store.history(problem.id).some((e) => e.code === text)) {
      store.addHistory(problem.id, { at: Date.now(), verdict: 'draft', mistake: null, code: text });
    }
  }

  function restore(code) {
    if (code === editor.text()) return;
    keep();
    editor.replace(code);
    editor.mark([]);
    history.render();
    setNote(() => t('restored'));
    view.select('code');
    editor.focus();
  }

  // Where a run's time went on the page's side, as User Timing measures
  // ("page: <phase>"; web/bench.mjs prints them beside the judge's).
  function timeRun({ pressed, began, compiledAt, judgedAt, storedAt, drawn }) {
    const measure = (name, start, end) => {
      try {
        performance.measure(`page: ${name}`, { start, end });
      } catch {
        /* a browser without User Timing level 3 */
      }
    };
    measure('press to verdict', pressed, drawn);
    measure('event to handler', pressed, began);
    measure('compile call', began, compiledAt);
    measure('judge call', compiledAt, judgedAt);
    measure('store', judgedAt, storedAt);
    measure('draw', storedAt, drawn);
  }

  stopButton.addEventListener('click', () => {
    stopped = true;
    judge.cancel();
    runButton.focus();
  });
  runButton.addEventListener('click', (e) => run(e.timeStamp));
  resetButton.addEventListener('click', async () => {
    if (!(await ask(dialog, t('resetAsk'), t('resetYes')))) return;
    keep();
    editor.replace(problem.starter);
    editor.mark([]);
    history.render();
    editor.focus();
  });

  relabel();
  return {
    relabel,
    run,
    destroy() {
      if (running || translating || speed?.busy) {
        stopped = true;
        judge.cancel();
      }
      ahead.stop();
      clearTimeout(later);
      resized.disconnect();
      wide.disconnect();
      view.destroy();
      editor.destroy();
    },
  };
}

function route() {
  routeId++;
  // Neither view waits for the judge, but both soon need it: it loads while
  // they are drawn. A failure shows at the first call that needs it. The
  // offline layer waits for a quiet moment on a problem's page that loads the
  // compiler at once (judge.js).
  const key = decodeURIComponent(location.hash.replace(/^#\/?/, ''));
  const problem = key ? problemByDir(key) : null;
  offlineLayer({ later: Boolean(problem) && toolchainAtOnce(problem) });
  loadJudge(onProgress).catch(() => {});
  view?.destroy();
  view = null;
  if (key) showProblem(key, problem);
  else showList();
}

// Ctrl/Cmd+Enter runs from anywhere on a problem's page, not only the editor.
document.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && view && !e.defaultPrevented) {
    e.preventDefault();
    view.run(e.timeStamp);
  }
});

window.addEventListener('hashchange', route);
applyLanguage();
route();
