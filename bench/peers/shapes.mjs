// shapes.mjs: the three shapes of bench/att_bench.c, their inputs and their
// FLOP and byte counts (the same formulas, so the table compares).

export const SHAPES = {
  a: { shape: 'a', T: 512, d: 512, H: 8 },       // causal MHA, projections included
  b: { shape: 'b', T: 2048, d: 768, H: 12 },
  c: { shape: 'c', S: 4096, H: 32, D: 128 },     // one decode step over a KV cache
};

// Dense counts as att_bench.c prints them: 8 T d^2 + 4 T^2 d for (a)/(b)
// (the masked half of the scores too), 4 S D H for (c); bytes: x, out and
// the four weights, or the K and V cache with q and out.
export function counts(s) {
  if (s.shape === 'c')
    return { flops: 4 * s.S * s.D * s.H, bytes: 4 * (2 * s.S * s.H * s.D + 2 * s.H * s.D) };
  return {
    flops: 8 * s.T * s.d * s.d + 4 * s.T * s.T * s.d,
    bytes: 4 * (2 * s.T * s.d + 4 * s.d * s.d),
  };
}

// scale * uniform[-1, 1) from xorshift32. Not att_bench's generator, so the
// values differ, but the ranges are its own (x in [-1, 1), weights scaled
// by 3 / sqrt(d)): the softmax is as sharp, and no peer's time depends on
// the values themselves.
function uniform(n, seed, scale) {
  const out = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s ^= s << 13; s ^= s >>> 17; s ^= s << 5;
    out[i] = scale * (((s >>> 8) - 8388608) / 8388608);   // top 24 bits: exact in float32
  }
  return out;
}

// (a)/(b): x [T, d] and wq, wk, wv, wo [d, d] (x times w, row-major);
// (c): q [H, D] and the cache k, v [S, H, D], position-major as llama2.c
// keeps it.
export function inputs(s) {
  if (s.shape === 'c') {
    const hd = s.H * s.D;
    return { q: uniform(hd, 1, 1), k: uniform(s.S * hd, 2, 1), v: uniform(s.S * hd, 3, 1) };
  }
  const dd = s.d * s.d, w = 3 / Math.sqrt(s.d);
  return {
    x: uniform(s.T * s.d, 4, 1),
    wq: uniform(dd, 5, w), wk: uniform(dd, 6, w), wv: uniform(dd, 7, w), wo: uniform(dd, 8, w),
  };
}

// The additive causal mask [T, T] of (a)/(b): 0 where query i may see key
// j <= i, -Infinity above the diagonal (every row keeps its diagonal, so no
// softmax row is all -Infinity).
export function causalMask(T) {
  const mask = new Float32Array(T * T);
  for (let i = 0; i < T; i++) mask.fill(-Infinity, i * T + i + 1, (i + 1) * T);
  return mask;
}
