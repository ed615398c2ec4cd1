import { readJsonLd, readMicrodata } from '../../../src/extraction/index.js';
import { collapseWhitespace, resolveUrl } from '../../../src/pipeline/dom.js';
import { requireHtml } from '../../../src/parsers/page-input.js';
import { defineParser } from '../../../src/parsers/parser.js';
import { type CalendarLink, calendarLink } from './calendar-links.js';
import { linkedEvents, microformatEvents } from './page-events.js';

const nullableString = { type: ['string', 'null'] };

/**
 * `@olostep/extract-calendars`: what a page offers to put in a calendar. `calendar_links`: iCal
 * files (`.ics`, `webcal:`, `type="text/calendar"` links, `<link rel="alternate"
 * type="text/calendar">`) and "add to calendar" templates of Google Calendar, Outlook and Yahoo,
 * with the event their query carries; `events`: schema.org events from JSON-LD and microdata
 * (every Event subtype) and h-event/hCalendar microformats, normalised. HTML pages only.
 *
 * @example
 * // { "calendar_links": [{ "provider": "google", "url": "https://calendar.google.com/...",
 * //     "text": "Add to Google Calendar", "event": { "title": "Launch", "start": "2025-06-14T17:00:00Z", ... } }],
 * //   "events": [{ "name": "Launch", "start_date": "2025-06-14T19:00:00+02:00", ... }] }
 */
export const extractCalendarsParser = defineParser({
  id: '@olostep/extract-calendars',
  description:
    'Calendar links (iCal/.ics, webcal:, Google/Outlook/Yahoo "add to calendar" links with their event) and events described by JSON-LD, microdata and h-event microformats.',
  outputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      calendar_links: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            provider: { type: 'string', enum: ['ical', 'webcal', 'google', 'outlook', 'yahoo'] },
            url: { type: 'string' },
            text: nullableString,
            event: {
              type: ['object', 'null'],
              description: 'The event an "add to calendar" template adds; null for calendar files.',
              properties: {
                title: nullableString,
                start: nullableString,
                end: nullableString,
                location: nullableString,
                details: nullableString,
              },
            },
          },
          required: ['provider', 'url', 'text', 'event'],
        },
      },
      events: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: nullableString,
            start_date: { ...nullableString, description: 'As the page writes it (ISO 8601 in structured data).' },
            end_date: nullableString,
            location: nullableString,
            address: nullableString,
            url: nullableString,
            description: nullableString,
            image: nullableString,
            status: { ...nullableString, description: 'scheduled, cancelled, postponed, rescheduled, moved_online' },
            attendance_mode: { ...nullableString, description: 'offline, online, mixed' },
            organizer: nullableString,
            performers: { type: 'array', items: { type: 'string' } },
            offers: { type: 'array', items: { type: 'object' } },
            source: { type: 'string', enum: ['json-ld', 'microdata', 'microformat'] },
          },
          required: ['name', 'start_date', 'end_date', 'location', 'url', 'source'],
        },
      },
    },
    required: ['calendar_links', 'events'],
    additionalProperties: false,
  },
  parse(input) {
    const { document, baseUrl } = requireHtml(input, '@olostep/extract-calendars');
    const links: CalendarLink[] = [];
    const seen = new Set<string>();
    for (const element of document.querySelectorAll('a[href], link[href], area[href]')) {
      const raw = element.getAttribute('href')?.trim() ?? '';
      const href = /^webcals?:/i.test(raw) ? raw : resolveUrl(raw, baseUrl);
      const label =
        element.nodeName === 'LINK' ? element.getAttribute('title') : collapseWhitespace(element.textContent ?? '');
      const text = label || element.getAttribute('aria-label') || element.getAttribute('title') || null;
      const link = href ? calendarLink(href, text, element.getAttribute('type')) : null;
      if (link && !seen.has(link.url)) {
        seen.add(link.url);
        links.push(link);
      }
    }
    const events = [
      ...linkedEvents(readJsonLd(document).items, 'json-ld', baseUrl),
      ...linkedEvents(readMicrodata(document, baseUrl), 'microdata', baseUrl),
      ...microformatEvents(document, baseUrl),
    ];
    return { calendar_links: links, events };
  },
});
