// @ts-check
// `npm run lint`: typescript-eslint with type-aware rules over every package, the app and its tests, then knip
// (knip.config.ts: unused files, dependencies and exports). Every rule turned off or relaxed below says why; a line
// that must break a rule says why where it does.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const TESTS = ['**/test/**/*.ts', 'test/**/*.ts'];
/** The views' browser code is checked against its own configuration (DOM, no Node). */
const VIEWS = [
  'packages/server/src/views/app/**/*.ts',
  'src/views/**/*.ts',
  'packages/dev/src/view-host/page/**/*.ts',
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'cdk.out/**',
      '.local/**',
      '.cdk-home/**',
      'src/generated/**',
      'packages/server/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A promise nobody awaits or catches is a failure nobody sees.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `_name` marks what is left out on purpose (a field dropped by a destructuring, an unused parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Sanitizers match control characters on purpose: that is what they strip or refuse.
      'no-control-regex': 'off',
    },
  },
  {
    files: VIEWS,
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: './tsconfig.views.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      // The Node globals these scripts use.
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        performance: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
  {
    files: [...TESTS, 'packages/*/src/testing/**/*.ts'],
    rules: {
      // Tests and the testing helpers read whatever JSON a server answered: `any` is what that is until checked.
      '@typescript-eslint/no-explicit-any': 'off',
      // A test stand-in's async handler that throws fails the test run (an unhandled rejection fails it).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
);
