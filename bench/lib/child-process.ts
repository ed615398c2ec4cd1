import { type ChildProcess, fork } from 'node:child_process';
import { REPO_ROOT } from './paths.js';

export interface ForkOptions {
  args?: string[];
  /** Extra Node flags (`--cpu-prof`, ...), placed before `--import tsx`. */
  nodeFlags?: string[];
  env?: NodeJS.ProcessEnv;
}

export interface ForkedChild<Ready> {
  child: ChildProcess;
  ready: Ready;
  /** Sends a command with a fresh id and resolves with the child's `{type: 'result', id}` answer. */
  request<T>(message: Record<string, unknown>): Promise<T>;
  /** Asks politely (a message or SIGTERM), then SIGKILL after `timeoutMs`; resolves with the exit code. */
  stop(message?: Record<string, unknown>, timeoutMs?: number): Promise<number | null>;
}

/**
 * Forks a TypeScript entry (through tsx) with an IPC channel and waits for its `{type: 'ready'}`
 * message. Its stderr is passed through, so a crash explains itself.
 */
export async function forkTs<Ready>(entry: string, options: ForkOptions = {}): Promise<ForkedChild<Ready>> {
  const child = fork(entry, options.args ?? [], {
    cwd: REPO_ROOT,
    execArgv: [...(options.nodeFlags ?? []), '--import', 'tsx'],
    env: options.env ?? process.env,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  let nextId = 1;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready`)));
    child.on('message', (message: { type: string; id?: number; message?: string }) => {
      if (message.type === 'ready') resolve(message as Ready);
      const waiter = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id!);
      if (message.type === 'error') waiter.reject(new Error(message.message));
      else waiter.resolve(message);
    });
  });
  child.once('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${entry} exited with ${code}`));
    pending.clear();
  });
  return {
    child,
    ready,
    request<T>(message: Record<string, unknown>) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ ...message, id });
      });
    },
    async stop(message, timeoutMs = 30_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      if (message && child.connected) child.send(message);
      else child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
