// The lobby's lists and the quick-match queue: live rooms, leaderboards (mine for the best box,
// today's daily board, the one asked for), the record against the computer, and the server's
// news of its restart.

export const lobby = {
  rooms(state, msg) { state.rooms = msg.rooms; },
  leaderboard(state, msg) {
    if (msg.rid === 'best') state.best = { mode: msg.mode, size: msg.size, score: msg.me?.score ?? 0, moves: msg.me?.moves ?? null };
    else if (msg.rid === 'daily') state.daily = msg;
    else state.leaderboard = msg;
  },
  bot_record(state, msg) { state.botRecord = msg.records; },
  // Queued: what the search looks for ({rating, window, window_step, window_every_ms,
  // window_max} from the server, and when it began here), for "looking for an opponent near…".
  queued(state, msg, effects, now) {
    state.queued = true;
    state.seeking = msg.rating === undefined ? null : { ...msg, since: now };
  },
  match_cancelled(state) { state.queued = false; },
  shutdown(state) { state.notice = { kind: 'info', key: 'notice.restarting' }; },
};
