// build_shim.mjs SRC OUT: compiles the learner shim (learner_shim.c) to the
// object every learner module links (wasm/compile.mjs, shimCommand), with
// the toolchain the judge compiles with. Run by `make wasm`.
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { clangBundle } from './platform_node.mjs';
import { shimCommand, SHIM_OBJECT } from './compile.mjs';

const [src, out] = process.argv.slice(2);
if (!src || !out) {
  console.error('usage: node wasm/build_shim.mjs SRC OUT');
  process.exit(2);
}
let runClang;
try {
  ({ runClang } = await import(clangBundle()));
} catch (e) {
  console.error(`build_shim: cannot load @yowasp/clang (run npm ci): ${e.message}`);
  process.exit(1);
}
const { args, files } = shimCommand(readFileSync(src, 'utf8'));
let said = '';
const keep = (b) => { if (b) said += new TextDecoder().decode(b); };
let built = null;
try {
  await runClang(null, {}, { fetchProgress: () => {} });   // loaded quietly (a compile's own fetchProgress is ignored)
  built = await runClang(['clang', ...args], files, { stdout: keep, stderr: keep, decodeASCII: false });
} catch {
  /* said tells why */
}
// A message would be the same in every learner's compile: none is allowed.
if (!built?.[SHIM_OBJECT] || said) {
  console.error(`build_shim: ${src} must compile without a message:\n${said}`);
  process.exit(1);
}
writeFileSync(`${out}.tmp`, built[SHIM_OBJECT]);
renameSync(`${out}.tmp`, out);
