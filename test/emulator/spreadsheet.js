'use strict';
// SpreadsheetApp and its objects (Spreadsheet, Sheet, Range, RangeList, Selection, Filter, criteria and
// chart builders) over the SheetModel. Every method of Spreadsheet/Sheet/Range/Filter called by the script
// is counted in emu.stats.spreadsheet (reads = get*/is*, writes = what changes state); in a custom function
// every write throws "You do not have permission to call <method>"; in AuthMode.NONE the document is closed.
const { AppsScriptError, permissionError, signatureError, makeEnum } = require('./errors');
const { instrument } = require('./execution');
const { isDate } = require('./realm');
const { splitSheet, parseRef, toA1 } = require('./a1');
const { displayValue } = require('./values');
const { FilterModel, isBlank } = require('./sheet-model');
const { Ui } = require('./ui');

const SCOPE_SHEETS = 'https://www.googleapis.com/auth/spreadsheets.currentonly';
const OTHER = new Set([
  'offset',
  'newChart',
  'flush',
  'newFilterCriteria',
  'newDataValidation',
  'toString',
  'getCell',
]);
const NONE_ALLOWED = new Set(['getUi', 'flush', 'newFilterCriteria', 'newDataValidation']);

function classify(name) {
  if (OTHER.has(name)) return 'other';
  if (/^(get|is|has)[A-Z]?/.test(name)) return 'read';
  return 'write';
}

function guard(exec, name, kind, self) {
  if (self instanceof SpreadsheetAppService && exec.authMode === 'NONE' && !NONE_ALLOWED.has(name)) {
    throw permissionError(`SpreadsheetApp.${name}`, SCOPE_SHEETS);
  }
  if (self instanceof SpreadsheetAppService && name === 'getUi') {
    if (exec.isCustomFunction || (exec.kind === 'trigger' && exec.triggerType === 'CLOCK')) {
      throw new AppsScriptError('Cannot call SpreadsheetApp.getUi() from this context.');
    }
    return;
  }
  if (exec.isCustomFunction && kind === 'write')
    throw new AppsScriptError(`You do not have permission to call ${name}`);
  if (!exec.emu._hasScope(SCOPE_SHEETS, 'https://www.googleapis.com/auth/spreadsheets')) {
    throw permissionError(`SpreadsheetApp.${name}`, SCOPE_SHEETS);
  }
}

const cloneValue = (v) => (isDate(v) ? new Date(v.getTime()) : v === undefined ? '' : v);
const int = (n, what) => {
  const v = Number(n);
  if (!Number.isInteger(v)) throw new AppsScriptError(`Invalid argument: ${what}`);
  return v;
};

const Enums = {
  Dimension: makeEnum('Dimension', ['COLUMNS', 'ROWS']),
  WrapStrategy: makeEnum('WrapStrategy', ['WRAP', 'OVERFLOW', 'CLIP']),
  BorderStyle: makeEnum('BorderStyle', [
    'DOTTED',
    'DASHED',
    'SOLID',
    'SOLID_MEDIUM',
    'SOLID_THICK',
    'DOUBLE',
  ]),
  BooleanCriteria: makeEnum('BooleanCriteria', [
    'CELL_EMPTY',
    'CELL_NOT_EMPTY',
    'TEXT_CONTAINS',
    'TEXT_DOES_NOT_CONTAIN',
    'TEXT_EQ',
    'TEXT_NOT_EQ',
    'TEXT_STARTS_WITH',
    'TEXT_ENDS_WITH',
    'NUMBER_BETWEEN',
    'NUMBER_EQ',
    'NUMBER_GREATER_THAN',
    'NUMBER_GREATER_THAN_OR_EQUAL_TO',
    'NUMBER_LESS_THAN',
    'NUMBER_LESS_THAN_OR_EQUAL_TO',
    'NUMBER_NOT_BETWEEN',
    'NUMBER_NOT_EQ',
    'CUSTOM_FORMULA',
    'CHECKBOX',
    'VALUE_IN_LIST',
  ]),
  ChartType: makeEnum('ChartType', [
    'AREA',
    'BAR',
    'BUBBLE',
    'CANDLESTICK',
    'COLUMN',
    'COMBO',
    'GAUGE',
    'GEO',
    'HISTOGRAM',
    'LINE',
    'ORG',
    'PIE',
    'SCATTER',
    'SPARKLINE',
    'STEPPED_AREA',
    'TABLE',
    'TIMELINE',
    'TREEMAP',
    'WATERFALL',
  ]),
  SortOrder: makeEnum('SortOrder', ['ASCENDING', 'DESCENDING']),
};

/* ------------------------------------------------------------------ SpreadsheetApp */

class SpreadsheetAppService {
  constructor(env) {
    this._env = env;
    Object.assign(this, Enums);
  }
  _ss() {
    return new Spreadsheet(this._env);
  }
  getActive() {
    return this._ss();
  }
  getActiveSpreadsheet() {
    return this._ss();
  }
  getActiveSheet() {
    return new Sheet(this._env, activeSheetModel(this._env));
  }
  getActiveRange() {
    return activeRange(this._env);
  }
  getActiveRangeList() {
    return activeRangeList(this._env);
  }
  getCurrentCell() {
    return currentCell(this._env);
  }
  getSelection() {
    return new Selection(this._env);
  }
  setActiveSheet(sheet) {
    this._env.emu._model.select(sheet._sheet);
    return sheet;
  }
  setActiveRange(range) {
    range._select();
    return range;
  }
  setActiveRangeList(rangeList) {
    rangeList._select();
    return rangeList;
  }
  setCurrentCell(cell) {
    cell._select(true);
    return cell;
  }
  flush() {}
  getUi() {
    return new Ui(this._env, 'Sheets');
  }
  newFilterCriteria() {
    return new FilterCriteriaBuilder(this._env);
  }
  newDataValidation() {
    return new DataValidationBuilder(this._env);
  }
  openById(_id) {
    throw permissionError('SpreadsheetApp.openById', 'https://www.googleapis.com/auth/spreadsheets');
  }
  openByUrl() {
    throw permissionError('SpreadsheetApp.openByUrl', 'https://www.googleapis.com/auth/spreadsheets');
  }
  create() {
    throw permissionError('SpreadsheetApp.create', 'https://www.googleapis.com/auth/spreadsheets');
  }
}

function activeSheetModel(env) {
  const exec = env.exec;
  if (exec && exec.cell) return env.emu._model.byName(exec.cell.sheet) || env.emu._model.activeSheet();
  return env.emu._model.activeSheet();
}

function selectionOf(env) {
  const ss = env.emu._model;
  const exec = env.exec;
  if (exec && exec.cell) {
    const sheet = ss.byName(exec.cell.sheet);
    const r = { row: exec.cell.row, col: exec.cell.col, numRows: 1, numCols: 1 };
    return { sheet, ranges: [r], current: { row: r.row, col: r.col } };
  }
  const sheet = ss.activeSheet();
  const sel = ss.selection && ss.selection.sheetId === sheet.sheetId ? ss.selection : null;
  if (!sel)
    return { sheet, ranges: [{ row: 1, col: 1, numRows: 1, numCols: 1 }], current: { row: 1, col: 1 } };
  return { sheet, ranges: sel.ranges, current: sel.current };
}

function activeRange(env) {
  const { sheet, ranges } = selectionOf(env);
  const r = ranges[ranges.length - 1];
  return new Range(env, sheet, r.row, r.col, r.numRows, r.numCols);
}

function activeRangeList(env) {
  const { sheet, ranges } = selectionOf(env);
  return new RangeList(
    env,
    ranges.map((r) => new Range(env, sheet, r.row, r.col, r.numRows, r.numCols)),
  );
}

function currentCell(env) {
  const { sheet, current } = selectionOf(env);
  return new Range(env, sheet, current.row, current.col, 1, 1);
}

/* ------------------------------------------------------------------ Spreadsheet */

class Spreadsheet {
  constructor(env) {
    this._env = env;
  }
  get _model() {
    return this._env.emu._model;
  }
  getId() {
    return this._model.id;
  }
  getName() {
    return this._model.name;
  }
  rename(name) {
    this._model.name = String(name);
  }
  getUrl() {
    return `https://docs.google.com/spreadsheets/d/${this._model.id}/edit`;
  }
  getSpreadsheetTimeZone() {
    return this._model.timeZone;
  }
  setSpreadsheetTimeZone(tz) {
    this._model.timeZone = String(tz);
  }
  getSpreadsheetLocale() {
    return this._model.locale;
  }
  getOwner() {
    return this._env.emu._user(this._env.emu.users.owner);
  }
  getSheets() {
    return this._model.sheets.map((s) => new Sheet(this._env, s));
  }
  getNumSheets() {
    return this._model.sheets.length;
  }
  getSheetByName(name) {
    const s = this._model.byName(String(name));
    return s ? new Sheet(this._env, s) : null;
  }
  getSheetById(id) {
    const s = this._model.byId(Number(id));
    return s ? new Sheet(this._env, s) : null;
  }
  insertSheet(nameOrIndex, index) {
    let name = nameOrIndex;
    let at = index;
    if (typeof nameOrIndex === 'number') {
      name = undefined;
      at = nameOrIndex;
    }
    const sheet = this._model.addSheet(
      name,
      at === undefined ? this._model.sheets.length : int(at, 'sheetIndex'),
    );
    this._model.select(sheet);
    return new Sheet(this._env, sheet);
  }
  deleteSheet(sheet) {
    this._model.removeSheet(sheet._sheet);
  }
  getActiveSheet() {
    return new Sheet(this._env, activeSheetModel(this._env));
  }
  setActiveSheet(sheet) {
    this._model.select(sheet._sheet);
    return sheet;
  }
  getActiveRange() {
    return activeRange(this._env);
  }
  getActiveRangeList() {
    return activeRangeList(this._env);
  }
  getActiveCell() {
    return currentCell(this._env);
  }
  getCurrentCell() {
    return currentCell(this._env);
  }
  getSelection() {
    return new Selection(this._env);
  }
  setActiveRange(range) {
    range._select();
    return range;
  }
  setActiveSelection(range) {
    const r = typeof range === 'string' ? rangeFromA1(this._env, range) : range;
    r._select();
    return r;
  }
  getRange(a1) {
    return rangeFromA1(this._env, a1);
  }
  getRangeList(a1s) {
    return new RangeList(
      this._env,
      a1s.map((a) => rangeFromA1(this._env, a)),
    );
  }
  toast(msg, title, timeoutSeconds) {
    this._env.emu.ui._record('toasts', {
      message: msg === undefined ? '' : String(msg),
      title: title === undefined ? '' : String(title),
      timeoutSeconds: timeoutSeconds === undefined ? 5 : Number(timeoutSeconds),
      shown: !(this._env.exec && this._env.exec.kind === 'trigger' && this._env.exec.triggerType === 'CLOCK'),
    });
  }
}

function rangeFromA1(env, a1) {
  const { sheetName, ref } = splitSheet(a1);
  const ss = env.emu._model;
  const sheet = sheetName ? ss.byName(sheetName) : activeSheetModel(env);
  if (!sheet) throw new AppsScriptError('Range not found');
  const p = parseRef(ref, sheet.maxRows, sheet.maxCols);
  sheet.checkBounds(p.row, p.col, p.numRows, p.numCols);
  return new Range(env, sheet, p.row, p.col, p.numRows, p.numCols, p);
}

/* ------------------------------------------------------------------ Sheet */

class Sheet {
  constructor(env, sheet) {
    this._env = env;
    this._sheet = sheet;
  }
  _range(row, col, numRows, numCols) {
    return new Range(this._env, this._sheet, row, col, numRows, numCols);
  }
  getName() {
    return this._sheet.name;
  }
  setName(name) {
    const other = this._sheet.spreadsheet.byName(String(name));
    if (other && other !== this._sheet) {
      throw new AppsScriptError(`A sheet with the name "${name}" already exists. Please enter another name.`);
    }
    this._sheet.name = String(name);
    return this;
  }
  getSheetId() {
    return this._sheet.sheetId;
  }
  getIndex() {
    return this._sheet.spreadsheet.sheets.indexOf(this._sheet) + 1;
  }
  getParent() {
    return new Spreadsheet(this._env);
  }
  getRange(a, col, numRows, numCols) {
    if (typeof a === 'string' && col === undefined) {
      const p = parseRef(a, this._sheet.maxRows, this._sheet.maxCols);
      this._sheet.checkBounds(p.row, p.col, p.numRows, p.numCols);
      return new Range(this._env, this._sheet, p.row, p.col, p.numRows, p.numCols, p);
    }
    if (typeof a !== 'number' || typeof col !== 'number') {
      throw signatureError(
        'SpreadsheetApp.Sheet',
        'getRange',
        [a, col, numRows, numCols].filter((x) => x !== undefined),
      );
    }
    const nr = numRows === undefined ? 1 : numRows;
    const nc = numCols === undefined ? 1 : numCols;
    this._sheet.checkBounds(a, col, nr, nc);
    return this._range(a, col, nr, nc);
  }
  getRangeList(a1s) {
    return new RangeList(
      this._env,
      a1s.map((a) => this.getRange(a)),
    );
  }
  getSheetValues(row, col, numRows, numCols) {
    const nr = numRows === -1 ? this._sheet.lastRow() - row + 1 : numRows;
    const nc = numCols === -1 ? this._sheet.lastColumn() - col + 1 : numCols;
    return this._range(row, col, nr, nc).getValues();
  }
  getDataRange() {
    return this._range(1, 1, Math.max(1, this._sheet.lastRow()), Math.max(1, this._sheet.lastColumn()));
  }
  getLastRow() {
    return this._sheet.lastRow();
  }
  getLastColumn() {
    return this._sheet.lastColumn();
  }
  getMaxRows() {
    return this._sheet.maxRows;
  }
  getMaxColumns() {
    return this._sheet.maxCols;
  }
  appendRow(rowContents) {
    if (!Array.isArray(rowContents)) throw signatureError('SpreadsheetApp.Sheet', 'appendRow', [rowContents]);
    const r = this._sheet.lastRow() + 1;
    if (r > this._sheet.maxRows) this._sheet.maxRows = r;
    if (rowContents.length > this._sheet.maxCols) this._sheet.maxCols = rowContents.length;
    rowContents.forEach((v, i) => this._sheet.write(r, i + 1, v));
    return this;
  }
  insertRowBefore(beforePosition) {
    this._sheet.insertRows(int(beforePosition, 'beforePosition'), 1);
    return this;
  }
  insertRowAfter(afterPosition) {
    this._sheet.insertRows(int(afterPosition, 'afterPosition') + 1, 1);
    return this;
  }
  insertRows(rowIndex, numRows = 1) {
    this._sheet.insertRows(int(rowIndex, 'rowIndex'), int(numRows, 'numRows'));
  }
  insertRowsBefore(beforePosition, howMany) {
    this._sheet.insertRows(int(beforePosition, 'beforePosition'), int(howMany, 'howMany'));
    return this;
  }
  insertRowsAfter(afterPosition, howMany) {
    this._sheet.insertRows(int(afterPosition, 'afterPosition') + 1, int(howMany, 'howMany'));
    return this;
  }
  deleteRow(rowPosition) {
    this._sheet.deleteRows(int(rowPosition, 'rowPosition'), 1);
    return this;
  }
  deleteRows(rowPosition, howMany) {
    this._sheet.deleteRows(int(rowPosition, 'rowPosition'), int(howMany, 'howMany'));
  }
  insertColumnBefore(beforePosition) {
    this._sheet.insertColumns(int(beforePosition, 'beforePosition'), 1);
    return this;
  }
  insertColumnAfter(afterPosition) {
    this._sheet.insertColumns(int(afterPosition, 'afterPosition') + 1, 1);
    return this;
  }
  insertColumns(columnIndex, numColumns = 1) {
    this._sheet.insertColumns(int(columnIndex, 'columnIndex'), int(numColumns, 'numColumns'));
  }
  insertColumnsBefore(beforePosition, howMany) {
    this._sheet.insertColumns(int(beforePosition, 'beforePosition'), int(howMany, 'howMany'));
    return this;
  }
  insertColumnsAfter(afterPosition, howMany) {
    this._sheet.insertColumns(int(afterPosition, 'afterPosition') + 1, int(howMany, 'howMany'));
    return this;
  }
  deleteColumn(columnPosition) {
    this._sheet.deleteColumns(int(columnPosition, 'columnPosition'), 1);
    return this;
  }
  deleteColumns(columnPosition, howMany) {
    this._sheet.deleteColumns(int(columnPosition, 'columnPosition'), int(howMany, 'howMany'));
  }
  moveRows(rowSpec, destinationIndex) {
    const spec = lineSpec(this, rowSpec, 'rowSpec');
    this._sheet.moveLines('row', spec._row, spec._numRows, int(destinationIndex, 'destinationIndex'));
  }
  moveColumns(columnSpec, destinationIndex) {
    const spec = lineSpec(this, columnSpec, 'columnSpec');
    this._sheet.moveLines('col', spec._col, spec._numCols, int(destinationIndex, 'destinationIndex'));
  }
  setFrozenRows(rows) {
    const n = int(rows, 'rows');
    if (n < 0 || n >= this._sheet.maxRows) throw new AppsScriptError('Invalid argument: rows');
    this._sheet.frozenRows = n;
  }
  getFrozenRows() {
    return this._sheet.frozenRows;
  }
  setFrozenColumns(columns) {
    const n = int(columns, 'columns');
    if (n < 0 || n >= this._sheet.maxCols) throw new AppsScriptError('Invalid argument: columns');
    this._sheet.frozenColumns = n;
  }
  getFrozenColumns() {
    return this._sheet.frozenColumns;
  }
  sort(columnPosition, ascending = true) {
    const s = this._sheet;
    const first = s.frozenRows + 1;
    const last = Math.max(s.lastRow(), first);
    s.sortRange(first, 1, last - first + 1, s.maxCols, [
      { column: int(columnPosition, 'columnPosition'), ascending },
    ]);
    return this;
  }
  hideRows(rowIndex, numRows = 1) {
    this._sheet.setRowsHidden(int(rowIndex, 'rowIndex'), int(numRows, 'numRows'), true);
  }
  showRows(rowIndex, numRows = 1) {
    this._sheet.setRowsHidden(int(rowIndex, 'rowIndex'), int(numRows, 'numRows'), false);
  }
  hideRow(range) {
    this._sheet.setRowsHidden(range._row, range._numRows, true);
  }
  unhideRow(range) {
    this._sheet.setRowsHidden(range._row, range._numRows, false);
  }
  isRowHiddenByUser(rowPosition) {
    return this._sheet.isRowHiddenByUser(int(rowPosition, 'rowPosition'));
  }
  isRowHiddenByFilter(rowPosition) {
    return this._sheet.isRowHiddenByFilter(int(rowPosition, 'rowPosition'));
  }
  hideColumns(columnIndex, numColumns = 1) {
    for (let c = columnIndex; c < columnIndex + numColumns; c++) colMeta(this._sheet, c).hidden = true;
  }
  showColumns(columnIndex, numColumns = 1) {
    for (let c = columnIndex; c < columnIndex + numColumns; c++) colMeta(this._sheet, c).hidden = false;
  }
  isColumnHiddenByUser(columnPosition) {
    return Boolean(this._sheet.colMeta[columnPosition - 1] && this._sheet.colMeta[columnPosition - 1].hidden);
  }
  getFilter() {
    return this._sheet.filter ? new Filter(this._env, this._sheet) : null;
  }
  clear(options) {
    const o = options || { contentsOnly: false, formatOnly: false };
    const contents = !o.formatOnly || o.contentsOnly;
    const formats = !o.contentsOnly || o.formatOnly;
    eachCell(this._sheet, (r, c) =>
      this._sheet.clearCell(r, c, { contents, formats, notes: !!o.commentsOnly }),
    );
    return this;
  }
  clearContents() {
    eachCell(this._sheet, (r, c) => this._sheet.clearCell(r, c, { contents: true }));
    return this;
  }
  clearFormats() {
    eachCell(this._sheet, (r, c) => this._sheet.clearCell(r, c, { contents: false, formats: true }));
    return this;
  }
  clearNotes() {
    eachCell(this._sheet, (r, c) => this._sheet.clearCell(r, c, { contents: false, notes: true }));
    return this;
  }
  autoResizeColumns(startColumn, numColumns) {
    for (let c = startColumn; c < startColumn + numColumns; c++) colMeta(this._sheet, c).autoResized = true;
    return this;
  }
  autoResizeColumn(columnPosition) {
    colMeta(this._sheet, columnPosition).autoResized = true;
    return this;
  }
  setColumnWidth(columnPosition, width) {
    colMeta(this._sheet, columnPosition).width = width;
    return this;
  }
  setColumnWidths(startColumn, numColumns, width) {
    for (let c = startColumn; c < startColumn + numColumns; c++) colMeta(this._sheet, c).width = width;
    return this;
  }
  getColumnWidth(columnPosition) {
    const m = this._sheet.colMeta[columnPosition - 1];
    return (m && m.width) || 100;
  }
  setRowHeight(rowPosition, height) {
    const m = this._sheet.rowMeta[rowPosition - 1] || (this._sheet.rowMeta[rowPosition - 1] = {});
    m.height = height;
    return this;
  }
  getRowHeight(rowPosition) {
    const m = this._sheet.rowMeta[rowPosition - 1];
    return (m && m.height) || 21;
  }
  newChart() {
    return new EmbeddedChartBuilder(this._env, this._sheet);
  }
  insertChart(chart) {
    chart._data.id = chart._data.id || `chart-${this._sheet.sheetId}-${++chartCounter}`;
    this._sheet.charts.push(chart._data);
  }
  updateChart(chart) {
    const i = this._sheet.charts.findIndex((c) => c.id === chart._data.id);
    if (i < 0) throw new AppsScriptError('Chart not found.');
    this._sheet.charts[i] = chart._data;
  }
  removeChart(chart) {
    this._sheet.charts = this._sheet.charts.filter((c) => c.id !== chart._data.id);
  }
  getCharts() {
    return this._sheet.charts.map((data) => new EmbeddedChart(this._env, this._sheet, data));
  }
  activate() {
    this._sheet.spreadsheet.select(this._sheet);
    return this;
  }
  getActiveRange() {
    return activeRange(this._env);
  }
  setActiveRange(range) {
    range._select();
    return range;
  }
  setActiveSelection(range) {
    const r = typeof range === 'string' ? this.getRange(range) : range;
    r._select();
    return r;
  }
  hideSheet() {
    this._sheet.hidden = true;
    return this;
  }
  showSheet() {
    this._sheet.hidden = false;
    return this;
  }
  isSheetHidden() {
    return this._sheet.hidden;
  }
  setTabColor(color) {
    this._sheet.tabColor = color;
    return this;
  }
  getTabColor() {
    return this._sheet.tabColor;
  }
}

let chartCounter = 0;

/** moveRows/moveColumns take a Range of this sheet: the lines it spans move. */
function lineSpec(sheet, range, name) {
  if (!(range instanceof Range) || range._sheet !== sheet._sheet)
    throw new AppsScriptError(`Invalid argument: ${name}`);
  return range;
}

function colMeta(sheet, c) {
  return sheet.colMeta[c - 1] || (sheet.colMeta[c - 1] = {});
}

function eachCell(sheet, fn) {
  sheet.rows.forEach((row, ri) => row && row.forEach((cell, ci) => cell && fn(ri + 1, ci + 1)));
}

/* ------------------------------------------------------------------ Range */

const STYLE_SETTERS = {
  setFontWeight: 'fontWeight',
  setFontStyle: 'fontStyle',
  setFontColor: 'fontColor',
  setFontSize: 'fontSize',
  setFontFamily: 'fontFamily',
  setFontLine: 'fontLine',
  setBackground: 'background',
  setWrap: 'wrap',
  setWrapStrategy: 'wrapStrategy',
  setHorizontalAlignment: 'horizontalAlignment',
  setVerticalAlignment: 'verticalAlignment',
  setTextRotation: 'textRotation',
};

class Range {
  constructor(env, sheet, row, col, numRows, numCols, open = {}) {
    this._env = env;
    this._sheet = sheet;
    this._row = row;
    this._col = col;
    this._numRows = numRows;
    this._numCols = numCols;
    this._open = { openRows: !!open.openRows, openCols: !!open.openCols };
  }
  _each(fn) {
    for (let i = 0; i < this._numRows; i++)
      for (let j = 0; j < this._numCols; j++) fn(this._row + i, this._col + j, i, j);
  }
  _grid(fn) {
    const out = [];
    for (let i = 0; i < this._numRows; i++) {
      const row = [];
      for (let j = 0; j < this._numCols; j++) row.push(fn(this._sheet.cell(this._row + i, this._col + j)));
      out.push(row);
    }
    return out;
  }
  _select(asCurrentOnly) {
    const r = { row: this._row, col: this._col, numRows: this._numRows, numCols: this._numCols };
    this._sheet.spreadsheet.select(this._sheet, [r], { row: this._row, col: this._col });
    return asCurrentOnly;
  }
  _checkGrid(values, method) {
    if (!Array.isArray(values) || values.some((r) => !Array.isArray(r))) {
      throw signatureError('SpreadsheetApp.Range', method, [values]);
    }
    if (values.length !== this._numRows) {
      throw new AppsScriptError(
        `The number of rows in the data does not match the number of rows in the range. The data has ${values.length} but the range has ${this._numRows}.`,
      );
    }
    for (const row of values) {
      if (row.length !== this._numCols) {
        throw new AppsScriptError(
          `The number of columns in the data does not match the number of columns in the range. The data has ${row.length} but the range has ${this._numCols}.`,
        );
      }
    }
  }
  _setStyle(key, value) {
    this._each((r, c) => {
      const cell = this._sheet.ensure(r, c);
      cell.style = { ...(cell.style || {}), [key]: value };
    });
    return this;
  }
  _setStyles(key, values, method) {
    this._checkGrid(values, method);
    this._each((r, c, i, j) => {
      const cell = this._sheet.ensure(r, c);
      cell.style = { ...(cell.style || {}), [key]: values[i][j] };
    });
    return this;
  }

  getValues() {
    return this._grid((cell) => (cell ? cloneValue(cell.v) : ''));
  }
  getValue() {
    const cell = this._sheet.cell(this._row, this._col);
    return cell ? cloneValue(cell.v) : '';
  }
  getDisplayValues() {
    const tz = this._sheet.spreadsheet.timeZone;
    return this._grid((cell) => (cell ? displayValue(cell.v, cell.fmt, tz) : ''));
  }
  getDisplayValue() {
    const cell = this._sheet.cell(this._row, this._col);
    return cell ? displayValue(cell.v, cell.fmt, this._sheet.spreadsheet.timeZone) : '';
  }
  setValues(values) {
    this._checkGrid(values, 'setValues');
    this._each((r, c, i, j) => this._sheet.write(r, c, values[i][j]));
    return this;
  }
  setValue(value) {
    this._each((r, c) => this._sheet.write(r, c, value));
    return this;
  }
  getFormulas() {
    return this._grid((cell) => (cell && cell.f) || '');
  }
  getFormula() {
    const cell = this._sheet.cell(this._row, this._col);
    return (cell && cell.f) || '';
  }
  setFormulas(formulas) {
    this._checkGrid(formulas, 'setFormulas');
    this._each((r, c, i, j) => this._sheet.writeFormula(r, c, formulas[i][j]));
    return this;
  }
  setFormula(formula) {
    this._each((r, c) => this._sheet.writeFormula(r, c, formula));
    return this;
  }
  getNotes() {
    return this._grid((cell) => (cell && cell.note) || '');
  }
  getNote() {
    const cell = this._sheet.cell(this._row, this._col);
    return (cell && cell.note) || '';
  }
  setNotes(notes) {
    this._checkGrid(notes, 'setNotes');
    this._each(
      (r, c, i, j) => (this._sheet.ensure(r, c).note = notes[i][j] == null ? '' : String(notes[i][j])),
    );
    return this;
  }
  setNote(note) {
    this._each((r, c) => (this._sheet.ensure(r, c).note = note == null ? '' : String(note)));
    return this;
  }
  clearNote() {
    this._each((r, c) => this._sheet.clearCell(r, c, { contents: false, notes: true }));
    return this;
  }
  getNumberFormats() {
    return this._grid((cell) => (cell && cell.fmt) || 'General');
  }
  getNumberFormat() {
    const cell = this._sheet.cell(this._row, this._col);
    return (cell && cell.fmt) || 'General';
  }
  setNumberFormat(numberFormat) {
    this._each((r, c) => (this._sheet.ensure(r, c).fmt = String(numberFormat)));
    return this;
  }
  setNumberFormats(numberFormats) {
    this._checkGrid(numberFormats, 'setNumberFormats');
    this._each((r, c, i, j) => (this._sheet.ensure(r, c).fmt = String(numberFormats[i][j])));
    return this;
  }
  getRow() {
    return this._row;
  }
  getRowIndex() {
    return this._row;
  }
  getColumn() {
    return this._col;
  }
  getColumnIndex() {
    return this._col;
  }
  getNumRows() {
    return this._numRows;
  }
  getNumColumns() {
    return this._numCols;
  }
  getHeight() {
    return this._numRows;
  }
  getWidth() {
    return this._numCols;
  }
  getLastRow() {
    return this._row + this._numRows - 1;
  }
  getLastColumn() {
    return this._col + this._numCols - 1;
  }
  getA1Notation() {
    return toA1(this._row, this._col, this._numRows, this._numCols, this._open);
  }
  getSheet() {
    return new Sheet(this._env, this._sheet);
  }
  getGridId() {
    return this._sheet.sheetId;
  }
  offset(rowOffset, columnOffset, numRows, numColumns) {
    const nr = numRows === undefined ? this._numRows : numRows;
    const nc = numColumns === undefined ? this._numCols : numColumns;
    const row = this._row + rowOffset;
    const col = this._col + columnOffset;
    this._sheet.checkBounds(row, col, nr, nc);
    return new Range(this._env, this._sheet, row, col, nr, nc);
  }
  getCell(row, column) {
    if (row < 1 || column < 1 || row > this._numRows || column > this._numCols) {
      throw new AppsScriptError('The coordinates of the range are outside the dimensions of the sheet.');
    }
    return new Range(this._env, this._sheet, this._row + row - 1, this._col + column - 1, 1, 1);
  }
  isBlank() {
    let blank = true;
    this._each((r, c) => {
      if (!isBlank(this._sheet.cell(r, c))) blank = false;
    });
    return blank;
  }
  clear(options) {
    // clear() = contents and formats; the options pick parts (notes = commentsOnly)
    const o = options || {};
    const some = o.contentsOnly || o.formatOnly || o.commentsOnly || o.validationsOnly;
    this._each((r, c) => {
      if (o.skipFilteredRows && this._sheet.isRowHiddenByFilter(r)) return;
      this._sheet.clearCell(r, c, {
        contents: !some || !!o.contentsOnly,
        formats: !some || !!o.formatOnly,
        notes: !!o.commentsOnly,
        validation: !!o.validationsOnly,
      });
    });
    return this;
  }
  clearContent() {
    this._each((r, c) => this._sheet.clearCell(r, c, { contents: true }));
    return this;
  }
  clearFormat() {
    this._each((r, c) => this._sheet.clearCell(r, c, { contents: false, formats: true }));
    return this;
  }
  clearDataValidations() {
    this._each((r, c) => this._sheet.clearCell(r, c, { contents: false, validation: true }));
    return this;
  }
  createFilter() {
    if (this._sheet.filter) {
      throw new AppsScriptError("You can't create a filter in a sheet that already has a filter.");
    }
    this._sheet.filter = new FilterModel(this._sheet, this._row, this._col, this._numRows, this._numCols);
    return new Filter(this._env, this._sheet);
  }
  sort(sortSpecObj) {
    const specs = (Array.isArray(sortSpecObj) ? sortSpecObj : [sortSpecObj]).map((s) =>
      typeof s === 'number'
        ? { column: s, ascending: true }
        : { column: s.column, ascending: s.ascending !== false },
    );
    this._sheet.sortRange(this._row, this._col, this._numRows, this._numCols, specs);
    return this;
  }
  insertCheckboxes() {
    this._each((r, c) => {
      const cell = this._sheet.ensure(r, c);
      cell.validation = 'checkbox';
      if (cell.v === '' && !cell.f) cell.v = false;
    });
    return this;
  }
  removeCheckboxes() {
    this._each((r, c) => {
      const cell = this._sheet.cell(r, c);
      if (cell && cell.validation === 'checkbox') {
        cell.validation = null;
        if (cell.v === false) cell.v = '';
      }
    });
    return this;
  }
  check() {
    this._each((r, c) => this._sheet.write(r, c, true));
    return this;
  }
  uncheck() {
    this._each((r, c) => this._sheet.write(r, c, false));
    return this;
  }
  isChecked() {
    let all = true;
    let none = true;
    this._each((r, c) => {
      const cell = this._sheet.cell(r, c);
      if (!cell || cell.validation !== 'checkbox') all = none = false;
      else if (cell.v === true) none = false;
      else all = false;
    });
    return all ? true : none ? false : null;
  }
  setDataValidation(rule) {
    this._each((r, c) => (this._sheet.ensure(r, c).validation = rule ? rule._data : null));
    return this;
  }
  getDataValidation() {
    const cell = this._sheet.cell(this._row, this._col);
    const v = cell && cell.validation;
    return v && v !== 'checkbox' ? new DataValidation(this._env, v) : null;
  }
  activate() {
    this._select(false);
    return this;
  }
  activateAsCurrentCell() {
    this._select(true);
    return this;
  }
  setBorder() {
    return this._setStyle('border', Array.from(arguments).map(String).join(','));
  }
  setBackgrounds(colors) {
    return this._setStyles('background', colors, 'setBackgrounds');
  }
  setFontWeights(weights) {
    return this._setStyles('fontWeight', weights, 'setFontWeights');
  }
  setFontColors(colors) {
    return this._setStyles('fontColor', colors, 'setFontColors');
  }
  setWraps(wraps) {
    return this._setStyles('wrap', wraps, 'setWraps');
  }
  setHorizontalAlignments(alignments) {
    return this._setStyles('horizontalAlignment', alignments, 'setHorizontalAlignments');
  }
  getBackground() {
    const cell = this._sheet.cell(this._row, this._col);
    return (cell && cell.style && cell.style.background) || '#ffffff';
  }
  getBackgrounds() {
    return this._grid((cell) => (cell && cell.style && cell.style.background) || '#ffffff');
  }
  getFontWeight() {
    const cell = this._sheet.cell(this._row, this._col);
    return (cell && cell.style && cell.style.fontWeight) || 'normal';
  }
  getFontWeights() {
    return this._grid((cell) => (cell && cell.style && cell.style.fontWeight) || 'normal');
  }
  getWrap() {
    const cell = this._sheet.cell(this._row, this._col);
    return Boolean(cell && cell.style && cell.style.wrap);
  }
  getHorizontalAlignment() {
    const cell = this._sheet.cell(this._row, this._col);
    return (cell && cell.style && cell.style.horizontalAlignment) || 'general';
  }
}
for (const [method, key] of Object.entries(STYLE_SETTERS)) {
  Range.prototype[method] = {
    [method](value) {
      return this._setStyle(
        key,
        value === null || value === undefined ? null : typeof value === 'object' ? String(value) : value,
      );
    },
  }[method];
}

/* ------------------------------------------------------------------ RangeList, Selection */

class RangeList {
  constructor(env, ranges) {
    this._env = env;
    this._ranges = ranges;
  }
  _select() {
    const first = this._ranges[0];
    const sheet = first._sheet;
    const list = this._ranges.map((r) => ({
      row: r._row,
      col: r._col,
      numRows: r._numRows,
      numCols: r._numCols,
    }));
    sheet.spreadsheet.select(sheet, list);
  }
  getRanges() {
    return this._ranges.slice();
  }
  activate() {
    this._select();
    return this;
  }
  clearContent() {
    this._ranges.forEach((r) => r._each((row, c) => r._sheet.clearCell(row, c, { contents: true })));
    return this;
  }
  setValue(value) {
    this._ranges.forEach((r) => r._each((row, c) => r._sheet.write(row, c, value)));
    return this;
  }
  setFontWeight(w) {
    this._ranges.forEach((r) => r._setStyle('fontWeight', w));
    return this;
  }
  setBackground(color) {
    this._ranges.forEach((r) => r._setStyle('background', color));
    return this;
  }
}

class Selection {
  constructor(env) {
    this._env = env;
  }
  getActiveRange() {
    return activeRange(this._env);
  }
  getActiveRangeList() {
    return activeRangeList(this._env);
  }
  getActiveSheet() {
    return new Sheet(this._env, activeSheetModel(this._env));
  }
  getCurrentCell() {
    return currentCell(this._env);
  }
}

/* ------------------------------------------------------------------ Filters */

class Filter {
  constructor(env, sheet) {
    this._env = env;
    this._sheet = sheet;
  }
  get _f() {
    if (!this._sheet.filter) throw new AppsScriptError('The filter has been removed.');
    return this._sheet.filter;
  }
  getRange() {
    const f = this._f;
    return new Range(this._env, this._sheet, f.row, f.col, f.numRows, f.numCols);
  }
  _checkColumn(columnPosition) {
    const f = this._f;
    if (columnPosition < f.col || columnPosition >= f.col + f.numCols) {
      throw new AppsScriptError('The column position must be within the filter range.');
    }
  }
  setColumnFilterCriteria(columnPosition, filterCriteria) {
    this._checkColumn(columnPosition);
    if (filterCriteria === null) this._f.criteria.delete(columnPosition);
    else this._f.criteria.set(columnPosition, { ...filterCriteria._data });
    return this;
  }
  removeColumnFilterCriteria(columnPosition) {
    this._f.criteria.delete(columnPosition);
    return this;
  }
  getColumnFilterCriteria(columnPosition) {
    const c = this._f.criteria.get(columnPosition);
    return c ? new FilterCriteria(this._env, c) : null;
  }
  sort(columnPosition, ascending) {
    const f = this._f;
    this._checkColumn(columnPosition);
    if (f.numRows > 1)
      this._sheet.sortRange(f.row + 1, f.col, f.numRows - 1, f.numCols, [
        { column: columnPosition, ascending },
      ]);
    return this;
  }
  remove() {
    this._sheet.filter = null;
  }
}

class FilterCriteriaBuilder {
  constructor(env, data = {}) {
    this._env = env;
    this._data = { hiddenValues: null, visibleValues: null, type: null, values: [], ...data };
  }
  _when(type, values) {
    this._data.type = type;
    this._data.values = values.map((v) => (isDate(v) ? new Date(v.getTime()) : v));
    return this;
  }
  setHiddenValues(values) {
    this._data.hiddenValues = Array.from(values, String);
    return this;
  }
  setVisibleValues(values) {
    this._data.visibleValues = Array.from(values, String);
    return this;
  }
  whenCellEmpty() {
    return this._when('CELL_EMPTY', []);
  }
  whenCellNotEmpty() {
    return this._when('CELL_NOT_EMPTY', []);
  }
  whenTextContains(text) {
    return this._when('TEXT_CONTAINS', [text]);
  }
  whenTextDoesNotContain(text) {
    return this._when('TEXT_DOES_NOT_CONTAIN', [text]);
  }
  whenTextEqualTo(text) {
    return this._when('TEXT_EQ', [text]);
  }
  whenTextNotEqualTo(text) {
    return this._when('TEXT_NOT_EQ', [text]);
  }
  whenTextStartsWith(text) {
    return this._when('TEXT_STARTS_WITH', [text]);
  }
  whenTextEndsWith(text) {
    return this._when('TEXT_ENDS_WITH', [text]);
  }
  whenNumberEqualTo(n) {
    return this._when('NUMBER_EQ', [n]);
  }
  whenNumberNotEqualTo(n) {
    return this._when('NUMBER_NOT_EQ', [n]);
  }
  whenNumberGreaterThan(n) {
    return this._when('NUMBER_GREATER_THAN', [n]);
  }
  whenNumberGreaterThanOrEqualTo(n) {
    return this._when('NUMBER_GREATER_THAN_OR_EQUAL_TO', [n]);
  }
  whenNumberLessThan(n) {
    return this._when('NUMBER_LESS_THAN', [n]);
  }
  whenNumberLessThanOrEqualTo(n) {
    return this._when('NUMBER_LESS_THAN_OR_EQUAL_TO', [n]);
  }
  whenNumberBetween(a, b) {
    return this._when('NUMBER_BETWEEN', [a, b]);
  }
  whenNumberNotBetween(a, b) {
    return this._when('NUMBER_NOT_BETWEEN', [a, b]);
  }
  whenFormulaSatisfied(formula) {
    return this._when('CUSTOM_FORMULA', [formula]);
  }
  build() {
    return new FilterCriteria(this._env, { ...this._data });
  }
}

class FilterCriteria {
  constructor(env, data) {
    this._env = env;
    this._data = data;
  }
  getHiddenValues() {
    return this._data.hiddenValues ? this._data.hiddenValues.slice() : null;
  }
  getVisibleValues() {
    return this._data.visibleValues ? this._data.visibleValues.slice() : null;
  }
  getCriteriaType() {
    return this._data.type ? Enums.BooleanCriteria[this._data.type] : null;
  }
  getCriteriaValues() {
    return this._data.values.slice();
  }
  copy() {
    return new FilterCriteriaBuilder(this._env, { ...this._data });
  }
}

class DataValidationBuilder {
  constructor(env, data = {}) {
    this._env = env;
    this._data = { type: null, values: [], allowInvalid: true, helpText: null, ...data };
  }
  requireCheckbox() {
    this._data.type = 'CHECKBOX';
    return this;
  }
  requireValueInList(values, showDropdown = true) {
    Object.assign(this._data, { type: 'VALUE_IN_LIST', values: Array.from(values), showDropdown });
    return this;
  }
  setAllowInvalid(allow) {
    this._data.allowInvalid = !!allow;
    return this;
  }
  setHelpText(text) {
    this._data.helpText = String(text);
    return this;
  }
  build() {
    return new DataValidation(this._env, { ...this._data });
  }
}

class DataValidation {
  constructor(env, data) {
    this._env = env;
    this._data = data;
  }
  getCriteriaType() {
    return Enums.BooleanCriteria[this._data.type] || null;
  }
  getCriteriaValues() {
    return [this._data.values.slice()];
  }
  getHelpText() {
    return this._data.helpText;
  }
}

/* ------------------------------------------------------------------ Charts */

class EmbeddedChartBuilder {
  constructor(env, sheet, data) {
    this._env = env;
    this._sheet = sheet;
    this._data = data || {
      id: null,
      chartType: 'COLUMN',
      ranges: [],
      position: null,
      options: {},
      calls: [],
    };
  }
  _rec(name, args) {
    this._data.calls.push({
      method: name,
      args: args.map((a) => (a instanceof Range ? a.getA1Notation() : a)),
    });
    return this;
  }
  addRange(range) {
    this._data.ranges.push(`${range._sheet.name}!${range.getA1Notation()}`);
    return this._rec('addRange', [range]);
  }
  removeRange(range) {
    const a1 = `${range._sheet.name}!${range.getA1Notation()}`;
    this._data.ranges = this._data.ranges.filter((r) => r !== a1);
    return this._rec('removeRange', [range]);
  }
  clearRanges() {
    this._data.ranges = [];
    return this._rec('clearRanges', []);
  }
  setChartType(type) {
    this._data.chartType = String(type);
    return this._rec('setChartType', [String(type)]);
  }
  setPosition(anchorRowPos, anchorColPos, offsetX, offsetY) {
    this._data.position = { anchorRowPos, anchorColPos, offsetX, offsetY };
    return this._rec('setPosition', [anchorRowPos, anchorColPos, offsetX, offsetY]);
  }
  setOption(option, value) {
    this._data.options[option] = value;
    return this._rec('setOption', [option, value]);
  }
  setTitle(title) {
    return this.setOption('title', title);
  }
  setNumHeaders(n) {
    return this._rec('setNumHeaders', [n]);
  }
  setTransposeRowsAndColumns(t) {
    return this._rec('setTransposeRowsAndColumns', [t]);
  }
  setLegendPosition(p) {
    return this.setOption('legend.position', String(p));
  }
  setColors(colors) {
    return this.setOption('colors', Array.from(colors));
  }
  setStacked() {
    return this.setOption('isStacked', true);
  }
  set3D() {
    return this.setOption('is3D', true);
  }
  asAreaChart() {
    return this.setChartType('AREA');
  }
  asBarChart() {
    return this.setChartType('BAR');
  }
  asColumnChart() {
    return this.setChartType('COLUMN');
  }
  asComboChart() {
    return this.setChartType('COMBO');
  }
  asHistogramChart() {
    return this.setChartType('HISTOGRAM');
  }
  asLineChart() {
    return this.setChartType('LINE');
  }
  asPieChart() {
    return this.setChartType('PIE');
  }
  asScatterChart() {
    return this.setChartType('SCATTER');
  }
  asTableChart() {
    return this.setChartType('TABLE');
  }
  getRanges() {
    return this._data.ranges.map((a1) => rangeFromA1(this._env, a1));
  }
  getChartType() {
    return Enums.ChartType[this._data.chartType] || null;
  }
  build() {
    return new EmbeddedChart(this._env, this._sheet, JSON.parse(JSON.stringify(this._data)));
  }
}

class EmbeddedChart {
  constructor(env, sheet, data) {
    this._env = env;
    this._sheet = sheet;
    this._data = data;
  }
  getChartId() {
    return this._data.id;
  }
  getRanges() {
    return this._data.ranges.map((a1) => rangeFromA1(this._env, a1));
  }
  getOptions() {
    const options = this._data.options;
    return { get: (k) => (k in options ? options[k] : null) };
  }
  /** Where the chart's top-left corner is: its anchor cell and offsets (Sheets' default: A1, 0, 0). */
  getContainerInfo() {
    const p = this._data.position || { anchorRowPos: 1, anchorColPos: 1, offsetX: 0, offsetY: 0 };
    return {
      getAnchorRow: () => p.anchorRowPos,
      getAnchorColumn: () => p.anchorColPos,
      getOffsetX: () => p.offsetX,
      getOffsetY: () => p.offsetY,
    };
  }
  getType() {
    return this._data.chartType;
  }
  modify() {
    return new EmbeddedChartBuilder(this._env, this._sheet, JSON.parse(JSON.stringify(this._data)));
  }
}

for (const [Class, label] of [
  [SpreadsheetAppService, 'SpreadsheetApp'],
  [Spreadsheet, 'Spreadsheet'],
  [Sheet, 'Sheet'],
  [Range, 'Range'],
  [RangeList, 'RangeList'],
  [Selection, 'Selection'],
  [Filter, 'Filter'],
  [EmbeddedChart, 'EmbeddedChart'],
]) {
  instrument(Class, { label, group: 'spreadsheet', classify, guard });
}
for (const [Class, label] of [
  [FilterCriteriaBuilder, 'FilterCriteriaBuilder'],
  [FilterCriteria, 'FilterCriteria'],
  [DataValidationBuilder, 'DataValidationBuilder'],
  [DataValidation, 'DataValidation'],
  [EmbeddedChartBuilder, 'EmbeddedChartBuilder'],
]) {
  instrument(Class, { label, group: 'builder', classify: () => 'other' });
}

/** The `Charts` global (enums only). */
function createChartsService() {
  return { ChartType: Enums.ChartType };
}

module.exports = {
  SpreadsheetAppService,
  Spreadsheet,
  Sheet,
  Range,
  Filter,
  createChartsService,
  rangeFromA1,
  Enums,
};
