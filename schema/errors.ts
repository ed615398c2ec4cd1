import type { Plugin } from 'graphql-yoga';
import { GraphQLError, type GraphQLErrorExtensions } from 'graphql';
import { AppError, toErrorEnvelope } from '../src/errors.js';
import type { Logger } from '../src/logger.js';

/**
 * How GraphQL errors leave the service: each carries the REST error envelope in
 * `extensions.envelope` (and its code in `extensions.code`).
 */
export interface GraphQLErrorShaping {
  /** Yoga's `maskError`: expected errors keep their envelope, unexpected ones are logged and masked. */
  maskError(error: unknown): GraphQLError;
  /**
   * The GraphQL error of `appError`. With `status`, the HTTP answer takes that status whatever
   * the Accept header (a refusal of the whole request, not a field's error).
   */
  toGraphQLError(appError: AppError, options?: { status?: number; from?: GraphQLError }): GraphQLError;
}

export function createErrorShaping(deps: { docsUrl: () => string; logger: Logger }): GraphQLErrorShaping {
  const toGraphQLError: GraphQLErrorShaping['toGraphQLError'] = (appError, options = {}) => {
    const { envelope } = toErrorEnvelope(appError, { docsUrl: deps.docsUrl() });
    const { from, status } = options;
    const { [REFUSAL]: _, ...extensions } = from?.extensions ?? {};
    const http = status ? { http: { status, spec: false } } : {};
    return new GraphQLError(envelope.detail ?? envelope.title, {
      nodes: from?.nodes,
      source: from?.source,
      positions: from?.positions,
      path: from?.path,
      extensions: { ...extensions, ...http, code: envelope.code, envelope },
    });
  };
  return {
    toGraphQLError,
    maskError(error) {
      if (error instanceof GraphQLError && error.extensions.envelope) return error; // shaped already
      const original = error instanceof GraphQLError ? error.originalError : error;
      // Parse errors and refusals of the document are validation errors of the request.
      if (error instanceof GraphQLError && !original) {
        return toGraphQLError(documentError(error), { from: error, status: refusalStatus(error) });
      }
      const { envelope, expected } = toErrorEnvelope(original, { docsUrl: deps.docsUrl() });
      if (!expected) deps.logger.error({ err: original, error_id: envelope.id }, 'unexpected GraphQL error');
      const gqlError = error instanceof GraphQLError ? error : new GraphQLError(String(error));
      return new GraphQLError(envelope.detail ?? envelope.title, {
        nodes: gqlError.nodes,
        path: gqlError.path,
        extensions: { ...httpOf(gqlError), code: envelope.code, envelope },
      });
    },
  };
}

/** Marks the errors `refusal()` makes until they get their envelope (Yoga rewrites parse errors' `http`). */
const REFUSAL = 'gleanerRefusal';

/** A refusal of the whole request raised before the envelope exists (parse, validation): 400 whatever the Accept header. */
export function refusal(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { [REFUSAL]: 400 } });
}

/**
 * Validation errors are results, not throws, so Yoga never masks them: this gives each one its
 * envelope (`validation_error`). Plain validation errors keep GraphQL-over-HTTP's status rules;
 * refusals made with `refusal()` answer 400.
 */
export function useEnvelopedValidationErrors(shaping: GraphQLErrorShaping): Plugin {
  return {
    onValidate:
      () =>
      ({ result, setResult }) => {
        if (result.length === 0 || result.every((e) => e.extensions.envelope)) return;
        setResult(
          result.map((e) =>
            e.extensions.envelope ? e : shaping.toGraphQLError(documentError(e), { from: e, status: refusalStatus(e) }),
          ),
        );
      },
  };
}

function documentError(error: GraphQLError): AppError {
  return new AppError('validation', 'validation_error', error.message);
}

function httpOf(error: GraphQLError): Pick<GraphQLErrorExtensions, 'http'> {
  return error.extensions.http ? { http: error.extensions.http } : {};
}

function refusalStatus(error: GraphQLError): number | undefined {
  const status = error.extensions[REFUSAL];
  return typeof status === 'number' ? status : undefined;
}
