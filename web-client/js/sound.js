// Sounds made with WebAudio, no audio files: short tone sequences for a slide, a merge, a
// win, a loss and the countdown. Off until the player turns them on; the choice is kept in
// storage. Browsers let audio start only after a gesture, so the context is resumed on one.

// name → [frequency Hz, seconds] played one after another.
const TONES = {
  slide: [[220, 0.04]],
  merge: [[440, 0.05], [660, 0.07]],
  win: [[523, 0.12], [659, 0.12], [784, 0.22]],
  lose: [[392, 0.15], [311, 0.28]],
  countdown: [[880, 0.08]],
};

export class Sound {
  // storage: a ClientStorage (storage.js).
  constructor(storage) {
    this.storage = storage;
    this.on = storage.soundOn;
    this.context = null;
  }

  // Turns sound on or off (remembered); returns whether it is on.
  toggle() {
    this.on = !this.on;
    this.storage.soundOn = this.on;
    if (this.on) this.resume();
    return this.on;
  }

  // Call from a user gesture: creates or wakes the audio context.
  resume() {
    if (!this.on) return;
    this.context ??= new AudioContext();
    if (this.context.state === 'suspended') this.context.resume();
  }

  play(name) {
    if (!this.on || !TONES[name]) return;
    this.context ??= new AudioContext();
    let at = this.context.currentTime;
    for (const [frequency, seconds] of TONES[name]) {
      const tone = this.context.createOscillator();
      const volume = this.context.createGain();
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.12, at);
      volume.gain.exponentialRampToValueAtTime(0.001, at + seconds);
      tone.connect(volume).connect(this.context.destination);
      tone.start(at);
      tone.stop(at + seconds);
      at += seconds;
    }
  }
}
