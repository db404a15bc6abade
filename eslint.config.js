// Type-aware lint. The one architectural rule: Ink and React stay inside commands/ui/ so no other path loads them.
import tseslint from 'typescript-eslint';

const inkOutsideUi = {
  paths: [
    { name: 'ink', message: 'Ink is imported only inside commands/ui/ (the hook path must never load it).' },
    { name: 'react', message: 'React is imported only inside commands/ui/ (the hook path must never load it).' },
  ],
  patterns: [{ group: ['ink/*', 'react/*', 'ink-*'], message: 'UI libraries stay inside commands/ui/.' }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tmp/**', 'coverage/**', 'test/fixtures/**'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      'no-restricted-imports': ['error', inkOutsideUi],
    },
  },
  { files: ['commands/ui/**'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['scripts/**', 'test/**'], rules: { 'no-console': 'off' } },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
