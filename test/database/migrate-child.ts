// Runs the gateway's migrator once in its own process (for the test of migrators started
// at the same time on one database) and prints its report as JSON.

import { parseDatabaseUrl } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

const url = process.argv[2];
if (!url) throw new Error('usage: migrate-child.ts <DATABASE_URL>');
process.stdout.write(JSON.stringify(await migrate(parseDatabaseUrl(url))));
