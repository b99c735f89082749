// The friends panel in the lobby (add by name; requests to answer; each friend with a presence
// dot, what they are doing, and Challenge, Watch and Remove) and the challenge toasts, shown
// over any screen, with Accept and Decline. Draws what it is given; its buttons call the
// handlers, it sends nothing itself.
import { t } from './i18n.js';

// What a friend is doing, in words: "racing bob in K7Q2XM".
export function presenceText(p) {
  switch (p.status) {
    case 'online': return t('presence.online');
    case 'solo': return t('presence.solo');
    case 'racing': return t('presence.racing', { with: p.with?.length ? p.with.join(', ') : t('presence.alone'), code: p.code });
    case 'spectating': return t('presence.spectating', { code: p.code });
    default: return t('presence.offline');
  }
}

// "classic 4×4 to 2048": a race's or a challenge's settings.
export function settingsText(s) {
  const mode = t(`mode.${s.mode}`);
  return s.mode === 'fifteen' ? t('settings.textFifteen', { mode, size: s.size }) : t('settings.text', { mode, size: s.size, target: String(s.target) });
}

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
      li.append(`${t('friends.wants', { name: p.name })} `,
        button(t('friends.accept'), () => on.accept(p.id), t('friends.acceptLabel', { name: p.name })),
        button(t('friends.decline'), () => on.decline(p.id), t('friends.declineLabel', { name: p.name })));
      return li;
    }));
    el.outgoing.textContent = friends.outgoing.length
      ? t('friends.waitingFor', { names: friends.outgoing.map((p) => p.name).join(', ') }) : '';
    el.list.replaceChildren(...friends.list.map((f) => {
      const li = document.createElement('li');
      li.dataset.friend = f.id;
      const dot = Object.assign(document.createElement('span'), { className: `dot ${f.status}` });
      dot.setAttribute('aria-hidden', 'true');
      const text = Object.assign(document.createElement('span'), { className: 'presence', textContent: presenceText(f) });
      li.append(dot, `${f.name} `, text);
      if (f.status !== 'offline') li.append(button(t('friends.challenge'), () => on.challenge(f.id), t('friends.challengeLabel', { name: f.name })));
      if (f.status === 'racing' || f.status === 'spectating') li.append(button(t('friends.watch'), () => on.watch(f.id), t('friends.watchLabel', { name: f.name })));
      li.append(button(t('friends.remove'), () => on.remove(f.id), t('friends.removeLabel', { name: f.name })));
      return li;
    }));
    el.toasts.replaceChildren(...challenges.map((c) => {
      const div = Object.assign(document.createElement('div'), { className: 'toast' });
      div.setAttribute('role', 'alertdialog');
      div.setAttribute('aria-label', t('challenge.from', { name: c.from.name }));
      div.append(`${t('notice.challenged', { name: c.from.name, settings: settingsText(c.settings) })} `,
        button(t('friends.accept'), () => on.acceptChallenge(c.id), t('challenge.acceptLabel', { name: c.from.name })),
        button(t('friends.decline'), () => on.declineChallenge(c.id), t('challenge.declineLabel', { name: c.from.name })));
      return div;
    }));
  }
}
