// serve.mjs: the small static server behind `make serve` and the browser tests.
// It serves build/web as any static host would, plus what a good host adds:
// precompressed .br/.gz variants chosen by Accept-Encoding (the compiler is
// 105 MB raw, ~20 MB as Brotli), the right Content-Type (.wasm must be
// application/wasm for streaming compilation), and year-long immutable caching
// on the content-versioned paths (assets/, rt/<hash>/) so nothing is fetched
// twice. It is not a dev server and does no compression of its own.
import { createServer } from 'node:http';
import { createReadStream, promises as fs } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.wasm': 'application/wasm',
  '.tar': 'application/x-tar',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.c': 'text/plain; charset=utf-8',
  '.h': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

// Content-versioned paths never change, so a browser may keep them forever;
// everything else (index.html, sw.js, statements) is revalidated each time.
const IMMUTABLE = /^\/(assets|rt)\//;

async function stat(path) {
  try {
    const s = await fs.stat(path);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

// The best stored variant the client accepts: .br, then .gz, then the file.
async function pickVariant(file, acceptEncoding) {
  const accepts = (coding) => new RegExp(`\\b${coding}\\b`).test(acceptEncoding || '');
  for (const [coding, suffix] of [['br', '.br'], ['gzip', '.gz']]) {
    if (!accepts(coding)) continue;
    const s = await stat(file + suffix);
    if (s) return { path: file + suffix, stat: s, coding };
  }
  const s = await stat(file);
  return s ? { path: file, stat: s, coding: null } : null;
}

// onRequest(pathname, req), if given, sees every request: the tests count
// downloads with it.
export function handler(root, onRequest) {
  root = resolve(root);
  return async (req, res) => {
    onRequest?.(req.url.split('?')[0], req);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = normalize(join(root, pathname));
    // The variants themselves are not addressable: a client asking for x.br
    // would get Brotli bytes with no Content-Encoding to say so.
    if (!file.startsWith(root + sep) || /\.(br|gz)$/.test(file)) {
      res.writeHead(404).end();
      return;
    }
    const found = await pickVariant(file, req.headers['accept-encoding']);
    if (!found) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    const etag = `"${found.stat.size.toString(36)}-${found.stat.mtimeMs.toString(36)}"`;
    const headers = {
      'Content-Type': TYPES[extname(file)] || 'application/octet-stream',
      'Content-Length': found.stat.size,
      'Cache-Control': IMMUTABLE.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache',
      'Vary': 'Accept-Encoding',
      'ETag': etag,
      'X-Content-Type-Options': 'nosniff',
    };
    if (found.coding) headers['Content-Encoding'] = found.coding;
    if (req.headers['if-none-match'] === etag) {
      delete headers['Content-Length'];
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(found.path).pipe(res);
  };
}

// Resolves to { server, url } once listening; port 0 picks a free port.
export function serve({ root, port = 0, host = '127.0.0.1', onRequest }) {
  const server = createServer(handler(root, onRequest));
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      ok({ server, url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${server.address().port}/` });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] || 'build/web';
  const port = Number(process.env.PORT ?? 8080);
  if (!(await stat(join(root, 'index.html')))) {
    console.error(`serve: ${root}/index.html is missing (run make web first)`);
    process.exit(2);
  }
  const { url } = await serve({ root, port, host: process.env.HOST || '127.0.0.1' });
  console.log(`Serving ${root} at ${url}  (Ctrl+C stops)`);
}
