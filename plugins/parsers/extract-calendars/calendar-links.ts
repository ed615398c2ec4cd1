/**
 * "Add to calendar" links: iCalendar files (`.ics`, `webcal:`, `type="text/calendar"`) and the
 * event templates of Google Calendar, Outlook (live.com / office.com) and Yahoo Calendar, whose
 * query strings carry the event (title, times, place, details).
 */

export type CalendarProvider = 'ical' | 'webcal' | 'google' | 'outlook' | 'yahoo';

export interface LinkedEvent {
  title: string | null;
  start: string | null;
  end: string | null;
  location: string | null;
  details: string | null;
}

export interface CalendarLink {
  provider: CalendarProvider;
  url: string;
  /** The link's text (or title/aria-label), null when it has none. */
  text: string | null;
  /** The event the link adds, for template links; null for calendar files. */
  event: LinkedEvent | null;
}

/** The calendar link `href` is, or null. `type` is the link's `type` attribute. */
export function calendarLink(href: string, text: string | null, type: string | null): CalendarLink | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  const path = url.pathname.toLowerCase();
  if (url.protocol === 'webcal:' || url.protocol === 'webcals:')
    return { provider: 'webcal', url: url.href, text, event: null };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (host === 'calendar.google.com' || (host === 'www.google.com' && path.startsWith('/calendar'))) {
    if (url.searchParams.get('action')?.toUpperCase() === 'TEMPLATE')
      return { provider: 'google', url: url.href, text, event: googleEvent(url) };
    const ical = url.searchParams.get('cid') ?? null;
    return path.includes('/ical/') || ical ? { provider: 'google', url: url.href, text, event: null } : null;
  }
  if (/(?:^|\.)outlook\.(?:live|office|office365)\.com$/.test(host) && path.includes('/calendar/')) {
    return { provider: 'outlook', url: url.href, text, event: outlookEvent(url) };
  }
  if (host === 'calendar.yahoo.com') return { provider: 'yahoo', url: url.href, text, event: yahooEvent(url) };
  if (
    path.endsWith('.ics') ||
    path.endsWith('.ical') ||
    path.endsWith('.ifb') ||
    /^text\/calendar\b/i.test(type ?? '')
  ) {
    return { provider: 'ical', url: url.href, text, event: null };
  }
  return null;
}

function param(url: URL, ...names: string[]): string | null {
  for (const name of names) {
    const value = url.searchParams.get(name)?.trim();
    if (value) return value;
  }
  return null;
}

/** Google: `text`, `dates=20250614T193000Z/20250614T230000Z` (or all-day `20250614/20250615`), `location`, `details`. */
function googleEvent(url: URL): LinkedEvent {
  const [start, end] = (param(url, 'dates') ?? '').split('/');
  return {
    title: param(url, 'text'),
    start: compactDate(start),
    end: compactDate(end),
    location: param(url, 'location'),
    details: param(url, 'details'),
  };
}

/** Outlook: `subject`, `startdt`, `enddt` (ISO), `location`, `body`. */
function outlookEvent(url: URL): LinkedEvent {
  return {
    title: param(url, 'subject'),
    start: param(url, 'startdt'),
    end: param(url, 'enddt'),
    location: param(url, 'location'),
    details: param(url, 'body'),
  };
}

/** Yahoo: `title`, `st`/`et` (compact), `in_loc`, `desc`. */
function yahooEvent(url: URL): LinkedEvent {
  return {
    title: param(url, 'title'),
    start: compactDate(param(url, 'st') ?? undefined),
    end: compactDate(param(url, 'et') ?? undefined),
    location: param(url, 'in_loc'),
    details: param(url, 'desc'),
  };
}

/** `20250614T193000Z` → `2025-06-14T19:30:00Z`; `20250614` → `2025-06-14`; anything else null. */
export function compactDate(raw: string | undefined): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z)?)?$/.exec(raw?.trim() ?? '');
  if (!match) return null;
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  return match[4] ? `${date}T${match[4]}:${match[5]}:${match[6] ?? '00'}${match[7] ?? ''}` : date;
}
