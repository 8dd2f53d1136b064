import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { LicensingStack, type LicensingStackProps } from '../../infra/stack.js';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

const outRoot = mkdtempSync(join(tmpdir(), 'licensing-bucket-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

function synth(props: LicensingStackProps = {}) {
  const stack = new LicensingStack(cdkApp(mkdtempSync(join(outRoot, 'app-'))), 'LicensingService', { bundle: false, ...props });
  const template = Template.fromStack(stack);
  const bucketId = stack.getLogicalId(stack.releaseBucket.bucket.node.defaultChild as CfnElement);
  const bucket = template.toJSON().Resources[bucketId] as Resource;
  return { stack, template, bucketId, bucket };
}

const { stack, template, bucketId, bucket } = synth({ dashboardUrl: 'https://dashboard.example.com/app' });
// Synthesized here rather than in a test, whose timeout a busy machine can exceed.
const bare = synth();
const bucketArn = { 'Fn::GetAtt': [bucketId, 'Arn'] };
const objectsArn = { 'Fn::Join': ['', [bucketArn, '/*']] };

/** Every statement of the policies attached to a function's role. */
function statementsOf(fnConstruct: (typeof stack.functions)[keyof typeof stack.functions]) {
  const roleId = stack.getLogicalId(fnConstruct.role!.node.defaultChild as CfnElement);
  const policies = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } })) as Resource[];
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
}
const actionsOn = (statements: ReturnType<typeof statementsOf>, prefix: string) =>
  statements.flatMap((s) => [s.Action].flat()).filter((action) => action.startsWith(prefix));

describe('release bucket', () => {
  it('is private: public access blocked, S3-managed encryption, owner-enforced objects, retained', () => {
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    // Retained on the stack's deletion and on a replacement, not by a failed first deployment's rollback.
    expect([bucket.DeletionPolicy, bucket.UpdateReplacePolicy]).toEqual(['RetainExceptOnCreate', 'Retain']);
  });

  it('refuses any request without TLS', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it("allows presigned PUT and GET from the dashboard's origins: dashboardUrl's and the front door's, which serves one too", () => {
    const origins = (props: LicensingStackProps) => synth(props).bucket.Properties.CorsConfiguration.CorsRules[0].AllowedOrigins;
    expect(bucket.Properties.CorsConfiguration.CorsRules).toEqual([
      // The front door's *.cloudfront.net name depends on the bucket (its origin), so the bucket cannot name it.
      expect.objectContaining({ AllowedMethods: ['PUT', 'GET', 'HEAD'], AllowedOrigins: ['*'], AllowedHeaders: ['*'] }),
    ]);
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
    expect(origins({ dashboardUrl: 'https://app.example.com', customDomain: { domainName: 'licenses.example.com', certificateArn } })).toEqual([
      'https://app.example.com',
      'https://licenses.example.com',
    ]);
    expect(origins({ dashboardUrl: 'https://app.example.com/', dashboard: false })).toEqual(['https://app.example.com']);
  });

  it('allows any origin without a dashboard, since only a presigned URL grants access', () => {
    expect(bare.bucket.Properties.CorsConfiguration.CorsRules[0].AllowedOrigins).toEqual(['*']);
  });

  it('warns that dashboardUrl beside the front door is for a dashboard hosted elsewhere', () => {
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('dashboardUrl https://dashboard.example.com/app is where sign-ins land'));
    Annotations.fromStack(bare.stack).hasNoWarning('*', Match.stringLikeRegexp('dashboardUrl'));
  });

  it('aborts incomplete multipart uploads after a day', () => {
    expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    );
  });

  it('keeps versions, and expires replaced or deleted ones after 30 days', () => {
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: 30 } }),
    );
  });

  it('logs its requests to a private access log bucket that keeps them 90 days', () => {
    const logBucketId = stack.getLogicalId(stack.releaseBucket.accessLogBucket.node.defaultChild as CfnElement);
    // The release bucket, its access log bucket, and the dashboard's bucket (which logs there too).
    // The release bucket, its access log bucket, the dashboard's and the export bucket (test/infra/account-exports.test.ts).
    template.resourceCountIs('AWS::S3::Bucket', 4);
    expect(bucket.Properties.LoggingConfiguration).toEqual({ DestinationBucketName: { Ref: logBucketId }, LogFilePrefix: 'release-files/' });
    const logBucket = template.toJSON().Resources[logBucketId] as Resource;
    expect(logBucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LifecycleConfiguration: { Rules: [expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 90 })] },
    });
    expect([logBucket.DeletionPolicy, logBucket.UpdateReplacePolicy]).toEqual(['RetainExceptOnCreate', 'Retain']);
    // The S3 logging service writes by bucket policy (no ACLs), over TLS only.
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logBucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'logging.s3.amazonaws.com' }, Action: 's3:PutObject' }),
        ]),
      },
    });
  });
});

describe('bindBucket', () => {
  it('gives the management function read and put on the bucket, never delete, and BUCKET_NAME', () => {
    const fn = template.toJSON().Resources[stack.getLogicalId(stack.functions.management.node.defaultChild as CfnElement)] as Resource;
    expect(fn.Properties.Environment.Variables.BUCKET_NAME).toEqual({ Ref: bucketId });
    // Its grants on the export bucket are test/infra/account-exports.test.ts's.
    const exportBucketId = stack.getLogicalId(stack.accountExports.bucket.node.defaultChild as CfnElement);
    const statements = statementsOf(stack.functions.management)
      .map((s) => ({ ...s, Resource: [s.Resource].flat().filter((r) => !JSON.stringify(r).includes(exportBucketId)) }))
      .filter((s) => s.Resource.length > 0);
    const s3Actions = actionsOn(statements, 's3:');
    expect(s3Actions).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:List*', 's3:PutObject']));
    expect(s3Actions.some((action) => action.startsWith('s3:Delete'))).toBe(false);
    for (const statement of statements.filter((s) => actionsOn([s], 's3:').length > 0)) {
      const resources = [statement.Resource].flat();
      expect(resources).toContainEqual(objectsArn);
      expect(resources.every((r) => JSON.stringify(r).includes(bucketId))).toBe(true);
    }
  });

  it('gives functions without a bucket setting neither access nor the variable', () => {
    for (const [surface, fnConstruct] of Object.entries(stack.functions)) {
      if (surface === 'management') continue;
      const fn = template.toJSON().Resources[stack.getLogicalId(fnConstruct.node.defaultChild as CfnElement)] as Resource;
      const hasVariable = 'BUCKET_NAME' in fn.Properties.Environment.Variables;
      expect(actionsOn(statementsOf(fnConstruct), 's3:').length > 0).toBe(hasVariable);
    }
  });
});
