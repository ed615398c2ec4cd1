import type { Plugin } from 'graphql-yoga';
import { createComplexityRule } from '@pothos/plugin-complexity';
import { validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { errors } from '../src/errors.js';
import type { GraphQLErrorShaping } from './errors.js';

/**
 * The cost of a field whose `limit` argument pages a list: what it selects counts once per item
 * it may return (`limit`, or the default page size when absent). Use as the field's `complexity`.
 *
 * @example
 * batches: t.field({ type: [BatchRef], args: { limit: t.arg.int() }, complexity: pageCost(50), … })
 */
export function pageCost(defaultPageSize: number) {
  return (args: { limit?: number | null }) => ({ field: 1, multiplier: args.limit ?? defaultPageSize });
}

interface CostArgs {
  schema: GraphQLSchema;
  document: DocumentNode;
  variableValues?: Record<string, unknown> | null;
  operationName?: string | null;
  contextValue?: unknown;
}

/**
 * Refuses, before any resolver runs, an operation whose estimated cost is over `maxCost`. Every
 * field counts 1; the fields under a list count once per item: a paged list's `limit` (see
 * `pageCost`), 10 for another list. Variables decide the cost, so this runs at execution, not
 * in the (cached) validation.
 */
export function useCostLimit(maxCost: number, shaping: GraphQLErrorShaping): Plugin {
  const check = (args: CostArgs, stop: (result: ExecutionResult) => void) => {
    const problems = validate(args.schema, args.document, [
      createComplexityRule({
        context: (args.contextValue ?? {}) as object,
        variableValues: args.variableValues ?? {},
        operationName: args.operationName,
        validate: ({ complexity }, report) => {
          if (complexity <= maxCost) return;
          report(
            shaping.toGraphQLError(
              errors.validation(
                `query: its cost is ${complexity}, over the limit of ${maxCost} per request (every field counts 1, ` +
                  'once per item of the lists around it: ask for smaller pages or fewer fields, or split the query)',
              ),
              { status: 400 },
            ),
          );
        },
      }),
    ]);
    if (problems.length === 0) return;
    stop({
      errors: problems.map((p) =>
        p.extensions.envelope ? p : shaping.toGraphQLError(errors.validation(p.message), { status: 400, from: p }),
      ),
    });
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) => check(args, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) => check(args, setResultAndStopExecution),
  };
}
