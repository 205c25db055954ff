import neostandard from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['dist/**', 'coverage/**', '.tap/**', 'tap-snapshots/**', 'test-output/**', 'bench/results/**', 'node_modules/**', 'addon/rootfs/**', 'ingress/public/vendor/**'] }),
  {
    // Type-aware rules read the TypeScript program tsconfig.json describes (typescript-eslint's project service).
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its rejection: an unhandled rejection ends the process.
      // tap's t.test() answers a PromiseWithSubtest that tap itself waits for and reports.
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafePromises: [{ from: 'package', name: 'PromiseWithSubtest', package: '@tapjs/core' }] }]
    }
  }
]
