// The operator console in the browser: a moderator made with the owner's token signs in, sets
// up an authenticator and signs in again with its code; then bans a player who is racing in
// another browser context — the player sees why and is not reconnected, the other racer's race
// goes on to its end, and the console's audit log names the moderator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveAndBrowse, enter, race } from './harness.mjs';

const token = 'a-console-token-for-the-browser-test-0123456789';
const tokenFile = join(mkdtempSync(join(tmpdir(), 'tilerace-admin-')), 'token');
writeFileSync(tokenFile, `${token}\n`);
const env = serveAndBrowse(['--admin-token-file', tokenFile, '--grace', '2']);

// An authenticator app's code (RFC 6238: HMAC-SHA1, 6 digits) for a base32 secret at a step.
function totp(secret, step) {
  let bits = '';
  for (const c of secret) bits += 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[19] & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1000000).padStart(6, '0');
}

test('the console bans a racing player: they are told and stay out; the audit log shows it', async () => {
  const rita = await enter(await env.browser.newContext(), env.server.url, 'rita-b');
  const sam = await enter(await env.browser.newContext(), env.server.url, 'sam-b');
  await race(rita, sam);

  const made = await fetch(`${env.server.url}/admin/api/create_operator`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'mia', password: 'desk-password-8137', role: 'moderator' }),
  });
  assert.equal(made.status, 200);

  const console = await (await env.browser.newContext()).newPage();
  console.setDefaultTimeout(10000);
  await console.goto(`${env.server.url}/admin`);
  const signIn = async () => {
    await console.fill('#operator-name', 'mia');
    await console.fill('#operator-password', 'desk-password-8137');
    await console.click('#sign-in-form button[type=submit]');
  };
  await signIn();
  await console.locator('#whoami', { hasText: 'Signed in as mia (moderator)' }).waitFor();
  // The authenticator: the secret shown, its code confirmed; sign-in asks for a code from then.
  await console.click('#enrol');
  // The secret is shown once the server's answer is in (the click does not wait for it).
  await console.locator('#totp-secret').filter({ hasText: /\S/ }).waitFor();
  const secret = await console.locator('#totp-secret').textContent();
  assert.match(await console.locator('#totp-uri').getAttribute('href'), new RegExp(`^otpauth://totp/tilerace:mia\\?secret=${secret}&`));
  const step = Math.floor(Date.now() / 30000);
  await console.fill('#totp-code', totp(secret, step));
  await console.click('#totp-form button');
  await console.locator('#console-notice', { hasText: 'Your authenticator is set up' }).waitFor();
  await console.click('#sign-out');
  await signIn();
  await console.locator('#console-notice', { hasText: 'totp_required' }).waitFor();
  await console.fill('#operator-totp', totp(secret, step + 1));  // the confirming step's is used
  await console.click('#sign-in-form button[type=submit]');
  await console.locator('#whoami', { hasText: 'Signed in as mia (moderator)' }).waitFor();
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
  await console.locator('#audit li', { hasText: 'mia (moderator) · ban rita-b' }).waitFor();
  await console.locator('#operators li', { hasText: 'mia · moderator · authenticator on · 1 session' }).waitFor();

  // Rita is told why, and her page does not try to come back.
  await rita.locator('#notice', { hasText: 'you are banned: abusive name' }).waitFor();
  await rita.locator('#status', { hasText: 'banned by the operator' }).waitFor();
  // Sam's race ends by forfeit once her grace (2 s) is over.
  await sam.locator('#results h2', { hasText: 'sam-b wins — by forfeit' }).waitFor();
  assert.equal(await rita.locator('#status').textContent(), 'banned by the operator');
});
