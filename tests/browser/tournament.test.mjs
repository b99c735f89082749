// A tournament in the browser: eight players join a single elimination by its link, the host
// starts it, every match is raced (the player numbered higher leaves it: a forfeit), and the
// bracket and the podium show the winner; three race a Swiss all against all in rooms of three.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, screenshot } from './harness.mjs';

// Eight browsers on one address: more connections than one address may open by default.
const env = serveAndBrowse(['--max-connections-per-ip', '0']);

// Plays page's matches (page is player `me`) until the podium shows: once a race is up, everyone
// but the best-numbered racer of the room leaves it (a forfeit). A race starts with the room
// full, but a page may first see it once another racer has already left: it goes by the racers
// still there, and leaves if one of them is numbered better.
async function playMatches(page, me) {
  for (;;) {
    const handle = await page.waitForFunction(() => {
      const names = [...document.querySelectorAll('#room-players li')].map((li) => li.textContent);
      const racing = !document.querySelector('#board').closest('.main-board').hidden;  // my race game is up
      if (document.body.dataset.view === 'play' && names.length > 0 && racing) {
        return JSON.stringify({ match: names, room: document.querySelector('#room-code').textContent });
      }
      if (document.body.dataset.view === 'tournament' && !document.querySelector('#tournament-podium').hidden) {
        return JSON.stringify({ over: true });
      }
      return false;
    }, undefined, { timeout: 60000, polling: 50 });
    const seen = JSON.parse(await handle.jsonValue());
    if (seen.over) return;
    if (seen.match.some((t) => Number(/(\d)/.exec(t)[1]) < me)) await page.click('#leave');
    // The match is decided once the page is back on the tournament's screen (the loser at
    // once), or already in its next match's room.
    await page.waitForFunction((room) => document.body.dataset.view !== 'play' ||
      document.querySelector('#room-code').textContent !== room, seen.room, { timeout: 60000 });
  }
}

test('eight players join a single elimination by link, play it out, and the bracket shows the winner', async () => {
  const contexts = await Promise.all(Array.from({ length: 8 }, () => env.browser.newContext()));
  try {
    const host = await enter(contexts[0], env.server.url, 'player0');
    await host.selectOption('#tournament-format', 'single_elimination');
    await host.click('#create-tournament');
    await host.locator('#tournament-title').filter({ hasText: /^Tournament [A-Z2-9]{6}$/ }).waitFor();
    const code = (await host.locator('#tournament-title').textContent()).slice('Tournament '.length);
    const pages = [host];
    for (let i = 1; i < 8; ++i) {
      const page = await enter(contexts[i], `${env.server.url}/?tournament=${code}`, `player${i}`);
      await page.locator('#tournament-title').filter({ hasText: code }).waitFor();
      await host.locator('#tournament-players tr').nth(i).waitFor();  // joined in this order
      pages.push(page);
    }
    assert.equal(await host.locator('#tournament-players tr').count(), 8);
    assert.equal(await pages[3].locator('#tournament-start').isHidden(), true, 'only the host starts it');
    await host.click('#tournament-start');
    await Promise.all(pages.map((page, i) => playMatches(page, i)));

    await host.locator('#tournament-podium li').first().filter({ hasText: 'player0' }).waitFor();
    const final = host.locator('#tournament-bracket g.match[data-round="3"]');
    assert.equal(await final.locator('text.winner').textContent(), 'player0');
    assert.equal(await host.locator('#tournament-bracket g.match.done').count(), 7, 'every match raced');
    assert.match(await host.locator('#tournament-summary').textContent(), /finished/);
    assert.equal(await host.locator('#notice').textContent(), 'player0 won the match', 'the final was raced');
    await screenshot(host, 'tournament', { fullPage: true });
  } finally {
    await Promise.all(contexts.map((c) => c.close()));
  }
});

test('three players race a Swiss all against all in rooms of three', async () => {
  const contexts = await Promise.all(Array.from({ length: 3 }, () => env.browser.newContext()));
  try {
    const host = await enter(contexts[0], env.server.url, 'swiss0');
    assert.equal(await host.locator('#tournament-rooms-label').isHidden(), true, 'a knockout is 1-on-1');
    await host.selectOption('#tournament-format', 'swiss');
    await host.selectOption('#tournament-rooms', '3');
    await host.click('#create-tournament');
    await host.locator('#tournament-summary').filter({ hasText: 'in rooms of 3' }).waitFor();
    const code = (await host.locator('#tournament-title').textContent()).slice('Tournament '.length);
    const pages = [host];
    for (let i = 1; i < 3; ++i) {
      const page = await enter(contexts[i], `${env.server.url}/?tournament=${code}`, `swiss${i}`);
      await host.locator('#tournament-players tr').nth(i).waitFor();
      pages.push(page);
    }
    await host.click('#tournament-start');
    await Promise.all(pages.map((page, i) => playMatches(page, i)));

    await host.locator('#tournament-podium li').first().filter({ hasText: 'swiss0' }).waitFor();
    const lines = await host.locator('#tournament-matches li').allTextContents();
    assert.equal(lines.length, 5, 'five rounds, one room each');
    for (const line of lines) assert.match(line, /swiss0 – swiss1 – swiss2 · swiss0 won$/);
  } finally {
    await Promise.all(contexts.map((c) => c.close()));
  }
});
