import { defineModule } from '../../module/app-module.js';
import { ApiKeyService } from './api-key.service.js';
import { authGraphQL } from './auth.graphql.js';
import { ApiKeySchema } from './api-key.entity.js';
import { apiKeyRoutes } from './api-keys.routes.js';
import { AuthService } from './auth.service.js';
import { createJwtVerifier } from './jwt-verifier.js';
import { TeamSchema } from './team.entity.js';

/** Teams, API keys and bearer authentication (API keys and identity-provider tokens). */
export const authModule = defineModule({
  name: 'auth',
  entities: [TeamSchema, ApiKeySchema],
  services: (ctx) => {
    const { jwt } = ctx.config.auth;
    const auth = new AuthService({ orm: ctx.orm, verifyJwt: jwt ? createJwtVerifier(jwt) : null });
    return { auth, apiKeys: new ApiKeyService(auth, ctx.pubsub) };
  },
  routes: ({ apiKeys }) => apiKeyRoutes({ apiKeys }),
  graphql: (kit, { apiKeys }) => authGraphQL(kit, apiKeys),
});
