// The daily challenge in the browser: today's 4×4 played to the end from the lobby's card,
// the result's share text, and the player's rank on today's board back in the lobby.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, pressMovingKey } from './harness.mjs';

const env = serveAndBrowse();

test('play today\'s daily to the end, share it, and see the rank in the lobby', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'dana-d');
  await page.locator('#daily-mine', { hasText: 'Your first game today counts' }).waitFor();
  await page.click('#daily-4');
  await page.locator('#board .tile').first().waitFor();
  await page.locator('#undo').waitFor();
  for (let i = 0; i < 3000 && await pressMovingKey(page); i++);
  await page.locator('#overlay-text', { hasText: 'Game over' }).waitFor();
  assert.equal(await page.locator('#try-again').isHidden(), true, 'one attempt counts');
  const moves = (await page.textContent('#moves')).trim();
  await page.click('#share');
  const notice = page.locator('#notice', { hasText: 'tilerace daily' });
  await notice.waitFor();
  const text = await notice.textContent();
  assert.match(text, new RegExp(`classic 4×4[\\s\\S]*${moves} moves`));
  assert.equal((text.match(/[⬜🟨🟧🟥🟪]/gu) ?? []).length, 16, 'a 4×4 grid of squares');
  await page.click('#back');
  await page.locator('#daily-mine', { hasText: `#1 with` }).waitFor();
  await page.locator('#daily-top li', { hasText: 'dana-d' }).waitFor();
  await context.close();
});
