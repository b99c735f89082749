// A race in my room: the countdown, its start (or its state when I come back to it), the
// others' moves, its end, and the emotes racers send. The server sends no `room` for these:
// the room's state follows them here (so Ready shows only while waiting); the `room` after
// race_over says waiting again.

export const race = {
  countdown(state, msg) {
    state.countdown = msg.seconds;
    state.results = null;
    if (state.room) state.room.state = 'countdown';
  },
  race_start(state, msg, effects, now) {
    Object.assign(state, { queued: false, countdown: null, results: null, view: 'play' });
    state.race = { code: msg.code, games: structuredClone(msg.games), endsAt: now + msg.time_limit * 1000 };
    if (state.room) state.room.state = 'racing';
  },
  race_state(state, msg, effects, now) {
    state.race = { code: msg.code, games: structuredClone(msg.games), endsAt: now + msg.remaining_ms };
    if (state.room) state.room.state = 'racing';
    state.view = 'play';
  },
  race_update(state, msg, effects) {
    const g = state.race && state.race.games[msg.player];
    if (!g) return;
    const before = g.board;
    Object.assign(g, { board: msg.board, score: msg.score, moves: msg.moves, max_tile: msg.max_tile, state: msg.state });
    if (msg.motions.length || msg.spawned.length) effects.push({ kind: 'animate', target: msg.player, before, message: msg });
  },
  race_over(state, msg, effects, now) {
    state.results = msg;
    if (state.race) state.race.endsAt = now;
    // A walkover told me on my return: its room is gone; the result shows all the same.
    if (msg.reason === 'walkover' && state.room?.code !== msg.code) Object.assign(state, { role: 'racer', view: 'play' });
  },
  emote(state, msg, effects) {
    if (!state.muteEmotes) effects.push({ kind: 'emote', player: msg.player, emote: msg.emote });
  },
};
