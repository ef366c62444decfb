// The schema workload of the design's budget, through the official client against a real
// `fieldhouse serve` process: ops/s and latency percentiles per phase, and the server's RSS.
// Usage: npx tsx bench/schema-workload.ts [--db embedded|postgres]
import { parseArgs } from 'node:util';
import { startReceiver } from '../test/support/receiver.ts';
import { fieldhouseSchemaApi, startFieldhouse } from './fieldhouse-schema-api.ts';
import { phaseRows, runSchemaWorkload } from './schema-workload-phases.ts';
import { benchDatabase, printTable, rssMb } from './support.ts';

const { values } = parseArgs({
  options: { db: { type: 'string', default: 'embedded' } },
});
const TOKEN = 'bench-admin-token-000000002';

const database = await benchDatabase(values.db === 'postgres' ? 'postgres' : 'embedded');
const receiver = await startReceiver();
const fieldhouse = await startFieldhouse(database, TOKEN);
try {
  const phases = await runSchemaWorkload(
    fieldhouseSchemaApi(fieldhouse.client),
    (w) => `${receiver.url}/hook/${w}`,
  );
  const rss = rssMb(fieldhouse.pid);
  printTable(phaseRows(phases, database.engine));
  process.stdout.write(`\nserver RSS after the workload: ${rss.toFixed(0)} MB\n`);
} finally {
  await fieldhouse.stop();
  await receiver.close();
  await database.drop();
}
