// problems.js: the problems as the judge lists them (judge.problems, in the
// bundle since the build: web/site.mjs reads them from the judge itself), so
// the page draws a list or a problem before the judge has loaded.
/* global __PROBLEMS__ */
export const problems = __PROBLEMS__;

// The problem of a key the page's own links use (#/<dir>), or its slug or
// id; null for any other key, which only the judge's own lookup can answer.
export function problemByKey(key) {
  return problems.find((p) => key === p.dir || key === p.slug || key === String(p.id)) ?? null;
}
