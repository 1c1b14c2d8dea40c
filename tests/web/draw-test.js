// draw-test.js — web/draw.js replays nnpad's display lists (`:save
// FILE.jsonl`) on a recording stand-in for a Canvas 2D context: every op
// of every list is drawn by the Canvas call it stands for, with the same
// coordinates; text lands where the layout put it (the stand-in measures
// by draw_record.c's fixed rule, as the recorder did); images arrive whole.
// Usage: node draw-test.js KINDS FILE.jsonl...  (KINDS: comma-separated
// figure kinds that must all be among the files).  Prints TAP.
'use strict';
const fs = require('fs');
const path = require('path');
const draw = require(path.join(__dirname, '..', '..', 'web', 'draw.js'));

let n = 0, failed = 0;
function ok(cond, desc) {
  n++;
  if (!cond) failed++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${desc.replace(/[#\n]/g, ' ')}`);
}

// draw_record.c's measure: per code point 0.6 of the size (monospace),
// else 0.55 ASCII, 1.0 from U+1100 (Hangul, CJK), 0.6 any other
function fixedWidth(s, font) {
  const size = parseFloat(/([0-9.]+)px/.exec(font)[1]);
  const mono = /Mono/.test(font);
  let w = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    w += (mono ? 0.6 : cp < 0x80 ? 0.55 : cp >= 0x1100 ? 1.0 : 0.6) * size;
  }
  return w;
}

// A Canvas 2D stand-in that records each call and each style set.
function fakeContext(log) {
  const state = { font: '10px sans-serif' };
  const target = {
    measureText: (s) => ({ width: fixedWidth(s, state.font) }),
    createLinearGradient: (...a) => { log.push({ call: 'createLinearGradient', args: a }); return { stops: [], addColorStop(o, c) { this.stops.push([o, c]); } }; },
    createImageData: (w, h) => ({ width: w, height: h, data: new Uint8ClampedArray(w * h * 4) }),
  };
  return new Proxy(target, {
    get(t, k) {
      if (k in t) return t[k];
      if (k in state) return state[k];
      return (...args) => { log.push({ call: String(k), args }); };
    },
    set(t, k, v) { state[k] = v; log.push({ call: 'set ' + String(k), args: [v] }); return true; },
  });
}

// the Canvas call each op must make (first of its calls, with its args)
const expect = {
  move_to: (o) => ['moveTo', [o.x, o.y]],
  line_to: (o) => ['lineTo', [o.x, o.y]],
  curve_to: (o) => ['bezierCurveTo', [o.x1, o.y1, o.x2, o.y2, o.x, o.y]],
  rectangle: (o) => ['rect', [o.x, o.y, o.w, o.h]],
  arc: (o) => ['arc', [o.x, o.y, o.r, o.a0, o.a1, false]],
  close_path: () => ['closePath', []],
  new_path: () => ['beginPath', []],
  stroke: () => ['stroke', []],
  fill: () => ['fill', []],
  clip: () => ['clip', []],
  save: () => ['save', []],
  restore: () => ['restore', []],
  translate: (o) => ['translate', [o.x, o.y]],
  scale: (o) => ['scale', [o.x, o.y]],
  rotate: (o) => ['rotate', [o.a]],
  line_width: (o) => ['set lineWidth', [o.w]],
  cap: (o) => ['set lineCap', [o.cap]],
  join: (o) => ['set lineJoin', [o.join]],
  dash: (o) => ['setLineDash', [o.d]],
  source: () => ['set fillStyle', null],
  gradient: (o) => ['createLinearGradient', [o.x0, o.y0, o.x1, o.y1]],
  image: () => ['save', []],
  text: (o) => ['set fillStyle', [o.color]],
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const kindsWanted = process.argv[2].split(',');
const seen = new Set();
for (const file of process.argv.slice(3)) {
  const text = fs.readFileSync(file, 'utf8');
  const ops = draw.parse(text);
  const head = ops[0] || {};
  const name = `${path.basename(file)} (${head.kind})`;
  seen.add(head.kind);
  ok(head.op === 'figure' && head.w > 0 && head.h > 0 && ops.length > 10, `${name}: a figure header and ${ops.length} ops`);
  const log = [], starts = [];
  const scratches = [];   // each image's scratch canvas' calls
  const opts = {
    onOp: (op, i) => starts.push(log.length),
    makeCanvas: (w, h) => { const l = []; scratches.push(l); return { w, h, getContext: () => fakeContext(l) }; },
  };
  let drawn = -1, err = '';
  try { drawn = draw.replay(fakeContext(log), text, opts); } catch (e) { err = String(e); }
  ok(drawn === ops.length, `${name}: every op replayed (${drawn} of ${ops.length}) ${err}`);
  starts.push(log.length);
  // each op: its first Canvas call is the one it stands for, same arguments
  let bad = '', checked = 0, texts = 0, textBad = '', images = 0, imageBad = '';
  const byOp = {};
  for (let i = 1; i < ops.length && drawn === ops.length; i++) {
    const o = ops[i], calls = log.slice(starts[i], starts[i + 1]);
    byOp[o.op] = (byOp[o.op] || 0) + 1;
    // (hover: the read-out's data for draw.js's hover(), nothing drawn)
    if (o.op === 'new_sub_path' || o.op === 'hover') { if (calls.length) bad ||= `op ${i} ${o.op} made calls`; continue; }
    const want = expect[o.op];
    if (!want) { bad ||= `op ${i}: no expectation for ${o.op}`; continue; }
    const [call, args] = want(o);
    // an arc after new_sub_path first moves to its start
    // (a text measures first: its colour is set among its calls)
    const c = o.op === 'text' ? calls.find((k) => k.call === 'set fillStyle')
      : o.op === 'arc' && calls[0] && calls[0].call === 'moveTo' ? calls[1] : calls[0];
    if (!c || c.call !== call || (args && !same(c.args, args))) {
      bad ||= `op ${i} ${JSON.stringify(o).slice(0, 120)} drew ${JSON.stringify(calls.slice(0, 2)).slice(0, 160)}`;
      continue;
    }
    checked++;
    if (o.op === 'text') {
      texts++;
      // where the layout put it: the anchor less ax, ay of the measured box
      const fills = calls.filter((k) => k.call === 'fillText');
      const plain = !o.wrap && !/\^/.test(o.s) && !/\n/.test(o.s);
      if (!fills.length) textBad ||= `"${o.s}" not drawn`;
      else if (plain) {
        const want = o.num ? o.s.replace(/-/g, '\u2212') : o.s;
        const got = fills.map((k) => k.args[0]).join('');
        const x0 = o.x - o.ax * o.w, y0 = o.y - o.ay * o.h;
        if (!o.markup && got !== want) textBad ||= `"${o.s}" drawn as "${got}"`;
        else if (Math.abs(fills[0].args[1] - x0) > 1 || Math.abs(fills[0].args[2] - y0) > 1e-9)
          textBad ||= `"${o.s}" at (${fills[0].args[1]}, ${fills[0].args[2]}), the layout's box at (${x0}, ${y0})`;
      } else if (o.wrap > 0 && o.ax === 0.5 && !/\^/.test(o.s)) {
        const lines = draw.lines(fakeContext([]), o).length;
        if (Math.abs(fills[0].args[2] - (o.y - o.ay * lines * Math.ceil(o.size * 1.2))) > 1e-9) textBad ||= `wrapped "${o.s}" not at its top`;
      }
    }
    if (o.op === 'image') {
      images++;
      const put = (scratches[images - 1] || []).find((k) => k.call === 'putImageData');
      const di = calls.find((k) => k.call === 'drawImage');
      if (!put || put.args[0].data.length !== o.w * o.h * 4 || !di || di.args[3] !== o.w || di.args[4] !== o.h)
        imageBad ||= `image ${o.w}x${o.h} not drawn whole`;
    }
  }
  ok(!bad, `${name}: each of ${checked} ops made its Canvas call with its coordinates ${bad}`);
  ok(texts > 0 && !textBad, `${name}: ${texts} texts drawn where the layout placed them ${textBad}`);
  if (images) ok(!imageBad, `${name}: ${images} images drawn whole ${imageBad}`);
  console.log(`# ${name}: ${Object.entries(byOp).map(([k, v]) => `${k} ${v}`).join(', ')}`);
}
for (const k of kindsWanted) ok(seen.has(k), `a ${k} figure was replayed`);
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);
