// The page in the player's language: the catalogs loaded (English always, as the fallback),
// <html lang> set, and the page's fixed words put in from the catalog: an element's
// data-i18n names the key of its text, data-i18n-attr "attr:key;attr:key" those of its
// attributes (aria-label, placeholder, title). The header's language menu switches it live.
import { LANGUAGES, PSEUDO, chooseLanguage, language, languageTag, t, useCatalog } from './i18n.js';

async function catalog(lang) {
  const response = await fetch(`i18n/${lang}.json`);
  if (!response.ok) throw new Error(`catalog ${lang}: ${response.status}`);
  return response.json();
}

let english = null;  // the fallback, fetched once

// Speaks lang from now on (English when its catalog cannot be had) and words the page.
export async function speak(document, lang) {
  english ??= await catalog('en');
  let messages = english;
  if (lang !== 'en' && LANGUAGES.includes(lang)) {
    try { messages = await catalog(lang); } catch { lang = 'en'; }
  }
  useCatalog(lang, messages, english);
  document.documentElement.lang = languageTag(lang === PSEUDO ? 'en' : lang);
  wordPage(document);
}

// The language to speak on this page (?lang=, else the saved choice, else the browser's).
export function loadLanguage(document, storage, asked) {
  return speak(document, chooseLanguage({ asked, saved: storage.language, browser: navigator.languages ?? [] }));
}

export function wordPage(document) {
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of node.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':');
      node.setAttribute(attr, t(key));
    }
  }
}

// The header's menu of languages: the one spoken selected; a choice is kept and spoken at once,
// then rewords() draws what the views had worded.
export function bindLanguage(document, storage, menu, rewords) {
  menu.value = LANGUAGES.includes(language()) ? language() : 'en';
  menu.addEventListener('change', async () => {
    storage.language = menu.value;
    await speak(document, menu.value);
    rewords();
  });
}
