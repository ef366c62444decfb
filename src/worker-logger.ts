/** The part of a pino logger (Fastify's included) the worker writes to. */
export type Logger = {
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
};
