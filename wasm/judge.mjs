#!/usr/bin/env node
// judge.mjs: the Node CLI of the wasm backend, `node wasm/judge.mjs`. The same
// arguments, output and exit statuses as the native ./judge (libjudge/main.c),
// running exactly the page's pipeline (wasm/pipeline.mjs): the C judge built
// to wasm, learner C compiled by @yowasp/clang, run in a worker. Exit status:
// 0 accepted, 1 any other verdict, 2 bad usage or input the judge cannot
// accept, always with one line on stderr saying why.
import { statSync, accessSync, readFileSync, writeFileSync, openSync, closeSync, mkdirSync, unlinkSync, constants } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodePlatform } from './platform_node.mjs';
import { createPipeline } from './pipeline.mjs';

// The usage is the C judge's (./judge prints the same), with this CLI's
// variables: a message of libjudge/messages.json.
const environment = 'usage_env_wasm';

class Usage extends Error {}
const fail = (message) => { throw new Usage(message); };

// The C library's words for a system error ("No such file or directory").
function strerror(e) {
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

// pipeline: the C judge's defaults and its rules for languages.
function parseArgs(argv, pipeline) {
  const o = { key: null, file: null, json: false, seed: null, help: false,
    lang: pipeline.langFromEnv(process.env.LC_ALL, process.env.LANG) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') o.help = true;   // printed once --lang, wherever it is, is known
    else if (a === '--lang') {
      if (++i === argv.length) fail('--lang needs en or zh');
      if (!pipeline.isLang(argv[i])) fail(`--lang needs en or zh, not '${argv[i]}'`);
      o.lang = argv[i];
    } else if (a === '--json') o.json = true;
    else if (a === '--seed') {
      if (++i === argv.length) fail('--seed needs a number');
      o.seed = parseSeed(argv[i]);
      if (o.seed === null) fail(`--seed needs a non-negative integer, not '${argv[i]}'`);
    } else if (a.startsWith('-') && a.length > 1) fail(`unknown option ${a} (see judge --help)`);
    else if (o.key === null) o.key = a;
    else if (o.file === null) o.file = a;
    else fail(`too many arguments: '${a}' (see judge --help)`);
  }
  o.seed ??= BigInt(pipeline.defaultSeed);
  return o;
}

// The learner's working copy, made from the starter once and never
// overwritten; beside this program's repository, as ./judge's is beside it.
function workingCopy(problem) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const dir = process.env.JUDGE_WORKSPACE || join(root, 'workspace');
  try { mkdirSync(dir); } catch (e) { if (e.code !== 'EEXIST') fail(`cannot create ${dir}: ${strerror(e)}`); }
  const file = `${dir}/${problem.dir}.c`;
  let fd;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  } catch (e) {
    if (e.code === 'EEXIST') {
      process.stderr.write(`judge: judging your working copy ${file}\n`);
      return file;
    }
    fail(`cannot create ${file}: ${strerror(e)}`);
  }
  try {
    writeFileSync(fd, problem.starter);
    closeSync(fd);
  } catch (e) {
    unlinkSync(file);
    fail(`cannot write ${file}: ${strerror(e)}`);
  }
  process.stderr.write(`judge: created your working copy ${file} from the starter: edit it, then run this again\n`);
  return file;
}

function readSource(file) {
  let st;
  try { st = statSync(file); } catch (e) { fail(`cannot read ${file}: ${strerror(e)}`); }
  if (!st.isFile()) fail(`${file} is not a regular file`);
  try {
    accessSync(file, constants.R_OK);
    return readFileSync(file, 'utf8');
  } catch (e) {
    return fail(`cannot read ${file}: ${strerror(e)}`);
  }
}

async function main(argv) {
  let pipeline = null;
  try {
    // The problem list and the default seed come from the C judge itself.
    pipeline = await createPipeline(await nodePlatform());
    const o = parseArgs(argv, pipeline);
    if (o.help) {
      process.stdout.write(pipeline.usage(environment, o.lang));
      return 0;
    }
    if (o.key === null) {
      process.stderr.write(pipeline.usage(environment, o.lang));
      return 2;
    }
    if (o.key === 'list') {
      if (o.file !== null) fail('list takes no FILE');
      process.stdout.write(pipeline.listText(o.lang));
      return 0;
    }
    const problem = pipeline.find(o.key);
    if (!problem) fail(`no problem '${o.key}' (judge list shows them)`);
    const file = o.file ?? workingCopy(problem);
    const source = readSource(file);
    const color = !o.json && process.stdout.isTTY === true && !process.env.NO_COLOR;
    const r = await pipeline.judge(problem.slug, source, { seed: o.seed.toString(), file, color, lang: o.lang });
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
