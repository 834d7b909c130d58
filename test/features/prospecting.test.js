'use strict';
// Through the built bundle: settings, search, unlock with contacts and profiles, custom functions.
const {
  useServices,
  control,
  controlSync,
  newAddon,
  everythingWritten,
  DEMO_KEYS,
  dataset,
  driveToEnd,
} = require('../support/harness');
const { unlock, nameMark, editCompanyIndex } = require('../support/unlock');
const sheets = require('../support/sheets');
const { companyHashIdFor } = require('../../dev/sandbox');

const services = useServices();
let emu;
const data = dataset();
const allDomains = data.companies.map((c) => c.domain);

afterEach(() => emu && emu.dispose());

const sheet = (name) => emu.spreadsheet.getSheetByName(name);
const rowsOf = (name) => sheets.rowsOf(emu, name);
const requests = (pathPart) => emu.fetchLog.filter((r) => r.url.includes(pathPart)).length;

function search(form) {
  return emu.run('searchCompanies', [form], { kind: 'webapp' });
}

function selectRows(sheetName, first, last) {
  const target = sheet(sheetName);
  emu.spreadsheet.setActiveSheet(target);
  target.getRange(`A${first}:C${last}`).activate();
}

describe('Settings', () => {
  test('keys are stored in user properties, shown masked, never in a cell or a log', () => {
    emu = newAddon(services);
    const view = emu.run('getSettings', [], { kind: 'webapp' });
    expect(view.outreachKeySet).toBe(true);
    expect(view.outreachApiKey).not.toContain(DEMO_KEYS.paid);
    expect(view.outreachBaseUrl).toBe(services.sandbox.outreachUrl);
    expect(emu.properties.user.getProperty('settings.outreachApiKey')).toBe(DEMO_KEYS.paid);
    search({ products: 'solar' });
    const text =
      everythingWritten(emu) + JSON.stringify(emu.logs) + JSON.stringify(emu.fetchLog.map((r) => r.url));
    expect(text).not.toContain(DEMO_KEYS.paid);
    expect(text).not.toContain(DEMO_KEYS.phone);
  });

  test('absent fields are kept; a bad base URL is refused with a specific message', () => {
    emu = newAddon(services);
    emu.run('saveSettings', [{ phoneApiKey: 'other-phone-key' }], { kind: 'webapp' });
    expect(emu.properties.user.getProperty('settings.outreachApiKey')).toBe(DEMO_KEYS.paid);
    expect(() =>
      emu.run('saveSettings', [{ outreachBaseUrl: 'http://example.com' }], { kind: 'webapp' }),
    ).toThrow(/https/);
    expect(() => emu.run('saveSettings', [{ phoneBaseUrl: 'not a url' }], { kind: 'webapp' })).toThrow(
      /Phone service address/,
    );
  });

  test('Test connection shows both balances, or the exact error', () => {
    emu = newAddon(services);
    const report = emu.run('testConnection', [], { kind: 'webapp' });
    expect(report.ok).toBe(true);
    const lines = Object.fromEntries(report.lines);
    expect(lines['Search points (for unlocks)']).toMatch(/^[\d,]+ \([\d,]+ monthly \+ [\d,]+ add-on\)$/);
    expect(lines['Phone credits']).toBe('1,000');
    expect(lines['Monthly expiry']).toMatch(/^\d{4}-\d\d-\d\d/);

    emu.run('saveSettings', [{ outreachApiKey: DEMO_KEYS.revoked }], { kind: 'webapp' });
    const bad = emu.run('testConnection', [], { kind: 'webapp' });
    expect(bad.ok).toBe(false);
    expect(bad.message).toMatch(/^Outreach: .* Check the API key above\.$/); // said where the key is
    expect(bad.message).not.toContain(DEMO_KEYS.revoked);

    // The key typed in the dialog (not saved) is the one tested; the saved key stays as it was.
    const typed = emu.run('testConnection', [{ outreachApiKey: DEMO_KEYS.paid }], { kind: 'webapp' });
    expect(typed.ok).toBe(true);
    expect(typed.message).toMatch(/Tested with the key typed above, not saved yet: Save keeps it\./);
    expect(emu.run('testConnection', [], { kind: 'webapp' }).ok).toBe(false); // still the saved, refused key
    const typedBad = emu.run('testConnection', [{ phoneApiKey: 'not-a-phone-key' }], { kind: 'webapp' });
    expect(typedBad.message).toMatch(/^Outreach: .*\nPhone: /);
  });

  test('a service address that points elsewhere is named, not reported as a missing company or a refused key', () => {
    emu = newAddon(services);
    const { outreachUrl, phoneUrl } = services.sandbox;
    const wrong = (api, url) =>
      `Nothing that speaks the ${api} answers at ${url}: check the service address. It is in Extensions › Outreach › Settings.`;
    // In Settings itself: the field above.
    const wrongHere = (api, url) =>
      `Nothing that speaks the ${api} answers at ${url}: check the service address above.`;
    // Each service's address in the other's field.
    emu.run('saveSettings', [{ outreachBaseUrl: phoneUrl, phoneBaseUrl: outreachUrl }], { kind: 'webapp' });
    const swapped = emu.run('testConnection', [], { kind: 'webapp' });
    expect(swapped.message).toBe(
      `Outreach: ${wrongHere('Outreach API', phoneUrl)}\nPhone: ${wrongHere('phone-check API', outreachUrl)}`,
    );
    // A path added to the address.
    emu.run('saveSettings', [{ outreachBaseUrl: `${outreachUrl}/api/v1`, phoneBaseUrl: phoneUrl }], {
      kind: 'webapp',
    });
    const suffixed = emu.run('testConnection', [], { kind: 'webapp' });
    expect(suffixed.message).toBe(`Outreach: ${wrongHere('Outreach API', `${outreachUrl}/api/v1`)}`);
    expect(suffixed.lines.map(([name]) => name)).toEqual(['Phone credits']);
    // The search sidebar and PROSPECT_SEARCH say the same.
    expect(() => search({ products: 'solar' })).toThrow(wrong('Outreach API', `${outreachUrl}/api/v1`));
    expect(() => emu.runCustomFunction('PROSPECT_SEARCH', ['solar', '', ''])).toThrow(
      /check the service address/,
    );
  });

  test('the search sidebar gets the friendly text every other surface shows, never the transport text', async () => {
    emu = newAddon(services, { outreachKey: DEMO_KEYS.revoked });
    const failure = (form = { products: 'solar' }) => {
      try {
        search(form);
      } catch (error) {
        return error.message;
      }
      throw new Error('the search did not fail');
    };
    expect(failure()).toBe(
      'The Outreach service refused the API key (missing, invalid or revoked). Check the API key in Extensions › Outreach › Settings.',
    );
    emu.run('saveSettings', [{ outreachApiKey: DEMO_KEYS.quota }], { kind: 'webapp' });
    const midnight = new Date(Date.now());
    midnight.setUTCHours(24, 0, 0, 0);
    const quota = failure();
    expect(quota).toMatch(
      /^The Outreach service's quota is used up: Daily quota exceeded; it resets at 00:00 UTC\. Try again after \d{4}-\d\d-\d\d 00:00 UTC\.$/,
    );
    expect(quota).not.toMatch(/answered|POST|monthly reset/);
    const connection = emu.run('testConnection', [], { kind: 'webapp' });
    expect(connection.ok).toBe(true); // the balance is not under the quota: the key and address are right
  });

  test('an action used before the key is set opens Settings instead of failing', () => {
    emu = newAddon(services, { outreachKey: '' });
    for (const action of ['unlockSelectedCompanies', 'showSearchSidebar']) {
      emu.run(action, [], { kind: 'menu' });
      expect(emu.ui.dialogs.at(-1).title).toMatch(/settings/i);
      expect(emu.ui.dialogs.at(-1).html).toMatch(/Add your prospecting and outreach API key first/);
    }
    expect(emu.ui.sidebars).toHaveLength(0);
    expect(emu.fetchLog).toHaveLength(0);
  });
});

describe('Search', () => {
  test('rule 1 and country codes are checked before any request', () => {
    emu = newAddon(services);
    expect(() => search({ includeCountries: 'DE' })).toThrow(
      /at least one product, industry or company-type keyword/,
    );
    expect(() => search({ products: 'solar', includeCountries: 'Germany' })).toThrow(
      /"GERMANY" is not an ISO country code/,
    );
    expect(() => search({ products: 'solar', size: 80 })).toThrow(
      /Page size must be a whole number from 1 to 50/,
    );
    expect(emu.fetchLog).toHaveLength(0);
  });

  test('country codes: spaces, commas and semicolons separate them; UK is answered "use GB" before any request', () => {
    emu = newAddon(services);
    expect(() => search({ products: 'solar', includeCountries: 'DE UK' })).toThrow(
      'Include countries: "UK" is not an ISO country code: use GB.',
    );
    expect(() => search({ products: 'solar', excludeCountries: 'uk; XX YY' })).toThrow(
      'Exclude countries: "UK" is not an ISO country code: use GB. "XX", "YY" are not ISO country codes (two letters, e.g. DE, US).',
    );
    // In the order they were typed.
    expect(() => search({ products: 'solar', excludeCountries: 'XX, uk, YY el' })).toThrow(
      'Exclude countries: "XX", "YY" are not ISO country codes (two letters, e.g. DE, US). "UK" is not an ISO country code: use GB. "EL" is not an ISO country code: use GR.',
    );
    expect(emu.fetchLog).toHaveLength(0);
    search({
      products: 'a',
      operator: 'OR',
      industries: 'e',
      includeCountries: 'BE NO GB',
      excludeCountries: 'de fr',
    });
    search({ products: 'a', operator: 'OR', industries: 'e', includeCountries: 'BE;NO, GB\nDE' });
    const sent = emu.fetchLog.map((r) => JSON.parse(r.payload));
    expect(sent.map((body) => body.includeCountry)).toEqual([
      ['BE', 'NO', 'GB'],
      ['BE', 'NO', 'GB', 'DE'],
    ]);
    expect(sent[0].excludeCountry).toEqual(['DE', 'FR']);
  });

  test('results land on Companies without any domain, website or link; load more never repeats a company', () => {
    emu = newAddon(services);
    const first = search({ products: 'a', operator: 'OR', industries: 'e', size: 20 });
    expect(first.added).toBe(20);
    expect(first.loaded).toBe(20);
    expect(first.total).toBeGreaterThan(40);
    const more = search({ products: 'a', operator: 'OR', industries: 'e', size: 20, from: first.loaded });
    expect(more.loaded).toBe(40);
    const again = search({ products: 'a', operator: 'OR', industries: 'e', size: 20, from: 0 });
    expect(again.added).toBe(0);
    expect(again.alreadyPresent).toBe(20);
    const rows = rowsOf('Companies');
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => r['Search ID'])).size).toBe(40);
    const header = sheet('Companies')
      .getRange(1, 1, 1, sheet('Companies').getLastColumn())
      .getValues()[0]
      .join('|');
    expect(header).not.toMatch(/domain|website|url|link|homepage/i);
    const written = everythingWritten(emu);
    for (const domain of allDomains) expect(written).not.toContain(domain);
    expect(written).not.toMatch(/linkedin\.com|https?:\/\/www\./);
  });

  test('a company whose name is its domain is shown without it', () => {
    emu = newAddon(services);
    const fixture = data.fixtures.nameEqualsDomain;
    const company = data.companies.find((c) => c.id === fixture.id);
    search({ products: company.main_products[0], includeCountries: company.country_code, size: 50 });
    const row = rowsOf('Companies').find((r) => r['Search ID'] === company.id);
    expect(row.Company).toBe('(name shown after unlock)');
    expect(everythingWritten(emu)).not.toContain(company.domain);
  });

  test('API text never becomes a formula', () => {
    emu = newAddon(services);
    const formulaCompany = data.fixtures.formulaNames[0];
    const company = data.companies.find((c) => c.id === formulaCompany.id);
    search({ products: company.main_products[0], includeCountries: company.country_code, size: 50 });
    const target = sheet('Companies');
    const formulas = target
      .getDataRange()
      .getFormulas()
      .flat()
      .filter((f) => f !== '');
    expect(formulas).toEqual([]);
    const names = rowsOf('Companies').map((r) => r.Company);
    expect(names).toContain(company.company_name);
  });
});

describe('Unlock', () => {
  function searchAndSelect(count, key) {
    emu = newAddon(services, key ? { outreachKey: key } : {});
    search({ products: 'a', operator: 'OR', industries: 'e', size: Math.min(count, 50) });
    selectRows('Companies', 2, count + 1);
  }

  test('states cost and balance, unlocks, fills Profiles and Contacts; a re-run charges nothing and adds no duplicate', async () => {
    searchAndSelect(5);
    const { question } = unlock(emu);
    expect(question.text).toMatch(
      /^Unlock 5 companies: at most 5 search points \(search points pay for unlocks, 1 per company;/,
    );
    expect(question.text).toMatch(/Usable balance: [\d,]+ points \([\d,]+ monthly \+ [\d,]+ add-on\)/);
    expect(question.button).toBe('Unlock 5 companies');
    expect(emu.ui.alerts).toEqual([]);
    const companies = rowsOf('Companies').slice(0, 5);
    for (const row of companies) {
      expect(row['Company hash ID']).toMatch(/\S/);
      expect(row.Charged).toBe(true);
      expect(row['Already viewed']).toBe(false);
      expect(row['Unlock status']).toBe('Unlocked (1 point)');
    }
    expect(rowsOf('Profiles')).toHaveLength(5);
    const contacts = rowsOf('Contacts');
    const expected = companies.reduce(
      (n, row) => n + data.companies.find((c) => c.id === row['Search ID']).contacts.length,
      0,
    );
    expect(contacts).toHaveLength(expected);
    const companiesSheet = JSON.stringify(
      emu.snapshot().spreadsheet.sheets.find((s) => s.name === 'Companies'),
    );
    for (const row of companies)
      expect(companiesSheet).not.toContain(data.companies.find((c) => c.id === row['Search ID']).domain);

    const unlockCalls = requests('/companies/unlock');
    unlock(emu);
    expect(requests('/companies/unlock')).toBe(unlockCalls);
    expect(emu.ui.toasts.at(-1).message).toBe('5 rows were already unlocked: nothing to do.');
    expect(rowsOf('Contacts')).toHaveLength(expected);
    expect(rowsOf('Profiles')).toHaveLength(5);
    const { unlocks } = await control(services.sandbox.outreachUrl, 'GET', `/unlocks?key=${DEMO_KEYS.paid}`);
    expect(unlocks.filter((u) => u.charged)).toHaveLength(5);
  });

  test('unlock replaces "(name shown after unlock)" with the name it revealed, never with the website', () => {
    emu = newAddon(services);
    const fixture = data.fixtures.nameEqualsDomain;
    const hidden = data.companies.find((c) => c.id === fixture.id);
    search({ products: hidden.main_products[0], includeCountries: hidden.country_code, size: 50 });
    search({ products: 'a', operator: 'OR', industries: 'e', size: 5 });
    const rows = rowsOf('Companies');
    const hiddenRow = rows.findIndex((r) => r['Search ID'] === hidden.id) + 2;
    const other = rows.findIndex((r) => r['Search ID'] !== hidden.id) + 2;
    const otherName = rows[other - 2].Company;
    // As a search row whose name is its domain shows it (the sandbox has one such company).
    sheet('Companies').getRange(other, 2).setValue('(name shown after unlock)');
    const otherId = rows[other - 2]['Search ID'];
    editCompanyIndex(emu, (id, entry) =>
      id === otherId ? [...entry.slice(0, 3), nameMark('(name shown after unlock)')] : entry,
    );
    emu.spreadsheet.setActiveSheet(sheet('Companies'));
    sheet('Companies')
      .getRangeList([`A${hiddenRow}`, `A${other}`])
      .activate();
    unlock(emu);
    const after = rowsOf('Companies');
    expect(after[other - 2].Company).toBe(otherName);
    expect(after[hiddenRow - 2].Company).toBe('(its name is its website: see Profiles)');
    expect(after.every((r) => r.Company !== '(name shown after unlock)' || !r['Company hash ID'])).toBe(true);
    expect(
      JSON.stringify(emu.snapshot().spreadsheet.sheets.find((s) => s.name === 'Companies')),
    ).not.toContain(hidden.domain);
  });

  test('works after the user sorts rows and inserts a column', () => {
    searchAndSelect(6);
    const target = sheet('Companies');
    target.insertColumnBefore(1);
    target.getRange(2, 1, 6, 1).setValues([['x'], ['y'], ['z'], ['u'], ['v'], ['w']]);
    target.getRange(2, 1, 6, target.getLastColumn()).sort({ column: 3, ascending: false });
    selectRows('Companies', 2, 3);
    unlock(emu);
    const rows = rowsOf('Companies');
    expect(rows.filter((r) => r['Company hash ID'])).toHaveLength(2);
    expect(rows.slice(0, 2).every((r) => r['Company hash ID'])).toBe(true);
    expect(rows.slice(0, 6).map((r) => r[''])).toEqual(expect.arrayContaining(['x', 'y']));
  });

  test('results go to the right rows when the user sorts the sheet while an unlock is on the wire', () => {
    searchAndSelect(6);
    const before = rowsOf('Companies').map((r) => r['Search ID']);
    let sorted = false;
    emu.onFetch = (entries) => {
      if (!sorted && entries.some((e) => e.url.endsWith('/companies/unlock'))) {
        sorted = true; // the user sorts by company name, descending, mid-run
        const target = sheet('Companies');
        target.getRange(2, 1, 6, target.getLastColumn()).sort({ column: 2, ascending: false });
      }
    };
    unlock(emu);
    expect(sorted).toBe(true);
    const rows = rowsOf('Companies');
    expect(rows.map((r) => r['Search ID'])).not.toEqual(before);
    for (const row of rows) {
      const company = data.companies.find((c) => c.id === row['Search ID']);
      expect(row['Company hash ID']).toBe(companyHashIdFor(company.domain));
    }
  });

  test('404 says no matching company on the row and charges nothing', async () => {
    searchAndSelect(2);
    // The service no longer knows these websites.
    editCompanyIndex(emu, (id, [domain, ...rest]) => [`gone.${domain}`, ...rest]);
    unlock(emu);
    const rows = rowsOf('Companies').slice(0, 2);
    expect(rows.map((r) => r['Unlock status'])).toEqual([
      'No matching company: nothing charged.',
      'No matching company: nothing charged.',
    ]);
    const { unlocks } = await control(services.sandbox.outreachUrl, 'GET', `/unlocks?key=${DEMO_KEYS.paid}`);
    expect(unlocks.filter((u) => u.charged)).toHaveLength(0);
  });

  test('a balance that covers fewer rows than selected unlocks only what it covers', async () => {
    searchAndSelect(3, DEMO_KEYS.low);
    const { question } = unlock(emu);
    expect(question.text).toMatch(/Your balance covers 2: only the first 2 rows will be unlocked/);
    expect(question.button).toBe('Unlock 2 companies');
    expect(rowsOf('Companies').filter((r) => r['Company hash ID'])).toHaveLength(2);
    const accounts = await control(services.sandbox.outreachUrl, 'GET', '/accounts');
    const low = JSON.stringify(accounts);
    expect(low).toMatch(/sandbox-low/);
  });

  test('402 stops the run, states needed and available, points to pricing, keeps what was done', () => {
    searchAndSelect(4);
    unlock(emu, {
      // Another device spends the balance while the dialog is open.
      beforeAnswer: () =>
        controlSync(services.sandbox.outreachUrl, 'POST', '/accounts', {
          key: DEMO_KEYS.paid,
          monthlyPoints: 0,
          addonPoints: 2,
        }),
    });
    const stop = emu.ui.alerts.find((a) => /Unlock stopped/.test(a.title));
    expect(stop.message).toMatch(/Not enough search points\. It needs 1 and 0 are available/);
    expect(stop.message).toContain(`${services.sandbox.outreachUrl}/pricing`);
    const rows = rowsOf('Companies').slice(0, 4);
    expect(rows.filter((r) => r['Company hash ID'])).toHaveLength(2);
    expect(rows[2]['Unlock status']).toMatch(/^Not unlocked/);
  });

  test("a quota that stops the run is said on every row not done, with the service's words and when to retry", async () => {
    searchAndSelect(12); // two units of 10 and 2 unlocks
    let unlocks = 0;
    emu.onFetch = (requests) => {
      unlocks += requests.filter((r) => r.url.includes('/companies/unlock')).length;
      // The daily quota runs out after the first unlock (another device used it).
      if (unlocks === 1)
        controlSync(services.sandbox.outreachUrl, 'POST', '/accounts', {
          key: DEMO_KEYS.paid,
          dailyQuotaExhausted: true,
        });
    };
    unlock(emu);
    const stop = emu.ui.alerts.find((a) => /Unlock stopped/.test(a.title));
    const said =
      /The Outreach service's quota is used up: Daily quota exceeded; it resets at 00:00 UTC\. Try again after \d{4}-\d\d-\d\d 00:00 UTC\./;
    expect(stop.message).toMatch(said);
    const rows = rowsOf('Companies').slice(0, 12);
    expect(rows[0]['Unlock status']).toBe('Unlocked (1 point)');
    for (const row of rows.slice(1)) {
      expect(row['Company hash ID']).toBe('');
      expect(row['Unlock status']).toMatch(new RegExp(`^Not unlocked: ${said.source}$`));
    }
  });

  test('an unlock whose answer is lost is settled by the next run, free', async () => {
    searchAndSelect(2);
    await control(services.sandbox.outreachUrl, 'POST', '/faults', {
      path: '/api/v1/companies/unlock',
      count: 1,
      kind: 'lost-response',
    });
    unlock(emu);
    const first = rowsOf('Companies').slice(0, 2);
    expect(first[0]['Unlock status']).toMatch(
      /Outcome unknown.*run Unlock again, a repeat within 30 days is free/,
    );
    expect(first[1]['Company hash ID']).toMatch(/\S/);
    unlock(emu);
    const second = rowsOf('Companies').slice(0, 2);
    expect(second[0]['Company hash ID']).toMatch(/\S/);
    expect(second[0].Charged).toBe(false);
    expect(second[0]['Already viewed']).toBe(true);
    const { unlocks } = await control(services.sandbox.outreachUrl, 'GET', `/unlocks?key=${DEMO_KEYS.paid}`);
    expect(unlocks.filter((u) => u.charged)).toHaveLength(2);
  });

  test('a long selection continues past the 6-minute limit without unlocking any company twice', async () => {
    emu = newAddon(services);
    for (let from = 0; from < 200; from += 50)
      search({ products: 'a', operator: 'OR', industries: 'e', size: 50, from });
    selectRows('Companies', 2, 201);
    unlock(emu);
    expect(emu.ui.dialogs.at(-1).title).toBe('Unlocking companies');
    const { progress, steps } = driveToEnd(emu, 'unlock', 20);
    expect(progress.finished).toBe(true);
    expect(progress.error).toBeUndefined();
    expect(steps).toBeGreaterThan(1);
    expect(rowsOf('Companies').filter((r) => r['Company hash ID'])).toHaveLength(200);
    expect(rowsOf('Profiles')).toHaveLength(200);
    const { unlocks } = await control(services.sandbox.outreachUrl, 'GET', `/unlocks?key=${DEMO_KEYS.paid}`);
    expect(unlocks).toHaveLength(200);
    const stats = await control(services.sandbox.outreachUrl, 'GET', '/stats');
    expect(stats.rateLimited.outreach).toBe(0);
  });
});

test("one run of a job at a time: a second window waits, a dead run's lease expires", () => {
  emu = newAddon(services);
  search({ products: 'a', operator: 'OR', industries: 'e', size: 3 });
  selectRows('Companies', 2, 4);
  // Another execution (the progress dialog, another editor) holds the unlock job right now.
  emu.properties.document.setProperty('job.unlock.lease', String(emu.clock.now() + 60_000));
  unlock(emu);
  expect(emu.ui.alerts.at(-1).message).toMatch(/already running/);
  expect(emu.run('continueJob', ['unlock'], { kind: 'webapp' })).toMatchObject({
    status: 'busy',
    finished: false,
  });
  expect(requests('/companies/unlock')).toBe(0);

  emu.clock.advance(61_000); // that execution died without releasing: its lease runs out
  unlock(emu);
  expect(rowsOf('Companies').filter((r) => r['Company hash ID'])).toHaveLength(3);
  expect(emu.properties.document.getProperty('job.unlock.lease')).toBeNull();
});

test('minutes spent reading the unlock dialog do not count: the unlock runs in the execution of its answer', () => {
  emu = newAddon(services);
  for (let from = 0; from < 100; from += 50)
    search({ products: 'a', operator: 'OR', industries: 'e', size: 50, from });
  selectRows('Companies', 2, 101);
  const { question } = unlock(emu, { beforeAnswer: () => emu.clock.advance(5 * 60 * 1000) });
  expect(question.button).toBe('Unlock 100 companies');
  const [menu, answer] = emu.executions.slice(-2);
  expect(menu.name).toBe('unlockSelectedCompanies');
  expect(answer.name).toBe('confirmUnlock');
  expect(answer.status).not.toBe('error');
  expect(answer.endMs - answer.startMs).toBeLessThan(6 * 60 * 1000);
  expect(rowsOf('Companies').filter((r) => r['Company hash ID']).length).toBeGreaterThan(0);
  expect(emu.ui.dialogs.at(-1).title).toBe('Unlocking companies');
});

test('a run that died with its confirmation open leaves no "already running" behind', () => {
  emu = newAddon(services);
  sheets.writeList(emu, 'Outreach', sheets.peopleRows(sheets.people(3)));
  emu.run('saveTemplate', [{ campaign: 'C', subject: 'Hi {{Name}}', body: 'Hello', bodyFormat: 'text' }], {
    kind: 'webapp',
  });
  let lease = null;
  emu.ui.respond(() => {
    lease = Number(emu.properties.document.getProperty('job.send.lease'));
    emu.clock.advance(7 * 60 * 1000); // the user left the confirmation open: Apps Script ends the run
    return 'YES';
  });
  expect(() => emu.run('sendAllUnsentRows', [], { kind: 'menu' })).toThrow(/Exceeded maximum execution time/);
  const died = emu.executions.at(-1);
  // The lease ends with the execution that took it (6 minutes after it started), plus 30 s for the clocks.
  expect(lease).toBe(died.startMs + 6 * 60 * 1000 + 30 * 1000);
  expect(emu.properties.document.getProperty('job.send.lease')).not.toBeNull();
  emu.ui.respond(null);
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  expect(emu.ui.alerts.at(-1).message).not.toMatch(/already running/);
  expect(Object.values(sheets.statusOf(emu, 'Outreach'))).toEqual(['Accepted', 'Accepted', 'Accepted']);
});

describe('Search IDs changed by another editor', () => {
  function twelveSelected() {
    emu = newAddon(services);
    search({ products: 'a', operator: 'OR', industries: 'e', size: 20 });
    selectRows('Companies', 2, 13);
    return rowsOf('Companies');
  }
  const charged = async () =>
    (await control(services.sandbox.outreachUrl, 'GET', `/unlocks?key=${DEMO_KEYS.paid}`)).unlocks;

  test('a row that shows one company with the Search ID of another is named in the dialog, says so, costs nothing', async () => {
    const rows = twelveSelected();
    // Rows 3 and 4 get the Search IDs of rows 20 and 21 (companies the payer never selected).
    sheet('Companies')
      .getRange('A3:A4')
      .setValues([[rows[18]['Search ID']], [rows[19]['Search ID']]]);
    const { question } = unlock(emu);
    expect(question.text).toContain(
      '2 rows (3, 4) show another company than their Search ID was found for: not unlocked, nothing charged (their Unlock status says so).',
    );
    expect(question.button).toBe('Unlock 10 companies');
    const after = rowsOf('Companies');
    for (const row of [after[1], after[2]]) {
      expect(row['Company hash ID']).toBe('');
      expect(row['Unlock status']).toMatch(
        /^Not unlocked, nothing charged: this Search ID was found for another company/,
      );
    }
    const unlocks = await charged();
    expect(unlocks).toHaveLength(10);
    const domains = new Set(unlocks.map((u) => u.domain));
    for (const row of [rows[18], rows[19]])
      expect(domains.has(data.companies.find((c) => c.id === row['Search ID']).domain)).toBe(false);
    // Every row selected that shows its own company was unlocked.
    expect(after.slice(0, 12).filter((r) => r['Company hash ID'])).toHaveLength(10);
  });

  test('rows changed while the dialog is open: its Unlock refuses, nothing charged', async () => {
    const rows = twelveSelected();
    const answer = () =>
      unlock(emu, {
        beforeAnswer: () => {
          sheet('Companies').getRange('A5').setValue(rows[18]['Search ID']);
          sheet('Companies').getRange('B5').setValue(rows[18].Company); // the row shows that company now
        },
      });
    expect(answer).toThrow(
      /^The selected rows changed since this dialog opened \(another editor, a sort, or new rows\): nothing was unlocked\. Select the rows and run Unlock selected companies again\.$/,
    );
    expect(await charged()).toHaveLength(0);
  });

  test('a row renamed while the unlock runs: its company is not paid for, the row says why', async () => {
    twelveSelected(); // two units: 10 unlocks, then 2
    let renamed = false;
    emu.onFetch = (requests) => {
      if (renamed || !requests.some((r) => r.url.includes('/companies/unlock'))) return;
      renamed = true;
      sheet('Companies').getRange('B13').setValue('Another Company Ltd');
    };
    unlock(emu);
    const row13 = rowsOf('Companies')[11];
    expect(row13['Company hash ID']).toBe('');
    expect(row13['Unlock status']).toMatch(
      /^Not unlocked, nothing charged: this Search ID was found for another company/,
    );
    expect(await charged()).toHaveLength(11);
  });
});

describe('Custom functions', () => {
  test('PROSPECT_SEARCH returns a header and rows without any domain, cached on recalculation', () => {
    emu = newAddon(services);
    const result = emu.runCustomFunction('PROSPECT_SEARCH', ['solar, pump', '', '', '', '', true, 5]);
    expect(result[0]).toEqual([
      'Search ID',
      'Company',
      'Country',
      'Company type',
      'Industry',
      'Main products',
      'Founded',
      'Employees',
      'E-mails',
      'WhatsApp',
      'Description',
    ]);
    expect(result.length).toBeGreaterThan(1);
    const text = JSON.stringify(result);
    for (const domain of allDomains) expect(text).not.toContain(domain);
    const calls = emu.fetchLog.length;
    expect(emu.runCustomFunction('PROSPECT_SEARCH', ['solar, pump', '', '', '', '', true, 5])).toEqual(
      result,
    );
    expect(emu.fetchLog.length).toBe(calls);
  });

  test('inputs may be ranges; bad input gives a specific error', () => {
    emu = newAddon(services);
    const result = emu.runCustomFunction('PROSPECT_SEARCH', [[['solar'], ['pump']], '', '', [['DE', 'FR']]]);
    expect(
      result.slice(1).every((row) => row[2] === 'DE' || row[2] === 'FR' || row[0] === 'No company matches.'),
    ).toBe(true);
    expect(() => emu.runCustomFunction('PROSPECT_SEARCH', ['', '', ''])).toThrow(/at least one product/);
    expect(() => emu.runCustomFunction('PROSPECT_SEARCH', ['solar', '', '', 'XX'])).toThrow(
      /"XX" is not an ISO country code/,
    );
    expect(() => emu.runCustomFunction('PROSPECT_CONTACTS', [''])).toThrow(/companyHashId/);
  });

  test('PROSPECT_BALANCE, PROSPECT_PROFILE and PROSPECT_CONTACTS answer for an unlocked company', () => {
    searchAndUnlockOne();
    const hash = rowsOf('Companies')[0]['Company hash ID'];
    const balance = emu.runCustomFunction('PROSPECT_BALANCE', []);
    expect(balance[0]).toContain('Usable points');
    expect(typeof balance[1][2]).toBe('number');
    expect(balance[1][6]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/); // "2026-12-21 19:56", as elsewhere
    const profile = emu.runCustomFunction('PROSPECT_PROFILE', [hash]);
    expect(profile[1][0]).toBe(hash);
    const contacts = emu.runCustomFunction('PROSPECT_CONTACTS', [hash, '', 1, 2]);
    expect(contacts[0]).toEqual(['Name', 'Title', 'E-mail', 'LinkedIn', 'Department', 'Seniority']);
    expect(contacts.length).toBeLessThanOrEqual(3);
    // Each row's Department and Seniority are its title's (PROSPECT_ROLE answers the same).
    for (const row of contacts.slice(1))
      expect(row.slice(4)).toEqual(emu.runCustomFunction('PROSPECT_ROLE', [row[1]])[0]);
    expect(() => emu.runCustomFunction('PROSPECT_PROFILE', ['not-unlocked-hash'])).toThrow(
      /Unlock the company first/,
    );
  });

  function searchAndUnlockOne() {
    emu = newAddon(services);
    search({ products: 'a', operator: 'OR', industries: 'e', size: 1, withEmails: true });
    selectRows('Companies', 2, 2);
    unlock(emu);
  }

  test('without a key the custom functions point to Settings', () => {
    emu = newAddon(services, { outreachKey: '' });
    expect(() => emu.runCustomFunction('PROSPECT_BALANCE', [])).toThrow(/Extensions › Outreach › Settings/);
  });
});
