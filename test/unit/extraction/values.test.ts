import { describe, expect, it } from 'vitest';
import { coerceScalar, matchEnum, toBoolean } from '../../../src/extraction/coerce.js';
import { durationMinutes, formatDate, isoDuration, parseDate } from '../../../src/extraction/dates.js';
import { currencyFromText, parseNumber } from '../../../src/extraction/index.js';
import { cleanText, textOf } from '../../../src/extraction/text-values.js';

describe('numbers as pages print them', () => {
  it.each([
    ['$1,299.00', undefined, 1299],
    ['1.299,00 €', undefined, 1299],
    ['1 299,50 zł', undefined, 1299.5],
    ["CHF 1'299.50", undefined, 1299.5],
    ['1,234,567', undefined, 1234567],
    ['1.234.567', undefined, 1234567],
    ['1,5 kg', undefined, 1.5],
    ['1.299', 'en', 1.299],
    ['1.299', 'de-DE', 1299],
    ['1,299', 'en-US', 1299],
    ['1,299', 'fr', 1.299],
    ['4.5 out of 5', undefined, 4.5],
    ['from 19 €/month', undefined, 19],
    ['$170k – $210k', undefined, 170000],
    ['€1.2M', undefined, 1200000],
    ['12 Mio', undefined, 12],
    ['5 km', undefined, 5],
    ['Free', undefined, 0],
    ['−3 °C', undefined, -3],
    ['Contact us', undefined, null],
    ['1,2,3', undefined, null],
  ] as const)('%s (%s) → %s', (text, language, expected) => {
    expect(parseNumber(text, language)).toBe(expected);
  });

  it('names a currency only when the text says which', () => {
    expect(currencyFromText('1.299,00 €')).toBe('EUR');
    expect(currencyFromText('£10.99')).toBe('GBP');
    expect(currencyFromText('US$ 5')).toBe('USD');
    expect(currencyFromText('CA$ 5')).toBe('CAD');
    expect(currencyFromText('$5')).toBe('$');
    expect(currencyFromText('¥500')).toBe('¥');
    expect(currencyFromText('Euro')).toBe('EUR');
    expect(currencyFromText('SKU 123')).toBeNull();
    expect(currencyFromText('12 items')).toBeNull();
  });
});

describe('dates as pages write them', () => {
  it.each([
    ['2025-06-14T19:30:00-06:00', undefined, { date: '2025-06-14', time: '19:30:00', offset: '-06:00' }],
    ['2025-06-14 19:30', undefined, { date: '2025-06-14', time: '19:30:00' }],
    ['Saturday, June 14, 2025 at 7:30 PM', undefined, { date: '2025-06-14', time: '19:30:00' }],
    ['Sat, 14 Jun 2025 19:30:00 GMT', undefined, { date: '2025-06-14', time: '19:30:00', offset: 'Z' }],
    ['14.06.2025, 19:30 Uhr', 'de', { date: '2025-06-14', time: '19:30:00' }],
    ['14. Juni 2025', 'de', { date: '2025-06-14' }],
    ['14 de junio de 2025', 'es', { date: '2025-06-14' }],
    ['14 Sept. 2023', 'en-GB', { date: '2023-09-14' }],
    ['6/14/2025', 'en-US', { date: '2025-06-14' }],
    ['03/04/2025', 'en-US', { date: '2025-03-04' }],
    ['03/04/2025', 'en-GB', { date: '2025-04-03' }],
    ['2025-02-30', undefined, null],
    ['Spring 2025', undefined, null],
    ['June 2025', undefined, null],
  ] as const)('%s (%s)', (text, language, expected) => {
    expect(parseDate(text, language)).toEqual(expected);
  });

  it('formats the parts for date, date-time and time without filling in what was not written', () => {
    const parts = { date: '2025-06-14', time: '19:30:00', offset: '+02:00' };
    expect(formatDate(parts, 'date')).toBe('2025-06-14');
    expect(formatDate(parts, 'date-time')).toBe('2025-06-14T19:30:00+02:00');
    expect(formatDate(parts, 'time')).toBe('19:30:00+02:00');
    expect(formatDate({ date: '2025-06-14' }, 'date-time')).toBe('2025-06-14');
    expect(formatDate({ date: '2025-06-14' }, 'time')).toBeNull();
  });

  it('reads durations, ISO and written', () => {
    expect(durationMinutes('PT1H30M')).toBe(90);
    expect(durationMinutes('P1DT2H')).toBe(1560);
    expect(durationMinutes('2h 46min')).toBe(166);
    expect(durationMinutes('45 mins')).toBe(45);
    expect(durationMinutes('1 Std. 15 Minuten')).toBe(75);
    expect(durationMinutes('soon')).toBeNull();
    expect(isoDuration(90)).toBe('PT1H30M');
    expect(isoDuration(120)).toBe('PT2H');
    expect(isoDuration(0)).toBe('PT0M');
  });
});

describe('coercion to the schema type', () => {
  const base = { term: 'value' };

  it('reads numbers out of strings, nodes and lists; integers only when whole', () => {
    expect(coerceScalar('1.299,00 €', { type: 'number' }, { ...base, language: 'de' })).toBe(1299);
    expect(coerceScalar({ '@type': 'Offer', price: '19.99' }, { type: 'number' }, base)).toBe(19.99);
    expect(coerceScalar({ '@type': 'AggregateRating', ratingValue: '4.6' }, { type: 'number' }, base)).toBe(4.6);
    expect(coerceScalar(['12', '15'], { type: 'integer' }, base)).toBe(12);
    expect(coerceScalar('3.5 baths', { type: 'integer' }, base)).toBeNull();
    expect(coerceScalar('1,284 reviews', { type: 'integer' }, base)).toBe(1284);
    expect(coerceScalar('PT15M', { type: 'integer' }, { term: 'prep time minute' })).toBe(15);
    expect(coerceScalar('PT15M', { type: 'integer' }, { term: 'prep time' })).toBeNull();
    expect(coerceScalar('2 hours', { type: 'number' }, { term: 'duration', description: 'length in minutes' })).toBe(
      120,
    );
    expect(coerceScalar(true, { type: 'number' }, base)).toBeNull();
    expect(coerceScalar('7', { type: 'integer', enum: [1, 2, 3] }, base)).toBeNull();
  });

  it('reads booleans from words, schema.org values and marks; anything else is null', () => {
    for (const yes of [
      'Yes',
      'In stock',
      'https://schema.org/InStock',
      '✓',
      'Auf Lager',
      'TELECOMMUTE',
      'Yes, shareable',
      true,
      1,
    ]) {
      expect(toBoolean(yes)).toBe(true);
    }
    for (const no of [
      'No',
      'Sold out',
      'http://schema.org/OutOfStock',
      '✗',
      'nein',
      'No – sold separately',
      false,
      0,
    ]) {
      expect(toBoolean(no)).toBe(false);
    }
    for (const unknown of ['Maybe', 'PreOrder?', '—', 'x', 2, null, { a: 1 }]) expect(toBoolean(unknown)).toBeNull();
  });

  it('matches enums case- and separator-insensitively, by schema.org URL, or a single contained option', () => {
    expect(matchEnum('Full-time', ['full_time', 'part_time'])).toBe('full_time');
    expect(matchEnum('https://schema.org/EventScheduled', ['scheduled', 'cancelled'])).toBe('scheduled');
    expect(matchEnum('FULL_TIME, PERMANENT', ['full_time', 'contract'])).toBe('full_time');
    expect(matchEnum('full time or part time', ['full_time', 'part_time'])).toBeNull();
    expect(matchEnum('Freelance', ['full_time', 'part_time'])).toBeNull();
  });

  it('formats strings: dates, durations, URLs resolved against the page, emails, currencies, schema.org names', () => {
    const page = { ...base, baseUrl: new URL('https://shop.example/a/b') };
    expect(coerceScalar('June 14, 2025', { type: 'string', format: 'date' }, base)).toBe('2025-06-14');
    expect(coerceScalar('soon', { type: 'string', format: 'date' }, base)).toBeNull();
    expect(coerceScalar('1 hr 30 mins', { type: 'string', format: 'duration' }, base)).toBe('PT1H30M');
    expect(coerceScalar('/img/a.jpg', { type: 'string', format: 'uri' }, page)).toBe('https://shop.example/img/a.jpg');
    expect(coerceScalar('not a url', { type: 'string', format: 'uri' }, page)).toBeNull();
    expect(
      coerceScalar(
        { '@type': 'ImageObject', url: 'x.jpg', caption: 'c' },
        { type: 'string' },
        { term: 'image', baseUrl: page.baseUrl },
      ),
    ).toBe('https://shop.example/a/x.jpg');
    expect(coerceScalar('mailto:Jane@Example.com', { type: 'string', format: 'email' }, base)).toBe('jane@example.com');
    expect(coerceScalar('jane [at] example [dot] com', { type: 'string' }, { term: 'email' })).toBe('jane@example.com');
    expect(coerceScalar('1.299,00 €', { type: 'string' }, { term: 'currency' })).toBe('EUR');
    expect(coerceScalar('USD', { type: 'string' }, { term: 'price currency' })).toBe('USD');
    expect(coerceScalar('https://schema.org/Monday', { type: 'string' }, { term: 'day' })).toBe('Monday');
    expect(coerceScalar(42, { type: 'string' }, base)).toBe('42');
  });

  it('reads nodes and lists as text', () => {
    expect(
      textOf({
        '@type': 'PostalAddress',
        streetAddress: 'Damrak 243',
        postalCode: '1012 ZJ',
        addressLocality: 'Amsterdam',
        addressCountry: 'NL',
      }),
    ).toBe('Damrak 243, 1012 ZJ Amsterdam, NL');
    expect(textOf([{ name: 'Ann' }, { name: 'Bo' }, { name: 'Ann' }])).toBe('Ann, Bo');
    expect(textOf({ '@type': 'QuantitativeValue', value: 1400, unitText: 'sqft' })).toBe('1400 sqft');
    expect(textOf({ '@id': '#x' })).toBeNull();
    expect(cleanText('Vibram&reg; sole &amp; GORE-TEX&lt;sup&gt;®&lt;/sup&gt;<br>lining&#x2122; &unknown;')).toBe(
      'Vibram® sole & GORE-TEX® lining™ &unknown;',
    );
  });
});
