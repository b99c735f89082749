// Draws a board from the server's messages only: tiles slide (~100 ms), merged tiles pop and
// new tiles appear (~200 ms), as in the original game. Values are drawn as text.
import { planAnimation } from './animation.js';

const SLIDE_MS = 100;

export class BoardView {
  // element: an empty container. onCell(row, col) is called when a cell is clicked (fifteen).
  constructor(element, { onCell = null, small = false } = {}) {
    this.element = element;
    this.element.classList.add('board');
    if (small) this.element.classList.add('small');
    this.onCell = onCell;
    this.size = 0;
    this.mode = 'classic';
    this.board = null;
    this.timer = null;
  }

  // Shows board (rows) at once, without animation.
  show(board, mode) {
    clearTimeout(this.timer);
    this.mode = mode;
    this.setSize(board.length);
    this.board = board;
    this.element.dataset.board = JSON.stringify(board);
    this.drawTiles(this.settledOf(board), 'settled');
  }

  // Animates from the board shown now to message.board using its motions and spawns.
  animate(before, message, mode) {
    if (!this.board || !before || before.length !== message.board.length) return this.show(message.board, mode);
    clearTimeout(this.timer);
    this.mode = mode;
    const plan = planAnimation(before, message.board, message.motions, message.spawned);
    this.board = message.board;
    this.element.dataset.board = JSON.stringify(message.board);
    this.drawTiles(plan.sliding.map((t) => ({ value: t.value, at: t.from, to: t.to })), 'sliding');
    requestAnimationFrame(() => {
      for (const tile of this.element.querySelectorAll('.tile[data-to]')) {
        const [r, c] = JSON.parse(tile.dataset.to);
        tile.style.transform = this.transform(r, c);
      }
    });
    this.timer = setTimeout(() => this.drawTiles(plan.settled, 'settled'), SLIDE_MS);
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
    this.element.append(grid, this.layer);
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
