import { z } from 'zod';

/**
 * The app's only way into zod. Jitless mode must be set before the first parse: otherwise zod
 * probes `new Function('')` to decide whether it may compile parsers, and although it catches
 * the refusal, the CSP (`script-src 'self'`, no 'unsafe-eval') still reports a violation and
 * Chrome logs it (Lighthouse: Best Practices, "Content security policy" issue). Importing `z`
 * from here guarantees the setting is applied before any schema module runs.
 */
z.config({ jitless: true });

export { z };
