import type { Parser } from '../../src/parsers/parser.js';
import { contactsParser } from './contacts/contacts.parser.js';
import { extractCalendarsParser } from './extract-calendars/extract-calendars.parser.js';
import { extractEmailsParser } from './extract-emails/extract-emails.parser.js';
import { extractImagesParser } from './extract-images/extract-images.parser.js';
import { extractSocialsParser } from './extract-socials/extract-socials.parser.js';
import { structuredDataParser } from './structured-data/structured-data.parser.js';
import { tablesParser } from './tables/tables.parser.js';

/**
 * Parsers this build ships (`createParserRegistry(builtinParsers)`). Ids compatible with the
 * public service where one exists (`@olostep/...`), plus our own. Adding one = a folder here and
 * one line in this list.
 */
export const builtinParsers: readonly Parser[] = [
  extractEmailsParser,
  extractSocialsParser,
  extractImagesParser,
  extractCalendarsParser,
  structuredDataParser,
  tablesParser,
  contactsParser,
];
