/**
 * Counters, render timings and copyright years: numbers that move on every fetch or every year
 * without the page changing. Counter patterns are anchored on a counter noun ("views",
 * "Kommentare", "seguidores") and never take a number that follows a currency sign, so prices,
 * stock left ("3 in stock", "Only 2 left") and listing counts ("24 results") are never masked.
 * Each counter pattern names what surrounds the number in groups `before` and `after`.
 */

const EDGE_START = '(?<![\\p{L}\\p{N}])';
const EDGE_END = '(?![\\p{L}\\p{N}])';

/** `12`, `1,234`, `1.234`, `1 234`, `1.2k`, `10K+`, `99+`; never right after a currency sign or digit. */
const NUMBER =
  "(?<![$€£¥₹₩₽¤]\\s?)(?<![\\p{N}.,])(?:\\d{1,3}(?:[,.'\\u00a0\\u202f ]\\d{3})+|\\d+(?:[.,]\\d+)?)(?:\\s?[kmb](?!\\p{L}))?\\+?";

const COUNTER_NOUNS = [
  'views?|viewers|watchers|watching|viewing|reads|comments?|replies|reply|responses|likes?|dislikes|shares|reposts',
  'retweets|followers?|subscribers?|members\\s+online|online|stars?|forks?|votes?|upvotes?|points|reactions|claps',
  'clicks|plays|listens|streams|downloads?|installs|visitors|visits|hits|answers',
  'aufrufe|kommentare?|antworten|abonnenten|besucher|mal\\s+angesehen',
  "vues|commentaires?|réponses|abonnés|j'aime|partages|visiteurs|téléchargements",
  'vistas|visitas|comentarios?|respuestas|seguidores|suscriptores|me\\s+gusta|descargas',
  'visualizzazioni|commenti|risposte|iscritti|mi\\s+piace',
  'weergaven|reacties|volgers|keer\\s+bekeken',
  'visualizações|comentários|inscritos|curtidas',
].join('|');

/**
 * Review and rating nouns count only after their number or in brackets ("1,234 reviews",
 * "Reviews (12)"): after a colon the number is usually the rating itself ("Rating: 4.6").
 */
const REVIEW_NOUNS = 'reviews?|ratings?|bewertungen|avis|reseñas|valoraciones|recensioni|beoordelingen|avaliações';

const CARTS = 'cart|basket|bag|warenkorb|panier|carrito|carrello|winkelwagen|carrinho';

const COUNTER_SOURCES = [
  // "1,234 views", "12 Kommentare", "(1,234 ratings)".
  `${NUMBER}(?<after>\\s*(?:${COUNTER_NOUNS}|${REVIEW_NOUNS})${EDGE_END})`,
  // "Views: 1,234", "Comments (12)", "Star 12.3k".
  `(?<before>${EDGE_START}(?:${COUNTER_NOUNS})\\s*[:(·]?\\s*)${NUMBER}(?<after>\\)?)${EDGE_END}`,
  // "Reviews (12)".
  `(?<before>${EDGE_START}(?:${REVIEW_NOUNS})\\s*\\(\\s*)${NUMBER}(?<after>\\s*\\))`,
  // "5 people are viewing this", "1,234 sold in the last 24 hours".
  `${NUMBER}(?<after>\\s+(?:(?:people|persons|users|customers|shoppers|others|visitors)\\s+(?:are\\s+|have\\s+)?(?:viewing|watching|looking|bought|purchased|added)|sold\\s+in\\s+(?:the\\s+)?(?:last|past))${EDGE_END})`,
  // "Cart (3)", "Warenkorb 2", "3 items in your cart".
  `(?<before>${EDGE_START}(?:${CARTS})\\s*\\(?\\s*)${NUMBER}(?<after>\\s*\\)?)${EDGE_END}`,
  `${NUMBER}(?<after>\\s+items?\\s+in\\s+(?:your\\s+)?(?:${CARTS})${EDGE_END})`,
];

export const COUNTER_PATTERNS: readonly RegExp[] = COUNTER_SOURCES.map((source) => new RegExp(source, 'giu'));

/** Group 1: the label and up to 40 characters after it. "Page generated in 0.12 seconds", "query took 35 ms". */
export const RENDER_TIME =
  `(${EDGE_START}(?:generated|rendered|served|loaded|built|processed|executed|took|(?:response|load|query|render)\\s+time|erstellt|généré|generado)(?:[^.:\\n]{0,40}?\\s)?\\s*(?:in|en|:)?\\s*)` +
  `\\d+(?:[.,]\\d+)?\\s*(?:ms|milliseconds?|µs|s|secs?|seconds?|sekunden|secondes|segundos)${EDGE_END}`;

/** Group 1: the copyright sign or word. "© 2024", "Copyright (c) 2019–2024". */
export const COPYRIGHT_YEAR = `((?:©|\\(c\\)|copyright)\\s*(?:©|\\(c\\))?\\s*)(?:19|20)\\d{2}(?:\\s*[-–—]\\s*(?:19|20)\\d{2})?${EDGE_END}`;
