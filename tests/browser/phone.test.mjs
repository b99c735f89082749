// Phones: 375×667 and 390×844 with touch. The board fills the width, swipes move, nothing
// scrolls sideways; in a race and in solo play my board, clock and score are on the first
// screen, the room's controls and the emotes folded into menus, the opponents below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, boardOf, drawnBoard, settled, movingKey, race, screenshot } from './harness.mjs';

const PHONE = { viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const PHONES = { '375×667': PHONE, '390×844': { ...PHONE, viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 } };

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

// What of selector lies outside the first screen (the page unscrolled): '' when it is all in sight.
async function outOfSight(page, selector) {
  return page.evaluate((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    if (window.scrollY !== 0) return `scrolled by ${window.scrollY}`;
    if (r.width === 0) return 'not drawn';
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth ? ''
      : `at [${Math.round(r.left)}, ${Math.round(r.top)}]–[${Math.round(r.right)}, ${Math.round(r.bottom)}] in ${innerWidth}×${innerHeight}`;
  }, selector);
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

for (const [name, options] of Object.entries(PHONES)) {
  test(`on a ${name} phone a solo game's board and score are on the first screen, and a swipe moves it`, async (t) => {
    const context = await env.browser.newContext(options);
    t.after(() => context.close());
    const page = await enter(context, env.server.url, `solo${options.viewport.width}`);
    await page.click('#new-game');
    await page.locator('#board .tile').first().waitFor();
    await settled(page);
    for (const sel of ['#board', '#score', '#moves']) assert.equal(await outOfSight(page, sel), '', sel);
    const cdp = await context.newCDPSession(page);
    const [dx, dy] = await movingSwipe(page);
    await swipe(page, cdp, '#board', dx, dy);
    await page.locator('#moves').filter({ hasText: /^1$/ }).waitFor();
    assert.equal(await outOfSight(page, '#board'), '', 'the swipe did not scroll');
  });

  test(`on a ${name} phone a race starts with my board, clock and score on the first screen, the room's controls and emotes folded`, async (t) => {
    const phone = await env.browser.newContext(options);
    const desk = await env.browser.newContext();
    t.after(async () => { await phone.close(); await desk.close(); });
    const host = await enter(phone, env.server.url, `racer${options.viewport.width}`);
    const guest = await enter(desk, env.server.url, `rival${options.viewport.width}`);
    // Waiting: the seat list and the tagline say who is here and what the room is.
    await host.selectOption('#size', '4');
    await host.click('#create-room');
    await host.locator('#room-code').filter({ hasText: /^[A-Z2-9]{6}$/ }).waitFor();
    assert.equal(await host.locator('#room-players').isVisible(), true, 'the seats before the race');
    assert.equal(await host.locator('#tagline').isVisible(), true);
    // The room's controls: one menu, opened and closed by its button, closed by Escape.
    assert.equal(await host.locator('#copy-link').isHidden(), true, 'folded');
    await host.click('#room-menu-button');
    assert.equal(await host.getAttribute('#room-menu-button', 'aria-expanded'), 'true');
    for (const sel of ['#copy-link', '#leave']) assert.equal(await outOfSight(host, sel), '', sel);
    await host.keyboard.press('Escape');
    await host.locator('#copy-link').waitFor({ state: 'hidden' });
    const code = (await host.locator('#room-code').textContent()).trim();
    await guest.goto(`${env.server.url}/?room=${code}`);
    await host.locator('#room-players li').nth(1).waitFor();
    await host.click('#ready');
    await guest.click('#ready');
    await host.locator('#board .tile').first().waitFor();
    await host.locator('.opponent .board .tile').first().waitFor();
    await settled(host);
    // The race runs: the tagline and seat list step aside; board, clock and score in sight.
    await host.locator('#room-players').waitFor({ state: 'hidden' });
    assert.equal(await host.locator('#tagline').isHidden(), true);
    for (const sel of ['#board', '#clock', '#score']) assert.equal(await outOfSight(host, sel), '', sel);
    // The others' boards follow, as miniatures below mine.
    const own = await host.locator('#board').boundingBox();
    const theirs = await host.locator('.opponent .board').boundingBox();
    assert.ok(theirs.y >= own.y + own.height && theirs.width < 0.6 * own.width, 'a miniature below');
    assert.equal(await sidewaysScroll(host), 0);
    // The emotes: one button; a choice sends it and folds them again.
    assert.equal(await host.locator('#emotes').isHidden(), true, 'folded');
    await host.click('#emote-button');
    await host.locator('#emotes button').first().click();
    await host.locator('#emotes').waitFor({ state: 'hidden' });
    await guest.locator('.opponent .emote-bubble').waitFor();
    // A swipe on the board moves it, and nothing scrolled.
    const cdp = await phone.newCDPSession(host);
    const [dx, dy] = await movingSwipe(host);
    await swipe(host, cdp, '#board', dx, dy);
    await host.locator('#moves').filter({ hasText: /^1$/ }).waitFor();
    for (const sel of ['#board', '#clock', '#score']) assert.equal(await outOfSight(host, sel), '', `${sel} after a swipe`);
  });
}
