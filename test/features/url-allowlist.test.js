'use strict';
// Apps Script lets the add-on fetch only under its manifest's urlFetchWhitelist: Settings
// accepts only addresses there, an address outside it is a clear error naming the allowed prefixes, and
// nothing is sent or retried. dist/ (what clasp pushes) allows the production https:// prefixes only;
// dist-local/ (tests, playground) adds the loopback sandbox, and the emulator enforces each build's manifest.
const fs = require('node:fs');
const path = require('node:path');
const { AppsScriptEmulator } = require('../emulator');
const { useServices, newAddon, DEMO_KEYS, ROOT, LOCAL_DIST } = require('../support/harness');

const DIST = path.join(ROOT, 'dist');
const manifestOf = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'appsscript.json'), 'utf8'));
const DEPLOYED = manifestOf(DIST).urlFetchWhitelist;
// The addresses dist/ was built for (the example hosts, or OUTREACH_BASE_URL and PHONE_BASE_URL: see
// service-addresses.test.js), so these tests pass in `npm run deploy` too.
const [OUTREACH, PHONE] = DEPLOYED.map((prefix) => prefix.replace(/\/$/, ''));
const HOST = new URL(OUTREACH).hostname;

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

describe('the deployed build (dist/)', () => {
  beforeEach(() => {
    emu = new AppsScriptEmulator({ codePath: path.join(DIST, 'Code.js'), htmlDir: DIST });
  });
  const save = (patch) => emu.run('saveSettings', [patch], { kind: 'webapp' });

  test('its manifest lists only https:// prefixes: no loopback reaches clasp push', () => {
    expect(DEPLOYED.length).toBeGreaterThan(0);
    for (const prefix of DEPLOYED) expect(prefix).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]+\/\S*$/);
    expect(JSON.stringify(manifestOf(DIST))).not.toMatch(/127\.0\.0\.1|localhost/);
  });

  test('Settings refuse the loopback sandbox and any address outside the allowlist, naming the allowed ones', () => {
    for (const url of [
      services.sandbox.outreachUrl,
      'http://localhost:8787',
      `https://${HOST}.evil.net`,
      `https://evil.net/${HOST}`,
      OUTREACH.replace(/^https:/, 'http:'),
      `https://${HOST}:8443`,
    ]) {
      expect(() => save({ outreachBaseUrl: url })).toThrow(
        `Outreach service address: ${url} is not allowed. Apps Script lets this add-on reach only addresses under ${DEPLOYED[0]} or ${DEPLOYED[1]}.`,
      );
    }
    expect(emu.properties.user.getProperty('settings.outreachBaseUrl')).toBeNull();
    expect(save({ outreachBaseUrl: `${OUTREACH}/`, phoneBaseUrl: PHONE })).toMatchObject({
      outreachBaseUrl: OUTREACH,
      phoneBaseUrl: PHONE,
    });
  });

  test('dist/ and dist-local/ are one build: only the allowlist differs', () => {
    const lines = (dir) => fs.readFileSync(path.join(dir, 'Code.js'), 'utf8').split('\n');
    const [deployed, local] = [lines(DIST), lines(LOCAL_DIST)];
    const differing = deployed.map((line, i) => [line, local[i]]).filter(([a, b]) => a !== b);
    expect(local).toHaveLength(deployed.length);
    expect(differing).toHaveLength(1);
    expect(differing[0][0]).toBe(`const URL_FETCH_ALLOWLIST = Object.freeze(${JSON.stringify(DEPLOYED)});`);
    const localList = manifestOf(LOCAL_DIST).urlFetchWhitelist;
    expect(localList).toEqual([...DEPLOYED, 'http://127.0.0.1:*/', 'http://localhost:*/']);
    expect(differing[0][1]).toBe(`const URL_FETCH_ALLOWLIST = Object.freeze(${JSON.stringify(localList)});`);
    expect({ ...manifestOf(LOCAL_DIST), urlFetchWhitelist: DEPLOYED }).toEqual(manifestOf(DIST));
  });
});

describe('an address saved outside the allowlist (an older version, or settings edited elsewhere)', () => {
  const OUTSIDE = 'https://api.elsewhere.example.net';
  const NOT_ALLOWED = new RegExp(
    `address ${OUTSIDE.replace(/\./g, '\\.')} is not allowed: Apps Script lets this add-on reach only addresses under ${DEPLOYED[0].replace(/\./g, '\\.')}.*Settings: nothing was sent`,
  );

  function addonWith(field) {
    emu = newAddon(services, { allowPhoneFormulas: true });
    emu.properties.user.setProperty(`settings.${field}`, OUTSIDE);
    return emu;
  }

  test('Test connection names the allowed prefixes for that service; nothing is fetched', () => {
    addonWith('outreachBaseUrl');
    const report = emu.run('testConnection', [], { kind: 'webapp' });
    expect(report.ok).toBe(false);
    // Said in Settings: the field above, not a menu path to Settings.
    expect(report.message).toMatch(
      /^Outreach: The Outreach service address \S+ is not allowed: .+ Change the service address above: nothing was sent\.$/m,
    );
    expect(report.lines).toEqual([['Phone credits', '1,000']]); // the phone service still answers
    expect(emu.fetchLog.every((r) => r.url.startsWith(services.sandbox.phoneUrl))).toBe(true);
  });

  test('Search says so in a dialog: no request, no retry', () => {
    addonWith('outreachBaseUrl');
    expect(() => emu.run('searchCompanies', [{ products: 'solar' }], { kind: 'webapp' })).toThrow(
      NOT_ALLOWED,
    );
    expect(emu.callCount('UrlFetchApp.fetch') + emu.callCount('UrlFetchApp.fetchAll')).toBe(0);
  });

  test('checking phone numbers stops before anything is paid; PHONE_CHECK says what to change', () => {
    addonWith('phoneBaseUrl');
    emu.spreadsheet
      .getSheets()[0]
      .getRange('A1:A3')
      .setValues([['Phone'], ['+14155550100'], ['+14155550101']]);
    emu.select('A2:A3', 'A2');
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    const said = emu.ui.alerts.map((a) => a.message).join('\n');
    expect(said).toMatch(NOT_ALLOWED);
    expect(emu.callCount('UrlFetchApp.fetch') + emu.callCount('UrlFetchApp.fetchAll')).toBe(0);

    emu.setFormula('Sheet1!B2', '=PHONE_CHECK(A2:A3)');
    const [formula] = emu.recalculate();
    expect(formula.error).toMatch(NOT_ALLOWED); // #ERROR!, with the message Sheets shows on the cell
    expect(emu.fetchLog).toHaveLength(0);
  });
});

test('the loopback sandbox is accepted by the local build, whose manifest the emulator enforces', () => {
  emu = newAddon(services, { outreachKey: DEMO_KEYS.paid });
  expect(emu.urlFetchAllowlist.prefixes).toEqual(manifestOf(LOCAL_DIST).urlFetchWhitelist);
  expect(emu.run('testConnection', [], { kind: 'webapp' }).ok).toBe(true);
});
