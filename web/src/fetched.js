// fetched.js: a static file of the site as text, fetched once per page; a
// failed fetch is forgotten, so the next call tries again (e.g. back online).
const texts = new Map();

export function fetchedText(url) {
  if (!texts.has(url)) {
    texts.set(url, fetch(url).then((r) => {
      if (!r.ok) throw new Error(`${url}: ${r.status}`);
      return r.text();
    }).catch((e) => {
      texts.delete(url);
      throw e;
    }));
  }
  return texts.get(url);
}
