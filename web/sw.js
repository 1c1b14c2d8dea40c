// sw.js — makes the page cross-origin isolated on any static server.  The
// console needs SharedArrayBuffer and Atomics.wait (worker.js: nnpad blocks
// reading its input), which browsers give only to a page served with
// Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy:
// require-corp; `python3 -m http.server` sends neither.  This service worker
// adds both to the page's own responses (nnpad.js registers it and reloads
// once).  Service workers exist on https and on localhost/127.0.0.1 only.
'use strict';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => {
  const r = e.request;
  if (new URL(r.url).origin !== self.location.origin) return;   // other origins: untouched (COEP blocks them)
  if (r.cache === 'only-if-cached' && r.mode !== 'same-origin') return;
  e.respondWith(fetch(r).then((res) => {
    if (res.status === 0) return res;
    const h = new Headers(res.headers);
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    h.set('Cross-Origin-Embedder-Policy', 'require-corp');
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers: h });
  }));
});
