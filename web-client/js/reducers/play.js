// My own games: a solo game (`game`), a move of it or of my race game (`moved`), and the
// achievements they unlock.

export const play = {
  game(state, msg) {
    state.solo = { ...msg.game };
    if (msg.game.state === 'playing' && state.view === 'lobby') state.view = 'play';
  },
  moved(state, msg, effects) {
    const mine = state.race && state.me && state.race.games[state.me.id];
    const target = mine && mine.id === msg.game ? mine : state.solo;
    if (!target || target.id !== msg.game) return;
    const before = target.board;
    Object.assign(target, { board: msg.board, score: msg.score, moves: msg.moves, max_tile: msg.max_tile,
      state: msg.state, won: msg.won });
    if (msg.changed) effects.push({ kind: 'animate', target: target === state.solo ? 'solo' : state.me.id, before, message: msg });
  },
  achievement(state, msg) {
    state.notice = { kind: 'achievement', key: 'notice.achievement', params: { ...msg.achievement } };
  },
};

