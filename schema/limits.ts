import type { Plugin } from 'graphql-yoga';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import type { GraphQLError, ValidationContext } from 'graphql';
import { useCostLimit } from './cost.js';
import { useDocumentSize } from './document-size.js';
import { refusal, type GraphQLErrorShaping } from './errors.js';
import { useIntrospectionGate } from './introspection-gate.js';

/**
 * What one GraphQL request may ask for. Each is checked before any resolver runs (tokens and
 * nesting before parsing completes) and a request over one is refused with 400
 * `validation_error` naming it. README "GraphQL" documents them.
 */
export const GRAPHQL_LIMITS = {
  /** Tokens in the document (a 1,000-item inline batch fits; larger inputs go in variables). */
  maxTokens: 10_000,
  /** Nesting of brackets in the document and of arrays and objects in its variables. */
  maxNesting: 64,
  /** Depth of selections (introspection's own nesting not counted). */
  maxDepth: 10,
  maxAliases: 30,
  maxDirectives: 50,
  /** Estimated cost: every field counts 1, once per item of the lists around it (see cost.ts). */
  maxCost: 10_000,
} as const;

export type GraphQLLimits = { [K in keyof typeof GRAPHQL_LIMITS]: number };

/**
 * The plugins that bound a request's work, in the order they apply: document size (while
 * parsing), depth, aliases and directives (validation), then, before execution, introspection
 * only with a credential and the cost budget (which depends on variables).
 */
export function useGraphQLLimits(shaping: GraphQLErrorShaping, limits: GraphQLLimits = GRAPHQL_LIMITS): Plugin[] {
  // armor throws its rejection out of validation; reported instead, it becomes a 400 like the others.
  const armor = { exposeLimits: true, propagateOnRejection: false, onReject: [reportRefusal] };
  return [
    useDocumentSize({ maxTokens: limits.maxTokens, maxNesting: limits.maxNesting }, shaping),
    maxDepthPlugin({ ...armor, n: limits.maxDepth, ignoreIntrospection: true }),
    maxAliasesPlugin({ ...armor, n: limits.maxAliases }),
    maxDirectivesPlugin({ ...armor, n: limits.maxDirectives }),
    useIntrospectionGate(shaping) as Plugin,
    useCostLimit(limits.maxCost, shaping),
  ];
}

function reportRefusal(context: ValidationContext | null, error: GraphQLError): void {
  const message = `query: ${error.message.replace(/^Syntax Error: /, '').replace(/^\w/, (c) => c.toLowerCase())}`;
  context?.reportError(refusal(message));
}
