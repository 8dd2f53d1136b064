/**
 * S3's request presigner, which download links load with the first link a container signs
 * (shared/platform/storage/download-links.ts). Imported only lazily: a static import of the package would let a
 * bundle keep its `getSignedUrl`, and S3's client protocol with it, in every cold start.
 */
export { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
