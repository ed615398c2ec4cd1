import { isAddressNode, isPlainObject, type LinkedNode, textOf } from '../../../src/extraction/index.js';
import { collapseWhitespace, resolveUrl } from '../../../src/pipeline/dom.js';
import { nodesOfType } from '../support/linked-values.js';

/** An event as the page describes it, with schema.org's names made plain. */
export interface PageEvent {
  name: string | null;
  start_date: string | null;
  end_date: string | null;
  /** The place's name (or the address when the place has no name). */
  location: string | null;
  address: string | null;
  url: string | null;
  description: string | null;
  image: string | null;
  /** `scheduled`, `cancelled`, `postponed`, `rescheduled`, `moved_online`; null when not said. */
  status: string | null;
  /** `offline`, `online`, `mixed`; null when not said. */
  attendance_mode: string | null;
  organizer: string | null;
  performers: string[];
  offers: Array<{
    name: string | null;
    price: string | null;
    currency: string | null;
    url: string | null;
    availability: string | null;
  }>;
  /** `json-ld`, `microdata` or `microformat` (h-event / hCalendar). */
  source: string;
}

const STATUS: Record<string, string> = {
  EventScheduled: 'scheduled',
  EventCancelled: 'cancelled',
  EventPostponed: 'postponed',
  EventRescheduled: 'rescheduled',
  EventMovedOnline: 'moved_online',
};
const MODE: Record<string, string> = {
  OfflineEventAttendanceMode: 'offline',
  OnlineEventAttendanceMode: 'online',
  MixedEventAttendanceMode: 'mixed',
};

/** Event, MusicEvent, Festival, ... — every schema.org type that is an event. */
export function isEventType(types: string[]): boolean {
  return types.some(
    (type) => (/Event$/.test(type) && type !== 'EventReservation') || type === 'Festival' || type === 'Hackathon',
  );
}

/** Events of JSON-LD or microdata nodes (any depth: an ItemList of events, a Place's events). */
export function linkedEvents(nodes: LinkedNode[], source: string, baseUrl: URL): PageEvent[] {
  return nodesOfType(nodes, isEventType).map((node) => eventOf(node, source, baseUrl));
}

function eventOf(node: LinkedNode, source: string, baseUrl: URL): PageEvent {
  const location = Array.isArray(node.location) ? node.location[0] : node.location;
  const place = isPlainObject(location) ? location : null;
  const address = place && isPlainObject(place.address) ? place.address : place && isAddressNode(place) ? place : null;
  const url = (value: unknown) => {
    const text = textOf(value, true);
    return text ? resolveUrl(text, baseUrl) : null;
  };
  return {
    name: textOf(node.name),
    start_date: textOf(node.startDate),
    end_date: textOf(node.endDate),
    location: place ? (textOf(place.name) ?? textOf(place.address ?? place)) : textOf(location),
    address: address ? textOf(address) : typeof place?.address === 'string' ? textOf(place.address) : null,
    url: url(node.url),
    description: textOf(node.description),
    image: url(node.image),
    status: enumName(node.eventStatus, STATUS),
    attendance_mode: enumName(node.eventAttendanceMode, MODE),
    organizer: textOf(node.organizer),
    performers: (Array.isArray(node.performer) ? node.performer : node.performer ? [node.performer] : [])
      .map((performer) => textOf(performer))
      .filter((name): name is string => !!name),
    offers: (Array.isArray(node.offers) ? node.offers : node.offers ? [node.offers] : [])
      .filter(isPlainObject)
      .map((offer) => ({
        name: textOf(offer.name),
        price: textOf(offer.price ?? offer.lowPrice),
        currency: textOf(offer.priceCurrency),
        url: url(offer.url),
        availability: textOf(offer.availability)?.replace(/^https?:\/\/schema\.org\//i, '') ?? null,
      })),
    source,
  };
}

function enumName(value: unknown, names: Record<string, string>): string | null {
  const text = textOf(value)?.replace(/^https?:\/\/schema\.org\//i, '');
  return text ? (names[text] ?? text) : null;
}

/** Microformats: `h-event` (p-name, dt-start, dt-end, p-location, u-url, p-summary) and classic hCalendar `vevent`. */
export function microformatEvents(document: Document, baseUrl: URL): PageEvent[] {
  const events: PageEvent[] = [];
  for (const element of document.querySelectorAll('.h-event, .vevent')) {
    const find = (...classes: string[]) => element.querySelector(classes.map((name) => `.${name}`).join(', '));
    const text = (...classes: string[]) => {
      const found = find(...classes);
      return found ? collapseWhitespace(found.textContent ?? '') || null : null;
    };
    const time = (...classes: string[]) => {
      const found = find(...classes);
      return found?.getAttribute('datetime') ?? found?.getAttribute('title') ?? text(...classes);
    };
    const link = find('u-url', 'url');
    events.push({
      name: text('p-name', 'summary'),
      start_date: time('dt-start', 'dtstart'),
      end_date: time('dt-end', 'dtend'),
      location: text('p-location', 'location'),
      address: null,
      url: resolveUrl(link?.getAttribute('href') ?? null, baseUrl),
      description: text('p-summary', 'p-description', 'description'),
      image: null,
      status: null,
      attendance_mode: null,
      organizer: text('p-organizer', 'organizer'),
      performers: [],
      offers: [],
      source: 'microformat',
    });
  }
  return events;
}
