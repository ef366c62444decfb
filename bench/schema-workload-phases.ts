// The schema workload of the design's budget, as calls on a schema API: Fieldhouse
// through the official client (bench/schema-workload.ts), or another product's own API
// (bench/directus.ts), so both run the very same sequence. Calls run one after another,
// as a migration script sends them, each timed.
import { percentile } from './support.ts';

// Fifteen types that need no other model, so every model gets the same mix.
export const FIELD_TYPES = [
  'string',
  'text',
  'integer',
  'float',
  'boolean',
  'date',
  'date_time',
  'color',
  'json',
  'lat_lon',
  'seo',
  'slug',
  'video',
  'file',
  'gallery',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

/** What the workload asks of a schema API; ids are whatever the API names things by. */
export type SchemaApi = {
  createModel(index: number): Promise<string>;
  createField(modelId: string, index: number, fieldType: FieldType): Promise<string>;
  updateField(fieldId: string, revision: number): Promise<unknown>;
  updateModel(modelId: string, revision: number): Promise<unknown>;
  /** A webhook (or the product's equivalent) sent on model updates, to this URL. */
  createHook(index: number, url: string): Promise<string>;
  updateHook(hookId: string, revision: number): Promise<unknown>;
  listModels(): Promise<unknown>;
  listFields(modelId: string): Promise<unknown>;
};

export type Phase = { phase: string; samples: number[]; ms: number };

/** Runs every phase against the API; `hookUrl(i)` is where the i-th webhook points. */
export async function runSchemaWorkload(
  api: SchemaApi,
  hookUrl: (index: number) => string,
): Promise<Phase[]> {
  const phases: Phase[] = [];
  const phase = async (name: string, calls: (() => Promise<unknown>)[]) => {
    const samples: number[] = [];
    const started = performance.now();
    for (const call of calls) {
      const t0 = performance.now();
      await call();
      samples.push(performance.now() - t0);
    }
    phases.push({ phase: name, samples, ms: performance.now() - started });
  };
  const models: string[] = [];
  const fields: string[] = [];
  await phase(
    'create 20 models × 15 fields',
    Array.from({ length: 20 }, (_, m) => [
      async () => {
        models.push(await api.createModel(m));
      },
      ...FIELD_TYPES.map((fieldType, f) => async () => {
        fields.push(await api.createField(models[m] ?? '', f, fieldType));
      }),
    ]).flat(),
  );
  await phase(
    'update every field',
    fields.map((id, i) => () => api.updateField(id, i)),
  );
  await phase(
    'update every model',
    models.map((id, i) => () => api.updateModel(id, i)),
  );
  const hooks: string[] = [];
  await phase('create 5 webhooks, update each 10 times', [
    ...Array.from({ length: 5 }, (_, w) => async () => {
      hooks.push(await api.createHook(w, hookUrl(w)));
    }),
    ...Array.from({ length: 50 }, (_, i) => () => api.updateHook(hooks[i % 5] ?? '', i)),
  ]);
  await phase(
    'list models 50 times',
    Array.from({ length: 50 }, () => () => api.listModels()),
  );
  await phase(
    'list fields 50 times',
    Array.from({ length: 50 }, (_, i) => () => api.listFields(models[i % 20] ?? '')),
  );
  return phases;
}

/** Operations per second over all phases. */
export function opsPerSecond(phases: readonly Phase[]): number {
  const ops = phases.reduce((sum, p) => sum + p.samples.length, 0);
  const ms = phases.reduce((sum, p) => sum + p.ms, 0);
  return (ops / ms) * 1000;
}

/** One row per phase, then one for all of them, `label` naming the run. */
export function phaseRows(phases: readonly Phase[], label: string) {
  const row = (name: string, samples: number[], ms: number) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      phase: name,
      ops: String(samples.length),
      'ops/s': (samples.length / ms) * 1000,
      'p50 ms': percentile(sorted, 50),
      'p95 ms': percentile(sorted, 95),
      'p99 ms': percentile(sorted, 99),
    };
  };
  return [
    ...phases.map((p) => row(p.phase, p.samples, p.ms)),
    row(
      `all (${label})`,
      phases.flatMap((p) => p.samples),
      phases.reduce((sum, p) => sum + p.ms, 0),
    ),
  ];
}
