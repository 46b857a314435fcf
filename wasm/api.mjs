// api.mjs: the wasm judge for the page (and for Node), one small ES module.
//
//   import { createJudge } from './wasm/api.mjs';
//   const judge = await createJudge({ base, onProgress });
//
// createJudge({ base, onProgress })
//   base: URL of the folder serving build/wasm/judge.wasm, build/wasm/learner_shim.o
//         and the six files of node_modules/@yowasp/clang/gen/ (bundle.js,
//         llvm.core.wasm, llvm.core2.wasm, llvm.core3.wasm, llvm.core4.wasm,
//         llvm-resources.tar). Without it, in a browser: the repository's layout
//         relative to this module; in Node: the repository's own files.
//   onProgress({ phase: 'compiler' | 'judge', loaded, total, cached }): the first
//         downloads (judge.wasm, then the ~105 MB toolchain). The toolchain's in
//         bytes crossing the network (its Brotli sizes, where the server sends those),
//         or, when none did, in bytes read, with cached: true if from a cache. In a
//         browser they are read from the HTTP cache, then from Cache Storage (where
//         the page may keep them), then from the network, never through a service
//         worker (compile_worker.mjs).
//   preload: start fetching the toolchain at once (default: in a browser); with
//         false it comes at judge.prepare() or the first compile.
// returns judge:
//   judge.problems   [{ id, slug, dir, title: { en, zh }, difficulty, difficulty_text: { en, zh }, function,
//                      prototype, starter, limits: { time_ms, memory_mb, output_kb } }]
//   await judge.compile(key, source, { lang })
//                    { ok, diagnostics, messages: [{ line, column, severity, message }],
//                      cached, ms }; diagnostics is clang's text, then the judge's own
//                    lines in lang ('en', the default, or 'zh'); line = column = 0
//                    for messages with no position (link errors, the judge's own).
//   await judge.run(key, source, { seed, lang, speed })
//                    the report object, the same shape as `./judge --json` (verdict,
//                    cases[] with time_ms and ref_ms, mistake, mask, compile, output)
//                    plus "backend": "wasm". seed: a number, BigInt or decimal
//                    string (default: the judge's fixed seed). lang: 'en' (default)
//                    or 'zh', the language of the report's texts. speed: true to
//                    add the speed tier, as `./judge --json --speed`: the report's
//                    "speed" object (see wasm/README.md), run only once every case
//                    passes. Rejects only for a fault of the judge's own, or when
//                    cancelled.
//   judge.find(key)  the one of judge.problems that key names (as the C judge looks
//                    it up: id, slug or folder), or null.
//   judge.prepare({ toolchain, key, warmUp })  start the first run's worker and fetching
//                    the toolchain if it is not already here or on its way (never twice);
//                    resolves when it is ready. toolchain: false starts only the worker.
//                    key: the problem the learner has open; once the toolchain is here,
//                    the driver is asked for the steps of its compile, ahead of the first,
//                    and its hidden inputs and references are made (default seed).
//                    warmUp: a source for that problem like the learner's (or a promise
//                    of one), compiled then, its output dropped, if nothing has been yet,
//                    and repeated while the judge is idle: in a browser clang gets fast
//                    only as it runs (wasm/README.md).
//   judge.cancel()   stop a run in progress (its worker is terminated; run() rejects
//                    with an error named 'Cancelled'), and a compile under way (the
//                    compile worker is terminated, with its toolchain; compile() and
//                    run() reject alike).
//   judge.close()    end the workers (Node: lets the process exit at once).
// key is a problem's id (49) or slug ('causal-mha'). Nothing here needs a
// server beyond static files, nor SharedArrayBuffer (no COOP/COEP needed).
import { createPipeline } from './pipeline.mjs';

const inNode = typeof process === 'object' && process.release?.name === 'node';

export async function createJudge({ base, onProgress, preload } = {}) {
  // The Node platform is imported only in Node: the page never loads it.
  const platform = inNode
    ? (await import('./platform_node.mjs')).nodePlatform({ base })
    : (await import('./platform_web.mjs')).webPlatform({ base });
  const p = await createPipeline(platform, { onProgress, preload: preload ?? !inNode });
  return {
    problems: p.problems,
    // One of judge.problems by any key the C judge takes, or null.
    find: (key) => {
      const q = p.find(key);
      return q ? p.problems.find((x) => x.id === q.id) : null;
    },
    prepare: (options) => p.prepare(options),
    compile: (key, source, { lang } = {}) => p.compile(key, source, { lang }),
    async run(key, source, { seed, lang, speed } = {}) {
      const r = await p.judge(key, source, {
        seed: seed === undefined ? undefined : BigInt(seed).toString(), lang, speed: Boolean(speed),
      });
      return JSON.parse(r.json);
    },
    cancel: () => p.cancel(),
    close: () => p.close(),
  };
}
