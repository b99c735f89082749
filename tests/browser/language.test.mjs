// The game in Russian, Chinese and Vietnamese: each renders the lobby, a race and its result
// from its own catalog with no key and no English showing, passes axe, and the pseudo-locale
// (?lang=en-XA) leaves no string of the page outside its brackets. The header's menu switches
// the language live and it is remembered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serveAndBrowse, race, seriousViolations, settled, screenshot } from './harness.mjs';

const env = serveAndBrowse();
const catalog = (lang) => JSON.parse(readFileSync(new URL(`../../web-client/i18n/${lang}.json`, import.meta.url), 'utf8'));
const english = catalog('en');
const TAGS = { ru: 'ru', zh: 'zh-Hans', vi: 'vi' };

// Enters the page in lang (?lang=) as name, waiting for the lobby.
async function enterIn(context, lang, name, extra = '') {
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  await page.goto(`${env.server.url}/?lang=${lang}${extra}`);
  await page.fill('#name-input', name);
  await page.click('#name-form button');
  await page.locator('#me').filter({ hasText: name }).waitFor();
  return page;
}

// Every text the page holds (hidden parts too), trimmed, with what is not words left out:
// the brand, the names given, room codes, numbers, dates (Intl's, not a catalog's: the daily
// card's day) and the language menu (each language's own name).
function pageTexts(page, skip) {
  return page.evaluate((skipped) => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.data.trim();
      if (!/\p{L}/u.test(text)) continue;
      const parent = node.parentElement;
      if (parent.closest('script, style, #language, h1.title, #daily-day')) continue;
      if (/^[A-Z2-9]{6}$/.test(text)) continue;  // a room code
      if (skipped.some((s) => text === s || new RegExp(`^${s} · \\d+$`).test(text))) continue;  // a name, "ann · 120"
      if (/^\S+ · \d+$/.test(text) && parent.closest('.racer-mini')) continue;  // another test's racer in the lobby's list
      out.push(text);
    }
    return out;
  }, skip);
}

// The English texts that must not show in another language: every catalog text of a few
// words that the language words differently.
function englishLeaks(texts, lang) {
  const theirs = catalog(lang);
  const words = Object.entries(english).filter(([key, v]) => typeof v === 'string' && v.length > 3 &&
    /[a-z]{3}/.test(v) && !v.includes('{') && theirs[key] !== v).map(([, v]) => v);
  return texts.filter((text) => words.includes(text));
}
const keyLeaks = (texts) => texts.filter((text) => /^[a-z]+(\.[a-zA-Z0-9_-]+)+$/.test(text));

for (const lang of ['ru', 'zh', 'vi']) {
  test(`${lang}: the lobby, a race and its result speak ${lang}, with no key and no English, and axe is clean`, async (t) => {
    const words = catalog(lang);
    const contexts = [await env.browser.newContext({ bypassCSP: true }), await env.browser.newContext({ bypassCSP: true })];
    t.after(() => Promise.all(contexts.map((c) => c.close())));
    const host = await enterIn(contexts[0], lang, `h-${lang}`);
    const guest = await enterIn(contexts[1], lang, `g-${lang}`);
    assert.equal(await host.getAttribute('html', 'lang'), TAGS[lang]);
    assert.equal((await host.textContent('#create-room')).trim(), words['lobby.friend.create']);
    assert.equal((await host.textContent('#tagline')).trim(), words['tagline.lobby']);
    const lobby = await pageTexts(host, [`h-${lang}`]);
    assert.deepEqual(keyLeaks(lobby), [], 'no catalog key shows');
    assert.deepEqual(englishLeaks(lobby, lang), [], 'no English shows in the lobby');
    assert.deepEqual(await seriousViolations(host), [], 'axe: lobby');
    if (lang !== 'vi') await screenshot(host, `lobby-${lang}`);  // the README's

    const code = await race(host, guest);
    await settled(host);
    assert.equal((await host.textContent('#leave')).trim(), words['room.leave'], 'the room bar');
    const racing = await pageTexts(host, [`h-${lang}`, `g-${lang}`, code]);
    assert.deepEqual(keyLeaks(racing), [], 'no key in a race');
    assert.deepEqual(englishLeaks(racing, lang), [], 'no English in a race');
    assert.deepEqual(await seriousViolations(host), [], 'axe: race');

    await guest.click('#leave');  // the host wins by forfeit
    await host.locator('#results').waitFor();
    assert.equal((await host.textContent('#results-verdict')).trim(), words['results.win']);
    const title = (await host.textContent('#results-title')).trim();
    assert.ok(title.includes(words['results.reason.forfeit']), title);
    const results = await pageTexts(host, [`h-${lang}`, `g-${lang}`, code]);
    assert.deepEqual(keyLeaks(results), [], 'no key in the result');
    assert.deepEqual(englishLeaks(results, lang), [], 'no English in the result');
    assert.deepEqual(await seriousViolations(host), [], 'axe: result');
  });
}

test('the pseudo-locale: every string of the lobby, a race and its result is inside brackets', async (t) => {
  const contexts = [await env.browser.newContext(), await env.browser.newContext()];
  t.after(() => Promise.all(contexts.map((c) => c.close())));
  const host = await enterIn(contexts[0], 'en-XA', 'ps-host');
  const guest = await enterIn(contexts[1], 'en-XA', 'ps-guest');
  const outside = (texts) => texts.filter((text) => !/^\[[^]*\]$/.test(text));
  assert.deepEqual(outside(await pageTexts(host, ['ps-host'])), [], 'lobby');
  const code = await race(host, guest);
  await settled(host);
  assert.deepEqual(outside(await pageTexts(host, ['ps-host', 'ps-guest', code])), [], 'race');
  await guest.click('#leave');
  await host.locator('#results').waitFor();
  assert.deepEqual(outside(await pageTexts(host, ['ps-host', 'ps-guest', code])), [], 'result');
});

test('the browser\'s language is spoken; the header\'s menu switches live and is remembered', async (t) => {
  const context = await env.browser.newContext({ locale: 'ru-RU' });
  t.after(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  await page.goto(env.server.url);
  await page.locator('#name-form button', { hasText: catalog('ru')['name.play'] }).waitFor();
  await page.fill('#name-input', 'switcher');
  await page.click('#name-form button');
  await page.locator('#me').filter({ hasText: 'switcher' }).waitFor();
  await page.selectOption('#language', 'vi');
  await page.locator('#create-room', { hasText: catalog('vi')['lobby.friend.create'] }).waitFor();
  assert.equal(await page.getAttribute('html', 'lang'), 'vi');
  assert.equal((await page.textContent('#tagline')).trim(), catalog('vi')['tagline.lobby'], 'drawn again at once');
  await page.reload();
  await page.locator('#create-room', { hasText: catalog('vi')['lobby.friend.create'] }).waitFor();
});
