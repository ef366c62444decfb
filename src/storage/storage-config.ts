/** Where upload bytes live: chosen by FIELDHOUSE_STORAGE (see docs/uploads.md's configuration table). */
export type StorageConfig = LocalStorageConfig | S3StorageConfig;

export type LocalStorageConfig = { kind: 'local'; dir: string };

export type S3StorageConfig = {
  kind: 's3';
  bucket: string;
  region: string;
  /** A custom endpoint (MinIO, R2, …); null means AWS. */
  endpoint: string | null;
  /** Null: the SDK's default credential chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
  /** Prepended to every object key, e.g. `fieldhouse/`. */
  prefix: string;
  /** Clients PUT straight to the bucket with a presigned URL, instead of through Fieldhouse. */
  directUpload: boolean;
};
