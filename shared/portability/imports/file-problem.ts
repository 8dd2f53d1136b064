/** The file as a whole cannot be read in its format (not CSV, no key column): the import fails with this message. */
export class FileProblem extends Error {}
