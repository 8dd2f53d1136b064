import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { CoreConfig } from '../config.js';
import { awsClientOptions } from '../clients.js';
import { ForbiddenError } from '../errors.js';
import { metrics } from '../observability/metrics.js';
import { header } from './request.js';
import type { HttpEvent, HttpResult } from './types.js';

export const NOT_THROUGH_FRONT_DOOR = "Requests must come through the service's public address";

/** The header the front door (CloudFront) adds to every request it passes to the API. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/**
 * How long a container trusts what it read: a value dropped from the secret (a rotation's previous one) stops being
 * accepted within this long. The read is two Secrets Manager calls, so once an hour per container costs next to nothing.
 */
export const ORIGIN_SECRET_MAX_AGE_MS = 60 * 60 * 1000;
/**
 * A value the container does not know makes it read the secret again, at most this often: after a rotation the front
 * door's new value is known at its first request; a caller guessing values costs one read per interval at most.
 */
export const ORIGIN_SECRET_REREAD_MS = 30 * 1000;

/** Where the values are kept: the value the front door sends now, and the one it sent before the last rotation. */
export type OriginSecretSource = { current(): Promise<string>; previous(): Promise<string | undefined> };

/**
 * The front door's secret as the HTTP functions check it. In AWS it is the stack's Secrets Manager secret, read at
 * run time (never an environment variable, where every reader of the function's configuration would see it):
 * its `AWSCURRENT` version is what CloudFront sends, and during a rotation `AWSPREVIOUS` is accepted too, so that no
 * request is refused while CloudFront's edges move from one to the other (docs/deploy.md, "Rotating the origin secret").
 */
export type OriginSecret = {
  /** Whether `presented` is a value the front door sends, or sent before the last rotation; reads the secret if needed. */
  accepts(presented: string | undefined): Promise<boolean>;
  /** The same by what was last read, without reading: for a request `accepts` has let in already. */
  knows(presented: string | undefined): boolean;
};

export function originSecret(source: OriginSecretSource, clock: () => number = Date.now): OriginSecret {
  type Values = { current: string; previous?: string | null; readAt: number };
  let values: Values | undefined;
  let rereadAt = Number.NEGATIVE_INFINITY;
  const readCurrent = async () => {
    values = { current: await source.current(), readAt: clock() };
    return values;
  };
  const readPrevious = async (known: Values) => {
    // `null`: read, and there is none (no rotation yet, or its previous value dropped).
    if (known.previous === undefined) known.previous = (await source.previous()) ?? null;
    return known;
  };
  const matches = (known: Values | undefined, presented: string) =>
    known !== undefined && (sameSecret(presented, known.current) || (typeof known.previous === 'string' && sameSecret(presented, known.previous)));

  return {
    knows: (presented) => presented !== undefined && matches(values, presented),
    async accepts(presented) {
      if (!presented) return false;
      let known = values && clock() - values.readAt < ORIGIN_SECRET_MAX_AGE_MS ? values : await readCurrent();
      if (sameSecret(presented, known.current)) return true;
      if (matches(await readPrevious(known), presented)) return true;
      if (clock() - rereadAt < ORIGIN_SECRET_REREAD_MS) return false;
      rereadAt = clock();
      known = await readPrevious(await readCurrent());
      return matches(known, presented);
    },
  };
}

/** Digests are of equal length, so the comparison takes the same time whatever was presented. */
function sameSecret(presented: string, value: string): boolean {
  return timingSafeEqual(sha256(presented), sha256(value));
}
const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The settings that say where the secret is: the value itself locally (`ORIGIN_VERIFY_TOKEN`), its secret in AWS. */
export type OriginSecretConfig = Pick<CoreConfig, 'originVerifyToken'> & Partial<Pick<CoreConfig, 'originVerifySecretArn' | 'region' | 'endpoints'>>;

/** One per configuration, so one per container: what it read is shared by the middleware and `clientAddress`. */
const secrets = new WeakMap<OriginSecretConfig, OriginSecret | undefined>();

/** The front door's secret of a function, or `undefined` without a front door (`dashboard=false`, or none given locally). */
export function originSecretOf(config: OriginSecretConfig): OriginSecret | undefined {
  if (!secrets.has(config)) secrets.set(config, fromConfig(config));
  return secrets.get(config);
}

function fromConfig(config: OriginSecretConfig): OriginSecret | undefined {
  const { originVerifyToken: token, originVerifySecretArn: secretId } = config;
  if (token) {
    const knows = (presented: string | undefined) => presented !== undefined && sameSecret(presented, token);
    return { knows, accepts: async (presented) => knows(presented) };
  }
  if (!secretId) return undefined;
  let client: InstanceType<Awaited<typeof import('../aws/secrets-manager-sdk.js')>['SecretsManagerClient']> | undefined;
  const read = async (stage: 'AWSCURRENT' | 'AWSPREVIOUS'): Promise<string | undefined> => {
    // Imported on the first request, so the module costs a cold start nothing.
    const { SecretsManagerClient, GetSecretValueCommand } = await import('../aws/secrets-manager-sdk.js');
    client ??= new SecretsManagerClient(awsClientOptions({ region: config.region ?? 'us-east-1' }, config.endpoints?.secretsManager));
    try {
      const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId, VersionStage: stage }));
      return SecretString?.trim() || undefined;
    } catch (error) {
      // A secret never rotated has no AWSPREVIOUS version.
      if (stage === 'AWSPREVIOUS' && (error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  };
  return originSecret({
    current: async () => {
      const value = await read('AWSCURRENT');
      if (!value) throw new Error('ORIGIN_VERIFY_SECRET_ARN: the front door’s secret is empty');
      return value;
    },
    previous: () => read('AWSPREVIOUS'),
  });
}

/** The configuration of a function that reads no other setting (the reference docs), from its environment. */
export function originSecretConfigOf(env: NodeJS.ProcessEnv = process.env): OriginSecretConfig {
  return {
    originVerifyToken: env.ORIGIN_VERIFY_TOKEN || undefined,
    originVerifySecretArn: env.ORIGIN_VERIFY_SECRET_ARN || undefined,
    region: env.AWS_REGION || undefined,
    endpoints: { secretsManager: env.SECRETS_MANAGER_ENDPOINT || undefined },
  };
}

/**
 * With a front door (CloudFront) in AWS, every request it forwards carries its secret `x-origin-verify` header; one
 * without it came around the front door (the execute-api address), past its firewall and its links, and is refused
 * and counted (`FrontDoorRefusals`, alarmed: docs/observability.md). Without a front door (`dashboard=false`, or the
 * local runtime given no secret) every request passes.
 */
export function frontDoorOnly(secret: OriginSecret | undefined): MiddlewareObj<HttpEvent, HttpResult> {
  return {
    before: async (request) => {
      if (!secret || (await secret.accepts(header(request.event, ORIGIN_VERIFY_HEADER)))) return;
      metrics.frontDoorRefusal();
      throw new ForbiddenError(NOT_THROUGH_FRONT_DOOR);
    },
  };
}
