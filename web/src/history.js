// history.js: every run of a problem, newest first (store.history), each
// with its code to read and to restore into the editor.
import { h } from './dom.js';
import { t } from './text.js';
import * as store from './store.js';

export function historyPanel(problem, { lang, onRestore }) {
  const node = h('section', { class: 'history', 'aria-labelledby': 'history-title' });

  function render() {
    const runs = store.history(problem.id);
    const when = (at) => new Date(at).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-GB',
      { dateStyle: 'short', timeStyle: 'medium' });
    const items = runs.map((e) => h('li', { class: `run ${e.verdict === 'AC' ? 'good' : e.verdict === 'draft' ? 'muted' : 'bad'}`, 'data-verdict': e.verdict },
      h('details', {},
        h('summary', {},
          h('time', { datetime: new Date(e.at).toISOString() }, when(e.at)), ' ',
          h('span', { class: 'code' }, e.verdict === 'draft' ? t('draft') : e.verdict),
          e.mistake ? h('span', { class: 'mistake-name' }, ` ${e.mistake.title || e.mistake.id}`) : null),
        h('pre', { tabindex: '0', 'aria-label': t('historyCode') }, e.code),
        h('button', { type: 'button', class: 'restore', onclick: () => onRestore(e.code) }, t('restore')))));
    node.replaceChildren(h('h2', { id: 'history-title' }, t('history')),
      items.length ? h('ol', { class: 'runs', reversed: true }, items) : h('p', { class: 'muted' }, t('historyEmpty')));
  }

  return { node, render };
}
