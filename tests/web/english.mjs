// Imported first by the tests that read the client's words: the English catalog in use.
import { readFileSync } from 'node:fs';
import { useCatalog } from '../../web-client/js/i18n.js';

export const english = JSON.parse(readFileSync(new URL('../../web-client/i18n/en.json', import.meta.url), 'utf8'));
useCatalog('en', english);
