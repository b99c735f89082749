// The installed app: registers the service worker (sw.js) and, when a new version of the page
// has installed behind the one running, shows "A new version is ready — reload". Nothing
// reloads by itself: only the player's click hands over to the new version (and reloads).
export function watchUpdates(banner, button) {
  if (!('serviceWorker' in navigator)) return;
  const offer = (worker) => {
    if (!worker || !navigator.serviceWorker.controller) return;  // the first install: nothing to replace
    banner.hidden = false;
    button.onclick = () => {
      navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
      worker.postMessage('take-over');
    };
  };
  navigator.serviceWorker.register('sw.js', { type: 'module' }).then((registration) => {
    offer(registration.waiting);
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing;
      worker?.addEventListener('statechange', () => { if (worker.state === 'installed') offer(worker); });
    });
  }).catch(() => { /* no offline copy here (an untrusted certificate, a private window): the page works as before */ });
}
