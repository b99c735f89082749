// The web client against two nodes of a cluster (one PostgreSQL, one Redis): an invite link
// that reaches the node without the room follows the redirect to the node that has it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, enter } from './harness.mjs';
import { startPostgres, startRedis } from './services.mjs';

let pg, redis, a, b, chrome;
before(async () => {
  pg = await startPostgres();
  redis = await startRedis();
  const database = pg.createDatabase();
  const node = (name) => startServer(['--database', database, '--redis', redis.url, '--node-name', name]);
  a = await node('a');
  b = await node('b');
  for (const n of [a, b]) await inCluster(n);
  chrome = await launchBrowser();
});
after(async () => {
  await chrome?.close();
  await a?.stop();
  await b?.stop();
  await redis?.stop();
  pg?.stop();
});

// Resolves once the node says it is healthy: in cluster mode, its first heartbeat went through.
async function inCluster(server) {
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    const health = await (await fetch(`${server.url}/healthz`)).json();
    if (health.status === 'ok') return;
    await new Promise((resolve) => setTimeout(resolve, 50));  // polling interval, bounded above
  }
  throw new Error(`${server.url} did not join the cluster`);
}

async function metric(server, name) {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)[1]);
}

test('an invite link to the other node joins the room where it is hosted', async () => {
  const hostContext = await chrome.browser.newContext();
  const guestContext = await chrome.browser.newContext();
  const host = await enter(hostContext, a.url, 'host');
  await host.click('#create-room');
  await host.locator('#room-code').filter({ hasText: /^[A-Z2-9]{6}$/ }).waitFor();
  const code = (await host.locator('#room-code').textContent()).trim();

  // The link names node b, which has no such room: b redirects, the page follows.
  const guest = await enter(guestContext, `${b.url}/?room=${code}`, 'visitor');
  await guest.locator('#room-code', { hasText: code }).waitFor();
  await guest.locator('#room-players li').nth(1).waitFor();
  await host.locator('#room-players li').nth(1).waitFor();
  assert.equal(await metric(b, 'tilerace_redirects_total'), 1);
  assert.equal(await guest.locator('#notice').isHidden(), true);  // nothing for the player to do

  // They race on a, as in one world.
  await host.click('#ready');
  await guest.click('#ready');
  await guest.locator('#board .tile').first().waitFor();
  await host.locator('#board .tile').first().waitFor();
  for (const c of [hostContext, guestContext]) await c.close();
});
