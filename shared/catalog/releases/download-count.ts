import { writeItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';

/**
 * Counts one download of a release, on condition that it is still published: false when it was unpublished or
 * deleted since it was read (the caller answers 404 and serves nothing).
 */
export async function countDownload(deps: Pick<Deps, 'data'>, releaseId: string): Promise<boolean> {
  const counted = await writeItem(() =>
    deps.data.entities.release
      .patch({ releaseId })
      .add({ downloadCount: 1 })
      .where(({ status }, { eq }) => eq(status, 'published'))
      .go({ response: 'none' }),
  );
  return counted.written;
}
