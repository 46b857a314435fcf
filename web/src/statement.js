// statement.js: a problem statement (Markdown with TeX, $…$ and $$…$$) turned
// into HTML with markdown-it and KaTeX. Raw HTML in the Markdown is not
// passed through: statements are text and math only.
import MarkdownIt from 'markdown-it';
import markdownItKatex from '@vscode/markdown-it-katex';
import 'katex/dist/katex.min.css';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false })
  .use(markdownItKatex.default ?? markdownItKatex, { throwOnError: false });

const cache = new Map();

// The statement of problem folder `dir` in `lang`, as HTML.
export async function statementHtml(dir, lang) {
  const url = `problems/${dir}/statement.${lang}.md`;
  if (!cache.has(url)) {
    cache.set(url, fetch(url).then((r) => {
      if (!r.ok) throw new Error(`${url}: ${r.status}`);
      return r.text();
    }).then((text) => md.render(text)).catch((e) => {
      cache.delete(url);
      throw e;
    }));
  }
  return cache.get(url);
}
