// Sends S3 and DynamoDB requests through the modules it is given, S3's SDK as shared/platform/aws/s3-sdk.ts exports it and the
// data model (shared/platform/data/model.ts), bundled or not, and prints every request sent and every answer read, as JSON
// (test/infra/bundling.test.ts compares a bundle's with the source's). No request leaves the process: a request
// handler records each one and answers it with the next canned answer.
// Usage: node --import tsx sdk-probe.mjs <S3 SDK module URL> <data model module URL> <@aws-sdk/client-dynamodb URL>
import { Readable } from 'node:stream';

const [s3Url, modelUrl, dynamoDbUrl] = process.argv.slice(2);
const [sdk, model, { DynamoDBClient }] = await Promise.all([import(s3Url), import(modelUrl), import(dynamoDbUrl)]);

/** Headers that differ from one request to the next whatever sent it: the time, the signature, ids, the SDK's agent. */
const VARYING = /^(authorization|x-amz-date|amz-sdk-invocation-id|amz-sdk-request|user-agent|x-amz-user-agent|x-amz-content-sha256)$/;

const xmlError = (code) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>probe</Message><RequestId>r</RequestId></Error>`;
const licenseItem = {
  pk: { S: '$licensing#licensekey_key-aaaa' },
  sk: { S: '$license_1' },
  licenseKey: { S: 'KEY-AAAA' },
  licenseId: { S: 'lic_1' },
  tenantId: { S: 'ten_1' },
  seats: { N: '3' },
  status: { S: 'active' },
  __edb_e__: { S: 'license' },
  __edb_v__: { S: '1' },
};
const ANSWERS = [
  { statusCode: 200, headers: { etag: '"e1"', 'x-amz-version-id': 'v1' }, body: '' },
  {
    statusCode: 200,
    headers: { 'content-type': 'application/zip', 'content-length': '5', etag: '"e1"', 'last-modified': 'Wed, 25 Nov 2026 10:00:00 GMT', 'x-amz-meta-release': 'r1' },
    body: 'hello',
  },
  { statusCode: 404, headers: { 'content-type': 'application/xml' }, body: xmlError('NoSuchKey') },
  { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: JSON.stringify({ Item: licenseItem }) },
  { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: JSON.stringify({ Items: [licenseItem], Count: 1, ScannedCount: 1 }) },
  {
    statusCode: 400,
    headers: { 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'The conditional request failed' }),
  },
];

const requests = [];
const bodyText = async (body) => {
  if (body === undefined || typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  const chunks = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
};
const requestHandler = {
  async handle(request) {
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !VARYING.test(name.toLowerCase())));
    requests.push({ method: request.method, hostname: request.hostname, path: request.path, query: request.query, headers, body: await bodyText(request.body) });
    const { statusCode, headers: answerHeaders, body } = ANSWERS[requests.length - 1];
    return { response: { statusCode, headers: answerHeaders, body: Readable.from([Buffer.from(body)]) } };
  },
};

const answers = [];
const record = async (send) => {
  try {
    const answer = await send();
    const { $metadata, Body, ...rest } = answer ?? {};
    answers.push({ ...rest, ...(Body ? { body: await Body.transformToString() } : {}), status: $metadata?.httpStatusCode });
  } catch (error) {
    const cause = error.cause ?? error;
    answers.push({ error: cause.name, status: cause.$metadata?.httpStatusCode, message: cause.message });
  }
};

const s3 = new sdk.S3Client({ region: 'us-east-1', requestHandler });
await record(() => s3.send(new sdk.PutObjectCommand({ Bucket: 'releases', Key: 'p/1.0.0.zip', Body: 'hello', ContentType: 'application/zip', Metadata: { release: 'r1' } })));
await record(() => s3.send(new sdk.GetObjectCommand({ Bucket: 'releases', Key: 'p/1.0.0.zip' })));
await record(() => s3.send(new sdk.GetObjectCommand({ Bucket: 'releases', Key: 'missing.zip' })));

const license = model.ENTITY_FACTORIES.license();
license.setClient(model.documentClient(new DynamoDBClient({ region: 'us-east-1', requestHandler })));
license.setTableName('table');
await record(() => license.get({ licenseKey: 'KEY-AAAA' }).go());
await record(() => license.query.byTenant({ tenantId: 'ten_1' }).go({ limit: 10 }));
await record(() => license.patch({ licenseKey: 'KEY-AAAA' }).set({ seats: 4 }).go());

process.stdout.write(JSON.stringify({ requests, answers }));
