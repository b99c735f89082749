// Every word a person reads, in their language: a catalog per language
// (web-client/i18n/<lang>.json, flat keys → texts), `t(key, params)` to word a key, plurals
// through Intl.PluralRules and numbers through Intl.NumberFormat. The catalog in use is one
// per page (`useCatalog`); a key missing from it falls back to English, then to the key itself.
// No DOM, no fetch: the page loads the catalogs (app.js) and the tests read them from disk.

export const LANGUAGES = ['en', 'ru', 'zh', 'vi'];
// Bracketed and lengthened English: for tests, so that a string not from a catalog shows.
export const PSEUDO = 'en-XA';

let current = speaking('en', {}, {});

function speaking(lang, messages, fallback) {
  const tag = lang === PSEUDO ? 'en' : languageTag(lang);
  return { lang, tag, messages, fallback, plurals: new Intl.PluralRules(tag), numbers: new Intl.NumberFormat(tag, { useGrouping: 'min2' }) };
}

// The language to speak: ?lang= (a listed one or the pseudo-locale), else the one the player
// chose, else the first of the browser's languages we have (by its primary subtag), else English.
export function chooseLanguage({ asked = null, saved = null, browser = [] } = {}) {
  if (asked === PSEUDO || LANGUAGES.includes(asked)) return asked;
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of browser) {
    const primary = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return 'en';
}

// The BCP 47 tag for <html lang> and Intl: Simplified Chinese is zh-Hans.
export function languageTag(lang) { return lang === 'zh' ? 'zh-Hans' : lang; }

// Uses catalog `messages` for `lang` from now on, with `fallback` (English) for keys it lacks.
export function useCatalog(lang, messages, fallback = messages) {
  current = speaking(lang, lang === PSEUDO ? pseudoCatalog(fallback) : messages, fallback);
}

export function language() { return current.lang; }

// The text of `key` with its {placeholders} filled from params. A text that depends on a
// count is an object of plural forms ({one, few, many, other}); params.count picks the form.
// Numbers among params are written the language's way (12 345 in Russian; four digits stay together).
export function t(key, params = {}) {
  const entry = current.messages[key] ?? current.fallback[key];
  if (entry === undefined) return key;
  const text = typeof entry === 'string' ? entry : entry[current.plurals.select(params.count ?? 0)] ?? entry.other;
  return fill(text, params);
}

// Whether the catalog (or English) has key: for texts keyed by a server's code.
export function has(key) { return key in current.messages || key in current.fallback; }

// A number the language's way.
export function number(n) { return current.numbers.format(n); }

// A moment (Unix ms) the language's way, as Intl.DateTimeFormat's options say ("2 Dec 2026"
// by default); with its time ("2 Dec 2026, 14:30"); a day ("2026-12-02") alone.
export function dateOf(ms, options = { dateStyle: 'medium' }) {
  return new Intl.DateTimeFormat(current.tag, options).format(new Date(ms));
}
export function dateTime(ms) { return dateOf(ms, { dateStyle: 'medium', timeStyle: 'short' }); }
export function day(isoDay) { return dateOf(Date.parse(`${isoDay}T00:00:00Z`), { dateStyle: 'medium', timeZone: 'UTC' }); }

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === 'number' ? current.numbers.format(value) : String(value);
  });
}

// The placeholders a text (or each form of a plural) uses, sorted: catalogs must agree on them.
export function placeholders(entry) {
  const texts = typeof entry === 'string' ? [entry] : Object.values(entry);
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
}

// The pseudo-locale: each English text bracketed, its letters accented and a third longer, its
// placeholders kept.
const ACCENTS = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', y: 'ý', A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú', n: 'ñ', c: 'ç' };
export function pseudo(text) {
  const parts = text.split(/(\{\w+\})/);
  const letters = parts.map((part, i) => (i % 2 ? part : part.replace(/[a-zA-Z]/g, (ch) => ACCENTS[ch] ?? ch))).join('');
  const padding = '~'.repeat(Math.ceil(text.replace(/\{\w+\}/g, '').length / 3));
  return `[${letters}${padding}]`;
}
function pseudoCatalog(english) {
  return Object.fromEntries(Object.entries(english).map(([key, entry]) => [key,
    typeof entry === 'string' ? pseudo(entry) : Object.fromEntries(Object.entries(entry).map(([form, text]) => [form, pseudo(text)]))]));
}
