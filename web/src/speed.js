// speed.js: the Speed section under an accepted run of a problem that has
// speed cases. A button asks the judge for a speed run (seconds long, so the
// verdict never waits for it); the answer (report.speed, the judge's JSON:
// README's "Speed tier") is drawn as a table (ms, GFLOP/s or GB/s, × the
// core, % of the machine's ceiling, tier per case) and a bar chart of the
// learner's rate against the core's and the ceiling. The best tier is kept
// per problem (store.js).
import { h, s } from './dom.js';
import { say, t } from './text.js';
import { fmt } from './pictures.js';
import * as store from './store.js';

// The judge's names, to the page's words.
const TIER_TEXT = { gold: 'tierGold', silver: 'tierSilver', bronze: 'tierBronze', none: 'tierNone' };
const BACKEND_TEXT = { native: 'backendNative', wasm: 'backendWasm' };
const SIMD_TEXT = { avx512: 'AVX-512', avx2: 'AVX2', v128: 'SIMD128' };
const unit = (c) => (c.bound === 'bytes' ? 'GB/s' : 'GFLOP/s');
export const tierName = (tier) => t(TIER_TEXT[tier] ?? 'tierNone');

// Speed cases come with the problem's data; a report that carries a speed
// part shows the section too.
export function hasSpeed(problem, report) {
  return report?.verdict === 'AC' && ((Array.isArray(problem.speed) && problem.speed.length > 0) || report.speed != null);
}

// A small badge with the best tier, for the problem list (nothing before a
// tier is reached).
export function tierBadge(id) {
  const tier = store.bestTier(id);
  if (!tier || tier === 'none') return null;
  return h('span', { class: 'tier-badge', 'data-tier': tier },
    h('span', { class: 'visually-hidden' }, t('speedBadge')), tierName(tier));
}

// measure(): resolves to the judge's report of a speed run (rejects when
// cancelled). Returns { node, render, busy }.
export function speedSection(problem, { measure }) {
  let result = null;    // { speed } | { report } (the speed run failed) | { error }
  let running = false;
  // The button and the live region stay in place (a redrawn button would
  // drop the focus); the rest is redrawn.
  const title = h('h2', { id: 'speed-title' });
  const intro = h('p', { class: 'muted' });
  const best = h('p', { class: 'speed-best' });
  const button = h('button', { type: 'button', id: 'measure', onclick: () => go() });
  const state = h('span', { class: 'speed-state', role: 'status', 'aria-live': 'polite' });
  const out = h('div', { class: 'speed-result' });
  const node = h('section', { class: 'speed', id: 'speed', 'aria-labelledby': 'speed-title' },
    title, intro, best, h('div', { class: 'speed-go' }, button, state), out);

  async function go() {
    if (running) return;
    running = true;
    render();
    try {
      const report = await measure();
      if (report.speed === undefined) result = { error: t('speedUnavailable') };
      else if (report.verdict !== 'AC') result = { report };
      else {
        result = { speed: report.speed };
        if (!report.speed?.skipped && report.speed?.tier) store.recordTier(problem.id, report.speed.tier);
      }
    } catch (e) {
      result = e?.name === 'Cancelled' ? null : { error: say('speedFailed', { why: e?.message ?? e }) };
    } finally {
      running = false;
      render();
    }
  }

  function render() {
    const tier = store.bestTier(problem.id);
    title.textContent = t('speed');
    intro.textContent = t('speedIntro');
    best.dataset.tier = tier ?? '';
    best.textContent = tier ? say('speedBest', { tier: tierName(tier) }) : t('speedNoBest');
    button.textContent = t(running ? 'measuring' : result?.speed ? 'measureAgain' : 'measure');
    button.setAttribute('aria-disabled', String(running));
    node.setAttribute('aria-busy', String(running));
    state.textContent = running ? t('measuringNote') : result?.speed ? announce(result.speed) : '';
    out.replaceChildren(...(running ? [] : outcome()));
  }

  function announce(speed) {
    return speed.skipped ? t('speedNoTier') : say('speedAnnounce', { tier: tierName(speed.tier) });
  }

  function outcome() {
    if (!result) return [];
    if (result.error) return [h('p', { class: 'error', role: 'alert' }, result.error)];
    if (result.report) {
      const r = result.report;
      return [h('p', { class: 'error', 'data-verdict': r.verdict }, say('speedWrong', { verdict: r.verdict, text: r.verdict_text ?? '', name: r.failed_case ?? '' }))];
    }
    return renderSpeed(result.speed);
  }

  render();
  return { node, render, get busy() { return running; } };
}

// The speed part of a report as the page shows it.
export function renderSpeed(speed) {
  if (speed.skipped) return [h('p', { class: 'speed-skipped' }, say('speedSkipped', { reason: speed.skipped.reason }))];
  const cases = speed.cases || [];
  return [
    h('p', { class: 'speed-tier', 'data-tier': speed.tier }, say('speedTier', { tier: tierName(speed.tier) }), ' ',
      h('span', { class: 'muted' }, say('speedWhere', { backend: t(BACKEND_TEXT[speed.backend] ?? 'backendWasm'), simd: SIMD_TEXT[speed.simd] ?? t('simdNone') }))),
    speedTable(cases),
    speedChart(cases),
  ];
}

function sizes(c) {
  return Object.entries(c.sizes || {}).map(([k, v]) => `${k} = ${v}`).join(', ');
}

function speedTable(cases) {
  const head = h('tr', {}, [t('case'), t('yourTime'), t('speedRate'), t('speedRatio'), t('speedPct'), t('speedTierCol')]
    .map((x, i) => h('th', { scope: 'col', class: i >= 1 && i <= 4 ? 'num' : null }, x)));
  const rows = cases.map((c) => h('tr', { 'data-case': c.name, 'data-tier': c.tier },
    h('th', { scope: 'row' }, c.name, h('span', { class: 'sizes' }, sizes(c))),
    h('td', { class: 'num' }, `${fmt(c.ms)} ms`),
    h('td', { class: 'num' }, `${fmt(c.rate)} ${unit(c)}`),
    h('td', { class: 'num' }, `${fmt(c.ratio)} ×`),
    h('td', { class: 'num' }, `${fmt(c.pct_ceiling)} %`),
    h('td', {}, h('span', { class: 'tier-badge', 'data-tier': c.tier }, tierName(c.tier)))));
  return h('div', { class: 'table-wrap' }, h('table', { class: 'cases speed-cases' }, h('thead', {}, head), h('tbody', {}, rows)));
}

// Three bars per case on one scale: the learner's rate, the core's, and the
// ceiling (an outline), longer is faster.
function speedChart(cases) {
  const rowH = 44, nameW = 110, barW = 300, tail = 110;
  const svg = s('svg', { viewBox: `0 0 ${nameW + barW + tail} ${cases.length * rowH + 6}`, width: nameW + barW + tail, class: 'speed-chart' });
  const labels = [];
  cases.forEach((c, i) => {
    const max = Math.max(c.ceiling || 0, c.rate || 0, c.core_rate || 0) || 1;
    const w = (x) => Math.max(1, (barW * (x || 0)) / max);
    const y = 4 + i * rowH, u = unit(c);
    const bar = (row, value, cls, key) => [
      s('rect', { x: nameW, y: y + row * 13, width: w(value).toFixed(1), height: 11, class: cls, 'data-rate': value },
        s('title', {}, say(key, { name: c.name, rate: fmt(value), unit: u }))),
      s('text', { x: nameW + w(value) + 4, y: y + row * 13 + 10, class: `tick${cls === 'you' ? '' : ' muted'}` }, `${fmt(value)} ${u}`),
    ];
    svg.append(
      s('text', { x: nameW - 6, y: y + 23, 'text-anchor': 'end', class: 'tick' }, c.name),
      ...bar(0, c.rate, 'you', 'speedBarYou'),
      ...bar(1, c.core_rate, 'ref', 'speedBarCore'),
      ...bar(2, c.ceiling, 'track', 'speedBarCeiling'));
    labels.push(say('speedChartCase', { name: c.name, yours: fmt(c.rate), core: fmt(c.core_rate), ceiling: fmt(c.ceiling), unit: u }));
  });
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', labels.join('; '));
  return h('figure', { class: 'picture' },
    h('figcaption', {}, h('strong', {}, t('speedChartTitle')), ' ', h('span', { class: 'muted' }, t('speedChartNote'))),
    svg,
    h('p', { class: 'legend' }, h('span', { class: 'swatch you' }), t('speedYou'), ' ', h('span', { class: 'swatch ref' }), t('speedCore'),
      ' ', h('span', { class: 'swatch ceiling' }), t('speedCeiling')));
}
