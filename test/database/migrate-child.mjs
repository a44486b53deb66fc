// Runs the gateway's migrator once in its own process (for the test of migrators started
// at the same time on one database) and prints its report as JSON. It runs the compiled
// migrator (dist/, built by the suite's global setup) under plain node: no TypeScript loader
// to start in each child.

import { parseDatabaseUrl } from '../../dist/db/client.js';
import { migrate } from '../../dist/db/migrate.js';

const url = process.argv[2];
if (!url) throw new Error('usage: migrate-child.mjs <DATABASE_URL>');
process.stdout.write(JSON.stringify(await migrate(parseDatabaseUrl(url))));
