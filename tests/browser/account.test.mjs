// Accounts in the browser: a guest keeps their name with a password, a second browser signs in
// with it, a third is linked with a code from the second, and all three are the same player
// with the same profile; the sessions list shows the three devices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter } from './harness.mjs';

const env = serveAndBrowse();

async function openOwnProfile(page) {
  await page.click('#me');
  await page.locator('#account').waitFor();
}

test('claim a name, sign in from a second browser, link a third with a code', async () => {
  const first = await env.browser.newContext();
  const second = await env.browser.newContext();
  const third = await env.browser.newContext();

  const a = await enter(first, env.server.url, 'Ada Lovelace');
  await openOwnProfile(a);
  await a.fill('#register-password', 'analytical engine');
  await a.click('#register-form button');
  await a.locator('#registered-note').waitFor();
  assert.equal(await a.locator('#register-form').isHidden(), true);

  const b = await second.newPage();
  b.setDefaultTimeout(10000);
  await b.goto(env.server.url);
  await b.fill('#sign-in-name', 'ada lovelace');  // any case
  await b.fill('#sign-in-password', 'analytical engine');
  await b.click('#sign-in-form button');
  await b.locator('#me').filter({ hasText: 'Ada Lovelace' }).waitFor();
  await openOwnProfile(b);
  await b.click('#link-device');
  const said = await b.locator('#link-code').filter({ hasText: /enter [A-Z2-9]{8}/ }).textContent();
  const code = said.match(/enter ([A-Z2-9]{8})/)[1];
  assert.match(said, new RegExp(`/\\?link=${code}`));

  const c = await third.newPage();
  c.setDefaultTimeout(10000);
  await c.goto(`${env.server.url}/?link=${code}`);
  await c.locator('#me').filter({ hasText: 'Ada Lovelace' }).waitFor();
  assert.equal(new URL(c.url()).searchParams.get('link'), null);  // spent: gone from the address
  await openOwnProfile(c);
  await c.locator('#sessions li').nth(2).waitFor();
  const lines = await c.locator('#sessions li').allTextContents();
  assert.equal(lines.length, 3);
  assert.equal(lines.filter((l) => l.endsWith('(this device)')).length, 1);

  // One player: every page shows the same profile.
  for (const page of [b, c]) {
    assert.equal(await page.locator('#profile-name').textContent(), 'Ada Lovelace');
  }
  // A new name, once: every signed-in page of the player shows it after its next welcome.
  await c.fill('#rename-input', 'Countess Ada');
  await c.click('#rename-form button');
  await c.locator('#me').filter({ hasText: 'Countess Ada' }).waitFor();
  // Sign out the others: this device alone stays.
  await c.click('#sign-out-others');
  await c.locator('#sessions li').nth(1).waitFor({ state: 'detached' });
  assert.equal(await c.locator('#sessions li').count(), 1);
  for (const context of [first, second, third]) await context.close();
});

test('a taken name and a wrong password are said on the name screen', async () => {
  const context = await env.browser.newContext();
  await enter(context, env.server.url, 'Grace');
  const other = await env.browser.newContext();
  const page = await other.newPage();
  page.setDefaultTimeout(10000);
  await page.goto(env.server.url);
  await page.fill('#name-input', 'GRACE');
  await page.click('#name-form button');
  await page.locator('#notice').filter({ hasText: 'name_taken' }).waitFor();
  await page.locator('#name-screen').waitFor();  // back to choose another
  // A look-alike in Cyrillic letters among Latin ones: refused, and the screen says why.
  await page.fill('#name-input', 'Gr\u0430ce');
  await page.click('#name-form button');
  await page.locator('#notice').filter({ hasText: 'one script' }).waitFor();
  await page.locator('#name-screen').waitFor();
  await page.fill('#sign-in-name', 'Grace');
  await page.fill('#sign-in-password', 'not her password');
  await page.click('#sign-in-form button');
  await page.locator('#notice').filter({ hasText: 'bad_credentials' }).waitFor();
  await page.locator('#name-screen').waitFor();
  await context.close();
  await other.close();
});
