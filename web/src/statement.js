// statement.js: a problem statement, as the HTML the build rendered from its
// Markdown and TeX (web/statement-html.mjs); KaTeX's stylesheet draws it.
import 'katex/dist/katex.min.css';

const cache = new Map();

// The statement of problem folder `dir` in `lang`, as HTML.
export async function statementHtml(dir, lang) {
  const url = `problems/${dir}/statement.${lang}.html`;
  if (!cache.has(url)) {
    cache.set(url, fetch(url).then((r) => {
      if (!r.ok) throw new Error(`${url}: ${r.status}`);
      return r.text();
    }).catch((e) => {
      cache.delete(url);
      throw e;
    }));
  }
  return cache.get(url);
}
