import type { Plugin } from 'graphql-yoga';
import { Lexer, parse, Source, TokenKind } from 'graphql';
import { errors } from '../src/errors.js';
import { refusal, type GraphQLErrorShaping } from './errors.js';

export interface DocumentSizeLimits {
  /** Tokens a document may have: parsing stops at the next one. */
  maxTokens: number;
  /** How deep brackets (`{`, `[`, `(`) may nest in a document, and arrays and objects in its variables. */
  maxNesting: number;
}

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Bounds the work a document costs before anything recursive touches it. graphql-js parses
 * (and validates) by recursion, so a 5,000-deep literal overflows the stack: a flat pass of the
 * lexer counts tokens and nesting first and refuses early, at the first token past a limit.
 * Variables are JSON already parsed; their depth is checked the same way before execution.
 */
export function useDocumentSize(limits: DocumentSizeLimits, shaping: GraphQLErrorShaping): Plugin {
  const parseBounded = (source: string | Source, options?: Parameters<typeof parse>[1]) => {
    assertDocumentSize(source, limits);
    return parse(source, { ...options, maxTokens: limits.maxTokens });
  };
  const checkVariables = (variables: unknown, stop: (result: { errors: [Error] }) => void) => {
    const path = tooDeep(variables, limits.maxNesting);
    if (path !== null) {
      const where = path.length > 0 ? `$${path}` : 'variables';
      const detail = `${where}: arrays and objects nested more than ${limits.maxNesting} deep`;
      stop({ errors: [shaping.toGraphQLError(errors.validation(detail), { status: 400 })] });
    }
  };
  return {
    onParse: ({ setParseFn }) => setParseFn(parseBounded),
    onExecute: ({ args, setResultAndStopExecution }) => checkVariables(args.variableValues, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) =>
      checkVariables(args.variableValues, setResultAndStopExecution),
  };
}

/** Throws a 400 refusal when `source` has more tokens or deeper nesting than allowed. */
export function assertDocumentSize(source: string | Source, limits: DocumentSizeLimits): void {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let tokens = 0;
  let depth = 0;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    if (++tokens > limits.maxTokens) {
      throw refusal(`query: more than ${limits.maxTokens} tokens; send large inputs as variables, or split the query`);
    }
    if (OPENING.has(token.kind) && ++depth > limits.maxNesting) {
      throw refusal(`query: brackets nest more than ${limits.maxNesting} deep`);
    }
    if (CLOSING.has(token.kind)) depth--;
  }
}

/** Whether arrays and objects in `value` nest deeper than `max`; iterative, so any depth is safe to check. */
export function nestingExceeds(value: unknown, max: number): boolean {
  return tooDeep(value, max) !== null;
}

/**
 * Where arrays and objects in `value` first nest deeper than `max`: the path of named fields
 * leading there (`in.linksOnPage.x`; array indexes left out, at most four names, then `…`), or null.
 */
function tooDeep(value: unknown, max: number): string | null {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { value: current, depth, path } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > max) return path;
    for (const [key, child] of Object.entries(current)) {
      if (child === null || typeof child !== 'object') continue;
      const segments = path.split('.').length;
      const named =
        Array.isArray(current) || path.endsWith('…')
          ? path
          : !path
            ? key
            : segments >= 4
              ? `${path}…`
              : `${path}.${key}`;
      stack.push({ value: child, depth: depth + 1, path: named });
    }
  }
  return null;
}
