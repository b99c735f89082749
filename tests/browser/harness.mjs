// Browser-test harness: the real tilerace binary on a free loopback port with a temporary
// data folder, and Debian's Chromium driven by playwright-core. Every wait has a deadline.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const binary = process.env.TILERACE_BINARY ?? join(root, 'build', 'tilerace');

// Starts the server on a free port with a fresh data folder, serving the page from webRoot
// (the project's web-client unless a test serves a copy it changes). restart(meanwhile) stops
// it with SIGTERM, awaits meanwhile() (what happens while no server runs), and starts it again
// on the same port and data, as an operator's restart would.
export async function startServer(args = [], { webRoot = join(root, 'web-client') } = {}) {
  const data = mkdtempSync(join(tmpdir(), 'tilerace-browser-'));
  let child = null;
  let scheme = 'http';  // https when args hold --tls-cert
  const launch = (port) => new Promise((resolve, reject) => {
    child = spawn(binary, ['--host', '127.0.0.1', '--port', String(port), '--data', data,
      '--web-root', webRoot, '--countdown', '1', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 10000);
    const onData = (chunk) => {
      log += chunk;
      const m = /listening on (https?):\/\/127\.0\.0\.1:(\d+)/.exec(log);
      if (m) { clearTimeout(timer); scheme = m[1]; resolve(Number(m[2])); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited ${code}:\n${log}`)));
  });
  const halt = async () => {
    const exited = child;
    exited.kill('SIGTERM');
    await new Promise((resolve) => (exited.exitCode !== null ? resolve() : exited.on('exit', resolve)));
    return exited.exitCode;
  };
  const port = await launch(0);
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    async restart(meanwhile = async () => {}) {
      const code = await halt();
      await meanwhile();
      await launch(port);
      return code;
    },
    async stop() {
      await halt();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

// Chromium with the flags this machine needs.
const CHROMIUM = {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
};

// Playwright gives every launch a fresh, temporary profile (its own --user-data-dir), removed
// on close; its contexts are incognito ones.
export async function launchBrowser() {
  const browser = await chromium.launch(CHROMIUM);
  return { browser, close: () => browser.close() };
}

// One context on a profile of its own in a temporary folder, as a person's browser is (not
// incognito: Chromium offers to install apps only there); removed on close().
export async function launchProfile(options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tilerace-profile-'));
  const context = await chromium.launchPersistentContext(dir, { ...CHROMIUM, ...options });
  return { context, close: async () => { await context.close(); rmSync(dir, { recursive: true, force: true }); } };
}

// A test file's server (started with args) and Chromium: started before its tests, stopped
// after them. Returns {server, browser}, filled in once they are up.
export function serveAndBrowse(args = []) {
  const env = { server: null, browser: null };
  let chrome = null;
  before(async () => {
    env.server = await startServer(args);
    chrome = await launchBrowser();
    env.browser = chrome.browser;
  });
  after(async () => {
    await chrome?.close();
    await env.server?.stop();
  });
  return env;
}

// Opens the page at url (an invite or watch link works too) and enters a name; resolves once
// the page shows that name.
export async function enter(context, url, name) {
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  await page.goto(url);
  await page.fill('#name-input', name);
  await page.click('#name-form button');
  await page.locator('#me').filter({ hasText: name }).waitFor();
  return page;
}

// The board the server sent last, as the board element carries it.
export async function boardOf(page, selector = '#board') {
  await answered(page, selector);
  return JSON.parse(await page.locator(selector).getAttribute('data-board'));
}

// Waits until the board in selector shows the server's word: no move of mine on it awaits its
// answer (the player's own board is predicted, prediction.js; the others' have no data-pending).
export async function answered(page, selector = '#board') {
  await page.waitForFunction((sel) => (document.querySelector(sel)?.dataset.pending ?? '0') === '0', selector);
}

// Records every board drawn inside the elements matching selector, as it is drawn (a quick
// racer's boards may come and go between two reads); boardsSeen tells how many differed.
export async function recordBoards(page, selector) {
  await page.evaluate((sel) => {
    window.boardsSeen = new Set();
    new MutationObserver((changes) => {
      for (const change of changes) {
        if (change.target.closest(sel)) window.boardsSeen.add(change.target.dataset.board);
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-board'] });
  }, selector);
}
export async function boardsSeen(page) { return page.evaluate(() => window.boardsSeen.size); }

// Records, in the page, the time from each keydown to the first change of the tiles drawn on
// my board (window.latencies, ms): what the player sees of a key.
export async function watchLatency(page) {
  await page.evaluate(() => {
    window.latencies = [];
    let pressedAt = null;
    document.addEventListener('keydown', () => { pressedAt = performance.now(); }, { capture: true });
    new MutationObserver(() => {
      if (pressedAt === null) return;
      window.latencies.push(performance.now() - pressedAt);
      pressedAt = null;
    }).observe(document.querySelector('#board .tiles'), { childList: true });
  });
}

// The tiles drawn on a board, as a board of values (0 where no tile).
export async function drawnBoard(page, selector = '#board') {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel);
    const size = Number(getComputedStyle(root).getPropertyValue('--size'));
    const rows = Array.from({ length: size }, () => new Array(size).fill(0));
    for (const t of root.querySelectorAll('.tile')) {
      rows[Number(t.dataset.row)][Number(t.dataset.col)] = t.classList.contains('obstacle') ? -1 : Number(t.textContent);
    }
    return rows;
  }, selector);
}

// Waits until the drawn tiles are the board the server sent (animations finished).
export async function settled(page, selector = '#board') {
  await page.waitForFunction((sel) => {
    const root = document.querySelector(sel);
    if ((root.dataset.pending ?? '0') !== '0') return false;  // a guess, not the server's board yet
    const want = JSON.parse(root.dataset.board);
    const got = want.map((row) => row.map(() => 0));
    for (const t of root.querySelectorAll('.tile')) {
      if (t.dataset.to) return false;  // still sliding
      got[Number(t.dataset.row)][Number(t.dataset.col)] = t.classList.contains('obstacle') ? -1 : Number(t.textContent);
    }
    return JSON.stringify(got) === JSON.stringify(want);
  }, selector);
}

// The arrow key that changes the board shown in selector (by the client's own engine port), or
// null when none would. Of those that do, the one leaving the most empty cells (then down,
// left, right, up: the corner player's order), so that a test's game reaches a small target
// rather than filling up first.
export async function movingKey(page, selector = '#board') {
  return page.evaluate(async (sel) => {
    const { slide } = await import('/js/engine.js');
    const board = JSON.parse(document.querySelector(sel).dataset.board);
    const keys = { down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', up: 'ArrowUp' };
    let best = null, most = -1;
    for (const dir of Object.keys(keys)) {
      const cells = board.flat();
      if (!slide(cells, board.length, dir, false).changed) continue;
      const empty = cells.filter((v) => v === 0).length;
      if (empty > most) { best = dir; most = empty; }
    }
    return best ? keys[best] : null;
  }, selector);
}

// Presses the key movingKey chooses and waits until the move counts (#moves changes) — or,
// with none of my moves awaiting an answer, until that key no longer moves the board: the
// server's new tile landed in its way (a slow answer makes that window wide). False when no
// key moves the board.
export async function pressMovingKey(page) {
  const moves = await page.textContent('#moves');
  const key = await movingKey(page);
  if (!key) return false;
  await page.keyboard.press(key);
  await page.waitForFunction(async ([before, dir]) => {
    if (document.getElementById('moves').textContent !== before) return true;
    const board = document.getElementById('board');
    if ((board.dataset.pending ?? '0') !== '0') return false;
    const { slide } = await import('/js/engine.js');
    const rows = JSON.parse(board.dataset.board);
    return !slide(rows.flat(), rows.length, dir, false).changed;
  }, [moves, { ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up' }[key]]);
  return true;
}

// Two players in pages host and guest race: host creates a room (size 4), guest joins by
// the invite link, both ready; resolves with the room code once both boards are up.
export async function race(host, guest) {
  await host.selectOption('#size', '4');
  await host.click('#create-room');
  await host.locator('#room-code').filter({ hasText: /^[A-Z2-9]{6}$/ }).waitFor();
  const code = (await host.locator('#room-code').textContent()).trim();
  await guest.goto(`${new URL(guest.url()).origin}/?room=${code}`);
  await guest.locator('#room-players li').nth(1).waitFor();
  await host.locator('#room-players li').nth(1).waitFor();
  await host.click('#ready');
  await guest.click('#ready');
  for (const page of [host, guest]) {
    await page.locator('#board .tile').first().waitFor();
    await page.locator('.opponent .board .tile').first().waitFor();
  }
  return code;
}

// axe-core's serious and critical violations on the page as it is now, as "rule: targets"
// (the page's context needs bypassCSP: axe-core is injected as an inline script).
export async function seriousViolations(page) {
  await injectAxe(page);
  return page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'] });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
export async function injectAxe(page) {
  if (await page.evaluate(() => 'axe' in window)) return;
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
}

// Gives the page window.openSocket(name): a player of its own on a WebSocket of the page's,
// resolving after `welcome` to {send(msg), until(type) (the next message of that type, kept
// if it came first), drain() (forgets what came unread), close()} — for the players a test
// needs besides the page's own.
export async function installSockets(page) {
  await page.evaluate(() => {
    window.openSocket = async (name) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      const queue = [];
      const waiting = [];
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        const i = waiting.findIndex((w) => w.type === m.type);
        if (i >= 0) waiting.splice(i, 1)[0].resolve(m); else queue.push(m);
      };
      await new Promise((r) => { ws.onopen = r; });
      const until = (type) => {
        const i = queue.findIndex((m) => m.type === type);
        if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0]);
        return new Promise((resolve) => waiting.push({ type, resolve }));
      };
      ws.send(JSON.stringify({ type: 'hello', name }));
      await until('welcome');
      return { send: (m) => ws.send(JSON.stringify(m)), until, drain: () => { queue.length = 0; }, close: () => ws.close() };
    };
  });
}

// Saves a screenshot into docs/screenshots when TILERACE_SCREENSHOTS is set (make screenshots).
export async function screenshot(page, name, options = {}) {
  if (!process.env.TILERACE_SCREENSHOTS) return;
  await page.waitForTimeout(300);  // let the pop and appear animations finish, for the picture only
  await page.screenshot({ path: join(root, 'docs', 'screenshots', `${name}.png`), ...options });
}
