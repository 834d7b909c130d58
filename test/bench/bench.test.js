'use strict';
// The benchmark (npm run bench) in its reduced mode: it runs the built add-on to the end, writes every column,
// and never reports fewer requests than the specs allow. Missed targets are figures, not failures here.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { COLUMNS } = require('../../dev/bench/report');
const {
  rateFloorMs,
  operationFloorMs,
  unlockMinimum,
  phoneMinimum,
  searchMinimum,
  trackingMinimum,
} = require('../../dev/bench/floors');
const { phoneCells } = require('../../dev/bench/operations');
const { differences } = require('../../dev/bench/compare');

const ROOT = path.join(__dirname, '..', '..');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('floors and minimums', () => {
  test('rate floor counts only the windows after the first burst', () => {
    const outreach = { limit: 60, windowMs: MINUTE };
    expect(rateFloorMs(0, outreach)).toBe(0);
    expect(rateFloorMs(60, outreach)).toBe(0);
    expect(rateFloorMs(61, outreach)).toBe(MINUTE);
    expect(rateFloorMs(301, outreach)).toBe(5 * MINUTE);
    expect(operationFloorMs({ phone: 1001 })).toBe(HOUR);
    expect(operationFloorMs({ phone: 701, outreach: 121 })).toBe(2 * MINUTE);
  });

  test('minimum requests follow the specs', () => {
    expect(searchMinimum(500)).toBe(10);
    // 1 balance + 2 unlocks + 2 profiles + pages: max(1, ceil(0/100)) + ceil(250/100)
    expect(unlockMinimum([0, 250])).toBe(1 + 2 + 2 + 1 + 3);
    expect(phoneMinimum(70)).toBe(71);
    expect(phoneMinimum(0)).toBe(0);
    // A refresh asks each 1,000 mails' tasks first; the tasks read again for their opens ride along.
    expect(trackingMinimum(25, 2500)).toBe(25 + 3);
    expect(trackingMinimum(25, 2500, 75)).toBe(25 + 3);
    expect(trackingMinimum(25, 2500, 376)).toBe(25 + 5);
  });

  test('phone cells hold 30% duplicates', () => {
    const { cells, distinct } = phoneCells(1000);
    expect(cells).toHaveLength(1000);
    expect(distinct).toBe(700);
    expect(new Set(cells).size).toBe(700);
  });
});

/** A quick run takes about 30 s on an idle 2-core machine, several times that on a loaded one. */
const RUN_TIMEOUT_MS = 240_000;

/** Runs dev/bench/run.js with `args`: its exit code, output and JSON. */
async function bench(args) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')), 'quick.json');
  const outcome = await new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'dev', 'bench', 'run.js'), ...args, '--out', out],
      { cwd: ROOT, timeout: RUN_TIMEOUT_MS },
      (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
    );
  });
  return { outcome, results: fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) : null };
}

describe('npm run bench -- --quick', () => {
  let outcome;
  let results;

  beforeAll(async () => {
    ({ outcome, results } = await bench(['--quick']));
  }, RUN_TIMEOUT_MS + 5000);

  test('exits 0 and prints the table', () => {
    expect(outcome.stderr).not.toMatch(/Error/);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/Operation\s+Size\s+Requests \(min\)/);
    expect(outcome.stdout).toMatch(/Bundle .*Code\.js: [\d.]+ KB/);
  });

  test('the JSON has every column for every measured row, and no crash', () => {
    expect(results.mode).toBe('quick');
    expect(results.crashed).toBe(false);
    const measured = results.operations.filter((row) => !row.skipped);
    expect(measured.length).toBeGreaterThanOrEqual(1);
    for (const row of results.operations) {
      expect(row.error).toBeUndefined();
      for (const column of COLUMNS) expect(row).toHaveProperty(column);
    }
    for (const row of measured) {
      for (const column of COLUMNS) {
        if (column === 'chunks' || column === 'callsPerChunk') continue; // null for custom functions
        expect(row[column]).not.toBeNull();
      }
      expect(Object.keys(row.targets).sort()).toEqual([
        'executions',
        'no429',
        'perChunk',
        'properties',
        'requests',
        'time',
        'triggerDay',
      ]);
      expect(row.documentPropertyBytes).toBeGreaterThan(0);
      expect(row.peakRssBytes).toBeGreaterThan(0);
      expect(row.executions).toBeGreaterThanOrEqual(1);
    }
  });

  test('requests never fall below the minimum the specs allow; modelled time never below the floor', () => {
    for (const row of results.operations.filter((r) => !r.skipped)) {
      expect(row.requests).toBeGreaterThanOrEqual(row.minRequests);
      if (row.triggerMinutesPerDay === undefined) expect(row.modeledMs).toBeGreaterThanOrEqual(row.floorMs);
    }
  });

  test('the cost model is on: every row that calls a service is charged for it', () => {
    for (const row of results.operations.filter((r) => !r.skipped && r.spreadsheetCalls > 0)) {
      expect(row.modeledMs).toBeGreaterThan(0);
      const charged = Object.values(row.details.modeledCost).reduce((sum, k) => sum + k.ms, 0);
      expect(charged).toBeGreaterThan(0);
    }
  });

  test('the auto-refresh row reports its trigger minutes a day, from 24 hourly runs', () => {
    const day = results.operations.find(
      (r) => r.id === 'tracking-large' && r.triggerMinutesPerDay !== undefined,
    );
    expect(day).toBeDefined();
    expect(day.details.triggerRuns).toBe(24);
    expect(day.triggerMinutesPerDay).toBeGreaterThan(0);
    expect(day.modeledMs).toBeCloseTo(day.triggerMinutesPerDay * 60_000, 3);
    expect(typeof day.targets.triggerDay).toBe('boolean');
  });

  test('the quick run covers each operation the bundle has, at size 10 for unlock', () => {
    const ids = new Set(results.operations.map((r) => r.id));
    for (const id of ['search', 'unlock', 'phone', 'phone-fn', 'prospect-fn', 'send', 'send-filter']) {
      expect(ids).toContain(id);
    }
    for (const id of ['tracking', 'tracking-large', 'sequence', 'reply-scan', 'record'])
      expect(ids).toContain(id);
    const unlock = results.operations.filter((r) => r.id === 'unlock');
    expect(unlock.map((r) => r.size)).toEqual([10]);
  });

  test(
    'a second run gives the same figures: the sandbox and the emulator run on one virtual clock',
    async () => {
      const ids = ['send-zones', 'tracking-large'];
      const again = await bench(['--quick', '--only', ids.join(','), '--eval-runs', '1']);
      expect(again.outcome.code).toBe(0);
      const first = results.operations.filter((r) => ids.includes(r.id));
      expect(first.length).toBe(3);
      expect(differences(first, again.results.operations)).toEqual([]);
    },
    RUN_TIMEOUT_MS + 5000,
  );

  test("the ledger row gives the user store's size after each campaign, every campaign sent whole", () => {
    const [row] = results.operations.filter((r) => r.id === 'record');
    const { userPropertiesChars, acceptedPerCampaign } = row.details;
    expect(acceptedPerCampaign).toEqual(Array(10).fill(row.size / 10));
    expect(userPropertiesChars).toHaveLength(10);
    for (let k = 1; k < 10; k++) expect(userPropertiesChars[k]).toBeGreaterThan(userPropertiesChars[k - 1]);
  });

  test('the bundle figures are there', () => {
    const b = results.bundle;
    expect(b.bytes).toBeGreaterThan(0);
    expect(b.entryPoints).toBeGreaterThan(0);
    expect(b.globals).toBeGreaterThanOrEqual(b.declaredFunctions);
    expect(b.evaluation.medianMs).toBeGreaterThan(0);
    expect(b.evaluation.cpuMedianMs).toBeGreaterThan(0);
    expect(typeof b.targets.size).toBe('boolean');
    expect(typeof b.targets.globals).toBe('boolean');
    expect(typeof b.targets.evaluation).toBe('boolean');
  });
});
