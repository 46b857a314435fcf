// judge_core.mjs: the C judge (build/wasm/judge.wasm, from wasm/judge_wasm.c)
// loaded and wrapped for JavaScript. It only moves bytes and strings across
// the boundary: sessions, checks, verdicts and reports are the C judge's.
// Runs anywhere WebAssembly does (Node, a page, a worker): no Node APIs here.

class JudgeExit extends Error {}

// Instantiate judge.wasm from its bytes (or a compiled WebAssembly.Module).
export async function loadJudgeCore(bytesOrModule) {
  let memory = null;
  const view = () => new DataView(memory.buffer);
  // The judge needs a monotonic clock (it times the reference kernels) and
  // nothing else from the outside world.
  const wasi = {
    clock_time_get(id, precision, out) {
      const ns = id === 0 ? BigInt(Date.now()) * 1000000n : BigInt(Math.round(performance.now() * 1e6));
      view().setBigUint64(out, ns, true);
      return 0;
    },
    proc_exit(code) { throw new JudgeExit(`the judge exited with status ${code}`); },
  };
  const env = { emscripten_notify_memory_growth() {} };   // views are made fresh on every use
  const module = bytesOrModule instanceof WebAssembly.Module
    ? bytesOrModule : await WebAssembly.compile(bytesOrModule);
  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi, env });
  const x = instance.exports;
  memory = x.memory;
  x._initialize();
  return new JudgeCore(x, module);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

class JudgeCore {
  constructor(exports, module) {
    this.x = exports;
    this.module = module;   // for another instance elsewhere (a run worker's)
    const text = this.#takeString(this.x.jw_problems_json());
    if (text === null) throw new Error('the judge ran out of memory listing its problems');
    this.problems = JSON.parse(text);
    this.defaultSeed = this.string(this.x.jw_default_seed());
    this.msgIds = new Map();
    // The wire format's magic numbers and element sizes, and the verdict
    // codes (libjudge/wire.h, judge.h): { magic, types: [{ name, size }],
    // verdicts: ['AC', ...] }. JavaScript only ever reports faults with the
    // verdicts; it never decides AC or WA.
    const wire = this.string(this.x.jw_wire_json());
    if (wire === null) throw new Error('the judge could not describe its wire format');
    this.wire = JSON.parse(wire);
    this.verdictNumber = new Map(this.wire.verdicts.map((code, i) => [code, i]));
  }

  // The problem `key` names (an id, a slug or a folder: the C judge's
  // judge_find), from this.problems; null if none.
  find(key) {
    const i = this.#withStrings([String(key)], (k) => this.x.jw_find(k));
    return i < 0 ? null : this.problems[i];
  }

  #bytes() { return new Uint8Array(this.x.memory.buffer); }

  // A NUL-terminated string in the judge's memory.
  string(ptr) {
    if (!ptr) return null;
    const mem = this.#bytes();
    const end = mem.indexOf(0, ptr);
    return decoder.decode(mem.subarray(ptr, end));
  }

  #takeString(ptr) {
    const s = this.string(ptr);
    if (ptr) this.x.jw_free(ptr);
    return s;
  }

  // Copy bytes (or a string, NUL-terminated) into the judge; the caller frees.
  put(data) {
    const bytes = typeof data === 'string' ? encoder.encode(`${data}\0`) : data;
    const ptr = this.x.jw_malloc(Math.max(bytes.length, 1));
    if (!ptr) throw new Error('the judge ran out of memory');
    this.#bytes().set(bytes, ptr);
    return ptr;
  }

  #withStrings(strings, fn) {
    const ptrs = strings.map((s) => this.put(s));
    try { return fn(...ptrs); } finally { ptrs.forEach((p) => this.x.jw_free(p)); }
  }

  // Languages are the C judge's numbers (judge_lang); these ask it, so the
  // rules live in one place (libjudge/lang.c). lang('xx') is null.
  lang(name) {
    const code = this.#withStrings([String(name)], (n) => this.x.jw_lang_parse(n));
    return code < 0 ? null : code;
  }

  // The default from LC_ALL and LANG (undefined when unset).
  langFromEnv(lcAll, lang) {
    const ptrs = [lcAll, lang].map((v) => (v === undefined ? 0 : this.put(v)));
    try { return this.x.jw_lang_from_env(...ptrs); } finally { ptrs.forEach((p) => p && this.x.jw_free(p)); }
  }

  // A message's id (libjudge/messages.json): a name the judge lacks is a bug here.
  msgId(name) {
    if (!this.msgIds.has(name)) {
      const id = this.#withStrings([name], (n) => this.x.jw_msg_find(n));
      if (id < 0) throw new Error(`the judge has no message ${name}`);
      this.msgIds.set(name, id);
    }
    return this.msgIds.get(name);
  }

  // `judge list`, titles in `lang` (a judge_lang).
  listText(lang) { return this.#takeString(this.x.jw_list_text(lang)) ?? ''; }

  // The CLI usage in `lang`, with this CLI's own environment line (a message name).
  usage(environment, lang) {
    return this.#takeString(this.x.jw_usage_text(this.msgId(environment), lang)) ?? '';
  }

  // A message's text in `lang` (a judge_lang): a printf format.
  msgText(name, lang) { return this.string(this.x.jw_msg_text(this.msgId(name), lang)); }

  // Hint k of problem `key` told, in `lang` (judge_hint_text).
  hintText(key, k, lang) {
    const text = this.#takeString(this.#withStrings([String(key)], (p) => this.x.jw_hint_text(p, k, lang)));
    if (text === null) throw new Error('out of memory');
    return text;
  }

  // The version and the completion scripts ('bash' or 'zsh'), as ./judge prints them.
  get version() { return this.string(this.x.jw_version()); }
  completion(shell) { return this.string(this.x.jw_completion(shell === 'zsh' ? 1 : 0)); }

  // A class of n files of problem `key`, told in `lang` (class.c).
  class(key, n, lang) {
    const ptr = this.#withStrings([String(key)], (k) => this.x.jw_class_new(k, n, lang));
    if (!ptr) throw new Error(`cannot make a class of problem ${key}`);
    return new Class(this, ptr);
  }

  // A string the judge made, taken (and freed), whole or an error.
  take(ptr) {
    const s = this.#takeString(ptr);
    if (s === null) throw new Error('out of memory writing the report');
    return s;
  }

  // The core's time in ms on a request of problem `key`'s speed runs, taken
  // here (judge.h, judge_time_speed_core); null if the judge could not.
  timeSpeedCore(key, request) {
    const at = this.put(request);
    try {
      const ms = this.#withStrings([String(key)], (k) => this.x.jw_time_speed_core(k, at, request.length));
      return ms < 0 ? null : ms;
    } finally {
      this.x.jw_free(at);
    }
  }

  // A session for problem `key` with `seed` (a BigInt or decimal string).
  session(key, seed) {
    const ptr = this.#withStrings([String(key), String(seed)], (k, s) => this.x.jw_session_new(k, s));
    if (!ptr) throw new Error(`cannot judge problem ${key}: ${this.string(this.x.jw_last_error())}`);
    return new Session(this, ptr);
  }

  // A new session as `blank` was made (one never judged): its inputs and
  // expected outputs copied, not made again.
  copy(blank) {
    const ptr = this.x.jw_session_copy(blank.ptr);
    if (!ptr) throw new Error(`cannot copy a session: ${this.string(this.x.jw_last_error())}`);
    return new Session(this, ptr);
  }
}

// One judging run's session: the same calls as libjudge/judge.h.
class Session {
  constructor(core, ptr) {
    this.core = core;
    this.ptr = ptr;
    this.x = core.x;
  }

  get calls() { return this.x.jw_calls(this.ptr); }
  // Whether call k + 1 must wait until call k's reply is in (judge.h).
  get paced() { return this.x.jw_paced(this.ptr) === 1; }

  // Call k's request, copied out of the judge's memory; its length alone.
  request(k) { return this.#request(k, (at, len) => new Uint8Array(this.x.memory.buffer, at, len).slice()); }
  requestLength(k) { return this.#request(k, (at, len) => len); }
  #request(k, take) {
    const lenPtr = this.core.put(new Uint8Array(4));
    try {
      const at = this.x.jw_request(this.ptr, k, lenPtr);
      if (!at) throw new Error(`no call ${k} in this session`);
      return take(at, new DataView(this.x.memory.buffer).getUint32(lenPtr, true));
    } finally {
      this.x.jw_free(lenPtr);
    }
  }

  replyLength(k) { return this.x.jw_reply_len(this.ptr, k); }

  // The core's time on call k's inputs, taken where the learner's call ran;
  // before its reply, which then does not time the core itself (judge.h).
  coreTimed(k, ms) { this.x.jw_core_timed(this.ptr, k, ms); }

  reply(k, bytes) {
    const at = this.core.put(bytes);
    try { this.x.jw_reply(this.ptr, k, at, bytes.length); } finally { this.x.jw_free(at); }
  }

  // Why call k faulted: a detail_ message of the judge's and its arguments,
  // each a string (used as is) or { msg: name } (told in the session's
  // language), packed as jw_fault reads them.
  fault(k, verdict, msg, args = []) {
    const packed = args.map((a) => (typeof a === 'string' ? `t${a}\0` : `m${this.core.msgId(a.msg)}\0`)).join('');
    const v = this.core.verdictNumber.get(verdict);
    if (v === undefined) throw new Error(`the judge has no verdict ${verdict}`);
    const at = this.core.put(encoder.encode(packed));
    let rc;
    try { rc = this.x.jw_fault(this.ptr, k, v, this.core.msgId(msg), at, args.length); }
    finally { this.x.jw_free(at); }
    if (rc) throw new Error(`the judge refused the fault ${msg} with ${args.length} arguments`);
  }

  compiled(ok, diagnostics) {
    const at = this.core.put(diagnostics ?? '');
    try { this.x.jw_compiled(this.ptr, ok ? 1 : 0, at); } finally { this.x.jw_free(at); }
  }

  output(bytes) {
    const at = this.core.put(bytes);
    try { this.x.jw_output(this.ptr, at, bytes.length); } finally { this.x.jw_free(at); }
  }

  setFile(path) {
    const at = this.core.put(path);
    try { this.x.jw_set_file(this.ptr, at); } finally { this.x.jw_free(at); }
  }

  // The language of its reports: a judge_lang (core.lang('zh')).
  setLang(lang) { this.x.jw_set_lang(this.ptr, lang); }

  // The speed tier: ask for it; then, once every call ran, the speed runs
  // as a session of their own (owned by this one: never freed apart), or
  // null when they must not run (the report says why); a session's time
  // limit in ms (the speed runs' budget).
  wantSpeed() { this.x.jw_want_speed(this.ptr); }
  speed() { return this.#owned(this.x.jw_speed(this.ptr)); }

  // The fresh run (judge.h): once every call ran, a wrong case to run again
  // alone in a fresh instance, as a session owned by this one, or null.
  fresh() { return this.#owned(this.x.jw_fresh(this.ptr)); }

  #owned(ptr) {
    if (!ptr) return null;
    const s = new Session(this.core, ptr);
    s.free = () => {};
    return s;
  }
  get timeMs() { return this.x.jw_time_ms(this.ptr); }

  get verdict() { return this.core.string(this.x.jw_verdict_code(this.x.jw_verdict(this.ptr))); }
  json() { return this.#whole(this.x.jw_json(this.ptr)); }
  text(color) { return this.#whole(this.x.jw_text(this.ptr, color ? 1 : 0)); }

  // A report the judge could not write whole is the judge's failure, never
  // a shorter report.
  #whole(ptr) {
    if (!ptr) throw new Error('out of memory writing the report');
    return this.core.string(ptr);
  }

  free() {
    if (this.ptr) this.x.jw_session_free(this.ptr);
    this.ptr = 0;
  }
}

// A class: its rows are set from finished sessions (or as not judged), and
// it is told as the native CLI tells it.
class Class {
  constructor(core, ptr) {
    this.core = core;
    this.ptr = ptr;
    this.x = core.x;
  }

  // Row i from a finished session (before it is freed) and its JSON report.
  set(i, file, session, json) { this.#set(i, file, session.ptr, json, ''); }
  // Row i: a file not judged, and why.
  setError(i, file, why) { this.#set(i, file, 0, '', why); }

  #set(i, file, session, json, why) {
    const ptrs = [file, json, why].map((v) => this.core.put(v));
    let rc;
    try { rc = this.x.jw_class_set(this.ptr, i, ptrs[0], session, ptrs[1], ptrs[2]); }
    finally { ptrs.forEach((p) => this.x.jw_free(p)); }
    if (rc) throw new Error('the judge ran out of memory keeping a row of the class');
  }

  get accepted() { return this.x.jw_class_accepted(this.ptr) === 1; }
  text(color) { return this.core.take(this.x.jw_class_text(this.ptr, color ? 1 : 0)); }
  csv() { return this.core.take(this.x.jw_class_csv(this.ptr)); }
  jsonl() { return this.core.take(this.x.jw_class_jsonl(this.ptr)); }
  html() { return this.core.take(this.x.jw_class_html(this.ptr)); }

  free() {
    if (this.ptr) this.x.jw_class_free(this.ptr);
    this.ptr = 0;
  }
}
