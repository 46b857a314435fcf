// results.js: a judge report (the JSON of `./judge 49 FILE --json`) shown as
// the verdict, the classic mistake it matches, the per-case table, the
// pictures, the compiler's messages and the program's output. Verdict names
// and mistake texts are the report's own.
import { h } from './dom.js';
import { say, t } from './text.js';
import { errorPictures, fmt, maskPicture, timePicture } from './pictures.js';

// limits: the problem's { time_ms, memory_mb }, for the TLE and MLE words;
// without it (a class's page, libjudge/class_page.js) those are left out.
export function renderReport(report, limits = null) {
  const verdict = report.verdict;
  const ok = verdict === 'AC';
  const parts = [
    h('p', { class: `verdict ${ok ? 'good' : 'bad'}`, 'data-verdict': verdict },
      h('span', { class: 'code' }, verdict), ' ', report.verdict_text || ''),
  ];

  // Why the failing case failed (a fault, the run ending early), in the
  // language the report was asked for.
  const stopped = (report.cases || []).find((c) => c.name === report.failed_case);
  if (stopped?.detail) parts.push(h('p', { class: 'detail', 'data-detail': stopped.detail_id }, stopped.detail));
  // What a time or memory limit means for this case, next to the judge's words.
  if (limits && stopped && (verdict === 'TLE' || verdict === 'MLE')) {
    const sizes = Object.entries(stopped.sizes || {}).map(([k, v]) => `${k} = ${v}`).join(', ');
    parts.push(h('p', { class: 'explain', 'data-explain': verdict }, verdict === 'TLE'
      ? say('tleExplain', { name: stopped.name, sizes, limit: limits.time_ms, ref: fmt(stopped.ref_ms) })
      : say('mleExplain', { name: stopped.name, sizes, limit: limits.memory_mb })));
  }

  // One mistake or a pair (also), and, when it explains only some of the
  // wrong cases (partial), which.
  const m = report.mistake;
  if (m) {
    const named = (x) => [x.title, ' ', h('code', {}, x.id)];
    const wrong = (report.cases || []).filter((c) => c.verdict === 'WA').map((c) => c.name);
    const others = wrong.filter((n) => !(m.cases || []).includes(n));
    parts.push(h('div', { class: 'mistake', 'data-mistake': m.id },
      h('p', {}, h('strong', {}, t('mistake')), ...named(m), ...(m.also ? [t('alsoMistake'), ...named(m.also)] : [])),
      m.hint && h('p', {}, m.hint),
      m.also?.hint && h('p', {}, m.also.hint),
      m.partial && others.length ? h('p', { class: 'partly' },
        say('mistakePartly', { explained: m.cases.join(t('listSep')), others: others.join(t('listSep')) })) : null));
  }

  // No mistake named, but where the wrong outputs lie tells something (an
  // offset, or state carried from one head or batch to the next).
  if (!m && report.spread) parts.push(h('p', { class: 'spread', 'data-spread': report.spread.id }, report.spread.text));
  // No mistake named because the search stopped at its budget: say so, as
  // a search that ran to its end would say nothing.
  if (!m && report.search_cut) parts.push(h('p', { class: 'search-cut' }, t('searchCut')));

  if (report.compile && !report.compile.ok) {
    parts.push(h('section', { class: 'diagnostics' },
      h('h3', {}, t('diagnostics')), h('pre', {}, report.compile.diagnostics || '')));
  }

  const cases = report.cases || [];
  if (cases.length) parts.push(caseTable(cases));

  const failed = cases.find((c) => c.verdict !== 'AC' && c.first_bad);
  if (failed) {
    const b = failed.first_bad;
    parts.push(h('p', { class: 'first-bad' }, h('strong', {}, say('firstBad', { name: failed.name })),
      h('code', {}, b.where), say('expectedGot', { expected: b.expected, got: b.got })));
    if (failed.unwritten) parts.push(h('p', { class: 'unwritten' }, say('unwritten', { n: failed.unwritten })));
    if (failed.read_outside) parts.push(h('p', { class: 'read-outside' }, say('readOutside', { n: failed.read_outside })));
  }

  const pictures = [];
  if (report.mask) pictures.push(maskPicture(report.mask));
  if (verdict === 'WA') pictures.push(...errorPictures(report));
  if (ok) {
    const yours = cases.reduce((a, c) => a + (c.time_ms ?? 0), 0), ref = cases.reduce((a, c) => a + (c.ref_ms ?? 0), 0);
    parts.splice(1, 0, h('p', { class: 'time-summary' }, say('timeSummary', { yours: fmt(yours), ref: fmt(ref), ratio: fmt(yours / ref) })));
    pictures.push(timePicture(cases));
  }
  if (pictures.length) parts.push(h('div', { class: 'pictures' }, pictures));

  if (report.output) {
    parts.push(h('section', { class: 'output' }, h('h3', {}, t('output')), h('pre', {}, report.output)));
  }
  return parts;
}

function caseTable(cases) {
  const head = h('tr', {}, [t('case'), t('verdict'), t('maxErr'), t('wrong'), t('yourTime'), t('refTime')]
    .map((x, i) => h('th', { scope: 'col', class: i >= 2 ? 'num' : null }, x)));
  // '--' marks a case the judge never reached (after a TLE, say).
  const rows = cases.map((c) => h('tr', { class: c.verdict === 'AC' ? 'good' : c.verdict && c.verdict !== '--' ? 'bad' : 'muted' },
    h('th', { scope: 'row' }, c.name, c.visible ? h('span', { class: 'tag' }, t('visible')) : null),
    h('td', {}, h('span', { class: 'code' }, c.verdict || t('notRun'))),
    h('td', { class: 'num' }, fmt(c.max_abs)),
    h('td', { class: 'num' }, typeof c.n_bad === 'number' ? `${c.n_bad} / ${c.n}` : '–'),
    h('td', { class: 'num' }, Number.isFinite(c.time_ms) ? `${fmt(c.time_ms)} ms` : '–'),
    h('td', { class: 'num' }, Number.isFinite(c.ref_ms) ? `${fmt(c.ref_ms)} ms` : '–')));
  // The times add up on an accepted run: every case ran.
  const ran = cases.every((c) => Number.isFinite(c.time_ms) && Number.isFinite(c.ref_ms));
  const sum = (k) => cases.reduce((a, c) => a + c[k], 0);
  const foot = ran ? h('tfoot', {}, h('tr', {}, h('th', { scope: 'row', colspan: 4 }, t('totalRow')),
    h('td', { class: 'num' }, `${fmt(sum('time_ms'))} ms`), h('td', { class: 'num' }, `${fmt(sum('ref_ms'))} ms`))) : null;
  return h('div', { class: 'table-wrap' },
    h('table', { class: 'cases' }, h('thead', {}, head), h('tbody', {}, rows), foot));
}
