// Friends and challenges: the lists (each friend with their presence), a friend's presence
// changing, requests and challenges coming and going, and a report received.

export const social = {
  friends(state, msg) {
    state.friends = { list: msg.friends, incoming: msg.incoming, outgoing: msg.outgoing, blocked: msg.blocked };
  },
  presence(state, msg) {
    const friend = state.friends.list.find((f) => f.id === msg.player);
    if (friend) Object.assign(friend, { status: msg.status, code: msg.code, with: msg.with });
  },
  friend_update(state, msg) {
    const key = { incoming: 'notice.friendIncoming', friend: 'notice.friendNow', requested: 'notice.friendRequested' }[msg.relation];
    if (key) state.notice = { kind: 'info', key, params: { name: msg.player.name } };
  },
  challenge_sent(state, msg) {
    state.sentChallenge = { id: msg.id, to: msg.to };
    state.notice = { kind: 'info', key: 'notice.challengeSent', params: { name: msg.to.name } };
  },
  challenged(state, msg) {
    dropChallenge(state, msg.id);
    state.challenges.push({ id: msg.id, from: msg.from, settings: msg.settings });
    state.notice = { kind: 'info', key: 'notice.challenged', params: { name: msg.from.name, settings: msg.settings } };
  },
  challenge_declined: challengeGone,
  challenge_expired: challengeGone,
  challenge_cancelled: challengeGone,
  reported(state) { state.notice = { kind: 'info', key: 'notice.reported' }; },
};

// A challenge declined, expired or cancelled: mine (to whom) or one to me.
function challengeGone(state, msg) {
  const mine = state.sentChallenge?.id === msg.id ? state.sentChallenge : null;
  if (mine) state.sentChallenge = null;
  dropChallenge(state, msg.id);
  const what = msg.type.slice('challenge_'.length);
  state.notice = mine ? { kind: 'info', key: `notice.myChallenge.${what}`, params: { name: mine.to.name } }
    : { kind: 'info', key: `notice.challenge.${what}` };
}

export function dropChallenge(state, id) { state.challenges = state.challenges.filter((c) => c.id !== id); }
