// Emotes in a race: one racer's reaction shows beside their board on the other's screen and
// the spectator's; muting is per viewer and kept across reloads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, race } from './harness.mjs';

const env = serveAndBrowse();

test('an emote shows beside the sender\'s board for the opponent and a spectator', async () => {
  const contexts = [await env.browser.newContext(), await env.browser.newContext(), await env.browser.newContext()];
  const host = await enter(contexts[0], env.server.url, 'host');
  const guest = await enter(contexts[1], env.server.url, 'visitor');
  const code = await race(host, guest);
  const watcher = await enter(contexts[2], `${env.server.url}/?watch=${code}`, 'watcher');
  await watcher.locator('.opponent').nth(1).waitFor();
  assert.equal(await watcher.locator('#emotes').isHidden(), true);  // spectators only watch
  await host.click('#emotes button[data-emote="gg"]');
  for (const page of [guest, watcher]) {
    await page.locator('.opponent .emote-bubble', { hasText: 'Good game' }).first().waitFor();
    assert.match(await page.textContent('#announce'), /^host: good game$/);
  }
  await host.locator('.main-board .emote-bubble', { hasText: 'Good game' }).waitFor();  // and your own
  // The guest mutes emotes: kept after a reload.
  await guest.check('#mute-emotes');
  await guest.reload();
  await guest.locator('#board .tile').first().waitFor();
  assert.equal(await guest.isChecked('#mute-emotes'), true);
  for (const c of contexts) await c.close();
});
