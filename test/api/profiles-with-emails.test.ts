// src/api/outreach/profiles-with-emails.ts over faked Apps Script services: many companies' profiles and
// e-mails with fetchAll, batched to the rate budget, one failure not failing the others.
import { json, pathOf, problem, queryOf, useGas } from './gas-fakes';
import { outreach } from './clients-setup';

const gas = useGas();

describe('profiles and contacts', () => {
  const contact = (i: number) => ({ name: `N${i}`, title: 'CEO', email: `c${i}@acme.test`, linkedin: null });

  test('profilesWithEmails: fetchAll, per-company results, one 404 does not fail the others', () => {
    gas.respond((request) => {
      const path = pathOf(request);
      const id = decodeURIComponent(path.split('/')[4]);
      if (id === 'h_missing') return problem(404, 'not-found', 'not unlocked');
      if (path.endsWith('/profile')) return json(200, { companyHashId: id, name: id.toUpperCase() });
      const page = Number(queryOf(request).page);
      const total = id === 'h_big' ? 150 : 2;
      const count = id === 'h_big' && page === 1 ? 100 : id === 'h_big' ? 50 : 2;
      return json(200, { emails: Array.from({ length: count }, (_, i) => contact(i)), total, page });
    });
    const results = outreach().profilesWithEmails(['h_a', 'h_missing', 'h_big']);
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    const [a, missing, big] = results;
    expect(a.ok && a.profile).toEqual({ companyHashId: 'h_a', name: 'H_A', tradeData: [] });
    expect(a.ok && a.emails).toHaveLength(2);
    expect(!missing.ok && missing.error.action).toBe('Unlock the company first.');
    expect(big.ok && big.emails).toHaveLength(150);
    expect(gas.fetchAllCalls).toEqual([6]);
    expect(gas.requests).toHaveLength(7);
  });

  test('profilesWithEmails: an inflated total does not make it ask for pages past the end', () => {
    // 130 contacts, a total of a million: the pages after the first come a few at a time and stop at the
    // first empty one, never running to page 100 (10 such companies would need 1000 requests, more than one
    // execution can make: the unlock job would never end).
    gas.respond((request) => {
      if (pathOf(request).endsWith('/profile')) return json(200, { companyHashId: 'x' });
      const page = Number(queryOf(request).page);
      const count = page === 1 ? 100 : page === 2 ? 30 : 0;
      return json(200, { emails: Array.from({ length: count }, (_, i) => contact(i)), total: 1e6, page });
    });
    const [result] = outreach().profilesWithEmails(['h_1']);
    expect(result.ok && result.emails).toHaveLength(130);
    expect(gas.requests.length).toBeLessThanOrEqual(6); // profile, page 1, then pages 2 to 5 at most
  });

  test('profilesWithEmails batches to the free rate budget (60 per minute)', () => {
    gas.respond((request) =>
      pathOf(request).endsWith('/profile')
        ? json(200, { companyHashId: 'x' })
        : json(200, { emails: [contact(1)], total: 1, page: 1 }),
    );
    const ids = Array.from({ length: 40 }, (_, i) => `h_${i}`);
    const results = outreach().profilesWithEmails(ids);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(gas.fetchAllCalls).toEqual([60, 20]);
    const first = gas.requests[0].at;
    const last = gas.requests[79].at;
    expect(last - first).toBeGreaterThanOrEqual(60_500);
    expect(last - first).toBeLessThan(63_000);
  });

  test('profilesWithEmails stops cleanly on a refused key', () => {
    gas.respond(() => problem(401, 'unauthorized', 'revoked'));
    const results = outreach().profilesWithEmails(['h_1', 'h_2']);
    expect(results.every((r) => !r.ok && r.error.kind === 'auth')).toBe(true);
  });

  test('a fetchAll that throws retries its requests one by one', () => {
    let thrown = false;
    gas.respond((request) => {
      if (!thrown && pathOf(request).includes('h_2')) {
        thrown = true;
        throw new Error('Connection reset');
      }
      return pathOf(request).endsWith('/profile')
        ? json(200, { companyHashId: 'x' })
        : json(200, { emails: [], total: 0, page: 1 });
    });
    const results = outreach().profilesWithEmails(['h_1', 'h_2']);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(gas.fetchAllCalls).toEqual([4]);
  });
});
