// judge.js: loads the wasm backend (wasm/api.mjs, built and served under
// rt/<hash>/) once per page. The page does no judging, compiling or running
// of its own: it calls this API and draws what comes back.
/* global __RUNTIME__ */

let loading = null;
let loaded = null;   // the judge, once loading is done

// The service worker must control the page before the compiler is fetched,
// or the first download would bypass it and not be kept for offline use.
// A page the worker already controls (every visit after the first) does not
// wait for register(), which only looks for a newer sw.js (~100 ms of a
// reload's first verdict).
async function offlineLayer() {
  if (!('serviceWorker' in navigator)) return;
  const registered = navigator.serviceWorker.register('./sw.js');
  if (navigator.serviceWorker.controller) {
    registered.catch(() => {});
    return;
  }
  try {
    await registered;
  } catch {
    return;   // e.g. a file:// page or a browser that refuses: work online only
  }
  if (navigator.serviceWorker.controller) return;
  await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true });
    setTimeout(resolve, 15000);   // never block the judge on the offline layer
  });
}

// Resolves to the judge: { problems, compile, run, cancel }. Only what may
// fetch the compiler (prepare, compile, run) waits for the service worker:
// on a first visit its install (~1.5 s) no longer holds the page back.
export function loadJudge(onProgress) {
  loading ??= (async () => {
    const t0 = performance.now();
    const offline = offlineLayer().then(() => {
      // Where a first verdict's time goes (web/bench.mjs prints these).
      performance.measure('judge: service worker', { start: t0 });
    });
    const base = new URL(__RUNTIME__, location.href).href;
    const t1 = performance.now();
    const { createJudge } = await import(/* @vite-ignore */ `${base}wasm/api.mjs`);
    performance.measure('judge: api import', { start: t1 });
    // The compiler (~20 MB on the wire) is fetched when a problem is opened
    // (problemView calls prepare()), not for the list: a first visit to a
    // problem keeps it for offline use even before the learner presses Run.
    const t2 = performance.now();
    const judge = await createJudge({ base, onProgress, preload: false });
    performance.measure('judge: create', { start: t2 });
    loaded = {
      ...judge,
      // toolchain: false starts only the run worker, which fetches nothing.
      prepare: async (options) => {
        if (options?.toolchain !== false) await offline;
        return judge.prepare(options);
      },
      compile: async (...args) => {
        await offline;
        return judge.compile(...args);
      },
      run: async (...args) => {
        await offline;
        return judge.run(...args);
      },
    };
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
