// Ghost races in the browser: a finished game raced again from its replay ("Race this run"),
// the ghost's board drawn like an opponent's and marked, both boards moving, and a result that
// says by how much the run was beaten or trailed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, movingKey, recordBoards, boardsSeen, pressMovingKey } from './harness.mjs';

const env = serveAndBrowse();

test('race a finished run as a ghost: both boards move, the ghost marked, the margin told', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'gina-g');
  // The run: a solo game to 64 (below the lobby's choices: some dozens of moves, a few seconds
  // to play again), ended by a new game.
  await page.evaluate(() => { const t = document.getElementById('target'); t.add(new Option('64', '64')); t.value = '64'; });
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  const runFirst = await page.locator('#board').getAttribute('data-board');
  while (!(await page.locator('#overlay-text', { hasText: 'You win' }).isVisible())) {
    assert.ok(await pressMovingKey(page), 'the board filled up before 64');
  }
  const runScore = await page.textContent('#score');
  await page.click('#play-new-game');
  await page.click('#confirm-yes');
  await page.locator('#moves', { hasText: /^0$/ }).waitFor();

  // From the profile's best game to its replay, and from there to the race.
  await page.click('#back');
  await page.click('#me');
  const best = page.locator('#profile-bests li', { hasText: `${runScore} points` });
  await best.locator('button', { hasText: 'race this run' }).waitFor();
  await best.locator('button', { hasText: 'replay' }).click();
  await page.locator('#replay-title', { hasText: 'gina-g' }).waitFor();
  await page.click('#replay-race');
  await page.locator('#room-players li.ghost', { hasText: 'gina-g (ghost)' }).waitFor();

  // Every board the ghost's view draws is recorded as it is drawn (its run is quick).
  await recordBoards(page, '.opponent.ghost');
  await page.click('#ready');
  await page.locator('.opponent.ghost .board .tile').first().waitFor();
  // The race starts from the run's first board (its seed is the race's), then she moves.
  await page.waitForFunction((board) => document.getElementById('board').dataset.board === board, runFirst);
  await page.keyboard.press(await movingKey(page));
  await page.waitForFunction((was) => document.getElementById('board').dataset.board !== was, runFirst);

  // One move of hers cannot reach 64; the ghost's run does, and wins.
  await page.locator('#results h2', { hasText: 'gina-g (ghost) wins — target reached' }).waitFor();
  assert.match(await page.textContent('#results .ghost-margins'),
    new RegExp(`^gina-g trailed gina-g's run \\(${runScore} points\\) by \\d+ points\\.$`));
  assert.ok(await boardsSeen(page) >= 2, 'the ghost moved live');
  await context.close();
});
