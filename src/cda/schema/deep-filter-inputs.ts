import {
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
} from 'graphql';
import type { ItemTypeRow } from '../../db/schema.ts';
import type { FilterField } from '../../domain/items/model-fields.ts';
import { camelName, pascalName } from './names.ts';
import { BooleanType } from './scalars.ts';
import { FILTERS, META_FILTERS } from './shared-types.ts';

/** A block model with its fields: what deep filters name and translate. */
export type BlockModel = Readonly<{ api_key: string; fields: readonly FilterField[] }>;

/** Block models by id. */
export type BlockModels = ReadonlyMap<string, BlockModel>;

/** The validators naming the block models a field's value may hold, by field type. */
const BLOCK_VALIDATORS: Readonly<Record<string, readonly string[]>> = {
  rich_text: ['rich_text_blocks'],
  single_block: ['single_block_blocks'],
  structured_text: ['structured_text_blocks', 'structured_text_inline_blocks'],
};

/** The block models a modular content, single block or structured text field accepts. */
export function acceptedBlockModels(field: FilterField, blocks: BlockModels) {
  const ids = (BLOCK_VALIDATORS[field.field_type] ?? []).flatMap((name) => {
    const listed = (field.validators[name] as { item_types?: unknown } | undefined)?.item_types;
    return Array.isArray(listed) ? listed : [];
  });
  return [...new Set(ids)].flatMap((id) => {
    const block = typeof id === 'string' ? blocks.get(id) : undefined;
    return block ? [block] : [];
  });
}

/**
 * Deep filter inputs of one schema build: `<Block>BlockFilter` (a block's `id` and its
 * fields' filters, AND / OR) once per block model, and per field with
 * `deep_filtering_enabled` `<Model>Model<Field>DeepFilter { any: <Model>Model<Field>AnyBlockFilter }`
 * whose keys are the accepted block models; a structured text field's is
 * `{ value: StructuredTextFilter, blocks: <Model>Model<Field>BlocksFilter { any containsAny
 * exists } }` (its text and its blocks apart). DatoCMS's docs name no input type here.
 */
export function deepFilterInputs(blockModels: readonly ItemTypeRow[], blocks: BlockModels) {
  const byBlock = new Map<string, GraphQLInputObjectType>();
  const blockFilter = (api_key: string, fields: readonly FilterField[]) => {
    let input = byBlock.get(api_key);
    if (input) return input;
    const created: GraphQLInputObjectType = new GraphQLInputObjectType({
      name: `${pascalName(api_key)}BlockFilter`,
      fields: () => {
        const config: GraphQLInputFieldConfigMap = { id: { type: META_FILTERS.id } };
        for (const field of fields) {
          const type = FILTERS[field.field_type as keyof typeof FILTERS];
          if (type) config[camelName(field.api_key)] = { type };
        }
        config.AND = { type: new GraphQLList(created) };
        config.OR = { type: new GraphQLList(created) };
        return config;
      },
    });
    byBlock.set(api_key, created);
    input = created;
    return input;
  };
  const knownBlocks = new Set(blockModels.map((model) => model.api_key));
  return (field: FilterField, ownerApiKey: string): GraphQLInputType | undefined => {
    if (!BLOCK_VALIDATORS[field.field_type] || !field.deep_filtering_enabled) return undefined;
    const accepted = acceptedBlockModels(field, blocks).filter((block) =>
      knownBlocks.has(block.api_key),
    );
    if (accepted.length === 0) return undefined;
    const prefix = `${pascalName(ownerApiKey)}Model${pascalName(field.api_key)}`;
    const any = new GraphQLInputObjectType({
      name: `${prefix}AnyBlockFilter`,
      fields: Object.fromEntries(
        accepted.map((block) => [
          camelName(block.api_key),
          { type: blockFilter(block.api_key, block.fields) },
        ]),
      ),
    });
    const containsAny = new GraphQLInputObjectType({
      name: `${prefix}ContainsAnyFilter`,
      fields: Object.fromEntries(
        accepted.map((block) => [camelName(block.api_key), { type: BooleanType }]),
      ),
    });
    const blockOperators = {
      any: { type: any },
      containsAny: { type: containsAny },
      exists: { type: BooleanType },
    };
    if (field.field_type !== 'structured_text')
      return new GraphQLInputObjectType({ name: `${prefix}DeepFilter`, fields: blockOperators });
    return new GraphQLInputObjectType({
      name: `${prefix}DeepFilter`,
      fields: {
        value: { type: FILTERS.structured_text },
        blocks: {
          type: new GraphQLInputObjectType({
            name: `${prefix}BlocksFilter`,
            fields: blockOperators,
          }),
        },
      },
    });
  };
}
