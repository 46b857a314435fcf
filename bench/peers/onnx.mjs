// onnx.mjs: encodes an ONNX model (the ModelProto subset the peer graphs
// use) as protobuf bytes, written by hand because no ONNX or protobuf
// package is at hand here. Field numbers are those of onnx/onnx.proto.

// Protobuf wire types.
const VARINT = 0, LEN = 2, FIXED32 = 5;

// One message under construction: its fields appended as byte chunks.
class Message {
  constructor() { this.chunks = []; this.length = 0; }
  raw(bytes) { this.chunks.push(bytes); this.length += bytes.length; return this; }
  varint(n) {
    // Negative int64 values (an axis of -1) go as 10-byte two's complement.
    let v = BigInt.asUintN(64, BigInt(n));
    const out = [];
    do {
      const low = Number(v & 0x7fn);
      v >>= 7n;
      out.push(v ? low | 0x80 : low);
    } while (v);
    return this.raw(Uint8Array.from(out));
  }
  key(field, wire) { return this.varint((field << 3) | wire); }
  int(field, n) { return this.key(field, VARINT).varint(n); }
  float(field, x) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, x, true);
    return this.key(field, FIXED32).raw(b);
  }
  bytes(field, b) { return this.key(field, LEN).varint(b.length).raw(b); }
  string(field, s) { return this.bytes(field, new TextEncoder().encode(s)); }
  message(field, m) { return this.bytes(field, m.finish()); }
  finish() {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) { out.set(c, at); at += c.length; }
    return out;
  }
}

// TensorProto.DataType
export const FLOAT = 1, INT64 = 7;
// AttributeProto.AttributeType
const ATTR_FLOAT = 1, ATTR_INT = 2, ATTR_INTS = 7;

// A constant (graph initializer); data is a typed array, stored as
// raw_data in the machine's byte order, which ONNX requires little-endian
// (x86, arm64 and wasm all are).
export function initializer(name, dims, type, data) {
  const t = new Message();
  for (const d of dims) t.int(1, d);
  t.int(2, type).string(8, name);
  return t.bytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

// A graph input or output: name, element type and fixed dims.
export function tensorInfo(name, type, dims) {
  const shape = new Message();
  for (const d of dims) shape.message(1, new Message().int(1, d));
  const tensorType = new Message().int(1, type).message(2, shape);
  return new Message().string(1, name).message(2, new Message().message(1, tensorType));
}

// attrs: { name: integer | float | integer[] }
export function node(op, inputs, outputs, attrs = {}) {
  const n = new Message();
  for (const i of inputs) n.string(1, i);
  for (const o of outputs) n.string(2, o);
  n.string(4, op);
  for (const [name, v] of Object.entries(attrs)) {
    const a = new Message().string(1, name);
    if (Array.isArray(v)) { for (const x of v) a.int(8, x); a.int(20, ATTR_INTS); }
    else if (Number.isInteger(v)) a.int(3, v).int(20, ATTR_INT);
    else a.float(2, v).int(20, ATTR_FLOAT);
    n.message(5, a);
  }
  return n;
}

// IR version 8 with opset 17 of the default domain: both long supported by
// onnxruntime 1.30.
export function model({ nodes, initializers, inputs, outputs }) {
  const g = new Message();
  for (const n of nodes) g.message(1, n);
  g.string(2, 'attention');
  for (const t of initializers) g.message(5, t);
  for (const i of inputs) g.message(11, i);
  for (const o of outputs) g.message(12, o);
  return new Message()
    .int(1, 8)
    .string(2, 'att-bench-peers')
    .message(7, g)
    .message(8, new Message().string(1, '').int(2, 17))
    .finish();
}
