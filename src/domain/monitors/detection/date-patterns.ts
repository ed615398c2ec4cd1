/**
 * Regular expressions for dates, times and relative times in the languages monitors meet most
 * (English, German, French, Spanish, Italian, Dutch, Portuguese). They only decide what the
 * `timestamps`, `dates` and `relative_times` noise filters mask in a line's comparison key;
 * the text a reader sees is never rewritten. All are built with the `u` flag and Unicode-aware
 * word edges, so `März`, `févr.` and `miércoles` are whole words.
 */

const EDGE_START = '(?<![\\p{L}\\p{N}])';
const EDGE_END = '(?![\\p{L}\\p{N}])';

const MONTHS = [
  // Full names first: an alternation tries them in order, and the abbreviations are prefixes.
  'january|february|march|april|may|june|july|august|september|october|november|december',
  'januar|jänner|februar|märz|juni|juli|oktober|dezember',
  'janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre',
  'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre',
  'gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre',
  'januari|februari|maart|mei|augustus',
  'janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|novembro|dezembro',
  // Abbreviations that are also common words ("set", "out", "mag", "gen", "ago") are left out.
  'jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec|mär|okt|dez|janv|févr|avr|juil|déc|ene|dic|giu|lug|ott|mrt|fev',
].join('|');

const WEEKDAYS = [
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun',
  'montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag',
  'lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche',
  'lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo',
  'lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica',
  'maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag',
  'segunda-feira|terça-feira|quarta-feira|quinta-feira|sexta-feira',
].join('|');

const YEAR = '(?:19|20)\\d{2}';
const DAY = '(?:3[01]|[12]\\d|0?[1-9])';
const MONTH_NUMBER = '(?:1[0-2]|0?[1-9])';
const ORDINAL = '(?:st|nd|rd|th|er|e|º|°|\\.)?';
const MONTH = `(?:${MONTHS})\\.?`;
const WEEKDAY_PREFIX = `(?:(?:${WEEKDAYS})\\.?,?\\s+)?`;

const DATE_FORMS = [
  `${YEAR}-(?:1[0-2]|0[1-9])-(?:3[01]|[12]\\d|0[1-9])`,
  `${YEAR}/${MONTH_NUMBER}/${DAY}`,
  `${DAY}[./-]${DAY}[./-]${YEAR}`,
  `${DAY}/${DAY}/\\d{2}`,
  `${MONTH}\\s+${DAY}${ORDINAL}(?:,?\\s+${YEAR})?`,
  `${DAY}${ORDINAL}\\s+(?:de\\s+)?${MONTH}(?:,?\\s+(?:de\\s+)?${YEAR})?`,
  `${MONTH}\\s+${YEAR}`,
];

/** A calendar date in any of the forms above, optionally with its weekday. */
export const DATE = `${WEEKDAY_PREFIX}(?:${DATE_FORMS.map((form) => `${EDGE_START}${form}${EDGE_END}`).join('|')})`;

const ZONE =
  '(?:Z|UTC|GMT|[ECMP][SD]T|CES?T|BST|IST|JST|KST|AES?T|AEDT|EES?T|WES?T|MSK|HKT|SGT|NZ[SD]T|[+-]\\d{2}:?\\d{2})';
const CLOCK = `(?:[01]?\\d|2[0-3])(?::[0-5]\\d(?::[0-5]\\d(?:[.,]\\d{1,9})?)?|h[0-5]\\d)`;
const MERIDIEM = '(?:\\s?[ap]\\.?\\s?m\\.?)';

/** A time of day: `10:32`, `10:32:07.123`, `3:45 PM`, `3pm`, `14h30`, `14:30 Uhr`, with a zone. */
export const TIME =
  `${EDGE_START}(?:${CLOCK}${MERIDIEM}?|(?:1[0-2]|0?[1-9])${MERIDIEM})` +
  `(?:\\s?(?:Uhr|hrs|h))?(?:\\s?\\(?${ZONE}(?:[+-]\\d{1,2}(?::?\\d{2})?)?\\)?)?${EDGE_END}`;

const DATE_TIME_JOIN = '(?:,?\\s*(?:at|um|à|a las|alle|om|às|@|-|–|T)?\\s*)';

/** A date followed by a time (`May 1, 2024 at 10:32`, `2024-05-01T10:32:07Z`). */
export const DATE_TIME = `(?:${DATE})${DATE_TIME_JOIN}(?:${TIME})`;

/**
 * Timestamps that are machine-made whatever the words around them: ISO 8601 date-times
 * (`2024-05-01T10:32`, `2024-05-01 10:32:07`), HTTP and e-mail dates (`Wed, 01 May 2024
 * 10:32:07 GMT`), and any time of day given to the second (`10:32:07`): opening hours and
 * event times are never written to the second, page generation times are.
 */
export const MACHINE_TIMESTAMP = [
  `${EDGE_START}${YEAR}-(?:1[0-2]|0[1-9])-(?:3[01]|[12]\\d|0[1-9])(?:T|\\s)(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:[.,]\\d{1,9})?)?(?:\\s?${ZONE})?${EDGE_END}`,
  `(?:(?:${DATE})${DATE_TIME_JOIN})?${EDGE_START}(?:[01]?\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:[.,]\\d{1,9})?${MERIDIEM}?(?:\\s?\\(?${ZONE}\\)?)?${EDGE_END}`,
].join('|');

/**
 * Words that say "this is when the page was made or checked", not what the page is about:
 * a date or time after one of them is a timestamp.
 */
const FRESHNESS_LABELS = [
  '(?:last\\s+)?(?:updated|modified|checked|refreshed|synced|synchronized|crawled|fetched|retrieved|generated|reviewed|edited)(?:\\s+(?:on|at))?',
  'as\\s+(?:of|at)',
  'today\\s+is',
  'current\\s+(?:date|time)',
  'accessed(?:\\s+on)?',
  '(?:zuletzt\\s+)?(?:aktualisiert|geändert|abgerufen)(?:\\s+(?:am|um))?',
  'stand(?:\\s+vom)?',
  'letzte\\s+(?:aktualisierung|änderung)(?:\\s+am)?',
  'heute\\s+ist',
  '(?:dernière\\s+)?mise?\\s+à\\s+jour(?:\\s+(?:le|à))?',
  '(?:actualisé|modifié)e?(?:\\s+le)?',
  'nous\\s+sommes\\s+le',
  '(?:actualizado|modificado)(?:\\s+el)?',
  'última\\s+actualización',
  'a\\s+fecha\\s+de',
  '(?:aggiornato|modificato)(?:\\s+(?:il|al|alle))?',
  'ultimo\\s+aggiornamento',
  '(?:laatst\\s+)?(?:bijgewerkt|gewijzigd)(?:\\s+op)?',
  '(?:atualizado|modificado)(?:\\s+em)?',
  'última\\s+atualização',
].join('|');

/** Group 1: the label and separator; group 2: the date, time or both that follow it. */
export const LABELLED_TIMESTAMP = `(${EDGE_START}(?:${FRESHNESS_LABELS})${EDGE_END}\\s*[:\\-–]?\\s*)((?:${DATE_TIME})|(?:${DATE})|(?:${TIME}))`;

const COUNT = '(?:\\d+|an?|one|a\\s+few|few|several|couple\\s+of|a\\s+couple\\s+of)';
const EN_UNIT =
  '(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|hr|h|days?|d|weeks?|wks?|w|months?|mos?|mo|years?|yrs?|yr|y)';

const RELATIVE_FORMS = [
  `${COUNT}\\s*${EN_UNIT}\\s+ago`,
  'just\\s+now|a\\s+moment\\s+ago|moments\\s+ago|yesterday|today',
  'vor\\s+(?:\\d+|einer|einem|wenigen|ein\\s+paar)\\s+(?:sekunden?|minuten?|stunden?|tag(?:en)?|wochen?|monat(?:en)?|jahr(?:en)?)',
  'gerade\\s+eben|gestern|heute',
  'il\\s+y\\s+a\\s+(?:\\d+|une?|quelques)\\s+(?:secondes?|minutes?|heures?|jours?|semaines?|mois|ans?)',
  "à\\s+l'instant|hier|aujourd'hui",
  'hace\\s+(?:\\d+|una?|unos|unas)\\s+(?:segundos?|minutos?|horas?|días?|dias?|semanas?|meses|mes|años?)',
  'ayer|hoy',
  'há\\s+(?:\\d+|uma?)\\s+(?:segundos?|minutos?|horas?|dias?|semanas?|meses|mês|anos?)',
  'ontem|hoje',
  '(?:\\d+|un|una|uno)\\s+(?:secondi|secondo|minuti|minuto|ore|ora|giorni|giorno|settimane|settimana|mesi|mese|anni|anno)\\s+fa',
  'ieri|oggi',
  '(?:\\d+|een)\\s+(?:seconden|seconde|minuten|minuut|uur|uren|dagen|dag|weken|week|maanden|maand|jaar)\\s+geleden',
  'gisteren|vandaag',
  // Countdowns: "2d 3h 4m 5s", "3h 12m".
  '(?:\\d+\\s?d\\s+)?\\d+\\s?h\\s+\\d+\\s?m(?:in)?(?:\\s+\\d+\\s?s)?',
];

/** A relative time ("3 minutes ago", "vor 2 Stunden", "il y a 3 jours", "just now", "yesterday"). */
export const RELATIVE_TIME = `${EDGE_START}(?:${RELATIVE_FORMS.join('|')})${EDGE_END}`;

/** A whole line that is only a compact age such as `5m`, `2h` or `3d` (feeds and comment lists). */
export const COMPACT_AGE_LINE = '^\\d{1,3}\\s?[smhdw]$';
