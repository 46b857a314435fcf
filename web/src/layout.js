// layout.js: the problem page as a workspace. On a wide screen the statement
// and the work (editor, Run, results) sit side by side with a divider to
// drag (or move with the arrow keys); on a narrow one they are three tabs,
// Statement · Code · Results, and the toolbar with Run stays on screen.
import { h } from './dom.js';
import { t } from './text.js';
import * as store from './store.js';

export const narrow = matchMedia('(max-width: 760px)');

const MIN = 0.2, MAX = 0.8, STEP = 0.05;

// The divider between the two columns of `grid`: sets --left and --right.
export function divider(grid) {
  const bar = h('div', { class: 'divider', role: 'separator', tabindex: '0', 'aria-orientation': 'vertical',
    'aria-valuemin': MIN * 100, 'aria-valuemax': MAX * 100 });
  const place = (x) => {
    x = Math.min(MAX, Math.max(MIN, x));
    grid.style.setProperty('--left', `${x}fr`);
    grid.style.setProperty('--right', `${1 - x}fr`);
    bar.setAttribute('aria-valuenow', Math.round(x * 100));
    return x;
  };
  let at = place(store.split());
  bar.addEventListener('pointerdown', (e) => {
    bar.setPointerCapture(e.pointerId);
    const box = grid.getBoundingClientRect();
    const move = (m) => { at = place((m.clientX - box.left) / box.width); };
    const up = () => {
      bar.removeEventListener('pointermove', move);
      store.setSplit(at);
    };
    bar.addEventListener('pointermove', move);
    bar.addEventListener('pointerup', up, { once: true });
    bar.addEventListener('pointercancel', up, { once: true });
  });
  bar.addEventListener('keydown', (e) => {
    const by = { ArrowLeft: -STEP, ArrowRight: STEP, Home: MIN - at, End: MAX - at }[e.key];
    if (by === undefined) return;
    e.preventDefault();
    at = place(at + by);
    store.setSplit(at);
  });
  return { node: bar, relabel: () => bar.setAttribute('aria-label', t('divider')) };
}

// Tabs over panes { name, label, node }: on a narrow screen one pane shows
// at a time; on a wide one the tabs are hidden and every pane shows. The
// ARIA roles are set only while the tabs are in use.
export function tabs(panes, onChange) {
  const list = h('div', { class: 'tabs', 'aria-label': 'Views' });
  const buttons = panes.map((p) => h('button', { type: 'button', id: `tab-${p.name}`, 'data-tab': p.name,
    'aria-controls': p.node.id, onclick: () => select(p.name, true) }));
  list.append(...buttons);
  let current = panes[0].name;

  function apply() {
    const on = narrow.matches;
    list.hidden = !on;
    panes.forEach((p, i) => {
      const b = buttons[i];
      const selected = p.name === current;
      b.classList.toggle('selected', selected);
      if (on) {
        b.setAttribute('role', 'tab');
        b.setAttribute('aria-selected', String(selected));
        b.tabIndex = selected ? 0 : -1;
        p.node.setAttribute('role', 'tabpanel');
        p.node.setAttribute('aria-labelledby', b.id);
        p.node.hidden = !selected;
      } else {
        for (const a of ['role', 'aria-selected', 'tabindex']) b.removeAttribute(a);
        p.node.removeAttribute('role');
        p.node.removeAttribute('aria-labelledby');
        p.node.hidden = false;
      }
    });
    if (on) list.setAttribute('role', 'tablist');
    else list.removeAttribute('role');
  }

  function select(name, focus = false) {
    if (!panes.some((p) => p.name === name)) return;
    current = name;
    apply();
    if (focus) buttons[panes.findIndex((p) => p.name === name)].focus();
    onChange?.(name);
  }

  // Arrow keys move between the tabs, as in every tab list.
  list.addEventListener('keydown', (e) => {
    const i = panes.findIndex((p) => p.name === current);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: panes.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    select(panes[(next + panes.length) % panes.length].name, true);
  });
  narrow.addEventListener('change', apply);
  apply();

  return {
    node: list,
    select,
    get current() { return current; },
    relabel() {
      list.setAttribute('aria-label', t('tabs'));
      panes.forEach((p, i) => { buttons[i].textContent = t(p.label); });
    },
    destroy: () => narrow.removeEventListener('change', apply),
  };
}
