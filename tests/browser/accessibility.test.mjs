// Screen readers and keyboards: axe-core finds nothing serious on any screen, every tile
// colour is readable, the board reads as rows of numbers, and Fifteen plays by keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndBrowse, enter, boardOf, settled, movingKey, race, seriousViolations, injectAxe } from './harness.mjs';

const env = serveAndBrowse();

// The rows the board's text alternative reads out.
async function readRows(page, selector = '#board') {
  return page.locator(`${selector} ol li`).allTextContents();
}

test('axe-core: no serious or critical violations in the lobby, a solo game, a race and a replay', async () => {
  // bypassCSP: axe-core is injected as an inline script, which the page's policy refuses.
  const contexts = [await env.browser.newContext({ bypassCSP: true }),
    await env.browser.newContext({ bypassCSP: true })];
  const page = await enter(contexts[0], env.server.url, 'ada');
  assert.deepEqual(await seriousViolations(page), [], 'lobby');
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  await settled(page);
  assert.deepEqual(await seriousViolations(page), [], 'solo game');
  await page.keyboard.press(await movingKey(page));  // a game that counts: R asks first
  await page.locator('#moves', { hasText: '1' }).waitFor();
  await page.keyboard.press('r');
  await page.locator('#confirm').waitFor();
  assert.deepEqual(await seriousViolations(page), [], 'confirm');
  await page.click('#confirm-no');
  await page.click('#back');

  const guest = await enter(contexts[1], env.server.url, 'grace');
  await race(page, guest);
  await settled(page);
  assert.deepEqual(await seriousViolations(page), [], 'race');
  await page.click('#leave');  // the guest wins by forfeit: results with replay links
  await guest.locator('#results button').first().waitFor();
  assert.deepEqual(await seriousViolations(guest), [], 'race results');
  await guest.locator('#results button').first().click();
  await guest.locator('#replay').waitFor();
  assert.deepEqual(await seriousViolations(guest), [], 'replay');
  for (const c of contexts) await c.close();
});

test('every tile colour, on the large board and the small ones, passes WCAG AA contrast', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1800 }, bypassCSP: true });  // all in view; axe injected
  const page = await context.newPage();
  await page.goto(env.server.url);
  // Every value the client colours differently, drawn by the client's own BoardView.
  await page.evaluate(async () => {
    const { BoardView } = await import('/js/board_view.js');
    const values = Array.from({ length: 17 }, (_, i) => 2 ** (i + 1));  // 2 … 131072
    const board = Array.from({ length: 5 }, (_, r) => values.slice(r * 5, r * 5 + 5).concat([0, 0, 0, 0, 0]).slice(0, 5));
    for (const small of [false, true]) {
      const host = document.createElement('div');
      document.body.append(host);
      new BoardView(host, { small }).show(board, 'classic');
      const fifteen = document.createElement('div');
      document.body.append(fifteen);
      new BoardView(fifteen, { small }).show([[1, 2, 3], [4, 5, 6], [7, 8, 0]], 'fifteen');
    }
  });
  await injectAxe(page);
  const result = await page.evaluate(async () => {
    const { violations, passes } = await window.axe.run(document, { runOnly: ['color-contrast'] });
    const tiles = (list) => list.flatMap((r) => r.nodes).filter((n) => n.html.startsWith('<div class="tile ')).length;
    return { failing: violations.flatMap((v) => v.nodes.map((n) => n.html)), checked: tiles(passes) };
  });
  assert.deepEqual(result.failing, []);
  assert.equal(result.checked, 2 * (17 + 8));  // every tile was checked, none skipped
  await context.close();
});

test('Fifteen by keyboard: an arrow moves the blank; the board reads as rows after each move', async () => {
  const context = await env.browser.newContext();
  const page = await enter(context, env.server.url, 'fifteen');
  await page.selectOption('#mode', 'fifteen');
  await page.selectOption('#size', '3');
  await page.click('#new-game');
  await page.locator('#board .tile').first().waitFor();
  await settled(page);
  const blankOf = (board) => {
    const i = board.flat().indexOf(0);
    return [Math.floor(i / board.length), i % board.length];
  };
  const rowsOf = (board) => board.map((row, r) => `Row ${r + 1}: ${row.map((v) => (v === 0 ? 'blank' : v)).join(', ')}`);
  assert.deepEqual(await readRows(page), rowsOf(await boardOf(page)));
  assert.match(await page.textContent('#help'), /move the blank/);
  // Two steps the blank can take from where it is: away from the wall it is nearest to.
  for (let step = 1; step <= 2; ++step) {
    const before = await boardOf(page);
    const [r, c] = blankOf(before);
    const [key, want] = step === 1 ? (r > 0 ? ['ArrowUp', [r - 1, c]] : ['ArrowDown', [r + 1, c]])
      : (c > 0 ? ['ArrowLeft', [r, c - 1]] : ['ArrowRight', [r, c + 1]]);
    await page.keyboard.press(key);
    await page.locator('#moves').filter({ hasText: new RegExp(`^${step}$`) }).waitFor();
    const after = await boardOf(page);
    assert.deepEqual(blankOf(after), want, key);
    assert.equal(after[r][c], before[want[0]][want[1]]);  // the tile took the blank's place
    assert.deepEqual(await readRows(page), rowsOf(after));
  }
  await context.close();
});
