import type { GraphQLSchema } from 'graphql';
import type { AppModule } from '../src/module/app-module.js';
import { APP_MODULES } from '../src/modules.js';
import { createBuilder } from './builder.js';
import { createKit } from './kit.js';

type Module = AppModule<object, string, unknown>;

/**
 * The GraphQL schema of a set of modules: each declares its types and fields with the kit
 * (`AppModule.graphql`), over its own services. The printed schema (`npm run schema:print`)
 * is built with no services behind it.
 */
export function buildSchema(
  modules: readonly Module[] = APP_MODULES,
  servicesOf: (module: Module) => object = () => ({}),
): GraphQLSchema {
  const builder = createBuilder();
  const kit = createKit(builder);
  for (const module of modules) module.graphql?.(kit, servicesOf(module));
  kit.finish();
  return builder.toSchema({ sortSchema: true });
}
