// node-postgres's own value mapping, which its Query applies to every parameter: a run
// (statement-run.ts) maps its parameters with it, so they go out exactly as a Query's do.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
