// The operator console's words: each line of the audit log, of a report, and what is known of a
// player, as plain text (the console sets it as text, never as HTML).

const when = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

// Who (and their role, for an operator), did what to whom (the name they had then, if a
// player's), why, and from where.
export function auditLine(e) {
  const who = e.role ? `${e.actor} (${e.role})` : e.actor;
  const whom = e.target_name && e.target_name !== e.target ? `${e.target_name} [${e.target}]` : e.target;
  const why = e.reason ? ` — ${e.reason}` : '';
  const detail = e.detail ? ` (${e.detail})` : '';
  const from = e.address ? ` · from ${e.address}` : '';
  return `${when(e.at)} · ${who} · ${e.action} ${whom}${why}${detail}${from}`;
}

// An operator as the desk lists them.
export function operatorLine(o) {
  const totp = o.totp ? 'authenticator on' : 'no authenticator';
  const live = o.sessions === 1 ? '1 session' : `${o.sessions} sessions`;
  const last = o.last_sign_in ? `last signed in ${when(o.last_sign_in)}` : 'not signed in lately';
  return `${o.name} · ${o.role} · ${totp} · ${live} · ${last}`;
}

export function reportLine(r) {
  const note = r.note ? `: “${r.note}”` : '';
  const state = r.resolved_at ? ` · resolved: ${r.resolution}` : '';
  return `${when(r.at)} · ${r.reporter.name} reported ${r.player.name} for ${r.reason}${note}${state}`;
}

// A player's standing: rating, account, ban.
export function playerFacts(p) {
  const account = p.registered ? 'registered' : 'guest';
  let ban = 'not banned';
  if (p.banned_until !== undefined) {
    ban = p.banned_until === 0 ? 'banned until lifted' : `banned until ${when(p.banned_until)}`;
    if (p.ban_reason) ban += ` — ${p.ban_reason}`;
  }
  return `${p.id} · rating ${p.rating} · ${account} · since ${when(p.created_at)} · ${ban}`;
}

export function sessionLine(s) {
  return `${s.label || 'a device'} · last seen ${when(s.last_seen)} from ${s.address || 'an unknown address'}`;
}

export function gameLine(g) {
  const where = g.room ? `race in ${g.room}` : g.ranked ? 'ranked solo' : 'solo';
  return `${when(g.at)} · ${g.mode} ${g.size}×${g.size} · ${g.score} points, ${g.moves} moves (${g.state}) · ${where}${g.hidden ? ' · hidden' : ''}`;
}

// A game of the suspicion list.
export function suspicionLine(s) {
  const match = s.match_rate === null ? 'no expectimax comparison' : `${Math.round(s.match_rate * 100)}% expectimax's move (${s.sampled} compared)`;
  const pace = s.moves_per_second > 0 ? `${s.moves_per_second.toFixed(1)} moves/s, spread ${s.spread.toFixed(2)}` : 'no move times';
  return `${s.suspicion.toFixed(0)} · ${s.player.name} · ${s.mode} ${s.size}×${s.size}, ${s.score} points · ${match} · ${pace}`;
}

// A ban's end from a number of days (empty: none), as the API takes it.
export function banUntil(days, now = Date.now()) {
  const n = Number(days);
  return days === '' || !Number.isFinite(n) || n <= 0 ? undefined : now + n * 86400000;
}
