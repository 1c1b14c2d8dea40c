// draw.js — replays an nnpad figure's display list (`:save FILE.jsonl`,
// src/view/draw_record.c) on a Canvas 2D context, so the page draws every
// figure with the same layout code as the native window.
//
// The list follows Cairo's model (src/view/draw.h): a current path built
// by move_to/line_to/... and consumed by stroke, fill or clip (kept with
// "preserve"), one source for both fill and stroke, save/restore of the
// colour, line, transform and clip.  Canvas 2D has each of these; the
// differences are handled here:
//   - Cairo's arc after new_sub_path starts without a line from the
//     current point: a moveTo to the arc's start does the same;
//   - text: the list gives the anchor (x, y, ax, ay) and the style; the
//     text is measured here with measureText (the page's fonts), wrapped to
//     "wrap" pixels, '-' drawn as U+2212 in numbers and "b^e" with e
//     raised, Pango markup's <b> and <i> kept (other tags dropped); like Cairo's, a text sets the
//     source to its colour;
//   - images: base64 RGBA put on a scratch canvas, drawn scaled (nearest
//     or smooth); "pad" needs nothing more: the layout's padded images
//     already cover their clip, and a smoothed drawImage clamps at the
//     image's edges as Cairo's PAD extend does.
//
// replay(ctx, list, opts) -> the number of ops drawn.  list: the JSONL text
// or an array of op objects; opts.makeCanvas(w, h) makes the scratch canvas
// for images (default: OffscreenCanvas or document.createElement);
// opts.onOp(op, i), when given, is called before each op (tests).
// Unknown ops throw (a list newer than this file says so, not a blank).
// hover(canvas, list) then shows the window's hover read-out (below).
'use strict';

(function (root) {
  function parse(list) {
    if (Array.isArray(list)) return list;
    return String(list).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  }

  function css(r, g, b, a) {
    const c = (v) => Math.round(Math.min(1, Math.max(0, v)) * 255);
    return `rgba(${c(r)}, ${c(g)}, ${c(b)}, ${a === undefined ? 1 : a})`;
  }

  // Pango markup to plain text (tags dropped, the five entities decoded)
  function plain(s) {
    return s.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  }

  // the text as runs: [{ s, raised, bold, italic }]: Pango markup's <b> and
  // <i> kept as a run's weight and slant (other tags dropped, the entities
  // decoded: plain()); in a number '-' is U+2212 and "b^e" has e raised
  function runs(op) {
    const parts = [];
    if (op.markup) {
      const re = /<(\/?)([a-zA-Z]+)[^>]*>/g;
      let b = 0, it = 0, last = 0, m;
      const take = (end) => { if (end > last) parts.push({ s: plain(op.s.slice(last, end)), bold: b > 0, italic: it > 0 }); };
      while ((m = re.exec(op.s)) !== null) {
        take(m.index);
        const d = m[1] ? -1 : 1;
        if (m[2] === 'b') b = Math.max(0, b + d);
        else if (m[2] === 'i') it = Math.max(0, it + d);
        last = re.lastIndex;
      }
      take(op.s.length);
    } else parts.push({ s: op.s, bold: false, italic: false });
    if (!op.num) return parts.map((p) => ({ ...p, raised: false }));
    const out = [];
    for (const p of parts) {
      const s = p.s.replace(/-/g, '\u2212');
      const re = /\^([\u2212+]?[0-9]*)/g;
      let last = 0, m;
      while ((m = re.exec(s)) !== null) {
        if (m.index > last) out.push({ ...p, s: s.slice(last, m.index), raised: false });
        out.push({ ...p, s: m[1], raised: true });
        last = m.index + m[0].length;
      }
      if (last < s.length) out.push({ ...p, s: s.slice(last), raised: false });
    }
    return out;
  }

  // a run's font (r: its own weight and slant from markup)
  function font(op, size, r) {
    return `${op.italic || (r && r.italic) ? 'italic ' : ''}${op.bold || (r && r.bold) ? 'bold ' : ''}${size}px ${op.font}`;
  }

  // the width of one line of runs
  function lineWidth(ctx, op, line) {
    let w = 0;
    for (const r of line) {
      ctx.font = font(op, r.raised ? Math.max(op.size * 0.8, Math.min(op.size, 18)) : op.size, r);
      w += ctx.measureText(r.s).width;
    }
    return w;
  }

  // the text broken into lines: at '\n', and with op.wrap at the last
  // space that keeps a line within wrap pixels (trailing spaces not counted)
  function lines(ctx, op) {
    const paras = [[]];
    for (const r of runs(op)) {
      r.s.split('\n').forEach((part, i) => {
        if (i > 0) paras.push([]);
        if (part) paras[paras.length - 1].push({ ...r, s: part });
      });
    }
    if (!(op.wrap > 0)) return paras;
    const trimmed = (line) => line.map((x, i) => (i === line.length - 1 ? { ...x, s: x.s.trimEnd() } : x));
    const out = [];
    for (const para of paras) {
      let line = [];
      for (const r of para) {
        for (const word of r.s.split(/(?<= )/)) {
          const trial = line.concat([{ ...r, s: word }]);
          if (line.length && lineWidth(ctx, op, trimmed(trial)) > op.wrap) {
            out.push(line);
            line = [{ ...r, s: word }];
          } else line = trial;
        }
      }
      out.push(line);
    }
    return out;
  }

  // a text op's lines, each line's width and the whole box, as the page's
  // fonts measure them: { ls, widths, w, h }
  function measure(ctx, op) {
    const ls = lines(ctx, op);
    const widths = ls.map((l) => lineWidth(ctx, op, l.map((x, k) => (k === l.length - 1 ? { ...x, s: x.s.trimEnd() } : x))));
    return { ls, widths, w: Math.max(0, ...widths), h: Math.ceil(op.size * 1.2) * ls.length };
  }

  function drawText(ctx, op) {
    const { ls, widths, w, h } = measure(ctx, op);
    const lh = Math.ceil(op.size * 1.2);
    const centred = op.wrap > 0 && op.ax === 0.5;
    const x0 = centred ? op.x - op.wrap / 2 : op.x - op.ax * w, y0 = op.y - op.ay * h;
    ctx.fillStyle = op.color;
    ctx.strokeStyle = op.color;
    ctx.textBaseline = 'top';
    ls.forEach((line, i) => {
      let x = centred ? x0 + (op.wrap - widths[i]) / 2 : x0;
      for (const r of line) {
        const size = r.raised ? Math.max(op.size * 0.8, Math.min(op.size, 18)) : op.size;
        ctx.font = font(op, size, r);
        ctx.fillText(r.s, x, y0 + i * lh - (r.raised ? op.size * 0.42 : 0));
        x += ctx.measureText(r.s).width;
      }
    });
    return w;
  }

  function decode64(s) {
    if (typeof atob === 'function') return Uint8ClampedArray.from(atob(s), (c) => c.charCodeAt(0));
    return new Uint8ClampedArray(Buffer.from(s, 'base64'));
  }

  function makeCanvas(opts, w, h) {
    if (opts && opts.makeCanvas) return opts.makeCanvas(w, h);
    if (typeof OffscreenCanvas === 'function') return new OffscreenCanvas(w, h);
    const c = document.createElement('canvas');
    c.width = w; c.height = h;
    return c;
  }

  function drawImage(ctx, op, opts) {
    const scratch = makeCanvas(opts, op.w, op.h);
    const sctx = scratch.getContext('2d');
    const img = sctx.createImageData(op.w, op.h);
    img.data.set(decode64(op.rgba));
    sctx.putImageData(img, 0, 0);
    ctx.save();
    ctx.translate(op.x, op.y);
    ctx.scale(op.sx, op.sy);
    ctx.imageSmoothingEnabled = !!op.smooth;
    ctx.drawImage(scratch, 0, 0, op.w, op.h);
    ctx.restore();
  }

  function replay(ctx, list, opts) {
    const ops = parse(list);
    let fresh = false;   // after new_sub_path: the next arc starts without a line
    let n = 0;
    for (const op of ops) {
      if (opts && opts.onOp) opts.onOp(op, n);
      switch (op.op) {
        case 'figure': break;
        case 'source': ctx.fillStyle = css(op.r, op.g, op.b, op.a); ctx.strokeStyle = ctx.fillStyle; break;
        case 'gradient': {
          const g = ctx.createLinearGradient(op.x0, op.y0, op.x1, op.y1);
          const k = op.colors.length;
          op.colors.forEach((c, i) => g.addColorStop(k > 1 ? i / (k - 1) : 0, c));
          ctx.fillStyle = g;
          ctx.strokeStyle = g;
          break;
        }
        case 'line_width': ctx.lineWidth = op.w; break;
        case 'dash': ctx.setLineDash(op.d); ctx.lineDashOffset = op.offset; break;
        case 'cap': ctx.lineCap = op.cap; break;
        case 'join': ctx.lineJoin = op.join; break;
        case 'new_path': ctx.beginPath(); fresh = false; break;
        case 'new_sub_path': fresh = true; break;
        case 'close_path': ctx.closePath(); break;
        case 'move_to': ctx.moveTo(op.x, op.y); fresh = false; break;
        case 'line_to': ctx.lineTo(op.x, op.y); break;
        case 'curve_to': ctx.bezierCurveTo(op.x1, op.y1, op.x2, op.y2, op.x, op.y); break;
        case 'rectangle': ctx.rect(op.x, op.y, op.w, op.h); break;
        case 'arc':
          if (fresh) ctx.moveTo(op.x + op.r * Math.cos(op.a0), op.y + op.r * Math.sin(op.a0));
          ctx.arc(op.x, op.y, op.r, op.a0, op.a1, false);
          fresh = false;
          break;
        case 'stroke': ctx.stroke(); if (!op.preserve) ctx.beginPath(); break;
        case 'fill': ctx.fill(); if (!op.preserve) ctx.beginPath(); break;
        case 'clip': ctx.clip(); ctx.beginPath(); break;
        case 'save': ctx.save(); break;
        case 'restore': ctx.restore(); break;
        case 'translate': ctx.translate(op.x, op.y); break;
        case 'scale': ctx.scale(op.x, op.y); break;
        case 'rotate': ctx.rotate(op.a); break;
        case 'image': drawImage(ctx, op, opts); break;
        case 'text': drawText(ctx, op); break;
        case 'hover': break;   // data for hover() below, nothing drawn
        default: throw new Error(`draw.js: unknown op '${op.op}'`);
      }
      n++;
    }
    return n;
  }

  // The hover read-out of the native window (view_draw_hover in
  // src/view/view_draw.c) from the list's "hover" line (draw_record.c),
  // whose texts the C side made with the window's own functions: at
  // figure pixel (mx, my) inside the plot area, the "x = ..." line of the
  // nearest whole pixel column (the window's pointer is at whole pixels), then each series' part in order: a line or bar
  // series' run covering that column (and its dot), a point series' nearest
  // point within `near` pixels (the first of equals, as the window picks).
  // -> { text, dots: [[x, y, colour]] } or null outside the plot area.
  function hoverAt(h, mx, my) {
    if (!(mx >= h.px && mx <= h.px + h.pw && my >= h.py && my <= h.py + h.ph)) return null;
    const c = Math.min(h.x.length - 1, Math.max(0, Math.round(mx) - h.x0));   // the window's whole pixels
    let text = h.x[c];
    const dots = [];
    for (const s of h.series) {
      if (s.runs) {
        let lo = 0, hi = s.runs.length - 1;   // the last run starting at or before c
        if (hi < 0 || s.runs[0][0] > c) continue;
        while (lo < hi) { const m = (lo + hi + 1) >> 1; if (s.runs[m][0] <= c) lo = m; else hi = m - 1; }
        const r = s.runs[lo];
        text += r[1];
        if (r[2] !== null) dots.push([r[2], r[3], s.color]);
      } else if (s.points) {
        let best = -1, bd = 0;
        s.points.forEach((p, k) => {
          const d = (p[0] - mx) * (p[0] - mx) + (p[1] - my) * (p[1] - my);
          if (best < 0 || d < bd) { best = k; bd = d; }
        });
        if (best >= 0 && bd <= h.near * h.near) text += s.points[best][2];
      } else if (s.cut) text += `\n(${s.cut} points: too many to read out in the page)`;
    }
    return { text, dots };
  }

  // hoverAt drawn as the window draws it: a crosshair, the dots, the text
  // in a pale box beside the pointer (flipped to stay in the plot area)
  function drawHover(ctx, h, mx, my, got) {
    ctx.save();
    ctx.setLineDash([]);
    ctx.strokeStyle = 'rgba(0, 0, 0, 0.5)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(Math.round(mx) + 0.5, h.py);
    ctx.lineTo(Math.round(mx) + 0.5, h.py + h.ph);
    ctx.stroke();
    for (const [x, y, c] of got.dots) {
      ctx.fillStyle = c;
      ctx.beginPath();
      ctx.arc(x, y, h.base * 0.3, 0, 2 * Math.PI);
      ctx.fill();
    }
    const op = { s: got.text, x: 0, y: 0, ax: 0, ay: 0, size: h.base, color: '#222222',
      font: 'DejaVu Sans Mono, Noto Sans Mono CJK KR, monospace' };
    const ls = lines(ctx, op);
    const tw = Math.max(0, ...ls.map((l) => lineWidth(ctx, op, l))), th = Math.ceil(h.base * 1.2) * ls.length;
    let bx = mx + 14, by = my + 14;
    if (bx + tw + 12 > h.px + h.pw) bx = mx - 14 - tw - 12;
    if (by + th + 10 > h.py + h.ph) by = my - 14 - th - 10;
    ctx.beginPath();
    ctx.rect(bx, by, tw + 12, th + 10);
    ctx.fillStyle = 'rgba(255, 255, 237, 0.95)';
    ctx.fill();
    ctx.strokeStyle = '#888888';
    ctx.stroke();
    op.x = bx + 6;
    op.y = by + 5;
    drawText(ctx, op);
    ctx.restore();
  }

  // hover(canvas, list): after replay(canvas's context, list), the read-out
  // follows the mouse (the drawn figure kept and put back under it); the
  // text shown is in canvas.dataset.hover ('' when none).  Lists without a
  // "hover" line (every kind but plots, as in the window) get nothing.
  // The parsed list stays as canvas.nnpadOps (what the page's tests read).
  function hover(canvas, list) {
    const ops = parse(list);
    canvas.nnpadOps = ops;
    const h = ops.find((op) => op.op === 'hover');
    if (!h) return false;
    const ctx = canvas.getContext('2d');
    const snap = ctx.getImageData(0, 0, canvas.width, canvas.height);
    canvas.dataset.hover = '';
    canvas.addEventListener('mousemove', (e) => {
      const r = canvas.getBoundingClientRect();
      const mx = (e.clientX - r.left) * canvas.width / r.width, my = (e.clientY - r.top) * canvas.height / r.height;
      ctx.putImageData(snap, 0, 0);
      const got = hoverAt(h, mx, my);
      canvas.dataset.hover = got ? got.text : '';
      if (got) drawHover(ctx, h, mx, my, got);
    });
    canvas.addEventListener('mouseleave', () => { ctx.putImageData(snap, 0, 0); canvas.dataset.hover = ''; });
    return true;
  }

  const api = { replay, parse, runs, lines, measure, hover, hoverAt };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.nnpadDraw = api;
})(typeof self !== 'undefined' ? self : this);
