// help.js: a problem's hints (problem data, from judge.problems), revealed
// one at a time, and its reference solution (problems/<dir>/solution.c),
// shown after an accepted run or, after a few tries and a confirmation, on
// request. What was revealed is remembered per problem.
import { h } from './dom.js';
import { say, t } from './text.js';
import { ask } from './dialog.js';
import * as store from './store.js';
import { solutionText } from './problems.js';

// Runs (not drafts) after which the solution may be asked for.
export const TRIES_FOR_SOLUTION = 3;

export function helpPanel(problem, { dialog, lang }) {
  const node = h('section', { class: 'help', 'aria-labelledby': 'help-hints' });
  const hints = problem.hints ?? [];
  let solution = null;   // the text, once fetched

  const tries = () => store.history(problem.id).filter((e) => e.verdict !== 'draft').length;

  async function revealSolution() {
    store.setSolutionShown(problem.id);
    try {
      solution = await solutionText(problem);
    } catch (e) {
      solution = null;
      node.append(h('p', { class: 'error', role: 'alert' }, `${t('failed')}: ${e.message ?? e}`));
      return;
    }
    render();
    node.querySelector('.solution pre')?.focus();
  }

  function render() {
    const shown = Math.min(store.hintsShown(problem.id), hints.length);
    const text = (hint) => hint[lang()] || hint.en;
    const list = h('ol', { class: 'hints' }, hints.slice(0, shown).map((hint, i) =>
      h('li', { 'data-hint': i + 1, lang: lang() === 'zh' ? 'zh-CN' : 'en' }, h('strong', {}, `${say('hintN', { n: i + 1 })}. `), text(hint))));
    const more = shown < hints.length
      ? h('button', { type: 'button', id: 'hint', onclick: () => {
        store.setHintsShown(problem.id, shown + 1);
        render();
        node.querySelector('#hint, .hints li:last-child')?.focus();
      } }, say('hintButton', { n: shown + 1, total: hints.length }))
      : h('p', { class: 'muted' }, hints.length ? t('hintsDone') : t('noHints'));

    const solved = store.status(problem.id) === 'solved';
    const open = store.solutionShown(problem.id) || solved;
    let body;
    if (open && solution !== null) {
      body = h('pre', { tabindex: '0', 'aria-label': t('solution') }, solution);
    } else if (open) {
      body = h('button', { type: 'button', id: 'solution', onclick: revealSolution }, t('showSolution'));
    } else {
      const allowed = tries() >= TRIES_FOR_SOLUTION;
      body = h('div', {},
        h('p', { class: 'muted' }, say('solutionLocked', { n: TRIES_FOR_SOLUTION })),
        h('button', { type: 'button', id: 'solution', disabled: !allowed, onclick: async () => {
          if (await ask(dialog, t('solutionAsk'), t('solutionYes'))) revealSolution();
        } }, t('showSolution')));
    }
    node.replaceChildren(
      h('h2', { id: 'help-hints' }, t('hints')), list, more,
      h('div', { class: 'solution' }, h('h2', {}, t('solution')), body));
    if (list.lastChild) list.lastChild.tabIndex = -1;
  }

  return { node, render };
}
