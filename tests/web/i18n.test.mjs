import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LANGUAGES, PSEUDO, chooseLanguage, placeholders, pseudo, t, useCatalog } from '../../web-client/js/i18n.js';

const catalog = (lang) => JSON.parse(readFileSync(new URL(`../../web-client/i18n/${lang}.json`, import.meta.url), 'utf8'));
const english = catalog('en');
const PLURAL_FORMS = { en: ['one', 'other'], ru: ['one', 'few', 'many', 'other'], zh: ['other'], vi: ['other'] };

test('every language has every key, with the same placeholders, and its own plural forms', () => {
  for (const lang of LANGUAGES) {
    const messages = catalog(lang);
    assert.deepEqual(Object.keys(messages).sort(), Object.keys(english).sort(), `${lang}: the same keys as English`);
    for (const [key, entry] of Object.entries(messages)) {
      assert.deepEqual(placeholders(entry), placeholders(english[key]), `${lang} ${key}: the same placeholders`);
      if (typeof english[key] === 'string') {
        assert.equal(typeof entry, 'string', `${lang} ${key}: a text`);
      } else {
        assert.deepEqual(Object.keys(entry).sort(), [...PLURAL_FORMS[lang]].sort(), `${lang} ${key}: the forms ${lang} has`);
        assert.ok(placeholders(entry).includes('count'), `${lang} ${key}: a plural needs its count`);
      }
      assert.ok(Object.values(typeof entry === 'string' ? { entry } : entry).every((text) => text.trim() !== '' || key.endsWith('.shown')),
        `${lang} ${key}: not empty`);
    }
  }
});

test('Russian counts one, few and many: 1, 2, 5 and 21 moves', () => {
  useCatalog('ru', catalog('ru'), english);
  assert.equal(t('race.moves', { count: 1 }), '1 ход');
  assert.equal(t('race.moves', { count: 2 }), '2 хода');
  assert.equal(t('race.moves', { count: 5 }), '5 ходов');
  assert.equal(t('race.moves', { count: 21 }), '21 ход');
  // Numbers the language's way: five digits and more grouped with a space.
  assert.equal(t('say.score', { score: 12345 }), 'Счёт 12\u00a0345');
  useCatalog('en', english);
  assert.equal(t('race.moves', { count: 1 }), '1 move');
  assert.equal(t('race.moves', { count: 21 }), '21 moves');
  assert.equal(t('say.score', { score: 1234 }), 'Score 1234');
});

test('a key the catalog lacks falls back to English, then to the key', () => {
  useCatalog('vi', { 'room.ready': 'Sẵn sàng' }, english);
  assert.equal(t('room.ready'), 'Sẵn sàng');
  assert.equal(t('room.leave'), 'Leave');
  assert.equal(t('no.such.key'), 'no.such.key');
  useCatalog('en', english);
});

test('the language: ?lang=, else the saved choice, else the first of the browser\'s we have, else English', () => {
  assert.equal(chooseLanguage({ asked: 'ru', saved: 'vi', browser: ['zh-CN'] }), 'ru');
  assert.equal(chooseLanguage({ asked: PSEUDO }), PSEUDO);
  assert.equal(chooseLanguage({ asked: 'xx', saved: 'vi', browser: ['zh-CN'] }), 'vi');
  assert.equal(chooseLanguage({ browser: ['de-DE', 'zh-Hans-CN', 'ru'] }), 'zh');
  assert.equal(chooseLanguage({ browser: ['RU-ru'] }), 'ru');
  assert.equal(chooseLanguage({ browser: ['de', 'fr'] }), 'en');
  assert.equal(chooseLanguage(), 'en');
});

test('the pseudo-locale brackets and lengthens every text and keeps its placeholders', () => {
  assert.equal(pseudo('Ready'), '[Réádý~~]');
  assert.match(pseudo('{name} leads'), /^\[\{name\} léáds~+\]$/);
  useCatalog(PSEUDO, english, english);
  const text = t('race.leader', { name: 'ann' });
  assert.ok(text.startsWith('[ann ') && text.endsWith(']'), text);
  assert.ok(t('race.moves', { count: 3 }).startsWith('[3 '));
  useCatalog('en', english);
});
