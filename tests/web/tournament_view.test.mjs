import { test } from 'node:test';
import './english.mjs';
import assert from 'node:assert/strict';
import { noticeText } from '../../web-client/js/notice_view.js';
import { boxTop, bracketRounds, matchText, standingsOrder, summaryText } from '../../web-client/js/tournament_view.js';
import { applyMessage, initialState, leaveRoom } from '../../web-client/js/state.js';

const T = (over = {}) => ({ code: 'Q4RTZ8', format: 'single_elimination', mode: 'classic', size: 4, target: 2048,
  max_players: 8, host: 'p1', state: 'waiting', round: 0, rounds: 0, players: [{ id: 'p1', name: 'ann' }],
  matches: [], podium: [], ...over });

test('the summary says the format, the game and where the tournament stands', () => {
  assert.equal(summaryText(T()), 'Single elimination · classic 4×4 to 2048 · waiting for players (1/8)');
  assert.equal(summaryText(T({ format: 'swiss', state: 'running', round: 2, rounds: 5 })),
    'Swiss · classic 4×4 to 2048 · round 2 of 5');
  assert.equal(summaryText(T({ format: 'arena', mode: 'fifteen', state: 'running' })), 'Arena · fifteen 4×4 · running');
  assert.equal(summaryText(T({ state: 'cancelled' })), 'Single elimination · classic 4×4 to 2048 · called off');
  assert.equal(summaryText(T({ format: 'arena', room_size: 4, state: 'running' })),
    'Arena · classic 4×4 to 2048 in rooms of 4 · running');
});

test("a match's line says who raced and how it ended, in rooms of up to four too", () => {
  const names = { a: 'ann', b: 'bob', c: 'cy', d: 'dee' };
  const m = (extra) => ({ round: 1, index: 0, a: 'a', b: 'b', state: 'done', winner: null, draw: false, ...extra });
  assert.equal(matchText(m({ winner: 'a', players: ['a', 'b'], results: { a: 'win', b: 'loss' } }), names), 'ann – bob · ann won');
  assert.equal(matchText(m({ draw: true }), names), 'ann – bob · draw');
  assert.equal(matchText(m({}), names), 'ann – bob · not played');
  assert.equal(matchText(m({ state: 'bye', b: null }), names), 'ann: bye');
  const room = m({ players: ['a', 'b', 'c', 'd'], winner: 'c', results: { a: 'draw', b: 'loss', c: 'win', d: 'draw' } });
  assert.equal(matchText(room, names), 'ann – bob – cy – dee · cy won, ann, dee drew');
  assert.equal(matchText({ ...room, state: 'racing', winner: null, results: {} }, names), 'ann – bob – cy – dee · racing');
  const tie = m({ players: ['a', 'b', 'c'], results: { a: 'draw', b: 'draw', c: 'loss' } });
  assert.equal(matchText(tie, names), 'ann – bob – cy · ann, bob drew', 'a tie for first');
});

test('the bracket groups matches by round in bracket order, the third-place match aside', () => {
  const m = (round, index, extra = {}) => ({ round, index, a: null, b: null, state: 'pending', ...extra });
  const { rounds, third } = bracketRounds(T({ matches: [m(1, 1), m(1, 0), m(2, 0), m(2, 1, { third_place: true })] }));
  assert.equal(rounds.length, 2);
  assert.deepEqual(rounds[0].map((x) => x.index), [0, 1]);
  assert.equal(rounds[1].length, 1);
  assert.equal(third.index, 1);
});

test('a later round box sits centred between the two that feed it', () => {
  const half = (boxTop(0, 0) + boxTop(0, 1)) / 2;
  assert.equal(boxTop(1, 0), half);
  assert.equal(boxTop(2, 0), (boxTop(1, 0) + boxTop(1, 1)) / 2);
});

test('my own tournament request opens its screen; leaving closes it; a match over goes back to it', () => {
  const s = initialState();
  applyMessage(s, { type: 'tournament', tournament: T() });
  assert.equal(s.view, 'tournament', 'a member signed in again finds it');
  s.view = 'lobby';
  applyMessage(s, { type: 'tournament', tournament: T() });
  assert.equal(s.view, 'lobby', "another player's join does not move me");
  applyMessage(s, { type: 'tournament', tournament: T(), rid: 'tournament' });
  assert.equal(s.view, 'tournament');
  applyMessage(s, { type: 'room', room: { code: 'ROOM22', players: [], state: 'waiting', tournament: 'Q4RTZ8' } });
  assert.equal(s.view, 'play');
  applyMessage(s, { type: 'race_over', code: 'ROOM22', winner: 'p1', reason: 'forfeit',
    standings: [{ player: 'p1', name: 'ann' }, { player: 'p2', name: 'bob' }], ratings: {}, replays: {} });
  applyMessage(s, { type: 'room_closed', code: 'ROOM22', reason: 'match_over' });
  assert.equal(s.view, 'tournament');
  assert.equal(noticeText(s.notice), 'ann won the match');
  assert.equal(s.room, null);
  applyMessage(s, { type: 'room', room: { code: 'ROOM23', players: [], state: 'racing', tournament: 'Q4RTZ8' } });
  leaveRoom(s);  // I leave my next match (a forfeit)
  assert.equal(s.view, 'tournament', 'back to the tournament, whose podium is still to come');
  applyMessage(s, { type: 'tournament', tournament: T(), rid: 'left-tournament' });
  assert.equal(s.tournament, null);
  assert.equal(s.view, 'lobby');
  applyMessage(s, { type: 'room', room: { code: 'ROOM24', players: [], state: 'waiting' } });
  leaveRoom(s);
  assert.equal(s.view, 'lobby', 'any other room: back to the lobby');
});

test('a finished knockout lists its podium first, the others in seed order', () => {
  const players = ['a', 'b', 'c', 'd'].map((id) => ({ id, name: id }));
  assert.deepEqual(standingsOrder(T({ players, podium: ['c', 'a', 'd'] })).map((p) => p.id), ['c', 'a', 'd', 'b']);
  assert.deepEqual(standingsOrder(T({ players })).map((p) => p.id), ['a', 'b', 'c', 'd']);
  assert.deepEqual(standingsOrder(T({ players, format: 'swiss', podium: ['c'] })).map((p) => p.id), ['a', 'b', 'c', 'd']);
});
