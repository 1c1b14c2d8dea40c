// worker.js — one nnpad session: nnpad.wasm (wasm32-wasi, tests/wasm-build.sh)
// run in this Web Worker with a small WASI shim of its own (preview1: the 27
// imports nnpad.wasm has) over an in-memory file system.
//
// nnpad runs as it does with its input from a pipe (`nnpad < in`): no
// prompts, output on stdout.  Its stdin is the console: when nnpad reads
// and has nothing left, fd_read says so to the page ("need") and blocks in
// Atomics.wait on a SharedArrayBuffer until the page writes the next line
// there.  So one nnpad process lives as long as the worker, and variables
// stay between inputs.  Stop is the page's worker.terminate().
//
// Messages in:  {module, sab, env, args,   start (the compiled module, the input channel, argv,
//                lessons, state}           the lesson pack if the page has it, the saved state files)
// Messages out: {t:'out', fd, text}        output, as written
//               {t:'need', more}           nnpad waits for input (all its output was sent);
//                                          more: in the middle of an input (an open { ( [)
//               {t:'complete', text}       the answer to a completion request (below)
//               {t:'lessons', pack}        the lesson pack, fetched here (the page keeps it for the next session)
//               {t:'state', name, text}    a state file (lesson progress) written: the page stores it
//               {t:'figure', name, text}   a display list written (FILE.jsonl: web/draw.js)
//               {t:'file', name, data}     a file written (:save, :report, save()): the page offers it
//               {t:'put', name, size}      an uploaded file is in place (the page's Open…)
//               {t:'exit', code}           nnpad ended (quit, or end of input)
//               {t:'fatal', text}          the run failed (a trap: a bug, or out of memory)
//               {t:'catalogue', bytes, ms} the Korean catalogue (ko.mo) downloaded, in MS
//               {t:'nocat', why}           ... or not
// Input channel (sab): Int32 ctl[0] = 0 empty / 1 full, ctl[1] = byte count
// (-1: end of input); the bytes follow at offset 8.  ctl[0] = 2, 3, 4 carry
// an uploaded file instead (takeFile): its name, a part of its bytes, its end;
// ctl[0] = 5 a completion request (complete), answered while nnpad waits.
'use strict';

const E = { SUCCESS: 0, ACCES: 2, BADF: 8, EXIST: 20, INVAL: 28, IO: 29, ISDIR: 31, NOENT: 44, NOSYS: 52,
  NOTDIR: 54, NOTEMPTY: 55, SPIPE: 70 };
const FT = { UNKNOWN: 0, CHAR: 2, DIR: 3, REG: 4 };
const O = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 };
const ALL_RIGHTS = 0x1fffffffn;

class Exit { constructor(code) { this.code = code; } }

// ---- the in-memory file system: a tree of {dir: Map} and {data, size} nodes
let inoNext = 1;
const mkdir = () => ({ dir: new Map(), ino: inoNext++, mtime: Date.now() });
const mkfile = () => ({ data: new Uint8Array(0), size: 0, ino: inoNext++, mtime: Date.now() });
const root = mkdir();

// path relative to node dir -> {parent, name, node|undefined} or an errno
function walk(dir, path) {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (dir === root && parts[0] === LESSONS) lessonsLoad();
  const stack = [dir];
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i];
    const cur = stack[stack.length - 1];
    if (p === '..') { if (stack.length > 1) stack.pop(); else return E.ACCES; continue; }
    const n = cur.dir.get(p);
    if (!n) return E.NOENT;
    if (!n.dir) return E.NOTDIR;
    stack.push(n);
  }
  const parent = stack[stack.length - 1];
  let name = parts.length ? parts[parts.length - 1] : '.';
  if (name === '..') {
    if (stack.length < 2) return E.ACCES;
    return { parent: stack[stack.length - 2], name: '.', node: stack[stack.length - 2] };
  }
  return { parent, name, node: name === '.' ? parent : parent.dir.get(name) };
}

// ---- files to and from the page
// An upload comes through the input channel in parts (the worker is busy
// inside nnpad and reads no messages): 2 its name, 3 its bytes (as many
// parts as it takes), 4 its end, when it is put in place whole, as nnpad
// puts its own files (a file of that name is replaced).
let upload = null;
function takeFile(kind, b) {
  if (kind === 2) upload = { name: dec.decode(b), parts: [], size: 0 };
  else if (kind === 3 && upload) { upload.parts.push(b); upload.size += b.length; }
  else if (kind === 4 && upload) {
    const w = walk(root, upload.name);
    if (typeof w !== 'number' && !(w.node && w.node.dir)) {
      const f = mkfile();
      f.data = new Uint8Array(upload.size);
      let o = 0;
      for (const p of upload.parts) { f.data.set(p, o); o += p.length; }
      f.size = upload.size;
      w.parent.dir.set(w.name, f);
      postMessage({ t: 'put', name: upload.name, size: upload.size });
    } else postMessage({ t: 'put', name: upload.name, size: -1 });
    upload = null;
  }
}
// A figure's display list: figures/NNN-name.jsonl (view_notebook.c), drawn by the page
const isFigure = (name) => /(^|\/)[0-9]{3,}-[^/]*\.jsonl$/.test(name);
// A file nnpad put in place (written whole, then renamed: :save, :report,
// save(), ...): the page offers it as a download.  Not figures (drawn
// instead), nor what nnpad keeps for itself: a hidden folder (~/.local/
// state, the default), the XDG folders the page names, /tmp.
let ownDirs = ['tmp/'];
function fileWritten(name, node) {
  const rel = name.replace(/^\/+/, '');
  if (node.dir || isFigure(rel) || /(^|\/)\./.test(rel) || ownDirs.some((d) => rel.startsWith(d))) return;
  postMessage({ t: 'file', name, data: node.data.slice(0, node.size) });
}

// ---- the Korean catalogue: nnpad (util/i18n.c, util/mo.c) reads
// /locale/ko/LC_MESSAGES/nnpad.mo at its first Korean message, and only
// then is it downloaded (ko.mo beside this script, `make web`; 0.56 MB,
// 0.20 MB with gzip -9): an English session never asks for it, and `:lang ko`
// typed in one still finds it.  A synchronous request, as nnpad's read is.
function catalogueNode() {
  const f = Object.assign(mkfile(), { url: 'ko.mo' });
  let d = root;
  for (const p of ['locale', 'ko', 'LC_MESSAGES']) { const n = mkdir(); d.dir.set(p, n); d = n; }
  d.dir.set('nnpad.mo', f);
}
// a node still to be downloaded: true once it holds its bytes, false (and
// the page told why) when the download failed: nnpad then stays English
function fetched(node) {
  if (!node.url) return !node.missing;
  const url = node.url;
  node.url = null;
  let why;
  const t = performance.now();
  try {
    const x = new XMLHttpRequest();
    x.open('GET', url, false);
    x.responseType = 'arraybuffer';
    x.send();
    if (x.status === 200) {
      node.data = new Uint8Array(x.response);
      node.size = node.data.length;
      postMessage({ t: 'catalogue', bytes: node.size, ms: performance.now() - t });
      return true;
    }
    why = 'HTTP ' + x.status;
  } catch (e) {
    why = e.message;
  }
  node.missing = true;
  postMessage({ t: 'nocat', why });
  return false;
}

// ---- open descriptors: 0-2 the console, 3 the preopened "/"
const fds = new Map();
fds.set(0, { std: 0 });
fds.set(1, { std: 1 });
fds.set(2, { std: 2 });
fds.set(3, { node: root, pos: 0, preopen: '/' });
let fdNext = 4;

let mem = null;                     // the instance's memory (its buffer changes when it grows)
const dv = () => new DataView(mem.buffer);
const u8 = () => new Uint8Array(mem.buffer);
const enc = new TextEncoder();
const dec = new TextDecoder();
const str = (p, n) => dec.decode(u8().slice(p, p + n));

// ---- console
let sab = null, ctl = null, inBytes = null;
let pending = new Uint8Array(0);    // input received and not yet read
let inEnd = false;
const outDec = [new TextDecoder(), new TextDecoder()];
function readInput(max) {
  while (pending.length === 0 && !inEnd) {
    postMessage({ t: 'need', more: continuing() });
    // a Tab while nnpad waits: answered here, and the wait goes on
    let kind;
    for (;;) {
      Atomics.wait(ctl, 0, 0);
      kind = Atomics.load(ctl, 0);
      if (kind !== 5) break;
      complete();
    }
    const n = ctl[1];
    if (kind !== 1) takeFile(kind, inBytes.slice(0, Math.max(n, 0)));
    else if (n < 0) inEnd = true;
    else pending = inBytes.slice(0, n);
    Atomics.store(ctl, 0, 0);
  }
  const k = Math.min(max, pending.length);
  const got = pending.subarray(0, k);
  pending = pending.subarray(k);
  return got;
}

// ---- completion and continuation: nnpad's exports (src/repl/repl_web.c),
// called while nnpad waits in fd_read (between inputs)
let exported = {};
function continuing() {
  try { return exported.nnpad_continuing ? exported.nnpad_continuing() === 1 : false; } catch (e) { return false; }
}
// The request (ctl[0] = 2): the cursor (Int32, a byte offset) and the
// line's UTF-8 bytes; the answer is posted: {t:'complete', text} ("START
// KIND" and one candidate a line, repl_web.c), and the channel is free again.
function complete() {
  const data = inBytes.slice(0, Math.max(4, ctl[1]));
  const cursor = new DataView(data.buffer).getInt32(0, true), line = data.subarray(4);
  let text = '0 -\n';
  try {
    if (exported.nnpad_complete) {
      const p = exported.nnpad_complete_buf(line.length);
      if (p) {
        u8().set(line, p);
        const r = exported.nnpad_complete(p, cursor);
        const m = u8();
        let e = r;
        while (m[e]) e++;
        text = dec.decode(m.slice(r, e));
      }
    }
  } catch (e) {
    text = '0 -\n';
  }
  Atomics.store(ctl, 0, 0);
  postMessage({ t: 'complete', text });
}

function iovs(iov, n) {
  const v = dv(), r = [];
  for (let i = 0; i < n; i++) r.push([v.getUint32(iov + 8 * i, true), v.getUint32(iov + 8 * i + 4, true)]);
  return r;
}
function grow(f, size) {
  if (size > f.data.length) {
    const d = new Uint8Array(Math.max(size, f.data.length * 2, 256));
    d.set(f.data.subarray(0, f.size));
    f.data = d;
  }
}
function filestat(buf, node, std) {
  const v = dv();
  for (let i = 0; i < 64; i += 8) v.setBigUint64(buf + i, 0n, true);
  v.setBigUint64(buf + 8, BigInt(node ? node.ino : 0), true);
  v.setUint8(buf + 16, std !== undefined ? (std === 0 ? FT.UNKNOWN : FT.CHAR) : node.dir ? FT.DIR : FT.REG);
  v.setBigUint64(buf + 24, 1n, true);
  v.setBigUint64(buf + 32, BigInt(node && !node.dir ? node.size : 0), true);
  const t = BigInt(node ? node.mtime : Date.now()) * 1000000n;
  for (const o of [40, 48, 56]) v.setBigUint64(buf + o, t, true);
}
function putStrings(list, ptrs, buf) {
  const v = dv(), m = u8();
  for (const s of list) {
    const b = enc.encode(s + '\0');
    v.setUint32(ptrs, buf, true);
    m.set(b, buf);
    ptrs += 4;
    buf += b.length;
  }
  return E.SUCCESS;
}
function sizes(list, pn, pb) {
  const v = dv();
  v.setUint32(pn, list.length, true);
  v.setUint32(pb, list.reduce((a, s) => a + enc.encode(s).length + 1, 0), true);
  return E.SUCCESS;
}
const dirOf = (fd) => { const f = fds.get(fd); return f && f.node && f.node.dir ? f.node : null; };

function wasi(args, env) {
  return {
    args_get: (p, b) => putStrings(args, p, b),
    args_sizes_get: (pn, pb) => sizes(args, pn, pb),
    environ_get: (p, b) => putStrings(env, p, b),
    environ_sizes_get: (pn, pb) => sizes(env, pn, pb),
    clock_time_get(id, prec, out) {
      const ns = id === 0 ? BigInt(Date.now()) * 1000000n : BigInt(Math.round(performance.now() * 1e6));
      dv().setBigUint64(out, ns, true);
      return E.SUCCESS;
    },
    random_get(buf, len) {
      for (let o = 0; o < len; o += 65536) crypto.getRandomValues(new Uint8Array(mem.buffer, buf + o, Math.min(65536, len - o)));
      return E.SUCCESS;
    },
    proc_exit(code) { throw new Exit(code); },
    fd_prestat_get(fd, buf) {
      const f = fds.get(fd);
      if (!f || !f.preopen) return E.BADF;
      dv().setUint32(buf, 0, true);
      dv().setUint32(buf + 4, enc.encode(f.preopen).length, true);
      return E.SUCCESS;
    },
    fd_prestat_dir_name(fd, p, n) {
      const f = fds.get(fd);
      if (!f || !f.preopen) return E.BADF;
      u8().set(enc.encode(f.preopen).subarray(0, n), p);
      return E.SUCCESS;
    },
    fd_fdstat_get(fd, buf) {
      const f = fds.get(fd);
      if (!f) return E.BADF;
      const v = dv();
      // stdin is not a terminal (nnpad reads it as a pipe); stdout and
      // stderr are character devices without seek rights: not a terminal either
      v.setUint8(buf, f.std === 0 ? FT.UNKNOWN : f.std !== undefined ? FT.CHAR : f.node.dir ? FT.DIR : FT.REG);
      v.setUint16(buf + 2, f.append ? 1 : 0, true);
      v.setBigUint64(buf + 8, f.std !== undefined ? 0x200n | 0x40n | 0x2n : ALL_RIGHTS, true);  // poll, write, read
      v.setBigUint64(buf + 16, f.std !== undefined ? 0n : ALL_RIGHTS, true);
      return E.SUCCESS;
    },
    fd_fdstat_set_flags: () => E.SUCCESS,
    fd_filestat_get(fd, buf) {
      const f = fds.get(fd);
      if (!f) return E.BADF;
      filestat(buf, f.node, f.std);
      return E.SUCCESS;
    },
    fd_filestat_set_size(fd, size) {
      const f = fds.get(fd);
      if (!f || !f.node || f.node.dir) return E.BADF;
      const n = Number(size);
      grow(f.node, n);
      if (n > f.node.size) f.node.data.fill(0, f.node.size, n);
      f.node.size = n;
      f.node.mtime = Date.now();
      return E.SUCCESS;
    },
    fd_read(fd, iov, n, nread) {
      const f = fds.get(fd);
      if (!f) return E.BADF;
      let total = 0;
      if (f.std === 0) {
        for (const [p, l] of iovs(iov, n)) {
          const got = readInput(l);
          u8().set(got, p);
          total += got.length;
          if (got.length < l) break;
        }
      } else if (f.node && !f.node.dir) {
        for (const [p, l] of iovs(iov, n)) {
          const k = Math.max(0, Math.min(l, f.node.size - f.pos));
          u8().set(f.node.data.subarray(f.pos, f.pos + k), p);
          f.pos += k;
          total += k;
          if (k < l) break;
        }
      } else return f.node ? E.ISDIR : E.BADF;
      dv().setUint32(nread, total, true);
      return E.SUCCESS;
    },
    fd_pread(fd, iov, n, off, nread) {
      const f = fds.get(fd);
      if (!f || !f.node || f.node.dir) return f ? E.SPIPE : E.BADF;
      let pos = Number(off), total = 0;
      for (const [p, l] of iovs(iov, n)) {
        const k = Math.max(0, Math.min(l, f.node.size - pos));
        u8().set(f.node.data.subarray(pos, pos + k), p);
        pos += k;
        total += k;
      }
      dv().setUint32(nread, total, true);
      return E.SUCCESS;
    },
    fd_write(fd, iov, n, nwritten) {
      const f = fds.get(fd);
      if (!f) return E.BADF;
      let total = 0;
      for (const [p, l] of iovs(iov, n)) {
        const b = u8().slice(p, p + l);
        if (f.std === 1 || f.std === 2) {
          const text = outDec[f.std - 1].decode(b, { stream: true });
          if (text) postMessage({ t: 'out', fd: f.std, text });
        } else if (f.node && f.node.devnull) {
          // /dev/null: written and forgotten (:time sends its runs' output there)
        } else if (f.node && !f.node.dir) {
          if (f.append) f.pos = f.node.size;
          grow(f.node, f.pos + l);
          f.node.data.set(b, f.pos);
          f.pos += l;
          if (f.pos > f.node.size) f.node.size = f.pos;
          f.node.mtime = Date.now();
        } else return E.BADF;
        total += l;
      }
      dv().setUint32(nwritten, total, true);
      return E.SUCCESS;
    },
    fd_seek(fd, off, whence, out) {
      const f = fds.get(fd);
      if (!f) return E.BADF;
      if (!f.node || f.node.dir) return E.SPIPE;
      const base = whence === 0 ? 0 : whence === 1 ? f.pos : f.node.size;
      const pos = base + Number(off);
      if (pos < 0) return E.INVAL;
      f.pos = pos;
      dv().setBigUint64(out, BigInt(pos), true);
      return E.SUCCESS;
    },
    fd_close(fd) { if (!fds.has(fd) || fd < 3) return E.BADF; fds.delete(fd); return E.SUCCESS; },
    fd_sync: () => E.SUCCESS,
    fd_datasync: () => E.SUCCESS,
    fd_readdir(fd, buf, len, cookie, used) {
      const d = dirOf(fd);
      if (!d) return E.BADF;
      const names = ['.', '..', ...d.dir.keys()];
      const v = dv(), m = u8();
      let o = 0;
      for (let i = Number(cookie); i < names.length && o < len; i++) {
        const name = enc.encode(names[i]);
        const node = i < 2 ? d : d.dir.get(names[i]);
        const ent = new Uint8Array(24 + name.length);
        const ev = new DataView(ent.buffer);
        ev.setBigUint64(0, BigInt(i + 1), true);
        ev.setBigUint64(8, BigInt(node.ino), true);
        ev.setUint32(16, name.length, true);
        ev.setUint8(20, node.dir ? FT.DIR : FT.REG);
        ent.set(name, 24);
        const k = Math.min(ent.length, len - o);   // a cut entry tells libc to ask again with a larger buffer
        m.set(ent.subarray(0, k), buf + o);
        o += k;
      }
      v.setUint32(used, o, true);
      return E.SUCCESS;
    },
    path_open(dirfd, dirflags, p, n, oflags, rights, inh, fdflags, out) {
      const d = dirOf(dirfd);
      if (!d) return E.BADF;
      const w = walk(d, str(p, n));
      if (typeof w === 'number') return w;
      let node = w.node;
      if (node && !fetched(node)) return E.NOENT;
      if (node && (oflags & O.EXCL) && (oflags & O.CREAT)) return E.EXIST;
      if (!node) {
        if (!(oflags & O.CREAT)) return E.NOENT;
        if (oflags & O.DIRECTORY) return E.NOENT;
        node = mkfile();
        w.parent.dir.set(w.name, node);
        w.parent.mtime = Date.now();
      }
      if ((oflags & O.DIRECTORY) && !node.dir) return E.NOTDIR;
      if (node.dir && (rights & 0x40n) && !(oflags & O.DIRECTORY)) return E.ISDIR;   // opened for writing
      if ((oflags & O.TRUNC) && !node.dir) { node.size = 0; node.mtime = Date.now(); }
      const fd = fdNext++;
      fds.set(fd, { node, pos: 0, append: !!(fdflags & 1) });
      dv().setUint32(out, fd, true);
      return E.SUCCESS;
    },
    path_filestat_get(fd, flags, p, n, buf) {
      const d = dirOf(fd);
      if (!d) return E.BADF;
      const w = walk(d, str(p, n));
      if (typeof w === 'number') return w;
      if (!w.node || !fetched(w.node)) return E.NOENT;
      filestat(buf, w.node);
      return E.SUCCESS;
    },
    path_create_directory(fd, p, n) {
      const d = dirOf(fd);
      if (!d) return E.BADF;
      const w = walk(d, str(p, n));
      if (typeof w === 'number') return w;
      if (w.node) return E.EXIST;
      w.parent.dir.set(w.name, mkdir());
      return E.SUCCESS;
    },
    path_rename(fd, p, n, fd2, p2, n2) {
      const d = dirOf(fd), d2 = dirOf(fd2);
      if (!d || !d2) return E.BADF;
      const a = walk(d, str(p, n)), b = walk(d2, str(p2, n2));
      if (typeof a === 'number') return a;
      if (typeof b === 'number') return b;
      if (!a.node) return E.NOENT;
      if (b.node && b.node.dir && (!a.node.dir || b.node.dir.size)) return a.node.dir ? E.NOTEMPTY : E.ISDIR;
      if (b.node && !b.node.dir && a.node.dir) return E.NOTDIR;
      a.parent.dir.delete(a.name);
      b.parent.dir.set(b.name, a.node);
      // a figure's display list (nnpad writes a file whole, then renames
      // it into place): the page draws it
      if (!a.node.dir && isFigure(str(p2, n2)))
        postMessage({ t: 'figure', name: str(p2, n2), text: dec.decode(a.node.data.subarray(0, a.node.size)) });
      fileWritten(str(p2, n2), a.node);
      stateWritten(b.parent, b.name, a.node);
      return E.SUCCESS;
    },
    path_unlink_file(fd, p, n) {
      const d = dirOf(fd);
      if (!d) return E.BADF;
      const w = walk(d, str(p, n));
      if (typeof w === 'number') return w;
      if (!w.node) return E.NOENT;
      if (w.node.dir) return E.ISDIR;
      w.parent.dir.delete(w.name);
      return E.SUCCESS;
    },
    path_readlink(fd, p, n) {
      const d = dirOf(fd);
      if (!d) return E.BADF;
      const w = walk(d, str(p, n));
      if (typeof w === 'number') return w;
      return w.node ? E.INVAL : E.NOENT;   // nothing here is a symbolic link
    },
  };
}

// ---- lessons: the page's lessons.pack (`make web`) unpacked into /lessons
// when nnpad first looks there (nnpad.wasm is built with NN_LESSONS_SRCDIR
// "/lessons"), fetched then, not at every start: a session that opens no
// lesson never downloads it.  Format: a line "nnpad-lessons 1", then per
// file a line "NAME BYTES" and its bytes.
const LESSONS = 'lessons';
let lessonsPack = null;              // the pack (an ArrayBuffer) the page handed over, or null
let lessonsTried = false;
let lessonsKo = false;               // nnpad's --lang ko: the note in Korean
function lessonsUnpack(buf) {
  const b = new Uint8Array(buf), files = new Map();
  let o = 0;
  const lineAt = () => {
    const e = b.indexOf(10, o);
    if (e < 0) throw new Error('a line without its end at byte ' + o);
    const l = dec.decode(b.subarray(o, e));
    o = e + 1;
    return l;
  };
  if (lineAt() !== 'nnpad-lessons 1') throw new Error('not a lesson pack (nnpad-lessons 1)');
  while (o < b.length) {
    const m = /^([A-Za-z0-9_.-]+\.md) (\d+)$/.exec(lineAt());
    if (!m || o + Number(m[2]) > b.length) throw new Error('a malformed entry before byte ' + o);
    files.set(m[1], b.slice(o, o + Number(m[2])));
    o += Number(m[2]);
  }
  return files;
}
function lessonsLoad() {
  if (lessonsTried) return;
  lessonsTried = true;
  try {
    if (!lessonsPack) {
      // synchronous: nnpad is inside a file call (a worker may do this)
      const x = new XMLHttpRequest();
      x.open('GET', 'lessons.pack', false);
      x.responseType = 'arraybuffer';
      x.send();
      if (x.status !== 200) throw new Error('HTTP ' + x.status + ' for lessons.pack (make web builds it)');
      lessonsPack = x.response;
      postMessage({ t: 'lessons', pack: lessonsPack });
    }
    const d = mkdir();
    for (const [name, data] of lessonsUnpack(lessonsPack)) d.dir.set(name, Object.assign(mkfile(), { data, size: data.length }));
    root.dir.set(LESSONS, d);
  } catch (e) {
    postMessage({ t: 'out', fd: 2, text: (lessonsKo ? '레슨 파일을 불러오지 못했어요: ' : 'the lessons did not load: ') + e.message + '\n' });
  }
}

// ---- state files kept between visits: lesson progress (src/lesson/
// lesson_run.c's "lessons", lesson_report.c's "lesson-steps") in nnpad's
// state folder, as afile_state_dir finds it: $XDG_STATE_HOME/nnpad, else
// $HOME/.local/state/nnpad.  The page hands over what it stored; each
// rewrite (nnpad writes a file whole, then renames it into place) goes back
// to the page.
const STATE_FILES = ['lessons', 'lesson-steps'];
let stateDir = null;                 // the folder's node
function stateRestore(env, state) {
  const get = (k) => { const e = env.find((v) => v.startsWith(k + '=')); return e ? e.slice(k.length + 1) : ''; };
  const x = get('XDG_STATE_HOME'), home = get('HOME');
  const path = x.startsWith('/') ? x + '/nnpad' : home ? home + '/.local/state/nnpad' : null;
  if (!path) return;
  let d = root;
  for (const p of path.split('/').filter((q) => q)) {
    if (!d.dir.has(p)) d.dir.set(p, mkdir());
    d = d.dir.get(p);
    if (!d.dir) return;
  }
  stateDir = d;
  for (const name of STATE_FILES) {
    if (!state || typeof state[name] !== 'string') continue;
    const data = enc.encode(state[name]);
    d.dir.set(name, Object.assign(mkfile(), { data, size: data.length }));
  }
}
function stateWritten(dir, name, node) {
  if (dir === stateDir && !node.dir && STATE_FILES.includes(name))
    postMessage({ t: 'state', name, text: dec.decode(node.data.subarray(0, node.size)) });
}

onmessage = async (ev) => {
  const { module, env } = ev.data;
  sab = ev.data.sab;
  ctl = new Int32Array(sab, 0, 2);
  inBytes = new Uint8Array(sab, 8);
  for (const dir of ['home', 'tmp', 'dev']) root.dir.set(dir, mkdir());
  for (const e of env || []) {
    const m = /^(XDG_STATE_HOME|XDG_CONFIG_HOME|XDG_DATA_HOME|XDG_CACHE_HOME|TMPDIR)=\/*(.+?)\/*$/.exec(e);
    if (m) ownDirs.push(m[2] + '/');
  }
  root.dir.get('dev').dir.set('null', Object.assign(mkfile(), { devnull: true }));
  catalogueNode();
  lessonsPack = ev.data.lessons || null;
  lessonsKo = /^ko/.test((ev.data.args || [])[(ev.data.args || []).indexOf('--lang') + 1] || '');
  stateRestore(env, ev.data.state);
  let code;
  try {
    const inst = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi(ev.data.args || ['nnpad'], env) });
    mem = inst.exports.memory;
    exported = inst.exports;
    inst.exports._start();
    code = 0;
  } catch (e) {
    if (!(e instanceof Exit)) {
      postMessage({ t: 'fatal', text: String(e && e.stack ? e.stack.split('\n')[0] : e) });
      return;
    }
    code = e.code;
  }
  postMessage({ t: 'exit', code });
};
