import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { parseTargetUrl } from '../../engine/target-url.js';
import { AppError, errors } from '../../errors.js';
import type { AnyRoute } from '../../module/route.js';
import { parseInput } from '../../validation.js';
import type { ScheduleMethod } from './schedule.entity.js';

/** The service's own endpoints a schedule may name by their short form (spec, POST /v1/schedules). */
export const SHORT_ENDPOINTS = ['v1/scrapes', 'v1/batches', 'v1/crawls', 'v1/maps', 'v1/answers'] as const;

const SHORT_FORM = /^\/?(v1\/[a-z0-9_-]+)\/?$/i;

/** Where a schedule's call goes: one of this service's routes (in-process), or a URL (over HTTP). */
export type ScheduleTarget = { kind: 'route'; route: AnyRoute; endpoint: string } | { kind: 'url'; url: URL };

/**
 * Reads a schedule's `endpoint`: a short form (`v1/scrapes`) names one of this service's routes,
 * found in the route table every module contributes (so an endpoint whose module is not
 * installed is refused, and one that lands later works without a change here); anything else
 * must be an absolute http(s) URL the outbound policy lets the service reach.
 */
export class ScheduleEndpoints {
  constructor(
    private readonly routes: () => AnyRoute[],
    private readonly guard: OutboundGuard,
  ) {}

  /** The target of `endpoint` for `method`, without network checks (fire time; creation adds `validate`). */
  resolve(method: ScheduleMethod, endpoint: string): ScheduleTarget {
    const short = SHORT_FORM.exec(endpoint.trim());
    if (short) {
      const name = short[1]!.toLowerCase();
      if (!(SHORT_ENDPOINTS as readonly string[]).includes(name)) {
        throw errors.validation(
          `endpoint: ${name} is not a short endpoint (${SHORT_ENDPOINTS.join(', ')}); other endpoints need an absolute http(s) URL`,
        );
      }
      const route = this.routes().find((r) => r.method === method.toLowerCase() && r.path === `/${name}`);
      if (!route) throw errors.validation(`endpoint: ${method} ${name} is not available on this service`);
      return { kind: 'route', route, endpoint: name };
    }
    if (!/^https?:\/\//i.test(endpoint.trim())) {
      throw errors.validation(
        `endpoint: must be a short endpoint (${SHORT_ENDPOINTS.join(', ')}) or an absolute http(s) URL`,
      );
    }
    return { kind: 'url', url: parseTargetUrl(endpoint, 'endpoint') };
  }

  /**
   * Checks an endpoint and its payload when a schedule is created: a short endpoint's payload
   * against that route's own request schema (the same validation as a direct call), a URL
   * against the outbound policy (a host that does not resolve yet is accepted: the call is
   * checked again when it fires). Returns the endpoint as stored.
   */
  async validate(method: ScheduleMethod, endpoint: string, payload: Record<string, unknown>): Promise<string> {
    const target = this.resolve(method, endpoint);
    if (target.kind === 'route') {
      if (target.route.body && method === 'POST') parseInput(target.route.body, payload, 'payload');
      if (target.route.query && method === 'GET') parseInput(target.route.query, stringQuery(payload), 'payload');
      return target.endpoint;
    }
    try {
      await this.guard.assertAllowed(target.url);
    } catch (err) {
      if (err instanceof AppError && err.kind === 'forbidden') {
        throw new AppError('forbidden', err.code, `endpoint: ${err.detail}`, { metadata: { field: 'endpoint' } });
      }
      // A resolver failure (ENOTFOUND) is not a verdict; the call is checked at connect time.
      if (err instanceof AppError || typeof (err as NodeJS.ErrnoException).code !== 'string') throw err;
    }
    return target.url.href;
  }
}

/** A GET's payload as the query string values a route's query schema reads. */
export function stringQuery(payload: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (value === null || value === undefined) continue;
    out[key] = Array.isArray(value)
      ? value.map(String)
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  }
  return out;
}
