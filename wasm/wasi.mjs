// wasi.mjs: the small WASI (preview 1) a learner module may import: what
// printf, malloc, abort, exit, clock() and sleep() need, and nothing that
// reaches outside the run. Files, directories and sockets exist as names only,
// so a C library that mentions them links; every one of them fails, the way
// the native sandbox makes those system calls fail with EPERM. The names
// below are the allow-list: a module importing anything else is refused
// (wasm/loader.mjs). Runs inside the run worker; no Node APIs.

const ERRNO = { SUCCESS: 0, BADF: 8, FAULT: 21, INVAL: 28, NOSYS: 52, NOTSUP: 58, SPIPE: 70, NOTCAPABLE: 76 };
const FILETYPE_CHARACTER_DEVICE = 2;
const RIGHTS_READ_WRITE = (1n << 1n) | (1n << 6n);   // fd_read, fd_write

// An exception that ends the run as it is, unwinding the learner's stack to
// the runner, which reports it (an exit; the runner's own: output over the cap).
export class Unwind extends Error {}

// proc_exit.
export class Exit extends Unwind {
  constructor(code) {
    super(`exit(${code})`);
    this.code = code;
  }
}

// A pointer or length the module passed that does not fit its memory: the
// call fails with EFAULT, as the kernel answers a bad pointer natively.
class BadAddress extends Error {}

// Anything else a host function threw on the module's arguments: the run
// ends with it (RE), never the judge. `call` is the WASI function's name.
export class HostFault extends Error {
  constructor(call, cause) {
    super(`${call}: ${cause?.message ?? cause}`);
    this.call = call;
    this.reason = String(cause?.message ?? cause);
  }
}

// Sleeping: a blocked worker is what a sleeping process is natively (only the
// wall-clock limit ends it). Atomics.wait blocks where shared memory exists
// (Node, isolated pages); elsewhere the worker spins until the time is up.
function sleepMs(ms) {
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  } catch {
    const end = performance.now() + ms;
    while (performance.now() < end) { /* no blocking wait here: spin */ }
  }
}

// The module's memory as the host may touch it: a span that does not lie
// wholly inside the memory throws BadAddress. Addresses and lengths are
// unsigned (guarded() makes the module's i32 so) and never wrap: the sum of
// an address near 2^32 and an offset lies past the memory, as it should.
function checkedMemory(memory) {
  const span = (at, len) => {
    if (at + len > memory.buffer.byteLength) throw new BadAddress();
    return at;
  };
  return {
    check(at, len) { span(at, len); },
    bytes(at, len) { return new Uint8Array(memory.buffer, span(at, len), len); },
    u8(at, v) { new DataView(memory.buffer).setUint8(span(at, 1), v); },
    u16(at, v) { new DataView(memory.buffer).setUint16(span(at, 2), v, true); },
    u32(at, v) { new DataView(memory.buffer).setUint32(span(at, 4), v, true); },
    u64(at, v) { new DataView(memory.buffer).setBigUint64(span(at, 8), v, true); },
    getU8(at) { return new DataView(memory.buffer).getUint8(span(at, 1)); },
    getU16(at) { return new DataView(memory.buffer).getUint16(span(at, 2), true); },
    getU32(at) { return new DataView(memory.buffer).getUint32(span(at, 4), true); },
    getU64(at) { return new DataView(memory.buffer).getBigUint64(span(at, 8), true); },
  };
}

// Each WASI function as the module calls it: i32 arguments as the u32 they
// are (an address past 2 GiB arrives negative); a bad address is EFAULT; an
// Unwind goes on as it is; any other exception is the host's own and ends the
// run as a HostFault naming the function.
function guarded(name, fn) {
  return (...args) => {
    try {
      return fn(...args.map((a) => (typeof a === 'number' ? a >>> 0 : a)));
    } catch (e) {
      if (e instanceof BadAddress) return ERRNO.FAULT;
      if (e instanceof Unwind) throw e;
      throw new HostFault(name, e);
    }
  };
}

// memory: the learner's WebAssembly.Memory. write(fd, bytes): stdout and
// stderr, which the runner captures (and caps); bytes is a view of the
// memory, valid only during the call. It may throw an Unwind (over the cap).
export function makeWasi(memory, write) {
  const mem = checkedMemory(memory);
  const stdio = (fd) => fd >= 0 && fd <= 2;
  const fail = (errno) => () => errno;
  const now = (id) => (id === 0
    ? BigInt(Date.now()) * 1000000n
    : BigInt(Math.round(performance.now() * 1e6)));

  const wasi = {
    args_sizes_get(argc, size) { mem.u32(argc, 0); mem.u32(size, 0); return 0; },
    args_get() { return 0; },
    environ_sizes_get(count, size) { mem.u32(count, 0); mem.u32(size, 0); return 0; },
    environ_get() { return 0; },
    clock_res_get(id, out) { mem.u64(out, 1000n); return 0; },
    clock_time_get(id, precision, out) {
      if (id > 3) return ERRNO.INVAL;
      mem.u64(out, now(id));
      return 0;
    },
    // Every iovec is checked before anything is written, so a bad one in
    // the middle prints nothing, as natively.
    fd_write(fd, iovs, n, written) {
      if (fd !== 1 && fd !== 2) return ERRNO.BADF;
      const parts = [];
      let total = 0;
      mem.check(iovs, 8 * n);
      for (let i = 0; i < n; i++) {
        const at = mem.getU32(iovs + 8 * i), len = mem.getU32(iovs + 8 * i + 4);
        parts.push(mem.bytes(at, len));
        total += len;
      }
      if (total > 0xffffffff) return ERRNO.INVAL;
      mem.u32(written, 0);   // a bad `written` too is EFAULT before anything is printed
      for (const part of parts) write(fd, part);   // may throw: output over the cap
      mem.u32(written, total);
      return 0;
    },
    // stdin is empty, as natively (/dev/null).
    fd_read(fd, iovs, n, read) {
      if (fd !== 0) return ERRNO.BADF;
      mem.u32(read, 0);
      return 0;
    },
    // fds 0-2 are terminals (character devices without seek or tell, which
    // is what the C library's isatty() asks), so stdout is flushed by line
    // and what was printed before a hang or a trap still reaches the learner.
    fd_fdstat_get(fd, out) {
      if (!stdio(fd)) return ERRNO.BADF;
      mem.bytes(out, 24).fill(0);
      mem.u8(out, FILETYPE_CHARACTER_DEVICE);
      mem.u64(out + 8, RIGHTS_READ_WRITE);
      return 0;
    },
    fd_filestat_get(fd, out) {
      if (!stdio(fd)) return ERRNO.BADF;
      mem.bytes(out, 64).fill(0);
      mem.u8(out + 16, FILETYPE_CHARACTER_DEVICE);
      return 0;
    },
    fd_seek(fd) { return stdio(fd) ? ERRNO.SPIPE : ERRNO.BADF; },
    fd_tell(fd) { return stdio(fd) ? ERRNO.SPIPE : ERRNO.BADF; },
    fd_close(fd) { return stdio(fd) ? 0 : ERRNO.BADF; },
    fd_sync(fd) { return stdio(fd) ? 0 : ERRNO.BADF; },
    fd_datasync(fd) { return stdio(fd) ? 0 : ERRNO.BADF; },
    fd_fdstat_set_flags: fail(ERRNO.NOTSUP),
    fd_fdstat_set_rights: fail(ERRNO.NOTSUP),
    // No preopened directories: the C library finds no file system at all.
    fd_prestat_get: fail(ERRNO.BADF),
    fd_prestat_dir_name: fail(ERRNO.BADF),
    fd_advise: fail(ERRNO.BADF),
    fd_allocate: fail(ERRNO.BADF),
    fd_filestat_set_size: fail(ERRNO.BADF),
    fd_filestat_set_times: fail(ERRNO.BADF),
    fd_pread: fail(ERRNO.BADF),
    fd_pwrite: fail(ERRNO.BADF),
    fd_readdir: fail(ERRNO.BADF),
    fd_renumber: fail(ERRNO.BADF),
    path_create_directory: fail(ERRNO.NOTCAPABLE),
    path_filestat_get: fail(ERRNO.NOTCAPABLE),
    path_filestat_set_times: fail(ERRNO.NOTCAPABLE),
    path_link: fail(ERRNO.NOTCAPABLE),
    path_open: fail(ERRNO.NOTCAPABLE),
    path_readlink: fail(ERRNO.NOTCAPABLE),
    path_remove_directory: fail(ERRNO.NOTCAPABLE),
    path_rename: fail(ERRNO.NOTCAPABLE),
    path_symlink: fail(ERRNO.NOTCAPABLE),
    path_unlink_file: fail(ERRNO.NOTCAPABLE),
    sock_accept: fail(ERRNO.NOTCAPABLE),
    sock_recv: fail(ERRNO.NOTCAPABLE),
    sock_send: fail(ERRNO.NOTCAPABLE),
    sock_shutdown: fail(ERRNO.NOTCAPABLE),
    proc_raise: fail(ERRNO.NOSYS),
    proc_exit(code) { throw new Exit(code | 0); },
    sched_yield() { return 0; },
    random_get(at, len) {
      const out = mem.bytes(at, len);
      for (let done = 0; done < out.length; done += 65536)   // getRandomValues' largest request
        crypto.getRandomValues(out.subarray(done, done + 65536));
      return 0;
    },
    // Only clock subscriptions (sleep, nanosleep): wait for the earliest.
    poll_oneoff(subs, events, n, count) {
      let wait = Infinity, first = -1;
      // Every span checked before sleeping: a bad one fails at once.
      mem.check(subs, 48 * n);
      mem.check(events, 32);
      mem.check(count, 4);
      for (let i = 0; i < n; i++) {
        const s = subs + 48 * i;
        if (mem.getU8(s + 8) !== 0) return ERRNO.NOTSUP;
        const id = mem.getU32(s + 16), timeout = mem.getU64(s + 24);
        const abs = mem.getU16(s + 40) & 1;
        const ns = abs ? Number(timeout - now(id)) : Number(timeout);
        if (ns < wait) { wait = ns; first = i; }
      }
      if (first < 0) return ERRNO.INVAL;
      if (wait > 0) sleepMs(wait / 1e6);
      mem.u64(events, mem.getU64(subs + 48 * first));
      mem.u16(events + 8, 0);
      mem.u8(events + 10, 0);
      mem.u32(count, 1);
      return 0;
    },
  };
  return Object.fromEntries(Object.entries(wasi).map(([name, fn]) => [name, guarded(name, fn)]));
}

// Every import a learner module may have, as "module.name".
export const ALLOWED_IMPORTS = new Set([
  ...Object.keys(makeWasi({ buffer: new ArrayBuffer(0) }, () => {})).map((n) => `wasi_snapshot_preview1.${n}`),
  'judge.out_of_memory', 'judge.null_pointer', 'env.memory',
]);
