import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartLayout, chosenVariants, variantRating } from '../../web-client/js/profile_view.js';

const pad = { left: 10, right: 10, top: 10, bottom: 10 };

test('the rating chart spans the plot area, higher ratings higher up, with its axes\' ticks', () => {
  const ratings = [{ at: 1, rating: 1500 }, { at: 2, rating: 1516 }, { at: 3, rating: 1490 }];
  const { points, yTicks, xTicks } = chartLayout(ratings, 300, 100, pad);
  assert.deepEqual(points.map((p) => p.x), [10, 150, 290]);
  assert.equal(points[1].y, 10);   // the highest at the top of the plot
  assert.equal(points[2].y, 90);   // the lowest at the bottom
  assert.ok(points[0].y > 10 && points[0].y < 90);
  assert.deepEqual(yTicks.map((t) => [t.value, t.y]), [[1490, 90], [1503, 50], [1516, 10]]);
  assert.deepEqual(xTicks, [{ at: 1, x: 10 }, { at: 3, x: 290 }]);  // the first and last dates
});

test('one rating, or equal ones, draw level in the middle; none draws nothing', () => {
  const one = chartLayout([{ at: 5, rating: 1500 }], 300, 100, pad);
  assert.deepEqual(one.points, [{ x: 150, y: 50, rating: 1500, at: 5 }]);
  assert.deepEqual(one.yTicks, [{ value: 1500, y: 50 }]);
  assert.deepEqual(one.xTicks, [{ at: 5, x: 150 }]);
  assert.deepEqual(chartLayout([{ rating: 1500 }, { rating: 1500 }], 300, 100, pad).points.map((p) => p.y), [50, 50]);
  assert.deepEqual(chartLayout([], 300, 100, pad), { points: [], yTicks: [], xTicks: [] });
});

test('the chooser offers the profile\'s own variant and every one raced in; each draws its own', () => {
  const v = (variant, races, rating) => ({ variant, rating, rd: 200, provisional: true, races, history: [{ at: 5, rating }] });
  const p = { rating: 1662, provisional: true, variant: 'classic-4', rating_history: [{ at: 5, rating: 1662 }],
    ratings: [v('classic-4', 1, 1662), v('classic-3', 1, 1338), v('classic-5', 0, 1500), v('fifteen', 2, 1700)] };
  assert.deepEqual(chosenVariants(p), ['classic-4', 'classic-3', 'fifteen']);
  assert.equal(variantRating(p, 'classic-3').rating, 1338);
  // A server of before variants: the profile's own rating, as classic 4×4.
  const old = { rating: 1516, rating_history: [{ at: 5, rating: 1516 }] };
  assert.deepEqual(chosenVariants(old), ['classic-4']);
  assert.deepEqual(variantRating(old, 'classic-4').history, old.rating_history);
});
