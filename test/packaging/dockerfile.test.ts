// Static checks of the image recipe (no Docker daemon needed): the things that, if wrong, give
// an image that builds fine and then fails on the user's machine.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

const root = fileURLToPath(new URL('../../', import.meta.url))
const read = (path: string): string => readFileSync(join(root, path), 'utf8')

interface Instruction { keyword: string, args: string, stage: number }

/** Dockerfile instructions with continuation lines joined and comments dropped. */
function instructions (text: string): Instruction[] {
  const joined = text.split('\n').filter((line) => !/^\s*#/.test(line)).join('\n').replace(/\\\n/g, ' ')
  let stage = -1
  const result: Instruction[] = []
  for (const line of joined.split('\n')) {
    const match = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line)
    if (match === null) continue
    const keyword = match[1].toUpperCase()
    if (keyword === 'FROM') stage++
    result.push({ keyword, args: match[2].trim().replace(/\s+/g, ' '), stage })
  }
  return result
}

const dockerfile = instructions(read('Dockerfile'))
const runScript = read('addon/run.sh')
const config = parse(read('config.yaml')) as { ports: Record<string, number>, ingress_port: number }
const packageJson = JSON.parse(read('package.json')) as { scripts: Record<string, string> }
const finalStage = Math.max(...dockerfile.map((i) => i.stage))
const inFinal = (keyword: string): Instruction[] => dockerfile.filter((i) => i.keyword === keyword && i.stage === finalStage)

t.test('two stages: Node 26 Alpine build, Home Assistant base run', async (t) => {
  const froms = dockerfile.filter((i) => i.keyword === 'FROM')
  t.equal(froms.length, 2, 'exactly two FROM lines')
  t.match(froms[0]?.args, /^node:26-alpine(?:@sha256:[0-9a-f]{64})? AS build$/i)
  t.equal(froms[1]?.args, '$' + '{BUILD_FROM}', 'run stage is based on BUILD_FROM')
  const buildFrom = dockerfile.find((i) => i.keyword === 'ARG' && i.stage === -1 && i.args.startsWith('BUILD_FROM='))
  t.match(buildFrom?.args, /^BUILD_FROM=ghcr\.io\/home-assistant\/(?:[a-z0-9]+-)?base:\d+\.\d+$/,
    'BUILD_FROM has a default (the Supervisor no longer passes it)')
  const buildSteps = dockerfile.filter((i) => i.keyword === 'RUN' && i.stage === 0).map((i) => i.args).join(' && ')
  t.match(buildSteps, /npm ci[^\n]*--ignore-scripts/, 'no install scripts: the node devDependency would bring a glibc Node that cannot run on Alpine')
  t.match(buildSteps, /rm -f node_modules\/\.bin\/node/, 'and the scripts\' PATH keeps no node of its own, so the image\'s Node 26 builds')
  t.match(buildSteps, /npm run build/)
  t.match(buildSteps, /patch-package[^]*npm run build/, 'our fixes to dependencies (patches/) are applied before the build, as npm ci\'s postinstall does elsewhere')
  t.equal(packageJson.scripts.postinstall, 'patch-package', 'npm ci applies patches/ (the image, which skips install scripts, runs it itself)')
  t.match(buildSteps, /npm prune --omit=dev|npm ci --omit=dev/, 'dev dependencies do not ship')
})

t.test('the run stage gets the app, node and the entrypoint', async (t) => {
  const copies = inFinal('COPY').map((i) => i.args)
  for (const part of ['dist', 'node_modules', 'package.json', 'ingress/public']) {
    t.ok(copies.some((args) => args.startsWith('--from=build ') && args.includes(`/${part} `)), `copies ${part} from the build stage`)
  }
  t.ok(copies.includes('--from=build /usr/local/bin/node /usr/local/bin/node'), 'node comes from the build stage')
  t.ok(copies.includes('addon/run.sh /run.sh'), 'the entrypoint is /run.sh')
  t.same(inFinal('WORKDIR').map((i) => i.args), ['/app'], 'the app lives in /app')
  t.same(inFinal('CMD').map((i) => i.args), ['["/run.sh"]'], 'CMD runs /run.sh (s6-overlay /init stays the entrypoint)')
  t.equal(inFinal('ENTRYPOINT').length, 0, 'the base image entrypoint is kept')
})

t.test('the production entry is the one npm start runs', async (t) => {
  t.equal(packageJson.scripts.start, 'sh addon/start.sh', 'npm start runs the start script, the one place for the Node flags')
  t.ok(typeof packageJson.scripts.build === 'string', 'npm run build exists')
  t.match(runScript, /^readonly APP_DIR="\$\{APP_DIR:-\/app\}"$/m, 'run.sh works in /app, where the image puts the app')
  t.match(runScript, /"\$\{APP_DIR\}\/addon\/start\.sh"/, 'run.sh runs the start script')
  t.ok(inFinal('COPY').some((i) => i.args === 'addon/start.sh ./addon/start.sh'), 'the image holds it beside the app')
  t.match(read('addon/start.sh'), /dist\/app\/server\.js/, 'and it starts the production entry')
  t.notMatch(runScript, /max-old-space-size/, 'run.sh holds no copy of the flags')
  t.notMatch(read('Dockerfile'), /max-old-space-size/, 'nor the Dockerfile')
})

t.test('never runs Node as root', async (t) => {
  const users = inFinal('USER').map((i) => i.args)
  const nonRootUser = users.length > 0 && !/^(?:root|0)(?::|$)/.test(users.at(-1) ?? '')
  const appUser = /^readonly APP_USER="([a-z_][a-z0-9_-]*)"$/m.exec(runScript)?.[1]
  const drops = /^exec su-exec "\$\{APP_USER\}:\$\{APP_USER\}" /m.test(runScript) && appUser !== undefined
  t.ok(nonRootUser || drops, 'a non-root USER, or run.sh drops to a user with su-exec')
  if (drops) {
    const setup = inFinal('RUN').map((i) => i.args).join(' && ')
    t.match(setup, new RegExp(`adduser [^&]*\\b${appUser}\\b`), `the image creates the ${appUser} user`)
    t.match(setup, /apk add [^&]*\bsu-exec\b/, 'the image installs su-exec')
  }
})

t.test('health check and ports agree with config.yaml', async (t) => {
  const mcpPort = Number(Object.keys(config.ports)[0]?.split('/')[0])
  const healthchecks = inFinal('HEALTHCHECK')
  t.equal(healthchecks.length, 1)
  t.match(healthchecks[0]?.args, new RegExp(`CMD (?:wget|curl) .*http://127\\.0\\.0\\.1:${mcpPort}/health\\b`), 'probes /health on the MCP port')
  const exposed = inFinal('EXPOSE').flatMap((i) => i.args.split(' ')).map((port) => Number(port.replace(/\/tcp$/, '')))
  t.ok(exposed.includes(mcpPort), `EXPOSE ${mcpPort}`)
  t.ok(exposed.includes(config.ingress_port), `EXPOSE ${config.ingress_port} (ingress)`)
  t.match(runScript, new RegExp(`^export MCP_PORT=${mcpPort}$`, 'm'), 'the server listens where config.yaml publishes')
  t.match(runScript, new RegExp(`^export INGRESS_PORT=${config.ingress_port}$`, 'm'), 'the ingress page listens on ingress_port')
})

t.test('labels', async (t) => {
  const labels = inFinal('LABEL').map((i) => i.args).join(' ')
  t.match(labels, /io\.hass\.version="\$\{BUILD_VERSION\}"/)
  t.match(labels, /io\.hass\.type="(?:app|addon)"/)
  t.match(labels, /io\.hass\.arch="\$\{BUILD_ARCH\}"/)
})

t.test('.dockerignore keeps local state out and the sources in', async (t) => {
  const ignored = read('.dockerignore').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))
  for (const entry of ['node_modules', 'dist', '.git', 'data', 'coverage', '.tap', 'demo']) t.ok(ignored.includes(entry), `ignores ${entry}`)
  for (const needed of ['src', 'plugins', 'routes', 'tools', 'app', 'package.json', 'package-lock.json', 'tsconfig.json', 'ingress']) {
    t.notOk(ignored.includes(needed), `keeps ${needed} (the build needs it)`)
  }
  // scripts/ holds dev tools the image has no use for, except the build script itself.
  t.ok(ignored.includes('scripts') && ignored.indexOf('!scripts/build.ts') > ignored.indexOf('scripts'), 'keeps scripts/build.ts (npm run build runs it) while ignoring the rest of scripts/')
})
