import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directionForKey, commandForKey, swipeDirection, moveFor } from '../../web-client/js/input.js';

const key = (k, mods = {}) => ({ key: k, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });

test('arrows, WASD and HJKL map to directions', () => {
  const table = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    w: 'up', a: 'left', s: 'down', d: 'right', W: 'up', k: 'up', j: 'down', h: 'left', l: 'right' };
  for (const [k, dir] of Object.entries(table)) assert.equal(directionForKey(key(k)), dir, k);
  assert.equal(directionForKey(key('x')), null);
  assert.equal(directionForKey(key('Enter')), null);
});

test('keys with a modifier are left alone', () => {
  for (const mod of ['altKey', 'ctrlKey', 'metaKey', 'shiftKey']) {
    assert.equal(directionForKey(key('ArrowLeft', { [mod]: true })), null, mod);
    assert.equal(commandForKey(key('r', { [mod]: true })), null, mod);
  }
});

test('R starts a new game, Z undoes', () => {
  assert.equal(commandForKey(key('r')), 'new');
  assert.equal(commandForKey(key('Z')), 'undo');
  assert.equal(commandForKey(key('q')), null);
});

test('a swipe needs at least 10 pixels and follows its larger axis', () => {
  assert.equal(swipeDirection(9, 0), null);
  assert.equal(swipeDirection(0, -9.9), null);
  assert.equal(swipeDirection(10, 0), 'right');
  assert.equal(swipeDirection(-30, 12), 'left');
  assert.equal(swipeDirection(5, 40), 'down');
  assert.equal(swipeDirection(-11, -12), 'up');
});

test('Fifteen: a key moves the blank, a swipe pushes a tile; 2048 moves tiles either way', () => {
  assert.equal(moveFor('up', 'key', 'fifteen'), 'down');  // the tile above the blank comes down
  assert.equal(moveFor('left', 'key', 'fifteen'), 'right');
  assert.equal(moveFor('up', 'swipe', 'fifteen'), 'up');
  for (const mode of ['classic', 'fixed-obstacle', 'moving-obstacle']) {
    assert.equal(moveFor('left', 'key', mode), 'left');
    assert.equal(moveFor('down', 'swipe', mode), 'down');
  }
});
