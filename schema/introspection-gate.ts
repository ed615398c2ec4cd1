import type { Plugin } from 'graphql-yoga';
import { BREAK, visit, type DocumentNode, type ExecutionResult } from 'graphql';
import { AppError } from '../src/errors.js';
import type { GraphQLContext } from './context.js';
import type { GraphQLErrorShaping } from './errors.js';

/**
 * Introspection (`__schema`, `__type`) answers only callers with a valid credential, as every
 * other query does: without one the request is refused with 401 before anything executes.
 * GraphiQL introspects with the headers of its header editor, so it works once a key is there.
 * `__typename` stays open: it reveals nothing a query did not name.
 */
export function useIntrospectionGate(shaping: GraphQLErrorShaping): Plugin<GraphQLContext> {
  const check = (document: DocumentNode, context: GraphQLContext, stop: (result: ExecutionResult) => void) => {
    if (!introspects(document)) return;
    try {
      context.actor();
    } catch (err) {
      const appError = err instanceof AppError ? err : new AppError('unauthorized', 'invalid_api_key', String(err));
      stop({ errors: [shaping.toGraphQLError(appError, { status: appError.status })] });
    }
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) =>
      check(args.document, args.contextValue, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) =>
      check(args.document, args.contextValue, setResultAndStopExecution),
  };
}

function introspects(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}
