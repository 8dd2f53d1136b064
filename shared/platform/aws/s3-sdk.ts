/**
 * The part of S3's SDK the service uses, which it imports (lazily) through this module: a bundle then holds these
 * commands and the schemas they need, where importing the SDK's own module keeps every S3 operation's (esbuild keeps
 * all of a module that `import()` returns). With them, the presigner of upload and export links.
 */
export {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
export { getSignedUrl } from '@aws-sdk/s3-request-presigner';
