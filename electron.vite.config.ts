import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// The desktop app: main (src/main/electron/main.ts → out/main/index.js, the package's
// "main"), the sandboxed preload (CommonJS, self-contained → out/preload/index.cjs)
// and the renderer (src/renderer → out/renderer).
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: { input: { index: 'src/main/electron/main.ts' } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: 'src/preload/index.ts' },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      assetsInlineLimit: 0,
      rollupOptions: { input: { index: 'src/renderer/index.html' } },
    },
  },
});
