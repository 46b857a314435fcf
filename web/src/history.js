// history.js: every run of a problem, newest first (store.history), each
// with its code to read and to restore into the editor.
import { h } from './dom.js';
import { t } from './text.js';
import * as store from './store.js';

export function historyPanel(problem, { lang, onRestore }) {
  const node = h('section', { class: 'history', 'aria-labelledby': 'history-title' });
  // Each run's item, drawn once and kept while the language stays: a run
  // adds one item, not the whole list again (with 300 runs, drawing them
  // all was ~100 ms of every run's verdict).
  let items = new Map(), itemsLang = null;

  function item(e, when) {
    return h('li', { class: `run ${e.verdict === 'AC' ? 'good' : e.verdict === 'draft' ? 'muted' : 'bad'}`, 'data-verdict': e.verdict },
      h('details', {},
        h('summary', {},
          h('time', { datetime: new Date(e.at).toISOString() }, when(e.at)), ' ',
          h('span', { class: 'code' }, e.verdict === 'draft' ? t('draft') : e.verdict),
          e.mistake ? h('span', { class: 'mistake-name' }, ` ${e.mistake.title || e.mistake.id}`) : null),
        h('pre', { tabindex: '0', 'aria-label': t('historyCode') }, e.code),
        h('button', { type: 'button', class: 'restore', onclick: () => onRestore(e.code) }, t('restore'))));
  }

  function render() {
    const runs = store.history(problem.id);
    if (itemsLang !== lang()) {
      items = new Map();
      itemsLang = lang();
    }
    // One formatter for the list: toLocaleString makes one per call, ~0.3 ms each.
    const when = new Intl.DateTimeFormat(lang() === 'zh' ? 'zh-CN' : 'en-GB',
      { dateStyle: 'short', timeStyle: 'medium' }).format;
    // A run's key: its time, verdict and code, and how many such came before
    // it (two alike keep two items).
    const next = new Map();
    for (const e of runs) {
      let k = `${e.at} ${e.verdict} ${e.code}`;
      for (let n = 1; next.has(k); n++) k = `${e.at} ${e.verdict} ${e.code} #${n}`;
      next.set(k, items.get(k) ?? item(e, when));
    }
    items = next;
    node.replaceChildren(h('h2', { id: 'history-title' }, t('history')),
      // start given: a reversed list counts each run's <summary> (a list item
      // too) when it numbers from its own, so one run was "2."
      runs.length ? h('ol', { class: 'runs', reversed: true, start: runs.length }, [...next.values()])
        : h('p', { class: 'muted' }, t('historyEmpty')));
  }

  return { node, render };
}
