#!/usr/bin/env node
// judge.mjs: the Node CLI of the wasm backend, `node wasm/judge.mjs`. The same
// arguments, output and exit statuses as the native ./judge (libjudge/main.c),
// running exactly the page's pipeline (wasm/pipeline.mjs): the C judge built
// to wasm, learner C compiled by @yowasp/clang, run in a worker. Exit status:
// 0 accepted (a class: every file), 1 any other verdict, 2 bad usage or input
// the judge cannot accept, always with one line on stderr saying why. A
// class's table, CSV, JSON Lines and page, the hints and the CLI's own
// sentences are the C judge's (class.c, report.c, messages.json).
import { lstatSync, statSync, accessSync, readFileSync, writeFileSync, openSync, closeSync, mkdirSync, unlinkSync,
  readdirSync, renameSync, constants } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodePlatform } from './platform_node.mjs';
import { createPipeline } from './pipeline.mjs';

// The usage is the C judge's (./judge prints the same), with this CLI's
// variables: a message of libjudge/messages.json.
const environment = 'usage_env_wasm';

class Usage extends Error {}
const fail = (message) => { throw new Usage(message); };

// A system error as ./judge words it (lang.c's judge_errno_text): the
// message errno_<code> where messages.json has one, otherwise the C
// library's words ("No such file or directory") that Node's message holds.
function strerror(e) {
  if (typeof e?.code === 'string') {
    try { return say(`errno_${e.code.toLowerCase()}`); } catch { /* no such message: the C library's words */ }
  }
  const m = /^[A-Z0-9]+: ([^,]+)/.exec(e?.message ?? '');
  const text = m ? m[1] : String(e?.message ?? e);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// --seed as strtoull(s, &end, 0) reads it: decimal, 0x hex or 0 octal, the
// whole argument, at most 64 bits, no minus sign.
function parseSeed(s) {
  const m = /^\s*\+?(?:0[xX]([0-9a-fA-F]+)|(0[0-7]*)|([1-9][0-9]*))$/.exec(s);
  if (!m || s.startsWith('-')) return null;
  const v = m[1] !== undefined ? BigInt(`0x${m[1]}`) : m[2] !== undefined ? BigInt(`0o${m[2].slice(1) || '0'}`) : BigInt(m[3]);
  return v < 2n ** 64n ? v : null;
}

// A message of libjudge/messages.json in `lang` (the CLI's own sentences:
// the same as ./judge's).
let say = (name, ...args) => `${name} ${args.join(' ')}`;

const digits = (a) => /^[0-9]+$/.test(a);

// pipeline: the C judge's defaults and its rules for languages.
function parseArgs(argv, pipeline) {
  const o = { key: null, args: [], json: false, csv: false, watch: false, html: null, completion: null, speed: false,
    version: false, hint: 0, hintN: 0, jobs: availableParallelism(), seed: null, help: false,
    lang: pipeline.langFromEnv(process.env.LC_ALL, process.env.LANG) };
  // --lang first, wherever it is: every other complaint is told in it.
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  options.forEach((a, i) => { if (a === '--lang' && pipeline.isLang(argv[i + 1] ?? '')) o.lang = argv[i + 1]; });
  say = (name, ...args) => pipeline.say(name, o.lang, ...args);
  // After "--" every argument is the problem or a file (a file may be named -x.c).
  for (let i = 0, rest = false; i < argv.length; i++) {
    const a = argv[i];
    if (rest || a === '--') {
      if (a === '--' && !rest) rest = true;
      else if (o.key === null) o.key = a;
      else o.args.push(a);
      continue;
    }
    if (a === '--help' || a === '-h') o.help = true;   // printed once --lang, wherever it is, is known
    else if (a === '--version') o.version = true;
    else if (a === '--lang') {
      if (++i === argv.length) fail(say('cli_lang_missing'));
      if (!pipeline.isLang(argv[i])) fail(say('cli_lang', argv[i]));
      o.lang = argv[i];
    } else if (a === '--json') o.json = true;
    else if (a === '--speed') o.speed = true;
    else if (a === '--csv') o.csv = true;
    else if (a === '--watch') o.watch = true;
    else if (a === '--html' || a === '--completion') {
      if (++i === argv.length) fail(say('cli_needs_value', a));
      o[a.slice(2)] = argv[i];
      if (a === '--html' && !/\.html?$/i.test(argv[i])) fail(say('cli_html_name', argv[i]));
      if (a === '--html') {   // now, not after the class is judged
        try { accessSync(dirname(argv[i]), constants.W_OK); } catch (e) { fail(say('cli_cannot_write', argv[i], strerror(e))); }
      }
    } else if (a === '-j') {
      if (++i === argv.length) fail(say('cli_needs_value', a));
      const v = digits(argv[i]) && argv[i].length < 6 ? Number(argv[i]) : 0;
      if (v < 1) fail(say('cli_jobs', argv[i]));
      o.jobs = v;
    } else if (a === '--hint') {
      o.hint = 1;   // N, when it follows, is which one
      if (i + 1 < argv.length && digits(argv[i + 1])) {
        o.hint = 2;
        o.hintN = argv[++i].length < 6 ? Number(argv[i]) : -1;
      }
    } else if (a === '--seed') {
      if (++i === argv.length) fail(say('cli_seed_missing'));
      o.seed = parseSeed(argv[i]);
      if (o.seed === null) fail(say('cli_seed', argv[i]));
    } else if (a.startsWith('-') && a.length > 1) fail(say('cli_unknown_option', a));
    else if (o.key === null) o.key = a;
    else o.args.push(a);
  }
  if (o.json && o.csv) fail(say('cli_one_format'));
  if (o.completion !== null && o.completion !== 'bash' && o.completion !== 'zsh') fail(say('cli_completion', o.completion));
  o.seed ??= BigInt(pipeline.defaultSeed);
  return o;
}

// The workspace folder (made if missing): $JUDGE_WORKSPACE, or workspace/
// beside this program's repository, as ./judge's is beside it.
function workspace() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const dir = process.env.JUDGE_WORKSPACE || join(root, 'workspace');
  try { mkdirSync(dir); } catch (e) { if (e.code !== 'EEXIST') fail(say('cli_cannot_create', dir, strerror(e))); }
  return dir;
}

// The learner's working copy, made from the starter once and never
// overwritten, in the workspace.
function workingCopy(problem) {
  const dir = workspace();
  const file = `${dir}/${problem.dir}.c`;
  let fd;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  } catch (e) {
    if (e.code === 'EEXIST') {
      process.stderr.write(`judge: ${say('cli_copy_judged', file)}\n`);
      return file;
    }
    fail(say('cli_cannot_create', file, strerror(e)));
  }
  try {
    writeFileSync(fd, problem.starter);
    closeSync(fd);
  } catch (e) {
    unlinkSync(file);
    fail(say('cli_cannot_write', file, strerror(e)));
  }
  process.stderr.write(`judge: ${say('cli_copy_made', file)}\n`);
  return file;
}

function readSource(file) {
  let st;
  try { st = statSync(file); } catch (e) { fail(say('cli_cannot_read', file, strerror(e))); }
  if (!st.isFile()) fail(say('cli_not_a_file', file));
  try {
    accessSync(file, constants.R_OK);
    return readFileSync(file, 'utf8');
  } catch (e) {
    return fail(say('cli_cannot_read', file, strerror(e)));
  }
}

const isFolder = (path) => { try { return statSync(path).isDirectory(); } catch { return false; } };

// A folder's *.c files (regular files only), sorted by name as strcmp sorts.
function folderFiles(dir) {
  let names;
  try { names = readdirSync(dir); } catch (e) { fail(say('cli_cannot_read', dir, strerror(e))); }
  const sep = dir.endsWith('/') ? '' : '/';
  const files = names.filter((n) => n.length > 2 && n.endsWith('.c') && !n.startsWith('.'))
    .map((n) => `${dir}${sep}${n}`)
    .filter((f) => { try { return statSync(f).isFile(); } catch { return true; } })
    .sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b))));
  if (!files.length) fail(say('cli_no_c_files', dir));
  return files;
}

const clock = (ms) => { const s = Math.floor(ms / 1000); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`; };

// Every file judged, o.jobs at a time (compiles queue for the one compiler;
// runs go on at once, each in a worker of its own), then the class told.
async function judgeClass(pipeline, problem, files, o) {
  const cls = pipeline.makeClass(problem.slug, files.length, o.lang);
  const show = process.stderr.isTTY === true;
  const start = Date.now();
  let next = 0, done = 0;
  const progress = () => {
    const spent = Date.now() - start;
    const left = done ? clock((spent * (files.length - done)) / done) : '?';
    process.stderr.write(`${say('class_progress', done, files.length, clock(spent), left)}\x1b[K`);
  };
  const timer = show ? setInterval(progress, 500) : null;
  try {
    const worker = async () => {
      while (next < files.length) {
        const i = next++;
        const file = files[i];
        try {
          // Never what a link points to (main.c's linked() says why).
          if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) fail(say('class_symlink', file));
          const source = readSource(file);
          await pipeline.judge(problem.slug, source, { seed: o.seed.toString(), file, lang: o.lang,
            keep: (session, json) => cls.set(i, file, session, json) });
        } catch (e) {
          cls.setError(i, file, e?.message ?? String(e));
        }
        done++;
        if (show) progress();
      }
    };
    await Promise.all(Array.from({ length: Math.min(o.jobs, files.length) }, worker));
    if (show) process.stderr.write('\r\x1b[K');
    const color = !o.json && !o.csv && process.stdout.isTTY === true && !process.env.NO_COLOR;
    process.stdout.write(o.json ? cls.jsonl() : o.csv ? cls.csv() : cls.text(color));
    if (o.html !== null) {
      try { writeFileSync(o.html, cls.html()); } catch (e) { fail(say('cli_cannot_write', o.html, strerror(e))); }
      process.stderr.write(say('class_wrote', o.html));
    }
    return cls.accepted ? 0 : 1;
  } finally {
    if (timer) clearInterval(timer);
    cls.free();
  }
}

// How a file stands: a change of any of these is a save.
function look(file) {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.mtimeNs} ${st.size} ${st.ino}`;
  } catch {
    return 'missing';
  }
}

const WATCH_POLL_MS = 200;
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// Judge the file, and again after every save, until a signal ends the process.
// A save during a run cancels that run and starts the next.
async function watch(pipeline, problem, file, o) {
  process.stderr.write(say('watch_start', file));
  const color = !o.json && process.stdout.isTTY === true && !process.env.NO_COLOR;
  let last = look(file);
  for (;;) {
    if (process.stdout.isTTY) process.stdout.write('\x1b[H\x1b[2J');
    let source = null;
    try { source = readSource(file); } catch (e) { process.stderr.write(`judge: ${e.message}\n`); }
    if (source !== null) {
      let settled = false, saved = false;
      const run = pipeline.judge(problem.slug, source, { seed: o.seed.toString(), file, color, lang: o.lang })
        .then((r) => ({ r }), (e) => ({ e })).finally(() => { settled = true; });
      while (!settled) {
        await sleep(WATCH_POLL_MS);
        if (!settled && look(file) !== last) {
          saved = true;
          pipeline.cancel();
          break;
        }
      }
      const { r, e } = await run;
      if (saved) {
        last = look(file);
        continue;   // saved mid-run: no report for that run
      }
      if (r) process.stdout.write(o.json ? r.json : r.text);
      else if (e?.name !== 'Cancelled') process.stderr.write(`judge: ${e?.message ?? e}\n`);
    }
    while (look(file) === last) await sleep(WATCH_POLL_MS);
    last = look(file);
  }
}

// Ctrl-C, a closed terminal, kill: the watch ends at once (its workers, the
// compiler's too, go with it; a wasm run leaves no files), and the process
// dies of the same signal, as ./judge does. Elsewhere the default is right.
async function watchUntilSignal(pipeline, problem, file, o) {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const onSignal = (sig) => {
    signals.forEach((s) => process.off(s, onSignal));
    pipeline.close();
    process.kill(process.pid, sig);
  };
  signals.forEach((sig) => process.on(sig, onSignal));
  return watch(pipeline, problem, file, o);
}

// The count of hints shown per problem, one "<id> <count>" line each, in
// workspace/.hints (./judge's file too).
function hintCounts(path) {
  let text = '';
  try { text = readFileSync(path, 'utf8'); } catch (e) { if (e.code !== 'ENOENT') fail(say('hint_state', path, strerror(e))); }
  const counts = new Map();
  for (const [, id, n] of text.matchAll(/(-?\d+)\s+(-?\d+)/g)) counts.set(Number(id), Number(n));
  return counts;
}

// Hint n, or (n < 0) the learner's next one, whose count is kept.
function showHint(pipeline, problem, n, lang) {
  const total = problem.hints.length;
  let path = null, counts = null, count = 0;
  if (n < 0) {
    path = join(workspace(), '.hints');
    counts = hintCounts(path);
    count = counts.get(problem.id) ?? 0;
    n = count < total ? count + 1 : total;
  }
  const text = pipeline.hintText(problem.slug, n, lang);
  if (n < 1 || n > total) fail(text);
  process.stdout.write(text);
  if (path && n > count) {
    counts.set(problem.id, n);
    const tmp = `${path}.new`;
    try {
      writeFileSync(tmp, [...counts].map(([id, k]) => `${id} ${k}\n`).join(''));
      renameSync(tmp, path);
    } catch (e) {
      try { unlinkSync(tmp); } catch { /* never made */ }
      fail(say('hint_state', path, strerror(e)));
    }
  }
  return 0;
}

async function main(argv) {
  let pipeline = null;
  try {
    // The problem list and the default seed come from the C judge itself.
    pipeline = await createPipeline(nodePlatform());
    const o = parseArgs(argv, pipeline);
    if (o.help) {
      process.stdout.write(pipeline.usage(environment, o.lang));
      return 0;
    }
    if (o.version) {
      process.stdout.write(`judge ${pipeline.version}\n`);
      return 0;
    }
    if (o.completion !== null) {
      process.stdout.write(pipeline.completion(o.completion));
      return 0;
    }
    if (o.key === null) {
      process.stderr.write(pipeline.usage(environment, o.lang));
      return 2;
    }
    if (o.key === 'list') {
      if (o.args.length) fail(say('cli_list_no_file'));
      process.stdout.write(pipeline.listText(o.lang));
      return 0;
    }
    const problem = pipeline.find(o.key);
    if (!problem) fail(say('cli_no_problem', o.key));
    if (o.hint) return showHint(pipeline, problem, o.hint === 2 ? o.hintN : -1, o.lang);
    const isClass = o.args.length > 1 || o.csv || o.html !== null || o.args.some(isFolder);
    if (o.watch && isClass) fail(say('cli_watch_one'));
    if (o.speed && (isClass || o.watch)) fail(say('cli_speed_one'));
    const given = o.args.length ? o.args : [workingCopy(problem)];
    if (isClass) return await judgeClass(pipeline, problem, given.flatMap((a) => (isFolder(a) ? folderFiles(a) : [a])), o);
    if (o.watch) return await watchUntilSignal(pipeline, problem, given[0], o);
    const file = given[0];
    const source = readSource(file);
    const color = !o.json && process.stdout.isTTY === true && !process.env.NO_COLOR;
    const r = await pipeline.judge(problem.slug, source, { seed: o.seed.toString(), file, color, lang: o.lang,
      speed: o.speed });
    process.stdout.write(o.json ? r.json : r.text);
    return r.verdict === 'AC' ? 0 : 1;
  } catch (e) {
    process.stderr.write(`judge: ${e instanceof Usage ? e.message : e?.message ?? e}\n`);
    return 2;
  } finally {
    pipeline?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
