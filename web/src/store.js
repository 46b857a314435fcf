// store.js: what the page keeps in the browser (localStorage): the learner's
// code per problem, each problem's status, the statement language. Writes are
// synchronous, so a keystroke saved here survives a crash or a closed tab.
// Storage can be unavailable (private modes, quota): the page then works
// without remembering, rather than failing.
const PREFIX = 'attention-judge:';

function get(key) {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function set(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else put(key, value);
  } catch {
    /* blocked, or full with no run left to drop: nothing better to do than keep going */
  }
}

// Writes key's value. A storage that is full makes room and tries again:
// the older half of the longest history goes, the one being written counted
// too (shrink: for a history, the next value with its older half gone, or
// null when one run is all it has). So old runs, which fill the storage in
// time (every Run keeps its code), never keep the code being typed from
// being saved, nor one problem's runs another's. Throws when nothing is
// left to drop.
function put(key, value, shrink = null) {
  for (;;) {
    try {
      localStorage.setItem(PREFIX + key, value);
      return;
    } catch (e) {
      const other = longestHistory(PREFIX + key);
      if (shrink && value.length >= (other?.size ?? 0)) {
        value = shrink();
        if (value === null) throw e;
      } else if (other) halve(other.key);
      else throw e;
    }
  }
}

// The longest history kept but `except`'s: { key, size }, or null.
function longestHistory(except) {
  let longest = null;
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key?.startsWith(`${PREFIX}history:`) || key === except) continue;
    const size = localStorage.getItem(key)?.length ?? 0;
    if (size > (longest?.size ?? 0)) longest = { key, size };
  }
  return longest;
}

// A history kept without its older half (gone whole when it has one run,
// or cannot be read).
function halve(key) {
  let list = null;
  try {
    list = JSON.parse(localStorage.getItem(key));
  } catch {
    /* unreadable */
  }
  if (!Array.isArray(list) || list.length <= 1) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(list.slice(0, list.length >> 1)));
}

export function lang() {
  const saved = get('lang');
  if (saved === 'en' || saved === 'zh') return saved;
  return /^zh\b/i.test(navigator.language || '') ? 'zh' : 'en';
}
export const setLang = (value) => set('lang', value);

// The saved code, or null when the learner has not typed anything yet.
export const code = (id) => get(`code:${id}`);
export const setCode = (id, text) => set(`code:${id}`, text);

// 'unsolved' | 'attempted' | 'solved'; once solved, a later wrong run does
// not take it back.
export function status(id) {
  return get(`status:${id}`) || 'unsolved';
}
export function recordRun(id, verdict) {
  if (verdict === 'AC') set(`status:${id}`, 'solved');
  else if (status(id) !== 'solved') set(`status:${id}`, 'attempted');
}

// Every run of a problem, newest first: { at (ms since 1970), verdict,
// mistake: { id, title } | null, code }. A draft (verdict 'draft') is code
// that was in the editor when something replaced it (a restore, an import),
// so nothing typed is lost. When storage is full the oldest runs go first (put).
function readJson(key, fallback) {
  try {
    return JSON.parse(get(key)) ?? fallback;
  } catch {
    return fallback;
  }
}
export const history = (id) => readJson(`history:${id}`, []);
function writeHistory(id, list) {
  let keep = list.length;
  try {
    put(`history:${id}`, JSON.stringify(list), () => ((keep >>= 1) ? JSON.stringify(list.slice(0, keep)) : null));
  } catch {
    /* blocked, or not even its newest run fits */
  }
}
export const addHistory = (id, entry) => writeHistory(id, [entry, ...history(id)]);

// How many hints of a problem the learner has revealed, and whether the
// reference solution was shown.
export const hintsShown = (id) => Number(get(`hints:${id}`)) || 0;
export const setHintsShown = (id, n) => set(`hints:${id}`, String(n));
export const solutionShown = (id) => get(`solution:${id}`) === '1';
export const setSolutionShown = (id) => set(`solution:${id}`, '1');

// The best speed tier a problem's speed runs reached, in the judge's words
// ('gold', 'silver', 'bronze', 'none'), or null before the first; it only
// goes up.
export const TIERS = ['none', 'bronze', 'silver', 'gold'];
export function bestTier(id) {
  const tier = get(`tier:${id}`);
  return TIERS.includes(tier) ? tier : null;
}
export function recordTier(id, tier) {
  if (TIERS.indexOf(tier) > TIERS.indexOf(bestTier(id))) set(`tier:${id}`, tier);
}

// The divider's place on a wide screen: the statement's share of the width.
export const split = () => Number(get('split')) || 0.5;
export const setSplit = (x) => set('split', String(x));

// Export and import: everything above for every problem, as one JSON file.
const FORMAT = 'attention-judge-progress';
export function exportAll(ids) {
  const problems = {};
  for (const id of ids) {
    const entry = { code: code(id), status: status(id), history: history(id), hints: hintsShown(id), solution: solutionShown(id), tier: bestTier(id) };
    if (entry.code !== null || entry.history.length || entry.status !== 'unsolved' || entry.tier) problems[id] = entry;
  }
  return { format: FORMAT, version: 1, exported: new Date().toISOString(), problems };
}

// Merges a file made by exportAll into this browser: runs are added (none
// twice), a status and a speed tier only go up, revealed hints only grow. The imported code
// goes into the editor only when this browser has none or the same; otherwise
// it is kept as a draft in the history. Returns how many problems it touched,
// or throws an Error whose message says what is wrong with the file (and
// whose key names the page's words for it).
export function importAll(data, known) {
  if (data?.format !== FORMAT || data.version !== 1 || typeof data.problems !== 'object' || !data.problems)
    throw Object.assign(new Error('not a progress file of this page'), { key: 'importNotProgress' });
  let n = 0;
  for (const [key, p] of Object.entries(data.problems)) {
    const id = Number(key);
    if (!known.has(id) || typeof p !== 'object' || !p) continue;
    n++;
    const have = new Set(history(id).map((e) => `${e.at}\n${e.code}`));
    const runs = (Array.isArray(p.history) ? p.history : [])
      .filter((e) => typeof e?.code === 'string' && Number.isFinite(e.at) && typeof e.verdict === 'string')
      .filter((e) => !have.has(`${e.at}\n${e.code}`));
    const local = code(id);
    if (typeof p.code === 'string' && p.code !== local) {
      if (local === null) setCode(id, p.code);
      else runs.push({ at: Date.now(), verdict: 'draft', mistake: null, code: p.code });
    }
    const mistake = (m) => (typeof m?.id === 'string' ? { id: m.id, title: typeof m.title === 'string' ? m.title : '' } : null);
    const clean = (e) => ({ at: e.at, verdict: e.verdict, mistake: mistake(e.mistake), code: e.code });
    writeHistory(id, [...runs.map(clean), ...history(id)].sort((a, b) => b.at - a.at));
    const rank = { unsolved: 0, attempted: 1, solved: 2 };
    if ((rank[p.status] ?? 0) > rank[status(id)]) set(`status:${id}`, p.status);
    if (Number.isInteger(p.hints) && p.hints > hintsShown(id)) setHintsShown(id, p.hints);
    if (p.solution === true) setSolutionShown(id);
    if (TIERS.includes(p.tier)) recordTier(id, p.tier);
  }
  return n;
}
