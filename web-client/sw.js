// The service worker: the app shell (the page, its style, modules, catalogs and icons) is
// cached on install, under this version, and served cache-first, so the page opens at once
// and with no server at all after one visit. Nothing else is cached: the API, the socket and
// the operator's console always go to the network. A new version (this file changed: VERSION
// is the hash of the shell, tests/web/service_worker.test.mjs keeps it true) installs in the
// background and waits; the page offers "reload" (updates.js) and tells it to take over only
// when the player says so.
const VERSION = 'bc426c492185';
const CACHE = `tilerace-${VERSION}`;
export const SHELL = [
  'index.html', 'style.css', 'manifest.webmanifest',
  'icons/icon.svg', 'icons/icon-192.png', 'icons/icon-512.png',
  'i18n/en.json', 'i18n/ru.json', 'i18n/vi.json', 'i18n/zh.json',
  'js/account_view.js', 'js/animation.js', 'js/api.js', 'js/api_screens.js', 'js/app.js', 'js/board_view.js', 'js/connection.js',
  'js/controller.js', 'js/controls.js', 'js/daily_view.js', 'js/engine.js', 'js/feedback.js', 'js/friends_view.js',
  'js/handshake.js', 'js/i18n.js', 'js/input.js', 'js/leaderboard_view.js', 'js/lobby_view.js', 'js/notice_view.js',
  'js/overlay_view.js', 'js/page_view.js', 'js/page_words.js', 'js/practice.js', 'js/practice_play.js', 'js/prediction.js',
  'js/profile_view.js', 'js/race_view.js', 'js/rating_words.js', 'js/replay_view.js', 'js/sound.js', 'js/state.js', 'js/storage.js',
  'js/tournament_view.js', 'js/updates.js', 'js/views.js',
  'js/reducers/account.js', 'js/reducers/lobby.js', 'js/reducers/play.js', 'js/reducers/race.js',
  'js/reducers/room.js', 'js/reducers/social.js', 'js/reducers/tournament.js',
];

// What a request is served from: the page itself for any navigation within the scope (its
// query, ?room= and the like, is the page's business), a shell file by its path, else null
// (the network's).
export function shellEntry(url, scope) {
  if (!url.startsWith(scope)) return null;
  const path = url.slice(scope.length).split(/[?#]/)[0];
  if (path === '' || path === 'index.html') return 'index.html';
  return SHELL.includes(path) ? path : null;
}

if (typeof ServiceWorkerGlobalScope !== 'undefined' && self instanceof ServiceWorkerGlobalScope) {
  self.addEventListener('install', (event) => {
    event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL.map((path) => new Request(path, { cache: 'reload' })))));
  });
  self.addEventListener('activate', (event) => {
    event.waitUntil((async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })());
  });
  self.addEventListener('message', (event) => { if (event.data === 'take-over') self.skipWaiting(); });
  self.addEventListener('fetch', (event) => {
    if (event.request.method !== 'GET') return;
    const entry = shellEntry(event.request.url, self.registration.scope);
    if (!entry) return;  // the API, the socket, the console: the network's
    event.respondWith((async () => (await (await caches.open(CACHE)).match(entry)) ?? fetch(event.request))());
  });
}
