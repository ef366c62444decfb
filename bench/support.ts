import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { TestDatabase } from '../test/support/databases.ts';

/** Percentile of sorted samples (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, rank)] ?? Number.NaN;
}

/** Resident set size of a process, from /proc, in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

export function printTable(rows: Record<string, string | number>[]): void {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const cell = (value: string | number) =>
    typeof value === 'number' ? value.toFixed(value < 10 ? 2 : 1) : value;
  const widths = columns.map((c) =>
    Math.max(c.length, ...rows.map((r) => String(cell(r[c] ?? '')).length)),
  );
  const line = (values: string[]) =>
    `| ${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  process.stdout.write(`${line(columns)}\n`);
  process.stdout.write(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |\n`);
  for (const row of rows)
    process.stdout.write(`${line(columns.map((c) => String(cell(row[c] ?? ''))))}\n`);
}

/**
 * A new, empty database for one benchmark run (the server under test migrates it):
 * a fresh PostgreSQL database, or a fresh embedded data directory.
 */
export async function benchDatabase(
  engine: 'embedded' | 'postgres',
  postgresUrl = 'postgres://postgres@127.0.0.1:5432/postgres',
): Promise<TestDatabase> {
  if (engine === 'embedded') {
    const dataDir = mkdtempSync(join(tmpdir(), 'fieldhouse-bench-'));
    return {
      engine,
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `fieldhouse_bench_${Date.now()}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    engine,
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** The environment variables that point a `fieldhouse serve` process at the database. */
export function serverEnv(database: TestDatabase): Record<string, string> {
  return database.engine === 'postgres'
    ? { DATABASE_URL: database.url }
    : { FIELDHOUSE_DATA_DIR: database.dataDir };
}

/** CPU time (user + system) a process has used so far, from /proc, in ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the parenthesised command name: utime and stime are the 14th and 15th fields.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
// USER_HZ, 100 on every Linux platform Node supports.
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The given percentile of the quietest window of consecutive samples (the window with
 * the lowest median): on a machine shared with other work, the latency the code can
 * reach when nothing else competes for the CPU.
 */
export function quietWindowPercentile(samples: number[], window: number, p: number): number {
  let best = Number.NaN;
  let bestMedian = Number.POSITIVE_INFINITY;
  for (let start = 0; start + window <= samples.length; start += window) {
    const sorted = samples.slice(start, start + window).sort((a, b) => a - b);
    const median = percentile(sorted, 50);
    if (median < bestMedian) {
      bestMedian = median;
      best = percentile(sorted, p);
    }
  }
  return best;
}

/**
 * An empty database for a bench that starts its server in-process: a new embedded data
 * directory, or a new PostgreSQL database made through `postgresUrl`'s server. `prefix`
 * names both; `drop` removes it.
 */
export async function freshBenchDatabase(
  engine: 'embedded' | 'postgres',
  prefix: string,
  postgresUrl: string,
): Promise<{ env: { dataDir: string } | { databaseUrl: string }; drop(): Promise<void> }> {
  if (engine === 'embedded') {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    return {
      env: { dataDir: dir },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `${prefix.replaceAll('-', '_')}_${Date.now()}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    env: { databaseUrl: url.toString() },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * `fieldhouse serve` from the checkout at `root` (this one, or an older one for a
 * before/after run) on a free port, with `env` added to this process's environment;
 * resolves once it logs that it started, with the URL it listens on.
 */
export async function startServeProcess(
  root: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['bin/fieldhouse.js', 'serve'], {
    cwd: root,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
    const url = /"url":"(http[^"]+)"[^\n]*"fieldhouse started"/.exec(output)?.[1];
    if (url) return { child, url: url.replace('[::1]', '127.0.0.1') };
    await sleep(20);
  }
}

/** SIGTERM, resolved once the process has exited. */
export async function stopServeProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
