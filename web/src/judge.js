// judge.js: loads the wasm backend (wasm/api.mjs, built and served under
// rt/<hash>/) once per page. The page does no judging, compiling or running
// of its own: it calls this API and draws what comes back.
/* global __RUNTIME__ */

let loading = null;
let loaded = null;   // the judge, once loading is done

// The offline layer (sw.js). Nothing waits for it: the compiler, the one
// large download, is fetched around it, and once here it is kept for offline
// use (keepCompiler), so a first visit's download starts before the worker is
// even installed. Its first install fetches and stores the page's own files
// (~7 MB), about a second of CPU, which a page that loads the compiler at
// once shared with its first verdict: make bench-web's cold run took
// 9.6-12.8 s so, against 8.2-9.2 s with the install left for later (four
// runs each, alternating). Such a page (later) registers it once no Run has
// been going on for OFFLINE_QUIET_MS (offlineQuiet), and at the latest
// OFFLINE_LATEST_MS on; any other at once.
const OFFLINE_QUIET_MS = 5000;
const OFFLINE_LATEST_MS = 60000;
let asked = false, quietTimer = null, latestTimer = null;
function register() {
  if (asked) return;
  asked = true;
  clearTimeout(quietTimer);
  clearTimeout(latestTimer);
  navigator.serviceWorker?.register('./sw.js').catch(() => {
    /* e.g. a file:// page or a browser that refuses: work online only */
  });
}
export function offlineLayer({ later = false } = {}) {
  if (!later) return register();
  offlineQuiet(true);
  latestTimer ??= setTimeout(register, OFFLINE_LATEST_MS);
}

// The page is quiet from now on (a Run or a speed run has ended), or busy
// (one began).
export function offlineQuiet(quiet) {
  if (asked) return;
  clearTimeout(quietTimer);
  if (quiet) quietTimer = setTimeout(register, OFFLINE_QUIET_MS);
}

// The compiler has loaded (downloaded, or from a cache): the worker copies
// what it does not hold yet, once it is active.
function keepCompiler() {
  navigator.serviceWorker?.ready.then((r) => r.active?.postMessage({ type: 'keep-compiler' }), () => {});
}

// Resolves to the judge: { problems, compile, run, cancel }.
export function loadJudge(onProgress) {
  loading ??= (async () => {
    const base = new URL(__RUNTIME__, location.href).href;
    const t1 = performance.now();
    const { createJudge } = await import(/* @vite-ignore */ `${base}wasm/api.mjs`);
    // Where a first verdict's time goes (web/bench.mjs prints these).
    performance.measure('judge: api import', { start: t1 });
    // The compiler (~20 MB on the wire) is fetched when a problem is opened
    // (problemView calls prepare()), not for the list: a first visit to a
    // problem keeps it for offline use even before the learner presses Run.
    const t2 = performance.now();
    loaded = await createJudge({ base, preload: false, onProgress: (p) => {
      if (p.phase === 'compiler' && p.loaded >= p.total) keepCompiler();
      onProgress?.(p);
    } });
    performance.measure('judge: create', { start: t2 });
    return loaded;
  })().catch((e) => {
    loading = null;   // let the next attempt try again (e.g. back online)
    throw e;
  });
  return loading;
}

// The judge for a view drawn before it has loaded: a call waits for the
// load, then goes to the judge. Nothing runs before it has loaded, so
// cancel() has nothing to stop until then.
export function lazyJudge(onProgress) {
  const call = (name) => async (...args) => (await loadJudge(onProgress))[name](...args);
  return { prepare: call('prepare'), compile: call('compile'), run: call('run'), cancel: () => loaded?.cancel() };
}

// A speed run (the problem's speed cases, after its correctness cases): the
// report with its `speed` part. The option's name is the wasm API's
// (wasm/README.md), written here only.
export function measureSpeed(judge, key, source, options = {}) {
  return judge.run(key, source, { ...options, speed: true });
}
