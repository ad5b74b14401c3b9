import { defineConfig } from 'vitest/config';

/**
 * Timeouts are sized for a loaded 2-core machine (CI), where one test file's CLI runs compete with
 * the others': they catch a hang, they do not measure speed (benchmarks in bench/ do that).
 */
const LOADED_MACHINE_TIMEOUT_MS = 180_000;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    testTimeout: LOADED_MACHINE_TIMEOUT_MS,
    hookTimeout: LOADED_MACHINE_TIMEOUT_MS,
    teardownTimeout: 60_000,
  },
});
