import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a process-level test waits for something the process will do: generous,
 * because the suite shares a loaded machine; a wait on a condition ends as soon as it holds.
 */
export const PROCESS_WAIT_MS = 300_000;

/** One pino record, as the process wrote it to stdout. */
export type LogRecord = { msg?: string; level?: number; time?: number; [key: string]: unknown };

export type FieldhouseProcess = {
  child: ChildProcess;
  /** stdout and stderr together, as they arrived: for matching, never for ordering. */
  output: () => string;
  /**
   * The JSON log records in the order the process wrote them (one stream, written
   * synchronously by pino): compare the order of steps here, not by position in output().
   */
  logRecords: () => LogRecord[];
  /** Resolves with the listening URL, or rejects if the process exits first. */
  listening: Promise<string>;
  exited: Promise<number | null>;
  /**
   * Resolves with the first match of the pattern in the output, waiting for it if needed;
   * rejects when the process exits without writing it, or after timeoutMs.
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
};

/**
 * Runs the real `fieldhouse` command line, as a user would: `node bin/fieldhouse.js` unless
 * `launcher` names another way in (`npm start`, the executable itself).
 */
export function runFieldhouse(
  args: string[],
  env: Record<string, string>,
  launcher: string[] = [process.execPath, 'bin/fieldhouse.js'],
): FieldhouseProcess {
  const [command = process.execPath, ...launcherArgs] = launcher;
  const child = spawn(command, [...launcherArgs, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  const records: LogRecord[] = [];
  const watchers = new Set<() => void>();
  let exitCode: number | null | undefined;
  const exited = once(child, 'exit').then(([code]) => {
    exitCode = code as number | null;
    for (const watcher of watchers) watcher();
    return exitCode;
  });
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    for (const watcher of watchers) watcher();
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const lines = stdout.split('\n');
    stdout = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        records.push(JSON.parse(line) as LogRecord);
      } catch {
        // not a log record
      }
    }
    onOutput(chunk);
  });
  child.stderr?.on('data', onOutput);

  function waitFor(pattern: RegExp, timeoutMs = PROCESS_WAIT_MS): Promise<RegExpExecArray> {
    // Checked on each chunk while someone waits (a match may straddle chunks), not after.
    return new Promise((resolve, reject) => {
      const done = () => {
        watchers.delete(check);
        clearTimeout(timer);
      };
      const check = () => {
        const match = pattern.exec(output);
        if (match) {
          done();
          resolve(match);
        } else if (exitCode !== undefined) {
          done();
          reject(new Error(`fieldhouse exited with ${exitCode} before ${pattern}:\n${output}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${pattern} in ${timeoutMs} ms of output:\n${output}`));
      }, timeoutMs);
      watchers.add(check);
      check();
    });
  }

  const listening = waitFor(/Server listening at (http:\/\/[^"\s]+)/).then(
    (match) => match[1] ?? '',
  );
  listening.catch(() => undefined);
  return {
    child,
    output: () => output,
    logRecords: () => [...records],
    listening,
    exited,
    waitFor,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Linux: a process's state letter and parent pid, or null once it is gone. */
function processStat(pid: number): { state: string; ppid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (command name) state ppid ...": the name may itself contain spaces or ")".
    const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** Whether the process runs: gone or a zombie (dead, not yet reaped) counts as not. */
export function isRunning(pid: number): boolean {
  const stat = processStat(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
}

/** Waits for a child of `parentPid` whose command line matches, and returns its pid. */
export async function waitForChildProcess(
  parentPid: number,
  commandLine: RegExp,
  timeoutMs = PROCESS_WAIT_MS,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid) || processStat(pid)?.ppid !== parentPid) continue;
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        if (commandLine.test(args)) return pid;
      } catch {
        // exited while we looked
      }
    }
    if (Date.now() > deadline) throw new Error(`no child ${commandLine} of ${parentPid}`);
    await sleep(10);
  }
}

/** Waits until the process is gone; false if it still runs after timeoutMs. */
export async function waitForExit(pid: number, timeoutMs = PROCESS_WAIT_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}
