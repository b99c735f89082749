// The lobby: the game settings (mode, size, target; only the sizes the server accepts for a
// mode), the public races to watch, and the player's record against the computer. Draws what
// it is given and reads its own controls; it sends nothing itself.
import { BoardView } from './board_view.js';
import { settingsText } from './friends_view.js';
import { t } from './i18n.js';

// "Your record: easy 2–1, hard 0–3" (wins–losses, draws after a slash), or '' before any race.
export function botRecordText(records) {
  const raced = Object.entries(records ?? {}).filter(([, r]) => r.wins + r.losses + r.draws > 0);
  if (raced.length === 0) return '';
  const each = raced.map(([s, r]) => t(r.draws ? 'bot.recordWithDraws' : 'bot.record',
    { strength: t(`bot.${s}`), wins: r.wins, losses: r.losses, draws: r.draws }));
  return t('bot.yourRecord', { records: each.join(', ') });
}

export class LobbyView {
  // el: {mode, size, target, rooms, botRecord} elements.
  constructor(el) {
    this.el = el;
    el.mode.addEventListener('change', () => this.offerSizes());
    this.offerSizes();
  }

  // {mode, size, target?}: what the selects say (Fifteen has no target).
  settings() {
    const mode = this.el.mode.value;
    return { mode, size: Number(this.el.size.value), ...(mode === 'fifteen' ? {} : { target: Number(this.el.target.value) }) };
  }

  // Only the sizes the server accepts for the chosen mode (Fifteen: up to 6×6).
  offerSizes() {
    const { mode, size, target } = this.el;
    const max = mode.value === 'fifteen' ? 6 : 8;
    for (const option of size.options) option.hidden = option.disabled = Number(option.value) > max;
    if (Number(size.value) > max) size.value = String(max);
    target.parentElement.hidden = mode.value === 'fifteen';
  }

  renderBotRecord(records) { this.el.botRecord.textContent = botRecordText(records); }

  // The public races as cards: code, settings, state and watchers, each racer's name, score
  // and miniature live board (while racing), and a Watch button calling onSpectate(code).
  renderRooms(rooms, onSpectate) {
    if (rooms.length === 0) {
      this.el.rooms.replaceChildren(Object.assign(document.createElement('li'), { className: 'room-card empty', textContent: t('lobby.noRaces') }));
      return;
    }
    // Races running first (their boards move), then the rooms with the most players.
    const shown = [...rooms].sort((a, b) => (b.state === 'racing') - (a.state === 'racing') || b.players.length - a.players.length);
    this.el.rooms.replaceChildren(...shown.map((r) => {
      const li = document.createElement('li');
      li.className = 'room-card';
      const head = document.createElement('div');
      head.className = 'card-head';
      head.append(Object.assign(document.createElement('strong'), { textContent: r.code }),
        Object.assign(document.createElement('span'), { className: 'what', textContent: r.spectators
          ? t('lobby.stateWatched', { state: t(`room.state.${r.state}`), count: r.spectators }) : t(`room.state.${r.state}`) }));
      const what = Object.assign(document.createElement('span'), { className: 'what',
        textContent: settingsText(r) });
      const racers = document.createElement('div');
      racers.className = 'racers';
      racers.append(...r.players.map((p) => {
        const box = document.createElement('div');
        box.className = 'racer-mini';
        box.append(Object.assign(document.createElement('span'), { textContent: `${p.name} · ${p.score}` }));
        if (p.board) {
          const board = document.createElement('div');
          box.append(board);
          const view = new BoardView(board, { label: t('board.of', { name: p.name }) });
          board.classList.add('mini');
          view.show(p.board, r.mode);
        }
        return box;
      }));
      const watch = Object.assign(document.createElement('button'), { type: 'button', textContent: t('lobby.watch') });
      watch.setAttribute('aria-label', t('lobby.watchRoom', { code: r.code }));
      watch.addEventListener('click', () => onSpectate(r.code));
      li.append(head, what, racers, watch);
      return li;
    }));
  }
}
