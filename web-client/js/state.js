// The client's model of what the server has said: applyMessage folds one server message into
// the state and returns what the view should do about it. Pure: no DOM, no socket.

export function initialState() {
  return {
    me: null,          // {id, name}
    solo: null,        // G of the current solo game
    room: null,        // the room we are in or watch
    role: null,        // 'racer' | 'spectator' | null
    race: null,        // {code, games: {id: G}, endsAt}
    countdown: null,   // seconds, while counting down
    results: null,     // the last race_over
    queued: false,
    rooms: [],
    leaderboard: null,
    botRecord: null,   // {easy|medium|hard: {wins, losses, draws}}
    muteEmotes: false, // this viewer hides everyone's emotes
    notice: null,      // {kind: 'error' | 'info' | 'invite' | 'achievement', text}
  };
}

function game(g) { return { ...g }; }

// Answers that mean the player's last request went through: an error notice about an earlier
// one has had its day.
const SUCCESSES = new Set(['game', 'moved', 'room', 'rooms', 'queued', 'match_cancelled', 'leaderboard',
  'race_start', 'left', 'stopped']);

// Returns a list of effects: {kind: 'animate', target: 'solo' | playerId, before, message},
// {kind: 'emote', player, emote} (not when muted) or {kind: 'render'}.
export function applyMessage(state, msg, now = Date.now()) {
  const effects = [];
  if (state.notice?.kind === 'error' && SUCCESSES.has(msg.type)) state.notice = null;
  // An invite link is news until the race starts or the room is left.
  if (state.notice?.kind === 'invite' && (msg.type === 'race_start' || msg.type === 'left')) state.notice = null;
  // An achievement is news until the next game or race starts.
  if (state.notice?.kind === 'achievement' && ['game', 'race_start'].includes(msg.type) &&
      !(msg.type === 'game' && msg.game.id === state.solo?.id)) state.notice = null;
  switch (msg.type) {
    case 'welcome':
      state.me = msg.player;
      state.notice = null;
      state.queued = false;  // a new connection is in no queue
      break;
    case 'game':
      state.solo = game(msg.game);
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
    case 'room':
      state.room = msg.room;
      if (state.me && msg.room.players.some((p) => p.id === state.me.id)) state.queued = false;  // paired
      if (!state.role && state.me && msg.room.players.some((p) => p.id === state.me.id)) state.role = 'racer';
      if (msg.room.state === 'waiting') state.countdown = null;
      break;
    case 'left':
      state.room = null; state.role = null; state.race = null; state.countdown = null;
      break;
    case 'stopped':
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
      break;
    case 'race_state':
      state.race = { code: msg.code, games: structuredClone(msg.games), endsAt: now + msg.remaining_ms };
      if (state.room) state.room.state = 'racing';
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
      state.leaderboard = msg;
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
    case 'shutdown':
      state.notice = { kind: 'info', text: 'The server is restarting: reconnecting…' };
      break;
    default:
      break;
  }
  effects.push({ kind: 'render' });
  return effects;
}
