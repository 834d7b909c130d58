'use strict';
// The built-in formulas a mailing list is commonly built with, evaluated as Sheets evaluates them, so a
// column of =LOWER(A2)&"@acme.com" holds addresses in the emulator and the playground as it does in Sheets
//: literals, cell references, `&`, + - * / and parentheses, and the text functions below. Any
// other formula is not evaluated: its value stays '' and it is marked `unevaluated`, so the playground can
// show it as a formula it does not know instead of an empty cell. Each function follows its page in the
// Google Sheets function list (test/emulator/README.md names them).
const { splitSheet, parseRef } = require('./a1');
const { displayValue, serialFromDate } = require('./values');
const { isDate } = require('./realm');

class FormulaError extends Error {
  /** @param {string} code '#VALUE!', '#REF!', '#N/A'… what the cell shows  @param {string} message its note */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** Not a formula the emulator knows (a function it does not implement, an operator it does not parse). */
class Unsupported extends Error {}

// ── Tokens and parsing ─────────────────────────────────────────────────────────────────────────────────

const SHEET = String.raw`(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!`;
const CELL = String.raw`\$?[A-Za-z]{1,3}\$?\d+`;
const TOKEN = new RegExp(
  String.raw`\s*(?:(?<str>"(?:[^"]|"")*")|(?<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|` +
    String.raw`(?<ref>(?:${SHEET})?${CELL}(?::${CELL})?)(?![\w(])|(?<name>[A-Za-z_][\w.]*)|(?<op>[&+\-*/(),]))`,
  'y',
);

function tokenize(text) {
  const tokens = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const m = TOKEN.exec(text);
    if (!m) throw new Unsupported(`cannot read "${text.slice(TOKEN.lastIndex).trim()}"`);
    const [kind, value] = Object.entries(m.groups).find(([, v]) => v !== undefined);
    tokens.push({ kind, value });
  }
  return tokens;
}

/** '=…' → an expression tree: { lit }, { ref }, { op, args }, { call, args }. */
function parseFormula(formula) {
  const tokens = tokenize(formula.replace(/^=/, ''));
  let at = 0;
  const peek = () => tokens[at];
  const isOp = (value) => peek() && peek().kind === 'op' && peek().value === value;
  const take = (value) => {
    if (!isOp(value)) throw new Unsupported(`"${value}" expected`);
    at++;
  };
  const binary = (next, ops) => () => {
    let left = next();
    while (peek() && peek().kind === 'op' && ops.includes(peek().value)) {
      const op = tokens[at++].value;
      left = { op, args: [left, next()] };
    }
    return left;
  };
  const primary = () => {
    const t = tokens[at++];
    if (!t) throw new Unsupported('unexpected end');
    if (t.kind === 'str') return { lit: t.value.slice(1, -1).replace(/""/g, '"') };
    if (t.kind === 'num') return { lit: Number(t.value) };
    if (t.kind === 'ref') return { ref: t.value };
    if (t.kind === 'op' && (t.value === '-' || t.value === '+'))
      return { op: `unary${t.value}`, args: [primary()] };
    if (t.kind === 'op' && t.value === '(') {
      const inner = concat();
      take(')');
      return inner;
    }
    if (t.kind === 'name' && /^(TRUE|FALSE)$/i.test(t.value) && !isOp('('))
      return { lit: /^TRUE$/i.test(t.value) };
    if (t.kind === 'name' && isOp('(')) {
      at++;
      const args = [];
      if (!isOp(')')) {
        do args.push(isOp(',') || isOp(')') ? { lit: null } : concat());
        while (isOp(',') && ++at);
      }
      take(')');
      return { call: t.value.toUpperCase(), args };
    }
    throw new Unsupported(`"${t.value}" is not understood here`);
  };
  const term = binary(primary, ['*', '/']);
  const additive = binary(term, ['+', '-']);
  const concat = binary(additive, ['&']); // & binds less tightly than + and - in Sheets
  const tree = concat();
  if (at < tokens.length) throw new Unsupported(`"${tokens[at].value}" is not understood here`);
  return tree;
}

// ── Values ──────────────────────────────────────────────────────────────────────────────────────────────

/** A value as text, as Sheets joins it: numbers in General form, dates as their serial number. */
function toText(v, tz) {
  if (v === null || v === undefined) return '';
  return displayValue(isDate(v) ? serialFromDate(v, tz) : v, 'General', tz);
}

function toNumber(v, tz) {
  if (v === null || v === undefined || v === '') return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isDate(v)) return serialFromDate(v, tz);
  const text = String(v).trim();
  if (text !== '' && Number.isFinite(Number(text))) return Number(text);
  throw new FormulaError(
    '#VALUE!',
    `Function expects number values. But '${v}' is a text and cannot be coerced to a number.`,
  );
}

function wholeCount(v, tz, name) {
  const n = Math.trunc(toNumber(v, tz));
  if (n < 0)
    throw new FormulaError(
      '#VALUE!',
      `${name} parameter 2 value is negative. It should be positive or zero.`,
    );
  return n;
}

// ── Functions ───────────────────────────────────────────────────────────────────────────────────────────

const text1 = (fn) => (args, ctx) => {
  if (args.length !== 1) throw wrongCount(ctx.name, 1, args.length);
  return fn(toText(ctx.scalar(args[0]), ctx.tz));
};

function wrongCount(name, expected, got) {
  return new FormulaError(
    '#N/A',
    `Wrong number of arguments to ${name}. Expected ${expected} arguments, but got ${got} arguments.`,
  );
}

function needs(args, ctx, min, max) {
  if (args.length < min || args.length > max)
    throw wrongCount(ctx.name, min === max ? min : `between ${min} and ${max}`, args.length);
}

const FUNCTIONS = {
  CONCATENATE: (args, ctx) =>
    args
      .flatMap((a) => ctx.flat(a))
      .map((v) => toText(v, ctx.tz))
      .join(''),
  CONCAT: (args, ctx) => {
    needs(args, ctx, 2, 2);
    return args.map((a) => toText(ctx.scalar(a), ctx.tz)).join('');
  },
  TEXTJOIN: (args, ctx) => {
    needs(args, ctx, 3, Infinity);
    const delimiter = toText(ctx.scalar(args[0]), ctx.tz);
    const skipEmpty = Boolean(toNumber(ctx.scalar(args[1]), ctx.tz));
    const parts = args
      .slice(2)
      .flatMap((a) => ctx.flat(a))
      .map((v) => toText(v, ctx.tz));
    return (skipEmpty ? parts.filter((p) => p !== '') : parts).join(delimiter);
  },
  LOWER: text1((s) => s.toLowerCase()),
  UPPER: text1((s) => s.toUpperCase()),
  // Leading and trailing spaces go, runs of spaces inside become one.
  TRIM: text1((s) => s.replace(/ +/g, ' ').replace(/^ | $/g, '')),
  // The first letter of each word upper case, every other letter lower case; a word starts after anything
  // that is not a letter.
  PROPER: text1((s) =>
    s.toLowerCase().replace(/(^|[^\p{L}])(\p{L})/gu, (_, before, letter) => before + letter.toUpperCase()),
  ),
  LEN: (args, ctx) => {
    needs(args, ctx, 1, 1);
    return toText(ctx.scalar(args[0]), ctx.tz).length;
  },
  LEFT: (args, ctx) => {
    needs(args, ctx, 1, 2);
    const s = toText(ctx.scalar(args[0]), ctx.tz);
    return s.slice(0, args.length > 1 ? wholeCount(ctx.scalar(args[1]), ctx.tz, 'LEFT') : 1);
  },
  RIGHT: (args, ctx) => {
    needs(args, ctx, 1, 2);
    const s = toText(ctx.scalar(args[0]), ctx.tz);
    const n = args.length > 1 ? wholeCount(ctx.scalar(args[1]), ctx.tz, 'RIGHT') : 1;
    return n === 0 ? '' : s.slice(-n);
  },
  MID: (args, ctx) => {
    needs(args, ctx, 3, 3);
    const s = toText(ctx.scalar(args[0]), ctx.tz);
    const start = Math.trunc(toNumber(ctx.scalar(args[1]), ctx.tz));
    if (start < 1)
      throw new FormulaError(
        '#NUM!',
        'Function MID parameter 2 value is 0. It should be greater than or equal to 1.',
      );
    return s.substr(start - 1, wholeCount(ctx.scalar(args[2]), ctx.tz, 'MID'));
  },
  SUBSTITUTE: (args, ctx) => {
    needs(args, ctx, 3, 4);
    const [s, search, replacement] = args.slice(0, 3).map((a) => toText(ctx.scalar(a), ctx.tz));
    if (search === '') return s;
    if (args.length === 3) return s.split(search).join(replacement);
    const nth = Math.trunc(toNumber(ctx.scalar(args[3]), ctx.tz));
    let from = -1;
    for (let i = 0; i < nth; i++) {
      from = s.indexOf(search, from + 1);
      if (from < 0) return s;
    }
    return s.slice(0, from) + replacement + s.slice(from + search.length);
  },
  // TEXT: the value shown with a number format, as a cell with that format shows it.
  TEXT: (args, ctx) => {
    needs(args, ctx, 2, 2);
    const value = ctx.scalar(args[0]);
    const format = toText(ctx.scalar(args[1]), ctx.tz);
    if (typeof value === 'string' && !Number.isFinite(Number(value))) return value;
    return displayValue(isDate(value) ? value : toNumber(value, ctx.tz), format, ctx.tz);
  },
  // The cell shows the label (the address when there is none).
  HYPERLINK: (args, ctx) => {
    needs(args, ctx, 1, 2);
    return toText(ctx.scalar(args[args.length > 1 && args[1].lit !== null ? 1 : 0]), ctx.tz);
  },
};

// ── Evaluation ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * Evaluates one formula of `sheet`. `valueOf(sheet, row, col)` gives a cell's value (evaluating a formula
 * cell first). Returns { value } | { error: { code, message } }; throws Unsupported for what it does not know.
 */
function evaluateFormula(formula, { model, sheet, valueOf, tz }) {
  const tree = parseFormula(formula);
  const rangeOf = (refText) => {
    const { sheetName, ref } = splitSheet(refText);
    const target = sheetName ? model.byName(sheetName) : sheet;
    if (!target) throw new FormulaError('#REF!', `Unresolved sheet name '${sheetName}'.`);
    return { target, ...parseRef(ref, target.maxRows, target.maxCols) };
  };
  const ctx = {
    tz,
    name: '',
    flat(node) {
      if (!node.ref) return [evaluate(node)];
      const { target, row, col, numRows, numCols } = rangeOf(node.ref);
      const out = [];
      for (let r = row; r < row + numRows; r++)
        for (let c = col; c < col + numCols; c++) out.push(valueOf(target, r, c));
      return out;
    },
    scalar(node) {
      if (!node.ref) return evaluate(node);
      const { target, row, col, numRows, numCols } = rangeOf(node.ref);
      if (numRows !== 1 || numCols !== 1) throw new Unsupported('a range where one value is expected');
      return valueOf(target, row, col);
    },
  };
  function evaluate(node) {
    if ('lit' in node) return node.lit === null ? '' : node.lit;
    if (node.ref) return ctx.scalar(node);
    if (node.call) {
      const fn = FUNCTIONS[node.call];
      if (!fn) throw new Unsupported(`${node.call} is not one of the functions it evaluates`);
      return fn(node.args, { ...ctx, name: node.call });
    }
    const [a, b] = node.args.map((arg) => ctx.scalar(arg));
    if (node.op === '&') return toText(a, tz) + toText(b, tz);
    if (node.op === 'unary-') return -toNumber(a, tz);
    if (node.op === 'unary+') return a;
    const [x, y] = [toNumber(a, tz), toNumber(b, tz)];
    if (node.op === '/' && y === 0)
      throw new FormulaError('#DIV/0!', 'Function DIVIDE parameter 2 cannot be zero.');
    return { '+': x + y, '-': x - y, '*': x * y, '/': x / y }[node.op];
  }
  try {
    return { value: evaluate(tree) };
  } catch (e) {
    if (e instanceof FormulaError) return { error: { code: e.code, message: e.message } };
    throw e;
  }
}

const EVALUATED_FUNCTIONS = Object.keys(FUNCTIONS);

module.exports = { evaluateFormula, parseFormula, Unsupported, FormulaError, EVALUATED_FUNCTIONS };
