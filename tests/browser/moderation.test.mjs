// The operator console in the browser: banning a player who is racing in another browser
// context — the player sees why and is not reconnected, the other racer's race goes on to its
// end, and the console's audit log shows the ban.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveAndBrowse, enter, race } from './harness.mjs';

const token = 'a-console-token-for-the-browser-test-0123456789';
const tokenFile = join(mkdtempSync(join(tmpdir(), 'tilerace-admin-')), 'token');
writeFileSync(tokenFile, `${token}\n`);
const env = serveAndBrowse(['--admin-token-file', tokenFile, '--grace', '2']);

test('the console bans a racing player: they are told and stay out; the audit log shows it', async () => {
  const rita = await enter(await env.browser.newContext(), env.server.url, 'rita-b');
  const sam = await enter(await env.browser.newContext(), env.server.url, 'sam-b');
  await race(rita, sam);

  const console = await (await env.browser.newContext()).newPage();
  console.setDefaultTimeout(10000);
  await console.goto(`${env.server.url}/admin`);
  await console.fill('#token', token);
  await console.click('#token-form button');
  await console.locator('#desk').waitFor();
  await console.fill('#search', 'rita');
  await console.click('#search-form button');
  await console.locator('#found li', { hasText: 'rita-b' }).locator('button', { hasText: 'open' }).click();
  await console.locator('#player-name', { hasText: 'rita-b' }).waitFor();
  await console.fill('#ban-reason', 'abusive name');
  await console.click('#ban-form button[type=submit]');
  await console.locator('#console-notice', { hasText: 'Banned.' }).waitFor();
  await console.locator('#player-facts', { hasText: 'banned until lifted — abusive name' }).waitFor();
  // The search's list says so too (read again after the action).
  await console.locator('#found li', { hasText: 'rita-b' }).filter({ hasText: 'banned until lifted' }).waitFor();
  await console.locator('#audit li', { hasText: 'operator · ban' }).waitFor();

  // Rita is told why, and her page does not try to come back.
  await rita.locator('#notice', { hasText: 'you are banned: abusive name' }).waitFor();
  await rita.locator('#status', { hasText: 'banned by the operator' }).waitFor();
  // Sam's race ends by forfeit once her grace (2 s) is over.
  await sam.locator('#results h2', { hasText: 'sam-b wins — by forfeit' }).waitFor();
  assert.equal(await rita.locator('#status').textContent(), 'banned by the operator');
});
