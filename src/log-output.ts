import sonicBoom from 'sonic-boom';

// A CommonJS module: Node's ESM loader finds only its default export, the class itself.
const { SonicBoom } = sonicBoom;
type SonicBoom = InstanceType<typeof SonicBoom>;

/**
 * Log lines held in memory while stdout is not read (a stalled log shipper); past it,
 * lines are dropped and counted rather than held without bound.
 */
export const LOG_BUFFER_BYTES = 4 * 1024 * 1024;
/** How long a graceful exit waits for a slow stdout reader to take the lines still held. */
export const LOG_FLUSH_MS = 1000;
/**
 * Lines are written together once this much is held (sonic-boom takes less than its 16 KiB
 * write), or by the flush timer: one write per request line cost a quarter of a record
 * read's CPU (a thread-pool write each).
 */
const LOG_BATCH_BYTES = 8 * 1024;
/** The longest a line waits for its batch: what a reader of the logs may lag behind. */
export const LOG_BATCH_MS = 50;

type LogOutput = { stream: SonicBoom; dropped: number; giveUpAt: number };

let output: LogOutput | null = null;

function open(): LogOutput {
  const opened: LogOutput = {
    stream: null as unknown as SonicBoom,
    dropped: 0,
    giveUpAt: Infinity,
  };
  opened.stream = new SonicBoom({
    // Reading process.stdout.fd opens stdout as Node does: a pipe is then non-blocking, so
    // a full pipe answers EAGAIN instead of pinning a thread or the event loop in write().
    fd: process.stdout.fd,
    // Written from the event loop as the pipe takes it: a log call never waits for the reader.
    sync: false,
    minLength: LOG_BATCH_BYTES,
    maxLength: LOG_BUFFER_BYTES,
    // A full pipe is retried while the process runs; at exit only until the flush deadline.
    retryEAGAIN: () => Date.now() < opened.giveUpAt,
  });
  opened.stream.on('drop', () => {
    opened.dropped += 1;
  });
  // Not writable any more (EPIPE: the reader is gone): logging goes on, to nowhere.
  opened.stream.on('error', () => undefined);
  // A batch not yet full goes out anyway: a line waits for its batch at most about
  // LOG_BATCH_MS. `held` is set by every line logged and by every write that took bytes
  // (what a write in progress kept back is then flushed on the next tick); a flush of an
  // empty batch writes nothing and sets nothing, so an idle process stops flushing.
  let held = false;
  const write = opened.stream.write.bind(opened.stream);
  opened.stream.write = (data: string) => {
    held = true;
    return write(data);
  };
  opened.stream.on('write', (bytes: number) => {
    if (bytes > 0) held = true;
  });
  setInterval(() => {
    if (!held) return;
    held = false;
    try {
      opened.stream.flush();
    } catch {
      // The stream is gone (destroyed): there is nothing left to write to.
    }
  }, LOG_BATCH_MS).unref();
  // However the process exits, the lines held are written first, within the deadline.
  process.once('exit', () => {
    if (opened.giveUpAt === Infinity) opened.giveUpAt = Date.now() + LOG_FLUSH_MS;
    try {
      opened.stream.flushSync();
    } catch {
      // EAGAIN past the deadline, or EPIPE: the lines not written are lost.
    }
  });
  return opened;
}

/** The process's one log destination, stdout, shared by every logger it creates. */
export function logStream(): SonicBoom {
  output ??= open();
  return output.stream;
}

/** Log lines dropped so far because stdout was not read fast enough. */
export function droppedLogLines(): number {
  return output?.dropped ?? 0;
}

/**
 * Exits once the lines still held are written, waiting at most `waitMs` for a reader that
 * does not take them (0: only what the pipe takes now). The wait is bounded so that a
 * stalled log shipper cannot keep the process alive: what is left is lost.
 */
export function exitAfterLogs(code: number, waitMs = LOG_FLUSH_MS): never {
  if (output) output.giveUpAt = Date.now() + waitMs;
  // The exit listener above writes them.
  process.exit(code);
}
