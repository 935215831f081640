// Type-checked lint; the pure libraries may not import frameworks, clients, validators or node
// built-ins, and class-validator is imported only where the route-request DTO lives (libs/request).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The route request's DTO and its rules are libs/request's: everything else imports @app/request. */
const validatorImports = {
  group: ['class-validator', 'class-validator/*', 'class-validator-jsonschema'],
  message: 'class-validator belongs to the route-request DTO in libs/request; import @app/request.',
};

const pureLibImports = {
  patterns: [
    {
      group: ['@nestjs/*', 'kafkajs', 'ccxt', 'rxjs', 'node:*', 'fs', 'path', 'http', 'ws'],
      message: 'events, books, routing and journal stay pure.',
    },
    validatorImports,
    {
      group: ['@app/event-log', '@app/config', '@app/request'],
      message: 'pure libs depend only on events <- books <- routing.',
    },
  ],
};

/** Time, randomness and config reach the pure libraries as arguments. */
const noAmbientInputs = {
  'no-restricted-globals': ['error', { name: 'process', message: 'config is an argument' }],
  'no-restricted-properties': [
    'error',
    { object: 'Math', property: 'random', message: 'randomness is an argument' },
    { object: 'Date', property: 'now', message: 'time is an argument' },
    { object: 'performance', property: 'now', message: 'time is an argument' },
  ],
  'no-restricted-syntax': [
    'error',
    { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'time is an argument' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.mjs', '**/*.js', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/require-array-sort-compare': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // Before the blocks below: a later block's options replace these (the pure libs' repeat the
    // class-validator pattern; unit specs may import it, to read the DTO's metadata).
    files: ['**/*.ts'],
    ignores: ['libs/request/src/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [validatorImports] }] },
  },
  {
    files: [
      'libs/events/src/**/*.ts',
      'libs/books/src/**/*.ts',
      'libs/routing/src/**/*.ts',
      'libs/journal/src/**/*.ts',
    ],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', pureLibImports], ...noAmbientInputs },
  },
  {
    // The transparency core hashes and signs with node:crypto and does no I/O: the API, the
    // replay CLI and an outside verifier share it, and time and keys are its arguments.
    files: ['libs/transparency/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@nestjs/*',
                'kafkajs',
                'ccxt',
                'rxjs',
                'node:*',
                '!node:crypto',
                'fs',
                'path',
                'http',
                'ws',
                '@app/*',
              ],
              message: 'libs/transparency uses node:crypto and nothing else outside itself.',
            },
            validatorImports,
          ],
        },
      ],
      ...noAmbientInputs,
    },
  },
  {
    // The retry helper and the HTML escapers sit below every lib: no framework, client or node
    // built-in (the retry's defaults, Math.random and the process's timers, are what callers
    // inject otherwise).
    files: ['libs/retry/src/**/*.ts', 'libs/html/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', pureLibImports] },
  },
  {
    // The unit tier touches no file, socket, process or broker (vitest.config.ts "Three tiers").
    files: ['**/*.spec.ts'],
    ignores: ['**/*.int.spec.ts', '**/*.e2e.spec.ts', '**/*.fleet.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'node:fs',
                'node:fs/*',
                'fs',
                'node:child_process',
                'node:net',
                'node:http',
                'ws',
                'kafkajs',
                'playwright-core',
              ],
              message: 'a spec that does I/O is an integration spec: name it *.int.spec.ts',
            },
          ],
          paths: [
            {
              name: '@app/event-log',
              importNames: ['EmbeddedLog', 'KafkaLog', 'openEventLog'],
              message: 'a spec that opens a real log is an integration spec: name it *.int.spec.ts',
            },
          ],
        },
      ],
    },
  },
  {
    // The pages' browser scripts: typed by the tsconfig.json beside them (the DOM, no Node types),
    // which the project service finds for these files. Built one file at a time to a classic script
    // (scripts/build-browser.mjs): types may be imported, nothing else; and the pages' CSP refuses
    // code made from strings, so lint refuses it first.
    files: ['apps/*/src/browser/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[importKind!='type'], ImportExpression",
          message: 'a browser script imports types only (import type): the page has no module loader',
        },
        {
          selector: 'ExportNamedDeclaration, ExportDefaultDeclaration, ExportAllDeclaration',
          message: 'a browser script exports nothing: it runs as a classic script',
        },
      ],
      'no-eval': 'error',
      'no-new-func': 'error',
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
