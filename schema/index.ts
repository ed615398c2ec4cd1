import type { GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import './types/api-key.js';
import './types/batch.js';
import './types/crawl.js';
import './types/events.js';
import './types/map.js';
import './types/scrape.js';

let schema: GraphQLSchema | null = null;

/** The GraphQL schema: every file under types/ adds its part to the one builder. */
export function buildSchema(): GraphQLSchema {
  return (schema ??= builder.toSchema({ sortSchema: true }));
}
