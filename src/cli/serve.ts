import type { Config } from '../config.ts';
import { startServer } from '../server.ts';
import { serveRole } from './roles.ts';
import { exitGracefullyOnSignals } from './shutdown.ts';

export async function serve(config: Config, args: string[]): Promise<void> {
  const role = serveRole(args, process.env);
  const server = await startServer(config, role);
  exitGracefullyOnSignals(server);
  if (role !== 'all' && server.database.engine === 'embedded') {
    // The data directory admits one process, so no other process can take the other role.
    server.app.log.warn(
      { role },
      `the embedded database admits one process: ${role === 'api' ? 'webhooks are not delivered' : 'the API is not served'}; use --role all, or PostgreSQL to split roles`,
    );
  }
  if (server.bootstrap.created && config.adminToken) {
    // The operator chose the token: repeating it would only copy a secret into the logs.
    process.stdout.write(
      '\nFieldhouse project created with the full-access API token from FIELDHOUSE_ADMIN_TOKEN.\n\n',
    );
  } else if (server.bootstrap.created) {
    // Printed once, on the first start: the token is stored only as a hash.
    process.stdout.write(
      `\nFieldhouse project created. Full-access API token:\n\n  ${server.bootstrap.adminToken}\n\nStore it now: it will not be shown again.\n\n`,
    );
  }
  // Last, after the token: whoever waits for this line has seen all of the start.
  server.app.log.info({ role, url: server.url }, 'fieldhouse started');
}
