import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHELL, shellEntry } from '../../web-client/sw.js';

const root = fileURLToPath(new URL('../../web-client/', import.meta.url));
const files = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? files(path) : [relative(root, path)];
});

test('the shell is every file the page uses: all of web-client but the operator\'s console and the worker', () => {
  const page = files(root).filter((f) => !f.startsWith('admin/') && !/^js\/admin/.test(f) && f !== 'sw.js').sort();
  assert.deepEqual([...SHELL].sort(), page);
});

test('the worker\'s version is the hash of the shell: a changed file makes a new version the browser installs', () => {
  const hash = createHash('sha256');
  for (const path of SHELL) hash.update(path).update('\0').update(readFileSync(join(root, path))).update('\0');
  const version = hash.digest('hex').slice(0, 12);
  const declared = /const VERSION = '([0-9a-f]+)';/.exec(readFileSync(join(root, 'sw.js'), 'utf8'))[1];
  assert.equal(declared, version, `web-client/sw.js: set VERSION to '${version}' (the shell changed)`);
});

test('navigations get the page, shell files themselves, and the API, the console and others the network', () => {
  const scope = 'https://example.test/';
  assert.equal(shellEntry('https://example.test/', scope), 'index.html');
  assert.equal(shellEntry('https://example.test/?room=ABCDEF', scope), 'index.html');
  assert.equal(shellEntry('https://example.test/js/app.js', scope), 'js/app.js');
  assert.equal(shellEntry('https://example.test/i18n/ru.json?x=1', scope), 'i18n/ru.json');
  assert.equal(shellEntry('https://example.test/api/players/p1', scope), null);
  assert.equal(shellEntry('https://example.test/admin/', scope), null);
  assert.equal(shellEntry('https://example.test/js/admin.js', scope), null);
  assert.equal(shellEntry('https://other.test/js/app.js', scope), null);
});
