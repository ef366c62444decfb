import type {
  GraphQLArgumentConfig,
  GraphQLEnumValueConfig,
  GraphQLEnumValueConfigMap,
  GraphQLFieldConfig,
  GraphQLFieldConfigMap,
  GraphQLInputFieldConfig,
  GraphQLInputFieldConfigMap,
} from 'graphql';

/**
 * graphql-js copies the `extensions` of every field, argument, input field and enum value
 * into a new dictionary object (about 200 bytes, even when there are none) unless it
 * already has a null prototype. A schema of 1,000 models × 30 fields holds some 200,000
 * of them: handing it shared frozen ones instead roughly halves its heap and the garbage
 * collection of its build. The per-model configs (fresh objects of one build) go through
 * these helpers, which set them in place rather than copy them.
 */
type Extensions = Readonly<Record<string, unknown>>;

const NONE: Extensions = Object.freeze(Object.create(null));
/** One object per cost kind (`extensions: { cost }` is the only extension fields carry). */
const byCost = new Map<unknown, Extensions>();

function shared(extensions: Extensions | null | undefined): Extensions {
  if (!extensions) return NONE;
  const keys = Object.keys(extensions);
  if (keys.length === 0) return NONE;
  if (keys.length !== 1 || keys[0] !== 'cost') return extensions;
  const kept = byCost.get(extensions.cost);
  if (kept) return kept;
  const made: Extensions = Object.freeze(
    Object.assign(Object.create(null), { cost: extensions.cost }),
  );
  byCost.set(extensions.cost, made);
  return made;
}

/** Output fields (and their arguments), given their shared `extensions` in place. */
export function leanFields<S, C>(fields: GraphQLFieldConfigMap<S, C>): GraphQLFieldConfigMap<S, C> {
  for (const name in fields) {
    const field = fields[name] as GraphQLFieldConfig<S, C>;
    field.extensions = shared(field.extensions);
    for (const arg in field.args) {
      const config = field.args[arg] as GraphQLArgumentConfig;
      config.extensions = shared(config.extensions);
    }
  }
  return fields;
}

/** Input fields, given their shared `extensions` in place. */
export function leanInputFields(fields: GraphQLInputFieldConfigMap): GraphQLInputFieldConfigMap {
  for (const name in fields) {
    const field = fields[name] as GraphQLInputFieldConfig;
    field.extensions = shared(field.extensions);
  }
  return fields;
}

/** Enum values, given their shared `extensions` in place. */
export function leanEnumValues(values: GraphQLEnumValueConfigMap): GraphQLEnumValueConfigMap {
  for (const name in values) {
    const value = values[name] as GraphQLEnumValueConfig;
    value.extensions = shared(value.extensions);
  }
  return values;
}
