// wasi.mjs: the small WASI (preview 1) a learner module may import: what
// printf, malloc, abort, exit, clock() and sleep() need, and nothing that
// reaches outside the run. Files, directories and sockets exist as names only,
// so a C library that mentions them links; every one of them fails, the way
// the native sandbox makes those system calls fail with EPERM. The names
// below are the allow-list: a module importing anything else is refused
// (wasm/loader.mjs). Runs inside the run worker; no Node APIs.

const ERRNO = { SUCCESS: 0, BADF: 8, INVAL: 28, NOSYS: 52, NOTSUP: 58, SPIPE: 70, NOTCAPABLE: 76 };
const FILETYPE_CHARACTER_DEVICE = 2;
const RIGHTS_READ_WRITE = (1n << 1n) | (1n << 6n);   // fd_read, fd_write

// proc_exit: unwinds the learner's stack to the runner, which reports it.
export class Exit extends Error {
  constructor(code) {
    super(`exit(${code})`);
    this.code = code;
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

// memory(): the learner's WebAssembly.Memory. write(fd, bytes): stdout and
// stderr, which the runner captures (and caps).
export function makeWasi(memory, write) {
  const dv = () => new DataView(memory.buffer);
  const u8 = () => new Uint8Array(memory.buffer);
  const stdio = (fd) => fd >= 0 && fd <= 2;
  const fail = (errno) => () => errno;
  const now = (id) => (id === 0
    ? BigInt(Date.now()) * 1000000n
    : BigInt(Math.round(performance.now() * 1e6)));

  const wasi = {
    args_sizes_get(argc, size) { dv().setUint32(argc, 0, true); dv().setUint32(size, 0, true); return 0; },
    args_get() { return 0; },
    environ_sizes_get(count, size) { dv().setUint32(count, 0, true); dv().setUint32(size, 0, true); return 0; },
    environ_get() { return 0; },
    clock_res_get(id, out) { dv().setBigUint64(out, 1000n, true); return 0; },
    clock_time_get(id, precision, out) {
      if (id > 3) return ERRNO.INVAL;
      dv().setBigUint64(out, now(id), true);
      return 0;
    },
    fd_write(fd, iovs, n, written) {
      if (fd !== 1 && fd !== 2) return ERRNO.BADF;
      const view = dv();
      let total = 0;
      for (let i = 0; i < n; i++) {
        const at = view.getUint32(iovs + 8 * i, true), len = view.getUint32(iovs + 8 * i + 4, true);
        write(fd, u8().slice(at, at + len));   // may throw: output over the cap
        total += len;
      }
      dv().setUint32(written, total, true);
      return 0;
    },
    // stdin is empty, as natively (/dev/null).
    fd_read(fd, iovs, n, read) {
      if (fd !== 0) return ERRNO.BADF;
      dv().setUint32(read, 0, true);
      return 0;
    },
    // fds 0-2 are terminals (character devices without seek or tell, which
    // is what the C library's isatty() asks), so stdout is flushed by line
    // and what was printed before a hang or a trap still reaches the learner.
    fd_fdstat_get(fd, out) {
      if (!stdio(fd)) return ERRNO.BADF;
      const view = dv();
      view.setUint8(out, FILETYPE_CHARACTER_DEVICE);
      view.setUint16(out + 2, 0, true);
      view.setBigUint64(out + 8, RIGHTS_READ_WRITE, true);
      view.setBigUint64(out + 16, 0n, true);
      return 0;
    },
    fd_filestat_get(fd, out) {
      if (!stdio(fd)) return ERRNO.BADF;
      u8().fill(0, out, out + 64);
      dv().setUint8(out + 16, FILETYPE_CHARACTER_DEVICE);
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
    proc_exit(code) { throw new Exit(code); },
    sched_yield() { return 0; },
    random_get(at, len) {
      for (let done = 0; done < len; done += 65536)   // getRandomValues' largest request
        crypto.getRandomValues(new Uint8Array(memory.buffer, at + done, Math.min(65536, len - done)));
      return 0;
    },
    // Only clock subscriptions (sleep, nanosleep): wait for the earliest.
    poll_oneoff(subs, events, n, count) {
      const view = dv();
      let wait = Infinity, first = -1;
      for (let i = 0; i < n; i++) {
        const s = subs + 48 * i;
        if (view.getUint8(s + 8) !== 0) return ERRNO.NOTSUP;
        const id = view.getUint32(s + 16, true), timeout = view.getBigUint64(s + 24, true);
        const abs = view.getUint16(s + 40, true) & 1;
        const ns = abs ? Number(timeout - now(id)) : Number(timeout);
        if (ns < wait) { wait = ns; first = i; }
      }
      if (first < 0) return ERRNO.INVAL;
      if (wait > 0) sleepMs(wait / 1e6);
      const after = dv(), e = events;
      after.setBigUint64(e, after.getBigUint64(subs + 48 * first, true), true);
      after.setUint16(e + 8, 0, true);
      after.setUint8(e + 10, 0);
      after.setUint32(count, 1, true);
      return 0;
    },
  };
  return wasi;
}

// Every import a learner module may have, as "module.name".
export const ALLOWED_IMPORTS = new Set([
  ...Object.keys(makeWasi({ buffer: new ArrayBuffer(0) }, () => {})).map((n) => `wasi_snapshot_preview1.${n}`),
  'judge.out_of_memory', 'judge.null_pointer', 'env.memory',
]);
