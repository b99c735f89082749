// Who I am: the welcome, my account's changes (registered, renamed, a link code, my
// sessions) and signing out.

export const account = {
  welcome(state, msg) {
    state.me = { ...msg.player, registered: !!msg.registered };
    state.account = { linkCode: null, sessions: null };
    // A guest whose name went to someone else while they were away is told, once.
    state.notice = msg.name_released
      ? { kind: 'info', key: 'notice.name_released', params: { old: msg.name_released, name: msg.player.name } }
      : null;
    state.queued = false;  // a new connection is in no queue
  },
  registered(state) {
    if (state.me) state.me.registered = true;
    state.notice = { kind: 'info', key: 'notice.registered' };
  },
  renamed(state, msg) {
    if (state.me) state.me.name = msg.player.name;
    state.notice = { kind: 'info', key: 'notice.renamed', params: { name: msg.player.name } };
  },
  link_code(state, msg) { state.account.linkCode = { code: msg.code, expires_at: msg.expires_at }; },
  sessions(state, msg) { state.account.sessions = msg.sessions; },
};
