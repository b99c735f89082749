// Sound: off until the player turns it on, then moves make tones (WebAudio oscillators,
// counted by the test); the choice survives a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, settled, movingKey } from './harness.mjs';

const env = serveAndBrowse();

test('sound is off by default, plays once turned on, and stays on after a reload', async () => {
  const context = await env.browser.newContext();
  // Count the tones the page starts.
  await context.addInitScript(() => {
    window.tones = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args) {
      window.tones += 1;
      return start.apply(this, args);
    };
  });
  const page = await enter(context, env.server.url, 'listener');
  assert.equal(await page.textContent('#sound'), 'Sound: off');
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  await settled(page);
  await page.keyboard.press(await movingKey(page));
  await page.locator('#moves', { hasText: /^1$/ }).waitFor();
  assert.equal(await page.evaluate(() => window.tones), 0);
  await page.click('#sound');
  assert.equal(await page.textContent('#sound'), 'Sound: on');
  await settled(page);
  await page.keyboard.press(await movingKey(page));
  await page.waitForFunction(() => window.tones > 0);  // the move's slide or merge
  await page.reload();
  await page.locator('#board .tile').first().waitFor();
  assert.equal(await page.textContent('#sound'), 'Sound: on');
  await context.close();
});
