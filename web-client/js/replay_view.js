// Replays a finished game (as GET /api/replays/<id> gives it, api.js): the moves are re-run
// locally by the engine port, with play, pause and step.
import { replayFrames } from './engine.js';
import { BoardView } from './board_view.js';
import { t } from './i18n.js';

export class ReplayView {
  constructor(el) {
    this.el = el;
    this.board = new BoardView(el.board, { label: t('replay.board') });
    this.timer = null;
    el.play.addEventListener('click', () => (this.timer ? this.pause() : this.play()));
    el.step.addEventListener('click', () => { this.pause(); this.show(this.index + 1); });
  }

  open(replay) {
    this.pause();
    this.replay = replay;
    this.frames = replayFrames(this.replay).frames;
    this.el.title.textContent = t('replay.title', { name: this.replay.player.name, mode: t(`mode.${this.replay.mode}`), size: this.replay.size });
    this.el.total.textContent = String(this.frames.length - 1);
    this.show(0);
  }

  show(i) {
    this.index = Math.min(i, this.frames.length - 1);
    const f = this.frames[this.index];
    this.board.show(f.board, this.replay.mode);
    this.el.move.textContent = String(this.index);
    this.el.score.textContent = String(f.score);
    if (this.index === this.frames.length - 1) this.pause();
  }

  play() {
    this.el.play.textContent = t('replay.pause');
    this.timer = setInterval(() => this.show(this.index + 1), 150);
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.el.play.textContent = t('replay.play');
  }
}
