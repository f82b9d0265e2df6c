import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layers from './eslint-rules/layers.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'test-artifacts/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Layering: one table (eslint-rules/layers.js) decides which of our folders may
    // import which; every relative import in src/ is checked against it.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { deskpilot: layers },
    rules: { 'deskpilot/layers': 'error', 'deskpilot/front-door': 'error' },
  },
  {
    // Packages the layer table cannot see: only the Electron shell imports electron.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/main/electron/**', 'src/preload/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only src/main/electron and src/preload import electron.' }] }],
    },
  },
  {
    // The renderer never touches Node: it talks to the bridge client only.
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['electron', 'fs', 'path', 'child_process', 'os'],
        patterns: [{ group: ['node:*'], message: 'The renderer talks to the bridge client only.' }],
      }],
    },
  },
);
