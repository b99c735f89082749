import { test } from 'node:test';
import './english.mjs';
import assert from 'node:assert/strict';
import { initialState, applyMessage, connectionNote } from '../../web-client/js/state.js';
import { presenceText, settingsText } from '../../web-client/js/friends_view.js';
import { noticeText } from '../../web-client/js/notice_view.js';

const G = (id, board) => ({ id, mode: 'classic', size: board.length, target: 2048, board, score: 0, moves: 0,
  max_tile: 2, state: 'playing', won: false, ranked: true, undos: 0 });

test('welcome, game and moved update the solo game and ask for an animation', () => {
  const s = initialState();
  applyMessage(s, { type: 'welcome', player: { id: 'p1', name: 'ann' }, token: 't', resumed: false, protocol: 1 });
  assert.deepEqual(s.me, { id: 'p1', name: 'ann', registered: false });
  applyMessage(s, { type: 'game', game: G('g1', [[2, 2], [0, 0]]) });
  const fx = applyMessage(s, { type: 'moved', game: 'g1', changed: true, gained: 4, score: 4, moves: 1, board: [[4, 0], [0, 2]],
    max_tile: 4, state: 'playing', won: false, motions: [], spawned: [] });
  assert.equal(s.solo.score, 4);
  assert.deepEqual(s.solo.board, [[4, 0], [0, 2]]);
  const anim = fx.find((e) => e.kind === 'animate');
  assert.equal(anim.target, 'solo');
  assert.deepEqual(anim.before, [[2, 2], [0, 0]]);
  // An unchanged move animates nothing.
  const none = applyMessage(s, { type: 'moved', game: 'g1', changed: false, gained: 0, score: 4, moves: 1, board: [[4, 0], [0, 2]],
    max_tile: 4, state: 'playing', won: false, motions: [], spawned: [] });
  assert.equal(none.some((e) => e.kind === 'animate'), false);
});

test('a race: start, my moves go to my race game, others arrive as updates, then the results', () => {
  const s = initialState();
  applyMessage(s, { type: 'welcome', player: { id: 'me', name: 'me' } });
  applyMessage(s, { type: 'room', room: { code: 'ABCDEF', players: [{ id: 'me' }, { id: 'you' }], state: 'waiting' } });
  assert.equal(s.role, 'racer');
  applyMessage(s, { type: 'countdown', code: 'ABCDEF', seconds: 3 });
  assert.equal(s.countdown, 3);
  assert.equal(s.room.state, 'countdown');  // Ready is hidden from here on
  applyMessage(s, { type: 'race_start', code: 'ABCDEF', time_limit: 60, games: { me: G('r1', [[2, 0], [0, 0]]), you: G('r2', [[2, 0], [0, 0]]) } }, 1000);
  assert.equal(s.countdown, null);
  assert.equal(s.room.state, 'racing');
  assert.equal(s.race.endsAt, 61000);
  applyMessage(s, { type: 'moved', game: 'r1', changed: true, gained: 0, score: 0, moves: 1, board: [[0, 2], [2, 0]], max_tile: 2,
    state: 'playing', won: false, motions: [], spawned: [] });
  assert.equal(s.race.games.me.moves, 1);
  assert.equal(s.race.games.you.moves, 0);
  const fx = applyMessage(s, { type: 'race_update', code: 'ABCDEF', player: 'you', board: [[0, 0], [2, 2]], score: 0, moves: 1,
    max_tile: 2, state: 'playing', motions: [{ from: [0, 0], to: [1, 0], value: 2, merged: false }], spawned: [] });
  assert.equal(fx.find((e) => e.kind === 'animate').target, 'you');
  assert.deepEqual(s.race.games.you.board, [[0, 0], [2, 2]]);
  applyMessage(s, { type: 'race_over', code: 'ABCDEF', reason: 'time', winner: 'me', standings: [], ratings: {}, replays: {} }, 5000);
  assert.equal(s.results.winner, 'me');
  assert.equal(s.race.endsAt, 5000);
});

test('errors become a notice; leaving clears the room', () => {
  const s = initialState();
  applyMessage(s, { type: 'error', code: 'no_such_room', message: 'no room with that code' });
  assert.match(noticeText(s.notice), /no_such_room/);
  s.room = { code: 'X' }; s.role = 'racer';
  applyMessage(s, { type: 'left', code: 'X' });
  assert.equal(s.room, null);
  assert.equal(s.role, null);
});

test('quick match: queued until the paired room lists me, cancelled, or the connection is new', () => {
  const s = initialState();
  applyMessage(s, { type: 'welcome', player: { id: 'p1', name: 'ann' }, token: 't', resumed: false, protocol: 1 });
  applyMessage(s, { type: 'queued' });
  assert.equal(s.queued, true);
  applyMessage(s, { type: 'room', room: { code: 'ABCDEF', state: 'waiting', players: [{ id: 'p2' }] } });
  assert.equal(s.queued, true);  // someone else's room (a spectated one) does not end the wait
  applyMessage(s, { type: 'room', room: { code: 'ABCDEF', state: 'waiting', players: [{ id: 'p2' }, { id: 'p1' }] } });
  assert.equal(s.queued, false);
  applyMessage(s, { type: 'queued' });
  applyMessage(s, { type: 'match_cancelled' });
  assert.equal(s.queued, false);
  applyMessage(s, { type: 'queued' });
  applyMessage(s, { type: 'welcome', player: { id: 'p1', name: 'ann' }, token: 't', resumed: true, protocol: 1 });
  assert.equal(s.queued, false);
});

test('an error notice clears itself once a later request goes through', () => {
  const s = initialState();
  applyMessage(s, { type: 'error', code: 'no_such_room', message: 'no room with that code' });
  assert.equal(s.notice.kind, 'error');
  applyMessage(s, { type: 'race_update', code: 'X', player: 'p2' });  // not an answer to us
  assert.equal(s.notice.kind, 'error');
  applyMessage(s, { type: 'rooms', rooms: [] });  // the lobby's own refresh: no answer to us
  assert.equal(s.notice.kind, 'error');
  applyMessage(s, { type: 'leaderboard', kind: 'rating', entries: [] });
  assert.equal(s.notice, null);
});

test('an invite-link notice stays while the room waits and goes when the race starts', () => {
  const s = initialState();
  s.notice = { kind: 'invite', key: 'notice.invite.copied', params: { text: 'http://x/?room=ABCDEF' } };
  applyMessage(s, { type: 'room', room: { code: 'ABCDEF', players: [], state: 'waiting' } });
  assert.equal(s.notice.kind, 'invite');
  applyMessage(s, { type: 'race_start', code: 'ABCDEF', time_limit: 60, games: {} });
  assert.equal(s.notice, null);
});

test('an emote is an effect to show, unless this viewer muted emotes', () => {
  const s = initialState();
  const emote = { type: 'emote', code: 'ABCDEF', player: 'p2', emote: 'gg' };
  assert.deepEqual(applyMessage(s, emote).filter((e) => e.kind === 'emote'), [{ kind: 'emote', player: 'p2', emote: 'gg' }]);
  s.muteEmotes = true;
  assert.deepEqual(applyMessage(s, emote).filter((e) => e.kind === 'emote'), []);
});

test('an achievement is a notice until the next game or race starts', () => {
  const s = initialState();
  applyMessage(s, { type: 'game', game: G('g1', [[2, 2], [0, 0]]) });
  const achievement = { id: 'first_race_win', title: 'First win', description: 'Win a race against a person', game: 'g0', at: 1 };
  applyMessage(s, { type: 'achievement', achievement });
  assert.equal(noticeText(s.notice), 'Achievement unlocked: First win (Win a race against a person)');
  applyMessage(s, { type: 'game', game: G('g1', [[2, 2], [0, 0]]) });  // the same game again
  assert.equal(s.notice?.kind, 'achievement');
  applyMessage(s, { type: 'game', game: G('g2', [[2, 0], [0, 0]]) });
  assert.equal(s.notice, null);
  applyMessage(s, { type: 'achievement', achievement });
  applyMessage(s, { type: 'race_start', code: 'ABCDEF', time_limit: 300, games: {} });
  assert.equal(s.notice, null);
});

test('the view follows what the server starts, and the best answer goes to the best box only', () => {
  const s = initialState();
  assert.equal(s.view, 'lobby');
  applyMessage(s, { type: 'game', game: G('g1', [[2, 0], [0, 0]]) });
  assert.equal(s.view, 'play');
  s.view = 'profile';
  applyMessage(s, { type: 'game', game: G('g2', [[2, 0], [0, 0]]) });
  assert.equal(s.view, 'profile');  // a new solo game does not pull the player out of a profile
  applyMessage(s, { type: 'room', room: { code: 'ABCDEF', players: [], state: 'waiting' } });
  assert.equal(s.view, 'play');
  applyMessage(s, { type: 'leaderboard', rid: 'best', mode: 'classic', size: 4, kind: 'score', entries: [], me: { score: 512, moves: 90 } });
  assert.deepEqual(s.best, { mode: 'classic', size: 4, score: 512, moves: 90 });
  assert.equal(s.leaderboard, null);
});

test('account messages: registered, a link code, the sessions, and signing out', () => {
  const s = initialState();
  applyMessage(s, { type: 'welcome', player: { id: 'p', name: 'ann' }, token: 't', registered: false });
  assert.equal(s.me.registered, false);
  applyMessage(s, { type: 'registered', player: { id: 'p', name: 'ann' } });
  assert.equal(s.me.registered, true);
  assert.equal(s.notice.kind, 'info');
  applyMessage(s, { type: 'link_code', code: 'ABCD2345', expires_at: 99 });
  assert.deepEqual(s.account.linkCode, { code: 'ABCD2345', expires_at: 99 });
  applyMessage(s, { type: 'sessions', sessions: [{ id: 'x', current: true }] });
  assert.equal(s.account.sessions.length, 1);
  applyMessage(s, { type: 'logged_out' });
  assert.equal(s.me, null);
  assert.deepEqual(s.account, { linkCode: null, sessions: null });
});

test('renamed changes my name and says so', () => {
  const s = initialState();
  applyMessage(s, { type: 'welcome', player: { id: 'p', name: 'ann' }, token: 't', registered: true });
  applyMessage(s, { type: 'renamed', player: { id: 'p', name: 'Annie' } });
  assert.equal(s.me.name, 'Annie');
  assert.match(noticeText(s.notice), /Annie/);
});

test('friends: the lists, presence as it changes, and what each update says', () => {
  const s = initialState();
  applyMessage(s, { type: 'welcome', player: { id: 'p1', name: 'ann' }, token: 't', resumed: false, protocol: 1 });
  applyMessage(s, { type: 'friends', friends: [{ id: 'p2', name: 'bob', rating: 1500, status: 'online' }],
    incoming: [{ id: 'p3', name: 'cat' }], outgoing: [], blocked: [] });
  assert.equal(s.friends.list[0].status, 'online');
  assert.deepEqual(s.friends.incoming, [{ id: 'p3', name: 'cat' }]);
  applyMessage(s, { type: 'presence', player: 'p2', status: 'racing', code: 'K7Q2XM', with: ['dan'] });
  assert.equal(presenceText(s.friends.list[0]), 'racing dan in K7Q2XM');
  applyMessage(s, { type: 'presence', player: 'p9', status: 'online' });  // no friend of mine: ignored
  assert.equal(s.friends.list.length, 1);
  assert.equal(presenceText({ status: 'spectating', code: 'ABCDEF' }), 'watching ABCDEF');
  assert.equal(presenceText({ status: 'solo' }), 'playing solo');
  assert.equal(presenceText({ status: 'offline' }), 'offline');
  applyMessage(s, { type: 'friend_update', player: { id: 'p3', name: 'cat' }, relation: 'incoming' });
  assert.equal(noticeText(s.notice), 'cat wants to be your friend');
  applyMessage(s, { type: 'friend_update', player: { id: 'p3', name: 'cat' }, relation: 'friend' });
  assert.equal(noticeText(s.notice), 'You and cat are friends');
});

test('challenges: a toast until answered, expired or cancelled; my own is named when it ends', () => {
  const s = initialState();
  const settings = { mode: 'classic', size: 4, target: 2048, time_limit: 300 };
  assert.equal(settingsText(settings), 'classic 4×4 to 2048');
  assert.equal(settingsText({ mode: 'fifteen', size: 4, target: 0 }), 'fifteen 4×4');
  applyMessage(s, { type: 'challenged', id: 'c1', from: { id: 'p2', name: 'bob' }, settings });
  applyMessage(s, { type: 'challenged', id: 'c2', from: { id: 'p3', name: 'cat' }, settings });
  assert.equal(s.challenges.length, 2);
  assert.equal(noticeText(s.notice), 'cat challenges you: classic 4×4 to 2048');
  applyMessage(s, { type: 'challenge_expired', id: 'c1' });
  assert.deepEqual(s.challenges.map((c) => c.id), ['c2']);
  assert.equal(noticeText(s.notice), 'Challenge expired');
  applyMessage(s, { type: 'challenge_sent', id: 'c3', to: { id: 'p2', name: 'bob' }, settings, expires_at: 1 });
  applyMessage(s, { type: 'challenge_declined', id: 'c3' });
  assert.equal(noticeText(s.notice), 'bob: challenge declined');
  assert.equal(s.sentChallenge, null);
});

test('after a race, a racer ready again wants a rematch: the others are told', () => {
  const s = initialState();
  applyMessage(s, { type: 'welcome', player: { id: 'p1', name: 'ann' }, token: 't', resumed: false, protocol: 1 });
  const room = (bobReady) => ({ type: 'room', room: { code: 'ABCDEF', state: 'waiting',
    players: [{ id: 'p1', name: 'ann', ready: false }, { id: 'p2', name: 'bob', ready: bobReady }] } });
  applyMessage(s, room(false));
  applyMessage(s, { type: 'race_over', code: 'ABCDEF', reason: 'all_over', winner: null, standings: [], ratings: {}, replays: {} });
  applyMessage(s, room(false));
  assert.equal(s.notice, null);
  applyMessage(s, room(true));
  assert.equal(noticeText(s.notice), 'bob wants a rematch');
});

test('a racer\'s connection note: reconnecting with the grace left, or slow, from the room', () => {
  const s = initialState();
  const room = (players) => ({ type: 'room', room: { code: 'ABCDEF', grace: 60, state: 'racing', players } });
  applyMessage(s, room([{ id: 'a', connected: true }, { id: 'b', connected: true, slow: true }]), 1000);
  assert.equal(connectionNote(s, 'a'), null);
  assert.deepEqual(connectionNote(s, 'b'), { text: 'slow connection', lost: false });
  applyMessage(s, room([{ id: 'a', connected: false }, { id: 'b', connected: true }]), 2000);
  assert.deepEqual(connectionNote(s, 'a', 2000), { text: 'reconnecting… 60 s', lost: true });
  // A later room with Ann still away keeps the time her grace began.
  applyMessage(s, room([{ id: 'a', connected: false }, { id: 'b', connected: true }]), 30000);
  assert.deepEqual(connectionNote(s, 'a', 47500), { text: 'reconnecting… 15 s', lost: true });
  assert.equal(connectionNote(s, 'b'), null);
  applyMessage(s, room([{ id: 'a', connected: true }, { id: 'b', connected: true }]), 50000);
  assert.equal(connectionNote(s, 'a'), null);
});

test('a refused name says why, by its reason; an unknown reason falls back to the field', () => {
  const s = initialState();
  applyMessage(s, { type: 'error', code: 'bad_field', field: 'name', reason: 'script_mix', message: 'name must not mix scripts' });
  assert.match(noticeText(s.notice), /one script: no Latin mixed with Cyrillic or Greek/);
  applyMessage(s, { type: 'error', code: 'bad_field', field: 'name', reason: 'reserved', message: 'reserved' });
  assert.match(noticeText(s.notice), /This name is reserved/);
  applyMessage(s, { type: 'error', code: 'bad_field', field: 'name', reason: 'newer', message: 'x' });
  assert.match(noticeText(s.notice), /This name is not allowed: pick another/);
});
