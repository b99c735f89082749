// A notice's words (state.notice is {kind, key, params}): errors by their code, with the
// field they name where the catalog has words for it, and the code after them; an
// achievement by its id; a challenge with its settings; everything else by its key.
import { dateTime, has, t } from './i18n.js';
import { settingsText } from './friends_view.js';

export function noticeText(notice) {
  const params = notice.params ?? {};
  if (notice.kind === 'error') return errorText(params);
  if (notice.kind === 'achievement') return t(notice.key, achievementWords(params));
  if (params.settings) return t(notice.key, { ...params, settings: settingsText(params.settings) });
  return t(notice.key, params);
}

// A refused request: errors.<code>.<field>.<reason> (a refused name says why), else
// errors.<code>.<field>, else errors.<code>, else the server's own words (a code newer than
// this client), then the code.
export function errorText({ code, message, field, reason, until }) {
  const key = [`errors.${code}.${field}.${reason}`, `errors.${code}.${field}`, `errors.${code}`].find(has);
  const words = key ? t(key, { reason: reason ?? '', until: until ? dateTime(until) : '' }) : message;
  const banned = code === 'banned' && until ? ` ${t('errors.bannedUntil', { until: dateTime(until) })}` : '';
  return t('notice.error', { text: `${words}${banned}`, code });
}

// An achievement's title and description: the catalog's by its id, else the server's.
export function achievementWords({ id, title, description }) {
  return {
    title: has(`achievement.${id}.title`) ? t(`achievement.${id}.title`) : title,
    description: has(`achievement.${id}.description`) ? t(`achievement.${id}.description`) : description,
  };
}
