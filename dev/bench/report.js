'use strict';
// Targets (pass/fail per figure) and the printed table.

/** Tolerances of the targets. */
const TOLERANCE = {
  /** modelled time may exceed the rate-limit floor by this share */
  time: 0.1,
  /** spreadsheet calls per chunk at the largest size may exceed those at the smallest by this share */
  perChunk: 0.1,
};

/** Limits of the targets that are not relative to a floor. */
const LIMITS = {
  /** modelled time of an operation no rate limit slows down (custom functions: their 30 s per execution) */
  noFloorMs: 30_000,
  /** document properties at every moment of an operation */
  documentPropertyBytes: 250 * 1024,
  /** trigger runtime a day of the hourly auto-refresh (a consumer account has 90 for all its triggers) */
  triggerMinutesPerDay: 15,
};

/** Every column a measured row carries (the JSON contract the bench test checks). */
const COLUMNS = [
  'requests',
  'minRequests',
  'fetchCalls',
  'rateLimited',
  'rateLimitedSandbox',
  'spreadsheetCalls',
  'spreadsheetReads',
  'spreadsheetWrites',
  'chunks',
  'callsPerChunk',
  'modeledMs',
  'virtualMs',
  'floorMs',
  'documentPropertyBytes',
  'executions',
  'minExecutions',
  'executionsOverLimit',
  'peakRssBytes',
  'peakHeapUsedBytes',
  'realMs',
  'targets',
];

/**
 * Modelled time: within TOLERANCE.time of the rate floor where there is one; at most 30 s where no rate
 * limit applies; none for custom functions (their 30 s per execution is the executions target) and for rows
 * that measure a day of trigger runs (triggerMinutesPerDay).
 */
function timeTarget(row) {
  if (row.triggerMinutesPerDay !== undefined) return null;
  if (row.floorMs > 0) return row.modeledMs <= row.floorMs * (1 + TOLERANCE.time);
  if (row.customFunction) return null;
  return row.modeledMs <= LIMITS.noFloorMs;
}

/** Adds `targets` to every measured row: true (pass), false (miss) or null (not applicable). */
function applyTargets(rows) {
  for (const row of rows) {
    if (row.skipped || row.error) continue;
    const sandbox429 = row.rateLimitedSandbox.outreach + row.rateLimitedSandbox.phone;
    row.targets = {
      requests: row.requests === row.minRequests,
      no429: row.rateLimited === 0 && sandbox429 === 0,
      perChunk: null,
      time: timeTarget(row),
      executions: row.executionsOverLimit === 0 && row.executionsFailed.length === 0,
      properties: row.documentPropertyBytes < LIMITS.documentPropertyBytes,
      triggerDay:
        row.triggerMinutesPerDay === undefined || row.triggerMinutesPerDay === null
          ? null
          : row.triggerMinutesPerDay <= LIMITS.triggerMinutesPerDay,
    };
    if (row.perChunkSelf) {
      row.targets.perChunk = row.perChunkSelf.worst <= row.perChunkSelf.reference * (1 + TOLERANCE.perChunk);
    }
  }
  const groups = new Map();
  for (const row of rows) {
    if (!row.pairKey || row.skipped || row.error || row.callsPerChunk === null) continue;
    if (!groups.has(row.pairKey)) groups.set(row.pairKey, []);
    groups.get(row.pairKey).push(row);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => a.size - b.size);
    const small = group[0];
    for (const row of group.slice(1)) {
      row.perChunkReference = { size: small.size, callsPerChunk: small.callsPerChunk };
      row.targets.perChunk = row.callsPerChunk <= small.callsPerChunk * (1 + TOLERANCE.perChunk);
    }
  }
  return rows;
}

/** Every target that was missed, as text. */
function missedTargets(results) {
  const out = [];
  const b = results.bundle;
  if (b) {
    if (!b.targets.size) out.push(`bundle: ${kb(b.bytes)} (guard ≤ ${kb(b.maxBytes)})`);
    if (b.targets.evaluation === false) {
      out.push(
        `bundle evaluation: median ${b.evaluation.cpuMedianMs.toFixed(1)} ms of CPU time (guard ≤ ${b.maxEvalMs} ms): ${overBy(b.evaluation.cpuMedianMs, b.maxEvalMs)}`,
      );
    }
    if (!b.targets.globals) {
      const parts = [];
      if (b.extraGlobals.length) parts.push(`extra: ${b.extraGlobals.join(', ')}`);
      if (b.missingEntryPoints.length) parts.push(`missing: ${b.missingEntryPoints.join(', ')}`);
      out.push(`bundle globals: ${parts.join('; ')}`);
    }
  }
  for (const row of results.operations) {
    if (row.skipped || row.error) continue;
    const name = `${row.name} ${row.label}${row.variant && row.variant !== 'run' ? ` (${row.variant})` : ''}`;
    const t = row.targets;
    if (!t.requests) {
      const repeated = (row.details.repeatedGets || [])
        .slice(0, 3)
        .map((r) => `${r.request} ×${r.times}`)
        .join(', ');
      out.push(
        `${name}: ${row.requests} requests, minimum ${row.minRequests}${repeated ? ` (repeated: ${repeated})` : ''}`,
      );
    }
    if (!t.no429) out.push(`${name}: ${row.rateLimited} answers 429`);
    if (t.perChunk === false) {
      const ref = row.perChunkReference
        ? `${fmtNum(row.perChunkReference.callsPerChunk)} at size ${row.perChunkReference.size}`
        : `${row.perChunkSelf.reference} on page 2`;
      const got = row.perChunkSelf ? `${row.perChunkSelf.worst} on a later page` : fmtNum(row.callsPerChunk);
      out.push(`${name}: spreadsheet calls per chunk ${got}, vs ${ref}`);
    }
    if (t.time === false) {
      out.push(
        row.floorMs > 0
          ? `${name}: modelled time ${fmtMs(row.modeledMs)}, floor ${fmtMs(row.floorMs)} (+${TOLERANCE.time * 100}% = ${fmtMs(row.floorMs * (1 + TOLERANCE.time))}): ${overBy(row.modeledMs, row.floorMs * (1 + TOLERANCE.time))}`
          : `${name}: modelled time ${fmtMs(row.modeledMs)}, no rate limit (target ≤ ${fmtMs(LIMITS.noFloorMs)}): ${overBy(row.modeledMs, LIMITS.noFloorMs)}`,
      );
    }
    if (t.properties === false) {
      out.push(`${name}: document properties reached ${kb(row.documentPropertyBytes)} (target < 250 KB)`);
    }
    if (t.triggerDay === false) {
      out.push(
        `${name}: ${fmtNum(row.triggerMinutesPerDay)} trigger minutes a day (target ≤ ${LIMITS.triggerMinutesPerDay})`,
      );
    }
    if (!t.executions) {
      out.push(
        `${name}: ${row.executionsOverLimit} executions over the time limit; failed: ${row.executionsFailed.join(' | ') || 'none'}`,
      );
    }
  }
  return out;
}

/* ------------------------------------------------------------------ formatting */

const overBy = (got, limit) => `${Math.round((got / limit - 1) * 100)}% over`;
const mark = (ok) => (ok === true ? ' ✓' : ok === false ? ' ✗' : '');
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes) => `${Math.round(bytes / (1024 * 1024))} MB`;

function fmtNum(n) {
  if (n === null || n === undefined) return '–';
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

function fmtMs(ms) {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) {
    const m = Math.floor(ms / 60_000);
    const s = Math.round((ms % 60_000) / 1000);
    return `${m}m${String(s).padStart(2, '0')}s`;
  }
  const h = Math.floor(ms / 3_600_000);
  const m = Math.round((ms % 3_600_000) / 60_000);
  return `${h}h${String(m).padStart(2, '0')}m`;
}

const HEADERS = [
  ['Operation', 'left'],
  ['Size', 'left'],
  ['Requests (min)', 'right'],
  ['Fetch calls', 'right'],
  ['429', 'right'],
  ['Sheet calls (r/w)', 'right'],
  ['Calls/chunk', 'right'],
  ['Modelled', 'right'],
  ['Floor', 'right'],
  ['Execs (min)', 'right'],
  ['Doc props', 'right'],
  ['Trigger/day', 'right'],
  ['Peak RSS', 'right'],
];

function cellsOf(row) {
  const name = `${row.name}${row.variant && !['run', 'paging'].includes(row.variant) ? ` (${row.variant})` : ''}`;
  if (row.skipped) return [name, row.label || '', `skipped: ${row.note}`];
  if (row.error) return [name, row.label || '', `CRASHED: ${row.error}`];
  const t = row.targets;
  return [
    name,
    row.label,
    `${row.requests} (${row.minRequests})${mark(t.requests)}`,
    String(row.fetchCalls),
    `${row.rateLimited}${mark(t.no429)}`,
    `${row.spreadsheetCalls} (${row.spreadsheetReads}/${row.spreadsheetWrites})`,
    `${fmtNum(row.callsPerChunk)}${mark(t.perChunk)}`,
    `${fmtMs(row.modeledMs)}${mark(t.time)}`,
    fmtMs(row.floorMs),
    `${row.executions} (${row.minExecutions})${mark(t.executions)}`,
    `${kb(row.documentPropertyBytes)}${mark(t.properties)}`,
    row.triggerMinutesPerDay === undefined
      ? '–'
      : `${fmtNum(row.triggerMinutesPerDay)} min${mark(t.triggerDay)}`,
    mb(row.peakRssBytes),
  ];
}

/** Fixed-width table; a row with fewer cells (skipped, crashed) lets its last cell run on. */
function formatTable(rows) {
  const body = rows.map(cellsOf);
  const widths = HEADERS.map(([h], i) =>
    Math.max(h.length, ...body.filter((r) => r.length === HEADERS.length).map((r) => [...r[i]].length)),
  );
  const pad = (text, i) => {
    const gap = ' '.repeat(Math.max(0, widths[i] - [...text].length));
    return HEADERS[i][1] === 'right' ? gap + text : text + gap;
  };
  const line = (cells) =>
    cells
      .map((c, i) => (cells.length < HEADERS.length && i === cells.length - 1 ? c : pad(c, i)))
      .join('  ')
      .trimEnd();
  const header = line(HEADERS.map(([h]) => h));
  return [header, '-'.repeat(header.length), ...body.map(line)].join('\n');
}

function formatBundle(b) {
  if (!b) return 'Bundle: not measured';
  const lines = [
    `Bundle ${b.path}: ${kb(b.bytes)} (${b.bytes} bytes)${mark(b.targets.size)} guard ≤ ${kb(b.maxBytes)}`,
    `  top-level globals: ${b.globals} (${b.declaredFunctions} functions${b.otherTopLevel.length ? `, other: ${b.otherTopLevel.join(', ')}` : ''}), entry points exported by src/index.ts: ${b.entryPoints}${mark(b.targets.globals)}`,
  ];
  if (b.extraGlobals.length) lines.push(`  globals that are not entry points: ${b.extraGlobals.join(', ')}`);
  if (b.missingEntryPoints.length)
    lines.push(`  entry points not declared at top level: ${b.missingEntryPoints.join(', ')}`);
  if (b.evaluation) {
    const e = b.evaluation;
    lines.push(
      `  evaluation in a fresh node:vm context (compile + run, ${e.runs} runs): median ${e.cpuMedianMs.toFixed(1)} ms of CPU time${mark(b.targets.evaluation)} (guard ≤ ${b.maxEvalMs} ms); wall-clock median ${e.medianMs.toFixed(1)}, min ${e.minMs.toFixed(1)}, max ${e.maxMs.toFixed(1)}, first ${e.firstMs.toFixed(1)}`,
    );
  }
  if (b.evalError) lines.push(`  ${b.evalError}`);
  return lines.join('\n');
}

module.exports = {
  COLUMNS,
  TOLERANCE,
  LIMITS,
  applyTargets,
  missedTargets,
  formatTable,
  formatBundle,
  fmtMs,
  fmtNum,
};
