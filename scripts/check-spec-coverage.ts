// `npm run test:spec-coverage`: every text the product spec quotes (e2e/spec-texts.txt) must be
// referenced by at least one browser test (e2e/*.spec.ts), either as the exact string literal or
// through the `texts.…` key of src/texts.ts that holds it. Comments do not count: the test files
// are parsed with the TypeScript compiler and only real string literals / property accesses are
// collected. Exits 1 and lists the uncovered texts when one is missing.
//
// `--from-spec <product-spec.md>` regenerates e2e/spec-texts.txt from the spec's quoted texts
// (done once; the list is kept in the repository so CI does not need the shared spec folder).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { texts } from '../src/texts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const e2eDir = path.join(root, 'e2e');
const listFile = path.join(e2eDir, 'spec-texts.txt');

/**
 * Quoted strings of the spec that are not user-visible texts: the old document database's
 * collection names (section 3), which no browser can show.
 */
const NOT_UI_TEXTS = new Set(['products', 'catagories']);

/** The double-quoted texts of the spec, sorted and without duplicates. */
export function quotedTexts(markdown: string): string[] {
  const found = new Set<string>();
  for (const m of markdown.matchAll(/"([^"\n]+)"/g)) {
    const text = m[1]!;
    if (!NOT_UI_TEXTS.has(text)) found.add(text);
  }
  return [...found].sort((a, b) => a.localeCompare(b, 'en'));
}

export function readSpecTexts(file = listFile): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** Every string value of a nested texts object, mapped to its key paths (`texts.a.b`). */
export function keyPaths(obj: unknown, prefix = 'texts', out = new Map<string, string[]>()) {
  if (typeof obj === 'string') {
    out.set(obj, [...(out.get(obj) ?? []), prefix]);
  } else if (obj && typeof obj === 'object') {
    for (const [k, v] of Object.entries(obj)) keyPaths(v, `${prefix}.${k}`, out);
  }
  return out;
}

/** String literals and `texts.…` property-access chains in one TypeScript source text. */
export function references(source: string, fileName = 'file.ts') {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const literals = new Set<string>();
  const accesses = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      literals.add(node.text);
    } else if (ts.isPropertyAccessExpression(node)) {
      // Only the outermost chain matters (texts.a.b, not texts.a), but collecting all is harmless:
      // a spec text is a leaf string, so only a full path can ever match it.
      accesses.add(node.getText(sf).replace(/\s+/g, '').replace(/\?\./g, '.'));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { literals, accesses };
}

export interface Coverage {
  text: string;
  files: string[];
}

export function coverage(
  specTexts: string[],
  files: Array<{ name: string; source: string }>,
  textValues: unknown = texts,
): Coverage[] {
  const keys = keyPaths(textValues);
  const refs = files.map((f) => ({ name: f.name, ...references(f.source, f.name) }));
  return specTexts.map((text) => ({
    text,
    files: refs
      .filter((r) => r.literals.has(text) || (keys.get(text) ?? []).some((k) => r.accesses.has(k)))
      .map((r) => r.name),
  }));
}

function main() {
  const args = process.argv.slice(2);
  const specIdx = args.indexOf('--from-spec');
  if (specIdx >= 0) {
    const specFile = args[specIdx + 1];
    if (!specFile) throw new Error('--from-spec needs the path of product-spec.md');
    const list = quotedTexts(readFileSync(specFile, 'utf8'));
    writeFileSync(
      listFile,
      `# Every text the product spec quotes (scripts/check-spec-coverage.ts --from-spec).\n${list.join('\n')}\n`,
    );
    console.log(`wrote ${list.length} texts to ${path.relative(root, listFile)}`);
    return;
  }

  const specTexts = readSpecTexts();
  const keys = keyPaths(texts);
  const notInApp = specTexts.filter((t) => !keys.has(t));
  const files = readdirSync(e2eDir)
    .filter((f) => f.endsWith('.spec.ts'))
    .sort()
    .map((f) => ({ name: `e2e/${f}`, source: readFileSync(path.join(e2eDir, f), 'utf8') }));
  const result = coverage(specTexts, files);
  const missing = result.filter((r) => r.files.length === 0);

  if (args.includes('--verbose')) {
    for (const r of result)
      console.log(`${r.files.length ? 'ok ' : 'MISSING'} ${r.text}  ${r.files.join(', ')}`);
  }
  let failed = false;
  if (notInApp.length) {
    failed = true;
    console.error(
      `Spec texts missing from src/texts.ts:\n${notInApp.map((t) => `  - ${t}`).join('\n')}`,
    );
  }
  if (missing.length) {
    failed = true;
    console.error(
      `Spec texts not asserted by any browser test (e2e/*.spec.ts):\n${missing.map((m) => `  - ${m.text}`).join('\n')}`,
    );
  }
  if (failed) process.exit(1);
  console.log(
    `spec coverage: all ${specTexts.length} quoted texts of the spec are in src/texts.ts and asserted by e2e tests`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
