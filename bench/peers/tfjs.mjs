// tfjs.mjs: tfjs-core on its wasm backend (XNNPACK) as a peer, one thread.
// Inputs and weights are tensors made once; the timed run is the op chain
// and dataSync() of its output.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { causalMask } from './shapes.mjs';

export async function loadTfjsWasm() {
  // Both by require, so the backend registers with this same tfjs-core.
  const require = createRequire(import.meta.url);
  const tf = require('@tensorflow/tfjs-core');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  wasm.setThreadsCount(1);
  // Under Node the backend does not find its .wasm files by itself.
  wasm.setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`);
  if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs wasm backend did not initialise');
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  return {
    open(s, inp) {
      const [notes, forward] = s.shape === 'c' ? decode(tf, s, inp) : mha(tf, s, inp);
      return {
        notes: [simd ? 'simd' : 'no-simd', ...notes],
        run() {
          const y = tf.tidy(forward);
          const out = y.dataSync();
          y.dispose();
          return out;
        },
      };
    },
  };
}

// (a)/(b) with one 2-D matMul per head: tfjs-wasm's batched (3-D) matMul is
// several times slower here than its 2-D XNNPACK path.
function mha(tf, s, inp) {
  const { T, d, H } = s, hd = d / H;
  const x = tf.tensor2d(inp.x, [T, d]);
  const [wq, wk, wv, wo] = [inp.wq, inp.wk, inp.wv, inp.wo].map((w) => tf.tensor2d(w, [d, d]));
  const mask = tf.tensor2d(causalMask(T), [T, T]), scale = tf.scalar(1 / Math.sqrt(hd));
  const forward = () => {
    const q = tf.matMul(x, wq), v = tf.matMul(x, wv);
    // K transposed once for all heads: matMul's transposeB is slower than this.
    const kT = tf.transpose(tf.matMul(x, wk));   // [d, T]
    const heads = [];
    for (let h = 0; h < H; h++) {
      const scores = tf.matMul(tf.slice(q, [0, h * hd], [T, hd]), tf.slice(kT, [h * hd, 0], [hd, T]));
      const p = tf.softmax(tf.add(tf.mul(scores, scale), mask));
      heads.push(tf.matMul(p, tf.slice(v, [0, h * hd], [T, hd])));
    }
    return tf.matMul(tf.concat(heads, 1), wo);
  };
  return [['per-head-2D-matMul'], forward];
}

// (c) on a cache laid out once, before timing, as tfjs's batched matMul
// wants it (K [H, D, S], V [H, S, D]): transposing the [S, H, D] cache at
// every step more than doubles its time. The note says so.
function decode(tf, s, inp) {
  const { S, H, D } = s;
  const kHDS = new Float32Array(S * H * D), vHSD = new Float32Array(S * H * D);
  for (let j = 0; j < S; j++)
    for (let h = 0; h < H; h++)
      for (let e = 0; e < D; e++) {
        const at = (j * H + h) * D + e;
        kHDS[(h * D + e) * S + j] = inp.k[at];
        vHSD[(h * S + j) * D + e] = inp.v[at];
      }
  const q = tf.tensor3d(inp.q, [H, 1, D]), k = tf.tensor3d(kHDS, [H, D, S]), v = tf.tensor3d(vHSD, [H, S, D]);
  const scale = tf.scalar(1 / Math.sqrt(D));
  const forward = () => tf.matMul(tf.softmax(tf.mul(tf.matMul(q, k), scale)), v);
  return [['cache=K[H,D,S]+V[H,S,D]-laid-out-before-timing'], forward];
}
