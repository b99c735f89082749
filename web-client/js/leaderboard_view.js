// The leaderboard table: best scores for a mode, size and period, or race ratings. Text only.
// onReplay(gameId) opens a replay, onPlayer(playerId) a profile.
import { t } from './i18n.js';
import { ratingText } from './rating_words.js';

export function renderLeaderboard(table, board, onReplay, onPlayer) {
  const head = table.querySelector('thead'), body = table.querySelector('tbody');
  const rating = board.kind === 'rating';
  table.querySelector('caption').textContent = caption(board);
  const cols = (rating ? ['#', 'player', 'rating', 'wins', 'losses'] : ['#', 'player', 'score', 'tile', 'moves', ''])
    .map((c) => (c === '#' || c === '' ? c : t(`board.column.${c}`)));
  const th = document.createElement('tr');
  th.replaceChildren(...cols.map((c) => Object.assign(document.createElement('th'), { textContent: c })));
  head.replaceChildren(th);
  const rows = board.entries.map((e) => {
    const tr = document.createElement('tr');
    const cells = rating ? [e.rank, e.name, ratingText(e.rating, e.provisional), e.wins, e.losses]
      : [e.rank, e.name, e.score, e.max_tile, e.moves];
    tr.replaceChildren(...cells.map((v) => Object.assign(document.createElement('td'), { textContent: String(v) })));
    const name = Object.assign(document.createElement('button'), { textContent: e.name, className: 'link' });
    name.addEventListener('click', () => onPlayer(e.player));
    tr.children[1].replaceChildren(name);
    if (e.bot) tr.children[1].append(Object.assign(document.createElement('span'), { textContent: t('room.bot'), className: 'badge bot' }));
    if (!rating) {
      const td = document.createElement('td');
      const button = Object.assign(document.createElement('button'), { textContent: t('results.replay'), className: 'link' });
      button.addEventListener('click', () => onReplay(e.game));
      td.append(button);
      tr.append(td);
    }
    return tr;
  });
  if (board.me && !board.entries.some((e) => e.player === board.me.player)) {
    const tr = document.createElement('tr');
    tr.append(Object.assign(document.createElement('td'), { textContent: t('board.yourRank', { rank: board.me.rank }) }));
    rows.push(tr);
  }
  body.replaceChildren(...rows);
}

// What the table shows: "Ratings · classic 4×4", or "classic 4×4, week 2026-W48" (the server
// names the variant and the period it answered).
export function caption(board) {
  if (board.kind === 'rating') {
    const [of, plain] = board.board === 'bots' ? ['board.botsOf', 'board.bots'] : ['board.ratingsOf', 'board.ratings'];
    return board.variant ? t(of, { variant: t(`variant.${board.variant}`) }) : t(plain);
  }
  const period = board.period ?? 'all-time';
  const when = period === 'all-time' ? t('board.allTime') : period.includes('W') ? t('board.week', { week: period }) : t('board.day', { day: period });
  return t('board.caption', { mode: t(`mode.${board.mode}`), size: board.size, when });
}
