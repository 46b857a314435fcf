// main.js: the page. Two views, chosen by the URL's hash so any static host
// serves it: the problem list (#/) and a problem (#/49-causal-mha): statement,
// editor, Run, results. Everything about problems comes from judge.problems
// and the statements; every verdict comes from the wasm judge.
import './style.css';
import { h } from './dom.js';
import { t, setLanguage } from './text.js';
import * as store from './store.js';
import { loadJudge } from './judge.js';
import { createEditor } from './editor.js';
import { statementHtml } from './statement.js';
import { renderReport } from './results.js';

const main = document.getElementById('main');
const langButton = document.getElementById('lang');
const download = {
  box: document.getElementById('download'),
  bar: document.getElementById('download-bar'),
  label: document.getElementById('download-label'),
};

let lang = store.lang();
let view = null;   // the open problem view, or null on the list
let routeId = 0;   // bumps on every navigation, so a slow load cannot draw a stale view

// Download progress for the one-time fetches (the compiler: 105 MB unpacked).
function onProgress({ phase, loaded, total }) {
  const done = total > 0 && loaded >= total;
  download.box.hidden = done;
  const mb = (bytes) => (bytes / 1e6).toFixed(0);
  download.label.textContent = `${phase === 'compiler' ? t('compiler') : t('judgeDl')}` +
    (total > 1e6 ? ` ${mb(Math.min(loaded, total))} / ${mb(total)} MB` : '');
  if (total > 0) {
    download.bar.max = total;
    // Compressed sizes and decoded bytes can disagree: never past 100%.
    download.bar.value = Math.min(loaded, total);
    download.bar.setAttribute('aria-valuetext', `${Math.round((100 * Math.min(loaded, total)) / total)}%`);
  } else {
    download.bar.removeAttribute('value');
  }
}

function applyLanguage() {
  setLanguage(lang);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  // The button names the other language in that language (中文 / English).
  langButton.textContent = t('langButton');
  langButton.lang = lang === 'zh' ? 'en' : 'zh-CN';
  langButton.title = t('langLabel');
  document.getElementById('nav-list').textContent = t('problems');
}

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

async function showList() {
  document.title = 'Attention judge';
  const id = routeId;
  let judge;
  try {
    judge = await loadJudge(onProgress);
  } catch (e) {
    return fail('list', e);
  }
  if (id !== routeId) return;
  const rows = judge.problems.map((p) => {
    const status = store.status(p.id);
    return h('tr', {},
      h('td', { class: 'num' }, p.id),
      h('td', {}, h('a', { href: `#/${p.dir}` }, p.title[lang] || p.title.en)),
      h('td', {}, h('span', { class: `difficulty ${p.difficulty}` }, t(p.difficulty))),
      h('td', {}, h('span', { class: `status ${status}`, 'data-status': status }, t(status))));
  });
  main.replaceChildren(
    h('h1', {}, t('problems')),
    h('p', { class: 'muted' }, t('intro')),
    h('table', { class: 'problems' },
      h('thead', {}, h('tr', {}, ['#', t('title'), t('difficulty'), t('status')].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows)));
}

async function showProblem(key) {
  const id = routeId;
  let judge;
  try {
    judge = await loadJudge(onProgress);
  } catch (e) {
    return fail('problem', e);
  }
  if (id !== routeId) return;
  const problem = judge.find(key);
  if (!problem) {
    main.replaceChildren(h('p', { role: 'alert' }, t('noProblem'), ' ', h('a', { href: '#/' }, t('back'))));
    return;
  }
  view = problemView(judge, problem);
}

function problemView(judge, problem) {
  const statement = h('article', { class: 'statement', 'aria-label': 'Statement' });
  const runButton = h('button', { type: 'button', class: 'primary', id: 'run' });
  const stopButton = h('button', { type: 'button', id: 'stop', hidden: true });
  const resetButton = h('button', { type: 'button', id: 'reset' });
  const state = h('span', { class: 'state', role: 'status', 'aria-live': 'polite' });
  const results = h('section', { class: 'results', id: 'results', 'aria-label': 'Results', tabindex: '-1' });
  const editorBox = h('div', { class: 'editor' });
  const confirm = h('dialog', { class: 'confirm' });
  const heading = h('h1', {});
  const back = h('a', { href: '#/', class: 'back' });

  const page = h('div', { class: 'problem' },
    h('div', { class: 'left' }, back, heading, statement),
    h('div', { class: 'right' },
      h('div', { class: 'toolbar' }, runButton, stopButton, resetButton, state),
      editorBox, results));
  main.replaceChildren(page, confirm);

  const editor = createEditor(editorBox, {
    doc: store.code(problem.id) ?? problem.starter,
    label: t('editorLabel'),
    onChange: (text) => store.setCode(problem.id, text),
    onRun: () => run(),
  });

  let running = false;
  let stopped = false;

  async function renderStatement() {
    try {
      const html = await statementHtml(problem.dir, lang);
      statement.innerHTML = html;   // markdown-it with html: false: no raw HTML gets through
      statement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    } catch (e) {
      statement.replaceChildren(h('p', { class: 'error', role: 'alert' }, String(e.message ?? e)));
    }
  }

  function relabel() {
    document.title = `${problem.id}. ${problem.title[lang] || problem.title.en} · Attention judge`;
    heading.textContent = `${problem.id}. ${problem.title[lang] || problem.title.en}`;
    back.textContent = `← ${t('back')}`;
    runButton.replaceChildren(t('run'), ' ', h('kbd', {}, /Mac/.test(navigator.platform) ? '⌘↵' : 'Ctrl+Enter'));
    stopButton.textContent = t('stop');
    resetButton.textContent = t('reset');
    renderStatement();
  }

  function busy(on, text = '') {
    running = on;
    runButton.disabled = on;
    stopButton.hidden = !on;
    state.textContent = text;
    page.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  async function run() {
    if (running) return;
    const source = editor.text();
    store.setCode(problem.id, source);
    stopped = false;
    busy(true, t('compiling'));
    results.replaceChildren();
    try {
      // Compile first for the line-by-line messages; run() then finds the
      // module in the judge's compile cache (and reports a CE in its words).
      const compiled = await judge.compile(problem.id, source);
      if (stopped) throw new Error('stopped');   // the learner left this problem
      editor.mark(compiled.messages);
      if (compiled.ok) state.textContent = t('judging');
      // The report speaks the language the page is shown in.
      const report = await judge.run(problem.id, source, { lang });
      store.recordRun(problem.id, report.verdict);
      results.replaceChildren(...renderReport(report));
      // The status line is a live region: this is what a screen reader says.
      busy(false, `${report.verdict} · ${report.verdict_text ?? ''}`);
    } catch (e) {
      busy(false, stopped ? t('stopped') : '');
      if (!stopped) results.replaceChildren(h('p', { class: 'error', role: 'alert' }, `${t('failed')}: ${e?.message ?? e}`));
    }
  }

  stopButton.addEventListener('click', () => {
    stopped = true;
    judge.cancel();
  });
  runButton.addEventListener('click', () => run());
  resetButton.addEventListener('click', () => {
    confirm.replaceChildren(
      h('form', { method: 'dialog' },
        h('p', {}, t('resetAsk')),
        h('div', { class: 'buttons' },
          h('button', { value: 'cancel', autofocus: true }, t('cancel')),
          h('button', { value: 'reset', class: 'danger' }, t('resetYes')))));
    confirm.onclose = () => {
      if (confirm.returnValue === 'reset') {
        editor.replace(problem.starter);
        editor.mark([]);
      }
      editor.focus();
    };
    confirm.returnValue = '';
    confirm.showModal();
  });

  relabel();
  return {
    relabel,
    run,
    destroy() {
      if (running) {
        stopped = true;
        judge.cancel();
      }
      editor.destroy();
    },
  };
}

function route() {
  routeId++;
  view?.destroy();
  view = null;
  const key = decodeURIComponent(location.hash.replace(/^#\/?/, ''));
  if (key) showProblem(key);
  else showList();
}

// Ctrl/Cmd+Enter runs from anywhere on a problem's page, not only the editor.
document.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && view && !e.defaultPrevented) {
    e.preventDefault();
    view.run();
  }
});

window.addEventListener('hashchange', route);
applyLanguage();
route();
