import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the two SSM calls the service makes (`GetParameter`, `PutParameter` without overwriting; AWS JSON
 * 1.1) on this machine, reached through `SSM_ENDPOINT`: a parameter not put is answered `ParameterNotFound`, a second
 * put of one `ParameterAlreadyExists`, as SSM answers them. Counts the puts of each parameter.
 */
export async function startFakeSsm() {
  const parameters = new Map<string, string>();
  const puts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = req.headers['x-amz-target'];
      const { Name, Value, Overwrite } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { Name?: string; Value?: string; Overwrite?: boolean };
      const answer = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(body));
      };
      if (!Name) return answer(400, { __type: 'ValidationException', message: 'Name is required' });
      if (target === 'AmazonSSM.GetParameter') {
        const stored = parameters.get(Name);
        if (stored === undefined) return answer(400, { __type: 'ParameterNotFound', message: '' });
        return answer(200, { Parameter: { Name, Type: 'SecureString', Value: stored, Version: 1 } });
      }
      if (target === 'AmazonSSM.PutParameter' && Value !== undefined) {
        puts.set(Name, (puts.get(Name) ?? 0) + 1);
        if (parameters.has(Name) && !Overwrite) return answer(400, { __type: 'ParameterAlreadyExists', message: 'The parameter already exists.' });
        parameters.set(Name, Value);
        return answer(200, { Version: 1, Tier: 'Standard' });
      }
      answer(400, { __type: 'ValidationException', message: 'unsupported' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get: (name: string) => parameters.get(name),
    put: (name: string, value: string) => void parameters.set(name, value),
    puts: (name: string) => puts.get(name) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
