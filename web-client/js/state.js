// The client's model, and the only place it changes: applyMessage folds one server message
// into the state through the reducer of its domain (reducers/) and returns what the views
// should do about it; the functions at the end are the changes the client makes itself (a
// view opened, a room left). Pure: no DOM, no socket. Notices are kept as catalog keys with
// their params ({kind, key, params}): the views word them (i18n.js).
import { t } from './i18n.js';
import { account } from './reducers/account.js';
import { lobby } from './reducers/lobby.js';
import { play } from './reducers/play.js';
import { race } from './reducers/race.js';
import { leaveRoom, room } from './reducers/room.js';
import { dropChallenge, social } from './reducers/social.js';
import { foldLive, isLive, tournament } from './reducers/tournament.js';

export function initialState() {
  return {
    view: 'lobby',     // the screen shown: 'lobby' | 'play' | 'replay' | 'profile' | 'tournament'
    me: null,          // {id, name}
    solo: null,        // G of the current solo game
    room: null,        // the room we are in or watch
    leaving: null,     // the code of a room I left, until the server confirms it
    role: null,        // 'racer' | 'spectator' | null
    race: null,        // {code, games: {id: G}, endsAt}
    countdown: null,   // seconds, while counting down
    results: null,     // the last race_over
    queued: false,
    seeking: null,     // while queued: what quick match looks for (reducers/lobby.js)
    away: {},          // racers of my room whose connection is lost: id → when I learned it (ms)
    rooms: [],
    leaderboard: null,
    best: null,        // {mode, size, score, moves}: my best ranked result there (leaderboard rid 'best')
    daily: null,       // today's daily board, 4×4 (leaderboard rid 'daily')
    dailyStreak: null, // {streak, longest}: my daily streaks, from my profile
    botRecord: null,   // {easy|medium|hard: {wins, losses, draws}}
    muteEmotes: false, // this viewer hides everyone's emotes
    notice: null,      // {kind: 'error' | 'info' | 'invite' | 'achievement', key, params}
    account: { linkCode: null, sessions: null },  // my link code {code, expires_at}, my sessions
    // Friends: the lists of `friends` (each friend with their presence), the challenges to me
    // waiting for an answer, and my own open challenge {id, to}.
    friends: { list: [], incoming: [], outgoing: [], blocked: [] },
    challenges: [],
    sentChallenge: null,
    tournament: null,  // the tournament I play in or follow: its last snapshot
    live: {},          // its matches I watch live: room code → {games: {id: G}, endsAt}
    practice: null,    // the practice game shown (practice.js: played in the page, never ranked), or null
  };
}

// The reducers, one per domain, each a table of message type → fold(state, msg, effects, now).
const REDUCERS = Object.assign({}, play, room, race, lobby, social, tournament, account, {
  logged_out(state) { Object.assign(state, initialState()); },
  // A refused request, worded by its code (errors.<code>; the server's words for a code the
  // catalog does not know).
  error(state, msg) {
    state.notice = { kind: 'error', key: `errors.${msg.code}`, params: { code: msg.code, message: msg.message, field: msg.field, reason: msg.reason, until: msg.until } };
  },
});

// Answers that mean the player's last request went through: an error notice about an earlier
// one has had its day. (Not `rooms`: the lobby asks for it by itself every few seconds.)
const SUCCESSES = new Set(['game', 'moved', 'room', 'queued', 'match_cancelled', 'leaderboard',
  'race_start', 'left', 'stopped', 'registered', 'renamed', 'link_code', 'sessions', 'friends',
  'friend_update', 'challenge_sent', 'tournament']);

// A room's own messages (see `leaving`).
const ROOM_MESSAGES = new Set(['room', 'countdown', 'race_start', 'race_state', 'race_update', 'race_over']);

// Folds msg into state; returns a list of effects: {kind: 'animate', target: 'solo' |
// playerId, before, message}, {kind: 'emote', player, emote} (not when muted), then
// {kind: 'render'} (for another match's stream, only while the tournament's screen shows).
export function applyMessage(state, msg, now = Date.now()) {
  const effects = [];
  // What the server sent of a room before it saw me leave it is stale: it must not bring the
  // room back on screen.
  if (state.leaving && ROOM_MESSAGES.has(msg.type) && (msg.room?.code ?? msg.code) === state.leaving) {
    return effects;
  }
  if (isLive(state, msg)) {
    foldLive(state, msg, now);
    // Only the tournament's screen shows them: my own race is not redrawn for another's move.
    if (state.view === 'tournament') effects.push({ kind: 'render' });
    return effects;
  }
  expireNotice(state, msg);
  REDUCERS[msg.type]?.(state, msg, effects, now);
  effects.push({ kind: 'render' });
  return effects;
}

// A notice lasts until what it is about has passed: an error until a request succeeds, an
// invite link until the race starts or the room is left, an achievement until the next game
// or race starts.
function expireNotice(state, msg) {
  const kind = state.notice?.kind;
  if (kind === 'error' && SUCCESSES.has(msg.type)) state.notice = null;
  if (kind === 'invite' && (msg.type === 'race_start' || msg.type === 'left')) state.notice = null;
  if (kind === 'achievement' && (msg.type === 'race_start' || (msg.type === 'game' && msg.game.id !== state.solo?.id))) {
    state.notice = null;
  }
}

// The game shown large: your race game when you race, else your solo game (none while you
// watch).
export function myGame(state) {
  if (state.race && state.role === 'racer' && state.me) return state.race.games[state.me.id] ?? null;
  return state.role ? null : state.practice ?? state.solo;
}
// My game as the server knows it: none while a practice game is shown.
export function serverGame(state) {
  const game = myGame(state);
  return game?.practice ? null : game;
}
// A practice game shown (its latest view, practice.js), or none (null).
export function showPractice(state, game) { state.practice = game; }

// The client's own changes to its model; everything else follows the server's messages.
export function showView(state, view) { state.view = view; }
export function startWatching(state) { state.role = 'spectator'; }
export { leaveRoom };

// What a racer's heading says of their connection, {text, lost}, or null: lost,
// "reconnecting… 42 s" (the grace left before they forfeit, counted from when this page
// learned of it); slow (the room says their round trip is long), "slow connection".
export function connectionNote(state, id, now = Date.now()) {
  const since = state.away[id];
  if (since === undefined) {
    return state.room?.players.find((p) => p.id === id)?.slow ? { text: t('race.slow'), lost: false } : null;
  }
  const left = Math.max(0, Math.ceil((since + (state.room?.grace ?? 0) * 1000 - now) / 1000));
  return { text: state.room?.grace ? t('race.reconnectingFor', { count: left }) : t('race.reconnecting'), lost: true };
}
export function dismissResults(state) { state.results = null; }
export function answeredChallenge(state, id) { dropChallenge(state, id); }
// A notice of the client's own (key and params as for t()).
export function notify(state, kind, key, params = {}) { state.notice = { kind, key, params }; }
export function setEmotesMuted(state, muted) { state.muteEmotes = muted; }
