import { test } from 'node:test';
import './english.mjs';
import assert from 'node:assert/strict';
import { sessionLine, linkCodeText } from '../../web-client/js/account_view.js';
import { deviceLabel } from '../../web-client/js/handshake.js';

test('a session line says the device, when it was seen, and which one is this', () => {
  const now = 10 * 60000;
  assert.equal(sessionLine({ device: 'Firefox on Linux', last_seen: now, current: true }, now),
    'Firefox on Linux, active now (this device)');
  assert.equal(sessionLine({ device: '', last_seen: now - 5 * 60000, current: false }, now),
    'a browser, seen 5 min ago');
});

test('a link code is shown with its link and how long it lasts', () => {
  assert.equal(linkCodeText({ code: 'ABCD2345', expires_at: 300000 }, 'https://play.example', 0),
    'On your other device, enter ABCD2345 or open https://play.example/?link=ABCD2345 (within 5 min, once).');
});

test('the device label names the browser and the system', () => {
  assert.equal(deviceLabel('Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0'), 'Firefox on Linux');
  assert.equal(deviceLabel('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1'), 'Safari on iOS');
  assert.equal(deviceLabel('Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/120.0 Safari/537.36 Edg/120.0'), 'Edge on Windows');
  assert.equal(deviceLabel(''), 'A browser');
});
