'use strict';
// The playground's demo list: Person i at Company i's own domain (a reply there stops that company's colleagues,
// not the whole list), and its credits given once: adding the list again puts back nothing that was spent.
const { startPlayground } = require('../../dev/playground/start');
const { runDemo, demoRow, spikeRow } = require('../../dev/playground/demo');
const { DEMO_KEYS } = require('../../dev/sandbox');

let pg;
beforeAll(async () => {
  pg = await startPlayground({ port: 0 });
}, 60000);
afterAll(() => pg && pg.stop());

const info = () => ({ outreachUrl: pg.outreachUrl, keys: [DEMO_KEYS.paid, DEMO_KEYS.phone] });

async function addonEdm() {
  const res = await fetch(`${pg.outreachUrl}/__sandbox/accounts`);
  return (await res.json()).outreach[DEMO_KEYS.paid].addonEdm;
}

async function spend(addonEdm) {
  await fetch(`${pg.outreachUrl}/__sandbox/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: DEMO_KEYS.paid, addonEdm }),
  });
}

test('row i is Person i at Company i, each company on a domain of its own', () => {
  expect(demoRow(1)).toEqual(['Person 1', 'person1@company1.example', 'Company 1']);
  expect(demoRow(292)).toEqual(['Person 292', 'person292@company1.example', 'Company 1']);
  expect(demoRow(10)).toEqual(['Person 10', 'bounce.person10@company10.example', 'Company 10']);
  const domains = new Map();
  for (let i = 1; i <= 7000; i++) {
    const [, email, company] = demoRow(i);
    const domain = email.split('@')[1];
    expect(domains.get(domain) || company).toBe(company);
    domains.set(domain, company);
  }
  expect(domains.size).toBe(97);
});

test('the demo credits come once: adding the list again after spending leaves the balance as it is', async () => {
  const before = await addonEdm();
  const first = await runDemo(pg.emulator, info(), 'mailing-list');
  expect(first.message).toContain(
    `got 10,000 add-on e-mail credits (${(before + 10000).toLocaleString('en-US')} now)`,
  );
  expect(await addonEdm()).toBe(before + 10000);
  await spend(1234); // as if most were sent
  const again = await runDemo(pg.emulator, info(), 'mailing-list');
  expect(again.message).toContain('the demo account has 1,234 add-on e-mail credits left');
  expect(await addonEdm()).toBe(1234);
}, 120000);

test('the bounce-spike list: of its first 100 rows every third bounces, of the other 200 none', () => {
  const rows = Array.from({ length: 300 }, (_, i) => spikeRow(i + 1));
  const bounces = (from, to) =>
    rows.slice(from, to).filter(([, email]) => email.startsWith('bounce.')).length;
  expect(bounces(0, 100)).toBe(33);
  expect(bounces(100, 300)).toBe(0);
  expect(new Set(rows.map(([, email]) => email)).size).toBe(300);
});
