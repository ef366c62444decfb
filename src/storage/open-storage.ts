import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';
import type { StorageConfig } from './storage-config.ts';

export function openStorage(config: StorageConfig): Storage {
  return config.kind === 'local' ? new LocalStorage(config.dir) : new S3Storage(config);
}
