// The daily challenge in the lobby (today's day, Play for each daily mode, the streak, today's
// top 10 with the player's own rank) and the text a finished daily game shares. Draws what it
// is given; its buttons call the handler, it sends nothing itself.
import { day, t } from './i18n.js';


// The daily modes: classic 4×4 and 5×5 to 2048 (docs/protocol.md, "The daily challenge").
export const DAILY_SIZES = [4, 5];

// A tile as one square of the shared grid: its size class, never its value — see shareText.
function square(value) {
  if (value <= 0) return '⬜';
  if (value <= 8) return '🟨';
  if (value <= 64) return '🟧';
  if (value <= 512) return '🟥';
  return '🟪';
}

// What a finished daily game shares: the day, the mode, score, largest tile, moves, and the
// final board as coloured squares by size class (empty, up to 8, up to 64, up to 512, more).
// Safe while the day runs: it holds no move and no spawn, and the board's classes cannot be
// played back, so nothing in it tells another player where today's tiles will appear.
export function shareText(game) {
  const grid = game.board.map((row) => row.map(square).join('')).join('\n');
  return `${t('daily.shareHead', { day: game.daily, size: game.size })}\n` +
    `${t('daily.shareLine', { score: game.score, tile: String(game.max_tile), count: game.moves })}\n${grid}`;
}

export class DailyView {
  // el: {day, mine, top, streak}; onEntry(id): a name in the top list was chosen (a profile).
  constructor(el, onEntry) {
    this.el = el;
    this.onEntry = onEntry;
  }

  // board: today's daily `leaderboard` (4×4), or null before it came; streak: {streak,
  // longest} from the profile, or null.
  render(board, streak) {
    const { el } = this;
    el.day.textContent = board ? day(board.period) : '';
    el.mine.textContent = board?.me
      ? t('daily.mine', { rank: board.me.rank, score: board.me.score, count: board.me.moves })
      : t('daily.firstCounts');
    el.streak.textContent = streak?.streak ? t('daily.streak', { count: streak.streak, longest: streak.longest }) : '';
    el.top.replaceChildren(...(board?.entries ?? []).map((e) => {
      const li = document.createElement('li');
      const name = Object.assign(document.createElement('button'), { type: 'button', className: 'link', textContent: e.name });
      name.addEventListener('click', () => this.onEntry(e.player));
      li.append(`#${e.rank} `, name, ` ${e.score}`);
      if (board.me && e.player === board.me.player) li.className = 'me';
      return li;
    }));
  }
}
