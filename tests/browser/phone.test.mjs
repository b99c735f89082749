// A phone: 375×667 with touch. The board fills the width, swipes move, nothing scrolls
// sideways, and a race's opponent boards fit below the player's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, boardOf, drawnBoard, settled, movingKey, race, screenshot } from './harness.mjs';

const PHONE = { viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

const env = serveAndBrowse();

// How far the page can scroll sideways (0 when it cannot).
async function sidewaysScroll(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

// Swipes across the middle of selector by (dx, dy) with real touch events.
async function swipe(page, cdp, selector, dx, dy) {
  const box = await page.locator(selector).boundingBox();
  const x = box.x + box.width / 2, y = box.y + box.height / 2;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + dx / 2, y: y + dy / 2 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + dx, y: y + dy }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

// The direction that changes the board shown, by the client's own engine port.
async function movingSwipe(page) {
  return page.evaluate(async () => {
    const { slide } = await import('/js/engine.js');
    const board = JSON.parse(document.getElementById('board').dataset.board);
    const dir = ['left', 'up', 'right', 'down'].find((d) => slide(board.flat(), board.length, d, false).changed);
    return { left: [-80, 0], up: [0, -80], right: [80, 0], down: [0, 80] }[dir];
  });
}

test('on a phone a swipe moves, the board fills the width and nothing scrolls sideways', async () => {
  const context = await env.browser.newContext(PHONE);
  const page = await enter(context, env.server.url, 'thumb');
  assert.equal(await sidewaysScroll(page), 0, 'lobby');
  await page.selectOption('#size', '4');
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  await settled(page);
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.width >= 0.9 * 375 && box.x >= 0 && box.x + box.width <= 375, `board ${box.x}+${box.width}`);
  const cdp = await context.newCDPSession(page);
  const [dx, dy] = await movingSwipe(page);
  await swipe(page, cdp, '#board', dx, dy);
  await page.locator('#moves').filter({ hasText: /^1$/ }).waitFor();
  await settled(page);
  assert.deepEqual(await drawnBoard(page), await boardOf(page));
  assert.equal(await sidewaysScroll(page), 0, 'solo game');
  // The largest board still fits.
  await page.click('#back');
  await page.selectOption('#size', '8');
  await page.click('#new-game');
  await page.locator('#board[style*="--size: 8"] .tile').first().waitFor();
  assert.equal(await sidewaysScroll(page), 0, '8×8');
  await context.close();
});

test('a race on a phone shows the opponent\'s board below the player\'s own', async () => {
  const phone = await env.browser.newContext(PHONE);
  const desk = await env.browser.newContext();
  const host = await enter(phone, env.server.url, 'pocket');
  const guest = await enter(desk, env.server.url, 'desk');
  await race(host, guest);
  await settled(host);
  const own = await host.locator('#board').boundingBox();
  const theirs = await host.locator('.opponent .board').boundingBox();
  assert.ok(own.width >= 0.9 * 375, `own board ${own.width} wide`);
  assert.ok(theirs.y >= own.y + own.height, 'below the own board');
  assert.ok(theirs.x >= 0 && theirs.x + theirs.width <= 375, 'within the width');
  assert.equal(await sidewaysScroll(host), 0);
  assert.equal(await host.locator('#ready').isHidden(), true);  // no Ready toggle mid-race
  // The opponent's board is live on the phone too.
  const before = await host.locator('.opponent .board').getAttribute('data-board');
  await guest.keyboard.press(await movingKey(guest));
  await guest.locator('#moves').filter({ hasText: /^1$/ }).waitFor();
  await host.waitForFunction((was) => document.querySelector('.opponent .board').dataset.board !== was, before);
  await screenshot(host, 'phone-race', { fullPage: true });
  for (const c of [phone, desk]) await c.close();
});
