// Keys and swipes → directions. Pure mapping functions plus a small binder for the page.

const KEYS = {
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
  w: 'up', s: 'down', a: 'left', d: 'right',
  k: 'up', j: 'down', h: 'left', l: 'right',
};

// The direction a key means, or null. Keys held with a modifier mean nothing (browser shortcuts).
export function directionForKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  return KEYS[key] ?? null;
}

// The command a key means besides moving: 'new' (R) or 'undo' (Z), or null.
export function commandForKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  const key = event.key.toLowerCase();
  return key === 'r' ? 'new' : key === 'z' ? 'undo' : null;
}

// The direction of a swipe of (dx, dy) pixels, or null when shorter than min pixels.
export function swipeDirection(dx, dy, min = 10) {
  if (Math.max(Math.abs(dx), Math.abs(dy)) < min) return null;
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? 'right' : 'left';
  return dy > 0 ? 'down' : 'up';
}

const OPPOSITE = { up: 'down', down: 'up', left: 'right', right: 'left' };

// The `move` to send for a direction given by a 'key' or a 'swipe' in mode. Fifteen: a key
// moves the blank that way (the tile beyond it moves the other way); a swipe pushes a tile.
export function moveFor(dir, via, mode) {
  return mode === 'fifteen' && via === 'key' ? OPPOSITE[dir] : dir;
}

// Calls onDirection(dir, 'key' | 'swipe') / onCommand for keys on the document and swipes on element.
export function bindInput(element, { onDirection, onCommand }) {
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const dir = directionForKey(event);
    if (dir) { event.preventDefault(); onDirection(dir, 'key'); return; }
    const command = commandForKey(event);
    if (command) { event.preventDefault(); onCommand(command); }
  });
  let start = null;
  element.addEventListener('touchstart', (e) => {
    if (e.touches.length === 1) start = { x: e.touches[0].clientX, y: e.touches[0].clientY };
  }, { passive: true });
  element.addEventListener('touchmove', (e) => { if (start) e.preventDefault(); }, { passive: false });
  element.addEventListener('touchend', (e) => {
    if (!start) return;
    const t = e.changedTouches[0];
    const dir = swipeDirection(t.clientX - start.x, t.clientY - start.y);
    start = null;
    if (dir) onDirection(dir, 'swipe');
  });
}
