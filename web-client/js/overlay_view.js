// The dialogs over the board: the overlay that ends a solo game (a win until Keep going, a
// finished game) and the inline confirm that R and Z ask before they resign or unrank a game
// (never window.confirm). A race's result has its own dialog (race_view.js).

import { t } from './i18n.js';

// What the overlay says for the solo game shown (myGame), or null when it is closed: {text,
// won, keepGoing, tryAgain, share} — won: a win or a solve (its sound); the last three say
// which buttons it offers (share: a finished daily game). keptGoing(game): the player chose to
// play on after winning that game.
export function overlayFor(state, game, keptGoing) {
  if (!game || state.role) return null;
  let outcome = null;
  if (game.won && !keptGoing(game) && game.state === 'playing') outcome = 'won';
  else if (game.state !== 'playing') outcome = game.state === 'solved' ? 'solved' : game.day_over ? 'dayOver' : 'over';
  return outcome && { text: t(`overlay.${outcome}`), won: outcome === 'won' || outcome === 'solved', keepGoing: game.state === 'playing',
    tryAgain: !game.daily, share: !!game.daily && game.state !== 'playing' };
}

// The overlay as a dialog: it takes the focus when it opens, keys do not reach the board
// behind it, and the focus goes back to the board when it closes.
export class OverlayView {
  // el: {overlay, text, keepGoing, tryAgain, share, board}.
  constructor(el) { this.el = el; this.won = false; }

  get open() { return !this.el.overlay.hidden; }

  // Shows content (overlayFor's); returns true when this opened it.
  show(content) {
    const el = this.el;
    const wasOpen = this.open;
    el.overlay.hidden = !content;
    if (content) {
      el.text.textContent = content.text;
      this.won = content.won;
      el.keepGoing.hidden = !content.keepGoing;
      el.tryAgain.hidden = !content.tryAgain;
      el.share.hidden = !content.share;
      if (!wasOpen) el.overlay.querySelector('button:not([hidden])')?.focus();
    } else if (wasOpen) {
      el.board.focus();
    }
    return !!content && !wasOpen;
  }
}

// The inline confirm: a question, Yes runs the action, No (or another question) dismisses.
export class ConfirmView {
  // el: {confirm, text, yes, no}.
  constructor(el) {
    this.el = el;
    this.action = null;
    el.yes.addEventListener('click', () => { const act = this.action; this.ask(null); act?.(); });
    el.no.addEventListener('click', () => this.ask(null));
  }

  // Asks text (null dismisses); Yes runs action.
  ask(text, action = null) {
    this.action = text ? action : null;
    this.el.text.textContent = text ?? '';
    this.el.confirm.hidden = !text;
    if (text) this.el.no.focus();
  }
}
