/**
 * The operations of an ElectroDB `where` callback that shared conditions use. ElectroDB types each
 * callback's attributes per entity and per operation; a condition written once for a put and its
 * transaction twin takes them as this.
 */
export type ConditionOperations = {
  // ElectroDB's attribute references are opaque objects of per-entity types.
  eq: (attribute: any, value: unknown) => string;
  notExists: (attribute: any) => string;
};
