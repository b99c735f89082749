// The installed app: the manifest and service worker meet Chromium's install criteria; after
// one visit the page opens with the server's process stopped and a practice game plays; the
// lobby comes back by itself with the server; a new version is offered, never forced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, launchProfile, enter, movingKey, drawnBoard, boardOf, screenshot } from './harness.mjs';

const webClient = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web-client');

// Resolves once a service worker controls the page (the first visit: once it has claimed it).
async function controlled(page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
}

// The test's own server (with options for startServer) and Chromium (a context with
// contextOptions), both stopped when the test ends.
async function setUp(t, options, contextOptions = {}) {
  const server = await startServer([], options);
  const chrome = await launchBrowser();
  t.after(async () => { await chrome.close(); await server.stop(); });
  return { server, context: await chrome.browser.newContext(contextOptions) };
}
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

test('the manifest is linked and parses, the service worker controls the page, and Chromium finds it installable', async (t) => {
  const server = await startServer();
  const profile = await launchProfile();  // a person's profile: an incognito one never installs
  t.after(async () => { await profile.close(); await server.stop(); });
  const { context } = profile;
  const page = await enter(context, server.url, 'installer');
  await controlled(page);
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector('link[rel="manifest"]');
    return (await fetch(link.href)).json();
  });
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.start_url, '/');
  for (const size of ['192x192', '512x512']) {
    const icon = manifest.icons.find((i) => i.sizes === size);
    assert.ok(icon?.purpose.split(' ').includes('maskable'), `a maskable ${size} icon`);
    // The icon is a PNG of the size it claims.
    const drawn = await page.evaluate(async (src) => {
      const bitmap = await createImageBitmap(await (await fetch(src)).blob());
      return `${bitmap.width}x${bitmap.height}`;
    }, icon.src);
    assert.equal(drawn, size);
  }
  assert.ok(manifest.icons.some((i) => i.type === 'image/svg+xml'), 'an SVG icon');
  // Chromium's own reading: the manifest as it parsed it, and what (nothing) stops an install.
  const cdp = await context.newCDPSession(page);
  const parsed = await cdp.send('Page.getAppManifest');
  assert.deepEqual(parsed.errors, []);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors, []);
});

test('with the server stopped, a reload opens the page and a practice game plays to a merge; the lobby comes back with the server', async (t) => {
  const { server, context } = await setUp(t, {}, PHONE);  // on a phone, where it matters most
  const page = await enter(context, server.url, 'traveller');
  await controlled(page);
  await server.restart(async () => {
    await page.reload();  // served by the worker: no server answers
    await page.locator('#offline').waitFor();
    assert.match(await page.locator('#offline').textContent(), /Offline/);
    await page.click('#practice-offline');
    await page.locator('#practice-mark').waitFor();
    assert.equal(await page.locator('#best-box').isVisible(), true, 'a local best');
    // Moves until two tiles merge (the score rises), each drawn as the engine says.
    for (let i = 0; i < 200 && Number(await page.locator('#score').textContent()) === 0; i++) {
      const key = await movingKey(page);
      assert.ok(key, 'a move is left before any merge');
      await page.keyboard.press(key);
      await page.waitForFunction((n) => Number(document.getElementById('moves').textContent) === n, i + 1);
    }
    assert.ok(Number(await page.locator('#score').textContent()) > 0, 'a merge scored');
    assert.deepEqual(await drawnBoard(page), await boardOf(page));
    assert.equal(await page.locator('#offline').isVisible(), true, 'still offline');
    await screenshot(page, 'offline-practice');
  });
  // The server is back: the page reconnects by itself (welcomed: my name in the header), the
  // notice goes, and the lobby works again.
  await page.locator('#me').filter({ hasText: 'traveller' }).waitFor({ timeout: 20000 });
  assert.equal(await page.locator('#offline').isHidden(), true);
  await page.click('#back');
  await page.click('#create-room');
  await page.locator('#room-code').filter({ hasText: /^[A-Z2-9]{6}$/ }).waitFor();
  assert.equal(await page.locator('#practice-mark').isHidden(), true);
  await context.close();
});

test('a new version is offered, not forced: the game goes on until the player reloads', async (t) => {
  const webRoot = mkdtempSync(join(tmpdir(), 'tilerace-web-'));
  t.after(() => rmSync(webRoot, { recursive: true, force: true }));
  cpSync(webClient, webRoot, { recursive: true });
  const { server, context } = await setUp(t, { webRoot });
  const page = await enter(context, server.url, 'updater');
  await controlled(page);
  await page.click('#practice');
  const key = await movingKey(page);
  await page.keyboard.press(key);
  await page.locator('#moves').filter({ hasText: /^1$/ }).waitFor();
  await page.evaluate(() => { window.sameDocument = true; });
  // The next version: another shell, so another VERSION (the page's worker checks, as it would
  // on its own on the next navigation or within a day).
  const sw = join(webRoot, 'sw.js');
  writeFileSync(sw, readFileSync(sw, 'utf8').replace(/const VERSION = '[0-9a-f]+';/, "const VERSION = 'next';"));
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
  await page.locator('#update').waitFor();
  // Offered: the new worker waits, the old one still serves this page, the game is as it was.
  const waiting = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return { waiting: registration.waiting?.state, caches: await caches.keys(), same: window.sameDocument === true };
  });
  assert.equal(waiting.waiting, 'installed');
  assert.equal(waiting.same, true);
  assert.ok(waiting.caches.includes('tilerace-next'), 'the new shell is cached beside the old');
  assert.equal(await page.locator('#moves').textContent(), '1');
  assert.equal(await page.locator('#practice-mark').isVisible(), true);
  // Taken only when the player says so: the page reloads into the new version.
  await page.click('#update-reload');
  await page.waitForFunction(() => window.sameDocument === undefined && document.getElementById('me')?.textContent === 'updater');
  await page.waitForFunction(async () => JSON.stringify(await caches.keys()) === '["tilerace-next"]');
  assert.equal(await page.locator('#update').isHidden(), true);
  await context.close();
});
