import {
  addressLine,
  blockText,
  isAddressNode,
  labelPairs,
  type LinkedNode,
  normalisePhone,
  phoneFromTelLink,
  phonesInText,
  readJsonLd,
  readMicrodata,
  textOf,
} from '../../../src/extraction/index.js';
import { collapseWhitespace } from '../../../src/pipeline/dom.js';
import { requireReadable } from '../../../src/parsers/page-input.js';
import { defineParser } from '../../../src/parsers/parser.js';
import { emailsOf } from '../extract-emails/extract-emails.parser.js';
import { forEachNode, valuesNamed } from '../support/linked-values.js';

interface Address {
  text: string;
  street_address: string | null;
  locality: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
}

const ADDRESS_LABEL =
  /^(?:address|adresse|anschrift|direcci[oó]n|indirizzo|adres|postal address|mailing address|office|headquarters|hq|sitz)$/i;
const nullableString = { type: ['string', 'null'] };

/**
 * `contacts`: how to reach whoever the page is about. `emails` as `@olostep/extract-emails` finds
 * them; `phones` from `tel:` links, structured data `telephone`, international `+` numbers in the
 * text and national numbers after a phone label (`number` as written, `normalized` digits with a
 * leading `+` when international); `addresses` from JSON-LD/microdata PostalAddress items (with
 * their parts), `<address>` elements and "Address:" lines. Reads HTML and text pages.
 *
 * @example
 * // { "emails": ["info@example.com"], "phones": [{ "number": "+49 30 1234567", "normalized": "+49301234567" }],
 * //   "addresses": [{ "text": "Hauptstr. 1, 10115 Berlin, DE", "street_address": "Hauptstr. 1", ... }] }
 */
export const contactsParser = defineParser({
  id: 'contacts',
  description: 'Email addresses, phone numbers and postal addresses on the page (links, structured data, text).',
  outputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      emails: { type: 'array', items: { type: 'string', format: 'email' } },
      phones: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            number: { type: 'string', description: 'As the page writes it.' },
            normalized: { type: 'string', description: 'Digits only, with a leading + for international numbers.' },
          },
          required: ['number', 'normalized'],
        },
      },
      addresses: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            text: { type: 'string', description: 'The address on one line.' },
            street_address: nullableString,
            locality: nullableString,
            region: nullableString,
            postal_code: nullableString,
            country: nullableString,
          },
          required: ['text', 'street_address', 'locality', 'region', 'postal_code', 'country'],
        },
      },
    },
    required: ['emails', 'phones', 'addresses'],
    additionalProperties: false,
  },
  parse(input) {
    const readable = requireReadable(input, 'contacts');
    const emails = emailsOf(readable);
    if (readable.kind === 'text') {
      return { emails, phones: phoneList(phonesInText(readable.text)), addresses: labelledAddresses(readable.text) };
    }
    const { document, baseUrl } = readable.page;
    const linked = [...readJsonLd(document).items, ...readMicrodata(document, baseUrl)];
    const phones: string[] = [];
    for (const link of document.querySelectorAll('a[href]')) {
      const href = link.getAttribute('href')?.trim() ?? '';
      const phone = /^tel:/i.test(href) ? phoneFromTelLink(href, collapseWhitespace(link.textContent ?? '')) : null;
      if (phone) phones.push(phone);
    }
    phones.push(...valuesNamed(linked, 'telephone'), ...phonesInText(readable.text));
    const addresses = [...linkedAddresses(linked), ...elementAddresses(document), ...labelledAddresses(readable.text)];
    return { emails, phones: phoneList(phones), addresses: distinct(addresses) };
  },
});

function phoneList(raw: string[]): Array<{ number: string; normalized: string }> {
  const out: Array<{ number: string; normalized: string }> = [];
  for (const number of raw) {
    const normalized = normalisePhone(number);
    if (normalized && !out.some((kept) => samePhone(kept.normalized, normalized)))
      out.push({ number: number.trim(), normalized });
  }
  return out;
}

/**
 * `+1 512 555 0187` and `(512) 555-0187`, `+49 30 1234567` and `030 1234567` are one number:
 * without the trunk `0`, the national number is the international one without its country code.
 */
function samePhone(a: string, b: string): boolean {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  const national = short.replace(/^\+/, '').replace(/^0/, '');
  const digits = long.replace(/^\+/, '');
  if (digits === short.replace(/^\+/, '')) return true;
  return (
    !short.startsWith('+') && long.startsWith('+') && digits.endsWith(national) && digits.length - national.length <= 3
  );
}

/** PostalAddress nodes (typed or not: any node with address parts) with their parts. */
function linkedAddresses(nodes: LinkedNode[]): Address[] {
  const out: Address[] = [];
  forEachNode(nodes, (node) => {
    if (!isAddressNode(node)) return;
    out.push({
      text: addressLine(node),
      street_address: textOf(node.streetAddress),
      locality: textOf(node.addressLocality),
      region: textOf(node.addressRegion),
      postal_code: textOf(node.postalCode),
      country: textOf(node.addressCountry),
    });
  });
  return out;
}

function plainAddress(text: string): Address {
  return { text, street_address: null, locality: null, region: null, postal_code: null, country: null };
}

function elementAddresses(document: Document): Address[] {
  return Array.from(document.querySelectorAll('address'))
    .map((element) => blockText(element).split('\n').join(', '))
    .filter((text) => text.length > 0 && text.length <= 300)
    .map(plainAddress);
}

function labelledAddresses(text: string): Address[] {
  return labelPairs(text)
    .filter(([label]) => ADDRESS_LABEL.test(label.trim()))
    .map(([, value]) => plainAddress(value));
}

/**
 * One entry per place: an address is a repeat when its words are all in one kept before, or when
 * it holds all the words of one kept before ("Acme GmbH, Hauptstr. 1, 10115 Berlin, Deutschland"
 * repeats "Hauptstr. 1, 10115 Berlin, DE"; two-letter country codes do not count).
 */
function distinct(addresses: Address[]): Address[] {
  const words = (text: string) =>
    new Set(
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word.length > 2 || /\d/.test(word)),
    );
  const within = (a: Set<string>, b: Set<string>) => [...a].every((word) => b.has(word));
  const kept: Array<{ address: Address; words: Set<string> }> = [];
  for (const address of addresses) {
    const mine = words(address.text);
    if (mine.size === 0 || kept.some((other) => within(mine, other.words) || within(other.words, mine))) continue;
    kept.push({ address, words: mine });
  }
  return kept.map(({ address }) => address);
}
