import { after, describe } from 'node:test';
import { assetTests } from '../support/asset-tests.ts';
import { startTestS3 } from '../support/s3-server.ts';
import { useTestServer } from '../support/server.ts';

// Every upload's `url`, served by Fieldhouse from each storage: local disk and S3.

const s3 = await startTestS3();
after(() => s3.close());

describe('local storage', () => {
  assetTests(useTestServer());
});

describe('S3 storage', () => {
  assetTests(useTestServer({ storage: s3.config }));
});
