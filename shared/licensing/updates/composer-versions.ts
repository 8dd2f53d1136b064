/**
 * Versions Composer reads as release versions (its VersionParser: up to four numbers, an optional `v`, a stability
 * suffix such as `-beta2` or `-RC.1`, build metadata). The repository lists no other: one version Composer cannot read
 * would fail the whole package for the customer.
 */
const COMPOSER_VERSION = /^v?\d{1,5}(\.\d+){0,3}([._-]?(stable|beta|b|rc|alpha|a|patch|pl|p)((?:[.-]?\d+)*)?)?([.-]?dev)?(\+[^\s]+)?$/i;

export const isComposerVersion = (version: string) => COMPOSER_VERSION.test(version);
