// A tournament: its code and link, who plays (the standings once it runs), the bracket
// (single elimination, drawn as SVG) or the matches paired so far (Swiss and arena), the
// host's Start, and the podium at the end. Draws what it is given; names are text, never HTML.
import { BoardView } from './board_view.js';
import * as i18n from './i18n.js';
import { settingsText } from './friends_view.js';

const SVG = 'http://www.w3.org/2000/svg';
const BOX = { width: 170, height: 46, gap: 14, column: 210 };

// "Swiss · classic 4×4 to 2048 · round 2 of 5": what a tournament is and where it stands
// ("rooms of 4" when its matches seat more than two).
export function summaryText(t) {
  const game = t.room_size > 2 ? i18n.t('tournament.inRooms', { settings: settingsText(t), count: t.room_size }) : settingsText(t);
  const where = t.state === 'waiting' ? i18n.t('tournament.waiting', { players: t.players.length, max: t.max_players })
    : t.state === 'running' && t.format !== 'arena' ? i18n.t('tournament.round', { round: t.round, rounds: t.rounds })
      : i18n.t(`tournament.state.${t.state}`);
  return `${i18n.t(`tournament.format.${t.format}`)} · ${game} · ${where}`;
}

// The bracket's rounds, first round first, each match in bracket order (the third-place match
// aside, returned as third).
export function bracketRounds(t) {
  const rounds = [];
  let third = null;
  for (const m of t.matches) {
    if (m.third_place) { third = m; continue; }
    (rounds[m.round - 1] ??= []).push(m);
  }
  for (const r of rounds) r.sort((a, b) => a.index - b.index);
  return { rounds, third };
}

// Where match i of round r sits (its top edge): first-round boxes stacked, each later box
// centred between the two that feed it.
export function boxTop(round, index) {
  const pitch = BOX.height + BOX.gap;
  const span = 2 ** round;
  return (index * span + (span - 1) / 2) * pitch;
}

// The players as the table lists them: the server's order (standings; seeds in a knockout),
// except that a finished knockout lists its podium first.
export function standingsOrder(t) {
  if (t.format !== 'single_elimination' || t.podium.length === 0) return t.players;
  const place = (p) => { const i = t.podium.indexOf(p.id); return i < 0 ? t.podium.length : i; };
  return [...t.players].sort((a, b) => place(a) - place(b));
}

// A Swiss or arena match as its line reads: who (a bye, two, or a room of up to four) and how it
// ended — "ann won", "draw" (everyone drew), "ann won, bob drew", "ann, bob drew" (a tie for
// first in a room), "not played" (everyone lost it).
export function matchText(m, names) {
  const name = (id) => names[id] ?? id;
  if (m.state === 'bye') return i18n.t('tournament.bye', { name: name(m.a) });
  const players = m.players ?? [m.a, m.b];
  const who = players.map(name).join(' – ');
  if (m.state === 'racing') return `${who} · ${i18n.t('tournament.racing')}`;
  if (m.state !== 'done') return who;
  const results = m.results ?? {};
  const drew = players.filter((id) => results[id] === 'draw');
  const drewText = i18n.t('tournament.drew', { names: drew.map(name).join(', ') });
  let how = i18n.t('tournament.notPlayed');
  if (m.draw) how = i18n.t('tournament.draw');
  else if (m.winner) {
    const won = i18n.t('tournament.won', { name: name(m.winner) });
    how = players.length > 2 && drew.length ? `${won}, ${drewText}` : won;
  }
  else if (drew.length) how = drewText;
  return `${who} · ${how}`;
}

function el(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

export class TournamentView {
  // el: {title, summary, start, players, pointsHead, bracket, matches, podium, live,
  // liveSection}; on: {watch(room)} — a running match's room, to spectate full size.
  constructor(el, on) {
    this.el = el;
    this.on = on;
    this.cards = new Map();  // a live match's room → {li, boards: {id: {view, label}}}
  }

  render(t, me, live = {}) {
    const { el } = this;
    if (!t) return;
    el.title.textContent = i18n.t('tournament.title', { code: t.code });
    el.summary.textContent = summaryText(t);
    el.start.hidden = !(t.state === 'waiting' && me && t.host === me.id);
    const names = Object.fromEntries(t.players.map((p) => [p.id, p.name]));
    this.renderPlayers(t);
    el.bracket.hidden = t.format !== 'single_elimination' || t.state === 'waiting';
    el.matches.hidden = t.format === 'single_elimination' || t.state === 'waiting';
    if (!el.bracket.hidden) this.renderBracket(t, names);
    if (!el.matches.hidden) this.renderMatches(t, names);
    this.renderLive(t, live, names);
    el.podium.hidden = t.podium.length === 0;
    el.podium.replaceChildren(...t.podium.map((id, i) => Object.assign(document.createElement('li'), {
      className: `place place-${Math.min(i, 2) + 1}`, textContent: i18n.t(`tournament.place${Math.min(i, 2) + 1}`, { name: names[id] ?? id }),
    })));
  }

  renderPlayers(t) {
    const scored = t.format !== 'single_elimination';
    this.el.pointsHead.textContent = scored ? i18n.t('tournament.points') : i18n.t('tournament.status');
    this.el.players.replaceChildren(...standingsOrder(t).map((p, i) => {
      const row = document.createElement('tr');
      row.dataset.player = p.id;
      const cells = [t.state === 'waiting' ? '' : String(i + 1), p.name,
        scored ? String(p.points) : p.out ? i18n.t('tournament.out') : (t.state === 'waiting' ? '' : i18n.t('tournament.in')),
        t.format === 'swiss' ? String(p.buchholz) : t.format === 'arena' && p.streak ? i18n.t('tournament.streak') : '',
        `${p.wins}/${p.played}`];
      for (const text of cells) row.append(Object.assign(document.createElement('td'), { textContent: text }));
      if (p.left) row.classList.add('left');
      if (!p.connected) row.classList.add('away');
      return row;
    }));
  }

  // The bracket as SVG: a column per round, a box per match with its two names (the winner's
  // in bold), lines to the next round; a racing match can be clicked to watch.
  renderBracket(t, names) {
    const { rounds, third } = bracketRounds(t);
    const height = Math.max(1, rounds[0]?.length ?? 1) * (BOX.height + BOX.gap);
    const width = rounds.length * BOX.column + (third ? BOX.column : 0);
    const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': i18n.t('tournament.bracket') });
    const box = (m, x, y) => {
      const g = el('g', { class: `match ${m.state}`, transform: `translate(${x} ${y})` });
      g.dataset.round = m.round;
      g.dataset.index = m.index;
      if (m.winner) g.dataset.winner = m.winner;
      g.append(el('rect', { width: BOX.width, height: BOX.height, rx: 6 }));
      [m.a, m.b].forEach((id, i) => {
        const name = id ? names[id] ?? id : (m.state === 'bye' && i === 1 ? i18n.t('tournament.byeBox') : '…');
        const text = el('text', { x: 8, y: 18 + i * 20, class: id && id === m.winner ? 'winner' : '' }, name);
        g.append(text);
      });
      if (m.state === 'racing' && m.room) {
        g.classList.add('live');
        g.setAttribute('tabindex', '0');
        g.setAttribute('role', 'button');
        g.setAttribute('aria-label', i18n.t('tournament.watchMatch', { a: names[m.a], b: names[m.b] }));
        g.addEventListener('click', () => this.on.watch(m.room));
        g.addEventListener('keydown', (e) => { if (e.key === 'Enter') this.on.watch(m.room); });
      }
      svg.append(g);
    };
    rounds.forEach((matches, r) => {
      matches.forEach((m, i) => {
        const x = r * BOX.column;
        const y = boxTop(r, i);
        if (r + 1 < rounds.length) {
          const yNext = boxTop(r + 1, Math.floor(i / 2)) + BOX.height / 2;
          svg.append(el('path', { class: 'link', d: `M${x + BOX.width} ${y + BOX.height / 2} H${x + BOX.column - 20} V${yNext} H${x + BOX.column}` }));
        }
        box(m, x, y);
      });
    });
    if (third) box(third, rounds.length * BOX.column, boxTop(rounds.length - 1, 0) + BOX.height + BOX.gap * 2);
    this.el.bracket.replaceChildren(svg);
  }

  // Tournament TV: each match followed live as a card of moving mini boards (the lobby's race
  // cards are the model), in the snapshot's order; a click opens it full size. Cards are kept
  // while their match runs, so a move redraws one board, not the list.
  renderLive(t, live, names) {
    const shown = t.matches.filter((m) => m.state === 'racing' && live[m.room]);
    for (const [room, card] of this.cards) if (!live[room]) { card.li.remove(); this.cards.delete(room); }
    this.el.liveSection.hidden = shown.length === 0;
    this.el.live.replaceChildren(...shown.map((m) => {
      const room = m.room;
      const ids = (m.players ?? [m.a, m.b]).filter((id) => live[room].games[id]);
      const card = this.cards.get(room) ?? this.liveCard(room, ids, names);
      this.cards.set(room, card);
      for (const [id, g] of Object.entries(live[room].games)) {
        const b = card.boards[id];
        if (!b) continue;
        b.label.textContent = `${names[id] ?? id} · ${g.score}`;
        if (b.shown !== g.board) { b.view.show(g.board, t.mode); b.shown = g.board; }
      }
      return card.li;
    }));
  }

  // A live match's card: its racers (ids, in the match's order) by name, each with a mini board.
  liveCard(room, ids, names) {
    const li = Object.assign(document.createElement('li'), { className: 'room-card live-match' });
    li.dataset.room = room;
    const who = ids.map((id) => names[id] ?? id).join(' – ');
    const open = Object.assign(document.createElement('button'), { type: 'button', className: 'link', textContent: who });
    open.setAttribute('aria-label', i18n.t('tournament.liveMatch', { names: who }));
    open.addEventListener('click', () => this.on.watch(room));
    const racers = Object.assign(document.createElement('div'), { className: 'racers' });
    const boards = {};
    for (const id of ids) {
      const box = Object.assign(document.createElement('div'), { className: 'racer-mini' });
      const label = document.createElement('span');
      const board = document.createElement('div');
      box.append(label, board);
      const view = new BoardView(board, { label: i18n.t('board.of', { name: names[id] ?? id }) });
      board.classList.add('mini');
      boards[id] = { view, label, shown: null };
      racers.append(box);
    }
    li.append(open, racers);
    li.addEventListener('click', (e) => { if (e.target === li || racers.contains(e.target)) this.on.watch(room); });
    return { li, boards };
  }

  // Swiss and arena: the matches by round, newest first, each with its result or a Watch.
  renderMatches(t, names) {
    const shown = [...t.matches].reverse();
    this.el.matches.replaceChildren(...shown.map((m) => {
      const li = document.createElement('li');
      li.append(Object.assign(document.createElement('span'), {
        textContent: t.format === 'swiss' ? i18n.t('tournament.roundMatch', { round: m.round, match: matchText(m, names) }) : matchText(m, names) }));
      if (m.state === 'racing' && m.room) {
        const watch = Object.assign(document.createElement('button'), { type: 'button', textContent: i18n.t('lobby.watch') });
        watch.addEventListener('click', () => this.on.watch(m.room));
        li.append(' ', watch);
      }
      return li;
    }));
  }
}
