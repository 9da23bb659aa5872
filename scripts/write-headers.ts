// Writes public/_headers from the one definition in scripts/security-headers.ts
// (`npx tsx scripts/write-headers.ts`; tests/unit/security-headers.test.ts checks they agree).
import { writeFileSync } from 'node:fs';
import { headersFileText } from './security-headers.ts';

writeFileSync(new URL('../public/_headers', import.meta.url), headersFileText());
