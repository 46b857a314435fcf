// gen_problems.mjs: problems/*/problem.json -> one C file with the problem table.
// The problems' data has one home, their folders; this turns it into what the
// C judge (native and wasm) links, and checks it with clear messages on the way.
// Usage: node libjudge/gen_problems.mjs OUT.c [PROBLEMS_DIR]
import { readFileSync, readdirSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MASKS = ['none', 'ones', 'right', 'left', 'random'];
// The C types a param may have; a non-const pointer is an output ("dir":
// "out") or an output that is read first ("dir": "inout"); a float one may
// instead be scratch space ("dir": "scratch"): it arrives as canary, its
// guards are checked, and its contents are never compared.
const TYPES = {
  'int': { type: 'JUDGE_INT', c: 'int' },
  'float *': { type: 'JUDGE_F32', out: true, c: 'float *' },
  'const float *': { type: 'JUDGE_F32', c: 'const float *' },
  'const unsigned char *': { type: 'JUDGE_U8', c: 'const unsigned char *' },
  'int *': { type: 'JUDGE_I32', out: true, c: 'int *' },
  'const int *': { type: 'JUDGE_I32', c: 'const int *' },
  'long long *': { type: 'JUDGE_I64', out: true, c: 'long long *' },
};

class ProblemError extends Error {}
const fail = (where, msg) => { throw new ProblemError(`${where}: ${msg}`); };

// A C string literal for any text: printable ASCII as is, the rest as octal bytes.
function cstr(text) {
  const bytes = Buffer.from(text, 'utf8');
  let out = '"', col = 0;
  for (const b of bytes) {
    let piece;
    if (b === 0x0a) piece = '\\n';
    else if (b === 0x22) piece = '\\"';
    else if (b === 0x5c) piece = '\\\\';
    else if (b === 0x3f) piece = '\\?';   // no trigraphs
    else if (b >= 0x20 && b < 0x7f) piece = String.fromCharCode(b);
    else piece = '\\' + b.toString(8).padStart(3, '0');
    out += piece;
    col += piece.length;
    if (b === 0x0a || col > 72) { out += '"\n    "'; col = 0; }
  }
  return out + '"';
}

const cfloat = (v) => `${Number(v).toExponential(9)}f`;

function loadProblem(problems, dir) {
  const where = `problems/${dir}/problem.json`;
  const path = join(problems, dir, 'problem.json');
  let p;
  try { p = JSON.parse(readFileSync(path, 'utf8')); }
  catch (e) { fail(where, e.code === 'ENOENT' ? 'missing' : `not valid JSON (${e.message})`); }
  const need = (obj, key, kind, at) => {
    if (typeof obj[key] !== kind) fail(where, `${at}${key} must be a ${kind}`);
    return obj[key];
  };
  need(p, 'id', 'number', '');
  need(p, 'slug', 'string', '');
  if (dir !== `${p.id}-${p.slug}`) fail(where, `the folder must be named ${p.id}-${p.slug}`);
  need(p, 'function', 'string', '');
  if (!/^[A-Za-z_]\w*$/.test(p.function)) fail(where, 'function must be a C identifier');
  for (const k of ['en', 'zh']) need(p.title ?? {}, k, 'string', 'title.');
  need(p, 'difficulty', 'string', '');
  if (!Array.isArray(p.params) || p.params.length === 0 || p.params.length > 16)
    fail(where, 'params must be a list of 1 to 16 parameters');
  const index = new Map(p.params.map((q, i) => [q.name, i]));
  p.params.forEach((q, i) => {
    const at = `params[${i}].`;
    need(q, 'name', 'string', at);
    const t = TYPES[q.type];
    if (!t) fail(where, `${at}type must be one of ${Object.keys(TYPES).join(', ')}`);
    q.t = t;
    if (q.type === 'int') return;
    if (!Array.isArray(q.shape) || q.shape.length === 0 || q.shape.length > 4)
      fail(where, `${at}shape must list 1 to 4 int params`);
    q.dims = q.shape.map((n) => {
      const j = index.get(n);
      if (j === undefined || p.params[j].type !== 'int') fail(where, `${at}shape: ${n} is not an int param`);
      return j;
    });
    if (q.dir === 'scratch' && q.type !== 'float *') fail(where, `${at}only a float * can be "dir": "scratch"`);
    if (['out', 'inout', 'scratch'].includes(q.dir) !== Boolean(t.out))
      fail(where, `${at}a non-const pointer, and only one, has "dir": "out", "inout" or "scratch"`);
  });
  for (const k of ['atol', 'rtol']) need(p.tolerance ?? {}, k, 'number', 'tolerance.');
  for (const k of ['time_ms', 'memory_mb', 'output_kb']) need(p.limits ?? {}, k, 'number', 'limits.');
  // Optional: one sentence added to an MLE verdict (why this problem's limit is what it is).
  if (p.limits.mle_hint !== undefined) need(p.limits, 'mle_hint', 'string', 'limits.');
  if (!Array.isArray(p.cases) || p.cases.length === 0) fail(where, 'cases must be a non-empty list');
  p.cases.forEach((c, i) => {
    const at = `cases[${i}].`;
    need(c, 'name', 'string', at);
    for (const q of p.params) if (q.type === 'int') {
      if (!Number.isInteger(c[q.name])) fail(where, `${at}${q.name} must be an integer`);
    }
    c.mask ??= 'none';
    if (!MASKS.includes(c.mask)) fail(where, `${at}mask must be one of ${MASKS.join(', ')}`);
    c.scale ??= 1;
    need(c, 'scale', 'number', at);
    for (const [name, data] of Object.entries(c.tensors ?? {})) {
      const q = p.params[index.get(name)];
      if (!q || !['JUDGE_F32', 'JUDGE_I32'].includes(q.t.type) || (q.t.out && q.dir !== 'inout'))
        fail(where, `${at}tensors.${name} is not a float or int input`);
      const n = q.dims.reduce((acc, j) => acc * c[p.params[j].name], 1);
      if (!Array.isArray(data) || data.length !== n || !data.every(Number.isFinite))
        fail(where, `${at}tensors.${name} must be ${n} numbers`);
      // The table stores example values as floats: an int one must survive that.
      if (q.t.type === 'JUDGE_I32' && !data.every((v) => Number.isInteger(v) && Math.abs(v) < 2 ** 24))
        fail(where, `${at}tensors.${name} must be integers below 2^24 in magnitude`);
    }
  });
  for (const f of ['starter.c', 'solution.c', 'statement.en.md', 'statement.zh.md'])
    if (!existsSync(join(problems, dir, f))) fail(`problems/${dir}`, `${f} is missing`);
  p.starter = readFileSync(join(problems, dir, 'starter.c'), 'utf8');
  p.dir = dir;
  return p;
}

function emit(p) {
  const id = `p${p.id}`;
  const out = [];
  const params = p.params.map((q) => {
    const dims = q.dims ?? [];
    const isIn = !q.t.out || q.dir === 'inout';
    const isOut = q.t.out && q.dir !== 'scratch';
    return `    { ${cstr(q.name)}, ${q.t.type}, ${isOut ? 1 : 0}, ${isIn ? 1 : 0}, ${q.nullable ? 1 : 0}, ` +
      `${dims.length}, { ${[...dims, 0, 0, 0, 0].slice(0, 4).join(', ')} } },`;
  });
  out.push(`static const judge_param ${id}_params[] = {\n${params.join('\n')}\n};`);
  p.cases.forEach((c, i) => {
    const ints = p.params.map((q) => (q.type === 'int' ? c[q.name] : 0));
    out.push(`static const int ${id}_c${i}_ints[] = { ${ints.join(', ')} };`);
    const tensors = Object.entries(c.tensors ?? {});
    for (const [name, data] of tensors)
      out.push(`static const float ${id}_c${i}_${name}[] = { ${data.map(cfloat).join(', ')} };`);
    if (tensors.length)
      out.push(`static const judge_tensor ${id}_c${i}_tensors[] = {\n` +
        tensors.map(([name, data]) => `    { ${cstr(name)}, ${id}_c${i}_${name}, ${data.length} },`).join('\n') + '\n};');
  });
  const cases = p.cases.map((c, i) => {
    const nt = Object.keys(c.tensors ?? {}).length;
    return `    { ${cstr(c.name)}, ${c.visible ? 1 : 0}, ${c.probe ? 1 : 0}, ${id}_c${i}_ints, ` +
      `${cstr(c.mask)}, ${cfloat(c.scale)}, ${nt ? `${id}_c${i}_tensors` : 'NULL'}, ${nt} },`;
  });
  out.push(`static const judge_case ${id}_cases[] = {\n${cases.join('\n')}\n};`);
  const decl = `void ${p.function}(${p.params.map((q) => `${q.t.c}${q.t.c.endsWith('*') ? '' : ' '}${q.name}`).join(', ')})`;
  const call = p.params.map((q, i) => (q.type === 'int' ? `ints[${i}]` : `(${q.t.c})buf[${i}]`));
  const invoke = `${decl};\nvoid judge_invoke(void *const *buf, const int *ints)\n{\n    ` +
    `${p.function}(${call.join(', ')});\n}\n`;
  const meta = `    { ${p.id}, ${cstr(p.slug)}, ${cstr(p.dir)}, ${cstr(p.title.en)}, ${cstr(p.title.zh)},\n` +
    `      ${cstr(p.difficulty)}, ${cstr(p.function)},\n      ${cstr(decl + ';\n')},\n      ${cstr(invoke)},\n` +
    `      ${cstr(p.starter)},\n      ${id}_params, ${p.params.length}, ${id}_cases, ${p.cases.length},\n` +
    `      ${p.tolerance.atol}, ${p.tolerance.rtol}, ${p.limits.time_ms}, ${p.limits.memory_mb}, ${p.limits.output_kb},\n` +
    `      ${p.limits.mle_hint === undefined ? 'NULL' : cstr(p.limits.mle_hint)} },`;
  return { defs: out.join('\n'), meta };
}

function main() {
  const [target, from = join(root, 'problems')] = process.argv.slice(2);
  if (!target) { console.error('usage: node libjudge/gen_problems.mjs OUT.c [PROBLEMS_DIR]'); process.exit(2); }
  const dirs = readdirSync(from, { withFileTypes: true })
    .filter((d) => d.isDirectory()).map((d) => d.name).sort((a, b) => parseInt(a) - parseInt(b));
  let problems;
  try { problems = dirs.map((dir) => loadProblem(from, dir)); }
  catch (e) {
    if (!(e instanceof ProblemError)) throw e;
    console.error(`gen_problems: ${e.message}`);
    process.exit(1);
  }
  const parts = problems.map(emit);
  // The runner is compiled beside the learner's file, where the judge's
  // headers are not: wire.h, the constants it shares with the judge, goes in.
  const include = '#include "wire.h"';
  const runnerC = readFileSync(join(root, 'libjudge', 'runner.c'), 'utf8');
  if (!runnerC.includes(include)) { console.error(`gen_problems: runner.c lacks ${include}`); process.exit(1); }
  const runner = runnerC.replace(include, readFileSync(join(root, 'libjudge', 'wire.h'), 'utf8').trimEnd());
  const text = `/* Generated by libjudge/gen_problems.mjs from problems/<id>-<slug>/problem.json: do not edit. */\n` +
    `#include <stddef.h>\n#include "judge.h"\n\n${parts.map((x) => x.defs).join('\n\n')}\n\n` +
    `const judge_meta judge_metas[] = {\n${parts.map((x) => x.meta).join('\n')}\n};\n` +
    `const int judge_n_metas = ${parts.length};\n\nconst char judge_runner_source[] =\n    ${cstr(runner)};\n`;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
}

main();
