// CI tests on the Node the tests use here (the `node` devDependency, the add-on image's) and runs
// the typecheck and the lint once: `npm test` already runs both (side by side, beside tap).
import { readFileSync } from 'node:fs'
import t from 'tap'
import { parse } from 'yaml'

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>, devDependencies: Record<string, string> }
const nodeMajor = /\d+/.exec(pkg.devDependencies.node)?.[0]

interface Job { container?: string, steps: Array<{ run?: string, with?: Record<string, unknown> }> }
const workflows = ['ci.yml', 'release.yml'].map(name => ({ name, jobs: (parse(read(`.github/workflows/${name}`)) as { jobs: Record<string, Job> }).jobs }))

t.test('every Node a workflow picks is the node devDependency\'s major', async t => {
  t.ok(nodeMajor, `the node devDependency (${pkg.devDependencies.node})`)
  const picked = workflows.flatMap(({ name, jobs }) => Object.entries(jobs).flatMap(([id, job]) => [
    ...(job.container?.startsWith('node:') ? [`${name} ${id}: ${job.container.split(':')[1].split('-')[0]}`] : []),
    ...job.steps.flatMap(step => step.with?.['node-version'] !== undefined ? [`${name} ${id}: ${String(step.with['node-version'])}`] : [])
  ]))
  t.ok(picked.length > 0, 'a workflow picks a Node')
  t.same(picked.filter(entry => !entry.endsWith(`: ${nodeMajor}`)), [], 'no other Node')
})

t.test('CI runs the typecheck and the lint once, through npm test', async t => {
  t.match(pkg.scripts.test, /^npm run check & check=\$!; npm run tap; tap=\$\?; wait \$check && \[ \$tap -eq 0 \]$/, 'npm test runs the checks beside the default suite and fails if either fails')
  t.match(pkg.scripts.check, /npm run typecheck &.*npm run lint;.*wait \$typecheck && \[ \$lint -eq 0 \]/, 'the checks run both side by side and fail if either fails')
  const runs = workflows.find(w => w.name === 'ci.yml')!.jobs.test.steps.flatMap(step => step.run ?? [])
  const script = read('.ci/run')
  t.match(runs.join('\n'), /\.ci\/run/, 'the test job runs .ci/run')
  t.match(script, /^suite npm test\n(?:.*\n)*suite npm run test:system$/m, '.ci/run runs npm test, then npm run test:system')
  const twice = [...runs, script].join('\n').match(/npm run (typecheck|lint)|\b(tsc|eslint)\b/g) ?? []
  t.same(twice, [], 'nothing else runs them')
})
