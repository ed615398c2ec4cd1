import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBody, parseContentType } from '../../../engines/http/decode-body.js';

const sjis = (text: string) => iconv.encode(text, 'shift_jis');
const cp1251 = (text: string) => iconv.encode(text, 'windows-1251');

describe('decodeBody charset order', () => {
  it('a BOM beats the Content-Type header', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>Köln</p>')]);
    expect(decodeBody(body, 'text/html; charset=windows-1252')).toEqual({
      contentType: 'text/html',
      text: '<p>Köln</p>',
      charset: 'utf-8',
    });
  });

  it('decodes UTF-16 with a BOM', () => {
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>hé</p>', 'utf16le')]);
    expect(decodeBody(body, 'text/html').text).toBe('<p>hé</p>');
  });

  it('the header beats <meta charset>', () => {
    const body = sjis('<meta charset="windows-1251"><p>日本</p>');
    expect(decodeBody(body, 'text/html; charset="Shift_JIS"')).toMatchObject({
      text: '<meta charset="windows-1251"><p>日本</p>',
      charset: 'shift_jis',
    });
  });

  it('reads <meta http-equiv> when the header has no charset', () => {
    const body = cp1251(
      '<html><head><meta http-equiv="content-type" content="text/html; charset=windows-1251"></head><p>Привет</p>',
    );
    expect(decodeBody(body, 'text/html')).toMatchObject({ charset: 'windows-1251' });
    expect(decodeBody(body, 'text/html').text).toContain('Привет');
  });

  it('reads the XML declaration of XML documents', () => {
    const body = cp1251('<?xml version="1.0" encoding="windows-1251"?><a>Мир</a>');
    expect(decodeBody(body, 'text/xml')).toMatchObject({
      contentType: 'text/xml',
      text: '<?xml version="1.0" encoding="windows-1251"?><a>Мир</a>',
    });
  });

  it('falls back to UTF-8, and ignores unknown or UTF-16 labels inside 8-bit documents', () => {
    expect(decodeBody(Buffer.from('<p>São</p>'), 'text/html')).toMatchObject({ text: '<p>São</p>', charset: 'utf-8' });
    expect(decodeBody(Buffer.from('<p>São</p>'), 'text/html; charset=x-unknown')).toMatchObject({ charset: 'utf-8' });
    expect(decodeBody(Buffer.from('<meta charset="utf-16"><p>São</p>'), 'text/html')).toMatchObject({
      text: '<meta charset="utf-16"><p>São</p>',
    });
  });

  it('decodes latin1 labels as windows-1252, like browsers', () => {
    expect(decodeBody(Buffer.from([0x93, 0x61, 0x94]), 'text/plain; charset=iso-8859-1').text).toBe('“a”');
  });
});

describe('decodeBody content types', () => {
  it.each([
    ['application/json', true],
    ['application/ld+json', true],
    ['application/rss+xml', true],
    ['text/csv', true],
    ['application/pdf', false],
    ['image/png', false],
    ['application/octet-stream', false],
  ])('%s textual: %s', (type, textual) => {
    expect(decodeBody(Buffer.from('x'), type).text !== undefined).toBe(textual);
  });

  it('sniffs a missing Content-Type', () => {
    expect(decodeBody(Buffer.from('%PDF-1.4\n...'), undefined)).toEqual({ contentType: 'application/pdf' });
    expect(decodeBody(Buffer.from('  <!doctype html><p>x'), undefined).contentType).toBe('text/html');
    expect(decodeBody(Buffer.from('{"a":1}'), undefined).contentType).toBe('application/json');
    expect(decodeBody(Buffer.from([0, 1, 2, 3]), undefined).contentType).toBe('application/octet-stream');
  });

  it('parses Content-Type parameters', () => {
    expect(parseContentType('Text/HTML; Charset="UTF-8"; foo=bar')).toEqual({ mime: 'text/html', charset: 'UTF-8' });
    expect(parseContentType('text/html;foo=bar')).toEqual({ mime: 'text/html' });
  });
});
