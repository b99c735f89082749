// The tournament I play in or follow: its snapshot. The answer to my own request (rid
// 'tournament') opens it, and so does the first one a member gets unasked in the lobby (signed
// in again: a reload, a restart); the answer to leaving it (rid 'left-tournament', a
// `tournament` or a `stopped`) closes it.

export const tournament = {
  tournament(state, msg) {
    if (msg.rid === 'left-tournament') return closeTournament(state);
    const first = state.tournament === null;
    state.tournament = msg.tournament;
    if (msg.rid === 'tournament' || (first && state.view === 'lobby')) state.view = 'tournament';
    // A live match the snapshot no longer lists as racing has ended.
    const racing = new Set((msg.tournament.matches ?? []).filter((m) => m.state === 'racing').map((m) => m.room));
    for (const code of Object.keys(state.live)) if (!racing.has(code)) delete state.live[code];
  },
};

export function closeTournament(state) {
  state.tournament = null;
  state.live = {};
  if (state.view === 'tournament') state.view = 'lobby';
}

// Tournament TV: the race stream of a match I am not in (following the tournament, or between
// my own matches) keeps its live board, {games, endsAt}, in state.live by room code; its
// race_over ends it. A walkover told to me when I come back is mine: not folded here.
export function isLive(state, msg) {
  if (!state.tournament || !LIVE.has(msg.type) || msg.code === state.room?.code) return false;
  return !(msg.type === 'race_over' && msg.standings.some((s) => s.player === state.me?.id));
}
const LIVE = new Set(['race_start', 'race_state', 'race_update', 'race_over']);

export function foldLive(state, msg, now) {
  if (msg.type === 'race_start' || msg.type === 'race_state') {
    const left = msg.type === 'race_start' ? msg.time_limit * 1000 : msg.remaining_ms;
    state.live[msg.code] = { games: structuredClone(msg.games), endsAt: now + left };
  } else if (msg.type === 'race_update') {
    const g = state.live[msg.code]?.games[msg.player];
    if (g) Object.assign(g, { board: msg.board, score: msg.score, moves: msg.moves, max_tile: msg.max_tile, state: msg.state });
  } else {
    delete state.live[msg.code];
  }
}
