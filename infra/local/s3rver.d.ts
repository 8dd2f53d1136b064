declare module 's3rver' {
  type Options = {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string; configs?: string[] }[];
  };
  type Part = { number: number; etag: string };
  export type FilesystemStore = {
    getResourcePath(bucket: string, key: string | undefined, resourceType: string): string;
    putObjectMultipart(bucket: string, uploadId: string, parts: Part[]): Promise<{ md5: string; size: number }>;
  };
  export default class S3rver {
    constructor(options: Options);
    store: FilesystemStore;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
