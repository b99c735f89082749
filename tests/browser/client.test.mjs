// The web client in a real browser against the real server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, startServer, enter, boardOf, drawnBoard, settled, movingKey, answered } from './harness.mjs';

const env = serveAndBrowse();

test('a solo game by keyboard: the board changes as the server says', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'keys');
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  await settled(page);
  const start = await boardOf(page);
  assert.equal(start.flat().filter((v) => v > 0).length, 2);
  // Press keys until one changes the board; the move counter and the tiles follow the server.
  for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(0);
    if ((await page.textContent('#moves')) !== '0') break;
  }
  await page.locator('#moves').filter({ hasText: /^[1-9]/ }).waitFor();
  await settled(page);
  const after = await boardOf(page);
  assert.notDeepEqual(after, start);
  assert.deepEqual(await drawnBoard(page), after);
  assert.equal(after.flat().filter((v) => v > 0).length >= 2, true);
  // Keys with modifiers are left to the browser.
  const moves = await page.textContent('#moves');
  await page.keyboard.press('Control+ArrowLeft');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('r');  // R: a new game, once confirmed (this one counts)
  await page.click('#confirm-yes');
  await page.locator('#moves').filter({ hasText: /^0$/ }).waitFor();
  assert.notEqual(moves, '0');
  await context.close();
});

test('reload resumes the game', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'reloader');
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft']) await page.keyboard.press(key);
  await page.locator('#moves').filter({ hasText: /^[1-9]/ }).waitFor();
  await settled(page);
  const before = await boardOf(page);
  const moves = await page.textContent('#moves');
  const me = await page.textContent('#me');
  await page.reload();
  await page.locator('#board .tile').first().waitFor();
  await settled(page);
  assert.equal(await page.textContent('#me'), me);
  assert.equal(await page.textContent('#moves'), moves);
  assert.deepEqual(await boardOf(page), before);
  await context.close();
});

test('a name that looks like markup is refused, says why, and runs nothing', async () => {
  const context = await env.browser.newContext();
  const name = '<img src=x onerror=alert(1)>';
  const page = await context.newPage();
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto(env.server.url);
  await page.fill('#name-input', name.slice(0, 20));
  await page.click('#name-form button');
  // Names hold letters, digits, one space, - _ and . only (docs/protocol.md, "Names").
  await page.locator('#notice').filter({ hasText: 'Names use letters' }).waitFor();
  await page.locator('#name-screen').waitFor();
  assert.equal(await page.locator('img').count(), 0);
  assert.deepEqual(dialogs, []);
  await context.close();
});

test('two browsers race through an invite link while a third spectates', async () => {
  const hostContext = await env.browser.newContext();
  const guestContext = await env.browser.newContext();
  const watchContext = await env.browser.newContext();
  const host = await enter(hostContext, env.server.url, 'host');
  await host.selectOption('#size', '4');
  await host.click('#create-room');
  // The code appears when the server's `room` arrives.
  await host.locator('#room-code').filter({ hasText: /^[A-Z2-9]{6}$/ }).waitFor();
  const code = (await host.locator('#room-code').textContent()).trim();
  assert.match(code, /^[A-Z2-9]{6}$/);
  // The invite link joins directly.
  const guest = await enter(guestContext, `${env.server.url}/?room=${code}`, 'visitor');
  await guest.locator('#room-players li').nth(1).waitFor();
  await host.locator('#room-players li').nth(1).waitFor();
  // The spectator finds the public race in the lobby.
  const watcher = await enter(watchContext, env.server.url, 'watcher');
  await watcher.click('#refresh-rooms');
  await watcher.locator('#rooms li', { hasText: code }).locator('button').click();
  await watcher.locator('#room-code', { hasText: code }).waitFor();

  await host.click('#ready');
  await guest.click('#ready');
  await host.locator('#countdown').waitFor({ state: 'visible' });
  await host.locator('#countdown').waitFor({ state: 'hidden' });
  await guest.locator('#board .tile').first().waitFor();
  await watcher.locator('.opponent').nth(1).waitFor();
  // Identical first boards for both racers.
  assert.deepEqual(await boardOf(host), await boardOf(guest));

  // Both move; the spectator sees both boards change.
  const watchedBefore = await watcher.evaluate(() => [...document.querySelectorAll('.opponent .board')].map((b) => b.dataset.board));
  for (const page of [host, guest]) {
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown']) {
      await page.keyboard.press(key);
      if ((await page.textContent('#moves')) !== '0') break;
    }
    await page.locator('#moves').filter({ hasText: /^[1-9]/ }).waitFor();
  }
  await watcher.waitForFunction((before) => {
    const now = [...document.querySelectorAll('.opponent .board')].map((b) => b.dataset.board);
    return now.length === 2 && now.every((b, i) => b !== before[i]);
  }, watchedBefore);
  const hostBoard = await boardOf(host);
  await watcher.waitForFunction((want) => [...document.querySelectorAll('.opponent .board')]
    .some((b) => b.dataset.board === want), JSON.stringify(hostBoard));
  // The guest's view shows the host's board beside their own, live too.
  await guest.waitForFunction((want) => [...document.querySelectorAll('.opponent .board')]
    .some((b) => b.dataset.board === want), JSON.stringify(hostBoard));
  for (const c of [hostContext, guestContext, watchContext]) await c.close();
});

test('a race goes on in the browser after the server restarts, spectator included', async () => {
  const own = await startServer();
  const contexts = [];
  try {
    const page = async (name, path = '') => {
      const context = await env.browser.newContext();
      contexts.push(context);
      return enter(context, `${own.url}${path}`, name);
    };
    const host = await page('host');
    await host.click('#create-room');
    await host.locator('#room-code').filter({ hasText: /^[A-Z2-9]{6}$/ }).waitFor();
    const code = (await host.locator('#room-code').textContent()).trim();
    const guest = await page('visitor', `/?room=${code}`);
    await host.locator('#room-players li').nth(1).waitFor();
    const watcher = await page('watcher', `/?watch=${code}`);
    await watcher.locator('#room-code', { hasText: code }).waitFor();
    await host.click('#ready');
    await guest.click('#ready');
    await host.locator('#board .tile').first().waitFor();
    await host.locator('#countdown').waitFor({ state: 'hidden' });
    // One key that moves the board: it is applied, once (the page holds it through a reconnect).
    const move = async () => {
      const before = Number(await host.textContent('#moves'));
      await host.keyboard.press(await movingKey(host));
      await answered(host);
      assert.equal(await host.textContent('#moves'), String(before + 1));
      return before + 1;
    };
    const moves = await move();
    const beforeRestart = await boardOf(host);

    assert.equal(await own.restart(), 0);  // SIGTERM: exit 0, the race journaled
    // Each page reconnects by itself: the host's race comes back as it was, and moves on. The
    // page's backoff (up to 8 s between attempts) started while the server was down, so under
    // load its next attempt may come well after the server is back.
    await host.waitForFunction((want) => document.querySelector('#board').dataset.board === want,
      JSON.stringify(beforeRestart), { timeout: 30000 });
    await host.locator('#moves').filter({ hasText: String(moves) }).waitFor();
    const after = await move();
    assert.equal(after, moves + 1);
    // The spectator watches again, and sees the host's new board.
    const hostBoard = JSON.stringify(await boardOf(host));
    try {
      await watcher.waitForFunction((want) => [...document.querySelectorAll('.opponent .board')]
        .some((b) => b.dataset.board === want), hostBoard, { timeout: 30000 });
    } catch (err) {
      const seen = await watcher.evaluate(() => ({ status: document.getElementById('status').textContent,
        room: document.getElementById('room-code').textContent,
        boards: [...document.querySelectorAll('.opponent .board')].map((b) => b.dataset.board) }));
      throw new Error(`the spectator never showed the host's ${hostBoard}: ${JSON.stringify(seen)}`, { cause: err });
    }
  } finally {
    for (const c of contexts) await c.close();
    await own.stop();
  }
});

test('quick match shows its wait near the player\'s rating, widening, with a Cancel the server confirms; Fifteen offers only its sizes', async () => {
  const context = await env.browser.newContext();
  const ann = await enter(context, env.server.url, 'ann');
  await ann.selectOption('#mode', 'fifteen');
  const offered = await ann.$$eval('#size option', (options) => options.filter((o) => !o.disabled).map((o) => o.value));
  assert.deepEqual(offered, ['3', '4', '5', '6']);
  await ann.selectOption('#mode', 'classic');
  await ann.click('#quick-match');
  await ann.locator('#matching').waitFor({ state: 'visible' });
  await ann.click('#cancel-match');
  await ann.locator('#matching').waitFor({ state: 'hidden' });  // on the server's match_cancelled
  // ann left the queue: the next player waits instead of being paired with her.
  const other = await env.browser.newContext();
  const bob = await enter(other, env.server.url, 'bob');
  await bob.click('#quick-match');
  await bob.locator('#matching').waitFor({ state: 'visible' });
  assert.equal(await ann.locator('#room-bar').isHidden(), true);
  // The search near bob's rating (a newcomer's: 1500, RD 350 → ±450), widening by 50 after 5 s.
  await bob.locator('#matching-text', { hasText: 'Looking for an opponent near 1500 (±450)…' }).waitFor();
  await bob.locator('#matching-text', { hasText: '(±500)' }).waitFor({ timeout: 8000 });
  await bob.click('#cancel-match');
  await bob.locator('#matching').waitFor({ state: 'hidden' });
  for (const c of [context, other]) await c.close();
});

test('keys do nothing under the win overlay until Keep going, which a reload remembers; R asks first', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'winner');
  // A target of 8 (the smallest the server accepts) is won in a few moves.
  await page.evaluate(() => { const t = document.getElementById('target'); t.add(new Option('8', '8')); t.value = '8'; });
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  const keys = ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown'];
  // Keys until the win shows (moves the server answers in order; the overlay stops the rest).
  for (let i = 0; i < 200 && await page.locator('#overlay').isHidden(); ++i) await page.keyboard.press(keys[i % 4]);
  await page.locator('#overlay-text', { hasText: 'You win!' }).waitFor();
  assert.match(await page.textContent('#announce'), /^You win! Score \d+$/);  // for screen readers
  // What the page sends from here on, in order; a promise for its first move.
  const sent = [];
  let firstMove;
  const moveSent = new Promise((resolve) => { firstMove = resolve; });
  page.on('websocket', (ws) => ws.on('framesent', (frame) => {
    const type = JSON.parse(frame.payload).type;
    sent.push(type);
    if (type === 'move') firstMove();
  }));
  await page.reload();  // not kept going yet: the win shows again
  await page.locator('#overlay-text', { hasText: 'You win!' }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'keep-going');  // a dialog takes the focus
  for (const key of keys) await page.keyboard.press(key);
  sent.push('(keep going)');
  await page.click('#keep-going');
  await page.locator('#overlay').waitFor({ state: 'hidden' });
  await page.keyboard.press(await movingKey(page));  // a key that does nothing is not sent
  await moveSent;
  assert.equal(sent.filter((t) => t === 'move' || t === '(keep going)')[0], '(keep going)');
  await page.reload();
  await page.locator('#board .tile').first().waitFor();
  assert.equal(await page.locator('#overlay').isHidden(), true);  // kept going, also after a reload
  // R on a game that counts asks first; No keeps the game.
  const id = await page.locator('#board').getAttribute('data-board');
  await page.keyboard.press('r');
  await page.locator('#confirm', { hasText: 'resigned' }).waitFor();
  await page.click('#confirm-no');
  await page.locator('#confirm').waitFor({ state: 'hidden' });
  assert.equal(await page.locator('#board').getAttribute('data-board'), id);
  await context.close();
});

test('the play screen has New game, and a best box that the server fills', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'best');
  await page.selectOption('#size', '5');
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  assert.equal(await page.textContent('#best'), '–');  // nothing recorded at 5×5 yet
  // One move at a time, each answered before the next, until one scores: the score read then
  // is the game's final one (no move still in flight).
  for (let moves = 0; moves < 100 && (await page.textContent('#score')) === '0'; ++moves) {
    await settled(page);
    await page.keyboard.press(await movingKey(page));
    await page.locator('#moves').filter({ hasText: new RegExp(`^${moves + 1}$`) }).waitFor();
  }
  const score = await page.textContent('#score');
  assert.notEqual(score, '0');
  await page.locator('#best').filter({ hasText: score }).waitFor();  // a higher score shows live
  // New game on the play screen asks first; the resigned game is recorded, and the best box
  // of the new game shows it, as the server ranks it.
  await page.click('#play-new-game');
  await page.click('#confirm-yes');
  await page.locator('#moves').filter({ hasText: /^0$/ }).waitFor();
  await page.locator('#best').filter({ hasText: new RegExp(`^${score}$`) }).waitFor();
  await context.close();
});

test('the replay viewer re-runs a finished game to the score the server recorded', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'replayer');
  // Finish a 3×3 game quickly with a socket of the page's own, then replay it in the viewer.
  const finished = await page.evaluate(async () => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    const next = () => new Promise((r) => { ws.onmessage = (e) => r(JSON.parse(e.data)); });
    await new Promise((r) => { ws.onopen = r; });
    ws.send(JSON.stringify({ type: 'hello', name: 'robot' })); await next();
    ws.send(JSON.stringify({ type: 'new_game', size: 3 })); const game = await next();
    const dirs = ['up', 'down', 'left', 'right'];
    for (let i = 0; i < 5000; ++i) {
      ws.send(JSON.stringify({ type: 'move', dir: dirs[(i * 7 + Math.floor(i / 3)) % 4] }));
      const m = await next();
      if (m.state === 'over') { ws.close(); return { id: game.game.id, score: m.score, moves: m.moves }; }
    }
    return null;
  });
  assert.ok(finished);
  const replayed = await page.evaluate(async (id) => {
    const { replayFrames } = await import('/js/engine.js');
    const replay = await (await fetch(`/api/replays/${id}`)).json();
    const { frames, final } = replayFrames(replay);
    return { score: replay.score, final, frames: frames.length };
  }, finished.id);
  assert.equal(replayed.score, finished.score);
  assert.equal(replayed.final.score, finished.score);
  assert.equal(replayed.final.state, 'over');
  assert.equal(replayed.frames, finished.moves + 1);
  // And through the page: the leaderboard's replay button opens the viewer at move 0.
  await page.selectOption('#size', '3');
  await page.click('#board-score');
  // The row of this game (the table may still show another size's board for a moment).
  await page.locator('#leaderboard tbody tr').filter({ hasText: 'robot' })
    .filter({ hasText: String(finished.score) }).getByRole('button', { name: 'replay' }).click();
  await page.locator('#replay-total').filter({ hasText: String(finished.moves) }).waitFor();
  await page.click('#replay-step');
  assert.equal(await page.textContent('#replay-move'), '1');
  await context.close();
});
