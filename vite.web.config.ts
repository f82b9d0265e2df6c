import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The browser build of the renderer, served by `deskpilot serve` (src/main/server).
const root = fileURLToPath(new URL('./src/renderer', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./out/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // No inline <script>/<style>: the pages run under a strict CSP.
    assetsInlineLimit: 0,
  },
});
