// sw.js: the offline layer. After the first visit the page, the statements,
// the wasm judge and the compiler are served from Cache Storage, so the page
// works with the network off. The build fills in the lists below.
//
// Two kinds of files:
// - content-versioned (assets/*-<hash>.*, rt/<hash>/...): never change, so
//   they are served from the cache first, and cached on first fetch. SHELL's
//   are cached when this worker installs; LAZY (the compiler's two large
//   files) when the page first fetches them through this worker, with the
//   page's own progress bar, so nothing is downloaded twice;
// - the rest (the page itself, the statements) change in place with a new
//   build: network first, the cached copy when offline. So an online page is
//   always the current build, whichever worker is still in charge.
const VERSION = '__VERSION__';
const SHELL = __SHELL__;
const LAZY = __LAZY__;
// The LAZY files' sizes as stored (decoded), to turn the decoded bytes seen
// into the share of the encoded transfer done.
const LAZY_SIZES = __LAZY_SIZES__;
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
    const keep = new Set([...SHELL, ...LAZY].map((u) => new URL(u, self.registration.scope).href));
    const runtime = await caches.open(RUNTIME_CACHE);
    for (const req of await runtime.keys()) if (!keep.has(req.url)) await runtime.delete(req);
    // On a first visit, control the page that registered us right away, so
    // its first compiler download goes through this worker into the cache.
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
    const size = LAZY_SIZES[new URL(url).href.slice(self.registration.scope.length)];
    if (size && res.body) return counted(res, url, size);
  }
  return res;
}

// The response as it is, telling the open pages how many bytes of it have
// crossed the network: Content-Length is the encoded (Brotli) size, the body
// the decoded bytes, so the count is scaled; it ends at the exact size.
function counted(res, url, size) {
  const total = Number(res.headers.get('content-length')) || size;
  let seen = 0, told = 0;
  const tell = async () => {
    const loaded = Math.min(total, Math.round((seen * total) / size));
    for (const c of await self.clients.matchAll({ type: 'window' })) c.postMessage({ type: 'download', url, loaded, total });
  };
  // Told at once, before any byte: the bar has the whole download's size
  // from the start. The counts after it can lag (this thread is busy
  // while the page compiles what arrives), and the page hides the bar
  // when its own count ends, with or without them.
  tell();
  const body = res.body.pipeThrough(new TransformStream({
    transform(chunk, out) {
      out.enqueue(chunk);
      seen += chunk.length;
      if (seen - told >= 1 << 18) {   // every 256 KiB is often enough for a bar
        told = seen;
        tell();
      }
    },
    flush: () => { seen = size; return tell(); },
  }));
  // The body is decoded already: the encoding and its length no longer apply.
  const headers = new Headers(res.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
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
  event.respondWith(IMMUTABLE.test(url.pathname) ? cacheFirst(event, url.href) : networkFirst(event, url.href));
});
