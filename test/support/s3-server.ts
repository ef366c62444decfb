import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../../src/storage/storage-config.ts';

export type TestS3 = { config: S3StorageConfig; close(): Promise<void> };

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * An S3-protocol server on a loopback port (s3rver, files in a temporary folder) with
 * an empty bucket: what `FIELDHOUSE_STORAGE=s3` talks to in the tests.
 */
export async function startTestS3(options: { directUpload?: boolean } = {}): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'fieldhouse-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  const config: S3StorageConfig = {
    kind: 's3',
    bucket: 'fieldhouse-test',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    credentials: CREDENTIALS,
    forcePathStyle: true,
    prefix: 'assets/',
    directUpload: options.directUpload ?? true,
  };
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint ?? undefined,
    credentials: CREDENTIALS,
    forcePathStyle: true,
  });
  await client.send(new CreateBucketCommand({ Bucket: config.bucket }));
  client.destroy();
  return {
    config,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
