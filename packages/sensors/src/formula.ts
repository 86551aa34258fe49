/**
 * Sensor formulas, vendor style: an arithmetic expression over `[value]`, the raw tag
 * value, such as `[value]*0.1+2` or `([value]-400)/20`. Users type them and the server
 * evaluates them for every reading, so they are parsed by a tiny grammar of their own
 * (numbers, `[value]`, + - * /, parentheses) and never reach eval or Function.
 *
 *   expr    := term (("+" | "-") term)*
 *   term    := unary (("*" | "/") unary)*
 *   unary   := ("+" | "-") unary | primary
 *   primary := number | "[value]" | "(" expr ")"
 */

/** Longest formula accepted; the vendor's form field is a short text input. */
export const FORMULA_MAX_LENGTH = 255;
/** Deepest nesting of parentheses and signs, so a hostile formula cannot exhaust the stack. */
const MAX_DEPTH = 32;

type Node = { k: "num"; v: number } | { k: "value" } | { k: "neg"; a: Node } | { k: "bin"; op: "+" | "-" | "*" | "/"; a: Node; b: Node };

/** A parsed formula: apply it to a raw value; non-finite results (x/0) are null. */
export type Formula = (value: number) => number | null;

export type FormulaResult = { ok: true; formula: Formula } | { ok: false; error: string };

class FormulaError extends Error {}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly s: string) {}

  parse(): Node {
    const node = this.expr();
    this.skip();
    if (this.i < this.s.length) this.fail(`Unexpected "${this.s[this.i]}" at position ${this.i + 1}.`);
    return node;
  }

  private fail(msg: string): never {
    throw new FormulaError(msg);
  }

  private skip(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  private peek(): string | undefined {
    this.skip();
    return this.s[this.i];
  }

  private nested<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH) this.fail("The formula is nested too deeply.");
    const out = f();
    this.depth--;
    return out;
  }

  private expr(): Node {
    let node = this.term();
    for (let c = this.peek(); c === "+" || c === "-"; c = this.peek()) {
      this.i++;
      node = { k: "bin", op: c, a: node, b: this.term() };
    }
    return node;
  }

  private term(): Node {
    let node = this.unary();
    for (let c = this.peek(); c === "*" || c === "/"; c = this.peek()) {
      this.i++;
      node = { k: "bin", op: c, a: node, b: this.unary() };
    }
    return node;
  }

  private unary(): Node {
    const c = this.peek();
    if (c === "+" || c === "-") {
      this.i++;
      return this.nested(() => {
        const a = this.unary();
        return c === "-" ? { k: "neg", a } : a;
      });
    }
    return this.primary();
  }

  private primary(): Node {
    const c = this.peek();
    if (c === undefined) this.fail("The formula ends too early.");
    if (c === "(") {
      this.i++;
      const node = this.nested(() => this.expr());
      if (this.peek() !== ")") this.fail(`Missing ")" at position ${this.i + 1}.`);
      this.i++;
      return node;
    }
    if (c === "[") {
      const m = /^\[\s*value\s*\]/i.exec(this.s.slice(this.i));
      if (!m) this.fail(`Only [value] may stand in brackets (position ${this.i + 1}).`);
      this.i += m[0].length;
      return { k: "value" };
    }
    const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?/i.exec(this.s.slice(this.i));
    if (!m) this.fail(`Unexpected "${c}" at position ${this.i + 1}.`);
    this.i += m[0].length;
    const v = Number(m[0]);
    if (!Number.isFinite(v)) this.fail(`The number at position ${this.i + 1 - m[0].length} is too large.`);
    return { k: "num", v };
  }
}

function evaluate(n: Node, value: number): number {
  switch (n.k) {
    case "num":
      return n.v;
    case "value":
      return value;
    case "neg":
      return -evaluate(n.a, value);
    case "bin": {
      const a = evaluate(n.a, value);
      const b = evaluate(n.b, value);
      return n.op === "+" ? a + b : n.op === "-" ? a - b : n.op === "*" ? a * b : a / b;
    }
  }
}

/** Parses a formula; an error says what is wrong and where. */
export function parseFormula(source: string): FormulaResult {
  if (source.length > FORMULA_MAX_LENGTH) return { ok: false, error: `The formula may not be longer than ${FORMULA_MAX_LENGTH} characters.` };
  if (source.trim() === "") return { ok: false, error: "The formula is empty." };
  try {
    const ast = new Parser(source).parse();
    return {
      ok: true,
      formula: (value) => {
        const out = evaluate(ast, value);
        return Number.isFinite(out) ? out : null;
      },
    };
  } catch (err) {
    if (err instanceof FormulaError) return { ok: false, error: err.message };
    throw err;
  }
}

// The live list applies the same few formulas to every device on every poll.
const cache = new Map<string, Formula | null>();
const CACHE_MAX = 1000;

/**
 * Applies `source` (null or blank: no formula) to `value`. A formula that does not parse
 * (validation keeps them out, but a row may predate a rule) yields null, never a throw.
 */
export function applyFormula(source: string | null, value: number): number | null {
  if (source === null || source.trim() === "") return value;
  let f = cache.get(source);
  if (f === undefined) {
    const parsed = parseFormula(source);
    f = parsed.ok ? parsed.formula : null;
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(source, f);
  }
  return f ? f(value) : null;
}
