import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { LicensingStack, type LicensingStackProps } from '../stack.js';

/** A CloudFormation template, as synthesized. */
export type Template = { Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; [key: string]: unknown }>; [key: string]: unknown };

/**
 * The deployments whose templates a release keeps (`infra/releases/<version>/<name>.template.json`): between them, every
 * optional resource of the stack, with the settings a stage may have. The functions are synthesized without their
 * bundles (`bundle: false`), as their code changes with every release and is updated in place whatever it is.
 */
export const RELEASE_DEPLOYMENTS: Record<string, LicensingStackProps> = {
  /** The default deployment: the front door (CloudFront) with a custom domain, sign-in, alarms by e-mail. */
  'front-door': {
    publicBaseUrl: 'https://licenses.example.com',
    dashboardUrl: 'https://licenses.example.com',
    mailFrom: 'ssm:/licensing/mail-from',
    alarmEmail: 'ops@example.com',
    customDomain: {
      domainName: 'licenses.example.com',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
      hostedZone: { hostedZoneId: 'Z0123456789ABC', zoneName: 'example.com' },
    },
    oauth: {
      google: { clientId: 'ssm:/licensing/google-client-id', clientSecretId: 'licensing/google-client-secret' },
      github: { clientId: 'ssm:/licensing/github-client-id', clientSecretId: 'licensing/github-client-secret' },
    },
  },
  /** Without the front door: the HTTP API under its own custom domain, its certificate made in the stack. */
  'api-only': {
    dashboard: false,
    mailFrom: 'licenses@example.com',
    customDomain: { domainName: 'licenses.example.com', hostedZone: { hostedZoneId: 'Z0123456789ABC', zoneName: 'example.com' } },
  },
};

/** The context of `cdk.json` (feature flags), which `cdk synth` applies and a bare `new App()` does not. */
const CDK_JSON_CONTEXT = (JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> }).context;

/** Resources' `Metadata` (construct paths, cdk-nag's acknowledgements) is for tools; CloudFormation changes nothing by it. */
function withoutMetadata(template: Template): Template {
  const resources = Object.entries(template.Resources).map(([id, { Metadata: _metadata, ...resource }]) => [id, resource]);
  return { ...template, Resources: Object.fromEntries(resources) };
}

/** The template of each release deployment, as the current code synthesizes it (stage `prod`). */
export function synthesizeReleaseTemplates(): Record<string, Template> {
  const outRoot = mkdtempSync(join(tmpdir(), 'release-templates-'));
  try {
    return Object.fromEntries(
      Object.entries(RELEASE_DEPLOYMENTS).map(([name, props]) => {
        const app = new App({ outdir: mkdtempSync(join(outRoot, `${name}-`)), context: CDK_JSON_CONTEXT });
        const stack = new LicensingStack(app, 'LicensingService-prod', { ...props, bundle: false });
        const artifact = app.synth().getStackArtifact(stack.artifactId);
        return [name, withoutMetadata(artifact.template as Template)];
      }),
    );
  } finally {
    rmSync(outRoot, { recursive: true, force: true });
  }
}
