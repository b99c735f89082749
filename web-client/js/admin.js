// The operator console (/admin): wiring the page to the operator API (/admin/api/, docs/
// operations.md "Moderation"). The token stays in this tab's sessionStorage only.
import { auditLine, banUntil, gameLine, playerFacts, reportLine, sessionLine, suspicionLine } from './admin_view.js';

const $ = (id) => document.getElementById(id);
const KEY = 'tilerace-admin-token';
let shown = null;  // the player shown
let query = null;  // the last search, read again after an action

function notice(text) {
  $('console-notice').textContent = text;
  $('console-notice').hidden = !text;
}

// One call to the API: its JSON answer, or a notice and null.
async function api(path, body) {
  const res = await fetch(`/admin/api/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${sessionStorage.getItem(KEY) ?? ''}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await res.json().catch(() => ({}));
  if (res.ok) return answer;
  if (res.status === 401) { sessionStorage.removeItem(KEY); showDesk(); }
  notice(`${answer.message ?? res.statusText} (${answer.error ?? res.status})`);
  return null;
}

function item(text, ...buttons) {
  const li = document.createElement('li');
  li.textContent = text;
  for (const b of buttons) li.append(' ', b);
  return li;
}
function button(label, onClick) {
  const b = Object.assign(document.createElement('button'), { type: 'button', textContent: label, className: 'link' });
  b.addEventListener('click', onClick);
  return b;
}

// Takes game off the boards, with the reason asked for.
function hideButton(game) {
  return button('take off the boards', () => {
    const reason = prompt('Why take this game off the boards?');
    if (reason) act('hide_game', { game, reason }, () => 'Taken off the boards.');
  });
}

// An action, then what it changed read again.
async function act(action, body, done) {
  const answer = await api(action, body);
  if (!answer) return;
  notice(done(answer));
  if (shown) await openPlayer(shown);
  await Promise.all([loadReports(), loadAudit(), query === null ? null : search(query)]);
}

async function openPlayer(id) {
  const p = await api(`players/${encodeURIComponent(id)}`);
  if (!p) return;
  shown = id;
  $('player').hidden = false;
  $('player-name').textContent = p.name;
  $('player-facts').textContent = playerFacts(p);
  $('player-sessions').replaceChildren(...p.sessions.map((s) => item(sessionLine(s))));
  $('player-games').replaceChildren(...p.games.map((g) => item(gameLine(g), g.hidden
    ? button('put back on the boards', () => act('show_game', { game: g.id }, () => 'Back on the boards.'))
    : hideButton(g.id))));
  $('player-reports').replaceChildren(...p.reports.map((r) => item(reportLine(r))));
}

async function loadReports() {
  const reports = await api('reports?open=1');
  if (!reports) return;
  $('reports').replaceChildren(...reports.map((r) => item(reportLine(r),
    button('see player', () => openPlayer(r.player.id)),
    button('resolve', () => {
      const resolution = prompt('How was it resolved?');
      if (resolution) act('resolve_report', { id: r.id, resolution }, () => 'Resolved.');
    }))));
}

async function loadSuspicion() {
  const games = await api('suspicion?limit=50');
  if (!games) return;
  $('suspicion').replaceChildren(...games.map((g) => item(suspicionLine(g),
    button('see player', () => openPlayer(g.player.id)), hideButton(g.game))));
}

async function loadAudit() {
  const log = await api('audit?limit=100');
  if (log) $('audit').replaceChildren(...log.map((e) => item(auditLine(e))));
}

async function showDesk() {
  const signedIn = !!sessionStorage.getItem(KEY);
  $('desk').hidden = !signedIn;
  $('token-form').hidden = signedIn;
  if (signedIn) await Promise.all([loadReports(), loadAudit(), loadSuspicion()]);
}

$('token-form').addEventListener('submit', (e) => {
  e.preventDefault();
  sessionStorage.setItem(KEY, $('token').value.trim());
  $('token').value = '';
  notice('');
  showDesk();
});
// The players matching q, listed with their facts as they are now.
async function search(q) {
  const found = await api(`players?q=${encodeURIComponent(q)}`);
  if (!found) return;
  query = q;
  $('found').replaceChildren(...found.map((p) => item(`${p.name} · ${playerFacts(p)}`, button('open', () => openPlayer(p.id)))));
  if (found.length === 0) notice('Nobody matches.');
}
$('search-form').addEventListener('submit', (e) => {
  e.preventDefault();
  search($('search').value.trim());
});
$('ban-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const until = banUntil($('ban-days').value);
  act('ban', { player: shown, reason: $('ban-reason').value.trim(), ...(until ? { until } : {}) }, () => 'Banned.');
});
$('unban').addEventListener('click', () => act('unban', { player: shown }, () => 'Unbanned.'));
$('rename-form').addEventListener('submit', (e) => {
  e.preventDefault();
  act('rename', { player: shown, name: $('new-name').value.trim(), reason: $('rename-reason').value.trim() }, () => 'Renamed.');
});
$('reset').addEventListener('click', () => act('reset_password', { player: shown },
  (a) => `Password cleared. Give them this one-time link: ${location.origin}/?link=${a.link_code}`));
$('close-form').addEventListener('submit', (e) => {
  e.preventDefault();
  act('close_room', { code: $('close-code').value.trim().toUpperCase(), reason: $('close-reason').value.trim() }, () => 'Room closed.');
});
$('refresh-audit').addEventListener('click', loadAudit);
$('refresh-suspicion').addEventListener('click', loadSuspicion);
showDesk();
