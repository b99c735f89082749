import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ghostMargins } from '../../web-client/js/race_view.js';

test('a ghost race says by how much each racer beat or trailed the run', () => {
  const over = {
    standings: [{ player: 'p1', name: 'ann' }, { player: 'p2', name: 'bob' }, { player: 'ghost-g', name: 'olga (ghost)' }],
    ghost: { game: 'g', player: 'o', name: 'olga', score: 1200, margins: { p1: 340, p2: -16 } },
  };
  assert.equal(ghostMargins(over),
    "ann beat olga's run (1200 points) by 340 points. bob trailed olga's run (1200 points) by 16 points.");
  over.ghost.margins = { p1: 0 };
  assert.equal(ghostMargins(over), "ann tied olga's run (1200 points).");
});
