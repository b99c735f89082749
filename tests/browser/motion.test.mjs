// Tiles slide as in the original game, and not at all for players who asked for less motion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, boardOf, drawnBoard, settled, movingKey, answered } from './harness.mjs';

const env = serveAndBrowse();

// Arms the page to catch the next tile slide on #board: the slide is paused at half its
// duration and the tile's offset measured then, in cells of the board. Fails after 5 s
// without a slide.
async function catchMidSlide(page) {
  await page.evaluate(() => {
    window.midSlide = new Promise((resolve, reject) => {
      setTimeout(() => reject(new Error('no tile slid within 5 s')), 5000);
      const board = document.getElementById('board');
      board.addEventListener('transitionrun', function caught(event) {
        if (event.propertyName !== 'transform' || !event.target.classList.contains('tile')) return;
        board.removeEventListener('transitionrun', caught);
        const tile = event.target;
        const [slide] = tile.getAnimations();
        slide.pause();
        slide.currentTime = slide.effect.getTiming().duration / 2;
        const cells = board.querySelectorAll('.cell');
        const pitch = cells[1].getBoundingClientRect().left - cells[0].getBoundingClientRect().left;
        const origin = board.querySelector('.tiles').getBoundingClientRect();
        const at = tile.getBoundingClientRect();
        resolve({
          from: [Number(tile.dataset.row), Number(tile.dataset.col)],
          to: JSON.parse(tile.dataset.to),
          at: [(at.top - origin.top) / pitch, (at.left - origin.left) / pitch],
          duration: slide.effect.getTiming().duration,
        });
        slide.play();
      });
    });
  });
}

test('half-way through a slide a moved tile is strictly between its old and new cells', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'slider');
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  await settled(page);
  await catchMidSlide(page);
  const key = await movingKey(page);
  await page.keyboard.press(key);
  const mid = await page.evaluate(() => window.midSlide);
  assert.equal(mid.duration, 100);
  const axis = mid.from[0] === mid.to[0] ? 1 : 0;  // the row stays: it slid along the row
  assert.notEqual(mid.from[axis], mid.to[axis]);
  assert.equal(mid.at[1 - axis].toFixed(3), mid.from[1 - axis].toFixed(3));
  const [lo, hi] = [mid.from[axis], mid.to[axis]].sort((a, b) => a - b);
  assert.ok(mid.at[axis] > lo + 0.05 && mid.at[axis] < hi - 0.05, `tile at ${mid.at[axis]} between ${lo} and ${hi}`);
  await settled(page);
  assert.deepEqual(await drawnBoard(page), await boardOf(page));
  await context.close();
});

test('with prefers-reduced-motion the board changes at once: nothing slides, pops or appears', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await enter(context, env.server.url, 'still');
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  await settled(page);
  await page.evaluate(() => {
    window.animated = [];
    const board = document.getElementById('board');
    for (const kind of ['transitionrun', 'animationstart']) {
      board.addEventListener(kind, (e) => window.animated.push(`${kind} ${e.target.className}`));
    }
  });
  for (let i = 0; i < 3; ++i) {
    const moves = await page.textContent('#moves');
    await page.keyboard.press(await movingKey(page));
    await page.locator('#moves').filter({ hasText: new RegExp(`^${Number(moves) + 1}$`) }).waitFor();
    await answered(page);
    // Drawn as the server sent it, with no tile between cells, as soon as the move is shown.
    assert.deepEqual(await drawnBoard(page), await boardOf(page));
    assert.equal(await page.locator('#board .tile[data-to]').count(), 0);
  }
  // Two frames later still nothing has started (events of a slide would have been sent by then).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.deepEqual(await page.evaluate(() => window.animated), []);
  assert.equal(await page.evaluate(() => document.getElementById('board').getAnimations({ subtree: true }).length), 0);
  await context.close();
});
