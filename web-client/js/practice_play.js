// A practice game on the page: practice.js plays it, state.js shows it (showPractice), the
// board draws each change at once. Nothing goes to the server.
import { showPractice } from './state.js';

export class PracticePlay {
  // practice: a Practice; board: the BoardView of my own board; render(): draws the page.
  constructor(state, practice, board, render) {
    Object.assign(this, { state, practice, board, render });
  }

  // A new practice game with settings {mode, size, target} (the lobby's), shown.
  start(settings) { this.draw(this.practice.start(settings)); }
  stop() { this.practice.stop(); showPractice(this.state, null); }
  // Whether the game shown (not a race's) is a practice game: keys and taps go to it.
  get playing() { return !!this.state.practice && !this.state.role; }
  best(game) { return this.practice.best(game.mode, game.size); }

  // A move {dir}, a Fifteen slide to {cell: [row, col]}, or {undo}; drawn when it changed the board.
  press({ dir, cell, undo }) {
    const { practice } = this;
    const changed = undo ? practice.undo() : cell ? practice.slide(...cell) : practice.move(dir);
    if (changed) this.draw(practice.shown());
  }

  draw(game) {
    showPractice(this.state, game);
    this.board.show(game.board, game.mode);
    this.render();
  }
}
