// platform_node.mjs: what the wasm pipeline needs from Node: files from the
// repository (build/wasm/, node_modules/@yowasp/clang), worker_threads, and a
// compile cache on disk. The page uses platform_web.mjs instead; the
// pipeline itself is the same.
import { Worker } from 'node:worker_threads';
import { readFile, writeFile, mkdir, rename } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// A worker_thread behind the small interface run.mjs and compiler.mjs use.
// After terminate() its exit is expected, so it is not reported as an error.
function nodeWorker(url) {
  const w = new Worker(url);
  let ended = false;
  return {
    post: (data, transfer) => w.postMessage(data, transfer),
    onMessage: (fn) => w.on('message', fn),
    onError: (fn) => {
      w.on('error', (e) => { if (!ended) fn(e); });
      w.on('exit', (code) => { if (!ended) fn(new Error(`the worker exited with status ${code}`)); });
    },
    terminate: () => { ended = true; w.terminate(); },
    ref: () => w.ref(),
    unref: () => w.unref(),
  };
}

// Compiled modules by content hash: <key>.json (verdict, diagnostics, notes)
// and <key>.wasm. Written to a temporary name and renamed, so parallel
// judges never read half a file.
function diskCache(dir) {
  return {
    async get(key) {
      try {
        const meta = JSON.parse(await readFile(join(dir, `${key}.json`), 'utf8'));
        const wasm = meta.ok ? new Uint8Array(await readFile(join(dir, `${key}.wasm`))) : null;
        return { ok: meta.ok, diagnostics: meta.diagnostics, notes: meta.notes, wasm };
      } catch {
        return null;   // not cached, or a damaged entry: compile again
      }
    },
    async put(key, entry) {
      try {
        await mkdir(dir, { recursive: true });
        const tmp = `.${process.pid}-${Math.random().toString(36).slice(2)}`;
        if (entry.ok) {
          await writeFile(join(dir, `${key}.wasm${tmp}`), entry.wasm);
          await rename(join(dir, `${key}.wasm${tmp}`), join(dir, `${key}.wasm`));
        }
        await writeFile(join(dir, `${key}.json${tmp}`), JSON.stringify({ ok: entry.ok, diagnostics: entry.diagnostics, notes: entry.notes }));
        await rename(join(dir, `${key}.json${tmp}`), join(dir, `${key}.json`));
      } catch {
        /* a cache that cannot be written only costs time */
      }
    },
  };
}

// @yowasp/clang's bundle.js, as a URL to import.
export function clangBundle() {
  try {
    return import.meta.resolve('@yowasp/clang');
  } catch {
    return pathToFileURL(join(root, 'node_modules', '@yowasp', 'clang', 'gen', 'bundle.js')).href;
  }
}

// base: the folder holding judge.wasm and learner_shim.o (build/wasm/);
// cacheDir: where compiled modules are kept ($JUDGE_WASM_CACHE, or
// build/wasm/cache/).
export function nodePlatform({ base, cacheDir } = {}) {
  const dir = base ? fileURLToPath(new URL(String(base).replace(/\/?$/, '/'), pathToFileURL(`${process.cwd()}/`)))
    : join(root, 'build', 'wasm');
  const clangUrl = clangBundle();
  const clangPkg = join(dirname(fileURLToPath(clangUrl)), '..', 'package.json');
  let compilerVersion = clangUrl;
  try { compilerVersion = JSON.parse(readFileSync(clangPkg, 'utf8')).version; } catch { /* keep the URL */ }
  const read = async (name) => {
    try {
      return await readFile(join(dir, name));
    } catch (e) {
      throw new Error(`cannot read ${join(dir, name)}: build it with \`make wasm\` (${e.code ?? e.message})`);
    }
  };
  return {
    async readBytes(name, progress) {
      const bytes = new Uint8Array(await read(name));
      progress?.(bytes.length, bytes.length);
      return bytes;
    },
    clangUrl,
    compilerVersion,
    cache: diskCache(cacheDir ?? process.env.JUDGE_WASM_CACHE ?? join(dir, 'cache')),
    startRunWorker: () => nodeWorker(new URL('./run_worker.mjs', import.meta.url)),
    startCompileWorker: () => nodeWorker(new URL('./compile_worker.mjs', import.meta.url)),
  };
}
