// `npm run test:spec-coverage`: the requirements (docs/requirements.md) and their proof agree.
// - Every double-quoted text of docs/requirements.md is in the texts modules (src/texts.ts, src/adminTexts.ts) and referenced by at least
//   one browser test (e2e/*.spec.ts), as the exact string literal or through its `texts.…` key.
//   Comments do not count: the test files are parsed with the TypeScript compiler and only real
//   string literals / property accesses are collected.
// - Every requirement id (REQ-AREA-n) defined there has a row in e2e/SPEC-COVERAGE.md, and every
//   id cited in the repository (coverage table, code, tests, docs) is defined.
// Exits 1 and lists what is missing.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { texts } from '../src/adminTexts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const e2eDir = path.join(root, 'e2e');
const requirementsFile = path.join(root, 'docs', 'requirements.md');
const coverageFile = path.join(e2eDir, 'SPEC-COVERAGE.md');
/** Where requirement ids may be cited (besides the coverage table). */
const CITING_DIRS = ['src', 'e2e', 'tests', 'scripts', 'stack', 'supabase', 'docs', 'bench'];
const CITING_FILE = /\.(ts|tsx|sql|md)$/;

/** The double-quoted texts of a markdown page (a quote may wrap a line), sorted, no duplicates. */
export function quotedTexts(markdown: string): string[] {
  const found = new Set<string>();
  for (const m of markdown.replace(/\s+/g, ' ').matchAll(/"([^"]+)"/g)) found.add(m[1]!.trim());
  return [...found].sort((a, b) => a.localeCompare(b, 'en'));
}

const ID = /\bREQ-[A-Z]+-\d+\b/g;

/** Requirement ids defined by a requirements page: `- **REQ-AREA-n** …` list items. */
export function definedIds(markdown: string): string[] {
  return [...markdown.matchAll(/^- \*\*(REQ-[A-Z]+-\d+)\*\*/gm)].map((m) => m[1]!);
}

/** Requirement ids cited anywhere in a text. */
export function citedIds(text: string): Set<string> {
  return new Set(text.match(ID) ?? []);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && CITING_FILE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => !f.includes(`${path.sep}node_modules${path.sep}`));
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
  const requirements = readFileSync(requirementsFile, 'utf8');
  const specTexts = quotedTexts(requirements);
  const keys = keyPaths(texts);
  const notInApp = specTexts.filter((t) => !keys.has(t));
  const files = readdirSync(e2eDir)
    .filter((f) => f.endsWith('.spec.ts'))
    .sort()
    .map((f) => ({ name: `e2e/${f}`, source: readFileSync(path.join(e2eDir, f), 'utf8') }));
  const result = coverage(specTexts, files);
  const missing = result.filter((r) => r.files.length === 0);

  const defined = definedIds(requirements);
  const definedSet = new Set(defined);
  const duplicates = defined.filter((id, i) => defined.indexOf(id) !== i);
  const inTable = citedIds(readFileSync(coverageFile, 'utf8'));
  const notInTable = defined.filter((id) => !inTable.has(id));
  const unknown: string[] = [];
  for (const dir of CITING_DIRS) {
    for (const file of filesUnder(path.join(root, dir))) {
      if (file === requirementsFile) continue;
      for (const id of citedIds(readFileSync(file, 'utf8')))
        if (!definedSet.has(id)) unknown.push(`${id} in ${path.relative(root, file)}`);
    }
  }

  if (args.includes('--verbose')) {
    for (const r of result)
      console.log(`${r.files.length ? 'ok ' : 'MISSING'} ${r.text}  ${r.files.join(', ')}`);
  }
  const problems: Array<[string, string[]]> = [
    ['Texts of docs/requirements.md missing from src/texts.ts and src/adminTexts.ts', notInApp],
    [
      'Texts of docs/requirements.md not asserted by any browser test (e2e/*.spec.ts)',
      missing.map((m) => m.text),
    ],
    ['Requirement ids defined twice in docs/requirements.md', duplicates],
    ['Requirements without a row in e2e/SPEC-COVERAGE.md', notInTable],
    ['Requirement ids cited but not defined in docs/requirements.md', unknown],
  ];
  let failed = false;
  for (const [title, list] of problems) {
    if (!list.length) continue;
    failed = true;
    console.error(`${title}:\n${list.map((t) => `  - ${t}`).join('\n')}`);
  }
  if (failed) process.exit(1);
  console.log(
    `spec coverage: ${defined.length} requirements, each in e2e/SPEC-COVERAGE.md; all ${specTexts.length} quoted texts are in the texts modules and asserted by e2e tests`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
