// The client's look, checked by geometry on every screen at a phone's, a tablet's and a
// desktop's size: nothing scrolls sideways, nothing sticks out of its container, no emoji is
// drawn (they need a font this machine may lack). A race's two boards are equal; the result
// dialog shows the rating change the server sent and Rematch starts the next race; "+N" is
// legible; the dark theme passes axe on every screen. `make screenshots` takes the README's
// lobby, race, spectator, result and dark-theme pictures here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, race, settled, movingKey, screenshot, seriousViolations, injectAxe, installSockets } from './harness.mjs';

const env = serveAndBrowse();

const SIZES = {
  phone: { viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true },
  tablet: { viewport: { width: 768, height: 1024 } },
  desktop: { viewport: { width: 1280, height: 720 } },
};

// What is wrong with the page's layout as drawn now: sideways scroll, elements in the flow that
// stick out of their container (by more than a pixel), and drawn text holding an emoji.
async function layoutDefects(page) {
  return page.evaluate(() => {
    const out = [];
    const html = document.documentElement;
    const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
    if (html.scrollWidth > html.clientWidth) {
      const beyond = [...document.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > html.clientWidth + 1);
      const arena = document.getElementById('arena');
      out.push(`the page scrolls sideways by ${html.scrollWidth - html.clientWidth}px: ${beyond.slice(-3).map((el) => `${name(el)} in ${el.closest('.board') ? name(el.closest('.board').parentElement) : '-'}`).join(', ')}` +
        ` (arena ${arena.className} ${arena.getAttribute('style')}, window ${innerWidth})`);
    }
    const drawn = (el) => el.getClientRects().length > 0 && getComputedStyle(el).display !== 'contents';
    for (const el of document.body.querySelectorAll('*')) {
      if (!drawn(el) || el.closest('.visually-hidden') || (el.closest('svg') && el.tagName !== 'svg')) continue;
      const position = getComputedStyle(el).position;
      if (position === 'absolute' || position === 'fixed') continue;  // placed over others on purpose
      let box = el.parentElement;
      while (box && !drawn(box)) box = box.parentElement;
      if (!box || box === html) continue;
      const a = el.getBoundingClientRect(), b = box.getBoundingClientRect();
      if (a.left < b.left - 1 || a.right > b.right + 1 || a.top < b.top - 1 || a.bottom > b.bottom + 1) {
        out.push(`${name(el)} sticks out of ${name(box)}: [${Math.round(a.left)}, ${Math.round(a.right)}] in [${Math.round(b.left)}, ${Math.round(b.right)}]`);
      }
    }
    const emoji = /[\u{1F000}-\u{1FAFF}\u{2600}-\u{27BF}\u{2B00}-\u{2BFF}\u{FE0F}]/u;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (emoji.test(node.textContent) && node.parentElement.getClientRects().length > 0) out.push(`an emoji in ${name(node.parentElement)}`);
    }
    return out;
  });
}

// Leaves the room by its Leave button: in the room's menu on a phone.
async function leaveRoom(page) {
  if (await page.locator('#room-menu-button').isVisible()) await page.click('#room-menu-button');
  await page.click('#leave');
}

// Every screen, as a host, a guest and a watcher at one size (and colour scheme): the name
// screen, the lobby (with a live race's card), a solo game, a race, a spectator's view, the
// result, a replay and a profile. check(page, screen) is run on each.
async function tour(options, check, pictures = {}) {
  const tag = `${options.viewport.width}${options.colorScheme === 'dark' ? 'd' : ''}${options.locale ? options.locale.slice(0, 2) : ''}`;  // names are unique
  const contexts = [];
  for (let i = 0; i < 3; ++i) contexts.push(await env.browser.newContext({ ...options, bypassCSP: true }));
  try {
    const first = await contexts[0].newPage();
    await first.goto(env.server.url);
    await first.locator('#name-form').waitFor();
    await check(first, 'name screen');
    await first.close();
    const host = await enter(contexts[0], env.server.url, `host-${tag}`);
    await check(host, 'lobby');
    await host.click('#new-game');
    await host.locator('#board .tile').first().waitFor();
    await settled(host);
    await check(host, 'solo game');
    await host.click('#back');
    const guest = await enter(contexts[1], env.server.url, `guest-${tag}`);
    const code = await race(host, guest);
    for (let i = 1; i <= 6; ++i) {  // a few moves each (the host more): scores, tiles, a leader
      for (const page of i <= 2 ? [host, guest] : [host]) {
        const key = await movingKey(page);
        if (!key) continue;
        await page.keyboard.press(key);
        await page.locator('#moves', { hasText: new RegExp(`^${i}$`) }).waitFor();
      }
    }
    await settled(host);
    await settled(host, '.opponent .board');
    await host.waitForFunction(() => !document.getElementById('gain').textContent);  // "+N" has risen
    await check(host, 'race');
    if (pictures.race) await screenshot(host, pictures.race);
    const watcher = await enter(contexts[2], env.server.url, `watcher-${tag}`);
    const card = watcher.locator('#rooms li', { hasText: code });
    await card.locator('.board .tile').first().waitFor();  // the lobby lists it within 3 s, live
    await check(watcher, 'lobby with a live race');
    if (pictures.lobby) await screenshot(watcher, pictures.lobby);
    await card.locator('button').click();  // Watch
    await watcher.locator('.opponent .board .tile').first().waitFor();
    await watcher.locator('.opponent').nth(1).waitFor();
    await check(watcher, 'spectator');
    if (pictures.spectator) await screenshot(watcher, pictures.spectator);
    await leaveRoom(guest);  // the host wins by forfeit
    await host.locator('#results').waitFor();
    await check(host, 'result');
    if (pictures.result) await screenshot(host, pictures.result);
    await host.locator('#standings button').first().click();
    await host.locator('#replay').waitFor();
    await host.locator('#replay-board .tile').first().waitFor();
    await check(host, 'replay');
    await host.click('#me');
    await host.locator('#profile-name').waitFor();
    await host.locator('#profile-races li .outcome.won').waitFor();
    await check(host, 'profile');
    // A knockout of two, decided: the tournament's screen with its bracket and podium.
    await guest.goto(env.server.url);
    await guest.selectOption('#tournament-format', 'single_elimination');
    await guest.click('#create-tournament');
    await guest.locator('#tournament-title').filter({ hasText: / [A-Z2-9]{6}$/ }).waitFor();
    const tournament = (await guest.locator('#tournament-title').textContent()).slice(-6);
    await watcher.goto(`${env.server.url}/?tournament=${tournament}`);
    await guest.locator('#tournament-players tr').nth(1).waitFor();
    await check(guest, 'tournament waiting');
    await guest.click('#tournament-start');
    await watcher.locator('#board .tile').first().waitFor();
    await leaveRoom(watcher);  // the guest wins the match by forfeit
    await guest.locator('#tournament-podium li').first().waitFor();
    await guest.locator('#tournament-bracket g.match.done').waitFor();
    await check(guest, 'tournament');
  } finally {
    for (const c of contexts) await c.close();
  }
}

for (const [size, options] of Object.entries(SIZES)) {
  test(`at ${size} size (${options.viewport.width}×${options.viewport.height}) no screen scrolls sideways or overflows, and no emoji is drawn`, async () => {
    const desktop = size === 'desktop';
    await tour(options, async (page, screen) => {
      assert.deepEqual(await layoutDefects(page), [], `${size}: ${screen}`);
      if (screen === 'race' && desktop) {
        // Two racers: both boards the same size, side by side.
        const own = await page.locator('#board').boundingBox();
        const theirs = await page.locator('.opponent .board').boundingBox();
        assert.equal(Math.round(own.width), Math.round(theirs.width), 'equal widths');
        assert.equal(Math.round(own.height), Math.round(theirs.height), 'equal heights');
        assert.equal(Math.round(own.y), Math.round(theirs.y), 'side by side');
        assert.ok(own.y + own.height <= 720, 'the whole board in sight');
        // The emotes are words: drawn by any font.
        const emotes = await page.locator('#emotes button').allTextContents();
        assert.equal(emotes.length, 6);
        for (const e of emotes) assert.match(e, /^[A-Za-z ]+$/);
        for (const box of await page.locator('#emotes button').evaluateAll((buttons) => buttons.map((b) => {
          const range = document.createRange();
          range.selectNodeContents(b);
          const r = range.getBoundingClientRect();
          return r.width * r.height;
        }))) assert.ok(box > 0);
      }
    }, desktop ? { lobby: 'lobby', race: 'race', spectator: 'spectator', result: 'result' } : {});
  });
}

// Russian runs about a third longer than English: every screen again, in Russian (the
// browser's language), at each size, with nothing scrolling sideways or sticking out.
for (const [size, options] of Object.entries(SIZES)) {
  test(`in Russian at ${size} size no screen scrolls sideways or overflows`, async () => {
    await tour({ ...options, locale: 'ru-RU' }, async (page, screen) => {
      assert.equal(await page.getAttribute('html', 'lang'), 'ru');
      assert.deepEqual(await layoutDefects(page), [], `${size}, Russian: ${screen}`);
    });
  });
}

test('the dark theme passes axe with nothing serious or critical on every screen', async () => {
  await tour({ ...SIZES.desktop, colorScheme: 'dark' }, async (page, screen) => {
    assert.equal(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), true);
    assert.deepEqual(await seriousViolations(page), [], screen);
  }, { race: 'dark-race' });
});

// A page entered as name whose server messages are kept, parsed, in the array it returns.
async function enterListening(context, name) {
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  const received = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => received.push(JSON.parse(f.payload))));
  await page.goto(env.server.url);
  await page.fill('#name-input', name);
  await page.click('#name-form button');
  await page.locator('#me').filter({ hasText: name }).waitFor();
  return { page, received };
}

test('the result shows the rating change the server sent, and Rematch starts the next race', async () => {
  const contexts = [await env.browser.newContext(SIZES.desktop), await env.browser.newContext(SIZES.desktop)];
  const host = await enterListening(contexts[0], 'rita');
  const guest = await enterListening(contexts[1], 'remy');
  // A target of 16 (below the lobby's choices) ends the race in a few moves.
  await host.page.evaluate(() => { const t = document.getElementById('target'); t.add(new Option('16', '16')); t.value = '16'; });
  await race(host.page, guest.page);
  for (let i = 0; i < 400 && await host.page.locator('#results').isHidden(); ++i) {
    const page = [host.page, guest.page][i % 2];
    const key = await movingKey(page);
    if (key) await page.keyboard.press(key);
  }
  await host.page.locator('#results').waitFor();
  const over = host.received.find((m) => m.type === 'race_over');
  assert.ok(over, 'race_over received');
  for (const s of over.standings) {
    const { before, after, provisional } = over.ratings[s.player];
    const change = after - before;
    const row = host.page.locator('#standings tr', { hasText: s.name });
    // A provisional rating after the race shows "?".
    const shown = provisional ? `${after}\\?` : `${after}`;
    assert.match(await row.textContent(), new RegExp(`${before} → ${shown} ${change > 0 ? `\\+${change}` : change < 0 ? `−${-change}` : '±0'}`));
  }
  assert.notEqual(over.ratings[over.standings[0].player].after, over.ratings[over.standings[0].player].before);
  const winner = over.standings.find((s) => s.player === over.winner);
  assert.equal(await host.page.textContent('#results-title'), `${winner.name} wins — target reached`);
  // Both ask for a rematch: the next race starts in the same room, from move 0.
  for (const side of [host, guest]) {
    await side.page.locator('#rematch').waitFor();
    await side.page.click('#rematch');
  }
  for (const side of [host, guest]) {
    await side.page.waitForFunction(() => document.getElementById('results').hidden);
    await side.page.locator('#board .tile').first().waitFor();
    await side.page.waitForFunction(() => document.getElementById('moves').textContent === '0');
  }
  assert.equal(host.received.filter((m) => m.type === 'race_start').length, 2);
  for (const c of contexts) await c.close();
});

test('"+N" rises in dark ink that passes axe\'s contrast check while it shows', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const context = await env.browser.newContext({ ...SIZES.desktop, colorScheme, bypassCSP: true });
    const page = await enter(context, env.server.url, `gain-${colorScheme}`);
    await page.click('#new-game');
    await page.locator('#board .tile').first().waitFor();
    // Held where it starts to rise, so that it can be checked while it shows.
    await page.addStyleTag({ content: '.gain { animation-play-state: paused !important; }' });
    for (let i = 0; i < 300 && !(await page.textContent('#gain')); ++i) {
      const key = await movingKey(page);
      if (!key) break;
      await page.keyboard.press(key);
      await page.locator('#moves', { hasText: new RegExp(`^${i + 1}$`) }).waitFor();
    }
    assert.match(await page.textContent('#gain'), /^\+\d+$/);
    await injectAxe(page);
    const result = await page.evaluate(async () => {
      const r = await window.axe.run({ include: [['#gain']] }, { runOnly: ['color-contrast'] });
      const nodes = (list) => list.flatMap((x) => x.nodes.map((n) => n.target.join(' ')));
      return { passes: nodes(r.passes), violations: nodes(r.violations), incomplete: nodes(r.incomplete) };
    });
    assert.deepEqual(result, { passes: ['#gain'], violations: [], incomplete: [] }, colorScheme);
    await context.close();
  }
});

test('a spectator sees eight racers\' boards all at once, equal, as large as the screen allows', async () => {
  const context = await env.browser.newContext({ ...SIZES.desktop, bypassCSP: true });
  const page = await enter(context, env.server.url, 'octo-watch');
  // Eight racers on sockets of the page's own: a public room of eight, all ready.
  await installSockets(page);
  const code = await page.evaluate(async () => {
    const racers = [];
    for (let i = 0; i < 8; ++i) racers.push(await window.openSocket(`octo-${i}`));
    racers[0].send({ type: 'create_room', max_players: 8, public: true, size: 4 });
    const { room } = await racers[0].until('room');
    for (const r of racers.slice(1)) {
      r.send({ type: 'join_room', code: room.code });
      await r.until('room');
    }
    window.octo = racers;  // kept open for the test
    return room.code;
  });
  // Watched from the lobby's live races (the page stays: its sockets are the racers).
  await page.locator('#rooms li', { hasText: code }).locator('button', { hasText: 'Watch' }).click();
  await page.locator('#room-players li').nth(7).waitFor();
  await page.evaluate(() => { for (const r of window.octo) r.send({ type: 'ready' }); });
  await page.locator('.opponent').nth(7).waitFor();
  await page.locator('.opponent .board .tile').first().waitFor();
  assert.deepEqual(await layoutDefects(page), []);
  const boxes = await page.locator('.opponent .board').evaluateAll((boards) => boards.map((b) => b.getBoundingClientRect().toJSON()));
  assert.equal(boxes.length, 8);
  for (const b of boxes) {
    assert.equal(Math.round(b.width), Math.round(boxes[0].width), 'equal sizes');
    assert.ok(b.bottom <= 720 && b.right <= 1280, `all in sight: ${JSON.stringify(b)}`);
  }
  // As large as fits: the second row reaches down to the bottom of the screen (less a margin).
  assert.ok(Math.max(...boxes.map((b) => b.bottom)) >= 720 - 60, `as large as it fits: ${JSON.stringify(boxes[7])}`);
  await context.close();
});
