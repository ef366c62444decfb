import { migrate } from './cli/migrate.ts';
import { printOpenApi } from './cli/openapi.ts';
import { SERVE_USAGE } from './cli/roles.ts';
import { serve } from './cli/serve.ts';
import { TOKEN_USAGE, tokenCommand, UsageError } from './cli/token.ts';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { DataDirLockedError } from './db/engine/lock-file.ts';

const USAGE = `Usage: fieldhouse <command>

  ${SERVE_USAGE.replaceAll('\n', '\n  ')}
  migrate            apply pending database migrations and exit
  openapi            print the API's OpenAPI 3.1 document
  ${TOKEN_USAGE.replaceAll('\n', '\n  ')}

Configuration comes from environment variables (and ./.env); see the README.`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  loadDotEnv();
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(config, rest);
    case 'migrate':
      return migrate(config);
    case 'openapi':
      return printOpenApi(config);
    case 'token':
      return tokenCommand(config, rest);
    default:
      throw new UsageError(USAGE);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof UsageError ||
    error instanceof DataDirLockedError
  ) {
    process.stderr.write(`${error.message}\n`);
    process.exit(error instanceof UsageError ? 64 : 78);
  }
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
