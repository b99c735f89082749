// `make bench-latency`: how fast a key shows on the board at a distance, and how long the
// server takes from a move's frame to its `moved`.
//
// 1. Key → first change of the tiles drawn, in Chromium playing through the relay of the
//    browser tests (tests/browser/relay.mjs) at 0, 100, 200 and 300 ms round trip: KEYS keys
//    one by one (each once the last is answered and drawn), with prediction (the client as shipped) and
//    without (?predict=0, every key waiting for its `moved`). p50 and p90 of each.
// 2. The server's frame → `moved` time (tilerace_move_reply_seconds) under the race load of
//    `make bench` at half of the peak move rate: PLAYERS players, DURATION s, p50 and p99
//    read off the histogram's buckets over that window.
// Talks only to 127.0.0.1; the server and Chromium it starts are stopped at the end.
// Usage: BUILD=build node bench/latency.mjs
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, enter, movingKey, settled, watchLatency } from '../tests/browser/harness.mjs';
import { startRelay } from '../tests/browser/relay.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = process.env.BUILD ?? 'build';
const KEYS = Number(process.env.KEYS ?? 40);
const PLAYERS = Number(process.env.PLAYERS ?? 1000);
const DURATION = Number(process.env.DURATION ?? 20);
const ROUND_TRIPS = [0, 100, 200, 300];

const quantile = (sorted, q) => sorted[Math.max(0, Math.ceil(sorted.length * q) - 1)];

// KEYS keys, each once the board is the server's; returns the sorted key → change times (ms).
async function keyLatencies(browser, url, name) {
  const context = await browser.newContext();
  try {
    const page = await enter(context, url, name);
    await page.click('#new-game');
    await page.locator('#board .tile').first().waitFor();
    await watchLatency(page);
    for (let i = 0; i < KEYS; ++i) {
      const moves = await page.textContent('#moves');
      const key = await movingKey(page);
      if (!key) break;  // the game is over: enough keys were measured before
      await page.keyboard.press(key);
      await page.waitForFunction((n) => window.latencies.length >= n, i + 1);
      await page.waitForFunction((before) => document.querySelector('#moves').textContent !== before, moves);
      await settled(page);  // answered, and its slide over: nothing left to draw but the next key's
    }
    return (await page.evaluate(() => window.latencies)).sort((a, b) => a - b);
  } finally {
    await context.close();
  }
}

async function browserPart() {
  const server = await startServer();
  const relay = await startRelay(Number(new URL(server.url).port));
  const { browser, close } = await launchBrowser();
  const rows = [];
  try {
    for (const roundTrip of ROUND_TRIPS) {
      relay.setRoundTrip(roundTrip);
      const row = { round_trip_ms: roundTrip };
      for (const [label, query] of [['predicted', ''], ['waiting', '/?predict=0']]) {
        const l = await keyLatencies(browser, `http://127.0.0.1:${relay.port}${query}`, `lat-${label}-${roundTrip}`);
        row[label] = { keys: l.length, p50_ms: +quantile(l, 0.5).toFixed(1), p90_ms: +quantile(l, 0.9).toFixed(1) };
      }
      rows.push(row);
      console.error(`round trip ${roundTrip} ms: predicted p50 ${row.predicted.p50_ms} p90 ${row.predicted.p90_ms}; ` +
        `waiting p50 ${row.waiting.p50_ms} p90 ${row.waiting.p90_ms}`);
    }
  } finally {
    await close();
    await relay.close();
    await server.stop();
  }
  return rows;
}

// The histogram's buckets in a /metrics body: [[le, cumulative count]].
function buckets(body) {
  return [...body.matchAll(/^tilerace_move_reply_seconds_bucket\{le="([^"]+)"\} (\d+)$/gm)]
    .map(([, le, n]) => [le === '+Inf' ? Infinity : Number(le), Number(n)]);
}
// Quantile q of what was observed between two readings: the bound of its bucket.
function bucketQuantile(before, after, q) {
  const total = after.at(-1)[1] - before.at(-1)[1];
  const rank = Math.ceil(q * total);
  return after.find(([, n], i) => n - before[i][1] >= rank)?.[0] ?? Infinity;
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}`))));
  });
}

async function serverPart() {
  const server = await startServer(['--rate', '1000000', '--max-connections-per-ip', '0', '--rooms-per-ip', '0']);
  const port = new URL(server.url).port;
  const loadgen = (extra) => run(join(root, build, 'tilerace-loadgen'), ['--port', port, '--scenario', 'race',
    '--players', String(PLAYERS), '--duration', String(DURATION), '--json', '-', ...extra]);
  const metrics = async () => (await fetch(`${server.url}/metrics`)).text();
  try {
    const peak = JSON.parse(await loadgen([]));
    const rate = peak.replies_per_s / 2 / PLAYERS;
    const before = buckets(await metrics());
    const half = JSON.parse(await loadgen(['--rate', String(rate)]));
    const after = buckets(await metrics());
    return { players: PLAYERS, peak_moves_per_s: Math.round(peak.replies_per_s),
      half_moves_per_s: Math.round(half.replies_per_s),
      frame_to_moved_p50_ms: bucketQuantile(before, after, 0.5) * 1000,
      frame_to_moved_p99_ms: bucketQuantile(before, after, 0.99) * 1000 };
  } finally {
    await server.stop();
  }
}

const keys = await browserPart();
console.log('\n| round trip | predicted p50 | predicted p90 | waiting p50 | waiting p90 |\n|---|---|---|---|---|');
for (const r of keys) {
  console.log(`| ${r.round_trip_ms} ms | ${r.predicted.p50_ms} ms | ${r.predicted.p90_ms} ms | ` +
    `${r.waiting.p50_ms} ms | ${r.waiting.p90_ms} ms |`);
}
const server = await serverPart();
console.log(`\nserver, race load at half of peak (${server.half_moves_per_s} of ${server.peak_moves_per_s} moves/s, ` +
  `${server.players} players): frame → moved p50 ≤ ${server.frame_to_moved_p50_ms} ms, p99 ≤ ${server.frame_to_moved_p99_ms} ms ` +
  '(bucket bounds)');
console.log(JSON.stringify({ keys, server }));
