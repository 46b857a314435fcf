// statement.js: a problem statement, as the HTML the build rendered from its
// Markdown and TeX (web/statement-html.mjs); KaTeX's stylesheet draws it.
import 'katex/dist/katex.min.css';
import { fetchedText } from './fetched.js';

// The statement of problem folder `dir` in `lang`, as HTML.
export const statementHtml = (dir, lang) => fetchedText(`problems/${dir}/statement.${lang}.html`);
