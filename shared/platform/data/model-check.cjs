'use strict';
/**
 * Takes the place of `jsonschema` in the Lambda bundles (an esbuild alias, infra/constructs/bundling.ts): the validator
 * ElectroDB checks each entity's model with when it builds the entity. The models are constants of this code, checked
 * by the real validator whenever the tests build them (test/unit/platform/data-service.test.ts builds every entity into one
 * ElectroDB service); checking them again at every cold start cost 28 KB of code to load and a few milliseconds per
 * entity built. ElectroDB reads only what this answers: no errors. CommonJS, as the module it replaces.
 */
class Validator {
  addSchema() {}
  validate() {
    return { errors: [] };
  }
}
// ElectroDB adds its formats to the prototype's when it loads.
Validator.prototype.customFormats = {};

module.exports = { Validator };
