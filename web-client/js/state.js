// The client's model, and the only place it changes: applyMessage folds one server message
// into the state and returns what the views should do about it; the functions at the end are
// the changes the client makes itself (a view opened, a room left). Pure: no DOM, no socket.

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
    away: {},          // racers of my room whose connection is lost: id → when I learned it (ms)
    rooms: [],
    leaderboard: null,
    best: null,        // {mode, size, score, moves}: my best ranked result there (leaderboard rid 'best')
    daily: null,       // today's daily board, 4×4 (leaderboard rid 'daily')
    dailyStreak: null, // {streak, longest}: my daily streaks, from my profile
    botRecord: null,   // {easy|medium|hard: {wins, losses, draws}}
    muteEmotes: false, // this viewer hides everyone's emotes
    notice: null,      // {kind: 'error' | 'info' | 'invite' | 'achievement', text}
    account: { linkCode: null, sessions: null },  // my link code {code, expires_at}, my sessions
    // Friends: the lists of `friends` (each friend with their presence), the challenges to me
    // waiting for an answer, and my own open challenge {id, to}.
    friends: { list: [], incoming: [], outgoing: [], blocked: [] },
    challenges: [],
    sentChallenge: null,
    tournament: null,  // the tournament I play in or follow: its last snapshot
  };
}

// What a friend is doing, in words: "racing bob in K7Q2XM".
export function presenceText(p) {
  switch (p.status) {
    case 'online': return 'online';
    case 'solo': return 'playing solo';
    case 'racing': return `racing ${p.with?.length ? p.with.join(', ') : 'alone'} in ${p.code}`;
    case 'spectating': return `watching ${p.code}`;
    default: return 'offline';
  }
}

// "classic 4×4 to 2048": a challenge's settings.
export function settingsText(s) {
  return `${s.mode} ${s.size}×${s.size}${s.mode === 'fifteen' ? '' : ` to ${s.target}`}`;
}

function dropChallenge(state, id) { state.challenges = state.challenges.filter((c) => c.id !== id); }

function game(g) { return { ...g }; }

// Answers that mean the player's last request went through: an error notice about an earlier
// one has had its day. (Not `rooms`: the lobby asks for it by itself every few seconds.)
const SUCCESSES = new Set(['game', 'moved', 'room', 'queued', 'match_cancelled', 'leaderboard',
  'race_start', 'left', 'stopped', 'registered', 'renamed', 'link_code', 'sessions', 'friends',
  'friend_update', 'challenge_sent', 'tournament']);

// A room's own messages (see `leaving`).
const ROOM_MESSAGES = new Set(['room', 'countdown', 'race_start', 'race_state', 'race_update', 'race_over']);

// Returns a list of effects: {kind: 'animate', target: 'solo' | playerId, before, message},
// {kind: 'emote', player, emote} (not when muted) or {kind: 'render'}.
export function applyMessage(state, msg, now = Date.now()) {
  const effects = [];
  // What the server sent of a room before it saw me leave it is stale: it must not bring the
  // room back on screen.
  if (state.leaving && ROOM_MESSAGES.has(msg.type) && (msg.room?.code ?? msg.code) === state.leaving) {
    return effects;
  }
  if (state.notice?.kind === 'error' && SUCCESSES.has(msg.type)) state.notice = null;
  // An invite link is news until the race starts or the room is left.
  if (state.notice?.kind === 'invite' && (msg.type === 'race_start' || msg.type === 'left')) state.notice = null;
  // An achievement is news until the next game or race starts.
  if (state.notice?.kind === 'achievement' && ['game', 'race_start'].includes(msg.type) &&
      !(msg.type === 'game' && msg.game.id === state.solo?.id)) state.notice = null;
  switch (msg.type) {
    case 'welcome':
      state.me = { ...msg.player, registered: !!msg.registered };
      state.account = { linkCode: null, sessions: null };
      state.notice = null;
      state.queued = false;  // a new connection is in no queue
      break;
    case 'game':
      state.solo = game(msg.game);
      if (msg.game.state === 'playing' && state.view === 'lobby') state.view = 'play';
      break;
    case 'moved': {
      const target = state.race && state.me && state.race.games[state.me.id] && state.race.games[state.me.id].id === msg.game
        ? state.race.games[state.me.id] : state.solo;
      if (!target || target.id !== msg.game) break;
      const before = target.board;
      Object.assign(target, { board: msg.board, score: msg.score, moves: msg.moves, max_tile: msg.max_tile,
        state: msg.state, won: msg.won });
      if (msg.changed) effects.push({ kind: 'animate', target: target === state.solo ? 'solo' : state.me.id, before, message: msg });
      break;
    }
    case 'room': {
      // After a race, a racer who is ready again wants a rematch: the others are told.
      const wanting = state.results && state.role === 'racer'
        ? msg.room.players.filter((p) => p.ready && p.id !== state.me?.id).map((p) => p.name) : [];
      if (wanting.length) state.notice = { kind: 'info', text: `${wanting.join(', ')} wants a rematch` };
      state.view = 'play';
      state.room = msg.room;
      state.away = Object.fromEntries(msg.room.players.filter((p) => !p.connected && !p.ghost)
        .map((p) => [p.id, state.away[p.id] ?? now]));
      if (state.me && msg.room.players.some((p) => p.id === state.me.id)) state.queued = false;  // paired
      if (!state.role && state.me && msg.room.players.some((p) => p.id === state.me.id)) state.role = 'racer';
      if (msg.room.state === 'waiting') state.countdown = null;
      break;
    }
    case 'left':
      state.leaving = null;
      if (state.room && state.room.code !== msg.code) break;  // in another room already
      state.room = null; state.role = null; state.race = null; state.countdown = null; state.away = {};
      break;
    // Moderation: the host sent me out, or the operator closed the room.
    case 'kicked':
      leaveRoom(state);
      state.notice = { kind: 'info', text: `The host sent you out of room ${msg.code}.` };
      break;
    case 'room_closed':
      if (msg.reason === 'match_over') {
        // A tournament's match is decided: back to the tournament, with who won.
        const over = state.results;
        const winner = over?.standings.find((p) => p.player === over.winner)?.name;
        leaveRoom(state);
        if (state.tournament) state.view = 'tournament';
        state.notice = { kind: 'info', text: over ? (winner ? `${winner} won the match` : 'The match was a draw') : 'The match was decided unraced' };
        break;
      }
      leaveRoom(state);
      state.countdown = null;
      state.notice = { kind: 'info', text: `Room ${msg.code} was closed by the operator: ${msg.reason}` };
      break;
    // A tournament's snapshot: the answer to my own request (rid 'tournament') opens it, and so
    // does the first one a member gets unasked in the lobby (signed in again: a reload, a
    // restart); the answer to leaving it (rid 'left-tournament') closes it.
    case 'tournament': {
      if (msg.rid === 'left-tournament') {
        state.tournament = null;
        if (state.view === 'tournament') state.view = 'lobby';
        break;
      }
      const first = state.tournament === null;
      state.tournament = msg.tournament;
      if (msg.rid === 'tournament' || (first && state.view === 'lobby')) state.view = 'tournament';
      break;
    }
    case 'reported':
      state.notice = { kind: 'info', text: 'Thank you: the operator will look at your report.' };
      break;
    case 'stopped':
      if (msg.rid === 'left-tournament') {
        state.tournament = null;
        if (state.view === 'tournament') state.view = 'lobby';
        break;
      }
      state.leaving = null;
      if (state.role === 'spectator') { state.room = null; state.role = null; state.race = null; }
      break;
    case 'queued':
      state.queued = true;
      break;
    case 'match_cancelled':
      state.queued = false;
      break;
    // The server sends no `room` for these: the room's state follows them here (so Ready
    // shows only while waiting); the `room` after race_over says waiting again.
    case 'countdown':
      state.countdown = msg.seconds;
      state.results = null;
      if (state.room) state.room.state = 'countdown';
      break;
    case 'race_start':
      state.queued = false;
      state.countdown = null;
      state.results = null;
      state.race = { code: msg.code, games: structuredClone(msg.games), endsAt: now + msg.time_limit * 1000 };
      if (state.room) state.room.state = 'racing';
      state.view = 'play';
      break;
    case 'race_state':
      state.race = { code: msg.code, games: structuredClone(msg.games), endsAt: now + msg.remaining_ms };
      if (state.room) state.room.state = 'racing';
      state.view = 'play';
      break;
    case 'race_update': {
      const g = state.race && state.race.games[msg.player];
      if (!g) break;
      const before = g.board;
      Object.assign(g, { board: msg.board, score: msg.score, moves: msg.moves, max_tile: msg.max_tile, state: msg.state });
      if (msg.motions.length || msg.spawned.length) effects.push({ kind: 'animate', target: msg.player, before, message: msg });
      break;
    }
    case 'race_over':
      state.results = msg;
      if (state.race) state.race.endsAt = now;
      break;
    case 'rooms':
      state.rooms = msg.rooms;
      break;
    case 'leaderboard':
      if (msg.rid === 'best') state.best = { mode: msg.mode, size: msg.size, score: msg.me?.score ?? 0, moves: msg.me?.moves ?? null };
      else if (msg.rid === 'daily') state.daily = msg;
      else state.leaderboard = msg;
      break;
    case 'bot_record':
      state.botRecord = msg.records;
      break;
    case 'emote':
      if (!state.muteEmotes) effects.push({ kind: 'emote', player: msg.player, emote: msg.emote });
      break;
    case 'error':
      state.notice = { kind: 'error', text: `${msg.message} (${msg.code})` };
      break;
    case 'achievement':
      state.notice = { kind: 'achievement', text: `Achievement unlocked: ${msg.achievement.title} (${msg.achievement.description})` };
      break;
    case 'registered':
      if (state.me) state.me.registered = true;
      state.notice = { kind: 'info', text: 'Your name is yours: sign in with it on any device.' };
      break;
    case 'renamed':
      if (state.me) state.me.name = msg.player.name;
      state.notice = { kind: 'info', text: `You are ${msg.player.name} now.` };
      break;
    case 'link_code':
      state.account.linkCode = { code: msg.code, expires_at: msg.expires_at };
      break;
    case 'sessions':
      state.account.sessions = msg.sessions;
      break;
    case 'logged_out':
      Object.assign(state, initialState());
      break;
    case 'friends':
      state.friends = { list: msg.friends, incoming: msg.incoming, outgoing: msg.outgoing, blocked: msg.blocked };
      break;
    case 'presence': {
      const friend = state.friends.list.find((f) => f.id === msg.player);
      if (friend) Object.assign(friend, { status: msg.status, code: msg.code, with: msg.with });
      break;
    }
    case 'friend_update': {
      const { name } = msg.player;
      const text = { incoming: `${name} wants to be your friend`, friend: `You and ${name} are friends`,
        requested: `Friend request sent to ${name}` }[msg.relation];
      if (text) state.notice = { kind: 'info', text };
      break;
    }
    case 'challenge_sent':
      state.sentChallenge = { id: msg.id, to: msg.to };
      state.notice = { kind: 'info', text: `Challenge sent to ${msg.to.name}: waiting for an answer` };
      break;
    case 'challenged':
      dropChallenge(state, msg.id);
      state.challenges.push({ id: msg.id, from: msg.from, settings: msg.settings });
      state.notice = { kind: 'info', text: `${msg.from.name} challenges you: ${settingsText(msg.settings)}` };
      break;
    case 'challenge_declined':
    case 'challenge_expired':
    case 'challenge_cancelled': {
      const mine = state.sentChallenge?.id === msg.id ? state.sentChallenge : null;
      if (mine) state.sentChallenge = null;
      dropChallenge(state, msg.id);
      const what = msg.type.slice('challenge_'.length);
      state.notice = { kind: 'info', text: mine ? `${mine.to.name}: challenge ${what}` : `Challenge ${what}` };
      break;
    }
    case 'shutdown':
      state.notice = { kind: 'info', text: 'The server is restarting: reconnecting…' };
      break;
    default:
      break;
  }
  effects.push({ kind: 'render' });
  return effects;
}

// The game shown large: your race game when you race, else your solo game (none while you
// watch).
export function myGame(state) {
  if (state.race && state.role === 'racer' && state.me) return state.race.games[state.me.id] ?? null;
  return state.role ? null : state.solo;
}

// The client's own changes to its model; everything else follows the server's messages.
export function showView(state, view) { state.view = view; }
export function startWatching(state) { state.role = 'spectator'; }
// Out of the room: back to the lobby — or, from a tournament's match room, to the tournament.
export function leaveRoom(state) {
  const back = state.room?.tournament && state.tournament ? 'tournament' : 'lobby';
  state.room = null; state.role = null; state.race = null; state.results = null; state.away = {};
  state.view = back;
}

// What a racer's heading says of their connection, {text, lost}, or null: lost,
// "reconnecting… 42 s" (the grace left before they forfeit, counted from when this page
// learned of it); slow (the room says their round trip is long), "slow connection".
export function connectionNote(state, id, now = Date.now()) {
  const since = state.away[id];
  if (since === undefined) {
    return state.room?.players.find((p) => p.id === id)?.slow ? { text: 'slow connection', lost: false } : null;
  }
  const left = Math.max(0, Math.ceil((since + (state.room?.grace ?? 0) * 1000 - now) / 1000));
  return { text: state.room?.grace ? `reconnecting… ${left} s` : 'reconnecting…', lost: true };
}
export function dismissResults(state) { state.results = null; }
export function answeredChallenge(state, id) { dropChallenge(state, id); }
export function notify(state, kind, text) { state.notice = { kind, text }; }
export function setEmotesMuted(state, muted) { state.muteEmotes = muted; }
