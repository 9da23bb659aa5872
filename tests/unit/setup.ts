// Adds DOM matchers for component tests that opt into jsdom with
// `// @vitest-environment jsdom`; harmless in node-environment tests.
import '@testing-library/jest-dom/vitest';
