// The account card on your own profile: "Keep this name" for a guest (a password), a link
// code for another device, and the devices signed in with "Sign out other devices". Draws
// from the state only; the buttons are wired by app.js. Text, never HTML.
import { dateOf, t } from './i18n.js';


// A session's line: its device (or "a browser"), when it was last seen, and "this device".
export function sessionLine(session, now = Date.now()) {
  const device = session.device || t('account.aBrowser');
  const minutes = Math.max(0, Math.round((now - session.last_seen) / 60000));
  const seen = minutes < 1 ? t('account.activeNow') : minutes < 90 ? t('account.seenMinutes', { count: minutes })
    : t('account.seenOn', { day: dateOf(session.last_seen) });
  return t(session.current ? 'account.sessionThis' : 'account.session', { device, seen });
}

// What the link code says: the code, the link that uses it, and for how long.
export function linkCodeText(code, origin, now = Date.now()) {
  const minutes = Math.max(1, Math.round((code.expires_at - now) / 60000));
  return t('account.linkCode', { code: code.code, link: `${origin}/?link=${code.code}`, count: minutes });
}

// el: {card, register, registered, rename, linkCode, sessions}; me: {registered}; account:
// {linkCode, sessions} from the state.
export function renderAccount(el, me, account, origin) {
  el.card.hidden = !me;
  if (!me) return;
  el.register.hidden = !!me.registered;
  el.registered.hidden = !me.registered;
  el.rename.hidden = !me.registered;
  el.linkCode.hidden = !account.linkCode;
  el.linkCode.textContent = account.linkCode ? linkCodeText(account.linkCode, origin) : '';
  el.sessions.replaceChildren(...(account.sessions ?? []).map((s) => {
    const li = document.createElement('li');
    li.textContent = sessionLine(s);
    return li;
  }));
}
