// The friends panel in the lobby (add by name; requests to answer; each friend with a presence
// dot, what they are doing, and Challenge, Watch and Remove) and the challenge toasts, shown
// over any screen, with Accept and Decline. Draws what it is given; its buttons call the
// handlers, it sends nothing itself.
import { presenceText, settingsText } from './state.js';

function button(text, onClick, label) {
  const b = Object.assign(document.createElement('button'), { type: 'button', textContent: text, className: 'link' });
  if (label) b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}

export class FriendsView {
  // el: {list, incoming, outgoing, toasts} elements; on: {accept(id), decline(id),
  // challenge(id), watch(id), remove(id), acceptChallenge(id), declineChallenge(id)}.
  constructor(el, on) {
    this.el = el;
    this.on = on;
  }

  render(friends, challenges) {
    const { el, on } = this;
    el.incoming.replaceChildren(...friends.incoming.map((p) => {
      const li = document.createElement('li');
      li.append(`${p.name} wants to be your friend `,
        button('Accept', () => on.accept(p.id), `Accept ${p.name}`),
        button('Decline', () => on.decline(p.id), `Decline ${p.name}`));
      return li;
    }));
    el.outgoing.textContent = friends.outgoing.length
      ? `Waiting for: ${friends.outgoing.map((p) => p.name).join(', ')}` : '';
    el.list.replaceChildren(...friends.list.map((f) => {
      const li = document.createElement('li');
      li.dataset.friend = f.id;
      const dot = Object.assign(document.createElement('span'), { className: `dot ${f.status}` });
      dot.setAttribute('aria-hidden', 'true');
      const text = Object.assign(document.createElement('span'), { className: 'presence', textContent: presenceText(f) });
      li.append(dot, `${f.name} `, text);
      if (f.status !== 'offline') li.append(button('Challenge', () => on.challenge(f.id), `Challenge ${f.name}`));
      if (f.status === 'racing' || f.status === 'spectating') li.append(button('Watch', () => on.watch(f.id), `Watch ${f.name}`));
      li.append(button('Remove', () => on.remove(f.id), `Remove ${f.name}`));
      return li;
    }));
    el.toasts.replaceChildren(...challenges.map((c) => {
      const div = Object.assign(document.createElement('div'), { className: 'toast' });
      div.setAttribute('role', 'alertdialog');
      div.setAttribute('aria-label', `Challenge from ${c.from.name}`);
      div.append(`${c.from.name} challenges you: ${settingsText(c.settings)} `,
        button('Accept', () => on.acceptChallenge(c.id), `Accept the challenge from ${c.from.name}`),
        button('Decline', () => on.declineChallenge(c.id), `Decline the challenge from ${c.from.name}`));
      return div;
    }));
  }
}
