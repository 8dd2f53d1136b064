import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { HttpRequest } from '@smithy/core/protocols';
import { Hash } from '@smithy/core/serde';
import { LOCAL_CREDENTIALS } from '../../shared/platform/clients.js';

/** `20260601T120000Z` as S3 writes `X-Amz-Date`. */
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/**
 * What S3 decides about a presigned GET before serving it: the signature must be the one the local key makes for
 * this method, host, path and query, and the URL must not have expired. The S3 stand-in checks neither for
 * Signature V4 (it only looks the key up), so without this a changed link would download locally and not in AWS.
 */
export async function presignedUrlProblem(request: { method: string; host: URL; path: string; query: URLSearchParams }, now = new Date()): Promise<string | undefined> {
  const { query } = request;
  const given = query.get('X-Amz-Signature');
  const date = AMZ_DATE.exec(query.get('X-Amz-Date') ?? '');
  const expires = Number(query.get('X-Amz-Expires'));
  const [, , region] = (query.get('X-Amz-Credential') ?? '').split('/');
  if (!given || !date || !Number.isInteger(expires) || !region) return 'AuthorizationQueryParametersError';
  const signingDate = new Date(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!, +date[4]!, +date[5]!, +date[6]!));
  if (now.getTime() > signingDate.getTime() + expires * 1000) return 'Request has expired';

  const unsigned = Object.fromEntries([...query].filter(([name]) => !name.startsWith('X-Amz-')));
  const presigner = new S3RequestPresigner({ credentials: LOCAL_CREDENTIALS, region, sha256: Hash.bind(null, 'sha256') });
  const expected = await presigner.presign(
    new HttpRequest({
      method: request.method,
      protocol: request.host.protocol,
      hostname: request.host.hostname,
      ...(request.host.port ? { port: Number(request.host.port) } : {}),
      path: request.path,
      query: unsigned,
      headers: {},
    }),
    { signingDate, expiresIn: expires },
  );
  return expected.query?.['X-Amz-Signature'] === given ? undefined : 'SignatureDoesNotMatch';
}
