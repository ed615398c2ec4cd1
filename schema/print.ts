// Writes schema/schema.graphql (`npm run schema:print`); a snapshot test holds the file to the code.
import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { buildSchema } from './index.js';

writeFileSync(new URL('./schema.graphql', import.meta.url), `${printSchema(buildSchema())}\n`);
