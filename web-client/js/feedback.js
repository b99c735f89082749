// What the page says (to screen readers, through the polite live region) and plays (sound.js)
// about the server's messages: the countdown, the start, an achievement, a race's end for a
// spectator, an emote in words.
import { t } from './i18n.js';
import { noticeText } from './notice_view.js';

export class Feedback {
  // announce: the live region; sound: a Sound.
  constructor(announce, sound) {
    this.announce = announce;
    this.sound = sound;
  }

  say(text) { this.announce.textContent = text; }

  // After state has folded msg in.
  onMessage(msg, state) {
    if (msg.type === 'countdown') {
      this.say(t('say.countdown', { count: msg.seconds }));
      this.sound.play('countdown');
    }
    if (msg.type === 'race_start') this.say(t('say.go'));
    if (msg.type === 'achievement' && state.notice?.kind === 'achievement') {
      this.say(noticeText(state.notice));
      this.sound.play('win');
    }
    if (msg.type === 'race_over' && state.role === 'spectator') {
      const winner = msg.standings.find((s) => s.player === msg.winner);
      this.say(winner ? t('say.raceWonBy', { name: winner.name }) : t('say.raceDrawn'));
    }
  }

  // An emote from player (me: mine) in words: "bob: good luck".
  emote(state, player, emote) {
    const mine = state.me && player === state.me.id;
    const name = mine ? t('say.you') : state.room?.players.find((p) => p.id === player)?.name ?? t('say.someone');
    this.say(t('say.emote', { name, emote: t(`emote.${emote}.words`) }));
  }
}
