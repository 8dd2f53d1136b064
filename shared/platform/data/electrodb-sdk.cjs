'use strict';
/**
 * What ElectroDB's `require('@aws-sdk/lib-dynamodb')` and `require('@aws-sdk/util-dynamodb')` give it in a Lambda
 * bundle (infra/constructs/bundle-function.mjs points them here). esbuild can hand an ES module to `require()` only by
 * wrapping it, and every module it imports, in lazy initializers that V8 parses twice; ElectroDB's two requires had the
 * whole AWS SDK wrapped so, about a fifth of every function's cold start. This module is CommonJS and requires
 * nothing, so nothing is wrapped: shared/platform/data/model.ts fills it with the SDK's own exports before any entity exists,
 * and ElectroDB reads them only when it sends a request. Run from source (the local runtime, tests), ElectroDB
 * requires the SDK itself.
 */
module.exports = {
  /** Gives ElectroDB the SDK's document commands and its unmarshaller. */
  provide(commands, marshalling) {
    Object.assign(module.exports, commands, { unmarshall: marshalling.unmarshall });
  },
};
