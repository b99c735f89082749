// Practice: solo games played in the page on the client's engine (engine.js, the server's
// rules), with no server at all — offline, or whenever the player wants. Never ranked, never
// sent anywhere; the local best per mode and size is kept in the browser (storage.js). Pure:
// no DOM.
import { fifteenTap, newGame, rows } from './engine.js';

export class Practice {
  // storage: a ClientStorage; seed(): a 64-bit BigInt (random in the page, fixed in tests).
  constructor(storage, seed = randomSeed) {
    this.storage = storage;
    this.seed = seed;
    this.game = null;
    this.count = 0;
  }

  // A new practice game with the lobby's settings {mode, size, target?}.
  start({ mode, size, target = 2048 }) {
    this.game = newGame({ mode, size, target: mode === 'fifteen' ? 0 : target, seed: this.seed() });
    this.id = `practice-${++this.count}`;
    return this.shown();
  }
  stop() { this.game = null; }

  // A move or an undo; returns whether the board changed. A game that ends keeps its best.
  move(dir) { return this.keep(this.game?.move(dir) ?? false); }
  undo() { return this.keep(this.game?.undo() ?? false); }

  keep(changed) {
    if (changed) this.record();
    return changed;
  }

  // A click or tap on cell [row, col] in Fifteen: the tiles between it and the blank slide
  // (as many steps as it is away, in its row or column); returns whether the board changed.
  slide(row, col) {
    const g = this.game;
    const tap = g?.mode === 'fifteen' ? fifteenTap(g.size, g.blank, row, col) : null;
    let changed = false;
    for (let k = tap?.steps ?? 0; k > 0; --k) changed = this.move(tap.dir) || changed;
    return changed;
  }

  // The best of this mode and size kept here: the highest score, or in Fifteen the fewest
  // moves of a solve; null before any.
  best(mode, size) { return this.storage.practiceBests[`${mode}/${size}`] ?? null; }
  record() {
    const g = this.game, key = `${g.mode}/${g.size}`, bests = this.storage.practiceBests;
    const better = g.mode === 'fifteen' ? g.state === 'solved' && (bests[key] == null || g.moves < bests[key])
      : g.undos === 0 && (bests[key] == null || g.score > bests[key]);
    if (better) this.storage.practiceBests = { ...bests, [key]: g.mode === 'fifteen' ? g.moves : g.score };
  }

  // The game as the page draws a game (the server's shape, marked practice and unranked), or null.
  shown() {
    const g = this.game;
    if (!g) return null;
    return { id: this.id, mode: g.mode, size: g.size, target: g.target, board: rows(g), score: g.score, moves: g.moves,
      max_tile: g.maxTile, state: g.state, won: g.won, ranked: false, undos: g.undos, practice: true };
  }
}

function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}
