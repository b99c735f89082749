import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartPoints } from '../../web-client/js/profile_view.js';

const pts = (s) => s.split(' ').map((p) => p.split(',').map(Number));

test('the rating chart spans the box, higher ratings higher up', () => {
  const p = pts(chartPoints([{ rating: 1500 }, { rating: 1516 }, { rating: 1490 }], 300, 100));
  assert.deepEqual(p.map(([x]) => x), [10, 150, 290]);
  assert.equal(p[1][1], 10);   // the highest at the top margin
  assert.equal(p[2][1], 90);   // the lowest at the bottom margin
  assert.ok(p[0][1] > 10 && p[0][1] < 90);
});

test('one rating, or equal ones, draw level in the middle; none draws nothing', () => {
  assert.equal(chartPoints([{ rating: 1500 }], 300, 100), '150,50');
  assert.deepEqual(pts(chartPoints([{ rating: 1500 }, { rating: 1500 }], 300, 100)).map(([, y]) => y), [50, 50]);
  assert.equal(chartPoints([], 300, 100), '');
});
