import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export type FieldhouseProcess = {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the listening URL, or rejects if the process exits first. */
  listening: Promise<string>;
  exited: Promise<number | null>;
  /** Resolves with the first match of the pattern in the output, waiting for it if needed. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
};

/** Runs the real `fieldhouse` command line, as a user would. */
export function runFieldhouse(args: string[], env: Record<string, string>): FieldhouseProcess {
  const child = spawn(process.execPath, ['bin/fieldhouse.js', ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let started = false;
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // Rescanning the whole, growing output for every log line after the start is quadratic.
      if (started) return;
      const match = /Server listening at (http:\/\/[^"\s]+)/.exec(output);
      if (match?.[1]) {
        started = true;
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    exited.then((code) => reject(new Error(`fieldhouse exited with ${code}:\n${output}`)));
  });
  listening.catch(() => undefined);
  return {
    child,
    output: () => output,
    listening,
    exited,
    async waitFor(pattern, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(output);
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`no ${pattern} in output:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
