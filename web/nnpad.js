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
      nnpadDraw.hover(c, ops);
    } catch (e) {
      div.textContent = '[' + name + ' not drawn: ' + e.message + ']';
    }
    transcript.appendChild(div);
    transcript.scrollTop = transcript.scrollHeight;
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
    if (item.text !== undefined) add('in', '>>> ' + item.text + '\n');
    if (b.length > CAP) { queue.unshift({ bytes: b.subarray(CAP) }); b = b.subarray(0, CAP); }
    bytes.set(b);
    waiting = false;
    setState('busy', 'running…');
    Atomics.store(ctl, 1, b.length);
    Atomics.store(ctl, 0, 1);
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
      else if (m.t === 'exit') { note('nnpad ended (exit status ' + m.code + '); a fresh session started'); queue = []; start(); }
      else if (m.t === 'fatal') { note('nnpad stopped with an error: ' + m.text + '; a fresh session started'); queue = []; start(); }
    };
    w.onerror = (e) => { setState('error', 'the worker failed: ' + e.message); };
    setState('busy', 'starting…');
    const lang = pageLang();
    w.postMessage({ module, sab, env: ENV, args: ['nnpad', '--lang', lang] });
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
    queue = prog.replace(/\r?\n$/, '').split(/\r?\n/).map((text) => ({ text }));
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
         'Stop or Ctrl-C ends a computation; figures are drawn here.  Not here yet: PNG/SVG/HTML files, completion, lessons, and what needs SLEEF or MPFR');
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
  window.addEventListener('hashchange', () => { if (module) runLink(); });
  boot();
})();
