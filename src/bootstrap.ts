import fs from 'node:fs/promises';
import path from 'node:path';
import type { Container } from './container.js';

export interface BootstrapResult {
  /** The secret, when this start created the default team and key. */
  createdSecret: string | null;
  keyFile: string;
  keyFileExists: boolean;
}

/**
 * First start on an empty database: create the default team and key and save the key to
 * DATA_DIR/api-key (mode 0600) before the service accepts requests.
 */
export async function ensureDefaultKey(container: Container): Promise<BootstrapResult> {
  const keyFile = path.join(container.config.dataDir, 'api-key');
  const created = await container.services.apiKeys.bootstrap();
  if (created) {
    await fs.mkdir(container.config.dataDir, { recursive: true });
    await fs.writeFile(keyFile, `${created.secret}\n`, { mode: 0o600 });
    await fs.chmod(keyFile, 0o600);
  }
  const keyFileExists = await fs.access(keyFile).then(
    () => true,
    () => false,
  );
  return { createdSecret: created?.secret ?? null, keyFile, keyFileExists };
}

/** Tells the operator how to get and use an API key, once the address is known. */
export function printStartupHints(container: Container, result: BootstrapResult, out: (line: string) => void): void {
  const base = container.urls.base();
  const relative = path.relative(process.cwd(), result.keyFile);
  const shown = relative.startsWith('..') ? result.keyFile : relative;
  if (result.createdSecret) {
    out(`Created the default team and its API key (shown once; saved to ${shown}):`);
    out(`  ${result.createdSecret}`);
  } else if (result.keyFileExists) {
    out(`API key: the one created on first start is in ${shown}.`);
  } else {
    out('API key: create one with `npm run keys -- create --name <label>`.');
  }
  if (result.keyFileExists) out(`Try:  curl -H "Authorization: Bearer $(cat ${shown})" ${base}/v1/me`);
  out(`Docs: ${base}/docs   GraphQL: ${base}/graphql`);
  const browser = browserEngineState(container);
  out(browser.available ? 'Browser engine: available' : `Browser engine: not available (${browser.reason})`);
}

/** Whether this process renders pages in a browser: said once at start, with why not and how to enable it. */
export function browserEngineState(
  container: Container,
): { available: true; engine: string } | { available: false; reason: string } {
  const browser = container.engines.list().find((e) => e.capabilities.javascript);
  if (browser) return { available: true, engine: browser.id };
  const off = container.engines.unavailable().filter((u) => u.capabilities.includes('javascript'));
  if (off.length === 0) return { available: false, reason: 'this build has no engine that runs JavaScript' };
  // One browser engine: its reason as it is; several (local and remote): each, named.
  if (off.length === 1) return { available: false, reason: off[0]!.reason };
  return { available: false, reason: off.map((u) => `engine ${u.id}: ${u.reason}`).join('; ') };
}

/** The start log's line on engines: which run here, and whether the browser engine does. */
export function logEngines(container: Container): void {
  const engines = container.engines.list().map((e) => e.id);
  const state = browserEngineState(container);
  if (state.available)
    container.logger.info({ engines, browser: state.engine }, `browser engine available (${state.engine})`);
  else container.logger.info({ engines, reason: state.reason }, `browser engine not available: ${state.reason}`);
}
