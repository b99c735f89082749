// Racing the computer from the lobby: its board moves live beside the player's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, recordBoards, boardsSeen } from './harness.mjs';

const env = serveAndBrowse(['--bot-moves-per-second', '20']);

test('Race the computer: the bot joins, is ready, and its board moves live', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'human');
  await page.selectOption('#bot-strength', 'hard');
  // A target of 16 (below the lobby's choices) ends the race in a few of the computer's moves.
  await page.evaluate(() => { const t = document.getElementById('target'); t.add(new Option('16', '16')); t.value = '16'; });
  await page.click('#race-bot');
  await page.locator('#room-players li', { hasText: 'Computer (hard)' }).waitFor();
  assert.match(await page.locator('#room-players li', { hasText: 'Computer (hard)' }).getAttribute('class'), /ready/);
  // The computer's seat is a bot account's: marked BOT; the person's is not.
  assert.equal(await page.locator('#room-players li', { hasText: 'Computer (hard)' }).locator('.badge.bot').textContent(), 'BOT');
  assert.equal(await page.locator('#room-players li', { hasText: 'human' }).locator('.badge.bot').count(), 0);
  // Every board the computer's view shows is recorded as it is drawn: at 20 moves a second
  // the race to 16 may be over before a test could read its first board and wait for the next.
  await recordBoards(page, '.opponent[data-player="bot-hard"]');
  await page.click('#ready');
  const theirs = page.locator('.opponent[data-player="bot-hard"] .board');
  await theirs.locator('.tile').first().waitFor();
  assert.match(await page.textContent('.opponent[data-player="bot-hard"] h3'), /^Computer \(hard\)/);
  // The computer reaches the target (16: a few moves) first; the lobby shows the loss.
  await page.locator('#results-verdict', { hasText: 'You lose' }).waitFor();
  await page.waitForFunction(() => document.getElementById('bot-record').textContent === 'Your record: hard 0–1');
  // The computer moved by itself, live: its view showed more than one board on the way.
  assert.ok(await boardsSeen(page) >= 2);
  await context.close();
});
