// The project's own lint config: typescript-eslint for everything, and
// eslint-plugin-eslint-plugin for the rules we ship.
import js from '@eslint/js';
import eslintPlugin from 'eslint-plugin-eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', '.cache/**', 'node_modules/**', 'examples/**', 'tests/**/fixtures/**', 'tests/types/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/rules/**/*.ts'],
    ...eslintPlugin.configs.recommended,
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
