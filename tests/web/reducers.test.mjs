// Each domain's reducer alone (web-client/js/reducers/): its folds called directly on a fresh
// state, as state.js calls them — fold(state, msg, effects, now) — and the tables kept apart
// (a message type folded by two domains would lose one of them in state.js's merge).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMessage, initialState } from '../../web-client/js/state.js';
import { account } from '../../web-client/js/reducers/account.js';
import { lobby } from '../../web-client/js/reducers/lobby.js';
import { play } from '../../web-client/js/reducers/play.js';
import { race } from '../../web-client/js/reducers/race.js';
import { leaveRoom, room } from '../../web-client/js/reducers/room.js';
import { social } from '../../web-client/js/reducers/social.js';
import { tournament } from '../../web-client/js/reducers/tournament.js';

const DOMAINS = { account, lobby, play, race, room, social, tournament };
const ME = { id: 'p1', name: 'ann' };
const board = (v) => [[v, 0], [0, 0]];

// A fresh state signed in as ME, with changes.
function signedIn(changes = {}) { return Object.assign(initialState(), { me: { ...ME } }, changes); }

test('no message type is folded by two domains', () => {
  const seen = new Map();
  for (const [domain, table] of Object.entries(DOMAINS)) {
    for (const type of Object.keys(table)) {
      assert.equal(seen.get(type), undefined, `${type}: ${seen.get(type)} and ${domain}`);
      seen.set(type, domain);
    }
  }
});

test('play: a new game opens play from the lobby; a move changes the game it names and asks for a slide', () => {
  const state = signedIn();
  play.game(state, { game: { id: 'g1', board: board(2), score: 0, moves: 0, state: 'playing' } });
  assert.equal(state.view, 'play');
  const effects = [];
  play.moved(state, { game: 'g1', board: board(4), score: 4, moves: 1, max_tile: 4, state: 'playing', changed: true }, effects);
  assert.deepEqual([state.solo.score, state.solo.moves], [4, 1]);
  assert.deepEqual(effects.map((e) => [e.kind, e.target, e.before]), [['animate', 'solo', board(2)]]);
  play.moved(state, { game: 'another', board: board(8), score: 8, moves: 2, changed: true }, effects);
  assert.equal(state.solo.score, 4, 'a move of another game changes nothing');
  assert.equal(effects.length, 1);
  // In a race my move goes to my race game, drawn on my board.
  state.race = { games: { p1: { id: 'r1', board: board(2), score: 0 } } };
  play.moved(state, { game: 'r1', board: board(4), score: 4, moves: 1, changed: true }, effects);
  assert.equal(state.race.games.p1.score, 4);
  assert.equal(effects[1].target, 'p1');
  play.achievement(state, { achievement: { id: 'first_win' } });
  assert.deepEqual(state.notice, { kind: 'achievement', key: 'notice.achievement', params: { id: 'first_win' } });
});

test('race: countdown, start with its clock, the others\' moves, the end, and emotes unless muted', () => {
  const state = signedIn({ room: { code: 'ABCDEF', state: 'waiting', players: [] } });
  race.countdown(state, { seconds: 3 });
  assert.deepEqual([state.countdown, state.room.state], [3, 'countdown']);
  const games = { p1: { id: 'r1', board: board(2) }, p2: { id: 'r2', board: board(2) } };
  race.race_start(state, { code: 'ABCDEF', games, time_limit: 300 }, [], 1000);
  assert.deepEqual([state.view, state.countdown, state.room.state, state.race.endsAt], ['play', null, 'racing', 301000]);
  assert.notEqual(state.race.games, games, 'a copy: the message stays as it came');
  const effects = [];
  race.race_update(state, { player: 'p2', board: board(4), score: 4, moves: 1, max_tile: 4, state: 'playing', motions: [{}], spawned: [] }, effects);
  assert.equal(state.race.games.p2.score, 4);
  assert.deepEqual(effects.map((e) => [e.kind, e.target]), [['animate', 'p2']]);
  race.race_update(state, { player: 'nobody', board: board(8), motions: [], spawned: [] }, effects);
  assert.equal(effects.length, 1);
  race.race_over(state, { winner: 'p2', standings: [] }, [], 5000);
  assert.deepEqual([state.results.winner, state.race.endsAt], ['p2', 5000]);
  race.emote(state, { player: 'p2', emote: 'gg' }, effects);
  state.muteEmotes = true;
  race.emote(state, { player: 'p2', emote: 'gg' }, effects);
  assert.deepEqual(effects.slice(1), [{ kind: 'emote', player: 'p2', emote: 'gg' }]);
});

test('room: a snapshot seats me as a racer and marks who is away; leaving, being sent out, a decided match', () => {
  const state = signedIn({ queued: true });
  const players = [{ id: 'p1', name: 'ann', connected: true }, { id: 'p2', name: 'bob', connected: false }];
  room.room(state, { room: { code: 'ABCDEF', state: 'waiting', players } }, [], 7);
  assert.deepEqual([state.view, state.role, state.queued, state.away], ['play', 'racer', false, { p2: 7 }]);
  room.room(state, { room: { code: 'ABCDEF', state: 'waiting', players } }, [], 9);
  assert.deepEqual(state.away, { p2: 7 }, 'away since first seen');
  room.left(state, { code: 'OTHERS' });
  assert.equal(state.room.code, 'ABCDEF', 'an answer about another room');
  room.left(state, { code: 'ABCDEF' });
  assert.deepEqual([state.room, state.role], [null, null]);
  room.room(state, { room: { code: 'ABCDEF', state: 'waiting', players } }, [], 9);
  room.kicked(state, { code: 'ABCDEF' });
  assert.deepEqual([state.view, state.room, state.notice.key], ['lobby', null, 'notice.kicked']);
  // A tournament's match, decided: back to the tournament, with who won.
  Object.assign(state, { tournament: { code: 'TTTTTT' } });
  room.room(state, { room: { code: 'MATCH1', state: 'waiting', players, tournament: 'TTTTTT' } }, [], 9);
  state.results = { winner: 'p2', standings: [{ player: 'p2', name: 'bob' }] };
  room.room_closed(state, { code: 'MATCH1', reason: 'match_over' });
  assert.deepEqual([state.view, state.notice.key, state.notice.params.name], ['tournament', 'notice.matchWon', 'bob']);
});

test('lobby: the lists, the best box\'s own answer, the daily board, the queue and a restart', () => {
  const state = signedIn();
  lobby.rooms(state, { rooms: [{ code: 'ABCDEF' }] });
  lobby.leaderboard(state, { rid: 'best', mode: 'classic', size: 4, me: { score: 900, moves: 80 } });
  lobby.leaderboard(state, { rid: 'daily', entries: [1] });
  lobby.leaderboard(state, { rid: 'lb', entries: [2] });
  assert.deepEqual(state.best, { mode: 'classic', size: 4, score: 900, moves: 80 });
  assert.deepEqual([state.daily.entries, state.leaderboard.entries, state.rooms.length], [[1], [2], 1]);
  lobby.queued(state, { type: 'queued' }, [], 5);
  assert.equal(state.queued, true);
  assert.equal(state.seeking, null, 'a server that sends no rating');
  lobby.queued(state, { type: 'queued', rating: 1640, window: 450 }, [], 5);
  assert.deepEqual([state.seeking.rating, state.seeking.window, state.seeking.since], [1640, 450, 5]);
  lobby.match_cancelled(state);
  assert.equal(state.queued, false);
  lobby.shutdown(state);
  assert.equal(state.notice.key, 'notice.restarting');
});

test('social: presence changes the friend it names; a challenge is kept until it is gone, mine named', () => {
  const state = signedIn();
  social.friends(state, { friends: [{ id: 'p2', name: 'bob', status: 'offline' }], incoming: [], outgoing: [], blocked: [] });
  social.presence(state, { player: 'p2', status: 'racing', code: 'ABCDEF' });
  social.presence(state, { player: 'stranger', status: 'online' });
  assert.deepEqual(state.friends.list, [{ id: 'p2', name: 'bob', status: 'racing', code: 'ABCDEF', with: undefined }]);
  social.challenged(state, { id: 'c1', from: { id: 'p2', name: 'bob' }, settings: { size: 4 } });
  assert.deepEqual(state.challenges.map((c) => c.id), ['c1']);
  social.challenge_expired(state, { type: 'challenge_expired', id: 'c1' });
  assert.deepEqual([state.challenges, state.notice.key], [[], 'notice.challenge.expired']);
  social.challenge_sent(state, { id: 'c2', to: { id: 'p2', name: 'bob' } });
  social.challenge_declined(state, { type: 'challenge_declined', id: 'c2' });
  assert.deepEqual([state.sentChallenge, state.notice.key, state.notice.params.name], [null, 'notice.myChallenge.declined', 'bob']);
});

test('tournament: my request opens it, an unasked one opens it only from the lobby, leaving closes it', () => {
  const state = signedIn({ view: 'profile' });
  tournament.tournament(state, { rid: 'tournament', tournament: { code: 'TTTTTT' } });
  assert.deepEqual([state.view, state.tournament.code], ['tournament', 'TTTTTT']);
  tournament.tournament(state, { rid: 'left-tournament' });
  assert.deepEqual([state.view, state.tournament], ['lobby', null]);
  state.view = 'play';
  tournament.tournament(state, { tournament: { code: 'TTTTTT' } });
  assert.equal(state.view, 'play', 'a race is not interrupted');
});

test('tournament TV: another match keeps a live board of its own, my own room never goes there, its race_over ends it', () => {
  const state = signedIn({ view: 'tournament', tournament: { code: 'TTTTTT', matches: [{ state: 'racing', room: 'AAAAAA' }] } });
  const games = { x: { board: [[2, 0], [0, 0]], score: 0 }, y: { board: [[0, 2], [0, 0]], score: 0 } };
  const effects = applyMessage(state, { type: 'race_state', code: 'AAAAAA', remaining_ms: 5000, games }, 1000);
  assert.deepEqual([state.live.AAAAAA.endsAt, state.race, state.view], [6000, null, 'tournament']);
  assert.deepEqual(effects, [{ kind: 'render' }]);
  state.view = 'play';
  assert.deepEqual(applyMessage(state, { type: 'race_state', code: 'AAAAAA', remaining_ms: 5000, games }, 1000), [],
    'my own race is not redrawn for another match');
  state.view = 'tournament';
  applyMessage(state, { type: 'race_update', code: 'AAAAAA', player: 'x', board: [[0, 0], [0, 4]], score: 4, moves: 1, max_tile: 4, state: 'playing', motions: [], spawned: [] });
  assert.deepEqual([state.live.AAAAAA.games.x.score, state.live.AAAAAA.games.x.board[1][1]], [4, 4]);
  state.room = { code: 'MINEXX', players: [] };
  applyMessage(state, { type: 'race_start', code: 'MINEXX', time_limit: 60, games }, 0);
  assert.equal(state.race.code, 'MINEXX', 'my own race is mine');
  assert.equal(state.live.MINEXX, undefined);
  applyMessage(state, { type: 'race_over', code: 'AAAAAA', reason: 'target', winner: 'x', standings: [{ player: 'x' }, { player: 'y' }] });
  assert.deepEqual([state.live, state.results], [{}, null]);
});

test('walkover: the result stays on screen after its room closes, and one told on their return sees it too', () => {
  const state = signedIn({ view: 'play', role: 'racer', room: { code: 'MINEXX', tournament: 'TTTTTT', players: [] }, tournament: { code: 'TTTTTT', matches: [] } });
  const over = { type: 'race_over', code: 'MINEXX', reason: 'walkover', winner: ME.id, standings: [{ player: ME.id }, { player: 'z' }] };
  applyMessage(state, over);
  applyMessage(state, { type: 'room_closed', code: 'MINEXX', reason: 'match_over' });
  assert.deepEqual([state.room, state.results?.reason, state.view], [null, 'walkover', 'play']);
  leaveRoom(state);
  assert.equal(state.view, 'tournament', 'back to its tournament');
  const back = signedIn({ view: 'tournament', tournament: { code: 'TTTTTT', matches: [] } });
  applyMessage(back, { ...over, winner: 'z', standings: [{ player: 'z' }, { player: ME.id }] });
  assert.deepEqual([back.results?.winner, back.view, back.role], ['z', 'play', 'racer']);
});

test('account: welcome, registered, renamed, a link code and the sessions', () => {
  const state = initialState();
  Object.assign(state, { queued: true, notice: { kind: 'error', key: 'errors.x' } });
  account.welcome(state, { player: { ...ME }, registered: false });
  assert.deepEqual([state.me, state.queued, state.notice], [{ ...ME, registered: false }, false, null]);
  account.registered(state);
  account.renamed(state, { player: { id: 'p1', name: 'anna' } });
  assert.deepEqual(state.me, { id: 'p1', name: 'anna', registered: true });
  assert.deepEqual(state.notice, { kind: 'info', key: 'notice.renamed', params: { name: 'anna' } });
  account.link_code(state, { code: 'K3Y9', expires_at: 60 });
  account.sessions(state, { sessions: [{ id: 's1' }] });
  assert.deepEqual(state.account, { linkCode: { code: 'K3Y9', expires_at: 60 }, sessions: [{ id: 's1' }] });
});

test('account: a guest whose name went to someone else is told so by the welcome', () => {
  const state = initialState();
  account.welcome(state, { player: { id: 'p1', name: 'guest-0a1b2c3d' }, registered: false, name_released: 'zoe' });
  assert.deepEqual(state.notice, { kind: 'info', key: 'notice.name_released', params: { old: 'zoe', name: 'guest-0a1b2c3d' } });
});
