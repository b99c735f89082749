import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planAnimation } from '../../web-client/js/animation.js';

test('the example of PROTOCOL.md: two tiles slide and merge, a tile appears', () => {
  const before = [[0, 2, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
  const after = [[4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 2, 0, 0]];
  const motions = [{ from: [0, 1], to: [0, 0], value: 2, merged: false }, { from: [0, 2], to: [0, 0], value: 2, merged: true }];
  const plan = planAnimation(before, after, motions, [{ at: [3, 1], value: 2 }]);
  assert.deepEqual(plan.sliding, [{ value: 2, from: [0, 1], to: [0, 0] }, { value: 2, from: [0, 2], to: [0, 0] }]);
  assert.deepEqual(plan.settled, [{ value: 4, at: [0, 0], effect: 'merged' }, { value: 2, at: [3, 1], effect: 'new' }]);
});

test('a tile that stays put slides nowhere and still shows; one merged into in place pops', () => {
  const before = [[2, 2, 8], [0, 0, 0], [0, 0, 0]];
  const after = [[4, 8, 0], [0, 0, 0], [0, 0, 2]];
  const motions = [{ from: [0, 1], to: [0, 0], value: 2, merged: true }, { from: [0, 2], to: [0, 1], value: 8, merged: false }];
  const plan = planAnimation(before, after, motions, [{ at: [2, 2], value: 2 }]);
  assert.deepEqual(plan.sliding.at(-1), { value: 2, from: [0, 0], to: [0, 0] });
  assert.equal(plan.sliding.length, 3);
  assert.deepEqual(plan.settled.map((t) => t.effect), ['merged', null, 'new']);
});

test('every tile of the new board is settled exactly once, obstacles included', () => {
  const after = [[-1, 4, 0], [0, 2, 0], [0, 0, 8]];
  const plan = planAnimation(after, after, [], []);
  assert.equal(plan.settled.length, 4);
  assert.ok(plan.settled.some((t) => t.value === -1));
});
