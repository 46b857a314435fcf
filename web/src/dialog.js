// dialog.js: a yes/no question in a modal <dialog>, Cancel focused first so
// Enter alone never confirms. Resolves to true for yes; focus goes back to
// where it was.
import { h } from './dom.js';
import { t } from './text.js';

export function ask(dialog, question, yes) {
  const back = document.activeElement;
  dialog.replaceChildren(
    h('form', { method: 'dialog' },
      h('p', {}, question),
      h('div', { class: 'buttons' },
        h('button', { value: 'cancel', autofocus: true }, t('cancel')),
        h('button', { value: 'yes', class: 'danger' }, yes))));
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.onclose = () => {
      back?.focus?.();
      resolve(dialog.returnValue === 'yes');
    };
    dialog.showModal();
  });
}
