// REQ-WEIGHT-5: the build drops Mantine's compound members the store does not use
// (scripts/vite-plugins/mantine-members.ts, decision 0261). Here: the plugin really drops them
// from Mantine's files, and src uses none of them (they would be undefined in a build).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DROPPED_MANTINE_MEMBERS,
  mantineMembers,
} from '../../scripts/vite-plugins/mantine-members';

const root = path.resolve(import.meta.dirname, '../..');
const components = path.join(root, 'node_modules/@mantine/core/esm/components');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

type Transform = (this: { error: (m: string) => never }, code: string, id: string) => unknown;

describe('REQ-WEIGHT-5 Mantine members the build drops', () => {
  it('the plugin removes each listed assignment from Mantine’s component file', () => {
    const transform = mantineMembers().transform as Transform;
    const context = {
      error: (message: string): never => {
        throw new Error(message);
      },
    };
    for (const [file, members] of Object.entries(DROPPED_MANTINE_MEMBERS)) {
      const id = path.join(components, file);
      const code = readFileSync(id, 'utf8');
      const out = (transform.call(context, code, id) as { code: string }).code;
      for (const member of members) {
        expect(code).toMatch(new RegExp(`^${member.replace('.', '\\.')} = `, 'm'));
        expect(out).not.toMatch(new RegExp(`^${member.replace('.', '\\.')} = `, 'm'));
      }
      // The component itself stays.
      expect(out).toContain(`${members[0].split('.')[0]}.displayName`);
    }
  });

  it('src uses none of them', () => {
    const members = Object.values(DROPPED_MANTINE_MEMBERS).flat();
    const used = sourceFiles(path.join(root, 'src')).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return members
        .filter((m) => new RegExp(`\\b${m.replace('.', '\\.')}\\b`).test(text))
        .map((m) => `${path.relative(root, file)}: ${m}`);
    });
    expect(used).toEqual([]);
  });
});
