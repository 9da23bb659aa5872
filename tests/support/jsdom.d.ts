// jsdom ships no types of its own (and @types/jsdom is not a dependency): the little that tests
// outside the jsdom environment use, a window to parse documents with (DOMParser).
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string, options?: Record<string, unknown>);
    readonly window: Window & typeof globalThis;
  }
}
