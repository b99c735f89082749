// The web client as served, under the server's Content-Security-Policy: the headers are on the
// page, and playing a game, racing with a spectator and opening a profile trip no violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, settled } from './harness.mjs';

const env = serveAndBrowse();

// A page that records every CSP violation it sees, from before its first script runs.
async function watched(context, name, url = env.server.url) {
  await context.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return enter(context, url, name);
}

test('the page carries the security headers and runs under its policy with no violation', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(env.server.url);
  const headers = response.headers();
  assert.match(headers['content-security-policy'], /^default-src 'self'; connect-src 'self' /);
  assert.match(headers['content-security-policy'], /frame-ancestors 'none'/);
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['referrer-policy'], 'no-referrer');
  await page.close();

  // A solo game.
  const solo = await watched(context, 'csp-solo');
  await solo.click('#new-game');
  await solo.locator('#board .tile').first().waitFor();
  for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown']) await solo.keyboard.press(key);
  await solo.locator('#moves').filter({ hasText: /^[1-9]/ }).waitFor();
  await settled(solo);

  // A race from an invite link: sockets, sounds and animations all run.
  const hostContext = await env.browser.newContext();
  const host = await watched(hostContext, 'csp-host');
  await host.click('#create-room');
  await host.locator('#room-code').filter({ hasText: /^[A-Z2-9]{6}$/ }).waitFor();
  const code = (await host.locator('#room-code').textContent()).trim();
  const guestContext = await env.browser.newContext();
  const guest = await watched(guestContext, 'csp-guest', `${env.server.url}/?room=${code}`);
  await host.locator('#room-players li').nth(1).waitFor();
  await host.click('#ready');
  await guest.click('#ready');
  await host.locator('#countdown').waitFor({ state: 'visible' });
  await host.locator('#countdown').waitFor({ state: 'hidden' });
  await guest.locator('#board .tile').first().waitFor();
  for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown']) await guest.keyboard.press(key);

  // The leaderboards, from the lobby.
  const boardsContext = await env.browser.newContext();
  const boards = await watched(boardsContext, 'csp-boards');
  await boards.click('#board-rating');
  await boards.locator('#leaderboard').waitFor();

  for (const page of [solo, host, guest, boards]) {
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
  }
  for (const c of [context, hostContext, guestContext, boardsContext]) await c.close();
});
