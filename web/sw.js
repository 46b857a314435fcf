// sw.js: the offline layer. After the first visit the page, the statements,
// the wasm judge and the compiler are served from Cache Storage, so the page
// works with the network off. The build fills in the lists below.
//
// Three kinds of files:
// - content-versioned (assets/*-<hash>.*, rt/<hash>/...): never change, so
//   they are served from the cache first, and cached on first fetch. SHELL's
//   are cached when this worker installs;
// - COMPILER's (rt/<hash>/, ~105 MB): not served by this worker. The compile
//   worker fetches them around it (from the HTTP cache, then Cache Storage,
//   then the network): passed through it, they took twice as long to come,
//   and a first visit's compile had to wait for it to be in charge
//   (web/README.md). Once they have loaded, the page says 'keep-compiler'
//   and this worker copies them from the HTTP cache into Cache Storage;
// - the rest (the page itself, the statements) change in place with a new
//   build: network first, the cached copy when offline. So an online page is
//   always the current build, whichever worker is still in charge.
const VERSION = '__VERSION__';
const SHELL = __SHELL__;
const COMPILER = __COMPILER__;
const SHELL_CACHE = `attention-judge-shell-${VERSION}`;
const RUNTIME_CACHE = 'attention-judge-runtime';
const IMMUTABLE = /\/(assets|rt)\//;

// No skipWaiting: a new build's worker waits until no tab uses the old one.
// Taking over a page that is loading the compiler through the old worker
// left that compile hanging (seen in Chromium); the page is fetched network
// first anyway, so an open tab already runs the new build's page.
self.addEventListener('install', (event) => {
  // cache: 'reload' skips the HTTP cache, so this build's shell cannot be
  // assembled from an older index.html or statement.
  event.waitUntil(caches.open(SHELL_CACHE)
    .then((cache) => cache.addAll(SHELL.map((u) => new Request(u, { cache: 'reload' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    // Older shells go; other caches (the backend's compile cache) are not ours.
    for (const name of await caches.keys()) {
      if (name.startsWith('attention-judge-shell-') && name !== SHELL_CACHE) await caches.delete(name);
    }
    // Keep only this build's files among those cached on first fetch.
    const keep = new Set([...SHELL, ...COMPILER].map((u) => new URL(u, self.registration.scope).href));
    const runtime = await caches.open(RUNTIME_CACHE);
    for (const req of await runtime.keys()) if (!keep.has(req.url)) await runtime.delete(req);
    // On a first visit, control the page that registered us right away.
    await self.clients.claim();
  })());
});

async function cacheFirst(event, url) {
  const hit = await caches.match(url);
  if (hit) return hit;
  const res = await fetch(event.request);
  if (res.ok) {
    const copy = res.clone();   // now: the page starts reading res at once
    event.waitUntil(caches.open(RUNTIME_CACHE).then((c) => c.put(url, copy)));
  }
  return res;
}

async function networkFirst(event, url) {
  try {
    return await fetch(event.request);
  } catch (offline) {
    const hit = await caches.match(url, { cacheName: SHELL_CACHE });
    if (hit) return hit;
    throw offline;
  }
}

const compiler = new Set(COMPILER.map((u) => new URL(u, self.registration.scope).href));

// The compiler's files as the page just downloaded them, from the HTTP
// cache (immutable files: no request is made). Here, unlike in the page's
// workers, the copy outlives a reload. A browser without an HTTP cache
// downloads them once more for it.
async function keepCompiler() {
  const cache = await caches.open(RUNTIME_CACHE);
  for (const url of compiler) if (!(await cache.match(url))) await cache.add(url);
}

self.addEventListener('message', (event) => {
  if (event.data?.type === 'keep-compiler') event.waitUntil(keepCompiler().catch(() => {}));   // offline, say: next time
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  url.search = '';
  url.hash = '';
  // The page is cached as './'; a navigation to index.html gets it too.
  const page = new URL('./', self.registration.scope).href;
  if (req.mode === 'navigate' && url.href === `${page}index.html`) url.href = page;
  if (compiler.has(url.href)) return;
  event.respondWith(IMMUTABLE.test(url.pathname) ? cacheFirst(event, url.href) : networkFirst(event, url.href));
});
