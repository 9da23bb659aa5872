// Writes public/_headers from the one definition in src/host/securityHeaders.ts
// (`npx tsx scripts/write-headers.ts`; tests/unit/security-headers.test.ts checks they agree).
import { writeFileSync } from 'node:fs';
import { headersFileText } from '../src/host/securityHeaders.ts';

writeFileSync(new URL('../public/_headers', import.meta.url), headersFileText());
