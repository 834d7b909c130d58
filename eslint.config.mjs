import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-local/',
      'dist-local-gmail/',
      'node_modules/',
      'coverage/',
      'test-output/',
      'bench-results/',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    languageOptions: { globals: { ...globals.es2021 } },
  },
  {
    // Small modules and functions (the developers' guide), counted without blank lines and comments.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 600, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs', 'test/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.jest }, sourceType: 'commonjs' },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
  {
    // Client scripts inside sidebars/dialogs run in the browser.
    files: ['src/ui/**/*.js', 'dev/playground/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser, google: 'readonly' }, sourceType: 'script' },
  },
);
