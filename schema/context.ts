/** What every resolver receives (declared where modules can see it: src/module/graphql.ts). */
export type { GraphQLContext } from '../src/module/graphql.js';
