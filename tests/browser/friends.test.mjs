// Friends in the browser: two players become friends, one challenges with the lobby's
// settings, the other accepts from the toast; they race and rematch in the same room; a third
// player, the second one's friend, follows them from the friends panel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, movingKey } from './harness.mjs';

const env = serveAndBrowse();

// page adds name as a friend; other accepts from the requests list.
async function befriend(page, other, name, otherName) {
  await page.fill('#friend-name', otherName);
  await page.click('#friend-form button');
  await other.locator('#friend-requests li', { hasText: `${name} wants to be your friend` }).waitFor();
  await other.click(`#friend-requests button[aria-label="Accept ${name}"]`);
  await page.locator('#friends li', { hasText: otherName }).waitFor();
  await other.locator('#friends li', { hasText: name }).waitFor();
}

// Plays page's race game until it is over (a 3×3 board fills quickly). A key chosen on the
// board as predicted may find none to move once the server's tile lands (its last tile ends the
// game): each press waits for the move to count or for the board to have no move left.
async function playOut(page) {
  for (let i = 0; i < 2000; i++) {
    const moves = await page.textContent('#moves');
    const key = await movingKey(page);
    if (!key) return;
    await page.keyboard.press(key);
    await page.waitForFunction(async (before) => {
      if (document.getElementById('moves').textContent !== before) return true;
      const { slide } = await import('/js/engine.js');
      const board = JSON.parse(document.getElementById('board').dataset.board);
      return ['up', 'down', 'left', 'right'].every((d) => !slide(board.flat(), board.length, d, false).changed);
    }, moves);
  }
  assert.fail('the game did not end');
}

test('friends challenge, race and rematch; a friend follows them', async () => {
  const contexts = [await env.browser.newContext(), await env.browser.newContext(), await env.browser.newContext()];
  const ann = await enter(contexts[0], env.server.url, 'ann-f');
  const bob = await enter(contexts[1], env.server.url, 'bob-f');
  const cal = await enter(contexts[2], env.server.url, 'cal-f');
  await befriend(ann, bob, 'ann-f', 'bob-f');
  await befriend(cal, bob, 'cal-f', 'bob-f');
  await ann.locator('#friends li', { hasText: 'bob-f online' }).waitFor();

  // ann challenges bob to a 3×3 race; bob accepts from the toast.
  await ann.selectOption('#size', '3');
  await ann.click('#friends button[aria-label="Challenge bob-f"]');
  await ann.locator('#notice', { hasText: 'Challenge sent to bob-f' }).waitFor();
  const toast = bob.locator('.toast', { hasText: 'ann-f challenges you: classic 3×3 to 2048' });
  await toast.waitFor();
  assert.match(await bob.textContent('#notice'), /ann-f challenges you/);
  assert.equal(await bob.getAttribute('#notice', 'role'), 'status');  // read out
  await bob.click('button[aria-label="Accept the challenge from ann-f"]');
  await toast.waitFor({ state: 'detached' });
  for (const page of [ann, bob]) await page.locator('#room-players li').nth(1).waitFor();
  const code = (await ann.textContent('#room-code')).trim();
  assert.equal((await bob.textContent('#room-code')).trim(), code);
  await ann.click('#ready');
  await bob.click('#ready');
  for (const page of [ann, bob]) await page.locator('.opponent .board .tile').first().waitFor();

  // cal sees bob racing ann and follows him.
  const entry = cal.locator('#friends li', { hasText: `bob-f racing ann-f in ${code}` });
  await entry.waitFor();
  await cal.click('#friends button[aria-label="Watch bob-f"]');
  await cal.locator('.opponent').nth(1).waitFor();
  assert.equal((await cal.textContent('#room-code')).trim(), code);

  // They play out; ann asks for a rematch, bob is told and agrees: a new race, same room.
  await Promise.all([playOut(ann), playOut(bob)]);
  for (const page of [ann, bob]) await page.locator('#rematch:not([hidden])').waitFor();
  await ann.click('#rematch');
  await bob.locator('#notice', { hasText: 'ann-f wants a rematch' }).waitFor();
  await bob.click('#rematch');
  for (const page of [ann, bob]) {
    await page.locator('#results').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.getElementById('moves').textContent === '0');
    assert.equal((await page.textContent('#room-code')).trim(), code);
  }
  await cal.waitForFunction(() => document.querySelectorAll('.opponent').length === 2);
  for (const c of contexts) await c.close();
});
