'use strict';
// One measured stretch of an operation: everything the emulator and the sandbox count between start() and
// finish(). Set-up work (searching before an unlock, filling cells) happens before start() and is not counted.
const { performance } = require('node:perf_hooks');
const { control } = require('../../test/support/harness');
const { operationFloorMs } = require('./floors');

/** Execution limits of Apps Script (ms). */
const EXECUTION_LIMIT_MS = 6 * 60 * 1000;
const CUSTOM_FUNCTION_LIMIT_MS = 30 * 1000;

/**
 * The emulator as the bench runs it: the cost model on, and its two real-time guards (one execution's busy-loop
 * stop, one request's wait on the wire) far above what a large row takes on a loaded machine, so that only the
 * virtual clock decides what the add-on does and two runs give the same figures. A guard that still fires is
 * reported (Measurement.finish: details.realTimeStops and a note).
 */
const BENCH_EMULATOR = { costModel: true, realTimeoutMs: 15 * 60_000, fetchTimeoutMs: 15 * 60_000 };

async function sandboxStats(services) {
  return control(services.sandbox.outreachUrl, 'GET', '/stats');
}

/** '/api/v1/companies/0123…/profile?x' → '/api/v1/companies/:id/profile' (for the per-path breakdown). */
function pathOf(url) {
  const pathname = url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\?.*$/, '');
  return pathname.replace(/\/[0-9a-f]{16,}(?=\/|$)/gi, '/:id').replace(/\/\d+(?=\/|$)/g, '/:n');
}

function byPath(entries) {
  const out = {};
  for (const entry of entries) {
    const key = `${entry.method || 'GET'} ${pathOf(entry.url)}`;
    out[key] = (out[key] || 0) + 1;
  }
  return out;
}

/** GET requests made more than once with the same URL (a sign of work done twice). */
function repeatedGets(entries) {
  const counts = new Map();
  for (const entry of entries) {
    if ((entry.method || 'GET').toUpperCase() !== 'GET') continue;
    const key = `GET ${entry.url.replace(/^[a-z]+:\/\/[^/]+/i, '')}`;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return [...counts].filter(([, n]) => n > 1).map(([request, times]) => ({ request, times }));
}

/**
 * What went wrong on the wire, the retries the add-on logged for it (why a row made more requests), and what
 * a real-time guard stopped (an execution, a request): then the row measured the machine, not the add-on.
 */
function failures(fetched, logs, executions) {
  const errors = fetched
    .filter((r) => r.error)
    .map((r) => `${r.method || 'GET'} ${pathOf(r.url)}: ${r.error}`);
  const retries = logs.map((l) => l.message).filter((m) => /; retry in \d+ ms/.test(m));
  const realTimeStops = [
    ...executions.filter((x) => /real-time limit/.test(x.error || '')).map((x) => `${x.name}: ${x.error}`),
    ...errors.filter((e) => /: ETIMEDOUT: /.test(e)),
  ];
  return {
    fetchErrors: errors.slice(0, 20),
    fetchErrorCount: errors.length,
    retries: retries.slice(0, 20),
    retryCount: retries.length,
    realTimeStops,
  };
}

/** The cost model's totals by call kind, largest first: where the modelled time went. */
function costByKind(cost) {
  const entries = Object.entries((cost && cost.byKind) || {}).sort((a, b) => b[1].ms - a[1].ms);
  return Object.fromEntries(entries);
}

/** Wraps an emulator instance so the main thread's heap is sampled after every execution. */
function sampleAfterExecutions(emu, memory) {
  const run = emu.run;
  const runCustomFunction = emu.runCustomFunction;
  emu.run = function sampledRun(...args) {
    try {
      return run.apply(this, args);
    } finally {
      memory.sample();
    }
  };
  emu.runCustomFunction = function sampledCustom(...args) {
    try {
      return runCustomFunction.apply(this, args);
    } finally {
      memory.sample();
    }
  };
  return () => {
    emu.run = run;
    emu.runCustomFunction = runCustomFunction;
  };
}

class Measurement {
  constructor(ctx, emu) {
    this.ctx = ctx;
    this.emu = emu;
  }

  async start() {
    const { ctx, emu } = this;
    this.statsBefore = await sandboxStats(ctx.services);
    emu.resetStats();
    this.fetchFrom = emu.fetchLog.length;
    this.logsFrom = emu.logs.length;
    emu.properties.document.resetPeak();
    this.executionsFrom = emu.executions.length;
    ctx.memory.reset();
    this.restore = sampleAfterExecutions(emu, ctx.memory);
    this.clockFrom = ctx.services.clock.now();
    this.realFrom = performance.now();
    return this;
  }

  /**
   * @param {object} spec
   * @param {Record<string, number>} spec.minimum minimum requests per service ({outreach: n} / {phone: n})
   * @param {string} spec.minimumFormula how the minimum was computed
   * @param {number|null} [spec.chunks] units of work the operation writes in (for calls per chunk)
   * @param {number} [spec.minExecutions] fewest executions possible (default: the rate floor cut into
   *   6-minute executions, at least 1)
   * @param {object} [spec.details] anything else worth keeping in the JSON
   * @param {object} [spec.extra] more figures for the row itself (e.g. triggerMinutesPerDay)
   */
  async finish({ minimum, minimumFormula, chunks = null, minExecutions, details = {}, extra = {} }) {
    const { ctx, emu } = this;
    const realMs = performance.now() - this.realFrom;
    const virtualMs = ctx.services.clock.now() - this.clockFrom;
    this.restore();
    const memory = ctx.memory.peak();
    const statsAfter = await sandboxStats(ctx.services);
    const fetched = emu.fetchLog.slice(this.fetchFrom);
    const executions = emu.executions.slice(this.executionsFrom);
    const rateLimitedSandbox = {
      outreach: statsAfter.rateLimited.outreach - this.statsBefore.rateLimited.outreach,
      phone: statsAfter.rateLimited.phone - this.statsBefore.rateLimited.phone,
    };
    const spreadsheet = emu.stats.spreadsheet;
    const minRequests = Object.values(minimum).reduce((a, b) => a + b, 0);
    const limitOf = (x) => (x.kind === 'custom' ? CUSTOM_FUNCTION_LIMIT_MS : EXECUTION_LIMIT_MS);
    const overLimit = executions.filter(
      (x) => x.status === 'timed out' || (x.endMs !== null && x.endMs - x.startMs > limitOf(x)),
    );
    const failed = executions.filter((x) => x.status === 'failed');
    const floorMs = operationFloorMs(minimum);
    const found = failures(fetched, emu.logs.slice(this.logsFrom), executions);
    if (found.realTimeStops.length) {
      ctx.note(
        `a real-time guard stopped ${found.realTimeStops[0]}: this row's figures depend on the machine`,
      );
    }
    return {
      requests: fetched.length,
      urlFetchRequests: emu.stats.urlFetch.requests,
      fetchCalls: emu.stats.urlFetch.calls,
      minRequests,
      minimumByService: minimum,
      minimumFormula,
      rateLimited: fetched.filter((r) => r.status === 429).length,
      rateLimitedSandbox,
      spreadsheetCalls: spreadsheet.calls,
      spreadsheetReads: spreadsheet.reads,
      spreadsheetWrites: spreadsheet.writes,
      chunks,
      callsPerChunk: chunks ? spreadsheet.calls / chunks : null,
      modeledMs: virtualMs,
      virtualMs,
      floorMs,
      documentPropertyBytes: emu.properties.document.peakBytes,
      executions: executions.length,
      minExecutions: minExecutions ?? Math.max(1, Math.ceil(floorMs / EXECUTION_LIMIT_MS)),
      executionsOverLimit: overLimit.length,
      executionsFailed: failed.map((x) => `${x.name}: ${x.error}`),
      longestExecutionMs: executions.reduce((m, x) => Math.max(m, (x.endMs ?? x.startMs) - x.startMs), 0),
      peakRssBytes: memory.rss,
      peakHeapUsedBytes: memory.heapUsed,
      realMs,
      ...extra,
      details: {
        requestsByPath: byPath(fetched),
        repeatedGets: repeatedGets(fetched),
        ...found,
        modeledCost: costByKind(emu.stats.cost),
        ...details,
      },
    };
  }
}

module.exports = {
  Measurement,
  sandboxStats,
  pathOf,
  byPath,
  repeatedGets,
  EXECUTION_LIMIT_MS,
  CUSTOM_FUNCTION_LIMIT_MS,
  BENCH_EMULATOR,
};
