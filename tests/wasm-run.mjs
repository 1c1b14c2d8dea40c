// wasm-run.mjs — run nnpad.wasm (tests/wasm-build.sh) with Node 20's WASI:
//   node tests/wasm-run.mjs NNPAD.wasm [nnpad's arguments...]
// as the native nnpad runs without a terminal: a program from stdin, a
// file or -e, output on stdout and stderr, nnpad's exit status.  It sees
// the environment, the current folder (relative names) and, by the same
// absolute names, /tmp, $TMPDIR, $HOME and $XDG_STATE_HOME where they
// exist (WASI opens nothing else).  /locale is the Korean catalogue's
// folder (nnpad.wasm reads /locale/ko/LC_MESSAGES/nnpad.mo, as in the page:
// web/worker.js): $NNPAD_WASM_LOCALE, else the build's locale/ beside the
// folder of NNPAD.wasm (make builds BUILD/locale, wasm-build.sh BUILD/wasm).
import { WASI } from 'node:wasi';
import { readFileSync, existsSync } from 'node:fs';
import { resolve, dirname } from 'node:path';

const [file, ...args] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node wasm-run.mjs NNPAD.wasm [ARGS...]\n');
  process.exit(2);
}
const preopens = { '.': '.' };
for (const d of ['/tmp', process.env.TMPDIR, process.env.HOME, process.env.XDG_STATE_HOME])
  if (d && d.startsWith('/') && existsSync(d)) preopens[resolve(d)] = resolve(d);
const locale = process.env.NNPAD_WASM_LOCALE || resolve(dirname(file), '..', 'locale');
if (existsSync(locale)) preopens['/locale'] = locale;
const wasi = new WASI({ version: 'preview1', args: ['nnpad', ...args], env: process.env, preopens, returnOnExit: true });
const mod = await WebAssembly.compile(readFileSync(file));
const inst = await WebAssembly.instantiate(mod, wasi.getImportObject());
process.exitCode = wasi.start(inst);
