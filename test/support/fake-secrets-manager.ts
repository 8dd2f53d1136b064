import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Stage = 'AWSCURRENT' | 'AWSPREVIOUS';

/**
 * A stand-in for the one Secrets Manager call the service makes (`GetSecretValue`, AWS JSON 1.1, by `VersionStage`), on
 * this machine: what the functions read in AWS through `*_CLIENT_SECRET_ID` and `ORIGIN_VERIFY_SECRET_ARN`, reached
 * through `SECRETS_MANAGER_ENDPOINT`. `put` is `PutSecretValue`: the new value becomes `AWSCURRENT` and the one it
 * replaces `AWSPREVIOUS`; `dropPrevious` takes that label away, as `UpdateSecretVersionStage` does. A secret or stage
 * not there is answered as Secrets Manager answers one. Counts the reads of each secret.
 */
export async function startFakeSecretsManager() {
  const secrets = new Map<string, Partial<Record<Stage, string>>>();
  const reads = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = req.headers['x-amz-target'];
      const { SecretId, VersionStage } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { SecretId?: string; VersionStage?: string };
      const answer = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(body));
      };
      if (target !== 'secretsmanager.GetSecretValue' || !SecretId) return answer(400, { __type: 'InvalidRequestException', message: 'unsupported' });
      reads.set(SecretId, (reads.get(SecretId) ?? 0) + 1);
      const stage = (VersionStage ?? 'AWSCURRENT') as Stage;
      const value = secrets.get(SecretId)?.[stage];
      if (!secrets.has(SecretId)) return answer(400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
      if (value === undefined) {
        return answer(400, { __type: 'ResourceNotFoundException', message: `Secrets Manager can't find the specified secret value for staging label: ${stage}` });
      }
      answer(200, { ARN: `arn:aws:secretsmanager:us-east-1:123456789012:secret:${SecretId}-AbCdEf`, Name: SecretId, SecretString: value, VersionId: 'v1', VersionStages: [stage] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    put: (secretId: string, value: string) => void secrets.set(secretId, { AWSCURRENT: value, AWSPREVIOUS: secrets.get(secretId)?.AWSCURRENT }),
    dropPrevious: (secretId: string) => void secrets.set(secretId, { AWSCURRENT: secrets.get(secretId)?.AWSCURRENT }),
    reads: (secretId: string) => reads.get(secretId) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
