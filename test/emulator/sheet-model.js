'use strict';
// The spreadsheet's state, without any Apps Script API: sheets of cells (value, formula, note, number
// format, style), row/column metadata, frozen rows, the filter, charts and the selection. Structural edits
// (insert/delete/sort) move whole cells, so notes and formats travel with their values.
const { AppsScriptError } = require('./errors');
const { coerceInput, compareValues, displayValue } = require('./values');

const isBlank = (cell) => !cell || ((cell.v === '' || cell.v === undefined) && !cell.f);

function newCell() {
  return { v: '', f: null, note: '', fmt: null, style: null, spill: null, error: null, validation: null };
}

class FilterModel {
  constructor(sheet, row, col, numRows, numCols) {
    this.sheet = sheet;
    Object.assign(this, { row, col, numRows, numCols });
    this.criteria = new Map(); // absolute column -> criteria data
  }

  /** True when a data row (not the header) fails a column's criteria. */
  hides(r) {
    if (r <= this.row || r >= this.row + this.numRows) return false;
    for (const [col, crit] of this.criteria) {
      if (!criteriaAccepts(crit, this.sheet, r, col)) return true;
    }
    return false;
  }
}

function criteriaAccepts(crit, sheet, r, c) {
  const cell = sheet.cell(r, c);
  const v = cell ? cell.v : '';
  const shown = displayValue(v, cell && cell.fmt, sheet.spreadsheet.timeZone);
  if (crit.hiddenValues && crit.hiddenValues.map(String).includes(shown)) return false;
  if (crit.visibleValues && crit.visibleValues.length && !crit.visibleValues.map(String).includes(shown))
    return false;
  if (!crit.type) return true;
  const args = crit.values || [];
  const text = shown.toLowerCase();
  const arg = args.length ? String(args[0]).toLowerCase() : '';
  const num = typeof v === 'number' ? v : NaN;
  switch (crit.type) {
    case 'CELL_EMPTY':
      return v === '';
    case 'CELL_NOT_EMPTY':
      return v !== '';
    case 'TEXT_CONTAINS':
      return text.includes(arg);
    case 'TEXT_DOES_NOT_CONTAIN':
      return !text.includes(arg);
    case 'TEXT_STARTS_WITH':
      return text.startsWith(arg);
    case 'TEXT_ENDS_WITH':
      return text.endsWith(arg);
    case 'TEXT_EQ':
      return shown === String(args[0]);
    case 'TEXT_NOT_EQ':
      return shown !== String(args[0]);
    case 'NUMBER_EQ':
      return num === Number(args[0]);
    case 'NUMBER_NOT_EQ':
      return num !== Number(args[0]);
    case 'NUMBER_GREATER_THAN':
      return num > Number(args[0]);
    case 'NUMBER_GREATER_THAN_OR_EQUAL_TO':
      return num >= Number(args[0]);
    case 'NUMBER_LESS_THAN':
      return num < Number(args[0]);
    case 'NUMBER_LESS_THAN_OR_EQUAL_TO':
      return num <= Number(args[0]);
    case 'NUMBER_BETWEEN':
      return num >= Number(args[0]) && num <= Number(args[1]);
    case 'NUMBER_NOT_BETWEEN':
      return !(num >= Number(args[0]) && num <= Number(args[1]));
    default:
      return true; // CUSTOM_FORMULA and date conditions are recorded, not evaluated
  }
}

class SheetModel {
  constructor(spreadsheet, name, sheetId, maxRows = 1000, maxCols = 26) {
    this.spreadsheet = spreadsheet;
    this.name = name;
    this.sheetId = sheetId;
    this.maxRows = maxRows;
    this.maxCols = maxCols;
    this.rows = []; // rows[r - 1][c - 1] = cell
    this.rowMeta = []; // { hidden, height }
    this.colMeta = []; // { width, hidden }
    this.frozenRows = 0;
    this.frozenColumns = 0;
    this.filter = null;
    this.charts = [];
    this.hidden = false;
    this.tabColor = null;
  }

  cell(r, c) {
    const row = this.rows[r - 1];
    return row ? row[c - 1] : undefined;
  }

  ensure(r, c) {
    const row = this.rows[r - 1] || (this.rows[r - 1] = []);
    return row[c - 1] || (row[c - 1] = newCell());
  }

  value(r, c) {
    const cell = this.cell(r, c);
    return cell ? cell.v : '';
  }

  /** Writes what a script wrote with setValue(s): coercion, formulas, auto number formats. */
  write(r, c, input) {
    if (typeof input === 'string' && input.length > 50000) {
      throw new AppsScriptError(
        'Your input contains more than the maximum of 50000 characters in a single cell.',
      );
    }
    const cell = this.ensure(r, c);
    const res = coerceInput(input, cell.fmt, this.spreadsheet.timeZone, this.spreadsheet.now());
    const wasSpill = cell.spill;
    cell.v = res.v;
    cell.f = res.f || null;
    cell.error = res.error || null;
    cell.spill = null;
    if (res.format && !cell.fmt) cell.fmt = res.format;
    if (cell.validation === 'checkbox' && typeof cell.v !== 'boolean' && cell.v === '') cell.v = false;
    if (cell.f || wasSpill) this.spreadsheet.markDirty(this, r, c);
    this.spreadsheet.changed(this, r, c);
  }

  writeFormula(r, c, formula) {
    const f = formula === null || formula === undefined ? '' : String(formula);
    if (f === '') return this.write(r, c, '');
    const cell = this.ensure(r, c);
    cell.f = f.startsWith('=') ? f : `=${f}`;
    cell.v = '';
    cell.error = null;
    cell.spill = null;
    this.spreadsheet.markDirty(this, r, c);
    this.spreadsheet.changed(this, r, c);
  }

  clearCell(r, c, { contents = true, formats = false, notes = false, validation = false } = {}) {
    const cell = this.cell(r, c);
    if (!cell) return;
    if (contents) {
      if (cell.f || cell.spill) this.spreadsheet.markDirty(this, r, c);
      cell.v = cell.validation === 'checkbox' && !validation ? false : '';
      cell.f = null;
      cell.error = null;
      cell.spill = null;
    }
    if (formats) {
      cell.fmt = null;
      cell.style = null;
    }
    if (notes) cell.note = '';
    if (validation) cell.validation = null;
    this.spreadsheet.changed(this, r, c);
  }

  hasContent(r, c) {
    return !isBlank(this.cell(r, c));
  }

  lastRow() {
    for (let r = Math.min(this.rows.length, this.maxRows); r >= 1; r--) {
      const row = this.rows[r - 1];
      if (row && row.some((cell) => !isBlank(cell))) return r;
    }
    return 0;
  }

  lastColumn() {
    let last = 0;
    for (const row of this.rows) {
      if (!row) continue;
      for (let c = row.length; c > last; c--) {
        if (!isBlank(row[c - 1])) {
          last = c;
          break;
        }
      }
    }
    return last;
  }

  checkBounds(row, col, numRows, numCols) {
    if (row < 1) throw new AppsScriptError('The starting row of the range is too small.');
    if (col < 1) throw new AppsScriptError('The starting column of the range is too small.');
    if (numRows < 1) throw new AppsScriptError('The number of rows in the range must be at least 1.');
    if (numCols < 1) throw new AppsScriptError('The number of columns in the range must be at least 1.');
    if (row + numRows - 1 > this.maxRows || col + numCols - 1 > this.maxCols) {
      throw new AppsScriptError('The coordinates of the range are outside the dimensions of the sheet.');
    }
  }

  isRowHiddenByUser(r) {
    return Boolean(this.rowMeta[r - 1] && this.rowMeta[r - 1].hidden);
  }

  isRowHiddenByFilter(r) {
    return Boolean(this.filter && this.filter.hides(r));
  }

  setRowsHidden(start, num, hidden) {
    for (let r = start; r < start + num; r++) {
      const meta = this.rowMeta[r - 1] || (this.rowMeta[r - 1] = {});
      meta.hidden = hidden;
    }
  }

  insertRows(before, n) {
    if (before < 1 || before > this.maxRows + 1) throw new AppsScriptError('Those rows are out of bounds.');
    const holes = new Array(n);
    if (this.rows.length >= before) this.rows.splice(before - 1, 0, ...holes);
    if (this.rowMeta.length >= before) this.rowMeta.splice(before - 1, 0, ...new Array(n));
    this.maxRows += n;
    if (before <= this.frozenRows) this.frozenRows += n;
    if (this.filter) {
      if (before <= this.filter.row) this.filter.row += n;
      else if (before < this.filter.row + this.filter.numRows) this.filter.numRows += n;
    }
    this.spreadsheet.structureChanged(this, 'row', before, n);
  }

  deleteRows(start, n) {
    if (start < 1 || start + n - 1 > this.maxRows) throw new AppsScriptError('Those rows are out of bounds.');
    if (this.maxRows - n < 1 + this.frozenRows) {
      throw new AppsScriptError('Sorry, it is not possible to delete all non-frozen rows.');
    }
    this.rows.splice(start - 1, n);
    this.rowMeta.splice(start - 1, n);
    this.maxRows -= n;
    if (start <= this.frozenRows) this.frozenRows -= Math.min(n, this.frozenRows - start + 1);
    if (this.filter) this.filter = shrink(this.filter, 'row', 'numRows', start, n);
    this.spreadsheet.structureChanged(this, 'row', start, -n);
  }

  insertColumns(before, n) {
    if (before < 1 || before > this.maxCols + 1)
      throw new AppsScriptError('Those columns are out of bounds.');
    for (const row of this.rows) if (row && row.length >= before) row.splice(before - 1, 0, ...new Array(n));
    if (this.colMeta.length >= before) this.colMeta.splice(before - 1, 0, ...new Array(n));
    this.maxCols += n;
    if (before <= this.frozenColumns) this.frozenColumns += n;
    if (this.filter) {
      if (before <= this.filter.col) this.filter.col += n;
      else if (before < this.filter.col + this.filter.numCols) this.filter.numCols += n;
      this.filter.criteria = shiftKeys(this.filter.criteria, before, n);
    }
    this.spreadsheet.structureChanged(this, 'col', before, n);
  }

  deleteColumns(start, n) {
    if (start < 1 || start + n - 1 > this.maxCols)
      throw new AppsScriptError('Those columns are out of bounds.');
    if (this.maxCols - n < 1 + this.frozenColumns) {
      throw new AppsScriptError('Sorry, it is not possible to delete all non-frozen columns.');
    }
    for (const row of this.rows) if (row) row.splice(start - 1, n);
    this.colMeta.splice(start - 1, n);
    this.maxCols -= n;
    if (start <= this.frozenColumns) this.frozenColumns -= Math.min(n, this.frozenColumns - start + 1);
    if (this.filter) {
      const crit = new Map();
      for (const [c, v] of this.filter.criteria) {
        if (c < start) crit.set(c, v);
        else if (c >= start + n) crit.set(c - n, v);
      }
      this.filter.criteria = crit;
      this.filter = shrink(this.filter, 'col', 'numCols', start, n);
    }
    this.spreadsheet.structureChanged(this, 'col', start, -n);
  }

  /**
   * Sheet.moveRows / moveColumns: lines start..start+n-1 go before line `dest` (counted before the move), the
   * lines between shift to make room; cells, notes, formats, heights and widths go with them, references follow
   * (Apps Script reference: "Existing data is shifted down to make room for the moved rows while the source rows
   * are removed from the grid"). A destination inside the moved lines, or right after them, leaves them where
   * they are.
   */
  moveLines(axis, start, n, dest) {
    const max = axis === 'row' ? this.maxRows : this.maxCols;
    const what = axis === 'row' ? 'rows' : 'columns';
    if (start < 1 || n < 1 || start + n - 1 > max || dest < 1 || dest > max + 1)
      throw new AppsScriptError(`Those ${what} are out of bounds.`);
    if (dest >= start && dest <= start + n) return;
    if (axis === 'row') {
      moveBlock(this.rows, start, n, dest);
      moveBlock(this.rowMeta, start, n, dest);
    } else {
      for (const row of this.rows) if (row) moveBlock(row, start, n, dest);
      moveBlock(this.colMeta, start, n, dest);
    }
    this.spreadsheet.structureMoved(this, axis, moveMap(start, n, dest));
  }

  /** Array outputs name their formula's cell: after a move, its new place (see moveLines). */
  remapSpills(axis, map) {
    for (const row of this.rows) {
      if (!row) continue;
      for (const cell of row) {
        if (!cell || !cell.spill) continue;
        const [id, r, c] = cell.spill.split(':').map(Number);
        cell.spill = axis === 'row' ? `${id}:${map(r)}:${c}` : `${id}:${r}:${map(c)}`;
      }
    }
  }

  /**
   * An array output moves with its formula when rows or columns are inserted or deleted before it (its cells
   * name their formula's cell); deleting the formula's row or column deletes its output.
   */
  moveSpills(axis, at, delta) {
    const moved = (key) => {
      const [id, r, c] = key.split(':').map(Number);
      const pos = axis === 'row' ? r : c;
      if (delta < 0 && pos >= at && pos < at - delta) return null;
      if (pos < at) return key;
      return axis === 'row' ? `${id}:${r + delta}:${c}` : `${id}:${r}:${c + delta}`;
    };
    for (const row of this.rows) {
      if (!row) continue;
      for (const cell of row) {
        if (!cell || !cell.spill) continue;
        const key = moved(cell.spill);
        if (key === null) Object.assign(cell, { v: '', spill: null });
        else cell.spill = key;
      }
    }
  }

  /** Sorts rows row..row+numRows-1 over columns col..col+numCols-1 by specs [{ column, ascending }]. */
  sortRange(row, col, numRows, numCols, specs) {
    for (const s of specs) {
      if (s.column < col || s.column >= col + numCols) {
        throw new AppsScriptError(`The sort column must be within the range.`);
      }
    }
    const slices = [];
    for (let r = row; r < row + numRows; r++) {
      const cells = [];
      for (let c = col; c < col + numCols; c++) cells.push(this.cell(r, c));
      slices.push(cells);
    }
    const indexed = slices.map((cells, i) => ({ cells, i }));
    indexed.sort((a, b) => {
      for (const s of specs) {
        const ca = a.cells[s.column - col];
        const cb = b.cells[s.column - col];
        const d = compareValues(ca ? ca.v : '', cb ? cb.v : '', s.ascending !== false);
        if (d) return d;
      }
      return a.i - b.i;
    });
    indexed.forEach(({ cells }, i) => {
      const r = row + i;
      cells.forEach((cell, j) => {
        const rowArr = this.rows[r - 1] || (this.rows[r - 1] = []);
        rowArr[col + j - 1] = cell;
      });
    });
    this.spreadsheet.markAllDirty();
  }
}

/** Where line i goes when lines start..start+n-1 move before line dest (dest outside them). */
function moveMap(start, n, dest) {
  return (i) => {
    if (i >= start && i < start + n) return dest > start ? dest - n + (i - start) : dest + (i - start);
    if (dest > start && i >= start + n && i < dest) return i - n;
    if (dest < start && i >= dest && i < start) return i + n;
    return i;
  };
}

/** Moves arr[start-1 .. start+n-2] before arr[dest-1] (1-based lines; missing ones are holes). */
function moveBlock(arr, start, n, dest) {
  const need = Math.max(start + n - 1, dest - 1);
  if (arr.length < need) arr.length = need;
  const block = arr.splice(start - 1, n);
  arr.splice(dest > start ? dest - 1 - n : dest - 1, 0, ...block);
}

function shrink(filter, pos, size, start, n) {
  const a = filter[pos];
  const b = a + filter[size] - 1;
  const end = start + n - 1;
  const removedBefore = Math.max(0, Math.min(end, a - 1) - start + 1);
  const overlap = Math.max(0, Math.min(end, b) - Math.max(start, a) + 1);
  filter[pos] = a - removedBefore;
  filter[size] -= overlap;
  return filter[size] > 0 ? filter : null;
}

function shiftKeys(map, before, n) {
  const out = new Map();
  for (const [c, v] of map) out.set(c >= before ? c + n : c, v);
  return out;
}

class SpreadsheetModel {
  constructor({ id, name, timeZone, locale = 'en_US', now = Date.now }) {
    this.id = id;
    /** The clock "this year" is read from when a typed date has no year. */
    this.now = now;
    this.name = name;
    this.timeZone = timeZone;
    this.locale = locale;
    this.sheets = [];
    this.nextSheetId = 0;
    this.selection = null; // { sheetId, ranges: [{ row, col, numRows, numCols }], current: { row, col } }
    this.dirty = new Set(); // 'sheetId:row:col' of formula cells to re-evaluate ('*': all)
    this.changes = []; // [sheetId, row, col] of cells written since the last recalculation
    this.listeners = { structure: [], move: [], change: [] };
    this.addSheet('Sheet1');
  }

  addSheet(name, index = this.sheets.length, { rows = 1000, cols = 26 } = {}) {
    if (name === undefined || name === null || name === '') {
      let i = this.sheets.length + 1;
      while (this.byName(`Sheet${i}`)) i++;
      name = `Sheet${i}`;
    }
    name = String(name);
    if (this.byName(name)) {
      throw new AppsScriptError(`A sheet with the name "${name}" already exists. Please enter another name.`);
    }
    const id = this.nextSheetId === 0 ? 0 : 100000000 + this.nextSheetId * 7919;
    this.nextSheetId++;
    const sheet = new SheetModel(this, name, id, rows, cols);
    this.sheets.splice(Math.max(0, Math.min(index, this.sheets.length)), 0, sheet);
    return sheet;
  }

  removeSheet(sheet) {
    if (this.sheets.length === 1) {
      throw new AppsScriptError("You can't remove all the sheets in a document.");
    }
    this.sheets = this.sheets.filter((s) => s !== sheet);
    if (this.selection && this.selection.sheetId === sheet.sheetId) this.selection = null;
    this.markAllDirty();
  }

  byName(name) {
    return this.sheets.find((s) => s.name === name) || null;
  }

  byId(id) {
    return this.sheets.find((s) => s.sheetId === id) || null;
  }

  activeSheet() {
    return (this.selection && this.byId(this.selection.sheetId)) || this.sheets[0];
  }

  select(sheet, ranges, current) {
    const list = ranges && ranges.length ? ranges : [{ row: 1, col: 1, numRows: 1, numCols: 1 }];
    this.selection = {
      sheetId: sheet.sheetId,
      ranges: list.map((r) => ({ row: r.row, col: r.col, numRows: r.numRows, numCols: r.numCols })),
      current: current || { row: list[list.length - 1].row, col: list[list.length - 1].col },
    };
  }

  markDirty(sheet, r, c) {
    this.dirty.add(`${sheet.sheetId}:${r}:${c}`);
  }

  markAllDirty() {
    this.dirty.add('*');
  }

  changed(sheet, r, c) {
    if (this.changes.length < 100000) this.changes.push([sheet.sheetId, r, c]);
    else this.dirty.add('*');
    for (const fn of this.listeners.change) fn(sheet, r, c);
  }

  structureMoved(sheet, axis, map) {
    sheet.remapSpills(axis, map);
    for (const fn of this.listeners.move) fn(sheet, axis, map);
    this.markAllDirty();
  }

  structureChanged(sheet, axis, at, delta) {
    sheet.moveSpills(axis, at, delta);
    for (const fn of this.listeners.structure) fn(sheet, axis, at, delta);
    this.markAllDirty();
  }
}

module.exports = { SpreadsheetModel, SheetModel, FilterModel, newCell, isBlank, criteriaAccepts };
