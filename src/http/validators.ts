import AjvCompiler from '@fastify/ajv-compiler';

type Compile = ReturnType<AjvCompiler.BuildCompilerFromPool>;
type AjvOptions = Parameters<AjvCompiler.BuildCompilerFromPool>[1];

/** Unknown attributes must be refused, not silently stripped, and types not coerced. */
export const AJV_OPTIONS = {
  customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true },
} satisfies AjvOptions;
type ValidateFunction = ReturnType<Compile>;

/**
 * Fastify's own Ajv compiler, made lazy: each route's validator is compiled on the route's
 * first request instead of when the app becomes ready. Compiling every route's validators
 * at start was about a quarter of a warm start's CPU, and kept validators resident for
 * routes a deployment never calls. Fastify only calls a validator and reads its `errors`
 * after it returns false, so the wrapper carries them over from the compiled one.
 */
export function lazyValidatorFactory(): AjvCompiler.BuildCompilerFromPool {
  const buildCompiler = AjvCompiler();
  return (externalSchemas, ajvOptions) => {
    const compile = buildCompiler(externalSchemas, ajvOptions);
    return (route) => {
      let compiled: ValidateFunction | undefined;
      const validate = (data: unknown) => {
        compiled ??= compile(route);
        const valid = compiled(data);
        validate.errors = compiled.errors;
        return valid;
      };
      validate.errors = null as ValidateFunction['errors'];
      // Ajv's own fields (schema, schemaEnv) exist only once compiled; Fastify reads neither.
      return validate as unknown as ValidateFunction;
    };
  };
}
