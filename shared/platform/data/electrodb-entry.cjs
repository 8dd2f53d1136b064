'use strict';
/**
 * What `require('electrodb')` gives the Lambda bundles (infra/constructs/bundle-function.mjs points it here): the parts
 * of ElectroDB the code uses, without its `Service` and the rest of its index, which every function that loads the
 * data model would otherwise parse at cold start (about 20 KB). Run from source (the local runtime, tests), the code
 * imports ElectroDB's own index.
 */
const { Entity } = require('electrodb/src/entity.js');
const { createWriteTransaction } = require('electrodb/src/transaction.js');
const { EntityIdentifierFields } = require('electrodb/src/types.js');

module.exports = { Entity, createWriteTransaction, EntityIdentifierFields };
