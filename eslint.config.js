import neostandard from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['dist/**', 'coverage/**', '.tap/**', 'tap-snapshots/**', 'test-output/**', 'bench/results/**', 'node_modules/**', 'addon/rootfs/**', 'ingress/public/vendor/**'] })
]
