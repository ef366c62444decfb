import type { Config } from '../config.ts';
import { startServer } from '../server.ts';

export async function serve(config: Config): Promise<void> {
  const server = await startServer(config);
  if (server.bootstrap.created) {
    const source = config.adminToken ? ' (from FIELDHOUSE_ADMIN_TOKEN)' : '';
    // Printed once, on the first start: the token is stored only as a hash.
    process.stdout.write(
      `\nFieldhouse project created. Full-access API token${source}:\n\n  ${server.bootstrap.adminToken}\n\nStore it now: it will not be shown again.\n\n`,
    );
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
