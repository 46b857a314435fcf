// reference.mjs: plain float64 attention to check each peer's output
// against, and the element-wise comparison of core/att_compare.c.

// a [n, k] times b [k, m], row-major, in float64.
function matmul(a, b, n, k, m) {
  const c = new Float64Array(n * m);
  for (let i = 0; i < n; i++)
    for (let p = 0; p < k; p++) {
      const aip = a[i * k + p];
      for (let j = 0; j < m; j++) c[i * m + j] += aip * b[p * m + j];
    }
  return c;
}

// Softmax of scores[0..n) times the rows of v (stride `stride`, from
// `offset`), added into out[outOffset..+width).
function softmaxTimes(scores, n, v, stride, offset, out, outOffset, width) {
  let max = -Infinity, sum = 0;
  for (let j = 0; j < n; j++) max = Math.max(max, scores[j]);
  for (let j = 0; j < n; j++) { scores[j] = Math.exp(scores[j] - max); sum += scores[j]; }
  for (let j = 0; j < n; j++) {
    const p = scores[j] / sum;
    for (let e = 0; e < width; e++) out[outOffset + e] += p * v[j * stride + offset + e];
  }
}

// Causal MHA on the first `rows` tokens only: causal attention makes their
// outputs independent of the later tokens, so they are the peer's first
// rows (as bench/att_bench.c checks the core). Returns [rows, d].
export function mhaReference(s, inp, rows) {
  const { d, H } = s, hd = d / H, scale = 1 / Math.sqrt(hd);
  const x = inp.x.subarray(0, rows * d);
  const q = matmul(x, inp.wq, rows, d, d), k = matmul(x, inp.wk, rows, d, d), v = matmul(x, inp.wv, rows, d, d);
  const merged = new Float64Array(rows * d), scores = new Float64Array(rows);
  for (let t = 0; t < rows; t++)
    for (let h = 0; h < H; h++) {
      for (let j = 0; j <= t; j++) {
        let dot = 0;
        for (let e = 0; e < hd; e++) dot += q[t * d + h * hd + e] * k[j * d + h * hd + e];
        scores[j] = dot * scale;
      }
      softmaxTimes(scores, t + 1, v, d, h * hd, merged, t * d + h * hd, hd);
    }
  return matmul(merged, inp.wo, rows, d, d);
}

// One decode step: out [H, D], the cache [S, H, D].
export function decodeReference(s, inp) {
  const { S, H, D } = s, scale = 1 / Math.sqrt(D);
  const out = new Float64Array(H * D), scores = new Float64Array(S);
  for (let h = 0; h < H; h++) {
    for (let j = 0; j < S; j++) {
      let dot = 0;
      for (let e = 0; e < D; e++) dot += inp.q[h * D + e] * inp.k[(j * H + h) * D + e];
      scores[j] = dot * scale;
    }
    softmaxTimes(scores, S, inp.v, H * D, h * D, out, h * D, D);
  }
  return out;
}

// As att_compare: element i is bad unless |got - ref| <= atol + rtol |ref|
// (so a NaN is bad). Compares ref.length elements from the start of got.
export function compare(got, ref, atol, rtol) {
  let bad = 0, maxAbs = 0;
  for (let i = 0; i < ref.length; i++) {
    const err = Math.abs(got[i] - ref[i]);
    if (!(err <= atol + rtol * Math.abs(ref[i]))) bad++;
    if (Number.isFinite(err)) maxAbs = Math.max(maxAbs, err);
  }
  return { bad, maxAbs };
}
