// Set-up for every unit test file: DOM matchers (harmless in node-environment tests) and, in the
// files that opt into jsdom (`// @vitest-environment jsdom`), the browser APIs jsdom lacks but
// Mantine and the app use, installed fresh before each test. Rendering helpers: render.tsx.
import '@testing-library/jest-dom/vitest';
import { beforeEach } from 'vitest';

/** A matchMedia that matches nothing: light colour scheme, no reduced motion, a wide screen. */
function matchNothing(query: string): MediaQueryList {
  return {
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  };
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}

function installDomStubs(): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: matchNothing,
  });
  if (!('ResizeObserver' in window)) {
    Object.defineProperty(window, 'ResizeObserver', {
      configurable: true,
      value: ResizeObserverStub,
    });
  }
  // Forms scroll into view when an editor opens.
  Element.prototype.scrollIntoView ??= () => {};
  // Mantine's autosize textarea listens to the FontFaceSet.
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
    });
  }
}

if (typeof window !== 'undefined') {
  beforeEach(installDomStubs);
  // Two files run at once on a 2-core machine: a step that takes 0.6 s alone can take over
  // the default 1 s there. A wait that succeeds still returns at once.
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 5_000 });
}
