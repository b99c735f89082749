import { test } from 'node:test';
import './english.mjs';
import assert from 'node:assert/strict';
import { matchWindow, ratingText } from '../../web-client/js/rating_words.js';
import { matchingText } from '../../web-client/js/page_view.js';

test('a provisional rating shows "?"', () => {
  assert.equal(ratingText(1662, true), '1662?');
  assert.equal(ratingText(1662, false), '1662');
});

test('quick match\'s window widens by its step every interval, up to its cap', () => {
  const queued = { rating: 1640, window: 450, window_step: 50, window_every_ms: 5000, window_max: 600 };
  assert.equal(matchWindow(queued, 0), 450);
  assert.equal(matchWindow(queued, 4999), 450);
  assert.equal(matchWindow(queued, 5000), 500);
  assert.equal(matchWindow(queued, 60000), 600);
  assert.equal(matchingText({ ...queued, since: 1000 }, 11000), 'Looking for an opponent near 1640 (±550)…');
  assert.equal(matchingText(null, 0), 'Looking for an opponent…', 'a server that sends no rating');
});
