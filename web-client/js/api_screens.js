// The screens drawn from the server's HTTP API (api.js): a player's profile, a replay, a
// recorded run raced as a ghost, and my daily streak. A failure is a notice saying what could
// not be opened and why; the screen shown stays.
import { fetchProfile, fetchReplay } from './api.js';
import { renderProfile } from './profile_view.js';
import { notify } from './state.js';

export class ApiScreens {
  // page: {state, controller, replay (a ReplayView), show(screen), render()}; $: id → element.
  constructor($, page) {
    this.$ = $;
    this.page = page;
    this.profileId = null;  // whose profile is shown
  }

  // Opens id's profile (mine lists my sessions too).
  openProfile(id) {
    const { $, page } = this;
    return this.fetched(async () => {
      this.profileId = id;
      if (page.state.me && id === page.state.me.id) page.controller.listSessions();
      renderProfile({ name: $('profile-name'), stats: $('profile-stats'), variant: $('rating-variant'), chart: $('rating-chart'),
        bests: $('profile-bests'), races: $('profile-races'), achievements: $('profile-achievements') },
      await fetchProfile(id), (game) => this.openReplay(game), (game) => this.raceRun(game));
      page.show('profile');
    }, 'notice.profileUnavailable');
  }

  // Opens the replay of the finished game id.
  openReplay(id) {
    return this.fetched(async () => { this.page.replay.open(await fetchReplay(id)); this.page.show('replay'); },
      'notice.replayUnavailable');
  }

  // Races the recorded game id as a ghost (its replay says how long the run was).
  raceRun(id) {
    return this.fetched(async () => this.page.controller.raceGhost(await fetchReplay(id)), 'notice.runUnavailable');
  }

  // My daily streaks, from my profile (after welcome); none shown when it cannot be had.
  async loadStreak() {
    const { state } = this.page;
    try {
      state.dailyStreak = (await fetchProfile(state.me.id)).daily;
      this.page.render();
    } catch { /* the card shows no streak */ }
  }

  // Runs action; a failure becomes the notice `failure` with its reason.
  async fetched(action, failure) {
    try { await action(); } catch (err) { notify(this.page.state, 'error', failure, { reason: err.message }); this.page.render(); }
  }
}
