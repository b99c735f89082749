import { test } from 'node:test';
import './english.mjs';
import assert from 'node:assert/strict';
import { noticeText } from '../../web-client/js/notice_view.js';
import { Controller, ghostTimeLimit } from '../../web-client/js/controller.js';
import { initialState, applyMessage, myGame } from '../../web-client/js/state.js';

// A controller over a fresh model whose sends and moves are recorded.
function harness(pending) {
  const state = initialState();
  const sent = [];
  const moves = [];
  const controller = new Controller(state, { send: (m) => sent.push(m), press: (a) => sent.push({ press: a }),
    moveTo: (u) => moves.push(u) }, pending);
  // Folds msg into the model and runs the controller's follow-ups, as app.js does.
  const receive = (msg) => {
    const before = myGame(state);
    applyMessage(state, msg);
    controller.onMessage(msg, before);
  };
  return { state, sent, moves, controller, receive };
}

const welcome = { type: 'welcome', player: { id: 'p1', name: 'ann' }, token: 't', resumed: false };
const G = (id, state = 'playing') => ({ id, mode: 'classic', size: 4, target: 2048, board: [[0]], score: 0, moves: 0,
  max_tile: 2, state, won: false, ranked: true, undos: 0 });

test('after welcome: the invited room first, then the lobby lists', () => {
  const { sent, receive } = harness({ room: 'ABCDEF' });
  receive(welcome);
  assert.deepEqual(sent.map((m) => m.type), ['join_room', 'list_rooms', 'leaderboard', 'bot_record', 'friends', 'leaderboard']);
  assert.equal(sent[0].code, 'ABCDEF');
  sent.length = 0;
  receive(welcome);  // a reconnection: the invitation was used once
  assert.deepEqual(sent.map((m) => m.type), ['list_rooms', 'leaderboard', 'bot_record', 'friends', 'leaderboard']);
});

test('a ?watch link watches after welcome, and a spectator watches the same room again after a reconnection', () => {
  const { state, sent, receive } = harness({ watch: 'QRSTUV' });
  receive(welcome);
  assert.deepEqual(sent[0], { type: 'spectate', code: 'QRSTUV' });
  assert.equal(state.role, 'spectator');
  receive({ type: 'room', room: { code: 'QRSTUV', players: [{ id: 'x' }], state: 'racing' } });
  sent.length = 0;
  receive(welcome);
  assert.deepEqual(sent[0], { type: 'spectate', code: 'QRSTUV' });
});

test('a redirect moves the connection, and asks again there for what it was about', () => {
  const { sent, moves, receive } = harness();
  receive({ type: 'redirect', url: '/node/b/ws', code: 'ABCDEF', reason: 'join_room' });
  assert.deepEqual(moves, ['/node/b/ws']);
  receive(welcome);
  assert.deepEqual(sent[0], { type: 'join_room', code: 'ABCDEF' });
  sent.length = 0;
  receive({ type: 'redirect', url: 'ws://c/ws', code: 'ABCDEF', reason: 'resume' });
  receive(welcome);
  assert.equal(sent[0].type, 'list_rooms');  // a resumed race needs no asking
});

test('a tournament redirect joins or follows it again on the node it runs on', () => {
  const { sent, moves, receive } = harness();
  receive({ type: 'redirect', url: 'ws://b/ws', code: 'TOURN1', reason: 'join_tournament' });
  receive(welcome);
  assert.deepEqual(moves, ['ws://b/ws']);
  assert.deepEqual(sent[0], { type: 'join_tournament', code: 'TOURN1', rid: 'tournament' });
  sent.length = 0;
  receive({ type: 'redirect', url: 'ws://c/ws', code: 'TOURN2', reason: 'spectate_tournament' });
  receive(welcome);
  assert.deepEqual(sent[0], { type: 'spectate_tournament', code: 'TOURN2', rid: 'tournament' });
  sent.length = 0;
  receive(welcome);  // asked once
  assert.equal(sent[0].type, 'list_rooms');
});

test('a new game and a finished one ask for the best of their mode and size; a move of the same game does not', () => {
  const { sent, receive } = harness();
  receive(welcome);
  sent.length = 0;
  receive({ type: 'game', game: G('g1') });
  assert.deepEqual(sent, [{ type: 'leaderboard', mode: 'classic', size: 4, kind: 'score', limit: 1, rid: 'best' }]);
  sent.length = 0;
  receive({ type: 'game', game: G('g1') });  // the same game again (a resync)
  assert.deepEqual(sent, []);
  receive({ type: 'game', game: G('g1', 'over') });
  assert.equal(sent.length, 1);
});

test('a race with the computer asks for the record against it once it is over', () => {
  const { sent, receive } = harness();
  receive({ type: 'race_over', code: 'ABCDEF', reason: 'target', winner: 'p1',
    standings: [{ player: 'p1' }, { player: 'bot-hard' }], ratings: [], replays: [] });
  assert.deepEqual(sent, [{ type: 'bot_record' }]);
  sent.length = 0;
  receive({ type: 'race_over', code: 'ABCDEF', reason: 'target', winner: 'p1',
    standings: [{ player: 'p1' }, { player: 'p2' }], ratings: [], replays: [] });
  assert.deepEqual(sent, []);
});

test('intents: leave as a racer or a spectator, rematch, ready and moves', () => {
  const { state, sent, controller, receive } = harness();
  receive(welcome);
  receive({ type: 'room', room: { code: 'ABCDEF', players: [{ id: 'p1', ready: false }], state: 'waiting' } });
  sent.length = 0;
  controller.toggleReady();
  assert.deepEqual(sent.pop(), { type: 'ready', ready: true });
  controller.move('left');  // no race game yet and no solo game: nothing to move
  assert.deepEqual(sent, []);
  receive({ type: 'race_start', code: 'ABCDEF', time_limit: 60, games: { p1: G('r1') } });
  controller.move('left');  // my race game: played through the predictor
  assert.deepEqual(sent.pop(), { press: { dir: 'left' } });
  state.results = { winner: 'p1' };
  controller.rematch();
  assert.equal(state.results, null);
  assert.deepEqual(sent.pop(), { type: 'rematch' });
  controller.leave();
  assert.deepEqual(sent.pop(), { type: 'leave_room' });
  assert.equal(state.room, null);
  assert.equal(state.view, 'lobby');
  // What the room sent before the server saw me leave does not bring it back.
  receive({ type: 'room', room: { code: 'ABCDEF', players: [{ id: 'p1', ready: false }], state: 'waiting' } });
  receive({ type: 'race_over', code: 'ABCDEF', winner: null, standings: [], ratings: {}, replays: {} });
  assert.equal(state.room, null);
  assert.equal(state.results, null);
  assert.equal(state.view, 'lobby');
  receive({ type: 'left', code: 'ABCDEF' });
  receive({ type: 'room', room: { code: 'ABCDEF', players: [{ id: 'p1', ready: false }], state: 'waiting' } });
  assert.equal(state.view, 'play', 'joined again once the leaving was confirmed');
  controller.spectate('QRSTUV');
  controller.leave();
  assert.deepEqual(sent.pop(), { type: 'stop_spectating' });
  assert.equal(state.role, null);
});

test('friends: requests and answers, challenges with the lobby\'s settings, follow; a change reloads the lists', () => {
  const { state, sent, controller, receive } = harness();
  receive(welcome);
  sent.length = 0;
  controller.addFriend('bob');
  assert.deepEqual(sent.pop(), { type: 'friend_request', name: 'bob' });
  controller.answerFriend('p2', true);
  assert.deepEqual(sent.pop(), { type: 'friend_accept', player: 'p2' });
  controller.answerFriend('p3', false);
  assert.deepEqual(sent.pop(), { type: 'friend_decline', player: 'p3' });
  controller.removeFriend('p2');
  assert.deepEqual(sent.pop(), { type: 'friend_remove', player: 'p2' });
  receive({ type: 'friend_update', player: { id: 'p2', name: 'bob' }, relation: 'none' });
  assert.deepEqual(sent.pop(), { type: 'friends' });
  controller.challenge('p2', { mode: 'classic', size: 5, target: 512 });
  assert.deepEqual(sent.pop(), { type: 'challenge', player: 'p2', mode: 'classic', size: 5, target: 512 });
  controller.challenge('p2', { mode: 'fifteen', size: 4 });
  assert.deepEqual(sent.pop(), { type: 'challenge', player: 'p2', mode: 'fifteen', size: 4 });
  receive({ type: 'challenged', id: 'c1', from: { id: 'p2', name: 'bob' }, settings: { mode: 'classic', size: 4, target: 2048, time_limit: 300 } });
  assert.equal(state.challenges.length, 1);
  controller.answerChallenge('c1', true);
  assert.deepEqual(sent.pop(), { type: 'challenge_accept', id: 'c1' });
  assert.deepEqual(state.challenges, []);
  controller.watchFriend('p2');
  assert.deepEqual(sent.pop(), { type: 'spectate_player', player: 'p2' });
  assert.equal(state.role, 'spectator');
});

test('the daily challenge: today\'s board after welcome and after my attempt ends; Play sends a daily game', () => {
  const { sent, controller, receive } = harness();
  receive(welcome);
  assert.deepEqual(sent.pop(), { type: 'leaderboard', board: 'daily', mode: 'classic', size: 4, limit: 10, rid: 'daily' });
  controller.playDaily(5);
  assert.deepEqual(sent.pop(), { type: 'new_game', daily: true, mode: 'classic', size: 5 });
  const daily = { id: 'd1', mode: 'classic', size: 4, board: [[2]], state: 'playing', daily: '2026-11-26' };
  sent.length = 0;
  receive({ type: 'game', game: daily });
  assert.deepEqual(sent, [], 'no best for a daily game');
  receive({ type: 'game', game: { ...daily, state: 'resigned' } });
  assert.equal(sent.pop().rid, 'daily');
  // Or the move that ends it.
  receive({ type: 'game', game: daily });
  sent.length = 0;
  receive({ type: 'moved', game: 'd1', changed: true, board: [[4]], score: 4, moves: 1, max_tile: 4,
    state: 'over', won: false, motions: [], spawned: [] });
  assert.equal(sent.pop().rid, 'daily');
});

test('racing a run asks for a ghost room long enough for the whole run', () => {
  const { sent, controller } = harness();
  controller.raceGhost({ id: 'g1', moves: 'LURD', times: [100, 200, 300, 400] });
  assert.deepEqual(sent.at(-1), { type: 'create_room', ghost: 'g1', time_limit: 300 });
  // Twelve minutes of moves: the run's length and a minute more.
  assert.equal(ghostTimeLimit({ moves: 'LU', times: [1000, 720000] }), 780);
  // No times: three moves a second.
  assert.equal(ghostTimeLimit({ moves: 'L'.repeat(3000) }), 1059);
  assert.equal(ghostTimeLimit({ moves: 'L'.repeat(30000), times: [] }), 3600);
});

test('moderation: the host sends a racer out, anyone reports; kicked and closed rooms leave the room', () => {
  const { state, sent, controller, receive } = harness();
  receive(welcome);
  controller.kick('p2');
  assert.deepEqual(sent.at(-1), { type: 'kick', player: 'p2' });
  controller.report('p2', 'name', '');
  assert.deepEqual(sent.at(-1), { type: 'report', player: 'p2', reason: 'name' });
  controller.report('p2', 'abuse', 'rude in chat');
  assert.deepEqual(sent.at(-1), { type: 'report', player: 'p2', reason: 'abuse', note: 'rude in chat' });
  const room = { code: 'ABCDEF', host: 'p2', state: 'waiting', players: [{ id: 'p1', name: 'ann', ready: false, connected: true }] };
  receive({ type: 'room', room });
  assert.equal(state.role, 'racer');
  receive({ type: 'kicked', code: 'ABCDEF' });
  assert.equal(state.room, null);
  assert.equal(state.view, 'lobby');
  assert.match(noticeText(state.notice), /sent you out of room ABCDEF/);
  receive({ type: 'room', room });
  receive({ type: 'room_closed', code: 'ABCDEF', reason: 'spam' });
  assert.equal(state.room, null);
  assert.match(noticeText(state.notice), /closed by the operator: spam/);
});
