import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
      'src/lib/database.types.ts',
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
  // Features do not reach into each other: shared code lives in src/lib, src/app or
  // src/texts.ts. The one exception is the session (auth/AuthProvider), which the admin area needs.
  // A feature's sub-folders (admin/catalogue, admin/csv, …) are the same feature as their parent.
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
          ],
        },
      ],
    },
  })),
  {
    files: ['stack/**', 'scripts/**', 'bench/**', 'tests/**', 'e2e/**', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
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
