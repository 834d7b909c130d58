'use strict';
// The cost model: what each service call of an execution costs in Apps Script, charged to the virtual clock
// (so the execution's 6-minute / 30-second limits and every Date the script reads count it). Off by default
// (tests assert the add-on's own waits); the bench turns it on. The figures and their sources are in
// dev/bench/README.md ("Cost model"); COST_KINDS is the one table both use.

/** Latency of one call, per call kind (virtual ms). */
const COST_KINDS = {
  'spreadsheet.handle': 5,
  'spreadsheet.read': 50,
  'spreadsheet.write': 20,
  'spreadsheet.flush': 500,
  'spreadsheet.insertSheet': 300,
  'properties.read': 30,
  'properties.write': 60,
  'cache.read': 3,
  'cache.write': 90,
  'lock.acquire': 50,
  'urlFetch.call': 150,
  'gmail.list': 250,
  'gmail.get': 120,
};

/**
 * Spreadsheet calls that hand back an object or a coordinate the script already named (a sheet, a range,
 * its position): no cell, no document state is read. Everything else that starts with get/is reads.
 */
const SPREADSHEET_HANDLES = new Set([
  'getActive',
  'getActiveSpreadsheet',
  'getActiveSheet',
  'getActiveRange',
  'getActiveRangeList',
  'getActiveCell',
  'getCurrentCell',
  'getSelection',
  'getSheetByName',
  'getSheetById',
  'getSheets',
  'getRange',
  'getRangeList',
  'getRanges',
  'getName',
  'getSheetId',
  'getId',
  'getSheet',
  'getParent',
  'getIndex',
  'getRow',
  'getRowIndex',
  'getColumn',
  'getColumnIndex',
  'getNumRows',
  'getNumColumns',
  'getHeight',
  'getWidth',
  'getGridId',
  'getA1Notation',
  'getCell',
  'offset',
  'getUi',
  'newFilterCriteria',
  'newDataValidation',
  'newChart',
  'toString',
]);

/**
 * The call kind of one script call (a key of COST_KINDS), or null for a call the model does not charge
 * (UI, HTML, builders, Session, Logger, Utilities other than sleep, ScriptApp, the service getters).
 * @param {string} group instrumentation group ('spreadsheet', 'properties', ...)
 * @param {string} label 'Class.method'
 * @param {'read'|'write'|'other'} kind the instrumentation's classification
 */
function callKind(group, label, kind) {
  const [owner, method] = label.split('.');
  if (group === 'spreadsheet') {
    if (method === 'flush') return 'spreadsheet.flush';
    if (method === 'insertSheet') return 'spreadsheet.insertSheet';
    if (SPREADSHEET_HANDLES.has(method)) return 'spreadsheet.handle';
    // A range's own last row / column is arithmetic on its coordinates; the sheet's reads its content.
    if (owner === 'Range' && (method === 'getLastRow' || method === 'getLastColumn')) {
      return 'spreadsheet.handle';
    }
    return kind === 'write' ? 'spreadsheet.write' : 'spreadsheet.read';
  }
  if (group === 'properties' && owner === 'Properties') {
    return kind === 'write' ? 'properties.write' : 'properties.read';
  }
  if (group === 'cache' && owner === 'Cache') return kind === 'write' ? 'cache.write' : 'cache.read';
  if (group === 'lock' && owner === 'Lock' && (method === 'tryLock' || method === 'waitLock')) {
    return 'lock.acquire';
  }
  return null;
}

/**
 * Charges an execution's calls. Writes to the spreadsheet go to Apps Script's write-back cache: they cost
 * little, and the next read (or flush, or the end of the execution) commits them at the cost of a flush
 * ("Every time you do a read, we must first empty (commit) the write cache").
 */
class CostModel {
  /** @param {Partial<typeof COST_KINDS>} [overrides] */
  constructor(overrides = {}) {
    for (const key of Object.keys(overrides)) {
      if (!(key in COST_KINDS)) throw new TypeError(`cost model: unknown call kind ${key}`);
    }
    this.costs = { ...COST_KINDS, ...overrides };
  }

  /** Empty totals: { ms, calls, byKind: { kind: { calls, ms } } }. */
  static emptyTotals() {
    return { ms: 0, calls: 0, byKind: {} };
  }

  /** The virtual ms one call costs (a data read after writes includes the flush it forces). */
  chargeOf(exec, group, label, kind) {
    const callType = callKind(group, label, kind);
    if (!callType) return [];
    const charges = [];
    if (callType === 'spreadsheet.read' && exec.pendingSheetWrites) {
      charges.push('spreadsheet.flush');
      exec.pendingSheetWrites = false;
    }
    if (callType === 'spreadsheet.flush') exec.pendingSheetWrites = false;
    if (callType === 'spreadsheet.write' || callType === 'spreadsheet.insertSheet') {
      exec.pendingSheetWrites = true;
    }
    charges.push(callType);
    return charges;
  }

  /** Adds the charges (call kinds of the table) to the totals and returns their sum. */
  record(totals, charges) {
    let ms = 0;
    for (const type of charges) ms += CostModel.add(totals, type, this.costs[type]);
    return ms;
  }

  /** Adds one charge of `ms` (a table figure, or the time a sleep slept) to the totals. */
  static add(totals, type, ms) {
    const entry = totals.byKind[type] || (totals.byKind[type] = { calls: 0, ms: 0 });
    entry.calls++;
    entry.ms += ms;
    totals.calls++;
    totals.ms += ms;
    return ms;
  }
}

/** The emulator option `costModel` (true, or overrides of the table) → a CostModel or null. */
function resolveCostModel(option) {
  const fromEnv = process.env.EMULATOR_COST_MODEL === '1';
  if (option === false || (option === undefined && !fromEnv)) return null;
  return new CostModel(option && typeof option === 'object' ? option : {});
}

module.exports = { CostModel, COST_KINDS, SPREADSHEET_HANDLES, callKind, resolveCostModel };
