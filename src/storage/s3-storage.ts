import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
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
  private readonly client: S3Client;

  constructor(private readonly config: S3StorageConfig) {
    this.client = new S3Client({
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
    // A source error must reach the upload, which then aborts instead of waiting.
    body.once('error', (error) => limit.destroy(error));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: this.objectKey(key), Body: counted },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    await upload.done();
    return { size: limit.bytes };
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const found = await this.client.send(
        new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
      );
      return { size: found.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const found = await this.client.send(
      new GetObjectCommand({
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
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
    );
  }

  async directUploadUrl(key: string, ttlSeconds: number): Promise<string | null> {
    if (!this.config.directUpload) return null;
    // Nothing but the key is signed (no Content-Type): the client sends the type of its
    // local file name, which the URL cannot know.
    return getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
      { expiresIn: ttlSeconds },
    );
  }
}

function isMissing(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
}
