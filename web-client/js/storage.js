// What the client keeps in the browser, all in one place: the player's name and token, this
// device's mark (kept across sign-outs: the device stays one that signed in before), sound
// on or off, the game a player chose to keep playing after winning it, and whether emotes are
// muted, the language chosen, and the bests of practice games. Wraps a Web Storage (localStorage, or anything with getItem/setItem/removeItem).
const KEYS = {
  name: 'tilerace.name',
  token: 'tilerace.token',
  deviceMark: 'tilerace.deviceMark',
  sound: 'tilerace.sound',
  keepGoing: 'tilerace.keepGoing',
  muteEmotes: 'tilerace.muteEmotes',
  language: 'tilerace.language',
  practiceBests: 'tilerace.practiceBests',
};

export class ClientStorage {
  constructor(store) { this.store = store; }

  get name() { return this.store.getItem(KEYS.name); }
  // A new name is a new player: the token of the old one goes.
  set name(name) {
    if (name === this.name) return;
    this.store.setItem(KEYS.name, name);
    this.store.removeItem(KEYS.token);
  }

  // Who the welcome says we are: the name and token to keep, together.
  signedIn(name, token) {
    this.store.setItem(KEYS.name, name);
    this.store.setItem(KEYS.token, token);
  }
  // Signed out: nothing kept of the player.
  forget() {
    this.store.removeItem(KEYS.name);
    this.store.removeItem(KEYS.token);
  }

  get token() { return this.store.getItem(KEYS.token); }
  // null forgets it.
  set token(token) {
    if (token) this.store.setItem(KEYS.token, token); else this.store.removeItem(KEYS.token);
  }

  // The welcome's device_mark, given back with a login (docs/protocol.md, "Sign-in limits").
  get deviceMark() { return this.store.getItem(KEYS.deviceMark); }
  set deviceMark(mark) { if (mark) this.store.setItem(KEYS.deviceMark, mark); }

  get soundOn() { return this.store.getItem(KEYS.sound) === '1'; }
  set soundOn(on) { this.store.setItem(KEYS.sound, on ? '1' : '0'); }

  // Whether the player chose to keep going after winning game gameId (kept across reloads).
  keptGoing(gameId) { return !!gameId && this.store.getItem(KEYS.keepGoing) === gameId; }
  keepGoing(gameId) { this.store.setItem(KEYS.keepGoing, gameId ?? ''); }

  // The language the player chose in the header (i18n.js), or null: the browser's.
  get language() { return this.store.getItem(KEYS.language); }
  set language(lang) { this.store.setItem(KEYS.language, lang); }

  // Practice games' bests (practice.js): "mode/size" → score (Fifteen: fewest moves).
  get practiceBests() {
    try { return JSON.parse(this.store.getItem(KEYS.practiceBests) ?? '{}') ?? {}; } catch { return {}; }
  }
  set practiceBests(bests) { this.store.setItem(KEYS.practiceBests, JSON.stringify(bests)); }

  get emotesMuted() { return this.store.getItem(KEYS.muteEmotes) === '1'; }
  set emotesMuted(on) { this.store.setItem(KEYS.muteEmotes, on ? '1' : '0'); }
}
