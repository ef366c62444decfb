import { after, describe } from 'node:test';
import { startTestS3 } from '../support/s3-server.ts';
import { useTestServer } from '../support/server.ts';
import { uploadBytesTests } from '../support/upload-bytes.ts';

// The deletion of bytes no environment names, on local disk and on S3. These servers'
// workers sweep every 100 ms instead of daily.

const s3 = await startTestS3();
after(async () => {
  await s3.close();
});

describe('local storage', () => {
  uploadBytesTests(useTestServer({ pruneIntervalMs: 100 }));
});

describe('S3 storage', () => {
  uploadBytesTests(useTestServer({ pruneIntervalMs: 100, storage: s3.config }));
});
