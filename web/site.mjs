// site.mjs: the build steps Vite does not know about, run after it writes the
// page into build/web:
//   1. copy the wasm runtime (the page's wasm/api.mjs with its modules, the
//      Emscripten judge from build/wasm/, the six @yowasp/clang files) into
//      rt/<hash>/, a path named by the hash of its contents so it can be
//      cached forever and a new build never serves stale files;
//   2. render each problem's statements (problems/<dir>/statement.<lang>.md
//      into statement.<lang>.html, statement-html.mjs) and copy its
//      reference solution (problems/<dir>/solution.c);
//   3. store Brotli and gzip variants beside every compressible file, so the
//      server sends the compiler as ~20 MB instead of 105 MB;
//   4. write sw.js, the service worker, with the list of files it caches.
// It does not bundle the runtime: bundle.js finds its .wasm files through
// import.meta.url, which a bundler would rewrite.
import { createHash } from 'node:crypto';
import { promises as fs, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { statementHtml } from './statement-html.mjs';

export const root = join(dirname(new URL(import.meta.url).pathname), '..');
const CACHE = join(root, 'build', 'web-compress');

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]);
}

// What goes under rt/<hash>/: [source file, path inside rt/<hash>/]. The
// layout is what wasm/api.mjs expects of `base`: the judge (build/wasm/,
// its top level: judge.wasm, the shim's object) and @yowasp/clang's gen/ side by
// side in base, the wasm/ modules in base/wasm/.
export function runtimeFiles() {
  const list = [];
  const top = (dir) => existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name).sort() : [];
  for (const f of top(join(root, 'wasm'))) {
    if (f.endsWith('.mjs')) list.push([join(root, 'wasm', f), `wasm/${f}`]);
  }
  for (const f of top(join(root, 'build', 'wasm'))) {
    if (!/\.(d|tmp)$/.test(f)) list.push([join(root, 'build', 'wasm', f), f]);
  }
  const clang = join(root, 'node_modules', '@yowasp', 'clang', 'gen');
  for (const f of top(clang)) list.push([join(clang, f), f]);
  return list;
}

// One hash over every runtime file's path and bytes: the rt/ folder's name.
export function runtimeVersion(list = runtimeFiles()) {
  const h = createHash('sha256');
  for (const [src, dest] of list) h.update(dest).update('\0').update(readFileSync(src)).update('\0');
  return h.digest('hex').slice(0, 12);
}

// What the page reads of each problem's folder: the statements (rendered to
// HTML here, statement.<lang>.md to statement.<lang>.html), and the
// reference solution it shows after an accepted run (or on request).
export function problemFiles() {
  const dir = join(root, 'problems');
  const out = [];
  for (const p of existsSync(dir) ? readdirSync(dir).sort() : []) {
    for (const name of ['statement.en.md', 'statement.zh.md', 'solution.c']) {
      const f = join(dir, p, name);
      if (existsSync(f)) out.push([f, `problems/${p}/${name.replace(/\.md$/, '.html')}`]);
    }
  }
  return out;
}

const COMPRESSIBLE = /\.(html|m?js|css|json|md|wasm|tar|svg|txt|c|h)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
// Brotli quality 9 packs the compiler to ~20 MB in ~25 s; 11 saves ~3 MB more
// but takes minutes, so it is for deploys (WEB_BROTLI=11), not every build.
const QUALITY = Number(process.env.WEB_BROTLI || 9);

// Compressed variants are cached by content hash under build/web-compress,
// so the compiler is compressed once, not on every build.
async function compress(file) {
  const bytes = await fs.readFile(file);
  if (bytes.length < 1024) return;
  const key = createHash('sha256').update(bytes).digest('hex');
  for (const [suffix, make] of [
    [`.br${QUALITY}`, () => brotli(bytes, { params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: QUALITY,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })],
    ['.gz', () => gzip(bytes, { level: 9 })],
  ]) {
    const cached = join(CACHE, key + suffix);
    if (!existsSync(cached)) {
      const packed = await make();
      await fs.writeFile(cached + '.tmp', packed);
      await fs.rename(cached + '.tmp', cached);
    }
    const out = file + suffix.replace(/\d+$/, '');
    // A variant that saves nothing would only cost the client a decode.
    if (statSync(cached).size < bytes.length * 0.95) await copy(cached, out);
  }
}

// A hard link where it can (the compiler is 105 MB, copied on every build
// otherwise); a copy across file systems.
async function copy(src, dest) {
  await fs.mkdir(dirname(dest), { recursive: true });
  await fs.rm(dest, { force: true });
  await fs.link(src, dest).catch(() => fs.copyFile(src, dest));
}

// The problems as judge.problems lists them (wasm/api.mjs), read from the
// judge itself (build/wasm/judge.wasm): the page has them in its bundle, so
// it draws a problem, the learner's code in its editor, before the judge
// has loaded (~120 ms of a reload).
export async function problemList() {
  const { loadJudgeCore } = await import('../wasm/judge_core.mjs');
  const { publicProblem } = await import('../wasm/pipeline.mjs');
  const core = await loadJudgeCore(readFileSync(join(root, 'build', 'wasm', 'judge.wasm')));
  return core.problems.map(publicProblem);
}

// The wasm/ modules `name` imports statically (itself first), each once.
function staticImports(name, seen = new Set()) {
  if (!seen.has(name)) {
    seen.add(name);
    const text = readFileSync(join(root, 'wasm', name), 'utf8');
    for (const m of text.matchAll(/^import [^'"]*from '\.\/([\w.]+\.mjs)';$/gm)) staticImports(m[1], seen);
  }
  return seen;
}

// The Vite plugin: runs once the page is written.
export function sitePlugin({ version }) {
  let outDir;
  return {
    name: 'attention-judge-site',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    // The judge's modules (api.mjs and what it imports, and the page's
    // platform, which it imports at run time) are fetched as the page is
    // parsed, not one import level at a time once the bundle has run.
    transformIndexHtml() {
      const modules = staticImports('platform_web.mjs', staticImports('api.mjs'));
      return [...modules].map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', href: `rt/${version}/wasm/${f}` }, injectTo: 'head' }));
    },
    async closeBundle() {
      const list = runtimeFiles();
      for (const [src, dest] of list) await copy(src, join(outDir, 'rt', version, dest));
      for (const [src, dest] of problemFiles()) {
        if (!src.endsWith('.md')) await copy(src, join(outDir, dest));
        else {
          await fs.mkdir(dirname(join(outDir, dest)), { recursive: true });
          await fs.writeFile(join(outDir, dest), statementHtml(readFileSync(src, 'utf8')));
        }
      }

      await fs.mkdir(CACHE, { recursive: true });
      const all = files(outDir).filter((f) => !/\.(br|gz)$/.test(f));
      // Two at a time: zlib runs on the thread pool, and the machine has two cores.
      const todo = all.filter((f) => COMPRESSIBLE.test(f));
      await Promise.all([0, 1].map(async () => {
        for (let f; (f = todo.shift());) await compress(f);
      }));

      // sw.js: the shell is cached when the worker installs. The compiler's
      // files (@yowasp/clang's, but bundle.js, which is imported) are fetched
      // by the compile worker itself, then kept by the service worker.
      // KaTeX's CSS lists woff2, woff and ttf fonts; browsers that run this
      // page all take woff2, so the older formats are not cached for offline.
      const urls = all.map((f) => relative(outDir, f).split(sep).join('/'))
        .filter((u) => u !== 'sw.js' && !/\.(woff|ttf)$/.test(u)).sort();
      const compiler = new Set(list.filter(([src, dest]) => src.includes(join('@yowasp', 'clang')) && dest !== 'bundle.js')
        .map(([, dest]) => `rt/${version}/${dest}`));
      const hash = createHash('sha256');
      for (const u of urls) hash.update(u).update(readFileSync(join(outDir, u)));
      const template = readFileSync(join(root, 'web', 'sw.js'), 'utf8');
      const sw = template
        .replace('__VERSION__', hash.digest('hex').slice(0, 12))
        .replace('__SHELL__', JSON.stringify(['./', ...urls.filter((u) => !compiler.has(u))], null, 1))
        .replace('__COMPILER__', JSON.stringify(urls.filter((u) => compiler.has(u)), null, 1));
      await fs.writeFile(join(outDir, 'sw.js'), sw);
      await compress(join(outDir, 'sw.js'));
    },
  };
}
