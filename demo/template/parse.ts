/** A small Jinja parser: the subset Home Assistant users write in templates. */

export class TemplateError extends Error {}

export type Expr =
  | { k: 'lit', v: unknown }
  | { k: 'name', n: string }
  | { k: 'list', items: Expr[] }
  | { k: 'dict', entries: Array<[Expr, Expr]> }
  | { k: 'attr', obj: Expr, n: string }
  | { k: 'index', obj: Expr, idx: Expr }
  | { k: 'call', fn: Expr, args: Expr[], kwargs: Record<string, Expr> }
  | { k: 'filter', obj: Expr, n: string, args: Expr[], kwargs: Record<string, Expr> }
  | { k: 'test', obj: Expr, n: string, args: Expr[], neg: boolean }
  | { k: 'un', op: string, a: Expr }
  | { k: 'bin', op: string, a: Expr, b: Expr }
  | { k: 'cond', c: Expr, a: Expr, b: Expr | null }

export type Node =
  | { k: 'text', v: string }
  | { k: 'out', e: Expr }
  | { k: 'if', branches: Array<[Expr, Node[]]>, otherwise: Node[] }
  | { k: 'for', vars: string[], iter: Expr, body: Node[], otherwise: Node[] }
  | { k: 'set', target: string[], e: Expr }

interface Tok { t: 'num' | 'str' | 'name' | 'op', v: string }

const OPS = ['//', '**', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '~', '|', '.', '(', ')', '[', ']', '{', '}', ',', ':', '=']

function tokenize (src: string): Tok[] {
  const out: Tok[] = []
  let i = 0
  while (i < src.length) {
    const ch = src[i] as string
    if (/\s/.test(ch)) { i++; continue }
    if (/[0-9]/.test(ch)) {
      const m = /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(src.slice(i)) as RegExpExecArray
      out.push({ t: 'num', v: m[0] }); i += m[0].length; continue
    }
    if (ch === '"' || ch === "'") {
      let j = i + 1
      let s = ''
      while (j < src.length && src[j] !== ch) {
        if (src[j] === '\\' && j + 1 < src.length) { const n = src[j + 1] as string; s += n === 'n' ? '\n' : n === 't' ? '\t' : n; j += 2 } else { s += src[j]; j++ }
      }
      if (j >= src.length) throw new TemplateError('TemplateSyntaxError: unexpected end of template, expected end of string')
      out.push({ t: 'str', v: s }); i = j + 1; continue
    }
    if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i)) as RegExpExecArray
      out.push({ t: 'name', v: m[0] }); i += m[0].length; continue
    }
    const op = OPS.find(o => src.startsWith(o, i))
    if (op === undefined) throw new TemplateError(`TemplateSyntaxError: unexpected char '${ch}' at ${i}`)
    out.push({ t: 'op', v: op }); i += op.length
  }
  return out
}

class ExprParser {
  private pos = 0
  private readonly toks: Tok[]
  constructor (toks: Tok[]) { this.toks = toks }

  peek (v?: string): Tok | undefined {
    const t = this.toks[this.pos]
    return v === undefined || t?.v === v ? t : undefined
  }

  isName (v: string): boolean { const t = this.toks[this.pos]; return t?.t === 'name' && t.v === v }
  done (): boolean { return this.pos >= this.toks.length }
  next (): Tok {
    const t = this.toks[this.pos++]
    if (t === undefined) throw new TemplateError('TemplateSyntaxError: unexpected end of template')
    return t
  }

  expect (v: string): void {
    const t = this.next()
    if (t.v !== v) throw new TemplateError(`TemplateSyntaxError: expected token '${v}', got '${t.v}'`)
  }

  name (): string {
    const t = this.next()
    if (t.t !== 'name') throw new TemplateError(`TemplateSyntaxError: expected name, got '${t.v}'`)
    return t.v
  }

  expr (): Expr {
    const a = this.or()
    if (this.isName('if')) {
      this.pos++
      const c = this.or()
      let b: Expr | null = null
      if (this.isName('else')) { this.pos++; b = this.expr() }
      return { k: 'cond', c, a, b }
    }
    return a
  }

  private or (): Expr {
    let a = this.and()
    while (this.isName('or')) { this.pos++; a = { k: 'bin', op: 'or', a, b: this.and() } }
    return a
  }

  private and (): Expr {
    let a = this.not()
    while (this.isName('and')) { this.pos++; a = { k: 'bin', op: 'and', a, b: this.not() } }
    return a
  }

  private not (): Expr {
    if (this.isName('not')) { this.pos++; return { k: 'un', op: 'not', a: this.not() } }
    return this.compare()
  }

  private compare (): Expr {
    let a = this.concat()
    for (;;) {
      const t = this.peek()
      if (t?.t === 'op' && ['==', '!=', '<', '>', '<=', '>='].includes(t.v)) { this.pos++; a = { k: 'bin', op: t.v, a, b: this.concat() }; continue }
      if (this.isName('in')) { this.pos++; a = { k: 'bin', op: 'in', a, b: this.concat() }; continue }
      if (this.isName('not') && this.toks[this.pos + 1]?.v === 'in') { this.pos += 2; a = { k: 'un', op: 'not', a: { k: 'bin', op: 'in', a, b: this.concat() } }; continue }
      if (this.isName('is')) {
        this.pos++
        const neg = this.isName('not')
        if (neg) this.pos++
        const n = this.name()
        const args: Expr[] = []
        if (this.peek('(') !== undefined) { this.pos++; while (this.peek(')') === undefined) { args.push(this.expr()); if (this.peek(',') !== undefined) this.pos++ } this.pos++ } else if (!this.done() && this.peek()?.t !== 'op' && !this.isName('and') && !this.isName('or') && !this.isName('else') && !this.isName('if')) args.push(this.concat())
        a = { k: 'test', obj: a, n, args, neg }
        continue
      }
      return a
    }
  }

  private concat (): Expr {
    let a = this.additive()
    while (this.peek('~') !== undefined) { this.pos++; a = { k: 'bin', op: '~', a, b: this.additive() } }
    return a
  }

  private additive (): Expr {
    let a = this.term()
    for (let t = this.peek(); t?.t === 'op' && (t.v === '+' || t.v === '-'); t = this.peek()) { this.pos++; a = { k: 'bin', op: t.v, a, b: this.term() } }
    return a
  }

  private term (): Expr {
    let a = this.unary()
    for (let t = this.peek(); t?.t === 'op' && ['*', '/', '//', '%', '**'].includes(t.v); t = this.peek()) { this.pos++; a = { k: 'bin', op: t.v, a, b: this.unary() } }
    return a
  }

  private unary (): Expr {
    if (this.peek('-') !== undefined) { this.pos++; return { k: 'un', op: '-', a: this.unary() } }
    if (this.peek('+') !== undefined) { this.pos++; return this.unary() }
    return this.filtered()
  }

  private filtered (): Expr {
    let a = this.postfix()
    while (this.peek('|') !== undefined) {
      this.pos++
      const n = this.name()
      const { args, kwargs } = this.peek('(') !== undefined ? this.callArgs() : { args: [], kwargs: {} }
      a = { k: 'filter', obj: a, n, args, kwargs }
    }
    return a
  }

  private callArgs (): { args: Expr[], kwargs: Record<string, Expr> } {
    this.expect('(')
    const args: Expr[] = []
    const kwargs: Record<string, Expr> = {}
    while (this.peek(')') === undefined) {
      const t = this.peek()
      if (t?.t === 'name' && this.toks[this.pos + 1]?.v === '=') { this.pos += 2; kwargs[t.v] = this.expr() } else args.push(this.expr())
      if (this.peek(',') !== undefined) this.pos++
      else if (this.peek(')') === undefined) throw new TemplateError(`TemplateSyntaxError: expected token ',', got '${this.peek()?.v ?? 'end of template'}'`)
    }
    this.pos++
    return { args, kwargs }
  }

  private postfix (): Expr {
    let a = this.primary()
    for (;;) {
      if (this.peek('.') !== undefined) { this.pos++; const t = this.next(); a = { k: 'attr', obj: a, n: t.v }; continue }
      if (this.peek('[') !== undefined) { this.pos++; const idx = this.expr(); this.expect(']'); a = { k: 'index', obj: a, idx }; continue }
      if (this.peek('(') !== undefined) { const { args, kwargs } = this.callArgs(); a = { k: 'call', fn: a, args, kwargs }; continue }
      return a
    }
  }

  private primary (): Expr {
    const t = this.next()
    if (t.t === 'num') return { k: 'lit', v: Number(t.v) }
    if (t.t === 'str') return { k: 'lit', v: t.v }
    if (t.t === 'name') {
      if (t.v === 'true' || t.v === 'True') return { k: 'lit', v: true }
      if (t.v === 'false' || t.v === 'False') return { k: 'lit', v: false }
      if (t.v === 'none' || t.v === 'None') return { k: 'lit', v: null }
      return { k: 'name', n: t.v }
    }
    if (t.v === '(') {
      const first = this.expr()
      if (this.peek(',') === undefined) { this.expect(')'); return first }
      const items = [first]
      while (this.peek(',') !== undefined) { this.pos++; if (this.peek(')') !== undefined) break; items.push(this.expr()) }
      this.expect(')')
      return { k: 'list', items }
    }
    if (t.v === '[') {
      const items: Expr[] = []
      while (this.peek(']') === undefined) { items.push(this.expr()); if (this.peek(',') !== undefined) this.pos++ }
      this.pos++
      return { k: 'list', items }
    }
    if (t.v === '{') {
      const entries: Array<[Expr, Expr]> = []
      while (this.peek('}') === undefined) { const key = this.expr(); this.expect(':'); entries.push([key, this.expr()]); if (this.peek(',') !== undefined) this.pos++ }
      this.pos++
      return { k: 'dict', entries }
    }
    throw new TemplateError(`TemplateSyntaxError: unexpected '${t.v}'`)
  }
}

export function parseExpression (src: string): Expr {
  const p = new ExprParser(tokenize(src))
  const e = p.expr()
  if (!p.done()) throw new TemplateError(`TemplateSyntaxError: unexpected '${p.peek()?.v ?? ''}'`)
  return e
}

interface Frame { kind: 'root' | 'if' | 'for', nodes: Node[], node?: Node }

/** Parses a whole template into nodes; unknown or unbalanced tags are syntax errors, like Jinja. */
export function parseTemplate (src: string): Node[] {
  const root: Frame = { kind: 'root', nodes: [] }
  const stack: Frame[] = [root]
  const re = /\{\{-?([\s\S]*?)-?\}\}|\{%-?([\s\S]*?)-?%\}|\{#[\s\S]*?#\}/g
  let last = 0
  let trimNext = false
  const top = (): Frame => stack[stack.length - 1] as Frame
  for (let m = re.exec(src); m !== null; m = re.exec(src)) {
    let text = src.slice(last, m.index)
    if (trimNext) text = text.replace(/^\s+/, '')
    if (m[0].startsWith('{{-') || m[0].startsWith('{%-')) text = text.replace(/\s+$/, '')
    if (text !== '') top().nodes.push({ k: 'text', v: text })
    trimNext = m[0].endsWith('-}}') || m[0].endsWith('-%}')
    last = m.index + m[0].length
    if (m[1] !== undefined) { top().nodes.push({ k: 'out', e: parseExpression(m[1]) }); continue }
    if (m[2] === undefined) continue
    const stmt = m[2].trim()
    const word = /^\w+/.exec(stmt)?.[0] ?? ''
    const rest = stmt.slice(word.length)
    if (word === 'if') {
      const node: Node = { k: 'if', branches: [[parseExpression(rest), []]], otherwise: [] }
      top().nodes.push(node)
      stack.push({ kind: 'if', nodes: (node.branches[0] as [Expr, Node[]])[1], node })
    } else if (word === 'elif' || word === 'else') {
      const frame = top()
      if (frame.kind === 'for' && word === 'else' && frame.node?.k === 'for') { frame.nodes = frame.node.otherwise; continue }
      if (frame.kind !== 'if' || frame.node?.k !== 'if') throw new TemplateError(`TemplateSyntaxError: Encountered unknown tag '${word}'.`)
      if (word === 'elif') { const body: Node[] = []; frame.node.branches.push([parseExpression(rest), body]); frame.nodes = body } else frame.nodes = frame.node.otherwise
    } else if (word === 'endif' || word === 'endfor') {
      const frame = stack.pop() as Frame
      if (frame.kind !== (word === 'endif' ? 'if' : 'for')) throw new TemplateError(`TemplateSyntaxError: Encountered unknown tag '${word}'.`)
    } else if (word === 'for') {
      const fm = /^\s*([\w\s,]+?)\s+in\s+([\s\S]+)$/.exec(rest)
      if (fm === null) throw new TemplateError("TemplateSyntaxError: expected token 'in'")
      const node: Node = { k: 'for', vars: (fm[1] as string).split(',').map(v => v.trim()), iter: parseExpression(fm[2] as string), body: [], otherwise: [] }
      top().nodes.push(node)
      stack.push({ kind: 'for', nodes: node.body, node })
    } else if (word === 'set') {
      const sm = /^\s*([\w.]+)\s*=([\s\S]+)$/.exec(rest)
      if (sm === null) throw new TemplateError("TemplateSyntaxError: expected token '='")
      top().nodes.push({ k: 'set', target: (sm[1] as string).split('.'), e: parseExpression(sm[2] as string) })
    } else {
      throw new TemplateError(`TemplateSyntaxError: Encountered unknown tag '${word}'.`)
    }
  }
  if (stack.length > 1) throw new TemplateError(`TemplateSyntaxError: Unexpected end of template. Jinja was looking for the following tags: 'end${top().kind}'.`)
  let tail = src.slice(last)
  if (trimNext) tail = tail.replace(/^\s+/, '')
  if (tail !== '') root.nodes.push({ k: 'text', v: tail })
  return root.nodes
}
