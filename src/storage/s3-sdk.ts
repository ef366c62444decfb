import type * as ClientS3 from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type * as Presigner from '@aws-sdk/s3-request-presigner';

/** The three packages of the AWS SDK the S3 storage uses. */
export type S3Sdk = {
  client: typeof ClientS3;
  storage: typeof LibStorage;
  presigner: typeof Presigner;
};

let loading: Promise<S3Sdk> | undefined;

/**
 * The AWS SDK, loaded on first use: it adds some 20 MB of resident memory to a process,
 * which a server keeping its uploads on disk should not pay. Dynamic imports of the
 * packages themselves, which the server's bundle leaves external, keep it out of the start.
 */
export function loadS3Sdk(): Promise<S3Sdk> {
  loading ??= Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]).then(([client, storage, presigner]) => ({ client, storage, presigner }));
  return loading;
}
