// wasm_imports.mjs: read the limits of the memory a module imports, straight
// from its import section (WebAssembly.Module.imports() does not give them),
// so the loader can create that memory itself with the problem's cap.

function reader(bytes) {
  let at = 0;
  const r = {
    get at() { return at; },
    set at(v) { at = v; },
    byte() {
      if (at >= bytes.length) throw new Error('the module ends early');
      return bytes[at++];
    },
    leb() {
      let v = 0, shift = 0, b;
      do {
        b = r.byte();
        v += (b & 0x7f) * 2 ** shift;
        shift += 7;
      } while (b & 0x80);
      return v;
    },
    skipName() { const n = r.leb(); at += n; },
    limits() {
      const flags = r.byte();
      const min = r.leb();
      return { min, max: flags & 1 ? r.leb() : null, shared: Boolean(flags & 2) };
    },
  };
  return r;
}

// { min, max, shared } in 64 KiB pages of the module's imported memory, or
// null when it imports none. Throws on a malformed module.
export function importedMemory(bytes) {
  const r = reader(bytes);
  r.at = 8;   // magic and version; WebAssembly.compile has validated them
  while (r.at < bytes.length) {
    const id = r.byte(), size = r.leb(), end = r.at + size;
    if (id !== 2) { r.at = end; continue; }
    for (let n = r.leb(); n > 0; n--) {
      r.skipName();
      r.skipName();
      const kind = r.byte();
      if (kind === 0) r.leb();                       // function: type index
      else if (kind === 1) { r.byte(); r.limits(); } // table: type, limits
      else if (kind === 2) return r.limits();        // memory
      else if (kind === 3) { r.byte(); r.byte(); }   // global: type, mutability
      else if (kind === 4) { r.byte(); r.leb(); }    // tag
      else throw new Error(`unknown import kind ${kind}`);
    }
    return null;
  }
  return null;
}
