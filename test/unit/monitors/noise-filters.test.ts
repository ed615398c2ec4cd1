import { describe, expect, it } from 'vitest';
import {
  createLineMasker,
  defaultNoiseFilters,
  NOISE_FILTERS,
  type NoiseFilterId,
} from '../../../src/domain/monitors/detection/index.js';

const defaults = createLineMasker(defaultNoiseFilters());
const only = (id: NoiseFilterId): ((line: string) => string) => {
  const enabled = Object.fromEntries(NOISE_FILTERS.map((f) => [f.id, f.id === id])) as Record<NoiseFilterId, boolean>;
  return createLineMasker(enabled);
};
const none = createLineMasker(
  Object.fromEntries(NOISE_FILTERS.map((f) => [f.id, false])) as Record<NoiseFilterId, boolean>,
);

/** Lines that must compare equal: noise only. [filter, before, after] */
const NOISE: Array<[NoiseFilterId, string, string]> = [
  ['timestamps', 'Last updated: May 1, 2024 at 10:32 AM', 'Last updated: May 1, 2024 at 11:47 AM'],
  ['timestamps', 'Last updated: 2024-05-01 10:32 UTC', 'Last updated: 2024-05-02 08:01 UTC'],
  ['timestamps', 'Updated 10:32', 'Updated 14:05'],
  ['timestamps', 'As of 1 May 2024', 'As of 2 May 2024'],
  ['timestamps', 'Generated on Wednesday, May 1, 2024', 'Generated on Thursday, May 2, 2024'],
  ['timestamps', 'Page built 2024-05-01T10:32:07.123Z', 'Page built 2024-05-01T10:33:59.004Z'],
  ['timestamps', 'Date: Wed, 01 May 2024 10:32:07 GMT', 'Date: Thu, 02 May 2024 08:00:00 GMT'],
  ['timestamps', 'Server time 10:32:07', 'Server time 10:33:15'],
  ['timestamps', 'Stand: 01.05.2024, 10:32 Uhr', 'Stand: 02.05.2024, 09:10 Uhr'],
  ['timestamps', 'Zuletzt aktualisiert am 1. Mai 2024', 'Zuletzt aktualisiert am 3. Mai 2024'],
  ['timestamps', 'Mis à jour le 1er mai 2024 à 10h32', 'Mis à jour le 2 mai 2024 à 08h15'],
  ['timestamps', 'Actualizado el 5 de mayo de 2024', 'Actualizado el 6 de mayo de 2024'],
  ['timestamps', 'Ultimo aggiornamento: 01/05/2024', 'Ultimo aggiornamento: 02/05/2024'],
  ['timestamps', 'Laatst bijgewerkt op 1 mei 2024', 'Laatst bijgewerkt op 2 mei 2024'],
  ['timestamps', 'Atualizado em 01/05/2024 10:32', 'Atualizado em 02/05/2024 11:00'],
  ['relative_times', 'Posted 3 minutes ago by alice', 'Posted 2 hours ago by alice'],
  ['relative_times', 'Updated just now', 'Updated 5m ago'],
  ['relative_times', 'Posted yesterday', 'Posted 2 days ago'],
  ['relative_times', 'vor 2 Stunden', 'vor 3 Tagen'],
  ['relative_times', 'il y a 3 jours', 'il y a une heure'],
  ['relative_times', 'hace 1 hora', 'hace 2 días'],
  ['relative_times', 'há 3 minutos', 'há 1 hora'],
  ['relative_times', '3 minuti fa', '2 ore fa'],
  ['relative_times', '5 minuten geleden', '1 uur geleden'],
  ['relative_times', 'Sale ends in 2d 3h 4m', 'Sale ends in 1d 22h 9m'],
  ['relative_times', '5m', '2h'],
  ['counters', '1,234 views · 12 comments', '1,240 views · 15 comments'],
  ['counters', 'Stars: 1.2k', 'Stars: 1.3k'],
  ['counters', 'Comments (12)', 'Comments (14)'],
  ['counters', 'Cart (2)', 'Cart (3)'],
  ['counters', '5 people are viewing this', '12 people are viewing this'],
  ['counters', '4.6 out of 5 (1,234 reviews)', '4.6 out of 5 (1,240 reviews)'],
  ['counters', '1.234 Aufrufe', '1.301 Aufrufe'],
  ['counters', 'Reviews (12)', 'Reviews (13)'],
  ['counters', '4,5 Sterne (87 Bewertungen)', '4,5 Sterne (91 Bewertungen)'],
  ['counters', '12 commentaires', '13 commentaires'],
  ['counters', '40.2k views', '40.3K views'],
  ['counters', '99+ reactions', '120 reactions'],
  ['render_times', 'Page generated in 0.084 seconds.', 'Page generated in 0.112 seconds.'],
  ['render_times', 'Served in 35 ms', 'Served in 41 ms'],
  ['render_times', 'Query took 1.2 s', 'Query took 0.9 s'],
  ['session_tokens', 'Get <https://x.test/dl?file=a.zip&sid=abc123>', 'Get <https://x.test/dl?file=a.zip&sid=zzz999>'],
  [
    'session_tokens',
    'Go <https://x.test/a;jsessionid=ABC123DEF?x=1>',
    'Go <https://x.test/a;jsessionid=FFF000111?x=1>',
  ],
  ['session_tokens', 'See https://x.test/p?_=1714559520123&q=kettle', 'See https://x.test/p?_=1714563999871&q=kettle'],
  ['session_tokens', 'See https://x.test/p?utm_source=mail&q=1', 'See https://x.test/p?utm_source=rss&q=1'],
  [
    'session_tokens',
    'File https://cdn.test/f.exe?Expires=1714563120&Signature=abcDEF123',
    'File https://cdn.test/f.exe?Expires=1714567600&Signature=zzzYYY999',
  ],
  ['session_tokens', 'CSS https://x.test/app.css?v=8f3a9c2e1b', 'CSS https://x.test/app.css?v=1c2d3e4f5a'],
  ['random_ids', 'Request ID: 7f9c2b1e4a6d', 'Request ID: c3d8e1f02b97'],
  ['random_ids', 'Cloudflare Ray ID: 7c1a2b3c4d5e6f70', 'Cloudflare Ray ID: 8d2b3c4d5e6f7a81'],
  ['random_ids', 'trace 123e4567-e89b-12d3-a456-426614174000 done', 'trace 9b2f1d7c-0a4e-4c3b-8f6d-2e5a7c9b1d30 done'],
  [
    'random_ids',
    'Your session: sess_4fGh7KpQ2mXz9VbN1cRt8YwL3eJd6SaU',
    'Your session: sess_Zx8Qw2Er5Ty7Ui9Op1As3Df6Gh4Jk0Lb',
  ],
  [
    'random_ids',
    'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijk',
    'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI5OTk5In0.zyxwvutsrqp',
  ],
  ['copyright_years', '© 2024 Brewline Inc.', '© 2025 Brewline Inc.'],
  ['copyright_years', 'Copyright (c) 2019-2024 Acme', 'Copyright (c) 2019-2025 Acme'],
  ['dates', 'Today is May 1, 2024', 'Today is May 2, 2024'],
  ['dates', 'Opening hours: 09:00–17:00', 'Opening hours: 09:00–18:00'],
];

/** Lines whose difference is content: no default filter may hide it. */
const CONTENT: Array<[string, string, string]> = [
  ['a price', 'Price: $19.99', 'Price: $17.49'],
  ['a price next to a counter noun', '$1,234 views package', '$1,299 views package'],
  ['a price in euros', 'Jetzt 1.299,00 €', 'Jetzt 1.199,00 €'],
  ['stock left', 'Only 3 left in stock', 'Only 1 left in stock'],
  ['a stock count', '3 in stock', '0 in stock'],
  ['a listing count', '24 results', '31 results'],
  ['a version', 'Latest release: v2.4.1', 'Latest release: v2.4.2'],
  [
    'a commit hash',
    'Latest commit 3f2a9c1d4e5b6a7980f1e2d3c4b5a69788796a5b',
    'Latest commit 9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807',
  ],
  ['an event date', 'Concert on June 1, 2025 at 7:30 PM', 'Concert on June 2, 2025 at 7:30 PM'],
  ['an unlabelled date', 'Registration closes March 3, 2025', 'Registration closes March 10, 2025'],
  ['opening hours', 'Opening hours: 09:00–17:00', 'Opening hours: 09:00–18:00'],
  ['a delivery estimate', 'Ships in 2 days', 'Ships in 5 days'],
  ['words next to an age', 'Posted 3 minutes ago by alice', 'Posted 2 hours ago by bob'],
  ['a download link target', 'Get <https://x.test/dl/v1.2.zip>', 'Get <https://x.test/dl/v1.3.zip>'],
  ['a version parameter', 'Get <https://x.test/download?version=1.2>', 'Get <https://x.test/download?version=1.3>'],
  [
    'a file id in a URL path',
    'https://drive.test/file/d/1aBcDeFgHiJkLmNoPqRsTuVwXyZ012345/view',
    'https://drive.test/file/d/9zYxWvUtSrQpOnMlKjIhGfEdCbA987654/view',
  ],
  ['a word after a time', 'Doors open 19:30 sharp', 'Doors open 19:30 late'],
  ['a status', 'API Operational', 'API Partial Outage'],
  ['a year that is not a copyright', 'Model year 2024', 'Model year 2025'],
  ['a phone number', 'Call 0800 123 4567', 'Call 0800 765 4321'],
  ['a score', 'Final score 3–1', 'Final score 3–2'],
  ['a rating', 'Rating: 4.6', 'Rating: 3.9'],
  ['words after an id label', 'Session expired', 'Session started'],
  ['words after a trace label', 'Trace: enabled', 'Trace: disabled'],
];

describe('noise filters', () => {
  it('documents every filter, with a default and a stage', () => {
    expect(NOISE_FILTERS.map((f) => f.id)).toEqual([
      'ads',
      'consent_banners',
      'hidden_elements',
      'page_chrome',
      'timestamps',
      'relative_times',
      'dates',
      'counters',
      'render_times',
      'session_tokens',
      'random_ids',
      'copyright_years',
    ]);
    for (const filter of NOISE_FILTERS) {
      expect(filter.description.length).toBeGreaterThan(20);
      expect(filter.stage === 'html' ? filter.selectors?.length : filter.mask).toBeTruthy();
    }
    const off = NOISE_FILTERS.filter((f) => !f.enabled_by_default).map((f) => f.id);
    expect(off).toEqual(['page_chrome', 'dates']);
  });

  it.each(NOISE)('%s makes %j and %j compare equal', (id, before, after) => {
    const mask = only(id);
    expect(mask(before)).toBe(mask(after));
    expect(none(before)).not.toBe(none(after));
    if (id !== 'dates') expect(defaults(before)).toBe(defaults(after));
  });

  it.each(CONTENT)('never hides %s with the default filters', (_what, before, after) => {
    expect(defaults(before)).not.toBe(defaults(after));
  });

  it('keeps the words of a line that are not noise', () => {
    expect(defaults('Posted 3 minutes ago · 1,204 views · 8 comments')).toBe(
      'Posted ⟦age⟧ · ⟦count⟧ views · ⟦count⟧ comments',
    );
    expect(defaults('Last updated: May 1, 2024 at 10:32 AM UTC')).toBe('Last updated: ⟦timestamp⟧');
    expect(defaults('© 2024 Example Bank plc')).toBe('© ⟦year⟧ Example Bank plc');
  });

  it('turns a filter off', () => {
    const enabled = { ...defaultNoiseFilters(), counters: false };
    const mask = createLineMasker(enabled);
    expect(mask('1,234 views')).not.toBe(mask('1,240 views'));
    expect(mask('Posted 3 minutes ago')).toBe(mask('Posted 1 hour ago'));
  });
});
