import { writeFileSync } from 'node:fs';
import { generatedShapesModule } from '../shared/platform/data/direct-request-shapes.js';

/** `npm run generate:direct-requests`: writes the direct requests' shapes as ElectroDB builds them (shared/platform/data/direct-request-shapes.ts). */
const file = new URL('../shared/platform/data/direct-requests.generated.ts', import.meta.url);
writeFileSync(file, generatedShapesModule());
console.log(`wrote ${file.pathname}`);
