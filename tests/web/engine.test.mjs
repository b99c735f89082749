import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SplitMix64, newGame, rows, slide, replayFrames } from '../../web-client/js/engine.js';

test('SplitMix64 matches the reference values of PROTOCOL.md', () => {
  const zero = new SplitMix64(0n), fortyTwo = new SplitMix64(42n);
  assert.deepEqual([zero.next(), zero.next(), zero.next()], [0xe220a8397b1dcdafn, 0x6e789e6aa1b965f4n, 0x06c45d188009454fn]);
  assert.deepEqual([fortyTwo.next(), fortyTwo.next(), fortyTwo.next()], [0xbdd732262feb6e95n, 0x28efe333b266f103n, 0x47526757130f9f52n]);
});

test('the worked rows slide as the contract says', () => {
  const cases = [[[0, 2, 2, 0], [4, 0, 0, 0]], [[8, 2, 2, 0], [8, 4, 0, 0]], [[4, 0, 2, 2], [4, 4, 0, 0]],
    [[2, 2, 2, 2], [4, 4, 0, 0]], [[2, 2, 2, 0], [4, 2, 0, 0]], [[4, 4, 8, 0], [8, 8, 0, 0]]];
  for (const [row, want] of cases) {
    const cells = [...row, ...new Array(12).fill(0)];
    slide(cells, 4, 'left', false);
    assert.deepEqual(cells.slice(0, 4), want, row.join(' '));
  }
});

test('a new classic game follows the spawn rule: cell, then value', () => {
  const game = newGame({ mode: 'classic', size: 4, target: 2048, seed: 42n });
  const rng = new SplitMix64(42n), expected = new Array(16).fill(0);
  for (let spawn = 0; spawn < 2; ++spawn) {
    const empty = expected.map((v, i) => (v === 0 ? i : -1)).filter((i) => i >= 0);
    const cell = empty[rng.below(empty.length)];
    expected[cell] = rng.below(10) === 0 ? 4 : 2;
  }
  assert.deepEqual(game.cells, expected);
});

test('a replay string rebuilds the game, undo included, and rejects impossible steps', () => {
  const game = newGame({ mode: 'classic', size: 4, target: 2048, seed: 7n });
  const letters = [];
  for (const [dir, letter] of [['left', 'L'], ['up', 'U'], ['right', 'R'], ['down', 'D'], ['left', 'L']]) {
    if (game.move(dir)) letters.push(letter);
  }
  game.undo(); letters.push('Z');
  const { frames, final } = replayFrames({ mode: 'classic', size: 4, target: 2048, seed: '7', moves: letters.join('') });
  assert.deepEqual(frames.at(-1).board, rows(game));
  assert.equal(final.score, game.score);
  assert.throws(() => replayFrames({ mode: 'classic', size: 4, target: 2048, seed: '7', moves: 'Z' }));
});

test('fifteen shuffles are solvable and not solved', () => {
  for (let seed = 0n; seed < 200n; ++seed) {
    const g = newGame({ mode: 'fifteen', size: 4, seed });
    let inversions = 0;
    const tiles = g.cells.filter((v) => v);
    for (let i = 0; i < tiles.length; ++i) for (let j = i + 1; j < tiles.length; ++j) if (tiles[i] > tiles[j]) ++inversions;
    assert.equal(inversions % 2, 0);
    assert.equal(g.cells.at(-1), 0);
    assert.ok(g.home() < 15);
  }
});
