import { z } from 'zod';
import { defineRoute } from '../../module/route.js';
import type { ParserRegistry } from '../../parsers/parser.js';

/** One parser as GET /v1/parsers lists it. */
export interface ParserView {
  id: string;
  description: string;
  /** JSON Schema (draft 2020-12) of the parser's output, the value json_content holds. */
  outputSchema: Record<string, unknown>;
}

/** The parsers of this deployment, in registration order. */
export function parserViews(parsers: ParserRegistry): ParserView[] {
  return parsers.list().map((p) => ({ id: p.id, description: p.description, outputSchema: { ...p.outputSchema } }));
}

const ParserObject = z
  .object({
    id: z.string().describe('Use as `parser: {"id": ...}` with `formats: ["json"]`.'),
    object: z.literal('parser'),
    description: z.string(),
    output_schema: z.record(z.string(), z.unknown()).describe('JSON Schema of the output (json_content parsed).'),
  })
  .meta({ id: 'Parser' });

const ParserList = z
  .object({ object: z.literal('list'), data: z.array(ParserObject), count: z.number().int() })
  .meta({ id: 'ParserList' });

export function presentParsers(views: ParserView[]): z.output<typeof ParserList> {
  const data = views.map((v) => ({
    id: v.id,
    object: 'parser' as const,
    description: v.description,
    output_schema: v.outputSchema,
  }));
  return { object: 'list', data, count: data.length };
}

export function parserRoutes({ parsers }: { parsers: ParserRegistry }) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/parsers',
      operationId: 'listParsers',
      summary: 'List parsers',
      description:
        'The parsers a scrape, batch or crawl can run with `parser: {"id": ...}`: each with the JSON Schema of what it writes to json_content.',
      tags: ['Scrapes'],
      responses: { 200: { description: 'The parsers.', schema: ParserList } },
      handler: () => presentParsers(parserViews(parsers)),
    }),
  ];
}
