import type { House } from '../house.ts'
import { FILTERS, GLOBALS, iterable, runTest } from './functions.ts'
import { parseTemplate, TemplateError, type Expr, type Node } from './parse.ts'
import { DomainStates, Namespace, pyStr, StatesRoot, templateState, toNumber, truthy, type Listeners, type Scope } from './values.ts'

export { TemplateError } from './parse.ts'

const MAX_STEPS = 1_000_000

function evaluate (e: Expr, scope: Scope): unknown {
  if (++scope.budget.steps > MAX_STEPS) throw new TemplateError('TimeoutError: template rendering took too long')
  switch (e.k) {
    case 'lit': return e.v
    case 'name': {
      if (scope.vars.has(e.n)) return scope.vars.get(e.n)
      if (e.n === 'states') return new StatesRoot()
      if (GLOBALS[e.n] !== undefined) return { fn: e.n }
      if (scope.strict) throw new TemplateError(`UndefinedError: '${e.n}' is undefined`)
      return undefined
    }
    case 'list': return e.items.map(x => evaluate(x, scope))
    case 'dict': return Object.fromEntries(e.entries.map(([k, v]) => [pyStr(evaluate(k, scope)), evaluate(v, scope)]))
    case 'attr': return attribute(evaluate(e.obj, scope), e.n, scope)
    case 'index': {
      const obj = evaluate(e.obj, scope)
      const idx = evaluate(e.idx, scope)
      if (Array.isArray(obj) || typeof obj === 'string') return obj[typeof idx === 'number' && idx < 0 ? obj.length + idx : Number(idx)]
      return attribute(obj, String(idx), scope)
    }
    case 'call': {
      const fn = evaluate(e.fn, scope)
      const args = e.args.map(a => evaluate(a, scope))
      const kwargs = Object.fromEntries(Object.entries(e.kwargs).map(([k, v]) => [k, evaluate(v, scope)]))
      if (fn instanceof StatesRoot) return GLOBALS.states?.(scope, args, kwargs)
      if (fn !== null && typeof fn === 'object' && 'fn' in fn) return GLOBALS[String((fn as { fn: string }).fn)]?.(scope, args, kwargs)
      if (e.fn.k === 'name') throw new TemplateError(`UndefinedError: '${e.fn.n}' is undefined`)
      throw new TemplateError('TypeError: object is not callable')
    }
    case 'filter': {
      const f = FILTERS[e.n]
      if (f === undefined) throw new TemplateError(`TemplateAssertionError: No filter named '${e.n}'.`)
      const kwargs = Object.fromEntries(Object.entries(e.kwargs).map(([k, v]) => [k, evaluate(v, scope)]))
      return f(scope, [evaluate(e.obj, scope), ...e.args.map(a => evaluate(a, scope))], kwargs)
    }
    case 'test': {
      const r = runTest(e.n, evaluate(e.obj, scope), e.args.map(a => evaluate(a, scope)))
      return e.neg ? !r : r
    }
    case 'un': {
      const a = evaluate(e.a, scope)
      return e.op === 'not' ? !truthy(a) : -toNumber(a)
    }
    case 'cond': return truthy(evaluate(e.c, scope)) ? evaluate(e.a, scope) : e.b === null ? undefined : evaluate(e.b, scope)
    case 'bin': return binary(e.op, e.a, e.b, scope)
  }
}

function attribute (obj: unknown, name: string, scope: Scope): unknown {
  if (obj instanceof StatesRoot) return new DomainStates(name)
  if (obj instanceof DomainStates) {
    const state = scope.house.states.get(`${obj.domain}.${name}`)
    scope.listeners.entities.add(`${obj.domain}.${name}`)
    return state === undefined ? undefined : templateState(state)
  }
  if (obj instanceof Namespace) return obj.values[name]
  if (obj === null || obj === undefined || typeof obj !== 'object') return undefined
  return (obj as Record<string, unknown>)[name]
}

function binary (op: string, ea: Expr, eb: Expr, scope: Scope): unknown {
  if (op === 'and') { const a = evaluate(ea, scope); return truthy(a) ? evaluate(eb, scope) : a }
  if (op === 'or') { const a = evaluate(ea, scope); return truthy(a) ? a : evaluate(eb, scope) }
  const a = evaluate(ea, scope)
  const b = evaluate(eb, scope)
  switch (op) {
    case '~': return pyStr(a) + pyStr(b)
    case '+':
      if (typeof a === 'string' && typeof b === 'string') return a + b
      if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b]
      return arithmetic(a, b, (x, y) => x + y, '+')
    case '-': return arithmetic(a, b, (x, y) => x - y, '-')
    case '*': return typeof a === 'string' && typeof b === 'number' ? a.repeat(b) : arithmetic(a, b, (x, y) => x * y, '*')
    case '/': if (toNumber(b) === 0) throw new TemplateError('ZeroDivisionError: division by zero'); return arithmetic(a, b, (x, y) => x / y, '/')
    case '//': if (toNumber(b) === 0) throw new TemplateError('ZeroDivisionError: integer division or modulo by zero'); return arithmetic(a, b, (x, y) => Math.floor(x / y), '//')
    case '%': return arithmetic(a, b, (x, y) => ((x % y) + y) % y, '%')
    case '**': return arithmetic(a, b, (x, y) => x ** y, '**')
    case '==': return a === b || (typeof a === 'number' && typeof b === 'number' && a === b) || JSON.stringify(a) === JSON.stringify(b)
    case '!=': return !(a === b || JSON.stringify(a) === JSON.stringify(b))
    case '<': case '>': case '<=': case '>=': {
      if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) throw new TemplateError(`TypeError: '${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`)
      const [x, y] = [a as number, b as number]
      return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y
    }
    case 'in': return runTest('in', a, [Array.isArray(b) || typeof b === 'string' ? b : iterable(scope, b)])
  }
  throw new TemplateError(`TemplateSyntaxError: unknown operator ${op}`)
}

function typeName (v: unknown): string {
  return v === null || v === undefined ? 'NoneType' : typeof v === 'number' ? (Number.isInteger(v) ? 'int' : 'float') : typeof v === 'string' ? 'str' : Array.isArray(v) ? 'list' : 'dict'
}

function arithmetic (a: unknown, b: unknown, f: (x: number, y: number) => number, op: string): number {
  if (typeof a !== 'number' || typeof b !== 'number') throw new TemplateError(`TypeError: unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`)
  return f(a, b)
}

function run (nodes: Node[], scope: Scope, out: string[]): void {
  for (const node of nodes) {
    switch (node.k) {
      case 'text': out.push(node.v); break
      case 'out': out.push(pyStr(evaluate(node.e, scope))); break
      case 'if': {
        const branch = node.branches.find(([cond]) => truthy(evaluate(cond, scope)))
        run(branch === undefined ? node.otherwise : branch[1], scope, out)
        break
      }
      case 'for': {
        const items = iterable(scope, evaluate(node.iter, scope))
        if (items.length === 0) { run(node.otherwise, scope, out); break }
        const saved = new Map(scope.vars)
        items.forEach((item, index) => {
          if (node.vars.length === 1) scope.vars.set(node.vars[0] as string, item)
          else node.vars.forEach((name, i) => scope.vars.set(name, Array.isArray(item) ? item[i] : undefined))
          scope.vars.set('loop', { index: index + 1, index0: index, first: index === 0, last: index === items.length - 1, length: items.length })
          run(node.body, scope, out)
        })
        for (const [k] of scope.vars) if (!saved.has(k)) scope.vars.delete(k)
        for (const [k, v] of saved) if (!(v instanceof Namespace)) scope.vars.set(k, v)
        break
      }
      case 'set': {
        const value = evaluate(node.e, scope)
        if (node.target.length === 1) scope.vars.set(node.target[0] as string, value)
        else {
          const ns = scope.vars.get(node.target[0] as string)
          if (!(ns instanceof Namespace)) throw new TemplateError('TemplateRuntimeError: cannot assign attribute on non-namespace object')
          ns.values[node.target[1] as string] = value
        }
        break
      }
    }
  }
}

export interface RenderOutcome { text: string, listeners: Listeners, single?: { value: unknown } }

/** Renders a template against the house; throws TemplateError with HA's "<Kind>Error: ..." text. */
export function renderTemplate (house: House, template: string, variables: Record<string, unknown> = {}, strict = false): RenderOutcome {
  const nodes = parseTemplate(template)
  const scope: Scope = { house, vars: new Map(Object.entries(variables)), listeners: { all: false, domains: new Set(), entities: new Set(), time: false }, budget: { steps: 0 }, strict }
  const out: string[] = []
  run(nodes, scope, out)
  return { text: out.join(''), listeners: scope.listeners }
}

/** HA parses a render result back to a native type (number, bool, list, dict, None) when it is a literal. */
export function nativeResult (text: string): unknown {
  const t = text.trim()
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(t) && t.length < 16) return Number(t)
  if (t === 'True') return true
  if (t === 'False') return false
  if (t === 'None') return null
  if ((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('{') && t.endsWith('}'))) {
    try {
      return JSON.parse(t.replace(/'((?:[^'\\]|\\.)*)'/g, (_m, s: string) => JSON.stringify(s.replace(/\\'/g, "'"))).replace(/\bTrue\b/g, 'true').replace(/\bFalse\b/g, 'false').replace(/\bNone\b/g, 'null')) as unknown
    } catch { return text }
  }
  return text
}

export function listenersView (l: Listeners): Record<string, unknown> {
  return { all: l.all, domains: [...l.domains].sort(), entities: [...l.entities].sort(), time: l.time }
}
