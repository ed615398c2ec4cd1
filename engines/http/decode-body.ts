import iconv from 'iconv-lite';

/** How far into a document `<meta charset>` and the XML declaration are looked for. */
const PRESCAN_BYTES = 4096;

export interface DecodedBody {
  /** MIME type without parameters, lowercase; sniffed when the server sent none. */
  contentType: string;
  /** Decoded text for textual types; absent for binary ones. */
  text?: string;
  /** Canonical name of the charset `text` was decoded from. */
  charset?: string;
}

/**
 * Decodes a response body. Textual types (HTML, XHTML, XML, JSON, text/*, JavaScript) become
 * `text`; anything else stays bytes only. The charset is chosen, first match wins, from: a byte
 * order mark, the Content-Type `charset`, `<meta charset>` / `<meta http-equiv>` (HTML), the
 * XML declaration, then UTF-8.
 *
 * @example
 * decodeBody(bytes, 'text/html; charset=Shift_JIS') // { contentType: 'text/html', text: '日本語…', charset: 'shift_jis' }
 */
export function decodeBody(body: Buffer, contentTypeHeader: string | undefined): DecodedBody {
  const { mime, charset: declared } = parseContentType(contentTypeHeader);
  const contentType = mime || sniffType(body);
  if (!isTextual(contentType)) return { contentType };
  const bom = bomCharset(body);
  const charset =
    bom?.charset ??
    usableCharset(declared) ??
    (isHtml(contentType) ? usableCharset(metaCharset(body), true) : undefined) ??
    usableCharset(xmlDeclCharset(body), true) ??
    'utf-8';
  const bytes = bom ? body.subarray(bom.length) : body;
  const text = charset === 'utf-8' ? bytes.toString('utf8') : iconv.decode(bytes, charset, { stripBOM: true });
  return { contentType, text, charset };
}

export function parseContentType(header: string | undefined): { mime: string; charset?: string } {
  if (!header) return { mime: '' };
  const [type = '', ...params] = header.split(';');
  const mime = type.trim().toLowerCase();
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(param);
    if (match?.[1]) return { mime, charset: match[1] };
  }
  return { mime };
}

export function isTextual(mime: string): boolean {
  return (
    mime.startsWith('text/') ||
    mime === 'application/xhtml+xml' ||
    mime === 'application/json' ||
    mime === 'application/xml' ||
    mime === 'application/javascript' ||
    mime === 'application/ecmascript' ||
    mime.endsWith('+json') ||
    mime.endsWith('+xml')
  );
}

function isHtml(mime: string): boolean {
  return mime === 'text/html' || mime === 'application/xhtml+xml';
}

/** Type of a body served without Content-Type: PDF by its magic, markup or text when it looks like it. */
function sniffType(body: Buffer): string {
  const head = body.subarray(0, 512).toString('latin1');
  if (head.startsWith('%PDF-')) return 'application/pdf';
  const start = head.replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
  if (/^<\?xml/i.test(start)) return /<html/i.test(head) ? 'application/xhtml+xml' : 'application/xml';
  if (start.startsWith('<')) return 'text/html';
  if (/^[{[]/.test(start)) return 'application/json';
  return head.includes('\u0000') ? 'application/octet-stream' : 'text/plain';
}

function bomCharset(body: Buffer): { charset: string; length: number } | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (body[0] === 0xfe && body[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  if (body[0] === 0xff && body[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  return undefined;
}

function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, PRESCAN_BYTES).toString('latin1');
  // Covers <meta charset="x"> and <meta http-equiv="Content-Type" content="text/html; charset=x">.
  return /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
}

function xmlDeclCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 256).toString('latin1');
  return /^\s*<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1];
}

/**
 * The canonical name of a charset label iconv-lite can decode, or undefined. Follows the
 * WHATWG Encoding Standard where it differs from the label's letter: latin1 and ASCII labels
 * decode as windows-1252, and a UTF-16 label found inside an 8-bit document means UTF-8.
 */
function usableCharset(label: string | undefined, inDocument = false): string | undefined {
  if (!label) return undefined;
  const name = label.trim().toLowerCase();
  if (name === 'utf-8' || name === 'utf8' || name === 'unicode-1-1-utf-8') return 'utf-8';
  if (['iso-8859-1', 'latin1', 'l1', 'ascii', 'us-ascii', 'iso8859-1', 'cp1252'].includes(name)) return 'windows-1252';
  if (inDocument && (name.startsWith('utf-16') || name.startsWith('utf16'))) return 'utf-8';
  if (['shift-jis', 'sjis', 'x-sjis', 'ms_kanji', 'csshiftjis', 'windows-31j'].includes(name)) return 'shift_jis';
  return iconv.encodingExists(name) ? name : undefined;
}
