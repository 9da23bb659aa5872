import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Helpers of tests/support that test files must import, not define again.
const SHARED_TEST_HELPERS = [
  'stackEnv',
  'anonClient',
  'serviceClient',
  'clientWithToken',
  'signedInClient',
  'createConfirmedUser',
  'sql',
  'waitForTable',
  'uniqueId',
  'uniqueEmail',
  'uniqueName',
  'uniq',
  'unique',
  'uniqEmail',
  'userClient',
  'sessionFor',
  'useSession',
  'freePort',
  'startHarness',
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      '.stack',
      'coverage',
      'test-results',
      'playwright-report',
      'screenshots',
      'src/lib/infra/database.types.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules: a promise nobody awaits hides its failure. Fire-and-forget is written
    // `void promise`. JSX handlers may return a promise (react-hook-form's handleSubmit does).
    files: ['**/*.{ts,tsx}'],
    ignores: ['supabase/functions/**', 'stack/functions/**'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Layers (decision 0222), each importing only those below it:
  //   src/app (the SPA shell: providers, router, layout)
  //   src/features/* (pages and their parts)  ·  src/host (the web host's function, no React)
  //   src/routing (paths, page meta)  ·  src/lib/ui (pieces the shell and features both show)
  //   src/lib/infra (Supabase, env, network, React/Mantine plumbing)  ·  src/lib/domain (rules)
  //   src/texts.ts, src/adminTexts.ts
  // Features do not reach into each other nor up into the app shell: shared code lives in
  // src/lib, src/routing or src/texts.ts. The one exception is the session (auth/AuthProvider),
  // which the admin area needs. A feature's sub-folders (admin/products, admin/csv, …) are the
  // same feature as their parent.
  ...[
    { files: ['src/features/*/*.{ts,tsx}'], up: '\\.\\./' },
    { files: ['src/features/*/*/**/*.{ts,tsx}'], up: '\\.\\./\\.\\./' },
  ].map(({ files, up }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^${up}(?!auth/AuthProvider$)[\\w-]+/|/features/`,
              message:
                'Import another feature only through auth/AuthProvider; move shared code to src/lib.',
            },
            {
              regex: '^(\\.\\./)+(app|host)/',
              message:
                'Features never import the app shell or the host function: routes and page meta are in src/routing, shared pieces in src/lib (decision 0222).',
            },
          ],
        },
      ],
    },
  })),
  ...[
    { files: ['src/lib/**/*.{ts,tsx}', 'src/routing/**/*.{ts,tsx}'], above: 'app|features|host' },
    { files: ['src/host/**/*.ts'], above: 'app|features' },
  ].map(({ files, above }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${above})/`,
              message: 'A lower layer never imports a higher one (decision 0222).',
            },
          ],
        },
      ],
    },
  })),
  {
    // The store's rules compute; they do not fetch, render or notify. Types may be shared.
    files: ['src/lib/domain/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(\\.\\./)+(infra|ui)/|^(react|react-dom|react-router(-dom)?|react-hook-form)$|^@(mantine|supabase)/',
              allowTypeImports: true,
              message:
                "src/lib/domain holds the store's rules without I/O or UI: the caller passes what they need (decision 0222).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['stack/**', 'scripts/**', 'bench/**', 'tests/**', 'e2e/**', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Test helpers have one home (tests/support): benchmarks and scripts never import the
    // browser tests' folder.
    files: ['bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+e2e/',
              message:
                'Shared test helpers live in tests/support; e2e/ is for the browser tests only.',
            },
          ],
        },
      ],
    },
  },
  {
    // …and no test file defines its own copy of a shared helper (one name, one signature).
    files: ['tests/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    ignores: ['tests/support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'FunctionDeclaration[id.name=/^(SHARED)$/]',
          'VariableDeclarator[id.name=/^(SHARED)$/][init.type=/^(Arrow)?Function/]',
        ].map((selector) => ({
          selector: selector.replace('SHARED', SHARED_TEST_HELPERS.join('|')),
          message: 'This helper is shared: import it from tests/support (stack.ts, names.ts, …).',
        })),
      ],
    },
  },
  {
    // Deno code: edge functions and the local functions router.
    files: ['supabase/functions/**', 'stack/functions/**'],
    languageOptions: { globals: { Deno: 'readonly', ...globals.browser } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
);
