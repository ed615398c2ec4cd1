import { describe, expect, it } from 'vitest';
import { composeWithoutModel, rankedPassages } from '../../../src/domain/answers/answer-compose.js';
import { answerShape } from '../../../src/domain/answers/answer-shape.js';
import { searchQuery, urlsInTask } from '../../../src/domain/answers/answer-sources.js';
import { jsonAsText } from '../../../src/domain/answers/file-context-sources.js';
import { domainFilter } from '../../../src/domain/searches/search.service.js';
import { AppError } from '../../../src/errors.js';

describe('answerShape', () => {
  it('absent, null-ish or {} json_format is {"answer": string}', () => {
    for (const format of [undefined, {}]) {
      const shape = answerShape(format);
      expect(shape.form).toBe('default');
      expect(shape.schema).toMatchObject({ required: ['answer'], properties: { answer: { type: 'string' } } });
    }
  });

  it('a string describes the data: {"answer": any} with that description', () => {
    const shape = answerShape('the opening hours per weekday');
    expect(shape.form).toBe('described');
    expect(shape.schema).toEqual({
      type: 'object',
      properties: { answer: { description: 'the opening hours per weekday' } },
      required: ['answer'],
    });
    expect(shape.queryText).toContain('opening hours');
  });

  it('an example object: every key required, null allowed, nested arrays too', () => {
    const shape = answerShape({ title: '', tags: [''], offer: { price: 0 } });
    expect(shape.schema).toEqual({
      type: 'object',
      properties: {
        title: { type: ['string', 'null'] },
        tags: { type: ['array', 'null'], items: { type: 'string' } },
        offer: {
          type: ['object', 'null'],
          properties: { price: { type: ['number', 'null'] } },
          required: ['price'],
        },
      },
      required: ['title', 'tags', 'offer'],
    });
    expect(shape.queryText).toBe('title tags offer price');
  });

  it('a string holding a JSON object is that object', () => {
    expect(answerShape('{"plan": "", "price": 0}').schema).toEqual(answerShape({ plan: '', price: 0 }).schema);
    expect(answerShape('{not json').form).toBe('described');
  });

  it('a JSON Schema is used as given; an invalid one is a 400 naming json_format', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    expect(answerShape(schema).schema).toBe(schema);
    const bad = (() => {
      try {
        answerShape({ type: 'object', properties: { n: { type: 'nope' } } });
      } catch (err) {
        return err;
      }
    })();
    expect(bad).toBeInstanceOf(AppError);
    expect((bad as AppError).detail).toMatch(/^json_format/);
  });
});

describe('urlsInTask', () => {
  it('finds http(s) URLs without trailing punctuation, once each', () => {
    expect(
      urlsInTask('Compare https://a.example/x?y=1, (https://b.example/) and https://a.example/x?y=1. ftp://c.example'),
    ).toEqual(['https://a.example/x?y=1', 'https://b.example/']);
  });
});

describe('searchQuery', () => {
  it('collapses whitespace and cuts a long task at a word boundary', () => {
    expect(searchQuery('  acme\n pricing  ')).toBe('acme pricing');
    const long = searchQuery('word '.repeat(200));
    expect(long.length).toBeLessThanOrEqual(400);
    expect(long.endsWith('word')).toBe(true);
  });
});

describe('domainFilter', () => {
  it('keeps included domains and their subdomains; exclusion wins', () => {
    const keep = domainFilter(['example.com'], ['ads.example.com']);
    expect(keep('https://example.com/a')).toBe(true);
    expect(keep('https://www.example.com/a')).toBe(true);
    expect(keep('https://ads.example.com/a')).toBe(false);
    expect(keep('https://notexample.com/a')).toBe(false);
    expect(keep('not a url')).toBe(false);
  });
});

describe('passages and the deterministic answer', () => {
  const documents = [
    { source: 'https://a.example/', text: '# Welcome\n\nWe sell anvils.\n\n## Contact\n\nPhone: +32 9 123 45 67' },
    { source: 'https://b.example/', text: '# Hours\n\nOpen Monday to Friday, 9 to 17.' },
  ];

  it('ranks matching passages first, then the rest in document order', () => {
    const ranked = rankedPassages(documents, 'opening hours on Monday', answerShape(undefined));
    expect(ranked[0]!.source).toBe('https://b.example/');
    expect(ranked).toHaveLength(3);
  });

  it('fills keys by rule, and quotes the best passage for the answer forms', () => {
    const keyed = composeWithoutModel(
      'phone number',
      answerShape({ phone: '' }),
      rankedPassages(documents, 'phone number', answerShape({ phone: '' })),
    );
    expect(keyed.value).toEqual({ phone: '+32 9 123 45 67' });
    expect(keyed.sources).toEqual(['https://a.example/']);
    expect(keyed.warnings[0]).toMatch(/without a model/);

    const shape = answerShape('when it is open');
    const quoted = composeWithoutModel(
      'opening hours Monday',
      shape,
      rankedPassages(documents, 'opening hours Monday', shape),
    );
    expect(quoted.value).toEqual({ answer: 'Open Monday to Friday, 9 to 17.' });
    expect(quoted.sources).toEqual(['https://b.example/']);
  });

  it('with nothing to read, every key is null', () => {
    expect(composeWithoutModel('x', answerShape({ a: '', b: 0 }), []).value).toEqual({ a: null, b: null });
  });
});

describe('jsonAsText', () => {
  it('writes a context file’s JSON as label: value lines under headings', () => {
    const text = jsonAsText(
      JSON.stringify({
        name: 'Acme',
        openingHours: 'Mon-Fri',
        tags: ['a', 'b'],
        address: { city: 'Ghent' },
        plans: [{ plan: 'Starter', price: 9 }],
      }),
    );
    expect(text).toBe(
      'name: Acme\nopening Hours: Mon-Fri\ntags: a, b\n\n## address\n\ncity: Ghent\n\n## plans\n\nplan: Starter\nprice: 9',
    );
    expect(jsonAsText('not json')).toBe('not json');
  });
});
