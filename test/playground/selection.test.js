'use strict';
// The page posts each selection with its number; the server keeps the newest, whatever order the posts arrive in.
const { startPlayground } = require('../../dev/playground/start');

let pg;
beforeAll(async () => {
  pg = await startPlayground({ port: 0, demoListRows: 10 });
}, 60000);
afterAll(() => pg && pg.stop());

async function post(route, body) {
  const res = await fetch(new URL(route, pg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.json();
}

/** The selection the emulator holds now (the page's GET /api/state answers from the last pushed state). */
async function selection() {
  return (await pg.emulator.call({ op: 'state' })).state.selection;
}

test('a selection that arrives after a newer one does not take its place', async () => {
  const { activeSheet: sheet, selectSeq: base } = (await pg.emulator.call({ op: 'state' })).state;
  await post('/api/select', { sheet, range: 'C7', current: 'C7', seq: base + 2 });
  await post('/api/select', { sheet, range: 'B3', current: 'B3', seq: base + 1 }); // sent first, arrived late
  expect(await selection()).toEqual({ range: 'C7', current: 'C7' });
  await post('/api/select', { sheet, range: 'D2', current: 'D2', seq: base + 3 });
  expect(await selection()).toEqual({ range: 'D2', current: 'D2' });
});
