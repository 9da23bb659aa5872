import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  // Edge functions import npm packages as `npm:name@version` (Deno); unit tests load the same
  // package from node_modules.
  resolve: { alias: [{ find: /^npm:((?:@[^/]+\/)?[^@]+)@.*$/, replacement: '$1' }] },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['tests/unit/setup.ts'],
          // Both cores: Vitest's default leaves one for itself (one file at a time on a 2-core
          // machine, 120 s for the unit tests; 85 s with two).
          maxWorkers: 2,
        },
      },
      {
        // Throwaway databases of their own, no stack (decision 0220).
        extends: true,
        test: {
          name: 'db-schema',
          include: ['tests/db-schema/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/integration/global-setup.ts'],
          setupFiles: ['tests/integration/fast-check-seed.ts'],
          // One throwaway stack is shared; files run one at a time so mail-box and rate-limit
          // assertions do not interfere.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
