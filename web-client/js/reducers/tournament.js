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
  },
};

export function closeTournament(state) {
  state.tournament = null;
  if (state.view === 'tournament') state.view = 'lobby';
}
