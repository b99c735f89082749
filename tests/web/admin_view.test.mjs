import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditLine, banUntil, gameLine, operatorLine, playerFacts, reportLine, sessionLine, suspicionLine } from '../../web-client/js/admin_view.js';

const at = Date.UTC(2026, 10, 26, 14, 5);

test('the console says each audit line, report, device and game in words', () => {
  assert.equal(auditLine({ at, actor: 'operator', action: 'rename', target: 'p1', reason: 'rude', detail: 'bob → Robert' }),
    '2026-11-26 14:05 UTC · operator · rename p1 — rude (bob → Robert)');
  assert.equal(auditLine({ at, actor: 'server', action: 'unban', target: 'p1', reason: '', detail: '' }),
    '2026-11-26 14:05 UTC · server · unban p1');
  assert.equal(auditLine({ at, actor: 'mia', role: 'moderator', action: 'ban', target: 'p1', target_name: 'bob', reason: 'spam', detail: '', address: '10.0.0.7' }),
    '2026-11-26 14:05 UTC · mia (moderator) · ban bob [p1] — spam · from 10.0.0.7');
  assert.equal(operatorLine({ name: 'mia', role: 'moderator', totp: true, sessions: 1, last_sign_in: at }),
    'mia · moderator · authenticator on · 1 session · last signed in 2026-11-26 14:05 UTC');
  assert.equal(operatorLine({ name: 'vic', role: 'viewer', totp: false, sessions: 0, last_sign_in: 0 }),
    'vic · viewer · no authenticator · 0 sessions · not signed in lately');
  assert.equal(reportLine({ at, reporter: { name: 'ann' }, player: { name: 'bob' }, reason: 'name', note: 'rude', resolved_at: 0 }),
    '2026-11-26 14:05 UTC · ann reported bob for name: “rude”');
  assert.match(reportLine({ at, reporter: { name: 'ann' }, player: { name: 'bob' }, reason: 'abuse', note: '', resolved_at: at, resolution: 'warned' }),
    /for abuse · resolved: warned$/);
  assert.equal(sessionLine({ label: 'Firefox on Linux', last_seen: at, address: '10.0.0.7' }),
    'Firefox on Linux · last seen 2026-11-26 14:05 UTC from 10.0.0.7');
  assert.match(gameLine({ at, mode: 'classic', size: 4, score: 900, moves: 80, state: 'over', room: '', ranked: true, hidden: true }),
    /classic 4×4 · 900 points, 80 moves \(over\) · ranked solo · hidden$/);
});

test('a player\'s standing, and a ban\'s end from days', () => {
  const p = { id: 'p1', rating: 1500, registered: true, created_at: at };
  assert.match(playerFacts(p), /registered · since .* · not banned$/);
  assert.match(playerFacts({ ...p, banned_until: 0, ban_reason: 'spam' }), /banned until lifted — spam$/);
  assert.match(playerFacts({ ...p, banned_until: at }), /banned until 2026-11-26 14:05 UTC$/);
  assert.equal(banUntil('', at), undefined);
  assert.equal(banUntil('0', at), undefined);
  assert.equal(banUntil('2', at), at + 2 * 86400000);
});

test('a suspicion line says the score, whose game, and both signals', () => {
  const s = { suspicion: 68.4, player: { name: 'hal' }, mode: 'classic', size: 4, score: 1200,
    match_rate: 0.91, sampled: 80, moves_per_second: 6.25, spread: 0.5 };
  assert.equal(suspicionLine(s), "68 · hal · classic 4×4, 1200 points · 91% expectimax's move (80 compared) · 6.3 moves/s, spread 0.50");
  assert.match(suspicionLine({ ...s, match_rate: null, moves_per_second: 0 }), /no expectimax comparison · no move times$/);
});
