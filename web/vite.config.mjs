// vite.config.mjs: builds web/ into build/web. The wasm runtime is not bundled
// (see site.mjs); the page imports it at run time from rt/<hash>/.
import { defineConfig } from 'vite';
import { join } from 'node:path';
import { problemList, root, runtimeVersion, sitePlugin } from './site.mjs';

const version = runtimeVersion();

export default defineConfig({
  root: join(root, 'web'),
  // Relative URLs: the built site works from any folder of any static host.
  base: './',
  publicDir: false,
  logLevel: 'warn',
  define: { __RUNTIME__: JSON.stringify(`rt/${version}/`), __PROBLEMS__: JSON.stringify(await problemList()) },
  build: {
    outDir: join(root, 'build', 'web'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
  },
  plugins: [sitePlugin({ version })],
});
