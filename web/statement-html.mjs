// statement-html.mjs: a problem statement (Markdown with TeX, $…$ and $$…$$)
// turned into HTML with markdown-it and KaTeX, at build time (site.mjs), so
// the page only inserts it: rendering it in the browser took a reload's
// main thread ~200 ms, and the two libraries another ~50 ms to load. Raw
// HTML in the Markdown is not passed through: statements are text and math
// only.
import MarkdownIt from 'markdown-it';
import markdownItKatex from '@vscode/markdown-it-katex';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false })
  .use(markdownItKatex.default ?? markdownItKatex, { throwOnError: false });

export const statementHtml = (markdown) => md.render(markdown);
