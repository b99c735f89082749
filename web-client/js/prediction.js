// Client-side prediction of the player's own game (docs/protocol.md, "Prediction"): a key is
// answered on the board at once with the slide and merges the server will make; the spawn
// comes with the server's `moved`. The server stays the authority: what is shown is always
// its last word (`confirmed`) with the player's still-unanswered actions applied on top, so
// an answer that differs from the guess replaces the guess. Pure: no DOM, no socket.
//
// Each action is an entry, sent in order with a `rid` (to match its answer) and `at_move`
// (so that a resend after a reconnect is never applied twice):
// - held: not sent yet (the socket is closed, or its outcome is not known well enough);
// - flight: sent on this connection, unanswered;
// - doubt: sent on a connection that closed unanswered; the next snapshot of the game says
//   whether the server applied it (its move count).
// Only actions predicted to change the board are sent while others are in flight, so the
// `at_move`s in flight follow each other; a key that would change nothing on the predicted
// board waits until the board before it is the server's (then it is sent, or dropped as the
// no-op it is), and so does an undo. A `stale` answer (a spawn blocked a predicted slide)
// makes every later entry in flight stale too: each is sent again, in order, on the board the
// server has (a second time only once everything before it is answered).
import { fifteenTap, slide as slideCells } from './engine.js';

const STEP = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] };
const MAX_ATTEMPTS = 5;   // sends of one action before it is given up
const MAX_ENTRIES = 64;   // unanswered actions kept; more keys are ignored until answers come

const FIELDS = ['board', 'score', 'moves', 'max_tile', 'state', 'won'];
function pick(g) { const out = {}; for (const f of FIELDS) out[f] = g[f]; return out; }
function sameBoard(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

// The outcome of one move or slide on game g ({mode, size, target, board, score, moves, state,
// won, max_tile}): {changed, gained, motions, after} where after has g's fields, the spawn left
// out. Exact for Fifteen and for the slides and merges of the 2048 modes; a moving obstacle's
// end of life and a new obstacle come only from the server.
export function predictMove(g, action) {
  const none = { changed: false, gained: 0, motions: [], after: pick(g) };
  if (g.state !== 'playing') return none;
  return g.mode === 'fifteen' ? predictFifteen(g, action, none) : predictTiles(g, action, none);
}

function predictTiles(g, action, none) {
  if (!action.dir) return none;
  const n = g.size, cells = g.board.flat();
  const { changed, gained, dest } = slideCells(cells, n, action.dir, g.mode === 'moving-obstacle');
  if (!changed) return none;
  const motions = [], reached = new Set();
  const before = g.board.flat();
  for (const [from, to] of dest) {
    const merged = reached.has(to);  // the second tile to reach a cell is the absorbed one
    reached.add(to);
    if (from !== to || merged) {
      motions.push({ from: [Math.floor(from / n), from % n], to: [Math.floor(to / n), to % n], value: before[from], merged });
    }
  }
  const board = [];
  for (let r = 0; r < n; ++r) board.push(cells.slice(r * n, (r + 1) * n));
  const maxTile = Math.max(g.max_tile ?? 0, ...cells);
  return { changed: true, gained, motions,
    after: { board, score: g.score + gained, moves: g.moves + 1, max_tile: maxTile, state: 'playing',
      won: g.won || maxTile >= g.target } };
}

function predictFifteen(g, action, none) {
  const n = g.size, cells = g.board.flat();
  let blank = cells.indexOf(0);
  const motions = [];
  // One tile into the blank from the side opposite dir (a `move` says which way the tile goes).
  const step = (dir) => {
    const [dr, dc] = STEP[dir];
    const r = Math.floor(blank / n) - dr, c = (blank % n) - dc;
    if (r < 0 || r >= n || c < 0 || c >= n) return false;
    const i = r * n + c;
    motions.push({ from: [r, c], to: [Math.floor(blank / n), blank % n], value: cells[i], merged: false });
    cells[blank] = cells[i]; cells[i] = 0; blank = i;
    return true;
  };
  if (action.dir) {
    step(action.dir);
  } else if (action.cell) {
    const tap = fifteenTap(n, blank, ...action.cell);
    for (let k = tap?.steps ?? 0; k > 0; --k) step(tap.dir);
  }
  if (!motions.length) return none;
  const board = [];
  for (let r = 0; r < n; ++r) board.push(cells.slice(r * n, (r + 1) * n));
  const solved = cells.every((v, i) => v === (i + 1 === cells.length ? 0 : i + 1));
  const moves = g.moves + motions.length;
  return { changed: true, gained: 0, motions,
    after: { board, score: moves, moves, max_tile: 0, state: solved ? 'solved' : 'playing', won: solved } };
}

export class Predictor {
  // send(msg): sends a message now (only called while open). enabled: false sends every
  // action as it comes, unpredicted (the page's ?predict=0, for the latency benchmark).
  constructor(send, { enabled = true } = {}) {
    this.sendNow = send;
    this.enabled = enabled;
    this.game = null;        // the server's last word on my game: G's fields
    this.history = [];       // the server's earlier boards of it, for undo (newest last)
    this.entries = [];       // my unanswered actions, in order
    this.open = false;       // welcomed on an open socket
    this.awaitSnapshot = false;
    this.seq = 0;
  }

  get id() { return this.game?.id ?? null; }

  // What to show: the server's game with every unanswered action applied (null: no game).
  get shown() { return this.game ? this.walk().shown : null; }

  // Follows the game shown large (myGame): a different game (or none) starts afresh.
  follow(game) {
    if (!game) { this.game = null; this.entries = []; this.history = []; return; }
    if (game.id === this.id) return;
    this.game = { ...game };
    this.entries = [];
    this.history = [];
  }

  // The socket is welcomed (open true) or gone (false). Actions in flight then are in doubt.
  setOpen(open) {
    if (this.open === open) return;
    this.open = open;
    if (!open) {
      for (const e of this.entries) if (e.status === 'flight') e.status = 'doubt';
      this.awaitSnapshot = this.entries.some((e) => e.status === 'doubt');
    }
    this.pump();
  }

  // A key, swipe or tap: {dir} or {cell} (Fifteen), or {undo: true}. Returns the change to
  // draw (see change()), or null when nothing is shown differently.
  press(action) {
    if (!this.game) return null;
    if (!this.enabled) { this.sendNow(wire(action, null, undefined)); return null; }
    if (this.entries.length >= MAX_ENTRIES) return null;
    const before = this.walk();
    const entry = { action, rid: `k${++this.seq}`, status: 'held', atMove: null, attempts: 0 };
    this.entries.push(entry);
    this.pump();
    return this.change(before.shown, entry);
  }

  // A message from the server, after state.js has folded it in; returns the change to draw,
  // or null when the message is not about my game's board (then state.js's own effects stand).
  observe(msg, me) {
    if (!this.enabled || !this.game) return null;
    const before = this.walk().shown;
    const entry = msg.rid !== undefined ? this.entries.find((e) => e.rid === msg.rid) : undefined;
    switch (msg.type) {
      case 'moved':
        if (msg.game !== this.id) return null;
        if (entry) this.entries.splice(this.entries.indexOf(entry), 1);
        if (msg.changed) this.history.push(pick(this.game));
        Object.assign(this.game, pick(msg));
        break;
      case 'error':
        if (!entry) return null;
        if (msg.code === 'stale' && ++entry.attempts < MAX_ATTEMPTS) {
          entry.status = 'held';  // the snapshot that follows is the board it goes on
        } else {
          this.entries.splice(this.entries.indexOf(entry), 1);  // refused: shown no more
        }
        break;
      case 'game':
        if (msg.game.id !== this.id) return null;
        if (entry?.action.undo) {
          // The undo's answer: the board before my last move (the history's newest).
          this.entries.splice(this.entries.indexOf(entry), 1);
          this.history.pop();
          Object.assign(this.game, pick(msg.game));
        } else {
          this.snapshot(msg.game);
        }
        break;
      case 'race_state': {
        const mine = msg.games[me];
        if (!mine || mine.id !== this.id) return null;
        this.snapshot(mine);
        break;
      }
      default:
        return null;
    }
    this.pump();
    return this.change(before, null);
  }

  // The server's whole game: after a reconnect it says which actions in doubt were applied
  // (those whose at_move is below its move count: in flight they followed each other).
  snapshot(g) {
    if (g.moves !== this.game.moves || !sameBoard(g.board, this.game.board)) this.history = [];
    Object.assign(this.game, pick(g));
    if (!this.awaitSnapshot) return;
    this.awaitSnapshot = false;
    this.entries = this.entries.filter((e) => {
      if (e.status !== 'doubt') return true;
      if (e.action.undo ? g.moves < e.atMove : e.atMove < g.moves) return false;  // applied
      e.status = 'held';
      return true;
    });
  }

  // Sends what may go now, in order (see the header).
  pump() {
    if (!this.open || this.awaitSnapshot) return;
    const { steps } = this.walk();
    const kept = [];
    // The move count the server will have reached when the next action arrives, if every
    // action in flight was rightly predicted to change the board.
    let next = null;
    let inFlight = false, undoInFlight = false, blocked = false;
    steps.forEach(({ entry, before, outcome }) => {
      if (blocked || entry.status !== 'held') {
        kept.push(entry);
        if (entry.status === 'flight') {
          inFlight = true;
          undoInFlight ||= !!entry.action.undo;
          next = entry.atMove + 1;
        }
        return;
      }
      // An undo goes alone; so does an action found stale twice (on the server's own board its
      // at_move is exact: it cannot be stale again).
      if (undoInFlight || ((entry.action.undo || entry.attempts >= 2) && inFlight)) {
        blocked = true; kept.push(entry); return;
      }
      if (!entry.action.undo && !outcome.changed) {
        // A no-op on the server's own board (or anywhere in Fifteen, which has no chance):
        // nothing to send. Elsewhere a spawn still to come may make it move: it waits.
        if (!inFlight || this.game.mode === 'fifteen') return;
        blocked = true; kept.push(entry); return;
      }
      entry.atMove = next ?? before.moves;
      entry.status = 'flight';
      next = entry.atMove + 1;
      inFlight = true;
      undoInFlight = !!entry.action.undo;
      this.sendNow(wire(entry.action, entry.rid, entry.action.undo ? undefined : entry.atMove));
      kept.push(entry);
    });
    this.entries = kept;
  }

  // The server's game with each entry applied in turn: {shown, steps: [{entry, before, outcome}]}.
  walk() {
    let g = { ...this.game };
    const history = [...this.history];
    const steps = [];
    for (const entry of this.entries) {
      const before = g;
      let outcome;
      if (entry.action.undo) {
        // Back to the board before my last move; Fifteen's undo takes back one tile of a
        // slide, shown when the server answers.
        const back = g.state === 'playing' && g.mode !== 'fifteen' ? history.pop() : undefined;
        outcome = { changed: !!back, gained: 0, motions: [], after: back ?? pick(g) };
      } else {
        outcome = predictMove(g, entry.action);
        if (outcome.changed) history.push(pick(g));
      }
      g = { ...g, ...outcome.after };
      steps.push({ entry, before, outcome });
    }
    return { shown: g, steps };
  }

  // How the board shown goes from `before` to now: {kind: 'slide', before, message} for the
  // entry just pressed (its predicted slide; message as a `moved` without spawn),
  // {kind: 'appear', before, message} when the server only added tiles (the spawn),
  // {kind: 'snap', board} when the server's board differs from the guess, or null.
  change(before, pressed) {
    const { shown, steps } = this.walk();
    if (pressed) {
      const step = steps.find((s) => s.entry === pressed);
      if (!step || !step.outcome.changed) return null;
      if (step.entry.action.undo) return { kind: 'snap', board: shown.board, shown };
      return { kind: 'slide', before: before.board, shown,
        message: { board: shown.board, motions: step.outcome.motions, spawned: [], gained: step.outcome.gained, score: shown.score } };
    }
    if (sameBoard(before.board, shown.board)) return null;
    const spawned = [];
    let onlyAdded = before.board.length === shown.board.length;
    shown.board.forEach((row, r) => row.forEach((v, c) => {
      const was = before.board[r]?.[c];
      if (was === v) return;
      if (was === 0 && v !== 0) spawned.push({ at: [r, c], value: v });
      else onlyAdded = false;
    }));
    if (onlyAdded) return { kind: 'appear', before: before.board, shown, message: { board: shown.board, motions: [], spawned, gained: 0, score: shown.score } };
    return { kind: 'snap', board: shown.board, shown };
  }
}

// The message for an action.
function wire(action, rid, atMove) {
  const msg = action.undo ? { type: 'undo' } : action.cell ? { type: 'slide', cell: action.cell } : { type: 'move', dir: action.dir };
  if (rid !== null) msg.rid = rid;
  if (atMove !== undefined) msg.at_move = atMove;
  return msg;
}
