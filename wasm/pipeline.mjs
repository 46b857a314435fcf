// pipeline.mjs: one judging run of the wasm backend, the same in the page and
// in Node: the C judge (wasm) makes the session, @yowasp/clang compiles the
// learner's file, a run worker runs it, the C judge decides and reports. The
// page's API (api.mjs) and the Node CLI (judge.mjs) are thin layers over this.
// No Node APIs: everything platform-specific comes in `platform`
// (platform_node.mjs, platform_web.mjs).
import { loadJudgeCore } from './judge_core.mjs';
import { makeCompiler } from './compiler.mjs';
import { sourceName, withPath } from './compile.mjs';
import { runSession, runFresh, runSpeed, runWorkers, Cancelled } from './run.mjs';

// What the page needs of a problem (the C judge's list has more: params);
// web/site.mjs puts the same in the page at build time.
export function publicProblem(p) {
  const { id, slug, dir, title, difficulty, difficulty_text, prototype, starter, hints, limits, speed } = p;
  return { id, slug, dir, title, difficulty, difficulty_text, function: p.function, prototype, starter, hints, limits, speed };
}

// The report as an object, marked with the backend that judged it. The C
// judge writes the JSON; this only adds one field at its end.
export function withBackend(json) {
  return json.replace(/\}\s*$/, ',"backend":"wasm"}\n');
}

export async function createPipeline(platform, { onProgress, preload = false } = {}) {
  // The judge and the run worker's stack-guard check (wasm/guard.wat), each
  // compiled once, and the shim's object linked into every module, fetched
  // side by side (through a page's service worker each took 20-40 ms).
  const [core, guard, shimObject] = await Promise.all([
    platform.readBytes('judge.wasm', (loaded, total) => onProgress?.({ phase: 'judge', loaded, total }))
      .then(loadJudgeCore),
    platform.readBytes('guard.wasm').then((bytes) => WebAssembly.compile(bytes)),
    platform.readBytes('learner_shim.o'),
  ]);
  const compiler = makeCompiler({ ...platform, shimObject }, (p) => onProgress?.({ phase: 'compiler', ...p }));
  const workers = runWorkers(platform.startRunWorker);
  if (preload) compiler.load().catch(() => {});   // the error shows again at the first compile
  // The judging in progress: cancel() may come while it still compiles.
  let active = null;
  // Each judging of a problem with a seed starts from the same inputs and
  // expected outputs, which take the reference on every case to make (55's
  // 200 ms in Node, 66's 100 ms): made once, kept unjudged, copied.
  let blank = null;   // { slug, seed, session }
  const blankFor = (slug, seed) => {
    if (blank?.slug !== slug || blank.seed !== String(seed)) {
      blank?.session.free();
      blank = null;
      blank = { slug, seed: String(seed), session: core.session(slug, seed) };
    }
    return blank.session;
  };

  const find = (key) => core.find(key);
  const need = (key) => {
    const p = find(key);
    if (!p) throw new Error(`no problem '${key}'`);
    return p;
  };
  // Languages by name ('en', 'zh'), as the C judge knows them.
  const langCode = (name) => {
    const code = core.lang(name);
    if (code === null) throw new Error(`no language '${name}' (en or zh)`);
    return code;
  };
  const langName = (code) => (code === core.lang('zh') ? 'zh' : 'en');
  // A message of messages.json in `lang`, its %s and %d filled in order.
  const say = (name, lang, ...args) => {
    let i = 0;
    return core.msgText(name, langCode(lang)).replace(/%([sd%])/g, (all, c) => (c === '%' ? '%' : String(args[i++] ?? '')));
  };

  return {
    problems: core.problems.map(publicProblem),
    // `judge list` and the usage, written by the C judge (environment: the
    // message naming this CLI's variables).
    listText: (lang = 'en') => core.listText(langCode(lang)),
    usage: (environment, lang = 'en') => core.usage(environment, langCode(lang)),
    // Whether 'en' or 'zh' is a language of the judge's; the default from
    // LC_ALL and LANG as the native CLI picks it.
    isLang: (name) => core.lang(name) !== null,
    langFromEnv: (lcAll, lang) => langName(core.langFromEnv(lcAll, lang)),
    defaultSeed: core.defaultSeed,
    find,
    // The CLI's own sentences, hints, version and completion scripts, and a
    // class's table: all the C judge's (messages.json, report.c, class.c).
    msgText: (name, lang = 'en') => core.msgText(name, langCode(lang)),
    say,
    hintText: (key, k, lang = 'en') => core.hintText(need(key).slug, k, langCode(lang)),
    version: core.version,
    completion: (shell) => core.completion(shell),
    makeClass: (key, n, lang = 'en') => core.class(need(key).slug, n, langCode(lang)),

    // Compile only (the editor's "check"): { ok, diagnostics, messages, cached, ms },
    // the judge's own lines among them in `lang`.
    async compile(key, source, { file, color, lang = 'en' } = {}) {
      const p = need(key);
      const name = sourceName(file);
      compiler.busy(true);
      let c;
      try {
        c = await compiler.compile(p, source, { name, color, say: (m, ...a) => say(m, lang, ...a) });
      } finally {
        compiler.busy(false);
      }
      platform.phases?.(c.phases);
      return { ok: c.ok, diagnostics: withPath(c.diagnostics, name, file), messages: c.messages,
        cached: c.cached, ms: c.ms };
    },

    // Judge `source`: { json, text, verdict, compile } where json and text
    // are the C judge's reports, in `lang` ('en' or 'zh'). seed: a decimal
    // string or BigInt. keep(session, json): called with the finished
    // session before it is freed (a class copies its row).
    // speed: also the speed tier (the report's "speed" object, judge.h).
    async judge(key, source, { seed = core.defaultSeed, file, color = false, lang = 'en', keep, speed } = {}) {
      const p = need(key);
      const code = langCode(lang);
      const session = core.copy(blankFor(p.slug, seed));
      const me = { cancelled: false, run: null };
      active = me;
      const phases = [];
      compiler.busy(true);
      try {
        session.setLang(code);
        if (file) session.setFile(file);
        if (speed) session.wantSpeed();
        const name = sourceName(file);
        const c = await compiler.compile(p, source, { name, color, say: (m, ...a) => say(m, lang, ...a) });
        phases.push(...c.phases);
        if (me.cancelled) throw new Cancelled();
        session.compiled(c.ok, withPath(c.diagnostics, name, file));
        if (c.ok) {
          me.run = runSession({ session, problem: p, wasm: c.wasm, guard, startWorker: workers.take, phases });
          await me.run.done;
          if (!me.cancelled) {
            me.run = runFresh({ session, problem: p, wasm: c.wasm, guard, startWorker: workers.take, phases });
            await me.run.done;
          }
        }
        // After a CE too: then no speed run, and the report says why.
        if (speed && !me.cancelled) {
          me.run = runSpeed({ session, problem: p, wasm: c.wasm, guard, startWorker: (pages) => workers.take(pages, false), phases });
          await me.run.done;
        }
        const start = performance.timeOrigin + performance.now();
        const json = withBackend(session.json());
        keep?.(session, json);
        const text = session.text(color);
        phases.push({ name: 'report', start, end: performance.timeOrigin + performance.now() });
        platform.phases?.(phases);
        return { json, text, verdict: session.verdict,
          compile: { cached: c.cached, ms: c.ms, messages: c.messages } };
      } finally {
        compiler.busy(false, true);
        if (active === me) active = null;
        session.free();
        // The next run's worker starts now, while the learner reads this one.
        if (platform.warmRunWorker) workers.warm();
      }
    },

    // The first run's worker, and the toolchain, fetched now if it is not
    // here or on its way (toolchain: false leaves it for later); key: the
    // problem the learner has open, whose compile steps are asked for then;
    // warmUp: a source to warm the compiler up on then (compiler.ahead).
    prepare({ toolchain = true, key, warmUp } = {}) {
      if (platform.warmRunWorker) workers.warm();
      if (!toolchain) return Promise.resolve();
      const loading = compiler.load();
      if (key !== undefined) {
        const p = need(key);
        compiler.ahead(p, { warmUp });
        // Its first judging's session too, once the toolchain is here: the
        // compile before it takes seconds then, or the learner is reading.
        loading.then(() => blankFor(p.slug, core.defaultSeed)).catch(() => {});
      }
      return loading;
    },

    // Stop the run in progress: its worker is terminated, judge() rejects;
    // a compile under way (of a judging, or asked for alone) is stopped too.
    cancel() {
      compiler.cancel(new Cancelled());
      if (!active) return;
      active.cancelled = true;
      active.run?.cancel();
    },
    close() {
      this.cancel();
      workers.close();
      compiler.close();
      blank?.session.free();
      blank = null;
    },
  };
}
