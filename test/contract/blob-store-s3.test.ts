import { createS3BlobStore } from '../../src/storage/s3-blob-store.js';
import { startS3rver } from '../support/s3rver.js';
import { describeBlobStoreContract } from './blob-store.contract.js';

describeBlobStoreContract('S3 through s3rver', async () => {
  const s3 = await startS3rver();
  const store = createS3BlobStore({ ...s3.credentials, bucket: 'contract-bucket', region: s3.region });
  return { store, close: () => s3.close() };
});
