// class_page.js: the script of a class's HTML page (judge --html, class.c).
// The page holds the table and every report (JSON, in #reports); opening a
// row shows that file's report drawn by the page's own code
// (web/src/results.js, with its pictures), so the teacher sees what the
// learner saw. Bundled into the judge at build time (gen_class_page.mjs).
import { renderReport } from '../web/src/results.js';
import { setLanguage } from '../web/src/text.js';

setLanguage(document.documentElement.dataset.lang === 'zh' ? 'zh' : 'en');
const reports = JSON.parse(document.getElementById('reports').textContent);

for (const button of document.querySelectorAll('button.open')) {
  button.addEventListener('click', () => {
    const row = button.closest('tr');
    const open = row.nextElementSibling?.classList.contains('report') ? row.nextElementSibling : null;
    if (open) {
      open.remove();
      button.setAttribute('aria-expanded', 'false');
      return;
    }
    const report = reports[Number(button.dataset.index)];
    const cell = document.createElement('td');
    cell.colSpan = row.children.length;
    cell.className = 'results';
    cell.append(...renderReport(report));
    const tr = document.createElement('tr');
    tr.className = 'report';
    tr.append(cell);
    row.after(tr);
    button.setAttribute('aria-expanded', 'true');
  });
}
