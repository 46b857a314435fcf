// graphs.mjs: the ONNX graphs of the shapes, in plain ops (MatMul, Reshape,
// Transpose, Mul, Add, Softmax) as an exported transformer layer has them:
// the full T x T scores with an additive causal mask. The weights are
// initializers; the one input is X (MHA) or q, K, V (decode); the output Y.
import { FLOAT, INT64, initializer, model, node, tensorInfo } from './onnx.mjs';
import { causalMask } from './shapes.mjs';

const int64s = (xs) => BigInt64Array.from(xs, BigInt);
const scalar = (name, x) => initializer(name, [], FLOAT, Float32Array.of(x));

// (a)/(b): Y [1, T, d] = causal MHA of X [1, T, d].
export function mhaModel(s, w) {
  const { T, d, H } = s, hd = d / H;
  return model({
    initializers: [
      initializer('Wq', [d, d], FLOAT, w.wq), initializer('Wk', [d, d], FLOAT, w.wk),
      initializer('Wv', [d, d], FLOAT, w.wv), initializer('Wo', [d, d], FLOAT, w.wo),
      initializer('mask', [T, T], FLOAT, causalMask(T)),
      scalar('scale', 1 / Math.sqrt(hd)),
      initializer('heads', [4], INT64, int64s([1, T, H, hd])),
      initializer('merged', [3], INT64, int64s([1, T, d])),
    ],
    nodes: [
      node('MatMul', ['X', 'Wq'], ['q']), node('MatMul', ['X', 'Wk'], ['k']), node('MatMul', ['X', 'Wv'], ['v']),
      node('Reshape', ['q', 'heads'], ['q4']), node('Reshape', ['k', 'heads'], ['k4']), node('Reshape', ['v', 'heads'], ['v4']),
      node('Transpose', ['q4'], ['qh'], { perm: [0, 2, 1, 3] }),   // [1, H, T, hd]
      node('Transpose', ['k4'], ['khT'], { perm: [0, 2, 3, 1] }),  // [1, H, hd, T]
      node('Transpose', ['v4'], ['vh'], { perm: [0, 2, 1, 3] }),   // [1, H, T, hd]
      node('MatMul', ['qh', 'khT'], ['scores']),                   // [1, H, T, T]
      node('Mul', ['scores', 'scale'], ['scaled']),
      node('Add', ['scaled', 'mask'], ['masked']),
      node('Softmax', ['masked'], ['p'], { axis: -1 }),
      node('MatMul', ['p', 'vh'], ['oh']),                         // [1, H, T, hd]
      node('Transpose', ['oh'], ['o4'], { perm: [0, 2, 1, 3] }),   // [1, T, H, hd]
      node('Reshape', ['o4', 'merged'], ['o']),
      node('MatMul', ['o', 'Wo'], ['Y']),
    ],
    inputs: [tensorInfo('X', FLOAT, [1, T, d])],
    outputs: [tensorInfo('Y', FLOAT, [1, T, d])],
  });
}

// (c): Y [H, 1, D] from q [H, 1, D] and the cache K, V [S, H, D] as it is
// kept; the Transposes to [H, D, S] and [H, S, D] are in the graph, where
// onnxruntime-node's optimiser folds them, and the scale, into its
// FusedMatMul (transBatchB=1) rather than run them as copies.
export function decodeModel(s) {
  const { S, H, D } = s;
  return model({
    initializers: [scalar('scale', 1 / Math.sqrt(D))],
    nodes: [
      node('Transpose', ['K'], ['KhT'], { perm: [1, 2, 0] }),   // [H, D, S]
      node('Transpose', ['V'], ['Vh'], { perm: [1, 0, 2] }),    // [H, S, D]
      node('MatMul', ['q', 'KhT'], ['scores']),                 // [H, 1, S]
      node('Mul', ['scores', 'scale'], ['scaled']),
      node('Softmax', ['scaled'], ['p'], { axis: -1 }),
      node('MatMul', ['p', 'Vh'], ['Y']),
    ],
    inputs: [tensorInfo('q', FLOAT, [H, 1, D]), tensorInfo('K', FLOAT, [S, H, D]), tensorInfo('V', FLOAT, [S, H, D])],
    outputs: [tensorInfo('Y', FLOAT, [H, 1, D])],
  });
}
