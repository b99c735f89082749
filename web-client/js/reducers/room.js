// The room I race in or watch: its snapshot (`room`), and my way out of it (left, stopped,
// kicked, closed by the operator or by its tournament's decided match).
import { closeTournament } from './tournament.js';

export const room = {
  room(state, msg, effects, now) {
    const mine = state.me && msg.room.players.some((p) => p.id === state.me.id);
    // After a race, a racer who is ready again wants a rematch: the others are told.
    const wanting = state.results && state.role === 'racer'
      ? msg.room.players.filter((p) => p.ready && p.id !== state.me?.id).map((p) => p.name) : [];
    if (wanting.length) state.notice = { kind: 'info', key: 'notice.wantsRematch', params: { names: wanting.join(', ') } };
    state.view = 'play';
    state.room = msg.room;
    state.away = Object.fromEntries(msg.room.players.filter((p) => !p.connected && !p.ghost)
      .map((p) => [p.id, state.away[p.id] ?? now]));
    if (mine) state.queued = false;  // paired
    if (mine && !state.role) state.role = 'racer';
    if (msg.room.state === 'waiting') state.countdown = null;
  },
  left(state, msg) {
    state.leaving = null;
    if (state.room && state.room.code !== msg.code) return;  // in another room already
    Object.assign(state, { room: null, role: null, race: null, countdown: null, away: {} });
  },
  // Moderation: the host sent me out, or the operator closed the room.
  kicked(state, msg) {
    leaveRoom(state);
    state.notice = { kind: 'info', key: 'notice.kicked', params: { code: msg.code } };
  },
  room_closed(state, msg) {
    if (msg.reason !== 'match_over') {
      leaveRoom(state);
      state.countdown = null;
      state.notice = { kind: 'info', key: 'notice.roomClosed', params: { code: msg.code, reason: msg.reason } };
      return;
    }
    // A tournament's match is decided: back to the tournament, with who won — but a walkover's
    // result stays on screen (nobody raced: the dialog says the opponent did not come).
    const over = state.results;
    if (over?.reason === 'walkover' && over.code === msg.code) {
      Object.assign(state, { room: null, race: null, away: {} });
      return;
    }
    const winner = over?.standings.find((p) => p.player === over.winner)?.name;
    leaveRoom(state);
    if (state.tournament) state.view = 'tournament';
    state.notice = !over ? { kind: 'info', key: 'notice.matchUnraced' }
      : winner ? { kind: 'info', key: 'notice.matchWon', params: { name: winner } } : { kind: 'info', key: 'notice.matchDrawn' };
  },
  stopped(state, msg) {
    if (msg.rid === 'left-tournament') return closeTournament(state);
    state.leaving = null;
    if (state.role === 'spectator') Object.assign(state, { room: null, role: null, race: null });
  },
};

// Out of the room: back to the lobby — or, from a tournament's match room, to the tournament.
export function leaveRoom(state) {
  const fromMatch = state.room?.tournament || state.results?.reason === 'walkover';
  const back = fromMatch && state.tournament ? 'tournament' : 'lobby';
  Object.assign(state, { room: null, role: null, race: null, results: null, away: {}, view: back });
}
