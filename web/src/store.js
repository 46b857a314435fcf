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
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    /* storage full or blocked: nothing better to do than keep going */
  }
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
