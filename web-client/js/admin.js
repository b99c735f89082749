// The operator console (/admin): wiring the page to the operator API (/admin/api/, docs/
// operations.md "Moderation" and "Operators"). An operator signs in with name, password and,
// once enrolled, their authenticator's code; the session (or the owner's bootstrap token, which
// manages operators only) stays in this tab's sessionStorage only. What a role may not do is
// not shown.
import { auditLine, banUntil, gameLine, operatorLine, playerFacts, reportLine, sessionLine, suspicionLine } from './admin_view.js';

const $ = (id) => document.getElementById(id);
const KEY = 'tilerace-admin-token';
const WHO = 'tilerace-admin-operator';  // {name, role, totp}; role "token" for the owner's token
let shown = null;  // the player shown
let query = null;  // the last search, read again after an action

const who = () => JSON.parse(sessionStorage.getItem(WHO) ?? 'null');
const mayAct = () => ['moderator', 'owner'].includes(who()?.role);
const mayManage = () => ['owner', 'token'].includes(who()?.role);

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
  if (res.status === 401) signedOut();
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

// Takes game off the boards, with the reason asked for (nothing for a viewer).
function hideButton(game) {
  if (!mayAct()) return '';
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
  if (who()?.role === 'token') return loadOperators();
  await Promise.all([loadReports(), loadAudit(), loadOperators(), query === null ? null : search(query)]);
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
    mayAct() ? button('resolve', () => {
      const resolution = prompt('How was it resolved?');
      if (resolution) act('resolve_report', { id: r.id, resolution }, () => 'Resolved.');
    }) : '')));
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

// The operators, who is signed in; the owner's buttons to sign one out or remove them.
async function loadOperators() {
  const operators = await api('operators');
  if (!operators) return;
  $('operators').replaceChildren(...operators.map((o) => item(operatorLine(o),
    mayManage() ? button('sign out everywhere', () => act('sign_out_operator', { operator: o.id }, () => `${o.name} is signed out.`)) : '',
    mayManage() && o.name !== who()?.name ? button('remove', () => {
      if (confirm(`Remove ${o.name}?`)) act('remove_operator', { operator: o.id }, () => `${o.name} is removed.`);
    }) : '')));
}

function signedOut() {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(WHO);
  showDesk();
}

// The page for whoever is signed in: the token sees the operators only; a viewer no actions.
async function showDesk() {
  const me = sessionStorage.getItem(KEY) ? who() : null;
  $('sign-in').hidden = !!me;
  $('who').hidden = !me;
  $('operators-card').hidden = !me;
  $('desk').hidden = !me || me.role === 'token';
  $('enrolment').hidden = true;
  if (!me) return;
  $('whoami').textContent = me.role === 'token' ? 'The owner\'s bootstrap token: create operators, then sign in as one.' : `Signed in as ${me.name} (${me.role})`;
  $('enrol').hidden = me.role === 'token' || me.totp;
  $('create-operator-form').hidden = !mayManage();
  for (const el of document.querySelectorAll('.acts')) el.hidden = !mayAct();
  await Promise.all([loadOperators(), me.role === 'token' ? null : Promise.all([loadReports(), loadAudit(), loadSuspicion()])]);
}

$('sign-in-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const body = { name: $('operator-name').value.trim(), password: $('operator-password').value };
  if ($('operator-totp').value) body.totp = $('operator-totp').value.trim();
  const res = await fetch('/admin/api/sign_in', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) {
    if (answer.error === 'totp_required') {
      $('totp-field').hidden = false;
      $('operator-totp').focus();
    }
    $('operator-totp').value = '';
    notice(`${answer.message ?? res.statusText} (${answer.error ?? res.status})`);
    return;
  }
  sessionStorage.setItem(KEY, answer.token);
  sessionStorage.setItem(WHO, JSON.stringify(answer.operator));
  $('operator-password').value = '';
  $('operator-totp').value = '';
  notice('');
  showDesk();
});
$('token-form').addEventListener('submit', (e) => {
  e.preventDefault();
  sessionStorage.setItem(KEY, $('token').value.trim());
  sessionStorage.setItem(WHO, JSON.stringify({ role: 'token' }));
  $('token').value = '';
  notice('');
  showDesk();
});
$('sign-out').addEventListener('click', async () => {
  if (who()?.role !== 'token') await api('sign_out', {});
  signedOut();
  notice('Signed out.');
});
$('enrol').addEventListener('click', async () => {
  const enrolment = await api('totp_enrol', {});
  if (!enrolment) return;
  $('enrolment').hidden = false;
  $('totp-uri').href = enrolment.uri;
  $('totp-uri').textContent = enrolment.uri;
  $('totp-secret').textContent = enrolment.secret;
});
$('totp-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  if (!await api('totp_confirm', { code: $('totp-code').value.trim() })) return;
  sessionStorage.setItem(WHO, JSON.stringify({ ...who(), totp: true }));
  $('totp-code').value = '';
  await showDesk();
  notice('Your authenticator is set up: sign-in asks for its code from now on.');
});
$('create-operator-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const name = $('new-operator-name').value.trim();
  act('create_operator', { name, password: $('new-operator-password').value, role: $('new-operator-role').value }, () => `${name} can sign in now.`);
  $('new-operator-password').value = '';
});
$('refresh-operators').addEventListener('click', loadOperators);
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
