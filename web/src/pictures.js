// pictures.js: the report drawn where a picture says more than numbers:
//   maskPicture:  the learner's effective mask beside the expected one
//                 (report.mask, rows of '0'/'1', 1 = that query sees that key);
//   errorPictures: where the output is wrong: per case, the share of wrong
//                 elements and the worst error against the tolerance; and for
//                 the visible example a heatmap of |got − expected| over
//                 (position, feature) when the report gives its shape;
//   timePicture:  the learner's time vs the reference's, per case.
// Each picture is an SVG with a text title and a description for screen
// readers; colours come from CSS variables so both themes work.
import { h, s } from './dom.js';
import { t } from './text.js';

const CELL = 16;

function figure(title, note, svg, label) {
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  return h('figure', { class: 'picture' }, h('figcaption', {}, h('strong', {}, title), ' ', h('span', { class: 'muted' }, note)), svg);
}

function maskGrid(rows, other, x0, caption) {
  const keys = rows[0]?.length ?? 0;
  const parts = [s('text', { x: x0 + (keys * CELL) / 2, y: 12, 'text-anchor': 'middle', class: 'label' }, caption)];
  rows.forEach((row, i) => {
    [...row].forEach((bit, j) => {
      const differs = other[i]?.[j] !== bit;
      parts.push(s('rect', {
        x: x0 + j * CELL, y: 20 + i * CELL, width: CELL - 2, height: CELL - 2, rx: 2,
        class: `cell ${bit === '1' ? 'on' : 'off'}${differs ? ' differs' : ''}`,
      }, s('title', {}, `query ${i}, key ${j}: ${bit === '1' ? 'sees' : 'does not see'}`)));
    });
  });
  return parts;
}

export function maskPicture(mask) {
  // Queries × keys; not always square (a KV cache has more keys than queries).
  const n = mask.yours.length;
  const width = (mask.yours[0]?.length ?? 0) * CELL;
  const gap = 40;
  const svg = s('svg', { viewBox: `0 0 ${2 * width + gap} ${24 + n * CELL}`, width: 2 * width + gap, class: 'mask' },
    maskGrid(mask.yours, mask.expected, 0, t('yours')),
    maskGrid(mask.expected, mask.yours, width + gap, t('expectedMask')));
  const wrong = [];
  mask.yours.forEach((row, i) => [...row].forEach((bit, j) => {
    if (bit !== mask.expected[i][j]) wrong.push(`query ${i} ${bit === '1' ? 'sees' : 'misses'} key ${j}`);
  }));
  const label = mask.differs ? `Masks differ: ${wrong.slice(0, 8).join('; ')}${wrong.length > 8 ? '…' : ''}` : 'Your mask matches the expected one.';
  return figure(t('maskTitle'), t('maskNote'), svg, label);
}

// values: rows × cols numbers (row = position, col = feature); rowLabel(i)
// names a row.
function heatmap(rows, cols, values, rowLabel) {
  const max = Math.max(...values.filter(Number.isFinite), 0) || 1;
  const cell = Math.max(4, Math.min(CELL, Math.floor(480 / cols)));
  const svg = s('svg', { viewBox: `0 0 ${cols * cell + 60} ${rows * cell + 24}`, width: Math.min(cols * cell + 60, 560), class: 'heat' });
  svg.append(s('text', { x: 0, y: 12, class: 'label' }, `max ${fmt(max)}`),
    s('text', { x: 60, y: 12, class: 'label' }, 'feature →'),
    s('rect', { x: 60, y: 20, width: cols * cell, height: rows * cell, class: 'track' }));
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = values[i * cols + j];
      // NaN and Inf are the worst error there is: full colour.
      const level = Number.isFinite(v) ? Math.sqrt(Math.min(v / max, 1)) : 1;
      svg.append(s('rect', { x: 60 + j * cell, y: 20 + i * cell, width: cell, height: cell, class: 'hot', 'fill-opacity': level.toFixed(3) },
        s('title', {}, `${rowLabel(i)}, feature ${j}: ${fmt(v)}`)));
    }
    if (rows <= 40 || i % 5 === 0) svg.append(s('text', { x: 54, y: 20 + i * cell + cell - 2, 'text-anchor': 'end', class: 'tick' }, rowLabel(i)));
  }
  return svg;
}

// The per-case view, from fields every report has.
function caseChart(cases) {
  const rowH = 20, nameW = 130, barW = 180;
  const svg = s('svg', { viewBox: `0 0 ${nameW + 2 * barW + 40} ${cases.length * rowH + 24}`, width: nameW + 2 * barW + 40, class: 'cases' });
  svg.append(s('text', { x: nameW, y: 12, class: 'label' }, t('wrong')),
    s('text', { x: nameW + barW + 20, y: 12, class: 'label' }, `${t('maxErr')} / tol (log)`));
  cases.forEach((c, i) => {
    const y = 20 + i * rowH;
    const share = c.n ? c.n_bad / c.n : 0;
    // log10 of error/tolerance: 0 at the tolerance, 6 is a million times over.
    const over = c.max_ratio > 0 ? Math.min(Math.max(Math.log10(c.max_ratio) / 6, 0), 1) : 0;
    const bad = c.verdict !== 'AC';
    svg.append(
      s('text', { x: nameW - 6, y: y + 13, 'text-anchor': 'end', class: 'tick' }, c.name),
      s('rect', { x: nameW, y: y + 2, width: barW, height: rowH - 6, class: 'track' }),
      s('rect', { x: nameW, y: y + 2, width: (barW * share).toFixed(1), height: rowH - 6, class: bad ? 'hot' : 'ok' },
        s('title', {}, `${c.name}: ${c.n_bad} of ${c.n} wrong`)),
      s('rect', { x: nameW + barW + 20, y: y + 2, width: barW, height: rowH - 6, class: 'track' }),
      s('rect', { x: nameW + barW + 20, y: y + 2, width: (barW * over).toFixed(1), height: rowH - 6, class: bad ? 'hot' : 'ok' },
        s('title', {}, `${c.name}: max error ${fmt(c.max_abs)}, ${fmt(c.max_ratio)}× the tolerance`)));
  });
  return svg;
}

// For a wrong answer: the per-case chart, and a heatmap of |got − expected|
// over (position, feature) for the visible example when the report gives the
// shape of its output (report.cases[].example.<param>.shape, e.g. [B, T, d]);
// hidden cases carry no element values, by design.
export function errorPictures(report) {
  const out = [];
  for (const c of report.cases) {
    if (c.verdict !== 'WA' || !c.example) continue;
    for (const [param, v] of Object.entries(c.example)) {
      if (!Array.isArray(v.shape) || v.shape.length < 2) continue;
      const cols = v.shape.at(-1);
      const T = v.shape.at(-2);
      const rows = v.expected.length / cols;
      const err = v.expected.map((e, i) => Math.abs(v.got[i] - e));
      // Rows are (batch, position) when there is more than one sequence.
      const rowLabel = (i) => (rows > T ? `b${Math.floor(i / T)} t${i % T}` : `t=${i}`);
      out.push(figure(t('heatTitle'), `${t('heatNote')} (${c.name}, ${param})`, heatmap(rows, cols, err, rowLabel),
        `Heatmap of |got - expected| for ${param} in case ${c.name}, largest ${fmt(Math.max(...err))}`));
    }
  }
  const ran = report.cases.filter((c) => typeof c.n === 'number');
  const label = ran.map((c) => `${c.name}: ${c.n_bad} of ${c.n} wrong`).join('; ');
  out.push(figure(t('caseHeatTitle'), t('caseHeatNote'), caseChart(ran), label));
  return out;
}

export function timePicture(cases) {
  const ran = cases.filter((c) => Number.isFinite(c.time_ms) && Number.isFinite(c.ref_ms));
  const total = { name: t('total'), time_ms: sum(ran, 'time_ms'), ref_ms: sum(ran, 'ref_ms') };
  const rows = [...ran, total];
  const rowH = 30, nameW = 130, barW = 320;
  const max = Math.max(...rows.flatMap((c) => [c.time_ms, c.ref_ms])) || 1;
  const svg = s('svg', { viewBox: `0 0 ${nameW + barW + 90} ${rows.length * rowH + 10}`, width: nameW + barW + 90, class: 'times' });
  rows.forEach((c, i) => {
    const y = 4 + i * rowH;
    svg.append(
      s('text', { x: nameW - 6, y: y + 17, 'text-anchor': 'end', class: 'tick' }, c.name),
      s('rect', { x: nameW, y, width: Math.max(1, (barW * c.time_ms) / max).toFixed(1), height: 11, class: 'you' },
        s('title', {}, `${c.name}: yours ${fmt(c.time_ms)} ms`)),
      s('text', { x: nameW + (barW * c.time_ms) / max + 4, y: y + 10, class: 'tick' }, `${fmt(c.time_ms)} ms`),
      s('rect', { x: nameW, y: y + 13, width: Math.max(1, (barW * c.ref_ms) / max).toFixed(1), height: 11, class: 'ref' },
        s('title', {}, `${c.name}: reference ${fmt(c.ref_ms)} ms`)),
      s('text', { x: nameW + (barW * c.ref_ms) / max + 4, y: y + 23, class: 'tick muted' }, `${fmt(c.ref_ms)} ms`));
  });
  const legend = h('p', { class: 'legend' }, h('span', { class: 'swatch you' }), t('yourTime'), ' ', h('span', { class: 'swatch ref' }), t('refTime'));
  const fig = figure(t('timeTitle'), t('timeNote'), svg,
    `Your total ${fmt(total.time_ms)} ms, reference ${fmt(total.ref_ms)} ms`);
  fig.append(legend);
  return fig;
}

function sum(rows, key) {
  return rows.reduce((a, c) => a + c[key], 0);
}

// Numbers as a person reads them: 3 significant digits, no long tails.
export function fmt(x) {
  if (typeof x !== 'number') return '–';
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e4 || a < 1e-3) return x.toExponential(2);
  return String(Number(x.toPrecision(3)));
}
