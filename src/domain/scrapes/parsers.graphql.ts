import type { GraphQLKit } from '../../module/graphql.js';
import type { ParserRegistry } from '../../parsers/parser.js';
import { parserViews, type ParserView } from './parsers.routes.js';

/** The `parsers` query: what GET /v1/parsers lists. */
export function parsersGraphQL(kit: GraphQLKit, parsers: ParserRegistry): void {
  const { builder } = kit;
  const ParserRef = builder.objectRef<ParserView>('Parser').implement({
    description: 'A parser plugin: `parser: {id}` on a scrape, batch or crawl writes its output to jsonContent.',
    fields: (t) => ({
      id: t.exposeID('id'),
      description: t.exposeString('description'),
      outputSchema: t.field({
        type: 'JSON',
        description: 'JSON Schema of the output.',
        resolve: (p) => p.outputSchema,
      }),
    }),
  });
  builder.queryField('parsers', (t) =>
    t.field({
      type: [ParserRef],
      description: 'The parsers of this deployment (the same as GET /v1/parsers).',
      resolve: (_, _args, ctx) => {
        ctx.actor(); // authenticated, like every query
        return parserViews(parsers);
      },
    }),
  );
}
