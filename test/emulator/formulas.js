'use strict';
// Formulas as the emulator understands them: a formula that is one call of a script function with literal
// and range arguments (=PHONE_CHECK(A2:A5), =PROSPECT_SEARCH("acme", 10)) is a custom-function call and is
// evaluated the way Sheets does; the common text formulas (=LOWER(A2)&"@acme.com", builtin-formulas.js) are
// evaluated too; any other formula keeps the value '' and is marked `unevaluated`.
// References in every formula follow inserted and deleted rows and columns.
const { columnToLetters, lettersToColumn, splitSheet, parseRef, toA1, quoteSheetName } = require('./a1');
const { isBlank } = require('./sheet-model');
const { evaluateFormula, FormulaError, Unsupported } = require('./builtin-formulas');

const SHEET_PREFIX = String.raw`(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!`;
const CELL = String.raw`\$?[A-Za-z]{1,3}\$?\d+`;
const REF_BODY = String.raw`${CELL}(?::${CELL}|:\$?[A-Za-z]{1,3})?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+`;
const REF_RE = new RegExp(String.raw`(?<![\w.$'!])(${SHEET_PREFIX})?(${REF_BODY})(?![\w(!])`, 'g');

/** Calls fn on every text segment outside string literals, and joins the results. */
function mapOutsideStrings(formula, fn) {
  let out = '';
  let i = 0;
  while (i < formula.length) {
    const q = formula.indexOf('"', i);
    if (q < 0) {
      out += fn(formula.slice(i));
      break;
    }
    out += fn(formula.slice(i, q));
    let j = q + 1;
    for (;;) {
      const e = formula.indexOf('"', j);
      if (e < 0) {
        j = formula.length;
        break;
      }
      if (formula[e + 1] === '"') j = e + 2;
      else {
        j = e + 1;
        break;
      }
    }
    out += formula.slice(q, j);
    i = j;
  }
  return out;
}

/** Splits an argument list at top-level commas; null when it nests calls or parentheses. */
function splitArgs(text) {
  const args = [];
  let cur = '';
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inStr) {
      cur += ch;
      if (ch === '"') {
        if (text[i + 1] === '"') cur += text[++i];
        else inStr = false;
      }
    } else if (ch === '"') {
      inStr = true;
      cur += ch;
    } else if (ch === '(' || ch === ')' || ch === '{' || ch === '}') return null;
    else if (ch === ',') {
      args.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (inStr) return null;
  args.push(cur.trim());
  return args.length === 1 && args[0] === '' ? [] : args;
}

/**
 * Parses '=NAME(arg, ...)' into { name, args } with args { type: 'number'|'string'|'boolean'|'ref'|'empty' }.
 * Returns null for anything else (operators, nested calls, arrays).
 */
function parseCall(formula) {
  const m = /^=\s*([A-Za-z_][\w.]*)\s*\(([\s\S]*)\)\s*$/.exec(formula);
  if (!m) return null;
  const parts = splitArgs(m[2]);
  if (!parts) return null;
  const args = [];
  for (const p of parts) {
    if (p === '') args.push({ type: 'empty' });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(p))
      args.push({ type: 'number', value: Number(p) });
    else if (/^"(?:[^"]|"")*"$/.test(p))
      args.push({ type: 'string', value: p.slice(1, -1).replace(/""/g, '"') });
    else if (/^(TRUE|FALSE)$/i.test(p)) args.push({ type: 'boolean', value: /^TRUE$/i.test(p) });
    else if (new RegExp(`^(${SHEET_PREFIX})?(${REF_BODY})$`).test(p)) args.push({ type: 'ref', ref: p });
    else return null;
  }
  return { name: m[1], args };
}

/** Reads a reference the way a custom function receives it: one cell -> scalar, a range -> 2-D array. */
function readRefArgument(spreadsheet, hostSheet, refText) {
  const { sheetName, ref } = splitSheet(refText);
  const sheet = sheetName ? spreadsheet.byName(sheetName) : hostSheet;
  if (!sheet) throw new Error(`Unresolved sheet name '${sheetName}'.`);
  const { row, col, numRows, numCols } = parseRef(ref, sheet.maxRows, sheet.maxCols);
  const read = (r, c) => {
    const cell = sheet.cell(r, c);
    if (!cell) return '';
    return cell.v instanceof Date ? new Date(cell.v.getTime()) : cell.v;
  };
  if (numRows === 1 && numCols === 1) return read(row, col);
  const out = [];
  const lastRow = Math.min(row + numRows - 1, sheet.maxRows);
  const lastCol = Math.min(col + numCols - 1, sheet.maxCols);
  for (let r = row; r <= lastRow; r++) {
    const line = [];
    for (let c = col; c <= lastCol; c++) line.push(read(r, c));
    out.push(line);
  }
  return out;
}

/** Shifts one coordinate for an insertion (delta > 0) or deletion (delta < 0) at `at`. */
function shiftEnd(value, at, delta, isStart) {
  if (delta > 0) return value >= at ? value + delta : value;
  const n = -delta;
  const last = at + n - 1;
  if (value < at) return value;
  if (value > last) return value - n;
  return isStart ? at : at - 1; // inside the deleted block
}

function shiftRef(body, axis, at, delta) {
  const ends = body.split(':').map((p) => {
    const m = /^(\$?)([A-Za-z]{1,3})?(\$?)(\d+)?$/.exec(p);
    return { c$: m[1], col: m[2] ? lettersToColumn(m[2]) : null, r$: m[3], row: m[4] ? Number(m[4]) : null };
  });
  const key = axis === 'row' ? 'row' : 'col';
  if (ends.some((e) => e[key] === null)) return body; // open along that axis (A:A for rows)
  const a = ends[0];
  const b = ends[1] || ends[0];
  const na = shiftEnd(a[key], at, delta, true);
  const nb = shiftEnd(b[key], at, delta, false);
  if (nb < na) return null;
  a[key] = na;
  if (ends[1]) b[key] = nb;
  else if (delta < 0 && a[key] !== nb) return null;
  return ends
    .map((e) => `${e.col !== null ? e.c$ + columnToLetters(e.col) : ''}${e.row !== null ? e.r$ + e.row : ''}`)
    .join(':');
}

/** Rewrites the references of `formula` (in hostSheetName) that point at sheetName after a structural edit. */
function shiftFormula(formula, hostSheetName, sheetName, axis, at, delta) {
  return mapOutsideStrings(formula, (text) =>
    text.replace(REF_RE, (whole, prefix, body) => {
      const target = prefix ? splitSheet(prefix + 'A1').sheetName : hostSheetName;
      if (target !== sheetName) return whole;
      const shifted = shiftRef(body, axis, at, delta);
      return shifted === null ? '#REF!' : (prefix || '') + shifted;
    }),
  );
}

/** A reference after moved lines: each end follows its cell (map), a range keeps its ends in order. */
function moveRef(body, axis, map) {
  const ends = body.split(':').map((p) => {
    const m = /^(\$?)([A-Za-z]{1,3})?(\$?)(\d+)?$/.exec(p);
    return { c$: m[1], col: m[2] ? lettersToColumn(m[2]) : null, r$: m[3], row: m[4] ? Number(m[4]) : null };
  });
  const key = axis === 'row' ? 'row' : 'col';
  if (ends.some((e) => e[key] === null)) return body; // open along that axis (A:A for rows)
  for (const e of ends) e[key] = map(e[key]);
  if (ends[1] && ends[1][key] < ends[0][key]) [ends[0][key], ends[1][key]] = [ends[1][key], ends[0][key]];
  return ends
    .map((e) => `${e.col !== null ? e.c$ + columnToLetters(e.col) : ''}${e.row !== null ? e.r$ + e.row : ''}`)
    .join(':');
}

/** Rewrites the references of `formula` (in hostSheetName) that point at sheetName after lines moved. */
function moveFormula(formula, hostSheetName, sheetName, axis, map) {
  return mapOutsideStrings(formula, (text) =>
    text.replace(REF_RE, (whole, prefix, body) => {
      const target = prefix ? splitSheet(prefix + 'A1').sheetName : hostSheetName;
      return target === sheetName ? (prefix || '') + moveRef(body, axis, map) : whole;
    }),
  );
}

/** Normalizes a custom function's result to a 2-D array (a 1-D array spills down a column). */
function toGrid(result) {
  if (!Array.isArray(result)) return [[result]];
  if (result.length === 0) return [['']];
  const rows = result.map((r) => (Array.isArray(r) ? r : [r]));
  const width = Math.max(1, ...rows.map((r) => r.length));
  return rows.map((r) => Array.from({ length: width }, (_, i) => (i < r.length ? r[i] : '')));
}

function cellValue(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? v : '#NUM!';
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v;
  return String(v);
}

/**
 * Evaluates custom-function formulas. `dirtyOnly` limits it to cells written since the last pass (and
 * everything after a structural edit); otherwise every custom formula runs again, as when the file opens.
 */
function recalculate(emu, { dirtyOnly = false } = {}) {
  const ss = emu._model;
  const dirty = ss.dirty;
  const everything = !dirtyOnly || dirty.has('*');
  const names = emu._scriptFunctionNames();
  const results = [];
  for (const sheet of ss.sheets) {
    for (let r = 1; r <= sheet.rows.length; r++) {
      const row = sheet.rows[r - 1];
      if (!row) continue;
      for (let c = 1; c <= row.length; c++) {
        const cell = row[c - 1];
        if (!cell || !cell.f) continue;
        const call = parseCall(cell.f);
        if (!call) continue;
        const fnName = names.get(call.name.toUpperCase());
        if (!fnName) continue;
        if (!everything && !dirty.has(`${sheet.sheetId}:${r}:${c}`) && !touched(ss, sheet, r, c, cell, call))
          continue;
        results.push(evaluateCell(emu, sheet, r, c, call, fnName));
      }
    }
  }
  evaluateBuiltins(emu, names);
  dirty.clear();
  ss.changes = [];
  return results;
}

/**
 * Every built-in formula, each once, a formula's inputs before it (as Sheets recalculates what depends on
 * a change): a value, or an error with its note (#VALUE!, a circular reference as #REF!), or `unevaluated`.
 */
function evaluateBuiltins(emu, names) {
  const ss = emu._model;
  const state = new Map(); // cell key → 'busy' while its inputs are evaluated, then 'done'
  const isBuiltin = (cell) => {
    if (!cell || !cell.f) return false;
    const call = parseCall(cell.f);
    return !(call && names.has(call.name.toUpperCase()));
  };
  const valueOf = (sheet, r, c) => {
    const cell = sheet.cell(r, c);
    if (!cell) return '';
    if (isBuiltin(cell)) settle(sheet, r, c, cell);
    if (cell.error) throw new FormulaError(/^#[A-Z0-9/!?]+$/.test(cell.v) ? cell.v : '#ERROR!', cell.error);
    return cell.v;
  };
  const settle = (sheet, r, c, cell) => {
    const key = `${sheet.sheetId}:${r}:${c}`;
    if (state.get(key) === 'done') return;
    if (state.get(key) === 'busy')
      throw new FormulaError(
        '#REF!',
        'Circular dependency detected. To resolve with iterative calculation, see File > Settings.',
      );
    state.set(key, 'busy');
    try {
      const out = evaluateFormula(cell.f, { model: ss, sheet, valueOf, tz: ss.timeZone });
      if (out.error) Object.assign(cell, { v: out.error.code, error: out.error.message, unevaluated: null });
      else Object.assign(cell, { v: cellValue(out.value), error: null, unevaluated: null });
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
      Object.assign(cell, { v: '', error: null, unevaluated: e.message });
    } finally {
      state.set(key, 'done');
    }
  };
  for (const sheet of ss.sheets) {
    sheet.rows.forEach((row, i) => {
      if (row) row.forEach((cell, j) => isBuiltin(cell) && settle(sheet, i + 1, j + 1, cell));
    });
  }
}

/** True when a written cell lies in one of the formula's input ranges or in its (wanted) spill area. */
function touched(ss, sheet, r, c, cell, call) {
  const rects = [];
  for (const a of call.args) {
    if (a.type !== 'ref') continue;
    const { sheetName, ref } = splitSheet(a.ref);
    const target = sheetName ? ss.byName(sheetName) : sheet;
    if (!target) continue;
    rects.push({ sheetId: target.sheetId, ...parseRef(ref, target.maxRows, target.maxCols) });
  }
  const size = cell.spillSize || { rows: 1, cols: 1 };
  rects.push({ sheetId: sheet.sheetId, row: r, col: c, numRows: size.rows, numCols: size.cols });
  return ss.changes.some(([id, cr, cc]) =>
    rects.some(
      (q) =>
        q.sheetId === id && cr >= q.row && cr < q.row + q.numRows && cc >= q.col && cc < q.col + q.numCols,
    ),
  );
}

function clearSpill(sheet, key) {
  for (const row of sheet.rows) {
    if (!row) continue;
    for (const cell of row) if (cell && cell.spill === key) Object.assign(cell, { v: '', spill: null });
  }
}

function evaluateCell(emu, sheet, r, c, call, fnName) {
  const key = `${sheet.sheetId}:${r}:${c}`;
  const anchor = sheet.cell(r, c);
  clearSpill(sheet, key);
  const a1 = `${quoteSheetName(sheet.name)}!${toA1(r, c)}`;
  let grid;
  try {
    const args = call.args.map((a) =>
      a.type === 'ref' ? readRefArgument(emu._model, sheet, a.ref) : a.type === 'empty' ? undefined : a.value,
    );
    grid = toGrid(emu.runCustomFunction(fnName, args, { cell: { sheet: sheet.name, row: r, col: c } }));
  } catch (e) {
    Object.assign(anchor, { v: '#ERROR!', error: e.message });
    return { cell: a1, error: e.message };
  }
  const height = grid.length;
  const width = grid[0].length;
  anchor.spillSize = { rows: height, cols: width };
  if (r + height - 1 > sheet.maxRows || c + width - 1 > sheet.maxCols) {
    const msg = 'Result was not automatically expanded, please insert more rows or columns.';
    Object.assign(anchor, { v: '#REF!', error: msg });
    return { cell: a1, error: msg };
  }
  for (let i = 0; i < height; i++) {
    for (let j = 0; j < width; j++) {
      if (i === 0 && j === 0) continue;
      if (!isBlank(sheet.cell(r + i, c + j))) {
        const msg = `Array result was not expanded because it would overwrite data in ${toA1(r + i, c + j)}.`;
        Object.assign(anchor, { v: '#REF!', error: msg });
        return { cell: a1, error: msg };
      }
    }
  }
  for (let i = 0; i < height; i++) {
    for (let j = 0; j < width; j++) {
      const v = cellValue(grid[i][j]);
      if (i === 0 && j === 0) Object.assign(anchor, { v, error: null });
      else Object.assign(sheet.ensure(r + i, c + j), { v, spill: key, f: null });
    }
  }
  return { cell: a1, rows: height, columns: width };
}

module.exports = {
  parseCall,
  shiftFormula,
  moveFormula,
  recalculate,
  readRefArgument,
  toGrid,
  mapOutsideStrings,
};
