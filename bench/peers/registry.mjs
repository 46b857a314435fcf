// registry.mjs: the peers by the names their RESULT lines carry: the npm
// package each one measures (its installed version goes in the note) and
// how to load it. Loading imports the package only then, so a peer that
// is missing or broken is skipped alone.
import { readFileSync } from 'node:fs';

export const PEERS = {
  'onnxruntime-node': { pkg: 'onnxruntime-node', load: async () => (await import('./ort.mjs')).loadOrtNode() },
  'onnxruntime-web': { pkg: 'onnxruntime-web', load: async () => (await import('./ort.mjs')).loadOrtWeb() },
  'tfjs-wasm': { pkg: '@tensorflow/tfjs-backend-wasm', load: async () => (await import('./tfjs.mjs')).loadTfjsWasm() },
};

// Read from the package itself: not every package exports its package.json.
export function installedVersion(pkg) {
  return JSON.parse(readFileSync(new URL(`./node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
}
