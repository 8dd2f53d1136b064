/**
 * The Composer repository's module, loaded by the first Composer request of a container (`import()`: a chunk of its
 * own), so the edge's cold start, which serves plugins' license calls, does not parse it.
 */
export const loadComposerRepository = () => import('./composer-repository.js');
