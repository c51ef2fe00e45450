/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The bundle goes straight into the Quarkus module's classpath resources (META-INF/resources), so the
// Maven build packages it with the backend that serves it.
const outDir = fileURLToPath(new URL('../../../target/classes/META-INF/resources', import.meta.url));

export default defineConfig({
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    // `npm run dev` against a running backend on 8080 (same-origin API through the dev proxy).
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    // the Maven build runs these on a 2-core machine next to other builds: 5 s was too tight under load
    testTimeout: 20_000,
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
