/** The realm Composer shows when it asks for credentials (DECISIONS §24). */
export const COMPOSER_REALM = 'Composer repository';
export const PACKAGE_NOT_FOUND = 'Package not found';

/**
 * The Composer repository's module, loaded by the first Composer request of a container (`import()`: a chunk of its
 * own), so the edge's cold start, which serves plugins' license calls, does not parse it.
 */
export const loadComposerRepository = () => import('./composer-repository.js');
