// The project's own lint config: typescript-eslint for everything, and
// eslint-plugin-eslint-plugin for the rules we ship.
import js from '@eslint/js';
import eslintPlugin from 'eslint-plugin-eslint-plugin';
import tseslint from 'typescript-eslint';

/** The Node globals our .mjs files use (no extra dependency for the full list). */
const NODE_GLOBALS = Object.fromEntries(
  [
    'AbortController',
    'Buffer',
    'TextDecoder',
    'TextEncoder',
    'URL',
    'URLSearchParams',
    'clearInterval',
    'clearTimeout',
    'console',
    'fetch',
    'performance',
    'process',
    'queueMicrotask',
    'setImmediate',
    'setInterval',
    'setTimeout',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/**', '.cache/**', 'node_modules/**', 'examples/**', 'tests/**/fixtures/**', 'tests/types/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/rules/**/*.ts'],
    ...eslintPlugin.configs.recommended,
  },
  {
    // Scripts, benches and demos run on Node; TypeScript files get their
    // globals from @types/node instead (typescript-eslint turns no-undef off there).
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: NODE_GLOBALS },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
