import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { loadS3Sdk, type S3Sdk } from './s3-sdk.ts';
import { sizeLimit } from './size-limit.ts';
import { assertSafeKey, type Storage } from './storage.ts';
import type { S3StorageConfig } from './storage-config.ts';

// One part in memory per write: 50 concurrent proxied uploads hold 50 × 5 MB at most.
const PART_BYTES = 5 * 1024 * 1024;

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, R2). Writes through Fieldhouse are
 * multipart uploads that are aborted on failure, so S3 keeps no part of them; with
 * `directUpload` clients PUT straight to the bucket through a presigned URL.
 */
export class S3Storage implements Storage {
  private connecting: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;

  constructor(private readonly config: S3StorageConfig) {}

  /** The SDK and a client, made on first use (the SDK is loaded then: see s3-sdk.ts). */
  private connect(): Promise<{ sdk: S3Sdk; client: S3Client }> {
    this.connecting ??= loadS3Sdk().then((sdk) => ({ sdk, client: this.newClient(sdk) }));
    return this.connecting;
  }

  private newClient(sdk: S3Sdk): S3Client {
    const config = this.config;
    return new sdk.client.S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
      forcePathStyle: config.forcePathStyle,
      // Checksums only where S3 requires them: a presigned PUT must not demand a checksum
      // header the official client does not send, and MinIO and R2 differ in support.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return `${this.config.prefix}${key}`;
  }

  async put(key: string, body: Readable, maxBytes: number): Promise<{ size: number }> {
    const limit = sizeLimit(maxBytes);
    const counted = body.pipe(limit);
    // A source error must reach the upload, which then aborts instead of waiting; the
    // listener is there before the first wait (the SDK's loading), so no error goes unheard.
    body.once('error', (error) => limit.destroy(error));
    const { sdk, client } = await this.connect();
    const upload = new sdk.storage.Upload({
      client,
      params: { Bucket: this.config.bucket, Key: this.objectKey(key), Body: counted },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    await upload.done();
    return { size: limit.bytes };
  }

  async head(key: string): Promise<{ size: number } | null> {
    const { sdk, client } = await this.connect();
    try {
      const found = await client.send(
        new sdk.client.HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
      );
      return { size: found.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const { sdk, client } = await this.connect();
    const found = await client.send(
      new sdk.client.GetObjectCommand({
        Bucket: this.config.bucket,
        Key: this.objectKey(key),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    return found.Body as Readable;
  }

  async withFile<T>(key: string, work: (path: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), 'fieldhouse-object-'));
    try {
      const file = join(dir, 'object');
      await pipeline(await this.read(key), createWriteStream(file));
      return await work(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async delete(key: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.client.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
    );
  }

  async directUploadUrl(key: string, ttlSeconds: number): Promise<string | null> {
    if (!this.config.directUpload) return null;
    // Nothing but the key is signed (no Content-Type): the client sends the type of its
    // local file name, which the URL cannot know.
    const { sdk, client } = await this.connect();
    return sdk.presigner.getSignedUrl(
      client,
      new sdk.client.PutObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
      { expiresIn: ttlSeconds },
    );
  }
}

function isMissing(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
}
