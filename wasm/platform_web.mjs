// platform_web.mjs: what the wasm pipeline needs from a browser: files by
// URL (fetch, with download progress), module Workers, and a compile cache in
// memory and in Cache Storage (bytes only: a compiled WebAssembly.Module
// cannot be stored). Browser APIs only; Node uses platform_node.mjs.

// A module Worker behind the small interface run.mjs and compiler.mjs use.
function webWorker(url) {
  const w = new Worker(url, { type: 'module' });
  let ended = false;
  return {
    post: (data, transfer = []) => w.postMessage(data, transfer),
    onMessage: (fn) => { w.onmessage = (e) => fn(e.data); },
    onError: (fn) => {
      w.onerror = (e) => { if (!ended) fn(new Error(e.message || 'the worker could not start')); };
      w.onmessageerror = () => { if (!ended) fn(new Error('a message from the worker could not be read')); };
    },
    terminate: () => { ended = true; w.terminate(); },
  };
}

// Fetch a file, reporting progress as it arrives.
async function fetchBytes(url, progress) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot fetch ${url}: ${response.status} ${response.statusText}`);
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body || !progress) return new Uint8Array(await response.arrayBuffer());
  const chunks = [];
  let loaded = 0;
  for (const reader = response.body.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    progress(loaded, total || loaded);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) { bytes.set(c, at); at += c.length; }
  return bytes;
}

// Cache Storage keeps the last KEEP compiles, the oldest dropped first, and
// no module over KEEP_BYTES (the page's memory still holds it): it outlives
// the page, and unbounded it would grow with every edit for as long as the
// learner uses the site. A typical module is 10-50 KB.
export const KEEP = 200;
export const KEEP_BYTES = 1 << 20;

// Memory first, then Cache Storage (which outlives the page), when present.
export function webCache(base) {
  const memory = new Map();
  const store = typeof caches !== 'undefined' ? caches.open('attention-judge-compile-v1').catch(() => null) : null;
  const prefix = new URL('compile-cache/', base).href;
  const url = (key, ext) => `${prefix}${key}.${ext}`;
  // The URLs Cache Storage holds, once listed: a compile of new code (an
  // edit) then skips the lookup, whose miss took 10-40 ms of an edited run.
  // Until the list is in, every key is looked up. What this page keeps is in
  // memory, so the list need not grow; an entry another tab adds later is
  // not seen, and that code is compiled again, to the same module.
  let held = null;
  // The keys held, oldest first: a Cache lists its entries in the order
  // they were put. Null until listed (nothing is dropped before).
  let order = null;
  store?.then((c) => c?.keys()).then((requests) => {
    if (!requests) return;
    held = new Set(requests.map((r) => r.url));
    order = [...new Set(requests.map((r) => r.url).filter((u) => u.startsWith(prefix))
      .map((u) => u.slice(prefix.length).replace(/\.(wasm|json)$/, '')))];
  }).catch(() => {});
  // One at a time: a drop must not meet a put of the same key halfway.
  let writing = Promise.resolve();
  const persist = (key, entry) => (writing = writing.then(() => write(key, entry)));
  async function write(key, entry) {
    const c = await store;
    if (!c || (entry.ok && entry.wasm.length > KEEP_BYTES)) return;
    try {
      if (entry.ok) await c.put(url(key, 'wasm'), new Response(entry.wasm, { headers: { 'content-type': 'application/wasm' } }));
      await c.put(url(key, 'json'), new Response(JSON.stringify({ ok: entry.ok, diagnostics: entry.diagnostics, notes: entry.notes }),
        { headers: { 'content-type': 'application/json' } }));
      if (!order) return;
      order = order.filter((k) => k !== key);
      order.push(key);
      for (const old of order.splice(0, Math.max(0, order.length - KEEP))) {
        held?.delete(url(old, 'json'));
        await c.delete(url(old, 'json'));
        await c.delete(url(old, 'wasm'));
      }
    } catch {
      /* quota or private mode: the memory cache still works */
    }
  }
  return {
    async get(key) {
      if (memory.has(key)) return memory.get(key);
      if (held && !held.has(url(key, 'json'))) return null;
      const c = await store;
      if (!c) return null;
      try {
        // Both looked up at once: a reload's first verdict waits for them.
        const [meta, module] = await Promise.all([c.match(url(key, 'json')), c.match(url(key, 'wasm'))]);
        if (!meta) return null;
        const { ok, diagnostics, notes } = await meta.json();
        const wasm = ok ? module : null;
        if (ok && !wasm) return null;
        const entry = { ok, diagnostics, notes, wasm: ok ? new Uint8Array(await wasm.arrayBuffer()) : null };
        memory.set(key, entry);
        return entry;
      } catch {
        return null;
      }
    },
    // The memory copy serves this page at once; the verdict does not wait
    // for the lasting one.
    async put(key, entry) {
      memory.set(key, entry);
      persist(key, entry);
    },
  };
}

// base: where judge.wasm, learner_shim.o (build/wasm/) and the six files of
// @yowasp/clang's gen/ are served. Without it: the repository's own layout,
// relative to this module (../build/wasm/, ../node_modules/@yowasp/clang/gen/).
export function webPlatform({ base } = {}) {
  const judgeBase = base ? new URL(String(base).replace(/\/?$/, '/'), location.href) : new URL('../build/wasm/', import.meta.url);
  const clangUrl = base ? new URL('bundle.js', judgeBase).href
    : new URL('../node_modules/@yowasp/clang/gen/bundle.js', import.meta.url).href;
  return {
    readBytes: (name, progress) => fetchBytes(new URL(name, judgeBase), progress),
    clangUrl,
    // A versioned URL names the compiler: a new one misses the old cache.
    compilerVersion: clangUrl,
    cache: webCache(judgeBase),
    startRunWorker: () => webWorker(new URL('./run_worker.mjs', import.meta.url)),
    // A page judges again and again: its next run worker starts ahead, and
    // the toolchain is warmed up while the learner reads or types.
    warmRunWorker: true,
    warmToolchain: true,
    // Where a judging run's time went, as User Timing measures ("judge:
    // <phase>", in the browser's performance tools; web/bench.mjs reads them).
    phases(list) {
      for (const { name, start, end, instantiate } of list) {
        try {
          performance.measure(`judge: ${name}`, { start: start - performance.timeOrigin, end: end - performance.timeOrigin,
            detail: instantiate === undefined ? null : { instantiate } });
        } catch {
          /* a browser without User Timing level 3: nothing to show */
        }
      }
    },
    startCompileWorker: () => webWorker(new URL('./compile_worker.mjs', import.meta.url)),
  };
}
