// ESLint over everything the project runs: the recommended rules of ESLint and typescript-eslint, and the few
// house choices below, each with its reason. Formatting is Prettier's (.prettierrc.json); the layers are
// dependency-cruiser's (.dependency-cruiser.cjs). `npm run lint` runs all three.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', '.tongate/', 'global-configs/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // A leading underscore names what is left unused on purpose: a field taken out of an object before the rest is
      // passed on, a parameter a signature requires.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // The browser console (console/src): a page's globals, and v3's answers read as they come (any shape).
    files: ['console/src/**'],
    languageOptions: { globals: globals.browser },
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests and benches read JSON answers of any shape; their assertions are what checks the shape.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
