// The lobby: the game settings (mode, size, target; only the sizes the server accepts for a
// mode), the public races to watch, and the player's record against the computer. Draws what
// it is given and reads its own controls; it sends nothing itself.

// "Your record: easy 2–1, hard 0–3" (wins–losses, draws after a slash), or '' before any race.
export function botRecordText(records) {
  const raced = Object.entries(records ?? {}).filter(([, r]) => r.wins + r.losses + r.draws > 0);
  if (raced.length === 0) return '';
  return `Your record: ${raced.map(([s, r]) => `${s} ${r.wins}–${r.losses}${r.draws ? `/${r.draws}` : ''}`).join(', ')}`;
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

  // The public races, each with a Spectate button calling onSpectate(code).
  renderRooms(rooms, onSpectate) {
    if (rooms.length === 0) {
      this.el.rooms.replaceChildren(Object.assign(document.createElement('li'), { textContent: 'No public races right now.' }));
      return;
    }
    this.el.rooms.replaceChildren(...rooms.map((r) => {
      const li = document.createElement('li');
      const label = document.createElement('span');
      label.textContent = `${r.code} · ${r.mode} ${r.size}×${r.size} · ${r.state} · ${r.players.map((p) => p.name).join(', ')} `;
      const watch = document.createElement('button');
      watch.textContent = 'Spectate';
      watch.addEventListener('click', () => onSpectate(r.code));
      li.append(label, watch);
      return li;
    }));
  }
}
