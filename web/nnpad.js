// nnpad.js — the page: a console for one long-lived nnpad session that
// runs in a Web Worker (worker.js), and #code= addresses.
//
//   index.html#code=<percent-encoded program>  runs the program in a fresh
//   session on load, and again whenever the address changes (hashchange).
//
// Each line typed (or of a linked program) goes to nnpad's stdin when nnpad
// asks for input (worker.js), echoed in the transcript after ">>> "; nnpad's
// output follows it, and each figure, drawn from its display list by
// draw.js.  Enter sends, Up/Down walk the history, Stop (or Ctrl-C while
// nnpad runs) ends the worker, a loop that never ends too, and starts a
// fresh session.
'use strict';

(function () {
  const CAP = 1 << 16;                   // bytes per hand-over to the worker
  const LINK_MAX = 1000000;              // characters of a #code= address
  const ENV = ['HOME=/home', 'TMPDIR=/tmp', 'NNPAD_JOURNAL=0', 'NO_COLOR=1', 'TERM=dumb', 'LANG=C.UTF-8'];
  const $ = (id) => document.getElementById(id);
  const transcript = $('transcript'), line = $('line'), status = $('status');
  const enc = new TextEncoder();
  const t0 = performance.now();
  let module = null, worker = null, sab = null, ctl = null, bytes = null;
  let waiting = false, queue = [];
  const history = [];
  let hpos = 0;
  // load-to-prompt and the like, for tests/web-page.sh
  const times = (window.nnpadTimes = {});

  function setState(s, text) {
    document.body.dataset.state = s;
    if (text !== undefined) status.textContent = text;
  }
  function add(cls, text) {
    const last = transcript.lastChild;
    if (last && last.className === cls && cls !== 'in') last.textContent += text;
    else {
      const s = document.createElement('span');
      s.className = cls;
      s.textContent = text;
      transcript.appendChild(s);
    }
    transcript.scrollTop = transcript.scrollHeight;
  }
  const note = (text) => add('note', '[' + text + ']\n');

  // A figure's display list (the web build writes figures/NNN-name.jsonl,
  // src/view/view_web.c) drawn on a canvas in the transcript by draw.js
  function figure(name, text) {
    const div = document.createElement('div');
    div.className = 'fig';
    try {
      const ops = nnpadDraw.parse(text);
      const c = document.createElement('canvas');
      c.width = (ops[0] && ops[0].w) || 1200;
      c.height = (ops[0] && ops[0].h) || 750;
      c.title = name;
      div.appendChild(c);
      nnpadDraw.replay(c.getContext('2d'), ops);
    } catch (e) {
      div.textContent = '[' + name + ' not drawn: ' + e.message + ']';
    }
    transcript.appendChild(div);
    transcript.scrollTop = transcript.scrollHeight;
  }

  // ---- files: what nnpad writes (:save, :report, save()) offered as a
  // download; a user's file put in nnpad's files (Open…, drag and drop)
  const UPLOAD_MAX = 32 << 20;           // bytes of one uploaded file
  const tr = (en, ko) => (pageLang() === 'ko' ? ko : en);
  let fromLink = false;                  // the line nnpad runs came from a #code= address
  const fmtSize = (n) => (n < 1024 ? n + ' B' : n < 1 << 20 ? (n / 1024).toFixed(1) + ' KB' : (n / 1048576).toFixed(1) + ' MB');

  // A file nnpad wrote: a link "download NAME" in the transcript, clicked
  // at once for a line the user entered (a #code= address someone sent
  // downloads nothing by itself: its links wait for a click).
  function offerFile(name, data) {
    const base = name.split('/').pop();
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([data]));
    a.download = base;
    a.className = 'dl';
    a.textContent = tr('download ', '내려받기: ') + base;
    const s = document.createElement('span');
    s.className = 'note';
    s.append('[', a, ' (' + fmtSize(data.length) + ')]\n');
    transcript.appendChild(s);
    transcript.scrollTop = transcript.scrollHeight;
    if (!fromLink) a.click();
  }

  // A user's file into nnpad's files, under its own name (blanks, quotes
  // and the like made '_'), through the input channel in parts; a .nn file
  // is then run with :load NAME, as if typed; another kind is only put
  // there (a note says how to use it).
  async function putFile(file) {
    if (!module) return;
    let name = file.name.split(/[\\/]/).pop().replace(/[\s"'#\\:*?<>|\u0000-\u001f]/g, '_').slice(-200) || 'upload';
    if (name.startsWith('.')) name = '_' + name.slice(1);
    if (file.size > UPLOAD_MAX) {
      note(tr(name + ' is ' + fmtSize(file.size) + ': the page takes files of at most ' + fmtSize(UPLOAD_MAX) + '; nothing was put in its files',
              name + ' 파일은 ' + fmtSize(file.size) + '예요. 이 페이지는 ' + fmtSize(UPLOAD_MAX) + '까지의 파일만 받아요. 아무것도 올리지 않았어요'));
      return;
    }
    let b;
    try { b = new Uint8Array(await file.arrayBuffer()); }
    catch (e) { note(tr('cannot read ' + name + ': ' + e.message, name + ' 파일을 읽을 수 없어요: ' + e.message)); return; }
    queue.push({ kind: 2, bytes: enc.encode(name) });
    for (let o = 0; o < b.length; o += CAP) queue.push({ kind: 3, bytes: b.subarray(o, Math.min(o + CAP, b.length)) });
    queue.push({ kind: 4, bytes: new Uint8Array(0) });
    if (/\.nn$/i.test(name)) queue.push({ text: ':load ' + name });
    pump();
  }
  function filePut(name, size) {
    if (size < 0) note(tr('cannot put ' + name + ' in the page\'s files (a folder has that name)', name + ' 파일을 넣을 수 없어요 (같은 이름의 폴더가 있어요)'));
    else if (/\.nn$/i.test(name)) note(tr('opened ' + name + ' (' + fmtSize(size) + '): running it with :load ' + name,
                                          name + ' 파일을 열었어요 (' + fmtSize(size) + '). :load ' + name + ' 로 실행해요'));
    else note(tr('put ' + name + ' (' + fmtSize(size) + ') in the page\'s files: use it by that name (load_csv("' + name + '"), :load ' + name + ', ...)',
                 name + ' 파일을 (' + fmtSize(size) + ') 페이지의 파일에 넣었어요. 그 이름으로 쓰세요 (load_csv("' + name + '"), :load ' + name + ' 등)'));
  }

  // Send the next queued line if nnpad is waiting for one.
  function pump() {
    if (!waiting) return;
    if (!queue.length) {
      if (times.ready === undefined) times.ready = performance.now() - t0;
      setState('ready', 'ready');
      return;
    }
    const item = queue.shift();
    let b = item.bytes || enc.encode(item.text + '\n');
    if (item.text !== undefined) { add('in', '>>> ' + item.text + '\n'); fromLink = !!item.link; }
    if (b.length > CAP) { queue.unshift({ bytes: b.subarray(CAP) }); b = b.subarray(0, CAP); }
    bytes.set(b);
    waiting = false;
    setState('busy', 'running…');
    Atomics.store(ctl, 1, b.length);
    Atomics.store(ctl, 0, item.kind || 1);   // 2-4: an uploaded file's parts (putFile)
    Atomics.notify(ctl, 0);
  }

  // The page's language: lang=en|ko in the address, else the last one
  // chosen here (localStorage), else the browser's; nnpad gets --lang.
  function pageLang() {
    const m = /(?:^|&)lang=([^&]*)/.exec(location.hash.slice(1));
    const v = m ? m[1] : localStorage.getItem('nnpad-lang') || (navigator.language || '').slice(0, 2);
    return v === 'ko' ? 'ko' : 'en';
  }
  window.nnpadLang = pageLang;

  function start() {
    if (worker) worker.terminate();
    waiting = false;
    sab = new SharedArrayBuffer(8 + CAP);
    ctl = new Int32Array(sab, 0, 2);
    bytes = new Uint8Array(sab, 8);
    const w = (worker = new Worker('worker.js'));
    w.onmessage = (ev) => {
      if (w !== worker) return;   // a stopped session's last words
      const m = ev.data;
      if (m.t === 'out') add(m.fd === 2 ? 'out err' : 'out', m.text);
      else if (m.t === 'need') { waiting = true; pump(); }
      else if (m.t === 'figure') figure(m.name, m.text);
      else if (m.t === 'file') offerFile(m.name, m.data);
      else if (m.t === 'put') filePut(m.name, m.size);
      else if (m.t === 'exit') { note('nnpad ended (exit status ' + m.code + '); a fresh session started'); queue = []; start(); }
      else if (m.t === 'fatal') { note('nnpad stopped with an error: ' + m.text + '; a fresh session started'); queue = []; start(); }
    };
    w.onerror = (e) => { setState('error', 'the worker failed: ' + e.message); };
    setState('busy', 'starting…');
    const lang = pageLang();
    w.postMessage({ module, sab, env: ENV.concat(['NNPAD_PAGE_URL=' + location.href.split('#')[0]]), args: ['nnpad', '--lang', lang] });
  }

  function stop() {
    if (!module || !crossOriginIsolated) return;
    queue = [];
    note('stopped: that session was ended, its variables are gone; a fresh session started');
    start();
  }

  // The program of a #code= address, or null (and a note saying why)
  function linkProgram() {
    const h = location.hash.slice(1);
    if (!h) return null;
    if (h.length > LINK_MAX) {
      note('this address is ' + h.length + ' characters long; a #code= link may hold at most ' + LINK_MAX + ': nothing was run');
      return null;
    }
    const m = /(?:^|&)code=([^&]*)/.exec(h);
    if (!m) {
      note('this address holds no #code= program (“' + h.slice(0, 40) + '”): nothing was run');
      return null;
    }
    try {
      return decodeURIComponent(m[1]);
    } catch (e) {
      note('the program in this address is not valid percent-encoded UTF-8 (' + e.message + '): nothing was run');
      return null;
    }
  }

  function runLink() {
    const prog = linkProgram();
    if (prog === null) return;
    transcript.textContent = '';
    queue = prog.replace(/\r?\n$/, '').split(/\r?\n/).map((text) => ({ text, link: true }));
    note('running the program of this address (' + queue.length + (queue.length === 1 ? ' line' : ' lines') + ') in a fresh session');
    start();
  }

  async function boot() {
    // SharedArrayBuffer needs cross-origin isolation: sw.js gives it, after one reload
    if (!self.crossOriginIsolated) {
      if ('serviceWorker' in navigator && window.isSecureContext && !sessionStorage.getItem('nnpad-reloaded')) {
        sessionStorage.setItem('nnpad-reloaded', '1');
        setState('loading', 'installing the page’s service worker…');
        await navigator.serviceWorker.register('sw.js');
        await navigator.serviceWorker.ready;
        location.reload();
        return;
      }
      setState('error', 'cannot run here');
      note('this page needs cross-origin isolation (SharedArrayBuffer) for its console: serve it from https or ' +
           'from localhost/127.0.0.1 (its service worker sw.js then provides it), or with the headers ' +
           'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp');
      return;
    }
    sessionStorage.removeItem('nnpad-reloaded');
    try {
      const res = fetch('nnpad.wasm');
      try { module = await WebAssembly.compileStreaming(res); }
      catch (e) { module = await WebAssembly.compile(await (await fetch('nnpad.wasm')).arrayBuffer()); }
    } catch (e) {
      setState('error', 'nnpad.wasm did not load');
      note('nnpad.wasm did not load (' + e.message + '): build it with ./setup.sh web');
      return;
    }
    times.compiled = performance.now() - t0;
    note('nnpad in the browser: type a line and press Enter (Up/Down: history; a pasted block runs line by line); ' +
         'Stop or Ctrl-C ends a computation; figures are drawn here.  Not here yet: the graph figure, PNG/SVG/HTML files, completion, lessons, and what needs SLEEF or MPFR');
    if (location.hash) runLink();
    else start();
  }

  $('form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = line.value;
    line.value = '';
    if (text.trim() && history[history.length - 1] !== text) history.push(text);
    hpos = history.length;
    if (!module) return;
    queue.push({ text });
    pump();
  });
  line.addEventListener('keydown', (e) => {
    // Ctrl-C while nnpad runs (and no text is selected to copy): Stop
    if (e.ctrlKey && e.key === 'c' && document.body.dataset.state === 'busy' && line.selectionStart === line.selectionEnd) stop();
    else if (e.key === 'ArrowUp' && hpos > 0) line.value = history[--hpos];
    else if (e.key === 'ArrowDown' && hpos < history.length) line.value = ++hpos < history.length ? history[hpos] : '';
    else return;
    e.preventDefault();
  });
  // a pasted block of lines: each line sent as if typed and entered
  line.addEventListener('paste', (e) => {
    const text = e.clipboardData && e.clipboardData.getData('text');
    if (!text || !/\n/.test(text)) return;
    e.preventDefault();
    const lines = (line.value + text).replace(/\r?\n$/, '').split(/\r?\n/);
    line.value = '';
    if (!module) return;
    for (const l of lines) queue.push({ text: l });
    pump();
  });
  $('stop').addEventListener('click', stop);
  // files: Open… (and a file dropped on the page) puts it in nnpad's files; Report writes the lessons' report
  $('open').addEventListener('click', () => $('file').click());
  $('file').addEventListener('change', () => { for (const f of $('file').files) putFile(f); $('file').value = ''; });
  document.addEventListener('dragover', (e) => { if (e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files')) e.preventDefault(); });
  document.addEventListener('drop', (e) => {
    if (!e.dataTransfer || !e.dataTransfer.files.length) return;
    e.preventDefault();
    for (const f of e.dataTransfer.files) putFile(f);
  });
  $('report').addEventListener('click', () => { if (module) { queue.push({ text: ':report nnpad-report.html' }); pump(); } });
  window.nnpadPutFile = putFile;   // for tests/web/files_test.py
  window.addEventListener('hashchange', () => { if (module) runLink(); });
  boot();
})();
