import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dashboard is served same-origin with the service's `/api` (the local gateway, or CloudFront in AWS), so it
 * calls relative URLs and needs no CORS. `npm run dev` proxies the service's paths to a running `npm start`.
 */
const SERVICE = process.env.SERVICE_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  // One bundle for the whole app: about 130 KB gzip, within the 200 KB budget that the browser test holds it to.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { proxy: { '/api': SERVICE } },
});
