import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the one Secrets Manager call the service makes (`GetSecretValue`, AWS JSON 1.1), on this machine:
 * what the functions read in AWS through `*_CLIENT_SECRET_ID`, reached through `SECRETS_MANAGER_ENDPOINT`. A secret
 * not put is answered as Secrets Manager answers an unknown one. Counts the reads of each secret.
 */
export async function startFakeSecretsManager() {
  const secrets = new Map<string, string>();
  const reads = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = req.headers['x-amz-target'];
      const { SecretId } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { SecretId?: string };
      const answer = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(body));
      };
      if (target !== 'secretsmanager.GetSecretValue' || !SecretId) return answer(400, { __type: 'InvalidRequestException', message: 'unsupported' });
      reads.set(SecretId, (reads.get(SecretId) ?? 0) + 1);
      const value = secrets.get(SecretId);
      if (value === undefined) return answer(400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
      answer(200, { ARN: `arn:aws:secretsmanager:us-east-1:123456789012:secret:${SecretId}-AbCdEf`, Name: SecretId, SecretString: value, VersionId: 'v1', VersionStages: ['AWSCURRENT'] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    put: (secretId: string, value: string) => void secrets.set(secretId, value),
    reads: (secretId: string) => reads.get(secretId) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
