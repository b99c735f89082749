// A player's profile: after three won races the chart draws four points (the 1500 start and
// one per race), rising, with its axes; the races are listed as won; the achievement the first win earned is listed; the recent races open
// their replays. Ratings are Glicko-2 per variant: a provisional one shows "?" (on the board, listed
// only when asked for, and on the profile), and the chart's chooser draws the 3×3 rating apart.
// And the leaderboard's period: this week's board, named by the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, installSockets, screenshot } from './harness.mjs';

const env = serveAndBrowse();

test('the profile chart draws the rating history of a player who played three races', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'viewer');
  // "champ" wins three races by forfeit, over sockets of the page's own.
  await installSockets(page);
  await page.evaluate(async () => {
    const deadline = new Promise((_, reject) => setTimeout(() => reject(new Error('races took over 20 s')), 20000));
    const races = async () => {
      const champ = await window.openSocket('champ');
      for (let n = 0; n < 4; ++n) {  // three classic 4×4 races, then one 3×3
        const rival = await window.openSocket(`rival${n}`);
        champ.drain();
        champ.send(n < 3 ? { type: 'create_room' } : { type: 'create_room', size: 3, target: 64 });
        const { room } = await champ.until('room');
        rival.send({ type: 'join_room', code: room.code });
        await rival.until('room');
        for (const p of [champ, rival]) p.send({ type: 'ready' });
        await champ.until('race_start');
        rival.send({ type: 'leave_room' });
        await champ.until('race_over');
        champ.send({ type: 'leave_room' });
        await champ.until('left');
        rival.close();
      }
      champ.close();
    };
    await Promise.race([races(), deadline]);
  });
  await page.click('#board-rating');
  await page.locator('#leaderboard caption', { hasText: 'Ratings · classic 4×4' }).waitFor();
  assert.equal(await page.locator('#leaderboard tbody button', { hasText: 'champ' }).count(), 0,
    'provisional: not listed unless asked for');
  await page.check('#board-provisional');
  const row = page.locator('#leaderboard tbody tr', { hasText: 'champ' });
  await row.waitFor();
  assert.match(await row.locator('td').nth(2).textContent(), /^1\d{3}\?$/, 'a provisional rating shows "?"');
  await row.locator('button', { hasText: 'champ' }).click();
  await page.locator('#profile-name', { hasText: 'champ' }).waitFor();
  const tiles = await page.locator('#profile-stats li').allTextContents();
  assert.ok(tiles.includes('Wins4') && tiles.includes('Losses0'), tiles.join(' | '));
  assert.ok(tiles.some((t) => /^Rating · classic 4×41\d{3}\?$/.test(t)), tiles.join(' | '));
  const points = (await page.locator('#rating-chart polyline').getAttribute('points'))
    .split(' ').map((p) => p.split(',').map(Number));
  assert.equal(points.length, 4);
  for (let i = 1; i < points.length; ++i) {
    assert.ok(points[i][0] > points[i - 1][0], 'later to the right');
    assert.ok(points[i][1] < points[i - 1][1], 'a higher rating higher up');
  }
  // A point per race and the start, the axes' labels, and the rating now beside the last point.
  assert.equal(await page.locator('#rating-chart circle').count(), 4);
  const labels = await page.locator('#rating-chart text').allTextContents();
  assert.ok(labels.includes('1500'), labels.join(' | '));
  const now = await page.locator('#rating-chart text.current').textContent();
  assert.ok(Number(now) > 1500 && labels.filter((l) => l === now).length === 2, labels.join(' | '));  // the top tick too
  assert.ok(labels.some((l) => /^\d{1,2} \w+$|^\w+ \d{1,2}$/.test(l)), `a date on the axis: ${labels.join(' | ')}`);
  // The chooser: classic 4×4 and the 3×3 raced once; 3×3 draws its own rating (start and one race).
  assert.deepEqual(await page.locator('#rating-variant option').allTextContents(), ['classic 4×4', 'classic 3×3']);
  await page.selectOption('#rating-variant', 'classic-3');
  await page.locator('#rating-chart circle').nth(1).waitFor();
  assert.equal(await page.locator('#rating-chart circle').count(), 2);
  const small = await page.locator('#profile-stats li').first().textContent();
  assert.match(small, /^Rating · classic 3×3\d{4}\?$/);
  await page.selectOption('#rating-variant', 'classic-4');
  await page.locator('#rating-chart circle').nth(3).waitFor();
  // The races, each with its outcome and final score.
  const races = await page.locator('#profile-races li').allTextContents();
  assert.equal(races.length, 4);
  assert.match(races[0], /^Won\d+ points · classic 3×3/);
  for (const r of races.slice(1)) assert.match(r, /^Won\d+ points · classic 4×4/);
  // The first of the three wins earned an achievement; the profile lists it once.
  const held = await page.locator('#profile-achievements li').allTextContents();
  assert.equal(held.length, 1, held.join(' | '));
  assert.match(held[0], /First win · Win a race against a person/);
  await screenshot(page, 'profile');
  await page.locator('#profile-races button').first().click();
  await page.locator('#replay').waitFor();
  await context.close();
});

test('an achievement is announced on the winner\'s screen, and the leaderboard shows this week\'s board', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'winner');
  // A rival joins the page's room over a socket of the page's own, readies, then leaves.
  await page.click('#create-room');
  await page.waitForFunction(() => document.getElementById('room-code').textContent.trim().length === 6);
  const code = (await page.locator('#room-code').textContent()).trim();
  await page.evaluate(async (room) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    const seen = (type) => new Promise((resolve) => ws.addEventListener('message', function on(e) {
      if (JSON.parse(e.data).type === type) { ws.removeEventListener('message', on); resolve(); }
    }));
    await new Promise((r) => { ws.onopen = r; });
    ws.send(JSON.stringify({ type: 'hello', name: 'rival' }));
    await seen('welcome');
    ws.send(JSON.stringify({ type: 'join_room', code: room }));
    await seen('room');
    const started = seen('race_start');
    ws.send(JSON.stringify({ type: 'ready' }));
    window.rival = { ws, started };
  }, code);
  await page.click('#ready');
  await page.evaluate(async () => { await window.rival.started; window.rival.ws.send(JSON.stringify({ type: 'leave_room' })); });
  await page.locator('#notice', { hasText: 'Achievement unlocked: First win' }).waitFor();
  assert.match(await page.textContent('#announce'), /Achievement unlocked: First win/);

  await page.click('#results-lobby');  // from the result's dialog back to the lobby
  await page.selectOption('#board-period', 'week');
  await page.locator('#leaderboard caption', { hasText: /classic 4×4, week \d{4}-W\d{2}/ }).waitFor();
  await page.selectOption('#board-period', 'all-time');
  await page.locator('#leaderboard caption', { hasText: 'classic 4×4, all time' }).waitFor();
  await context.close();
});
