import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildStacks } from '../infra/app.js';
import { readDeploySettings } from '../infra/settings.js';

/**
 * The CDK app. Every setting comes from CDK context (`cdk.json` or `-c key=value`; `infra/settings.ts`), never
 * from the shell's environment. Without `account`/`region` the stacks are environment-agnostic: nothing in them
 * looks anything up, so `cdk synth` works offline.
 */
const app = new App();
buildStacks(app, readDeploySettings((key) => app.node.tryGetContext(key)));

// AWS Solutions checks on every synthesis: a finding that is neither fixed nor acknowledged beside its construct,
// with a reason, fails `cdk synth` and `cdk deploy` (test/infra/cdk-nag.test.ts holds the same line).
Aspects.of(app).add(new AwsSolutionsChecks());
