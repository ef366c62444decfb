import { parseArgs } from 'node:util';
import { ConfigError } from '../config.ts';
import { ROLES, type Role } from '../server.ts';
import { UsageError } from './token.ts';

export const SERVE_USAGE = `fieldhouse serve [--role api|worker|all]
  Migrates, creates the project on first start, then runs until SIGTERM/SIGINT.
  api: the API only; worker: webhook deliveries only (plus /healthz, /readyz, /metrics);
  all (default): both. FIELDHOUSE_ROLE sets the role too; the flag wins.`;

function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The role `serve` runs as: `--role`, else FIELDHOUSE_ROLE, else `all`. */
export function serveRole(args: string[], env: Record<string, string | undefined>): Role {
  let flag: string | undefined;
  try {
    flag = parseArgs({ args, options: { role: { type: 'string' } } }).values.role;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\nUsage: ${SERVE_USAGE}`);
  }
  if (flag !== undefined) {
    if (isRole(flag)) return flag;
    throw new UsageError(`--role must be one of ${ROLES.join(', ')} (got "${flag}")`);
  }
  const variable = env.FIELDHOUSE_ROLE;
  if (variable === undefined || variable === '') return 'all';
  if (isRole(variable)) return variable;
  throw new ConfigError(
    'FIELDHOUSE_ROLE',
    `must be one of ${ROLES.join(', ')} (got "${variable}")`,
  );
}
