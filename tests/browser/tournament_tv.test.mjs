// Tournament TV in the browser: a viewer follows a knockout of eight scripted players (their
// sockets opened from a helper page) and its tournament page shows the four first-round matches
// as moving mini boards, one click away from full size; a walkover's result dialog says the
// opponent did not come.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter } from './harness.mjs';

const env = serveAndBrowse(['--max-connections-per-ip', '0', '--grace', '1']);

// Opens a page of the server's origin (its sockets pass the origin check) that scripts players.
async function helperPage() {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.server.url}/healthz`);
  await page.evaluate(() => {
    // A scripted player: resolves with its socket once welcomed; answers() waits for a message.
    window.player = (name) => new Promise((resolve) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      ws.seen = [];
      ws.waiters = [];
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        ws.seen.push(m);
        for (const w of [...ws.waiters]) if (w.test(m)) { ws.waiters.splice(ws.waiters.indexOf(w), 1); w.resolve(m); }
        if (m.type === 'welcome') { ws.id = m.player.id; resolve(ws); }
      };
      ws.next = (test) => new Promise((r) => ws.waiters.push({ test, resolve: r }));
      ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', name }));
    });
  });
  return { context, page };
}

test('a viewer following a knockout sees its four first-round matches as moving mini boards', async () => {
  const helper = await helperPage();
  const code = await helper.page.evaluate(async () => {
    const players = [];
    for (let i = 0; i < 8; ++i) players.push(await window.player(`tv${i}`));
    players[0].send(JSON.stringify({ type: 'create_tournament', format: 'single_elimination', time_limit: 120, rid: 1 }));
    const created = await players[0].next((m) => m.type === 'tournament' && m.rid === 1);
    for (let i = 1; i < 8; ++i) {
      players[i].send(JSON.stringify({ type: 'join_tournament', code: created.tournament.code, rid: 1 }));
      await players[i].next((m) => m.type === 'tournament' && m.rid === 1);
    }
    // Once their race starts, everyone moves a few times a second until it ends.
    const dirs = ['left', 'down', 'right', 'down'];
    for (const ws of players) {
      let n = 0;
      ws.addEventListener('message', (e) => {
        const m = JSON.parse(e.data);
        if (m.type === 'race_start' && m.games[ws.id]) {
          ws.mover ??= setInterval(() => ws.send(JSON.stringify({ type: 'move', dir: dirs[n++ % 4] })), 150);
        }
      });
    }
    window.players = players;
    return created.tournament.code;
  });
  const viewer = await enter(await env.browser.newContext(), `${env.server.url}/?follow=${code}`, 'viewer');
  await viewer.locator('#tournament-title').filter({ hasText: code }).waitFor();
  await helper.page.evaluate(() => window.players[0].send(JSON.stringify({ type: 'start_tournament' })));

  const cards = viewer.locator('#tournament-live li.live-match');
  await cards.nth(3).waitFor();
  assert.equal(await cards.count(), 4, 'every first-round match, live');
  assert.equal(await viewer.locator('#tournament-live li.live-match .board.mini').count(), 8);
  // Every card's boards move: each one's tiles change from what they first showed.
  // (Written out twice: the page's content security policy runs no string as code.)
  const first = await viewer.$$eval('#tournament-live li.live-match', (lis) => lis.map((li) =>
    [...li.querySelectorAll('.tile')].map((t) => `${t.textContent}@${t.dataset.row},${t.dataset.col}`).join(' ')));
  await viewer.waitForFunction((before) => [...document.querySelectorAll('#tournament-live li.live-match')]
    .map((li) => [...li.querySelectorAll('.tile')].map((t) => `${t.textContent}@${t.dataset.row},${t.dataset.col}`).join(' '))
    .every((now, i) => now !== before[i]), first, { timeout: 15000 });
  // A click opens one full size: its room, watched.
  const room = await cards.first().getAttribute('data-room');
  await cards.first().locator('button').click();
  await viewer.locator('#room-code').filter({ hasText: room }).waitFor();
  assert.equal(await viewer.evaluate(() => document.body.dataset.view), 'play');
  await helper.page.evaluate(() => { for (const ws of window.players) { clearInterval(ws.mover); ws.close(); } });
  await helper.context.close();
  await viewer.context().close();
});

test('a walkover shows its result: the opponent did not come', async () => {
  const context = await env.browser.newContext();
  const host = await enter(context, env.server.url, 'present');
  await host.selectOption('#tournament-format', 'single_elimination');
  await host.click('#create-tournament');
  await host.locator('#tournament-title').filter({ hasText: /^Tournament [A-Z2-9]{6}$/ }).waitFor();
  const code = (await host.locator('#tournament-title').textContent()).slice('Tournament '.length);
  const helper = await helperPage();
  await helper.page.evaluate(async (c) => {
    const ws = await window.player('absent');
    ws.send(JSON.stringify({ type: 'join_tournament', code: c, rid: 1 }));
    await ws.next((m) => m.type === 'tournament' && m.rid === 1);
    ws.close();  // and never comes back
  }, code);
  await host.locator('#tournament-players tr.away').waitFor();
  await host.click('#tournament-start');
  const dialog = host.locator('#results');
  await dialog.waitFor();
  assert.match(await host.textContent('#results-title'), /present wins — the opponent did not come/);
  assert.equal(await host.textContent('#results-verdict'), 'You win!');
  assert.equal(await host.locator('#rematch').isHidden(), true, 'nothing to race again');
  await host.click('#results-lobby');
  await host.waitForFunction(() => document.body.dataset.view === 'tournament');
  await helper.context.close();
  await context.close();
});
