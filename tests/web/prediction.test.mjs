import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Predictor, predictMove } from '../../web-client/js/prediction.js';
import { newGame, rows } from '../../web-client/js/engine.js';

// The server's side of one game, by the rules of PROTOCOL.md §4: at_move checked, answers with
// the rid. Built on engine.js's game (the replay viewer's, checked against the server's).
class FakeServer {
  constructor(config) {
    this.config = config;
    this.game = newGame(config);
    this.id = 'g1';
  }
  snapshot(rid) {
    const g = this.game;
    const msg = { type: 'game', game: { id: this.id, mode: g.mode, size: g.size, target: g.target, board: rows(g),
      score: g.score, moves: g.moves, max_tile: g.maxTile, state: g.state, won: g.won, ranked: false, undos: g.undos } };
    if (rid !== undefined) msg.rid = rid;
    return msg;
  }
  // The answers to one message.
  handle(msg) {
    const g = this.game, rid = msg.rid;
    if (msg.type === 'undo') return g.undo() ? [this.snapshot(rid)] : [{ type: 'error', code: 'not_allowed', rid }];
    if (g.state !== 'playing') return [{ type: 'error', code: 'game_over', rid }];
    if (msg.at_move !== undefined && msg.at_move !== g.moves) {
      return [{ type: 'error', code: 'stale', rid }, this.snapshot(rid)];
    }
    const changed = g.move(msg.dir);
    return [{ type: 'moved', game: this.id, rid, dir: msg.dir, changed, board: rows(g), score: g.score, moves: g.moves,
      max_tile: g.maxTile, state: g.state, won: g.won }];
  }
}

// A seeded choice of numbers for the scenarios.
function chooser(seed) {
  let s = seed >>> 0;
  return (n) => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s % n; };
}

const DIRS = ['up', 'down', 'left', 'right'];

// One scenario: keys (and undos) pressed, messages delivered in either direction and
// connections lost, in an order the seed picks. Returns what to compare.
function scenario(config, seed, { steps = 120, undo = true, drops = true, stall = false } = {}) {
  const pick = chooser(seed);
  const server = new FakeServer(config);
  const reference = newGame(config);  // every action applied once, in the order pressed
  let up = [], down = [];             // messages on the way to the server, and back
  const predictor = new Predictor((msg) => up.push(msg));
  predictor.follow(server.snapshot().game);
  predictor.setOpen(true);
  const deliverUp = () => { down.push(...server.handle(up.shift())); };
  const deliverDown = () => { predictor.observe(down.shift(), 'me'); };
  for (let i = 0; i < steps; ++i) {
    // A stall: keys pile up (two of every three steps) while answers come one at a time.
    const roll = stall ? [0, 0, 70][i % 3] : pick(100);
    if (stall && roll === 70 && up.length) deliverUp();
    if (roll < 35) {
      const action = undo && pick(12) === 0 ? { undo: true } : { dir: DIRS[pick(4)] };
      predictor.press(action);
      if (action.undo) reference.undo(); else reference.move(action.dir);
    } else if (roll < 65) {
      if (up.length) deliverUp();
    } else if (roll < 97 || !drops) {
      if (down.length) deliverDown();
    } else {
      // The connection drops: some messages reached the server (their answers are lost),
      // the rest never did. Then a new connection, and the resume's snapshot.
      const reached = pick(up.length + 1);
      for (let k = 0; k < reached; ++k) server.handle(up.shift());
      up = []; down = [];
      predictor.setOpen(false);
      predictor.setOpen(true);
      down.push(server.snapshot());
    }
  }
  while (up.length || down.length) {
    if (up.length) deliverUp(); else deliverDown();
  }
  return { server: server.game, reference, predictor };
}

function assertSettled({ server, reference, predictor }, what) {
  assert.equal(predictor.entries.length, 0, `${what}: every action answered`);
  assert.deepEqual(rows(server), rows(reference), `${what}: each action applied once, in order`);
  assert.equal(server.score, reference.score, what);
  assert.equal(server.moves, reference.moves, what);
  assert.deepEqual(predictor.shown.board, rows(server), `${what}: the board shown is the server's`);
  assert.equal(predictor.shown.score, server.score, what);
}

test('any order of keys, answers and lost connections: every key applied once, in order, and the server\'s board shown', () => {
  const configs = [
    { mode: 'classic', size: 4, target: 2048 },
    { mode: 'classic', size: 3, target: 2048 },  // small: games end, so keys meet game_over
    { mode: 'fixed-obstacle', size: 4, target: 2048 },
    { mode: 'moving-obstacle', size: 4, target: 2048 },  // an obstacle's end comes from the server
    { mode: 'fifteen', size: 3, target: 0 },
  ];
  for (const config of configs) {
    for (let seed = 1; seed <= 80; ++seed) {
      assertSettled(scenario({ ...config, seed: BigInt(seed * 7919) }, seed), `${config.mode} ${config.size} seed ${seed}`);
    }
  }
});

test('a stall: many keys in flight at once, answered late, still each applied once and in order', () => {
  for (const config of [{ mode: 'classic', size: 4, target: 2048 }, { mode: 'classic', size: 3, target: 2048 }]) {
    for (let seed = 1; seed <= 80; ++seed) {
      assertSettled(scenario({ ...config, seed: BigInt(seed) }, seed, { stall: true, undo: false }),
        `${config.size} seed ${seed}`);
    }
  }
});

test('without lost connections every undo and key is also applied once', () => {
  for (let seed = 1; seed <= 80; ++seed) {
    assertSettled(scenario({ mode: 'classic', size: 4, target: 2048, seed: BigInt(seed) }, seed, { drops: false, steps: 200 }),
      `seed ${seed}`);
  }
});

const G = (board, extra = {}) => ({ id: 'g1', mode: 'classic', size: board.length, target: 2048, board, score: 0,
  moves: 0, max_tile: Math.max(...board.flat()), state: 'playing', won: false, ...extra });
const moved = (rid, board, extra = {}) => ({ type: 'moved', game: 'g1', rid, changed: true, board, score: 0, moves: 1,
  max_tile: Math.max(...board.flat()), state: 'playing', won: false, ...extra });

function open(game, opts) {
  const sent = [];
  const p = new Predictor((msg) => sent.push(msg), opts);
  p.follow(game);
  p.setOpen(true);
  return { p, sent };
}

test('a key slides and merges at once; the spawn appears with the answer', () => {
  const { p, sent } = open(G([[2, 2, 0], [0, 0, 0], [0, 0, 4]]));
  const change = p.press({ dir: 'left' });
  assert.equal(change.kind, 'slide');
  assert.deepEqual(change.message.board, [[4, 0, 0], [0, 0, 0], [4, 0, 0]]);
  assert.equal(change.message.gained, 4);
  assert.deepEqual(change.message.motions.find((m) => m.merged), { from: [0, 1], to: [0, 0], value: 2, merged: true });
  assert.equal(p.shown.score, 4);
  assert.deepEqual(sent, [{ type: 'move', dir: 'left', rid: 'k1', at_move: 0 }]);
  const answer = p.observe(moved('k1', [[4, 0, 0], [0, 0, 2], [4, 0, 0]], { score: 4 }), 'me');
  assert.equal(answer.kind, 'appear');
  assert.deepEqual(answer.message.spawned, [{ at: [1, 2], value: 2 }]);
});

test('keys in flight are predicted on top of each other and sent with consecutive at_move', () => {
  const { p, sent } = open(G([[2, 0, 0], [0, 0, 0], [0, 0, 0]]));
  p.press({ dir: 'right' });
  p.press({ dir: 'down' });
  p.press({ dir: 'left' });
  assert.deepEqual(p.shown.board, [[0, 0, 0], [0, 0, 0], [2, 0, 0]]);
  assert.deepEqual(sent.map((m) => [m.dir, m.at_move]), [['right', 0], ['down', 1], ['left', 2]]);
});

test('a spawn where the next predicted move slides: the server\'s board, with the key still pending on it', () => {
  const { p } = open(G([[0, 0, 2], [0, 0, 0], [0, 0, 0]]));
  p.press({ dir: 'left' });   // 2 to the left
  p.press({ dir: 'down' });   // predicted: 2 down the first column
  assert.deepEqual(p.shown.board, [[0, 0, 0], [0, 0, 0], [2, 0, 0]]);
  // The spawn lands under the 2: the predicted down now merges them.
  const change = p.observe(moved('k1', [[2, 0, 0], [2, 0, 0], [0, 0, 0]]), 'me');
  assert.deepEqual(p.shown.board, [[0, 0, 0], [0, 0, 0], [4, 0, 0]]);
  assert.equal(p.shown.score, 4);
  assert.equal(change.kind, 'snap');  // not a tile added: drawn at once, no second slide
});

test('stale: the key goes again, in order, on the server\'s board', () => {
  const { p, sent } = open(G([[0, 0, 2], [0, 0, 0], [0, 0, 0]]));
  p.press({ dir: 'left' });
  p.press({ dir: 'down' });
  p.press({ dir: 'right' });
  // The server found the game one move behind what the client believed for the second
  // (as after a spawn that blocked a slide): it and the third are stale.
  p.observe(moved('k1', [[2, 0, 0], [0, 0, 0], [0, 2, 0]]), 'me');
  p.observe({ type: 'error', code: 'stale', rid: 'k2' }, 'me');
  const snap = G([[2, 0, 0], [0, 0, 0], [0, 2, 0]], { moves: 1 });
  p.observe({ type: 'game', game: snap, rid: 'k2' }, 'me');
  assert.deepEqual(sent.at(-1), { type: 'move', dir: 'down', rid: 'k2', at_move: 1 });
  p.observe({ type: 'error', code: 'stale', rid: 'k3' }, 'me');
  assert.deepEqual(sent.at(-1), { type: 'move', dir: 'right', rid: 'k3', at_move: 2 });
  assert.equal(p.entries.length, 2);
});

test('a refused move is shown no more', () => {
  const { p } = open(G([[0, 0, 2], [0, 0, 0], [0, 0, 0]]));
  p.press({ dir: 'left' });
  assert.deepEqual(p.shown.board[0], [2, 0, 0]);
  const change = p.observe({ type: 'error', code: 'rate_limited', rid: 'k1' }, 'me');
  assert.deepEqual(p.shown.board[0], [0, 0, 2]);
  assert.equal(change.kind, 'snap');
  assert.equal(p.entries.length, 0);
});

test('game over reached by a predicted move: the answer ends it, later keys are refused and dropped', () => {
  const { p } = open(G([[2, 4, 8], [4, 8, 2], [8, 2, 0]]));
  p.press({ dir: 'right' });  // the last gap moves; the spawn fills the board
  p.press({ dir: 'up' });
  assert.equal(p.shown.state, 'playing');  // the spawn is not known yet
  p.observe(moved('k1', [[2, 4, 8], [4, 8, 2], [2, 8, 2]], { state: 'over' }), 'me');
  assert.equal(p.shown.state, 'over');
  p.observe({ type: 'error', code: 'game_over', rid: 'k2' }, 'me');
  assert.equal(p.entries.length, 0);
  assert.equal(p.press({ dir: 'left' }), null);  // a game that is over takes no keys
});

test('a key that does nothing on the server\'s board is not sent; on a predicted board it waits for the spawn', () => {
  const { p, sent } = open(G([[2, 0, 0], [0, 0, 0], [0, 0, 0]]));
  assert.equal(p.press({ dir: 'left' }), null);
  assert.equal(sent.length, 0);
  p.press({ dir: 'right' });
  p.press({ dir: 'right' });  // nothing moves on the predicted board, but the spawn may
  p.press({ dir: 'down' });
  assert.deepEqual(sent.map((m) => m.dir), ['right']);
  p.observe(moved('k2', [[2, 0, 2], [0, 0, 0], [0, 0, 0]]), 'me');  // the spawn: right merges now (k1 was the no-op)
  assert.deepEqual(sent.map((m) => [m.dir, m.at_move]), [['right', 0], ['right', 1], ['down', 2]]);
  assert.deepEqual(p.shown.board, [[0, 0, 0], [0, 0, 0], [0, 0, 4]]);
});

test('undo: the board before the last move at once; keys after it wait for its answer', () => {
  const { p, sent } = open(G([[2, 0, 0], [0, 0, 0], [0, 0, 0]]));
  p.press({ dir: 'right' });
  p.observe(moved('k1', [[0, 0, 2], [2, 0, 0], [0, 0, 0]]), 'me');
  const change = p.press({ undo: true });
  assert.equal(change.kind, 'snap');
  assert.deepEqual(p.shown.board, [[2, 0, 0], [0, 0, 0], [0, 0, 0]]);
  p.press({ dir: 'down' });
  assert.deepEqual(p.shown.board, [[0, 0, 0], [0, 0, 0], [2, 0, 0]]);
  assert.deepEqual(sent.slice(1), [{ type: 'undo', rid: 'k2' }]);
  p.observe({ type: 'game', rid: 'k2', game: G([[2, 0, 0], [0, 0, 0], [0, 0, 0]], { undos: 1 }) }, 'me');
  assert.deepEqual(sent.at(-1), { type: 'move', dir: 'down', rid: 'k3', at_move: 0 });
});

test('an undo pressed while a move is in flight goes once that move is answered', () => {
  const { p, sent } = open(G([[2, 0, 0], [0, 0, 0], [0, 0, 0]]));
  p.press({ dir: 'right' });
  p.press({ undo: true });
  assert.deepEqual(p.shown.board, [[2, 0, 0], [0, 0, 0], [0, 0, 0]]);  // the move, undone
  assert.equal(sent.length, 1);
  p.observe(moved('k1', [[0, 0, 2], [2, 0, 0], [0, 0, 0]]), 'me');
  assert.deepEqual(sent.at(-1), { type: 'undo', rid: 'k2' });
});

test('Fifteen is predicted exactly: a tap slides several tiles, and answers change nothing shown', () => {
  const game = { id: 'g1', mode: 'fifteen', size: 3, target: 0, board: [[1, 2, 3], [4, 5, 6], [0, 7, 8]], score: 0,
    moves: 0, max_tile: 0, state: 'playing', won: false };
  const { p, sent } = open(game);
  const change = p.press({ cell: [2, 2] });
  assert.deepEqual(change.message.board, [[1, 2, 3], [4, 5, 6], [7, 8, 0]]);
  assert.equal(p.shown.state, 'solved');
  assert.equal(p.shown.moves, 2);
  assert.deepEqual(sent, [{ type: 'slide', cell: [2, 2], rid: 'k1', at_move: 0 }]);
  assert.equal(p.press({ dir: 'left' }), null);  // solved: no more moves
  const answer = p.observe({ type: 'moved', game: 'g1', rid: 'k1', changed: true, board: [[1, 2, 3], [4, 5, 6], [7, 8, 0]],
    score: 2, moves: 2, max_tile: 0, state: 'solved', won: true }, 'me');
  assert.equal(answer, null);
  assert.equal(predictMove({ ...game }, { dir: 'up' }).changed, false);  // nothing below the blank
});

test('keys pressed while the connection is down are sent once welcomed; those in doubt after the resume\'s snapshot', () => {
  const { p, sent } = open(G([[2, 0, 0], [0, 0, 0], [0, 0, 0]]));
  p.press({ dir: 'right' });
  p.press({ dir: 'down' });
  p.setOpen(false);           // both unanswered: the server may have applied the first
  p.press({ dir: 'left' });
  p.setOpen(true);
  assert.equal(sent.length, 2);  // nothing until the snapshot says where the game is
  p.observe({ type: 'game', game: G([[0, 0, 2], [0, 2, 0], [0, 0, 0]], { moves: 1 }) }, 'me');
  // The first was applied (its at_move 0 is below 1): the second and third go again.
  assert.deepEqual(sent.slice(2).map((m) => [m.dir, m.at_move]), [['down', 1], ['left', 2]]);
});

test('without prediction every key is sent as it comes and nothing is drawn before the answer', () => {
  const { p, sent } = open(G([[2, 0, 0], [0, 0, 0], [0, 0, 0]]), { enabled: false });
  assert.equal(p.press({ dir: 'left' }), null);
  assert.deepEqual(sent, [{ type: 'move', dir: 'left' }]);
  assert.equal(p.observe(moved(undefined, [[2, 0, 0], [0, 0, 0], [0, 0, 2]]), 'me'), null);
});
