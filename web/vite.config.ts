import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const domainRoot = fileURLToPath(new URL('../domain', import.meta.url));
const contractsRoot = fileURLToPath(new URL('../contracts', import.meta.url));
const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: webRoot,
  plugins: [react()],
  resolve: {
    alias: { '@domain': domainRoot, '@contracts': contractsRoot },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    fs: { allow: [webRoot, domainRoot, contractsRoot, fileURLToPath(new URL('../node_modules', import.meta.url))] },
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/uploads': { target: apiTarget, changeOrigin: true },
    },
  },
});
