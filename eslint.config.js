import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layering from './tools/eslint/layering.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test-results/', 'bench-results/', 'scratch/', 'src-core/kernel/as/', 'src-core/kernel/kernelBinary.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { local: { rules: { layering } } },
    rules: {
      'local/layering': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['tools/**/*.js', '*.config.{js,ts}', 'scripts/**/*.mjs', 'bench/**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
