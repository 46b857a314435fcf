// problems.js: the problems as the judge lists them (judge.problems, in the
// bundle since the build: web/site.mjs reads them from the judge itself), so
// the page draws a list or a problem before the judge has loaded.
/* global __PROBLEMS__ */
export const problems = __PROBLEMS__;

// The problem of the page's own links (#/<dir>), or null: any other key (an
// id, a slug) is the C judge's to look up, as it always was.
export function problemByDir(dir) {
  return problems.find((p) => p.dir === dir) ?? null;
}

// A problem's reference solution (problems/<dir>/solution.c), fetched once:
// shown on request (help.js), and the file the compiler warms up on while
// the learner reads (main.js).
const solutions = new Map();
export function solutionText(problem) {
  const url = `problems/${problem.dir}/solution.c`;
  if (!solutions.has(url)) {
    solutions.set(url, fetch(url).then((r) => {
      if (!r.ok) throw new Error(`${r.status}`);
      return r.text();
    }).catch((e) => {
      solutions.delete(url);
      throw e;
    }));
  }
  return solutions.get(url);
}
