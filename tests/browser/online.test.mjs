// The client at a distance: the browser plays through a relay (relay.mjs) that delays,
// jitters and stalls the traffic. Keys are answered on the board at once (prediction.js),
// nothing clicked or pressed is lost or applied twice, and a stall forfeits nobody.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, boardOf, movingKey, answered, settled, watchLatency } from './harness.mjs';
import { startRelay } from './relay.mjs';
import { newGame, rows, replayFrames, LETTERS } from '../../web-client/js/engine.js';

const env = serveAndBrowse();
let relay = null;
const far = () => `http://127.0.0.1:${relay.port}`;
// The relay to this file's server, at the round trip (and jitter) given.
async function distance(roundTrip, jitter = 0) {
  relay ??= await startRelay(Number(new URL(env.server.url).port));
  relay.setRoundTrip(roundTrip, jitter);
}
after(async () => { await relay?.close(); });

const KEYS = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' };

// The replay of the game shown, once it is over: New game ends it as resigned.
async function resignAndReplay(page) {
  const id = await page.locator('#board').getAttribute('data-game');
  await page.click('#play-new-game');
  if (await page.locator('#confirm').isVisible()) await page.click('#confirm-yes');
  await page.waitForFunction((old) => document.querySelector('#board').dataset.game !== old, id);
  const res = await page.request.get(`${env.server.url}/api/replays/${id}`);
  assert.equal(res.status(), 200);
  return res.json();
}

// Every key pressed, applied once and in order to the game's seed: the moves that changed the
// board must be exactly the server's (none lost, none doubled, none reordered).
function assertEachKeyOnce(replay, pressed) {
  const game = newGame({ mode: replay.mode, size: replay.size, target: replay.target, seed: BigInt(replay.seed) });
  let letters = '';
  for (const dir of pressed) if (game.move(dir)) letters += dir[0].toUpperCase();
  assert.equal(replay.moves, letters);
  return rows(game);
}

async function soloGame(context, name) {
  const page = await enter(context, far(), name);
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  await answered(page);
  return page;
}

test('at 200 ms round trip each key changes the board within 50 ms (p90 of 40 keys)', async () => {
  await distance(200);
  const context = await env.browser.newContext();
  const page = await soloGame(context, 'far-keys');
  await watchLatency(page);
  for (let i = 0; i < 40; ++i) {
    const key = await movingKey(page);
    if (!key) break;
    await page.keyboard.press(key);
    await page.waitForFunction((n) => window.latencies.length >= n, i + 1);
    await settled(page);  // one by one: each key once the last is answered and drawn
  }
  const latencies = (await page.evaluate(() => window.latencies)).sort((a, b) => a - b);
  assert.ok(latencies.length >= 20, `only ${latencies.length} keys moved`);
  const p90 = latencies[Math.ceil(latencies.length * 0.9) - 1];
  assert.ok(p90 <= 50, `p90 ${p90.toFixed(1)} ms over ${latencies.length} keys: ${latencies.map((v) => v.toFixed(0))}`);
  await context.close();
});

test('30 keys back to back (faster than a key repeats), with jitter: the board and score shown are the server\'s, every key once', async () => {
  await distance(200, 100);
  const context = await env.browser.newContext();
  const page = await soloGame(context, 'far-fast');
  const pressed = [];
  const pattern = ['down', 'left', 'down', 'right', 'left', 'left', 'down', 'up', 'right', 'down'];
  for (let i = 0; i < 30; ++i) {
    pressed.push(pattern[i % pattern.length]);
    await page.keyboard.press(KEYS[pressed.at(-1)]);  // the next at once: none waits for the server
  }
  await answered(page);
  const shown = await boardOf(page);
  const score = Number(await page.textContent('#score'));
  const replay = await resignAndReplay(page);
  const board = assertEachKeyOnce(replay, pressed);
  const { frames } = replayFrames(replay);
  assert.deepEqual(shown, frames.at(-1).board);
  assert.deepEqual(shown, board);
  assert.equal(score, frames.at(-1).score);
  await context.close();
});

test('New game, Create a room and Find an opponent clicked before the socket opens all work', async () => {
  await distance(200);
  for (const [button, done] of [
    ['#new-game', '#board .tile'],
    ['#create-room', '#room-code:text-matches("^[A-Z2-9]{6}$")'],
    ['#quick-match', '#matching:visible'],
  ]) {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15000);
    await page.goto(far());
    await page.fill('#name-input', `early-${button.slice(1)}`);
    relay.stall(4000);  // the socket cannot open for 4 s: whatever the clicks take, they come first
    await page.click('#name-form button');
    await page.click(button);
    assert.equal(await page.textContent('#status'), 'connecting…', 'the click came before the socket opened');
    await page.locator(done).first().waitFor();
    await context.close();
  }
});

test('a 3 s stall mid-race: no move lost or doubled, and no forfeit', async () => {
  await distance(100, 50);
  const farContext = await env.browser.newContext();
  const nearContext = await env.browser.newContext();
  const ann = await enter(farContext, far(), 'stall-ann');
  await ann.click('#create-room');
  await ann.locator('#room-code').filter({ hasText: /^[A-Z2-9]{6}$/ }).waitFor();
  const code = (await ann.locator('#room-code').textContent()).trim();
  const bob = await enter(nearContext, `${env.server.url}/?room=${code}`, 'stall-bob');
  await ann.locator('#room-players li').nth(1).waitFor();
  await ann.click('#ready');
  await bob.click('#ready');
  await ann.locator('#board .tile').first().waitFor();
  await answered(ann);
  const pressed = [];
  const press = async () => {
    const key = await movingKey(ann);
    const dir = Object.keys(KEYS).find((d) => KEYS[d] === (key ?? 'ArrowDown'));
    pressed.push(dir);
    await ann.keyboard.press(KEYS[dir]);
  };
  for (let i = 0; i < 5; ++i) { await press(); await answered(ann); }
  relay.stall(3000);
  await press();
  assert.notEqual(await ann.getAttribute('#board', 'data-pending'), '0', 'the move is held by the stall');
  for (let i = 0; i < 11; ++i) await press();  // more keys while it lasts, back to back
  await answered(ann);
  for (let i = 0; i < 5; ++i) { await press(); await answered(ann); }
  // Bob sees Ann's board as Ann does, and Ann is racing still.
  const annBoard = await boardOf(ann);
  await bob.waitForFunction((want) => [...document.querySelectorAll('.opponent .board')]
    .some((b) => b.dataset.board === want), JSON.stringify(annBoard));
  assert.equal(await bob.locator('.opponent.away').count(), 0);
  assert.equal(await ann.locator('#results').isVisible(), false);
  await ann.locator('#rtt-value').filter({ hasText: /^\d+ ms$/ }).waitFor();  // her round trip, from pings
  // Bob's connection goes: Ann sees him reconnecting, with the grace he has left.
  await nearContext.close();
  await ann.locator('.opponent.away .racer-head', { hasText: /reconnecting… \d+ s/ }).waitFor();
  // Ann leaves: the race is over and her replay has each key once.
  const gameId = await ann.getAttribute('#board', 'data-game');
  await ann.click('#leave');
  const deadline = Date.now() + 10000;  // the race is over once it is recorded: asked every 100 ms
  let res;
  while ((res = await ann.request.get(`${env.server.url}/api/replays/${gameId}`)).status() !== 200) {
    assert.ok(Date.now() < deadline, `no replay of ${gameId}: ${res.status()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assertEachKeyOnce(await res.json(), pressed);
  await farContext.close();
});
