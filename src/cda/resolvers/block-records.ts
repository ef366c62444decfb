import { isBlockNode } from '../../domain/items/blocks/block-values.ts';
import type { StoredBlock } from './block-loader.ts';
import type { DeliveryContext, DeliveryRecord } from './context.ts';

/**
 * A block as its type's resolvers read it: its own id, model, values and dates; its
 * publication meta fields are its owner's (a block is published with its record).
 */
function blockRecord(block: StoredBlock, owner: DeliveryRecord): DeliveryRecord {
  return {
    row: {
      ...owner.row,
      id: block.id,
      item_type_id: block.item_type_id,
      values: block.values,
      created_at: block.created_at,
      updated_at: block.updated_at,
      publication_scheduled_at: null,
      unpublishing_scheduled_at: null,
      parent_id: null,
      position: null,
    },
    locale: owner.locale,
    fallbackLocales: owner.fallbackLocales,
  };
}

/**
 * The blocks a value names, in order: inline nodes (published versions hold their blocks
 * so) or ids of stored blocks (current versions), the latter loaded in batches.
 */
export async function blockRecords(
  refs: readonly unknown[],
  owner: DeliveryRecord,
  context: DeliveryContext,
): Promise<DeliveryRecord[]> {
  const ids = refs.filter((ref): ref is string => typeof ref === 'string');
  const loaded = await context.blocks.loadMany(ids);
  const stored = new Map(
    loaded.flatMap((block) => (block && !(block instanceof Error) ? [[block.id, block]] : [])),
  );
  return refs.flatMap((ref) => {
    if (isBlockNode(ref))
      return [
        blockRecord(
          {
            ...ref,
            created_at: new Date(ref.created_at),
            updated_at: new Date(ref.updated_at),
          },
          owner,
        ),
      ];
    const block = typeof ref === 'string' ? stored.get(ref) : undefined;
    return block ? [blockRecord(block, owner)] : [];
  });
}
