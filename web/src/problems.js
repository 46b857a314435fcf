// problems.js: the problems as the judge lists them (judge.problems, in the
// bundle since the build: web/site.mjs reads them from the judge itself), so
// the page draws a list or a problem before the judge has loaded.
/* global __PROBLEMS__ */
import { fetchedText } from './fetched.js';
export const problems = __PROBLEMS__;

// The problem of the page's own links (#/<dir>), or null: any other key (an
// id, a slug) is the C judge's to look up, as it always was.
export function problemByDir(dir) {
  return problems.find((p) => p.dir === dir) ?? null;
}

// A problem's reference solution: shown on request (help.js), and the file
// the compiler warms up on while the learner reads (main.js).
export const solutionText = (problem) => fetchedText(`problems/${problem.dir}/solution.c`);
