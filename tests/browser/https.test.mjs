// The web client over native TLS: the page comes over https with the security headers, opens
// its socket over wss (an https page may not open ws://), and two players race through an
// invite link. The certificate is a throwaway one made here with openssl.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveAndBrowse, enter, boardOf } from './harness.mjs';

const dir = mkdtempSync(join(tmpdir(), 'tilerace-https-'));
execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
  '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2',
  '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
const env = serveAndBrowse(['--tls-cert', join(dir, 'cert.pem'), '--tls-key', join(dir, 'key.pem')]);

test('over https the page opens wss and two players race through an invite link', async () => {
  assert.match(env.server.url, /^https:/);
  const hostContext = await env.browser.newContext({ ignoreHTTPSErrors: true });
  const guestContext = await env.browser.newContext({ ignoreHTTPSErrors: true });
  const sockets = [];
  for (const context of [hostContext, guestContext]) {
    context.on('page', (page) => page.on('websocket', (ws) => sockets.push(ws.url())));
  }
  const probe = await hostContext.newPage();
  const response = await probe.goto(env.server.url);
  assert.equal(response.headers()['strict-transport-security'], 'max-age=31536000');
  await probe.close();

  const host = await enter(hostContext, env.server.url, 'tls-host');
  await host.click('#create-room');
  await host.locator('#room-code').filter({ hasText: /^[A-Z2-9]{6}$/ }).waitFor();
  const code = (await host.locator('#room-code').textContent()).trim();
  const guest = await enter(guestContext, `${env.server.url}/?room=${code}`, 'tls-guest');
  await host.locator('#room-players li').nth(1).waitFor();
  await host.click('#ready');
  await guest.click('#ready');
  await host.locator('#countdown').waitFor({ state: 'hidden' });
  await guest.locator('#board .tile').first().waitFor();
  await host.locator('#board .tile').first().waitFor();
  assert.deepEqual(await boardOf(host), await boardOf(guest));  // the same spawns

  assert.ok(sockets.length >= 2);
  for (const url of sockets) assert.match(url, /^wss:\/\/127\.0\.0\.1:\d+\/ws$/);
  await hostContext.close();
  await guestContext.close();
});
