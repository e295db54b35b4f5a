import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const TIME_MESSAGE =
  "Show times through apps/web/src/i18n/time-format.ts (useSiteTime / useAccountTime): on the site's zone, labelled, in the user's language.";

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'tmp/**', '**/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // A time on a screen is on a named zone's clock in the user's language: only the formatter writes one.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/i18n/time-format.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['DateTimeFormat', 'RelativeTimeFormat'].map((property) => ({ object: 'Intl', property, message: TIME_MESSAGE })),
        ...['toLocaleDateString', 'toLocaleTimeString', 'toDateString', 'toTimeString', 'toUTCString'].map((property) => ({
          property,
          message: TIME_MESSAGE,
        })),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.type='NewExpression'][callee.object.callee.name='Date'][callee.property.name=/^toLocale/]",
          message: TIME_MESSAGE,
        },
        {
          selector:
            "CallExpression[callee.object.type='CallExpression'][callee.object.callee.name='dayjs'][callee.object.arguments.length>0][callee.property.name=/^(format|toLocaleString)$/]",
          message: TIME_MESSAGE,
        },
        { selector: "CallExpression[callee.property.name='format'] > Literal[value=/H|h|mm|ss|A|ddd|MMM/]", message: TIME_MESSAGE },
        {
          selector: "CallExpression[callee.property.name=/^(slice|substring|substr)$/][callee.object.callee.property.name='toISOString']",
          message: TIME_MESSAGE,
        },
      ],
    },
  },
  {
    // The browser takes the contract without its endpoint tables' schemas (packages/contract/src/browser.ts).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@lumigrid/contract', message: "Import '@lumigrid/contract/browser': the full contract builds every schema." }] },
      ],
    },
  },
  {
    // Tests parse JSON answers whose shape each test asserts.
    files: ['**/*.test.ts', '**/test/**', '**/*.fixtures.ts', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
