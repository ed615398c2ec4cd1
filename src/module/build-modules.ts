import type { AppModule, MaintenanceTask, ModuleJob, ModuleLane } from './app-module.js';
import type { ModuleContext } from './module-context.js';
import type { AnyRoute } from './route.js';

/** The shared part of every module's context (everything but its own settings and `use`). */
export type SharedContext = Omit<ModuleContext, 'settings' | 'use'>;

type Module = AppModule<object, string, unknown>;

/** The modules once built: their services, and what they bring to the transports and workers. */
export interface BuiltModules {
  /** Every module's services, by name. */
  services: Record<string, unknown>;
  /** One module's services. */
  servicesOf(module: Module): object;
  routes(): AnyRoute[];
  jobs(): ModuleJob[];
  lanes(): ModuleLane[];
  maintenance(): { module: string; task: MaintenanceTask }[];
  /** Every module's `stop`, in turn (a failing one is logged, the others still run). */
  stop(): Promise<void>;
}

/**
 * Builds every module's services in dependency order (`ctx.use(other)` builds `other` first; a
 * cycle is an error naming it), declares their job kinds on the queue, and collects what they
 * bring. Service names must be unique across modules: they share one namespace.
 */
export function buildModules(
  modules: readonly Module[],
  shared: SharedContext,
  settingsOf: (module: Module) => unknown,
): BuiltModules {
  const built = new Map<Module, object>();
  const building: Module[] = [];
  const contexts = new Map<Module, ModuleContext>();
  const contextOf = (module: Module): ModuleContext => {
    let ctx = contexts.get(module);
    if (!ctx) {
      ctx = { ...shared, settings: settingsOf(module), use: (other) => build(other as Module) as never };
      contexts.set(module, ctx);
    }
    return ctx;
  };
  const build = (module: Module): object => {
    const done = built.get(module);
    if (done) return done;
    if (!modules.includes(module)) throw new Error(`module ${module.name} is used but not listed in src/modules.ts`);
    if (building.includes(module)) {
      throw new Error(`modules use each other in a cycle: ${[...building, module].map((m) => m.name).join(' → ')}`);
    }
    building.push(module);
    const services = module.services(contextOf(module));
    building.pop();
    built.set(module, services);
    return services;
  };

  const services: Record<string, unknown> = {};
  for (const module of modules) {
    for (const [name, service] of Object.entries(build(module))) {
      if (name in services) throw new Error(`service "${name}" of module ${module.name} is already another module's`);
      services[name] = service;
    }
  }
  const jobs = modules.flatMap((m) => m.jobs?.(built.get(m)!, contextOf(m)) ?? []);
  for (const job of jobs) shared.queue.define(job.spec);
  return {
    services,
    servicesOf: (module) => built.get(module) ?? {},
    routes: () => modules.flatMap((m) => m.routes?.(built.get(m)!) ?? []),
    jobs: () => jobs,
    lanes: () => modules.flatMap((m) => m.lanes?.(contextOf(m)) ?? []),
    maintenance: () =>
      modules.flatMap((m) =>
        (m.maintenance?.(built.get(m)!, contextOf(m)) ?? []).map((task) => ({ module: m.name, task })),
      ),
    async stop() {
      for (const m of modules) {
        await m
          .stop?.(built.get(m)!)
          .catch((err: unknown) => shared.logger.error({ err, module: m.name }, 'stop failed'));
      }
    },
  };
}
