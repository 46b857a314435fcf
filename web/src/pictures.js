// pictures.js: the report drawn where a picture says more than numbers:
//   maskPicture:  the learner's effective mask beside the expected one
//                 (report.mask, rows of '0'/'1', 1 = that query sees that key),
//                 queries numbered down the left, keys along the top;
//   errorPictures: where the output is wrong: per case, the share of wrong
//                 elements and the worst error against the tolerance; and for
//                 the visible example one heatmap per wrong output, each
//                 element coloured by its error over the tolerance, rows and
//                 columns named by the output's own dimensions;
//   timePicture:  the learner's time vs the reference's, per case.
// Each picture is an SVG with a text title and a description for screen
// readers; colours come from CSS variables so both themes work.
import { h, s } from './dom.js';
import { say, t } from './text.js';

const CELL = 16;
const CHAR = 6.2;   // width of one character of the 10px monospace ticks


function figure(title, note, svg, label) {
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  return h('figure', { class: 'picture' }, h('figcaption', {}, h('strong', {}, title), ' ', h('span', { class: 'muted' }, note)), svg);
}

// Which axis labels to write when there are n of them: all up to 16, then
// every 2nd, every 4th, so that numbers never run into each other.
function labelStep(n) {
  return n <= 16 ? 1 : n <= 32 ? 2 : 4;
}

function maskGrid(rows, other, x0, y0, caption) {
  const keys = rows[0]?.length ?? 0;
  const step = labelStep(Math.max(keys, rows.length));
  const parts = [s('text', { x: x0 + (keys * CELL) / 2, y: 12, 'text-anchor': 'middle', class: 'label' }, caption)];
  for (let j = 0; j < keys; j += step) {
    parts.push(s('text', { x: x0 + j * CELL + (CELL - 2) / 2, y: y0 - 4, 'text-anchor': 'middle', class: 'tick key-tick' }, j));
  }
  rows.forEach((row, i) => {
    if (i % step === 0) {
      parts.push(s('text', { x: x0 - 4, y: y0 + i * CELL + CELL - 5, 'text-anchor': 'end', class: 'tick query-tick' }, i));
    }
    [...row].forEach((bit, j) => {
      const differs = other[i]?.[j] !== bit;
      parts.push(s('rect', {
        x: x0 + j * CELL, y: y0 + i * CELL, width: CELL - 2, height: CELL - 2, rx: 2,
        class: `cell ${bit === '1' ? 'on' : 'off'}${differs ? ' differs' : ''}`,
      }, s('title', {}, say('maskCell', { i, j, state: t(bit === '1' ? 'maskSees' : 'maskMisses') }))));
    });
  });
  return parts;
}

export function maskPicture(mask) {
  // Queries × keys; not always square (a KV cache has more keys than queries).
  const n = mask.yours.length;
  const width = (mask.yours[0]?.length ?? 0) * CELL;
  // Left of each grid: the queries' axis name (turned to run down) and numbers.
  const margin = 22 + CHAR * String(Math.max(n - 1, 0)).length;
  const gap = 24 + margin;
  const top = 44;   // the grid's caption, the keys' axis name, the key numbers
  const axes = (x0) => [
    s('text', { x: x0, y: 28, class: 'label' }, t('maskKeys')),
    s('text', { transform: `translate(${x0 - margin + 4} ${top}) rotate(90)`, class: 'label' }, t('maskQueries')),
  ];
  const svg = s('svg', { viewBox: `0 0 ${margin + 2 * width + gap} ${top + Math.max(n * CELL, 64) + 4}`, width: margin + 2 * width + gap, class: 'mask' },
    axes(margin), axes(margin + width + gap),
    maskGrid(mask.yours, mask.expected, margin, top, t('yours')),
    maskGrid(mask.expected, mask.yours, margin + width + gap, top, t('expectedMask')));
  const wrong = [];
  mask.yours.forEach((row, i) => [...row].forEach((bit, j) => {
    if (bit !== mask.expected[i][j]) wrong.push(say(bit === '1' ? 'maskDiffSees' : 'maskDiffMisses', { i, j }));
  }));
  const label = mask.differs ? say('maskDiffer', { list: `${wrong.slice(0, 8).join('; ')}${wrong.length > 8 ? '…' : ''}` }) : t('maskSame');
  const fig = figure(t('maskTitle'), t('maskNote'), svg, label);
  fig.append(h('p', { class: 'legend' },
    h('span', { class: 'swatch cell-on' }), t('maskSees'), ' ',
    h('span', { class: 'swatch cell-off' }), t('maskMisses'), ' ',
    h('span', { class: 'swatch cell-differs' }), t('maskDiffers')));
  return fig;
}

// Error over tolerance for one element, the judge's own rule (ratio_of in
// core/att_compare.c; integers exactly): at most 1 passes. The page computes
// it only to colour the example; the judge's counts stay the verdict, and
// the e2e test holds the two to the same count.
function ratioOf(got, want, tol, exact) {
  if (!Number.isFinite(want)) return (Number.isNaN(want) ? Number.isNaN(got) : got === want) ? 0 : Infinity;
  const err = Math.abs(got - want);
  if (exact) return err === 0 ? 0 : Infinity;
  const bound = tol.atol + tol.rtol * Math.abs(want);
  if (!(err <= bound)) return Number.isFinite(err) && bound > 0 ? err / bound : Infinity;
  return bound > 0 ? err / bound : 0;
}

// The report writes NaN and ±Inf as strings ("NaN", "Infinity", "-Infinity").
const value = (x) => (typeof x === 'number' ? x : Number(x));

// Red from just over the tolerance (1) to 10^DECADES times over, on a log
// scale: a mistake is usually orders of magnitude off, rounding a few times.
const DECADES = 4;
const redness = (ratio) => 0.25 + 0.75 * Math.min(Math.max(Math.log10(ratio) / DECADES, 0), 1);

// How an output's dimensions lay out on the page: the leading half of them
// down the rows ("b0 s_max3"), the rest across the columns ("h1 d0"); a
// rank-1 output is one row. Row-major, so element r * cols + c.
function layout(shape, dims) {
  const split = shape.length <= 1 ? 0 : Math.ceil(shape.length / 2);
  const axes = (from, to) => shape.slice(from, to).map((size, k) => ({ size, name: dims[from + k] ?? `dim${from + k}` }));
  const rowAxes = axes(0, split), colAxes = axes(split, shape.length);
  const count = (list) => list.reduce((a, x) => a * x.size, 1);
  return { rowAxes, colAxes, rows: count(rowAxes), cols: count(colAxes) };
}

// The indices of position k over some axes, outermost first.
function indices(list, k) {
  const idx = [];
  for (let a = list.length - 1; a >= 0; a--) {
    idx[a] = k % list[a].size;
    k = Math.floor(k / list[a].size);
  }
  return idx;
}

// "b0 s_max3". Columns must stay short, so a column label leaves out the
// axes of size 1 (keeping the last); rows name every axis.
function axisLabel(list, k, short) {
  const idx = indices(list, k);
  const shown = list.map((a, i) => i).filter((i) => !short || list[i].size > 1 || i === list.length - 1);
  return shown.map((i) => `${list[i].name.toLowerCase()}${idx[i]}`).join(' ');
}

// One output of the example: the element's error over the tolerance as
// colour. Returns { svg, bad, n, worst }.
function heatmap(param, v, tol) {
  const exact = v.exact === true || (tol.atol === 0 && tol.rtol === 0);
  const { rowAxes, colAxes, rows, cols } = layout(v.shape, v.dims);
  const cell = Math.max(4, Math.min(20, Math.floor(480 / cols)));   // small examples read better large
  const rowNames = Array.from({ length: rows }, (_, r) => (rowAxes.length ? axisLabel(rowAxes, r, false) : param));
  const colNames = Array.from({ length: cols }, (_, c) => axisLabel(colAxes, c, true));
  const rowStep = Math.ceil(11 / cell), colStep = Math.ceil(11 / cell);
  const left = 8 + CHAR * Math.max(...rowNames.map((x) => x.length));
  const top = 8 + CHAR * Math.max(...colNames.map((x) => x.length));
  const legendH = 42;
  const width = Math.max(left + cols * cell + 4, 400);
  const svg = s('svg', { viewBox: `0 0 ${width} ${top + rows * cell + legendH}`, width: Math.min(width, 560), class: 'heat', 'data-param': param });
  const whole = v.shape.map((size) => ({ size }));
  // Integers in full: a count off by one must show which digit.
  const show = exact ? String : fmt;
  let bad = 0, worst = 0;
  for (let r = 0; r < rows; r++) {
    if (r % rowStep === 0) svg.append(s('text', { x: left - 4, y: top + r * cell + cell - 3, 'text-anchor': 'end', class: 'tick row-tick' }, rowNames[r]));
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      const want = value(v.expected[i]), got = value(v.got[i]);
      const ratio = ratioOf(got, want, tol, exact);
      const over = !(ratio <= 1);
      if (over) bad++;
      if (!(ratio <= worst)) worst = ratio;
      // A NaN or an infinity where a number belongs is its own colour.
      const kind = !over ? 'within' : !Number.isFinite(got) && Number.isFinite(want) ? 'nonfinite' : 'over';
      const at = indices(whole, i);
      const where = `${param}[${v.dims.map((d, k) => `${d}=${at[k]}`).join(', ')}]`;
      const tip = exact ? say('heatCellExact', { where, expected: show(want), got: show(got) })
        : say('heatCell', { where, expected: show(want), got: show(got), ratio: ratioText(ratio) });
      svg.append(s('rect', {
        x: left + c * cell, y: top + r * cell, width: cell - 1, height: cell - 1,
        class: `err ${kind}`, 'data-ratio': String(ratio),
        'fill-opacity': kind === 'over' ? redness(ratio).toFixed(3) : null,
      }, s('title', {}, tip)));
    }
  }
  for (let c = 0; c < cols; c += colStep) {
    const x = left + c * cell + cell / 2 + 3;
    svg.append(s('text', { transform: `translate(${x} ${top - 4}) rotate(-90)`, class: 'tick col-tick' }, colNames[c]));
  }
  svg.append(legend(exact, top + rows * cell + 16));
  return { svg, bad, n: rows * cols, worst };
}

// The colour key under a heatmap: the red steps with their numbers, what is
// within the tolerance, and NaN/Inf; or, compared exactly, equal vs differs.
function legend(exact, y) {
  const g = s('g', { class: 'heat-legend' });
  const box = (x, kind, opacity) => s('rect', { x, y, width: 14, height: 10, class: `err ${kind}`, 'fill-opacity': opacity });
  const text = (x, words, anchor = 'start') => s('text', { x, y: y + 22, 'text-anchor': anchor, class: 'tick' }, words);
  if (exact) {
    g.append(box(0, 'within'), s('text', { x: 18, y: y + 9, class: 'tick' }, t('heatEqual')),
      box(90, 'over', 1), s('text', { x: 108, y: y + 9, class: 'tick' }, t('heatDiffers')));
    return g;
  }
  g.append(box(0, 'within'), text(0, `≤1 ${t('heatWithin')}`));
  const x0 = 150, stepW = 20;
  for (let k = 0; k < 2 * DECADES; k++) g.append(box(x0 + k * stepW, 'over', redness(10 ** ((k + 0.5) / 2)).toFixed(3)));
  for (let d = 0; d <= DECADES; d++) {
    g.append(s('line', { x1: x0 + d * 2 * stepW, x2: x0 + d * 2 * stepW, y1: y, y2: y + 12, class: 'scale-tick' }),
      text(x0 + d * 2 * stepW, d === 0 ? '1' : d === DECADES ? `≥1e${d}` : `1e${d}`, 'middle'));
  }
  g.append(s('text', { x: x0, y: y - 3, class: 'label' }, t('heatScale')),
    box(x0 + 2 * DECADES * stepW + 16, 'nonfinite'), text(x0 + 2 * DECADES * stepW + 16, t('heatNonfinite')));
  return g;
}

const ratioText = (r) => (Number.isFinite(r) ? fmt(r) : '∞');

// The per-case view, from fields every report has.
function caseChart(cases) {
  const rowH = 20, nameW = 130, barW = 180;
  const svg = s('svg', { viewBox: `0 0 ${nameW + 2 * barW + 40} ${cases.length * rowH + 24}`, width: nameW + 2 * barW + 40, class: 'cases' });
  svg.append(s('text', { x: nameW, y: 12, class: 'label' }, t('wrong')),
    s('text', { x: nameW + barW + 20, y: 12, class: 'label' }, t('caseRatio')));
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
        s('title', {}, say('caseWrongOf', { name: c.name, bad: c.n_bad, n: c.n }))),
      s('rect', { x: nameW + barW + 20, y: y + 2, width: barW, height: rowH - 6, class: 'track' }),
      s('rect', { x: nameW + barW + 20, y: y + 2, width: (barW * over).toFixed(1), height: rowH - 6, class: bad ? 'hot' : 'ok' },
        s('title', {}, say('caseWorst', { name: c.name, abs: fmt(c.max_abs), ratio: ratioText(value(c.max_ratio)) }))));
  });
  return svg;
}

// For a wrong answer: a heatmap for every output of the visible example
// that has an element outside the tolerance (report.cases[].example.<param>:
// shape, dims, expected, got; hidden cases carry no element values, by
// design), a line naming the outputs that are right, and the per-case chart.
export function errorPictures(report) {
  const out = [];
  const tol = report.tolerance ?? { atol: 0, rtol: 0 };
  for (const c of report.cases) {
    if (c.verdict !== 'WA' || !c.example) continue;
    const right = [];
    for (const [param, v] of Object.entries(c.example)) {
      if (!Array.isArray(v.shape)) continue;
      const map = heatmap(param, v, tol);
      if (!map.bad) {
        right.push(param);
        continue;
      }
      const exact = v.exact === true || (tol.atol === 0 && tol.rtol === 0);
      const note = exact ? say('heatCaptionExact', { param, name: c.name, bad: map.bad, n: map.n })
        : say('heatCaption', { param, name: c.name, worst: ratioText(map.worst), bad: map.bad, n: map.n });
      out.push(figure(t('heatTitle'), note, map.svg, note));
    }
    if (right.length && out.length) out.at(-1).append(h('p', { class: 'legend' }, say('heatAllWithin', { params: right.join(', ') })));
  }
  const ran = report.cases.filter((c) => typeof c.n === 'number');
  const label = ran.map((c) => say('caseWrongOf', { name: c.name, bad: c.n_bad, n: c.n })).join('; ');
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
        s('title', {}, say('timeYours', { name: c.name, ms: fmt(c.time_ms) }))),
      s('text', { x: nameW + (barW * c.time_ms) / max + 4, y: y + 10, class: 'tick' }, `${fmt(c.time_ms)} ms`),
      s('rect', { x: nameW, y: y + 13, width: Math.max(1, (barW * c.ref_ms) / max).toFixed(1), height: 11, class: 'ref' },
        s('title', {}, say('timeRef', { name: c.name, ms: fmt(c.ref_ms) }))),
      s('text', { x: nameW + (barW * c.ref_ms) / max + 4, y: y + 23, class: 'tick muted' }, `${fmt(c.ref_ms)} ms`));
  });
  const legend = h('p', { class: 'legend' }, h('span', { class: 'swatch you' }), t('yourTime'), ' ', h('span', { class: 'swatch ref' }), t('refTime'));
  const fig = figure(t('timeTitle'), t('timeNote'), svg, say('timeTotal', { yours: fmt(total.time_ms), ref: fmt(total.ref_ms) }));
  fig.append(legend);
  return fig;
}

function sum(rows, key) {
  return rows.reduce((a, c) => a + c[key], 0);
}

// Numbers as a person reads them: 3 significant digits, no long tails; the
// report's NaN and infinities (strings, as value() reads them) as they are.
export function fmt(x) {
  if (typeof x === 'string' && /^-?(NaN|Infinity)$/.test(x)) return x;
  if (typeof x !== 'number') return '–';
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e4 || a < 1e-3) return x.toExponential(2);
  return String(Number(x.toPrecision(3)));
}
