import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // Layering (docs/ARCHITECTURE.md): only the Electron shell may import electron,
    // os-control knows nothing above it, the renderer never touches Node.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/main/electron/**', 'src/preload/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only src/main/electron and src/preload import electron.' }] }],
    },
  },
  {
    files: ['src/os-control/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'os-control knows nothing above it.' }],
        patterns: [{ group: ['**/main/**', '**/renderer/**', '**/preload/**'], message: 'os-control knows nothing above it.' }],
      }],
    },
  },
  {
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['electron', 'fs', 'path', 'child_process', 'os'],
        patterns: [{ group: ['node:*', '**/main/**', '**/os-control/**'], message: 'The renderer talks to the bridge client only.' }],
      }],
    },
  },
);
