// ort.mjs: onnxruntime as a peer, natively (onnxruntime-node: MLAS) and as
// wasm (onnxruntime-web's wasm backend under this Node), one thread each,
// on the graphs of graphs.mjs. The timed run is session.run on feeds made
// beforehand.
import { createRequire } from 'node:module';
import { decodeModel, mhaModel } from './graphs.mjs';

const sessionOptions = { graphOptimizationLevel: 'all', executionMode: 'sequential' };

export async function loadOrtNode() {
  const ort = createRequire(import.meta.url)('onnxruntime-node');
  return ortPeer(ort, { ...sessionOptions, executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1 });
}

export async function loadOrtWeb() {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;   // no pool of worker threads
  ort.env.wasm.simd = true;
  ort.env.wasm.proxy = false;    // run in this thread, so no worker hop is timed
  return ortPeer(ort, { ...sessionOptions, executionProviders: ['wasm'] });
}

function ortPeer(ort, options) {
  return {
    async open(s, inp) {
      const tensor = (data, dims) => new ort.Tensor('float32', data, dims);
      // onnxruntime-web copies each input into its wasm heap at every run
      // (the 128 MiB cache of (c) too); that is part of its run as an
      // application sees it, so it stays in the timing.
      const [model, feeds, notes] = s.shape === 'c'
        ? [decodeModel(s),
          { q: tensor(inp.q, [s.H, 1, s.D]), K: tensor(inp.k, [s.S, s.H, s.D]), V: tensor(inp.v, [s.S, s.H, s.D]) },
          ['cache=[S,H,D]+Transpose-in-graph']]
        : [mhaModel(s, inp), { X: tensor(inp.x, [1, s.T, s.d]) }, []];
      const session = await ort.InferenceSession.create(model, options);
      return { notes, run: async () => (await session.run(feeds)).Y.data };
    },
  };
}
