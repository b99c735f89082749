// Draws a board: tiles slide (~100 ms), merged tiles pop and new tiles appear (~200 ms), as
// in the original game; with prefers-reduced-motion the board changes at once. Your own
// board slides as soon as you press (prediction.js) and its new tile appears when the server
// names it. Values are drawn as text, and screen readers get the rows as numbers.
import { planAnimation } from './animation.js';
import { t } from './i18n.js';

const SLIDE_MS = 100;

function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

// One row for screen readers: "Row 2: 4, empty, 2, empty" (Fifteen: "blank").
export function describeRow(row, r, mode) {
  const empty = mode === 'fifteen' ? t('board.blank') : t('board.empty');
  return t('board.row', { row: r + 1, cells: row.map((v) => (v === 0 ? empty : v === -1 ? t('board.obstacle') : String(v))).join(', ') });
}

export class BoardView {
  // element: an empty container. onCell(row, col) is called when a cell is clicked (fifteen).
  // label names the board for screen readers ("Your board"); setLabel changes it.
  constructor(element, { onCell = null, small = false, label = '' } = {}) {
    this.element = element;
    this.element.classList.add('board');
    if (small) this.element.classList.add('small');
    this.onCell = onCell;
    this.label = label;
    this.size = 0;
    this.mode = 'classic';
    this.board = null;
    this.timer = null;
    this.frame = null;
    this.settling = null;  // while a slide runs: the tiles drawn when it ends
    this.backlog = [];     // updates waiting for the slide in progress (follow)
    this.chain = null;     // the timer that plays the next of them
  }

  // The board last given: drawn, or waiting in the backlog to be.
  get latest() { return this.backlog.at(-1)?.message.board ?? this.board; }

  setLabel(label) {
    this.label = label;
    this.rows?.setAttribute('aria-label', label);
  }

  // Stops a slide in progress (its tiles are replaced by whatever is drawn next).
  stop() {
    clearTimeout(this.timer);
    cancelAnimationFrame(this.frame);
    this.settling = null;
  }

  // The board the server sent last: kept on the element and read out as rows.
  record(board) {
    this.board = board;
    this.element.dataset.board = JSON.stringify(board);
    this.rows.replaceChildren(...board.map((row, r) => {
      const li = document.createElement('li');
      li.textContent = describeRow(row, r, this.mode);
      return li;
    }));
  }

  // Shows board (rows) at once, without animation.
  show(board, mode) {
    this.stop();
    clearTimeout(this.chain);
    this.chain = null;
    this.backlog = [];
    this.mode = mode;
    this.setSize(board.length);
    this.record(board);
    this.drawTiles(this.settledOf(board), 'settled');
  }

  // Animates from the board shown now to message.board using its motions and spawns.
  animate(before, message, mode) {
    if (!this.board || !before || before.length !== message.board.length || reducedMotion()) {
      return this.show(message.board, mode);
    }
    this.stop();
    this.mode = mode;
    const plan = planAnimation(before, message.board, message.motions, message.spawned);
    this.record(message.board);
    this.drawTiles(plan.sliding.map((t) => ({ value: t.value, at: t.from, to: t.to })), 'sliding');
    // The slide starts on the next frame; the settled tiles (pops, new tiles) replace the
    // sliding ones when it is over.
    this.settling = plan.settled;
    this.frame = requestAnimationFrame(() => {
      for (const tile of this.element.querySelectorAll('.tile[data-to]')) {
        const [r, c] = JSON.parse(tile.dataset.to);
        tile.style.transform = this.transform(r, c);
      }
      this.timer = setTimeout(() => {
        this.drawTiles(this.settling, 'settled');
        this.settling = null;
      }, SLIDE_MS);
    });
  }

  // Another racer's move, as the server's update says: played after the slide in progress.
  // A backlog (updates that come in a burst after a stall) is caught up: all but the last two
  // are drawn at once, those two slide.
  follow(before, message, mode) {
    if (reducedMotion()) return this.show(message.board, mode);
    this.backlog.push({ before, message, mode });
    if (!this.chain) this.playNext();
  }

  playNext() {
    // Caught up: the slide of the next starts from its own `before`, drawn afresh.
    this.backlog.splice(0, Math.max(0, this.backlog.length - 2));
    const next = this.backlog.shift();
    if (!next) { this.chain = null; return; }
    this.animate(next.before, next.message, next.mode);
    this.chain = setTimeout(() => this.playNext(), SLIDE_MS + 20);
  }

  // board is the one shown with the tiles `spawned` ([{at}]) added: they appear, at once or,
  // while a slide runs, when it ends (its pops kept).
  appear(board, spawned, mode) {
    if (!this.board || reducedMotion()) return this.show(board, mode);
    const fresh = new Set(spawned.map((t) => `${t.at[0]},${t.at[1]}`));
    const merged = new Set((this.settling ?? []).filter((t) => t.effect === 'merged').map((t) => `${t.at[0]},${t.at[1]}`));
    const tiles = this.settledOf(board).map((t) => {
      const at = `${t.at[0]},${t.at[1]}`;
      return { ...t, effect: fresh.has(at) ? 'new' : merged.has(at) ? 'merged' : null };
    });
    this.record(board);
    if (this.settling) this.settling = tiles;
    else this.drawTiles(tiles, 'settled');
  }

  settledOf(board) {
    const out = [];
    board.forEach((row, r) => row.forEach((v, c) => { if (v !== 0) out.push({ value: v, at: [r, c], effect: null }); }));
    return out;
  }

  setSize(size) {
    if (size === this.size) return;
    this.size = size;
    this.element.style.setProperty('--size', size);
    this.element.replaceChildren();
    const grid = document.createElement('div');
    grid.className = 'grid';
    for (let r = 0; r < size; ++r) {
      for (let c = 0; c < size; ++c) {
        const cell = document.createElement('div');
        cell.className = 'cell';
        if (this.onCell) cell.addEventListener('click', () => this.onCell(r, c));
        grid.append(cell);
      }
    }
    this.layer = document.createElement('div');
    this.layer.className = 'tiles';
    grid.setAttribute('aria-hidden', 'true');  // drawn for the eyes; the rows below are read
    this.layer.setAttribute('aria-hidden', 'true');
    this.rows = document.createElement('ol');
    this.rows.className = 'visually-hidden';
    this.rows.setAttribute('aria-label', this.label);
    this.element.append(grid, this.layer, this.rows);
  }

  transform(r, c) {
    return `translate(calc(${c} * (var(--cell) + var(--gap))), calc(${r} * (var(--cell) + var(--gap))))`;
  }

  drawTiles(tiles, phase) {
    const nodes = tiles.map((t) => {
      const tile = document.createElement('div');
      const obstacle = t.value === -1;
      tile.className = `tile ${obstacle ? 'obstacle' : this.mode === 'fifteen' ? 'fifteen' : `v${Math.min(t.value, 131072)}`}`;
      if (t.value > 2048 && this.mode !== 'fifteen') tile.classList.add('super');
      if (t.value > 99) tile.classList.add(`len${String(t.value).length}`);
      if (t.effect === 'merged') tile.classList.add('pop');
      if (t.effect === 'new') tile.classList.add('appear');
      tile.textContent = obstacle ? '' : String(t.value);
      tile.style.transform = this.transform(t.at[0], t.at[1]);
      tile.dataset.row = t.at[0];
      tile.dataset.col = t.at[1];
      if (phase === 'sliding') tile.dataset.to = JSON.stringify(t.to);
      if (this.onCell) tile.addEventListener('click', () => this.onCell(t.at[0], t.at[1]));
      return tile;
    });
    this.layer.replaceChildren(...nodes);
  }
}
