import type DataLoader from 'dataloader';
import type { Scope } from '../../db/environment-scope.ts';
import type { ItemsWhere } from '../../domain/items/access/readable-records.ts';
import type { Upload } from '../../domain/uploads/upload.ts';
import type { CacheTagCollector } from '../cache-tags/cache-tags.ts';
import type { ExecutionBudget } from '../limits/execution-budget.ts';
import type { BlockModels } from '../schema/deep-filter-inputs.ts';
import type { UploadReach } from '../uploads/upload-reach.ts';
import type { StoredBlock } from './block-loader.ts';
import type { DeliveryRow } from './rows.ts';

/** What every resolver of one delivery request shares. */
export type DeliveryContext = Readonly<{
  scope: Scope;
  /** `X-Include-Drafts: true`: current versions; else published ones only. */
  drafts: boolean;
  /** `X-Exclude-Invalid: true`: records whose served version is invalid are left out. */
  strict: boolean;
  /** The records the token's role may read; null: all. */
  readable: ItemsWhere | null;
  /** Block models with their fields, for deep filters. */
  blockModels: BlockModels;
  /** The environment's locales, the first the default. */
  locales: readonly string[];
  /** Records by id, loaded in one statement per batch (links). */
  records: DataLoader<string, DeliveryRow | null>;
  /** Tree records' children by parent id, in position order, one statement per level. */
  children: DataLoader<string, DeliveryRow[]>;
  /** Stored blocks by id, loaded in one statement per batch (current versions' blocks). */
  blocks: DataLoader<string, StoredBlock | null>;
  /** Uploads by id, loaded in one statement per batch (file, gallery and SEO images). */
  uploads: DataLoader<string, Upload | null>;
  /** The uploads the token's role may read. */
  uploadReach: UploadReach;
  /** Where uploads are served: an upload's URL is this base and its path. */
  assetsBase: string;
  /**
   * `X-Base-Editing-Url`, with `/environments/<id>` for a sandbox: `_editingUrl` is this
   * and the record's editor path; null without the header.
   */
  editingBase: string | null;
  /** Inverse relationship loaders of this request, by referencing model and arguments. */
  inverse: Map<string, DataLoader<string, unknown>>;
  /** What the response depended on, when `X-Cache-Tags: true` asks; else null. */
  tags: CacheTagCollector | null;
  budget: ExecutionBudget;
}>;

/** A record handed to its type's field resolvers, with the locale it is read in. */
export type DeliveryRecord = Readonly<{
  row: DeliveryRow;
  locale: string;
  fallbackLocales: readonly string[];
}>;
