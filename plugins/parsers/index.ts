// The parsers this build ships, one line each: a folder here declares one (`defineParser`), and
// this line lists it. Ids compatible with the public service where one exists (`@olostep/...`),
// plus our own. Read through `listParsers` (src/parsers/parser.ts): by the composition root and
// the conversion threads.
export { contactsParser } from './contacts/contacts.parser.js';
export { extractCalendarsParser } from './extract-calendars/extract-calendars.parser.js';
export { extractEmailsParser } from './extract-emails/extract-emails.parser.js';
export { extractImagesParser } from './extract-images/extract-images.parser.js';
export { extractSocialsParser } from './extract-socials/extract-socials.parser.js';
export { structuredDataParser } from './structured-data/structured-data.parser.js';
export { tablesParser } from './tables/tables.parser.js';
