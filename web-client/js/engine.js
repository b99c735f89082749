// The rules of PROTOCOL.md §7 in JavaScript, for the replay viewer: a game is rebuilt from its
// mode, size, target, seed and move string, drawing random numbers in the server's order
// (docs/protocol.md §4). Pure: no DOM.

const MASK = (1n << 64n) - 1n;
const PENALTY_MIX = 0xd1b54a32d192ed03n;

export class SplitMix64 {
  constructor(seed) { this.state = BigInt.asUintN(64, BigInt(seed)); }
  next() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }
  below(n) { return Number(this.next() % BigInt(n)); }
  copy() { const c = new SplitMix64(0); c.state = this.state; return c; }
}

const STEP = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] };
export const LETTERS = { U: 'up', D: 'down', L: 'left', R: 'right' };
const OBSTACLE = -1;

// Index of the k-th cell (counted from the wall) of line `line` when sliding toward dir.
function lineIndex(n, dir, line, k) {
  switch (dir) {
    case 'left': return line * n + k;
    case 'right': return line * n + (n - 1 - k);
    case 'up': return k * n + line;
    default: return (n - 1 - k) * n + line;
  }
}

// Slides cells (a flat array) toward dir; returns {changed, gained, dest} where dest maps each
// occupied old index to its new index. Fixed obstacles stay; moving ones slide, never merge.
export function slide(cells, n, dir, movingObstacles) {
  let changed = false, gained = 0;
  const dest = new Map();
  for (let line = 0; line < n; ++line) {
    const index = [], input = [], out = new Array(n).fill(0);
    for (let k = 0; k < n; ++k) { index.push(lineIndex(n, dir, line, k)); input.push(cells[index[k]]); }
    let write = 0, open = -1;
    for (let k = 0; k < n; ++k) {
      const v = input[k];
      if (v === 0) continue;
      let to, merged = false;
      if (v === OBSTACLE) {
        to = movingObstacles ? write : k;
        out[to] = OBSTACLE; write = to + 1; open = -1;
      } else if (open >= 0 && out[open] === v) {
        to = open; merged = true; out[to] = v * 2; gained += v * 2; open = -1;
      } else {
        to = write++; out[to] = v; open = to;
      }
      dest.set(index[k], index[to]);
      if (to !== k || merged) changed = true;
    }
    for (let k = 0; k < n; ++k) cells[index[k]] = out[k];
  }
  return { changed, gained, dest };
}

function canMove(cells, n, movingObstacles) {
  const movable = (v) => v !== 0 && (v !== OBSTACLE || movingObstacles);
  for (let r = 0; r < n; ++r) {
    for (let c = 0; c < n; ++c) {
      const v = cells[r * n + c];
      for (const [dr, dc] of [[0, 1], [1, 0]]) {
        if (r + dr >= n || c + dc >= n) continue;
        const w = cells[(r + dr) * n + c + dc];
        if ((v === 0 && movable(w)) || (w === 0 && movable(v))) return true;
        if (v > 0 && v === w) return true;
      }
    }
  }
  return false;
}

function emptyCells(cells) {
  const out = [];
  cells.forEach((v, i) => { if (v === 0) out.push(i); });
  return out;
}

// A 2048-mode game (classic, fixed-obstacle, moving-obstacle).
class TileGame {
  constructor({ mode, size, target, seed }) {
    this.mode = mode; this.size = size; this.target = target;
    this.moving = mode === 'moving-obstacle';
    this.cells = new Array(size * size).fill(0);
    this.rng = new SplitMix64(seed);
    this.penalty = new SplitMix64(BigInt.asUintN(64, BigInt(seed)) ^ PENALTY_MIX);
    this.obstacles = [];  // moving: {index, life}
    this.score = 0; this.moves = 0; this.won = false; this.state = 'playing'; this.undos = 0;
    this.past = [];
    if (mode === 'fixed-obstacle') this.cells[this.rng.below(size * size)] = OBSTACLE;
    this.spawn(); this.spawn();
  }
  spawn() {
    const empty = emptyCells(this.cells);
    if (empty.length === 0) return;
    const i = empty[this.rng.below(empty.length)];
    this.cells[i] = this.rng.below(10) === 0 ? 4 : 2;
  }
  maybeObstacle(rng) {
    if (rng.below(100) >= 30) return;
    const empty = emptyCells(this.cells);
    if (empty.length === 0) return;
    const i = empty[rng.below(empty.length)];
    this.cells[i] = OBSTACLE;
    this.obstacles.push({ index: i, life: 5 });
  }
  snapshot() {
    return { cells: [...this.cells], obstacles: this.obstacles.map((o) => ({ ...o })), score: this.score,
      moves: this.moves, won: this.won, state: this.state, rng: this.rng.copy() };
  }
  move(dir) {
    if (this.state !== 'playing') return false;
    const before = this.snapshot();
    const { changed, gained, dest } = slide(this.cells, this.size, dir, this.moving);
    if (!changed) return false;
    this.past.push(before);
    if (this.moving) {
      const kept = [];
      for (const o of this.obstacles) {
        const index = dest.get(o.index);
        if (--o.life === 0) this.cells[index] = 0; else kept.push({ index, life: o.life });
      }
      this.obstacles = kept;
    }
    this.spawn();
    if (this.moving && this.obstacles.length === 0) this.maybeObstacle(this.rng);
    this.score += gained; this.moves += 1;
    if (Math.max(...this.cells) >= this.target) this.won = true;
    if (!canMove(this.cells, this.size, this.moving)) this.state = 'over';
    return true;
  }
  undo() {
    if (this.state !== 'playing' || this.past.length === 0) return false;
    Object.assign(this, this.past.pop());
    this.undos += 1;
    if (this.moving && this.obstacles.length < 2 && emptyCells(this.cells).length >= 2) this.maybeObstacle(this.penalty);
    return true;
  }
  get maxTile() { return Math.max(0, ...this.cells); }
}

// The Fifteen puzzle.
class Fifteen {
  constructor({ size, seed }) {
    this.mode = 'fifteen'; this.size = size; this.target = 0;
    const rng = new SplitMix64(seed), tiles = size * size - 1;
    do {
      this.cells = [];
      for (let i = 0; i < tiles; ++i) this.cells.push(i + 1);
      for (let i = tiles - 1; i > 0; --i) {
        const j = rng.below(i + 1);
        [this.cells[i], this.cells[j]] = [this.cells[j], this.cells[i]];
      }
      let inversions = 0;
      for (let i = 0; i < tiles; ++i) for (let j = i + 1; j < tiles; ++j) if (this.cells[i] > this.cells[j]) ++inversions;
      if (inversions % 2) [this.cells[0], this.cells[1]] = [this.cells[1], this.cells[0]];
      this.cells.push(0);
    } while (this.home() === tiles);
    this.blank = tiles; this.moves = 0; this.undos = 0; this.state = 'playing'; this.done = [];
  }
  home() { let h = 0; for (let i = 0; i + 1 < this.cells.length; ++i) h += this.cells[i] === i + 1 ? 1 : 0; return h; }
  step(dir) {
    const n = this.size, [dr, dc] = STEP[dir];
    const r = Math.floor(this.blank / n) - dr, c = (this.blank % n) - dc;
    if (r < 0 || r >= n || c < 0 || c >= n) return false;
    const i = r * n + c;
    this.cells[this.blank] = this.cells[i]; this.cells[i] = 0; this.blank = i;
    return true;
  }
  move(dir) {
    if (this.state !== 'playing' || !this.step(dir)) return false;
    this.moves += 1; this.done.push(dir);
    if (this.home() === this.cells.length - 1) this.state = 'solved';
    return true;
  }
  undo() {
    if (this.state !== 'playing' || this.done.length === 0) return false;
    const back = { up: 'down', down: 'up', left: 'right', right: 'left' }[this.done.pop()];
    this.step(back); this.moves -= 1; this.undos += 1;
    return true;
  }
  get score() { return this.moves; }
  get won() { return this.state === 'solved'; }
  get maxTile() { return 0; }
}

// A tap on cell [row, col] of a Fifteen board of size whose blank is at index blank: the tiles
// between it and the blank slide, {dir, steps} (as many one-tile moves as it is away, in its
// row or column), or null for a cell off the blank's row and column (or the blank itself).
export function fifteenTap(size, blank, row, col) {
  const br = Math.floor(blank / size), bc = blank % size;
  if ((row === br) === (col === bc)) return null;
  return row === br ? { dir: col > bc ? 'left' : 'right', steps: Math.abs(col - bc) }
    : { dir: row > br ? 'up' : 'down', steps: Math.abs(row - br) };
}

export function newGame(config) {
  return config.mode === 'fifteen' ? new Fifteen(config) : new TileGame(config);
}

// The board as rows, as the server sends it.
export function rows(game) {
  const out = [];
  for (let r = 0; r < game.size; ++r) out.push(game.cells.slice(r * game.size, (r + 1) * game.size));
  return out;
}

// Every board of a replay, from the start to the end: [{board, score, moves, letter}].
export function replayFrames(replay) {
  const game = newGame({ mode: replay.mode, size: replay.size, target: replay.target, seed: BigInt(replay.seed) });
  const frames = [{ board: rows(game), score: game.score, moves: game.moves, letter: '' }];
  for (const letter of replay.moves) {
    const ok = letter === 'Z' ? game.undo() : game.move(LETTERS[letter]);
    if (!ok) throw new Error(`replay step ${frames.length} (${letter}) does not apply`);
    frames.push({ board: rows(game), score: game.score, moves: game.moves, letter });
  }
  return { frames, final: { score: game.score, maxTile: game.maxTile, state: game.state } };
}
