import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Takes the place of `@aws-sdk/credential-provider-node` in the Lambda bundles (an esbuild alias, see
 * infra/constructs/bundling.ts). Lambda always hands a function its role's credentials in the environment,
 * so the default chain's other sources (profiles, SSO, web identity, the metadata service, and the STS and
 * SSO clients behind them) never answer there; leaving them out takes about 70 KB off every bundle and their
 * loading off every cold start. Locally the real chain runs, and the local runtime passes credentials anyway.
 */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
