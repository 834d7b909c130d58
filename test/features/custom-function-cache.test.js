'use strict';
// Through the built bundle: a custom function answers the same from the
// cache as fresh (Dates stay Dates), and the cache's 100 KB per value is counted in UTF-8 bytes: a large
// non-ASCII answer is returned uncached, never turned into #ERROR! by a refused cache put.
const { useServices, newAddon } = require('../support/harness');
const { unlock } = require('../support/unlock');
const { startTestServer } = require('../emulator/test-server');
const { registeredPhoneNumber, unregisteredPhoneNumber } = require('../../dev/sandbox/rules');

const services = useServices();
let emu;

afterEach(() => emu && emu.dispose());

/** Each cell's type as the spreadsheet would see it ('Date', 'number', 'string', 'boolean'). */
const types = (answer) =>
  []
    .concat(answer)
    .flat()
    .map((v) => (v instanceof Date ? 'Date' : typeof v));

test('every custom function answers the same from the cache as fresh, Dates included', () => {
  emu = newAddon(services, { allowPhoneFormulas: true });
  emu.run(
    'searchCompanies',
    [{ products: 'a', industries: 'e', operator: 'OR', size: 1, withEmails: true }],
    {
      kind: 'webapp',
    },
  );
  emu.select('Companies!A2:C2');
  unlock(emu);
  const hash = emu.range('Companies!L2').getValue();
  expect(hash).toMatch(/\S/);

  const calls = [
    ['PROSPECT_BALANCE', []],
    ['PROSPECT_SEARCH', ['solar, pump', '', '', 'DE, FR', '', true, 5]],
    ['PROSPECT_PROFILE', [hash]],
    ['PROSPECT_CONTACTS', [hash, '', 1, 5]],
    ['PHONE_CHECK', [[[registeredPhoneNumber(3)], [unregisteredPhoneNumber(4)], ['12']]]],
  ];
  for (const [name, args] of calls) {
    const fresh = emu.runCustomFunction(name, args);
    const requests = emu.fetchLog.length;
    const again = emu.runCustomFunction(name, args);
    expect([name, emu.fetchLog.length]).toEqual([name, requests]);
    expect(again).toEqual(fresh);
    expect(types(again)).toEqual(types(fresh));
  }
  const balance = emu.runCustomFunction('PROSPECT_BALANCE', []);
  expect(balance[1][6]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/); // as the add-on's sheets show times
  const search = emu.runCustomFunction(...calls[1]);
  expect(search.slice(1).every((row) => typeof row[6] === 'number')).toBe(true);
  // PHONE_CREDITS is never cached: the credits change with every check.
  expect(emu.runCustomFunction('PHONE_CREDITS', [])).toBe(emu.runCustomFunction('PHONE_CREDITS', []));
});

describe('an answer over 100 KB in UTF-8 bytes (fewer characters)', () => {
  let server;
  beforeAll(async () => {
    // 50 companies with a 1,100-character Chinese description each: about 60,000 characters of JSON,
    // 170,000 bytes.
    server = await startTestServer(async (req, res) => {
      const description = '太阳能电池板与逆变器制造商。'.repeat(79);
      const list = Array.from({ length: 50 }, (_, i) => ({
        id: String(9000000 + i),
        company_name: `光伏科技 ${i}`,
        company_type: ['manufacturer'],
        industry: ['energy'],
        main_products: ['solar panels'],
        country_code: 'CN',
        founding_time: '1998',
        employees_count: '51-200',
        email_count: 3,
        whatsapp_count: 1,
        company_profile: description,
        domain: `pv${i}.example.cn`,
      }));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ total: 50, list }));
    });
  });
  afterAll(() => server.close());

  test('is answered in full and not cached; the next recalculation asks again', () => {
    emu = newAddon(services);
    emu.run('saveSettings', [{ outreachBaseUrl: server.url }], { kind: 'webapp' });
    const first = emu.runCustomFunction('PROSPECT_SEARCH', ['solar', '', '', '', '', false, 50]);
    expect(emu.executions.at(-1).status).toBe('completed');
    expect(first).toHaveLength(51);
    const json = JSON.stringify(first);
    expect(json.length).toBeLessThan(90_000);
    expect(Buffer.byteLength(json, 'utf8')).toBeGreaterThan(100 * 1024);
    expect(first[1][10]).toMatch(/^太阳能电池板/);
    expect([...emu.cache.document.data.keys()].filter((k) => k.startsWith('cf.'))).toEqual([]);
    const requests = emu.fetchLog.length;
    expect(emu.runCustomFunction('PROSPECT_SEARCH', ['solar', '', '', '', '', false, 50])).toEqual(first);
    expect(emu.fetchLog.length).toBe(requests + 1);
  });
});
