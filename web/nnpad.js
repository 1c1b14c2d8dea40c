// nnpad.js — the page: a console for one long-lived nnpad session that
// runs in a Web Worker (worker.js), and #code= addresses.
//
//   index.html#code=<percent-encoded program>  runs the program in a fresh
//   session on load, and again whenever the address changes (hashchange).
//   &lang=ko (or the header's switch, kept in localStorage): nnpad's
//   messages and the page's own notes in Korean (pageLang, T).
//   index.html#lesson=N (&lang=ko)  opens lesson N (a number or a name) in a
//   fresh session; &auto plays it through (nnpad --lesson N --auto).
//   Lesson progress is kept in localStorage (lessonState*).
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
  let sessionLang = null;                // the language the session was started in
  let more = false;        // nnpad is in the middle of an input (a "... " line next)
  let completing = null;   // a Tab's request, until the worker answers
  let untouched = false;   // a fresh session that has been sent nothing and runs nothing (Stop leaves it)
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
  // a note on a line of its own, even after output cut in the middle of one (Stop)
  const note = (text) => add('note', (transcript.lastChild && /[^\n]$/.test(transcript.lastChild.textContent) ? '\n[' : '[') + text + ']\n');

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

  // ---- files: what nnpad writes (:save, :report, save()) offered as a
  // download; a user's file put in nnpad's files (Open…, drag and drop)
  const UPLOAD_MAX = 32 << 20;           // bytes of one uploaded file
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
    a.textContent = T('download {0}', base);
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
      note(T('{0} is {1}: the page takes files of at most {2}; nothing was put in its files', name, fmtSize(file.size), fmtSize(UPLOAD_MAX)));
      return;
    }
    let b;
    try { b = new Uint8Array(await file.arrayBuffer()); }
    catch (e) { note(T('cannot read {0}: {1}', name, e.message)); return; }
    queue.push({ kind: 2, bytes: enc.encode(name) });
    for (let o = 0; o < b.length; o += CAP) queue.push({ kind: 3, bytes: b.subarray(o, Math.min(o + CAP, b.length)) });
    queue.push({ kind: 4, bytes: new Uint8Array(0) });
    if (/\.nn$/i.test(name)) queue.push({ text: ':load ' + name });
    pump();
  }
  function filePut(name, size) {
    if (size < 0) note(T('cannot put {0} in the page’s files (a folder has that name)', name));
    else if (/\.nn$/i.test(name)) note(T('opened {0} ({1}): running it with :load {0}', name, fmtSize(size)));
    else note(T('put {0} ({1}) in the page’s files: use it by that name (load_csv("{0}"), :load {0}, ...)', name, fmtSize(size)));
  }

  // Send the next queued line if nnpad is waiting for one.
  function pump() {
    if (!waiting || completing) return;
    if (!queue.length) {
      if (times.ready === undefined) times.ready = performance.now() - t0;
      setState('ready', T('ready'));
      return;
    }
    const item = queue.shift();
    untouched = false;
    let b = item.bytes || enc.encode(item.text + '\n');
    if (item.text !== undefined) { add('in', (more ? '... ' : '>>> ') + item.text + '\n'); fromLink = !!item.link; }
    if (b.length > CAP) { queue.unshift({ bytes: b.subarray(CAP) }); b = b.subarray(0, CAP); }
    bytes.set(b);
    waiting = false;
    setState('busy', T('running…'));
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

  // The page's own words in Korean, keyed by their English ({0}, {1}: the
  // arguments): T(english, ...args) in the page's language.  A text with
  // no entry here stays English.
  const KO = {
    'loading…': '불러오는 중…',
    'ready': '준비됐어요',
    'running…': '실행 중…',
    'starting…': '시작하는 중…',
    'Stop': '중지',
    'Open…': '열기…',
    'Report': '보고서',
    'put a file of yours in nnpad\'s files (a .nn file runs with :load); or drop it on the page':
      '내 파일을 nnpad의 파일에 넣어요(.nn 파일은 :load로 실행돼요). 페이지에 끌어다 놓아도 돼요',
    'your lessons\' report, to hand in (:report)': '제출할 레슨 보고서를 만들어요 (:report)',
    'end this session and start a fresh one': '이 세션을 끝내고 새 세션을 시작해요',
    'nnpad input': 'nnpad 입력',
    'the worker failed: {0}': '워커가 실패했어요: {0}',
    'nnpad ended (exit status {0}); a fresh session started': 'nnpad가 끝났어요(종료 상태 {0}). 새 세션을 시작했어요',
    'nnpad stopped with an error: {0}; a fresh session started': 'nnpad가 오류로 멈췄어요: {0}. 새 세션을 시작했어요',
    'stopped: that session was ended, its variables are gone; a fresh session started':
      '멈췄어요: 그 세션을 끝냈고 변수도 사라졌어요. 새 세션을 시작했어요',
    'the line typed while it ran was not run (Up brings it back)':
      '실행 중에 입력한 줄은 실행하지 않았어요(위 화살표로 다시 불러올 수 있어요)',
    'the 1 line after it was not run': '그 뒤의 1줄은 실행하지 않았어요',
    'the {0} lines after it were not run': '그 뒤의 {0}줄은 실행하지 않았어요',
    'the {0} lines typed while it ran were not run (Up brings them back)':
      '실행 중에 입력한 {0}줄은 실행하지 않았어요(위 화살표로 다시 불러올 수 있어요)',
    'this address is {0} characters long; a #code= link may hold at most {1}: nothing was run':
      '이 주소는 {0}자예요. #code= 링크에는 {1}자까지만 담을 수 있어서 아무것도 실행하지 않았어요',
    'this address holds no #code= program (“{0}”): nothing was run':
      '이 주소에는 #code= 프로그램이 없어서(“{0}”) 아무것도 실행하지 않았어요',
    'the program in this address is not valid percent-encoded UTF-8 ({0}): nothing was run':
      '이 주소의 프로그램이 올바른 퍼센트 인코딩 UTF-8이 아니어서({0}) 아무것도 실행하지 않았어요',
    'running the program of this address (1 line) in a fresh session': '이 주소의 프로그램(1줄)을 새 세션에서 실행해요',
    'running the program of this address ({0} lines) in a fresh session': '이 주소의 프로그램({0}줄)을 새 세션에서 실행해요',
    'installing the page’s service worker…': '페이지의 서비스 워커를 설치하는 중…',
    'cannot run here': '여기서는 실행할 수 없어요',
    ['this page needs cross-origin isolation (SharedArrayBuffer) for its console: serve it from https or ' +
      'from localhost/127.0.0.1 (its service worker sw.js then provides it), or with the headers ' +
      'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp']:
      '이 페이지의 콘솔에는 교차 출처 격리(SharedArrayBuffer)가 필요해요. https나 localhost/127.0.0.1에서 ' +
      '제공하거나(그러면 페이지의 서비스 워커 sw.js가 격리를 제공해요), Cross-Origin-Opener-Policy: same-origin과 ' +
      'Cross-Origin-Embedder-Policy: require-corp 헤더를 붙여 제공해 주세요',
    'nnpad.wasm did not load': 'nnpad.wasm을 불러오지 못했어요',
    'nnpad.wasm did not load ({0}): build it with ./setup.sh web': 'nnpad.wasm을 불러오지 못했어요({0}). ./setup.sh web으로 빌드해 주세요',
    ['nnpad in the browser: type a line and press Enter (Tab: completion; Up/Down: history; a pasted block runs line by line); ' +
      'Stop or Ctrl-C ends a computation; figures are drawn here.  Not here: PNG, SVG and HTML files (Cairo), transcendental ops under :rounding (MPFR), the GPU']:
      '브라우저의 nnpad: 한 줄을 입력하고 Enter를 누르세요(Tab: 자동 완성, 위/아래: 기록, 붙여 넣은 여러 줄은 한 줄씩 실행돼요). ' +
      '계산은 Stop이나 Ctrl-C로 멈춰요. 그림은 여기에 그려져요.  여기서 안 되는 것: PNG, SVG, HTML 파일(Cairo), :rounding 모드에서의 초월 함수(MPFR), GPU',
    'the Korean catalogue (ko.mo) did not load ({0}): nnpad’s messages stay English':
      '한국어 카탈로그(ko.mo)를 불러오지 못했어요({0}). nnpad의 메시지는 영어로 나와요',
    'language: {0}; a fresh session started (the last one’s variables are gone)':
      '언어: {0}. 새 세션을 시작했어요(이전 세션의 변수는 사라졌어요)',
    // files (downloads, uploads) and lessons
    'download {0}': '내려받기: {0}',
    '{0} is {1}: the page takes files of at most {2}; nothing was put in its files': '{0} 파일은 {1}예요. 이 페이지는 {2}까지의 파일만 받아요. 아무것도 올리지 않았어요',
    'cannot read {0}: {1}': '{0} 파일을 읽을 수 없어요: {1}',
    'cannot put {0} in the page’s files (a folder has that name)': '{0} 파일을 넣을 수 없어요 (같은 이름의 폴더가 있어요)',
    'opened {0} ({1}): running it with :load {0}': '{0} 파일을 열었어요 ({1}). :load {0} 로 실행해요',
    'put {0} ({1}) in the page’s files: use it by that name (load_csv("{0}"), :load {0}, ...)': '{0} 파일을 ({1}) 페이지의 파일에 넣었어요. 그 이름으로 쓰세요 (load_csv("{0}"), :load {0} 등)',
    'the lesson progress stored in this browser is unreadable ({0}): ignored; lessons start afresh': '이 브라우저에 저장된 레슨 진도를 읽을 수 없어요({0}). 무시하고 레슨을 처음부터 시작해요',
    'lesson progress not saved in this browser: {0} has grown over {1} characters': '레슨 진도를 이 브라우저에 저장하지 못했어요: {0} 파일이 {1}자를 넘었어요',
    'lesson progress not saved in this browser ({0})': '레슨 진도를 이 브라우저에 저장하지 못했어요({0})',
    'this address’s lesson= (“{0}”) is not a lesson number or name: nothing was run': '이 주소의 lesson=(“{0}”)은 레슨 번호나 이름이 아니에요. 아무것도 실행하지 않았어요',
    'playing lesson {0} through, each answer typed for you (nnpad --lesson {0} --auto)': '레슨 {0}: 답을 대신 입력하며 끝까지 자동으로 진행해요 (nnpad --lesson {0} --auto)',
    'opening lesson {0} in a fresh session': '레슨 {0}: 새 세션에서 열어요',
  };
  function T(en, ...args) {
    const s = (pageLang() === 'ko' && KO[en]) || en;
    return s.replace(/\{(\d)\}/g, (m, i) => String(args[i]));
  }
  window.nnpadText = T;

  // The header's language switch (English / 한국어) and the page's words
  function showLang() {
    const lang = pageLang();
    document.documentElement.lang = lang;
    $('lang').value = lang;
    $('stop').textContent = T('Stop');
    $('stop').title = T('end this session and start a fresh one');
    $('open').textContent = T('Open…');
    $('open').title = T('put a file of yours in nnpad\'s files (a .nn file runs with :load); or drop it on the page');
    $('report').textContent = T('Report');
    $('report').title = T('your lessons\' report, to hand in (:report)');
    line.setAttribute('aria-label', T('nnpad input'));
  }
  // A language chosen: kept (localStorage; a lang= in the address follows
  // it, without a hashchange), and the session restarted in it (a #code=
  // program runs again)
  function switchLang(lang) {
    localStorage.setItem('nnpad-lang', lang);
    const h = location.hash.slice(1);
    if (/(?:^|&)lang=/.test(h)) history.replaceState(null, '', '#' + h.replace(/(^|&)lang=[^&]*/, '$1lang=' + lang));
    showLang();
    if (!module) return;
    if (/(?:^|&)code=/.test(h)) runLink();
    else { queue = []; start(); }
    note(T('language: {0}; a fresh session started (the last one’s variables are gone)', lang === 'ko' ? '한국어' : 'English'));
  }

  function start(extraArgs) {
    if (worker) worker.terminate();
    waiting = false;
    completing = null;
    setMore(false);
    sab = new SharedArrayBuffer(8 + CAP);
    ctl = new Int32Array(sab, 0, 2);
    bytes = new Uint8Array(sab, 8);
    const w = (worker = new Worker('worker.js'));
    w.onmessage = (ev) => {
      if (w !== worker) return;   // a stopped session's last words
      const m = ev.data;
      if (m.t === 'out') add(m.fd === 2 ? 'out err' : 'out', m.text);
      else if (m.t === 'need') { waiting = true; setMore(!!m.more); pump(); }
      else if (m.t === 'complete') completed(m.text);
      else if (m.t === 'figure') figure(m.name, m.text);
      else if (m.t === 'file') offerFile(m.name, m.data);
      else if (m.t === 'put') filePut(m.name, m.size);
      else if (m.t === 'lessons') { lessonPack = m.pack; times.lessons = performance.now() - t0; }
      else if (m.t === 'state') lessonStateSave(m.name, m.text);
      else if (m.t === 'exit') {
        note(T('nnpad ended (exit status {0}); a fresh session started', m.code));
        // the lines after a :quit (of a #code= link, a paste) are not run: said, not dropped silently
        const left = queue.filter((q) => q.text !== undefined).length;
        if (left) note(left === 1 ? T('the 1 line after it was not run') : T('the {0} lines after it were not run', left));
        queue = [];
        start();
      }
      else if (m.t === 'fatal') { note(T('nnpad stopped with an error: {0}; a fresh session started', m.text)); queue = []; start(); }
      else if (m.t === 'catalogue') times.catalogue = { bytes: m.bytes, ms: m.ms };
      else if (m.t === 'nocat') note(T('the Korean catalogue (ko.mo) did not load ({0}): nnpad’s messages stay English', m.why));
    };
    w.onerror = (e) => { setState('error', T('the worker failed: {0}', e.message)); };
    setState('busy', T('starting…'));
    const lang = (sessionLang = pageLang());
    untouched = !extraArgs;   // --lesson N --auto runs by itself
    w.postMessage({ module, sab, env: ENV.concat(['NNPAD_PAGE_URL=' + location.href.split('#')[0]]),
                    args: ['nnpad', '--lang', lang].concat(extraArgs || []), lessons: lessonPack, state: lessonStateLoad() });
  }

  function stop() {
    if (!module || !crossOriginIsolated) return;
    // a fresh session (the last Stop's, clicked again and again): already fresh
    if (untouched && !queue.length) return;
    // lines typed while it ran, not run: said (the history holds them)
    const typed = queue.filter((q) => q.text !== undefined && !q.link).length;
    queue = [];
    note(T('stopped: that session was ended, its variables are gone; a fresh session started'));
    if (typed) note(typed === 1 ? T('the line typed while it ran was not run (Up brings it back)')
      : T('the {0} lines typed while it ran were not run (Up brings them back)', typed));
    start();
  }

  // The program of a #code= address, or null (and a note saying why)
  function linkProgram() {
    const h = location.hash.slice(1);
    if (!h) return null;
    if (h.length > LINK_MAX) {
      note(T('this address is {0} characters long; a #code= link may hold at most {1}: nothing was run', h.length, LINK_MAX));
      return null;
    }
    const m = /(?:^|&)code=([^&]*)/.exec(h);
    if (!m && /^lang=[^&]*$/.test(h)) return null;   // a language only: nothing to run, nothing to say
    if (!m) {
      note(T('this address holds no #code= program (“{0}”): nothing was run', h.slice(0, 40)));
      return null;
    }
    try {
      return decodeURIComponent(m[1]);
    } catch (e) {
      note(T('the program in this address is not valid percent-encoded UTF-8 ({0}): nothing was run', e.message));
      return null;
    }
  }

  function runLink() {
    showLang();
    if (lessonLink()) return;
    const prog = linkProgram();
    // no program: a session (in the address's language) all the same
    if (prog === null) { if (!worker || sessionLang !== pageLang()) start(); return; }
    transcript.textContent = '';
    queue = prog.replace(/\r?\n$/, '').split(/\r?\n/).map((text) => ({ text, link: true }));
    note(queue.length === 1 ? T('running the program of this address (1 line) in a fresh session')
      : T('running the program of this address ({0} lines) in a fresh session', queue.length));
    start();
  }

  // ---- lessons: #lesson= addresses, progress kept in this browser
  let lessonPack = null;                 // lessons.pack, once a worker fetched it (worker.js lessonsLoad)
  const STATE_KEY = 'nnpad-lesson-state';  // {"v": 1, "files": {NAME: TEXT}}: nnpad's state files (worker.js STATE_FILES)
  const STATE_MAX = 1 << 20;             // characters per file kept
  const stateSaid = {};
  const sayOnce = (k, text) => { if (!stateSaid[k]) { stateSaid[k] = 1; note(text); } };

  // The stored files, or {} (a stored value that is not ours is ignored, with a note)
  function lessonStateLoad() {
    let raw = null;
    try {
      raw = localStorage.getItem(STATE_KEY);
      if (raw === null) return {};
      const v = JSON.parse(raw);
      if (!v || v.v !== 1 || !v.files || typeof v.files !== 'object' || Array.isArray(v.files)) throw new Error('not {"v": 1, "files": ...}');
      const files = {};
      for (const [k, t] of Object.entries(v.files)) {
        if (typeof t !== 'string' || t.length > STATE_MAX) throw new Error('the entry ' + JSON.stringify(k).slice(0, 40) + ' is not a text of at most ' + STATE_MAX + ' characters');
        files[k] = t;
      }
      return files;
    } catch (e) {
      sayOnce('load', T('the lesson progress stored in this browser is unreadable ({0}): ignored; lessons start afresh', e.message));
      return {};
    }
  }
  function lessonStateSave(name, text) {
    if (typeof name !== 'string' || typeof text !== 'string') return;
    if (text.length > STATE_MAX) {
      sayOnce('big', T('lesson progress not saved in this browser: {0} has grown over {1} characters', name, STATE_MAX));
      return;
    }
    const files = stateSaid.load ? {} : lessonStateLoad();
    files[name] = text;
    try { localStorage.setItem(STATE_KEY, JSON.stringify({ v: 1, files })); }
    catch (e) {
      sayOnce('save', T('lesson progress not saved in this browser ({0})', e.message));
    }
  }

  // #lesson=N: a fresh session that opens lesson N (:lesson N, as typed),
  // or with &auto plays it through (--lesson N --auto).  False when the
  // address has no lesson=.
  function lessonLink() {
    const m = /(?:^|&)lesson=([^&]*)/.exec(location.hash.slice(1));
    if (!m) return false;
    let which = null;
    try { which = decodeURIComponent(m[1]); } catch (e) { /* said below */ }
    if (which === null || !/^[A-Za-z0-9_-]{1,64}$/.test(which)) {
      note(T('this address’s lesson= (“{0}”) is not a lesson number or name: nothing was run', m[1].slice(0, 40)));
      return true;
    }
    transcript.textContent = '';
    if (/(?:^|&)auto(?:=1)?(?:&|$)/.test(location.hash.slice(1))) {
      queue = [];
      note(T('playing lesson {0} through, each answer typed for you (nnpad --lesson {0} --auto)', which));
      start(['--lesson', which, '--auto']);
    } else {
      queue = [{ text: ':lesson ' + which }];
      note(T('opening lesson {0} in a fresh session', which));
      start();
    }
    return true;
  }

  async function boot() {
    showLang();
    setState('loading', T('loading…'));
    // SharedArrayBuffer needs cross-origin isolation: sw.js gives it, after one reload
    if (!self.crossOriginIsolated) {
      if ('serviceWorker' in navigator && window.isSecureContext && !sessionStorage.getItem('nnpad-reloaded')) {
        sessionStorage.setItem('nnpad-reloaded', '1');
        setState('loading', T('installing the page’s service worker…'));
        await navigator.serviceWorker.register('sw.js');
        await navigator.serviceWorker.ready;
        location.reload();
        return;
      }
      setState('error', T('cannot run here'));
      note(T('this page needs cross-origin isolation (SharedArrayBuffer) for its console: serve it from https or ' +
             'from localhost/127.0.0.1 (its service worker sw.js then provides it), or with the headers ' +
             'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp'));
      return;
    }
    sessionStorage.removeItem('nnpad-reloaded');
    try {
      const res = fetch('nnpad.wasm');
      try { module = await WebAssembly.compileStreaming(res); }
      catch (e) { module = await WebAssembly.compile(await (await fetch('nnpad.wasm')).arrayBuffer()); }
    } catch (e) {
      setState('error', T('nnpad.wasm did not load'));
      note(T('nnpad.wasm did not load ({0}): build it with ./setup.sh web', e.message));
      return;
    }
    times.compiled = performance.now() - t0;
    note(T('nnpad in the browser: type a line and press Enter (Tab: completion; Up/Down: history; a pasted block runs line by line); ' +
           'Stop or Ctrl-C ends a computation; figures are drawn here.  Not here: PNG, SVG and HTML files (Cairo), transcendental ops under :rounding (MPFR), the GPU'));
    if (location.hash) runLink();
    if (!worker) start();   // an address that ran nothing (a note said why): the console still starts
  }

  // ---- continuation: the prompt says "..." while an input is unfinished
  // (an open { ( [), as the terminal's does; Enter (Shift+Enter too) sends
  // each line, and nnpad runs the input when it is whole
  function setMore(m) {
    more = m;
    $('prompt').textContent = m ? '...' : '>>>';
  }

  // ---- Tab completion: nnpad's own candidates (src/repl/complete.c, the
  // terminal's too), asked from the worker while nnpad waits for a line
  const compList = $('completions');
  function hideCompletions() { compList.hidden = true; compList.textContent = ''; }
  line.addEventListener('input', hideCompletions);   // the list was for the text before
  function complete() {
    if (!waiting || completing || queue.length) return;   // nnpad is busy: nothing to ask
    const before = line.value.slice(0, line.selectionStart);
    const all = enc.encode(line.value);
    if (all.length + 4 > CAP) return;
    completing = { value: line.value, before, after: line.value.slice(line.selectionEnd) };
    new DataView(sab, 8, 4).setInt32(0, enc.encode(before).length, true);
    bytes.set(all, 4);
    Atomics.store(ctl, 1, all.length + 4);
    Atomics.store(ctl, 0, 5);   // a completion request (worker.js)
    Atomics.notify(ctl, 0);
  }
  function completed(text) {
    const c = completing;
    completing = null;
    const lines = text.split('\n');
    const [start, kind] = lines[0].split(' ');
    const cands = [...new Set(lines.slice(1).filter((s) => s))].sort();
    if (c && c.value === line.value && cands.length) {
      const b = enc.encode(c.before);
      const head = new TextDecoder().decode(b.subarray(0, Math.min(+start, b.length)));
      const word = c.before.slice(head.length);
      let put = cands[0];
      if (cands.length > 1) {
        // the longest common prefix, and the list under the box
        for (const s of cands) while (!s.startsWith(put)) put = put.slice(0, -1);
        compList.textContent = cands.join('  ');
        compList.hidden = false;
      } else {
        if (kind === 'w' || (kind === 'f' && !put.endsWith('/'))) put += ' ';
        hideCompletions();
      }
      if (put.length >= word.length) {
        line.value = head + put + c.after;
        line.selectionStart = line.selectionEnd = head.length + put.length;
      }
    } else if (c && c.value === line.value) hideCompletions();
    pump();
  }

  $('form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = line.value;
    line.value = '';
    hideCompletions();
    if (text.trim() && history[history.length - 1] !== text) history.push(text);
    hpos = history.length;
    if (!module) return;
    queue.push({ text });
    pump();
  });
  line.addEventListener('keydown', (e) => {
    // Ctrl-C while nnpad runs (and no text is selected to copy): Stop
    if (e.ctrlKey && e.key === 'c' && document.body.dataset.state === 'busy' && line.selectionStart === line.selectionEnd) stop();
    else if (e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey && !e.isComposing) complete();
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
  $('lang').addEventListener('change', (e) => switchLang(e.target.value));
  window.addEventListener('hashchange', () => { if (module) runLink(); });
  boot();
})();
