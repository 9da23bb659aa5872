// Vite plugin: Mantine attaches compound parts to its components as static members
// (`Button.Group = ButtonGroup`), and that assignment keeps the parts in the bundle whether or not
// they are used: Button.Group, ActionIcon.Group and their sections, Card.Section put about 1 kB
// gzip on the home page (REQ-WEIGHT-5, decision 0261). The store uses none of them, so a build
// drops those assignments and the bundler leaves the parts out. tests/unit/mantine-members.test.ts
// keeps src from using them (they would be undefined in a build).
import type { Plugin } from 'vite';

/** Component file (under @mantine/core/esm/components) -> the static members dropped from it. */
export const DROPPED_MANTINE_MEMBERS: Record<string, string[]> = {
  'Button/Button.mjs': ['Button.Group', 'Button.GroupSection'],
  'ActionIcon/ActionIcon.mjs': ['ActionIcon.Group', 'ActionIcon.GroupSection'],
  'Card/Card.mjs': ['Card.Section'],
};

export function mantineMembers(): Plugin {
  return {
    name: 'mar-mantine-members',
    apply: 'build',
    transform(code, id) {
      const file = Object.keys(DROPPED_MANTINE_MEMBERS).find((f) =>
        id.replace(/\\/g, '/').endsWith(`/@mantine/core/esm/components/${f}`),
      );
      if (!file) return null;
      let out = code;
      for (const member of DROPPED_MANTINE_MEMBERS[file]) {
        const assignment = new RegExp(`^${member.replace('.', '\\.')} = \\w+;$`, 'm');
        // A Mantine release that no longer assigns it this way: the build says so.
        if (!assignment.test(out)) this.error(`${file}: no "${member} = …;" to drop`);
        out = out.replace(assignment, '');
      }
      return { code: out, map: null };
    },
  };
}
