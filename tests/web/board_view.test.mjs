import { test } from 'node:test';
import './english.mjs';
import assert from 'node:assert/strict';
import { describeRow } from '../../web-client/js/board_view.js';

test('a row reads as its numbers, with empty cells, obstacles and Fifteen\'s blank named', () => {
  assert.equal(describeRow([2, 0, 4, 2048], 0, 'classic'), 'Row 1: 2, empty, 4, 2048');
  assert.equal(describeRow([0, -1, 8], 2, 'fixed-obstacle'), 'Row 3: empty, obstacle, 8');
  assert.equal(describeRow([7, 0, 8], 1, 'fifteen'), 'Row 2: 7, blank, 8');
});
