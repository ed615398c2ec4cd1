// `npm run keys -- create|list|revoke`: manage API keys against the same database as the service.
import { parseArgs } from 'node:util';
import { loadConfig, loadEnvFile } from '../config.js';
import { openDatabase } from '../db/database.js';
import { embeddedDatabaseExists } from '../db/embedded/embedded-database.js';
import { ApiKeyService } from '../domain/auth/api-key.service.js';
import { AuthService } from '../domain/auth/auth.service.js';
import { createLogger } from '../logger.js';
import { createMemoryPubSub } from '../pubsub/memory-pubsub.js';
import { createPostgresPubSub } from '../pubsub/postgres-pubsub.js';

const USAGE = `usage:
  npm run keys -- create [--name <label>] [--team <team_id>]
  npm run keys -- list [--team <team_id>]
  npm run keys -- revoke <key_id>
Without DATABASE_URL the keys live in the embedded database in DATA_DIR (default ./data);
add --init to create that database when DATA_DIR has none yet.`;

async function run(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      team: { type: 'string' },
      init: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, arg] = positionals;
  if (values.help || !command || !['create', 'list', 'revoke'].includes(command)) {
    process.stderr.write(`${USAGE}\n`);
    return command ? 2 : 0;
  }
  loadEnvFile(); // the service's settings (DATA_DIR, DATABASE_URL) as `npm start` reads them
  const config = loadConfig();
  // A mistyped or relative DATA_DIR must not quietly become a new, empty database.
  if (!config.database.url && !values.init && !embeddedDatabaseExists(config.dataDir)) {
    throw new Error(
      `there is no database in DATA_DIR=${config.dataDir}: set DATA_DIR to the service's data directory ` +
        '(or DATABASE_URL to its Postgres server), or add --init to create a new database there',
    );
  }
  // Only the database and the key service: the CLI starts in a fraction of the service's time.
  const db = await openDatabase(config, { applicationName: 'gleaner-keys' });
  const pubsub = config.database.url
    ? await createPostgresPubSub(config.database.url, createLogger({ logLevel: 'warn', log: config.log }), {
        listen: 'on-subscribe',
      }) // live subscribers see CLI changes
    : createMemoryPubSub();
  try {
    const apiKeys = new ApiKeyService(new AuthService({ orm: db.orm, verifyJwt: null }), pubsub);
    if (command === 'list') {
      for (const k of await apiKeys.listKeys(values.team ?? null)) {
        const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
        process.stdout.write(`${k.id}\t${k.teamId}\t${k.prefix}…\t${k.name}\t${state}\n`);
      }
      return 0;
    }
    if (command === 'revoke') {
      if (!arg) throw new Error('revoke needs the key id (see `npm run keys -- list`)');
      const key = await apiKeys.revokeKey(null, arg);
      process.stdout.write(`revoked ${key.id} (${key.name})\n`);
      return 0;
    }
    let teams = await apiKeys.listTeams();
    if (teams.length === 0 && !values.team) teams = [await apiKeys.createTeam('default')]; // before the first start
    const teamId = values.team ?? (teams.length === 1 ? teams[0]!.id : undefined);
    if (!teamId)
      throw new Error(`there are ${teams.length} teams; name one with --team (${teams.map((t) => t.id).join(', ')})`);
    const { key, secret } = await apiKeys.createKey(teamId, values.name ?? 'cli');
    process.stderr.write(`created ${key.id} for ${teamId}; the key is shown once:\n`);
    process.stdout.write(`${secret}\n`);
    return 0;
  } finally {
    await pubsub.close();
    await db.close();
  }
}

run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  },
);
