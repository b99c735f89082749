import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Practice } from '../../web-client/js/practice.js';
import { ClientStorage } from '../../web-client/js/storage.js';

function memory() {
  const items = new Map();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)), removeItem: (k) => items.delete(k) };
}

test('a practice game plays on the page\'s engine, unranked, and keeps its best per mode and size', () => {
  const storage = new ClientStorage(memory());
  const practice = new Practice(storage, () => 42n);
  const shown = practice.start({ mode: 'classic', size: 4, target: 2048 });
  assert.equal(shown.practice, true);
  assert.equal(shown.ranked, false);
  assert.equal(practice.best('classic', 4), null);
  let moved = 0;
  for (let i = 0; i < 200 && practice.shown().state === 'playing'; ++i) moved += practice.move(['left', 'down', 'right', 'up'][i % 4]) ? 1 : 0;
  assert.ok(moved > 0);
  assert.equal(practice.shown().moves, moved);
  assert.equal(practice.best('classic', 4), practice.shown().score, 'the best follows the score');
  assert.equal(practice.best('classic', 5), null, 'per size');
  const again = new Practice(storage, () => 42n);
  assert.equal(again.best('classic', 4), practice.shown().score, 'kept in the browser');
});

test('every solo mode practises; Fifteen slides by a tap and keeps its fewest moves only for a solve', () => {
  const practice = new Practice(new ClientStorage(memory()), () => 7n);
  for (const mode of ['classic', 'fixed-obstacle', 'moving-obstacle']) {
    practice.start({ mode, size: 5, target: 2048 });
    assert.ok(['left', 'right', 'up', 'down'].some((d) => practice.move(d)), mode);
  }
  practice.start({ mode: 'fifteen', size: 4 });
  const before = practice.shown().board.flat();
  assert.equal(practice.slide(0, 3), true, 'the tile above the blank (bottom right) column slides');
  assert.notDeepEqual(practice.shown().board.flat(), before);
  assert.equal(practice.slide(1, 1), false, 'not in the blank\'s row or column (now the top right)');
  assert.equal(practice.best('fifteen', 4), null, 'not solved');
  assert.equal(practice.undo(), true);
});
