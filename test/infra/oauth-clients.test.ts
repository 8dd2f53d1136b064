import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { readDeploySettings } from '../../infra/settings.js';
import { LicensingStack, type LicensingStackProps } from '../../infra/stack.js';
import { SURFACES } from '../../infra/routes.js';
import { cdkApp } from './support/app.js';
import { statementsOf } from './support/policies.js';

type Resource = { Type: string; Properties: Record<string, any> };

const outRoot = mkdtempSync(join(tmpdir(), 'oauth-clients-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

const GITHUB_SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:licensing/prod/github-client-secret-AbCdEf';

/** Synthesized without esbuild, from context as `bin/app.ts` reads it, as a deployment would be. */
function synth(context: Record<string, string>, props: LicensingStackProps = {}) {
  const settings = readDeploySettings((key) => context[key]);
  const stack = new LicensingStack(cdkApp(mkdtempSync(join(outRoot, 'app-'))), 'LicensingService', { bundle: false, oauth: settings.oauth, ...props });
  const template = Template.fromStack(stack);
  const id = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
  const variablesOf = (surface: (typeof SURFACES)[number]) =>
    (template.toJSON().Resources[id(stack.functions[surface])] as Resource).Properties.Environment.Variables as Record<string, unknown>;
  // Every HTTP function reads the front door's origin secret (test/infra/front-door.test.ts): left out here.
  const originSecret = JSON.stringify({ Ref: stack.getLogicalId(stack.originVerify!.secret.node.defaultChild as CfnElement) });
  const secretsStatementsOf = (surface: (typeof SURFACES)[number]) =>
    statementsOf(stack, template, stack.functions[surface])
      .filter((s) => [s.Action].flat().some((a) => a.startsWith('secretsmanager:')))
      .flatMap((s) => {
        const resources = [s.Resource].flat().filter((resource) => JSON.stringify(resource) !== originSecret);
        return resources.length === 0 ? [] : [{ ...s, Resource: resources.length === 1 ? resources[0] : resources }];
      });
  return { stack, template, variablesOf, secretsStatementsOf };
}

// Synthesized up front: a synthesis can take longer than one test's timeout.
const configured = synth({
  googleClientId: '1234-abc.apps.googleusercontent.com',
  googleClientSecret: 'secretsmanager:licensing/prod/google-client-secret',
  githubClientId: 'ssm:/licensing/prod/github-client-id',
  githubClientSecret: `secretsmanager:${GITHUB_SECRET_ARN}`,
});
const bare = synth({});

const googleSecretArn = {
  'Fn::Join': [
    '',
    ['arn:', { Ref: 'AWS::Partition' }, ':secretsmanager:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':secret:licensing/prod/google-client-secret-??????'],
  ],
};

describe('OAuth clients in the stack', () => {
  it('give management the client ids (as written, or from SSM) and the ids of the secrets, never a secret', () => {
    const variables = configured.variablesOf('management');
    const ssmParameter = Object.entries(configured.template.toJSON().Parameters as Record<string, { Type: string; Default: string }>).find(
      ([, parameter]) => parameter.Default === '/licensing/prod/github-client-id',
    );
    expect(ssmParameter?.[1].Type).toBe('AWS::SSM::Parameter::Value<String>');
    expect(variables).toMatchObject({
      GOOGLE_CLIENT_ID: '1234-abc.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET_ID: 'licensing/prod/google-client-secret',
      GITHUB_CLIENT_ID: { Ref: ssmParameter![0] },
      GITHUB_CLIENT_SECRET_ID: GITHUB_SECRET_ARN,
    });
    for (const surface of SURFACES) {
      const names = Object.keys(configured.variablesOf(surface));
      // The secrets themselves never, and the providers' addresses never: the functions use the providers' own.
      expect(names.filter((name) => /^(GOOGLE|GITHUB)_(CLIENT_SECRET|AUTH_URL|TOKEN_URL|USERINFO_URL|API_URL)$/.test(name))).toEqual([]);
      if (surface !== 'management') expect([surface, names.filter((name) => /^(GOOGLE|GITHUB)_/.test(name))]).toEqual([surface, []]);
    }
  });

  it('let management alone read the two secrets, which the stack references and does not create', () => {
    expect(configured.secretsStatementsOf('management')).toEqual([
      { Effect: 'Allow', Action: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'], Resource: [GITHUB_SECRET_ARN, googleSecretArn] },
    ]);
    for (const surface of SURFACES.filter((s) => s !== 'management')) expect(configured.secretsStatementsOf(surface)).toEqual([]);
    expect(configured.secretsStatementsOf('portal')).toEqual([]);
    // The one secret the stack creates is CloudFront's origin secret (the download-link key is an SSM parameter).
    expect(Object.keys(configured.template.findResources('AWS::SecretsManager::Secret'))).toHaveLength(1);
  });

  it('leave both providers unconfigured (404) when no client is set: no variable, no grant', () => {
    expect(Object.keys(bare.variablesOf('management')).filter((name) => /^(GOOGLE|GITHUB)_/.test(name))).toEqual([]);
    expect(bare.secretsStatementsOf('management')).toEqual([]);
  });

  it('configure one provider without the other', () => {
    const googleOnly = synth({ googleClientId: 'g.apps.googleusercontent.com', googleClientSecret: 'secretsmanager:google' });
    expect(Object.keys(googleOnly.variablesOf('management')).filter((name) => /^(GOOGLE|GITHUB)_/.test(name)).sort()).toEqual([
      'GOOGLE_CLIENT_ID',
      'GOOGLE_CLIENT_SECRET_ID',
    ]);
  });
});

describe('OAuth settings', () => {
  const read = (context: Record<string, string>) => readDeploySettings((key) => context[key]);

  it('read each client id and the Secrets Manager secret of its client secret', () => {
    expect(read({ githubClientId: 'Iv1.abc', githubClientSecret: 'secretsmanager:licensing/github' }).oauth).toEqual({
      github: { clientId: 'Iv1.abc', clientSecretId: 'licensing/github' },
    });
    expect(read({}).oauth).toBeUndefined();
  });

  it('refuse a client secret given as a value rather than a reference, and a malformed reference', () => {
    for (const secret of ['GOCSPX-0123456789abcdefghijkl', 'ssm:/licensing/google-secret', 'secretsmanager:', 'secretsmanager:has spaces']) {
      expect(() => read({ googleClientId: 'g', googleClientSecret: secret })).toThrow(/googleClientSecret must be secretsmanager:<secret name or ARN>.*never the secret itself/);
    }
  });

  it('want a client id and its secret together', () => {
    expect(() => read({ googleClientId: 'g' })).toThrow(/googleClientId and googleClientSecret go together/);
    expect(() => read({ githubClientSecret: 'secretsmanager:github' })).toThrow(/githubClientId and githubClientSecret go together/);
  });
});
