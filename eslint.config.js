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
  },
  {
    files: ['src/**/*.ts', 'routes/**/*.ts', 'plugins/**/*.ts', 'tools/**/*.ts', 'app/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'AssignmentExpression[left.type="MemberExpression"] > :matches(ArrowFunctionExpression, FunctionExpression).right',
        message: 'V8 allocates a function literal assigned straight to a property in the old generation, and its scope stays alive until the next full collection (docs/performance.md): name it first (const f = ...; obj.prop = f).'
      }]
    }
  }
]
