// progress.js: the learner's progress (store.exportAll) saved to a file and
// read back, in this browser or another one.
import { h } from './dom.js';
import { say, t } from './text.js';
import * as store from './store.js';

export function progressTools(ids, onImported) {
  const status = h('p', { class: 'muted', role: 'status' }, t('progressNote'));
  const file = h('input', { type: 'file', accept: 'application/json,.json', id: 'import-file', class: 'visually-hidden', tabindex: '-1', 'aria-label': t('importButton') });
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    file.value = '';
    if (!chosen) return;
    try {
      let data;
      try {
        data = JSON.parse(await chosen.text());
      } catch {
        throw Object.assign(new Error('not JSON'), { key: 'importNotJson' });
      }
      const n = store.importAll(data, new Set(ids));
      status.textContent = say('imported', { n });
      onImported?.();
    } catch (e) {
      status.textContent = say('importFailed', { why: e.key ? t(e.key) : e.message });
    }
  });
  const exportButton = h('button', { type: 'button', id: 'export', onclick: () => {
    const blob = new Blob([JSON.stringify(store.exportAll(ids), null, 1)], { type: 'application/json' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `attention-judge-progress-${new Date().toISOString().slice(0, 10)}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  } }, t('exportButton'));
  const importButton = h('button', { type: 'button', id: 'import', onclick: () => file.click() }, t('importButton'));
  return h('div', { class: 'progress-tools' }, exportButton, importButton, file, status);
}
