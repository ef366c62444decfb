import { after, describe } from 'node:test';
import { startTestS3 } from '../support/s3-server.ts';
import { useTestServer } from '../support/server.ts';
import { uploadFlowTests } from '../support/upload-flow.ts';

// The official client's upload helpers on each storage: local disk (the default), S3
// with presigned PUTs to the bucket, and S3 with the bytes sent through Fieldhouse.

const direct = await startTestS3();
const proxied = await startTestS3({ directUpload: false });
after(async () => {
  await direct.close();
  await proxied.close();
});

describe('local storage', () => {
  uploadFlowTests(useTestServer());
});

describe('S3 storage, direct upload', () => {
  uploadFlowTests(useTestServer({ storage: direct.config }));
});

describe('S3 storage, upload through Fieldhouse', () => {
  uploadFlowTests(useTestServer({ storage: proxied.config }));
});
