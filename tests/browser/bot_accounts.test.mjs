// Bot accounts in the lobby (docs/bots.md): the Bots tab is the bots' own rating board, each
// row marked BOT, and the people's ratings tab lists none of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, installSockets } from './harness.mjs';

const env = serveAndBrowse();

test('the Bots tab lists bots rated in a race between them, marked BOT, apart from people', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'viewer');
  // Two fresh accounts become bots and race; robo-b leaves, robo-a wins by forfeit.
  await installSockets(page);
  await page.evaluate(async () => {
    const bot = async (name) => {
      const s = await window.openSocket(name);
      s.send({ type: 'register', password: 'a fine secret' });
      await s.until('registered');
      s.send({ type: 'upgrade_to_bot', password: 'a fine secret' });
      await s.until('upgraded');
      return s;
    };
    const a = await bot('robo-a'), b = await bot('robo-b');
    a.send({ type: 'create_room' });
    const { room } = await a.until('room');
    b.send({ type: 'join_room', code: room.code });
    await b.until('room');
    for (const s of [a, b]) s.send({ type: 'ready' });
    await a.until('race_start');
    b.send({ type: 'leave_room' });
    await a.until('race_over');
    a.close();
    b.close();
  });
  await page.click('#board-bots');
  assert.equal(await page.getAttribute('#board-bots', 'aria-selected'), 'true');
  await page.check('#board-provisional');  // one race each: provisional ratings
  const robo = page.locator('#leaderboard tbody tr', { hasText: 'robo-a' });
  await robo.waitFor();
  assert.equal(await robo.locator('.badge.bot').textContent(), 'BOT');
  assert.equal(await page.locator('#leaderboard tbody tr', { hasText: 'robo-b' }).count(), 1);
  assert.match(await page.textContent('#leaderboard caption'), /^Bots · /);
  // The people's board: no bot on it.
  await page.click('#board-rating');
  await page.locator('#leaderboard caption', { hasText: /^Ratings/ }).waitFor();
  assert.equal(await page.locator('#leaderboard tbody tr', { hasText: 'robo' }).count(), 0);
  // A bot's profile is marked too.
  await page.click('#board-bots');
  await robo.locator('button', { hasText: 'robo-a' }).click();
  await page.locator('#profile-name .badge.bot', { hasText: 'BOT' }).waitFor();
  await context.close();
});
