// The clients and the transport over faked Apps Script services: retry rules, typed errors, batching,
// headers. The same rules are exercised end to end against the sandbox in sandbox.test.js.
import { ApiError } from '../../src/api/errors';
import { parseFundsDetail } from '../../src/api/outreach/problem';
import { parseRetryAfter } from '../../src/api/transport/answers';
import { buildQuery } from '../../src/api/transport/request-spec';
import { OutreachClient } from '../../src/api/outreach/outreach-client';
import { RateBudget } from '../../src/platform/rate-budget';
import { START, json, problem, queryOf, useGas } from './gas-fakes';
import {
  KEY,
  PHONE_KEY,
  BASE,
  PHONE_BASE,
  utc,
  outreach,
  phone,
  BALANCE,
  UNLOCKED,
  caught,
  sequence,
} from './clients-setup';

const gas = useGas();

describe('authentication and headers', () => {
  test('outreach: Authorization ApiKey, attribution headers, nothing secret elsewhere', () => {
    gas.respond(() => json(200, BALANCE));
    expect(outreach().balance()).toEqual(BALANCE);
    const [request] = gas.requests;
    expect(request.url).toBe(`${BASE}/api/v1/credit/balance`);
    expect(request.headers.Authorization).toBe(`ApiKey ${KEY}`);
    expect(request.followRedirects).toBe(false);
    expect(request.muteHttpExceptions).toBe(true);
    expect(request.headers['X-Svc-Install-Id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers['X-Svc-Skill-Version']).toBe('1.0.0');
    expect(request.headers['X-Svc-Skill-Runtime']).toBe('google-apps-script');
    expect(request.headers['X-Svc-Source-Type']).toBeUndefined();
    for (const [name, value] of Object.entries(request.headers)) {
      if (name !== 'Authorization') expect(value).not.toContain(KEY);
    }
  });

  test('phone: x-api-key only, no attribution headers', () => {
    gas.respond(() => json(200, { code: 0, result: { total: 12 } }));
    expect(phone().credits()).toBe(12);
    const [request] = gas.requests;
    expect(request.headers['x-api-key']).toBe(PHONE_KEY);
    expect(Object.keys(request.headers).filter((h) => h.startsWith('X-Svc'))).toEqual([]);
    expect(request.headers.Authorization).toBeUndefined();
  });

  test('missing key: no request, kind missing-key', () => {
    const e = caught(() => new OutreachClient({ apiKey: '', baseUrl: BASE }).balance());
    expect(e.kind).toBe('missing-key');
    expect(e.action).toContain('Settings');
    expect(gas.requests).toHaveLength(0);
  });

  test('unlock POST: body, answer', () => {
    gas.respond(() => json(200, UNLOCKED));
    expect(outreach().unlock(' acme.com ', 'de')).toEqual(UNLOCKED);
    expect(JSON.parse(gas.requests[0].payload ?? '')).toEqual({ domain: 'acme.com', countryCode: 'DE' });
  });

  test('search POST carries the normalized JSON body', () => {
    gas.respond(() => json(200, { total: 0, list: [] }));
    outreach().search({ productKeywords: [' pumps '], includeCountry: ['de'], size: 5 });
    const [request] = gas.requests;
    expect(request.method).toBe('post');
    expect(request.contentType).toBe('application/json');
    expect(JSON.parse(request.payload ?? '')).toEqual({
      productKeywords: ['pumps'],
      includeCountry: ['DE'],
      size: 5,
    });
  });
});

describe('typed errors', () => {
  test('401 → auth with the Settings action', () => {
    gas.respond(() => problem(401, 'unauthorized', 'Invalid API key'));
    const e = caught(() => outreach().balance());
    expect(e).toMatchObject({ kind: 'auth', status: 401, slug: 'unauthorized', retryable: false });
    expect(e.action).toBe('Check the API key in Extensions › Outreach › Settings.');
    expect(gas.requests).toHaveLength(1);
  });

  test('402 → funds with required and available amounts and the pricing page', () => {
    gas.respond(() =>
      problem(
        402,
        'insufficient-credits',
        'Insufficient EDM quota: required 5, available 2. Buy a plan or an add-on pack',
      ),
    );
    const e = caught(() =>
      outreach().sendPersonalized({
        emails: [{ email: 'a@b.co', subject: 's', content: 'x', body_format: 'text' }],
      }),
    );
    expect(e).toMatchObject({ kind: 'funds', status: 402, required: 5, available: 2, unit: 'edm' });
    expect(e.action).toContain('Needed 5, available 2');
    expect(e.action).toContain(`${BASE}/pricing`);
    expect(gas.requests).toHaveLength(1);
  });

  test('402 amounts from problem extensions win', () => {
    gas.respond(() =>
      problem(402, 'insufficient-credits', 'Insufficient search points', { required: 1, available: 0 }),
    );
    expect(caught(() => outreach().unlock('a.com', 'DE'))).toMatchObject({
      kind: 'funds',
      required: 1,
      available: 0,
      unit: 'points',
    });
  });

  test('403 → plan', () => {
    gas.respond(() => problem(403, 'forbidden', 'The free plan has no permission to send email'));
    const e = caught(() =>
      outreach().sendPersonalized({
        emails: [{ email: 'a@b.co', subject: 's', content: 'c', body_format: 'text' }],
      }),
    );
    expect(e.kind).toBe('plan');
    // Said once: 'Your plan has no permission to send e-mail. Upgrade the plan (…/pricing).'
    expect(e.userMessage).toBe('Your plan has no permission to send e-mail.');
    expect(e.action).toMatch(/^Upgrade the plan \(https:\/\/\S+\/pricing\)\.$/);
  });

  test('404 on profile and profileEmails → Unlock the company first', () => {
    gas.respond(() => problem(404, 'not-found', 'Company not found'));
    expect(caught(() => outreach().profile('h_x'))).toMatchObject({
      kind: 'not-found',
      action: 'Unlock the company first.',
    });
    expect(caught(() => outreach().profileEmails('h_x'))).toMatchObject({
      kind: 'not-found',
      action: 'Unlock the company first.',
    });
    expect(caught(() => outreach().unlock('nowhere.test', 'DE')).userMessage).toMatch(/nothing was charged/);
    expect(gas.requests).toHaveLength(3);
  });

  test('410 → gone with code and replacement, never retried (any endpoint: the retired contact search is not called)', () => {
    gas.respond(() =>
      json(410, {
        type: 'https://www.rfc-editor.org/rfc/rfc9110#status.410',
        title: 'Gone',
        status: 410,
        code: 'contact_search_retired',
        replacement: '/api/v1/companies/{companyHashId}/profileEmails',
      }),
    );
    const e = caught(() => outreach().balance());
    expect(e).toMatchObject({
      kind: 'gone',
      code: 'contact_search_retired',
      slug: 'contact_search_retired',
      replacement: '/api/v1/companies/{companyHashId}/profileEmails',
      retryable: false,
    });
    expect(gas.requests).toHaveLength(1);
  });

  test('a problem body that is not JSON is tolerated', () => {
    gas.respond(() => ({ status: 403, body: '<html>Forbidden</html>' }));
    const e = caught(() => outreach().listTasks());
    expect(e).toMatchObject({ kind: 'plan', status: 403 });
    expect(e.slug).toBeUndefined();
  });

  test('a wrong service address is named as such, not as a missing company or a refused key', () => {
    const wrong = `Nothing that speaks the Outreach API answers at ${BASE}: check the service address.`;
    // The phone service's address: its 404 {code, message} on every outreach path.
    gas.respond(() => json(404, { code: 404, message: 'No route' }));
    for (const call of [() => outreach().balance(), () => outreach().profile('h_x')]) {
      expect(caught(call)).toMatchObject({ kind: 'address', userMessage: wrong });
    }
    // `/api/v1` added to the address: this API's own 404 where nothing can be missing (balance, search).
    gas.respond(() => problem(404, 'not-found', 'No route for GET /api/v1/api/v1/credit/balance'));
    expect(caught(() => outreach().balance())).toMatchObject({ kind: 'address', userMessage: wrong });
    expect(caught(() => outreach().search({ productKeywords: ['x'] })).kind).toBe('address');
    // A web page at the address: the balance (the call that shows the address works) is not understood.
    gas.respond(() => ({ status: 200, body: '<html>Welcome</html>' }));
    expect(caught(() => outreach().balance())).toMatchObject({ kind: 'address', userMessage: wrong });
    gas.respond(() => ({ status: 401, body: '<html>Log in</html>' }));
    expect(caught(() => outreach().balance())).toMatchObject({ kind: 'address', userMessage: wrong });
    // The phone service at the outreach address answers 401 problem+json (no x-api-key): not a refused key.
    gas.respond(() => problem(401, 'unauthorized', 'Missing API key'));
    expect(caught(() => phone().credits())).toMatchObject({
      kind: 'address',
      userMessage: `Nothing that speaks the phone-check API answers at ${PHONE_BASE}: check the service address.`,
    });
    gas.respond(() => json(404, { code: 404, message: 'No route' }));
    expect(caught(() => phone().check('+14155550123')).kind).toBe('address');
  });
});

describe('retry rules', () => {
  test('429 rate-limit waits Retry-After and succeeds', () => {
    gas.respond(
      sequence([() => problem(429, 'rate-limit', 'slow down', {}, { 'Retry-After': '7' })], () =>
        json(200, BALANCE),
      ),
    );
    expect(outreach().balance()).toEqual(BALANCE);
    expect(gas.requests).toHaveLength(2);
    expect(gas.requests[1].at - gas.requests[0].at).toBeGreaterThanOrEqual(7000);
  });

  test('429 rate-limit on a send is retried too (rejected before it ran)', () => {
    gas.respond(
      sequence([() => problem(429, 'rate-limit', 'slow', {}, { 'Retry-After': '1' })], () =>
        json(201, { total: 1, tasks: [{ task_id: 3, mail_id: 7, email: 'a@b.co' }] }),
      ),
    );
    expect(
      outreach().sendPersonalized({
        emails: [{ email: 'a@b.co', subject: 's', content: 'x', body_format: 'text' }],
      }),
    ).toEqual({ total: 1, tasks: [{ task_id: 3, mail_id: 7, email: 'a@b.co' }] });
    expect(gas.requests).toHaveLength(2);
  });

  test('429 rate-limit is retried a bounded number of times', () => {
    gas.respond(() => problem(429, 'rate-limit', 'slow', {}, { 'Retry-After': '1' }));
    expect(caught(() => outreach().balance()).kind).toBe('rate-limit');
    expect(gas.requests).toHaveLength(4);
  });

  test('429 quota-exceeded is never retried; the error repeats what the service said and when to retry', () => {
    gas.respond(() => problem(429, 'quota-exceeded', 'Daily quota exceeded', {}, { 'Retry-After': '36000' }));
    const e = caught(() => outreach().search({ productKeywords: ['x'] }));
    expect(e.kind).toBe('quota');
    expect(e.userMessage).toBe("The Outreach service's quota is used up: Daily quota exceeded.");
    expect(e.action).toBe(`Try again after ${utc(Date.now() + 36_000_000)}.`); // 10 h: not capped at 1 h
    expect(gas.requests).toHaveLength(1);

    gas.respond(() => problem(429, 'quota-exceeded', 'Daily quota exceeded; it resets at 00:00 UTC'));
    const midnight = new Date(Date.now());
    midnight.setUTCHours(24, 0, 0, 0);
    expect(caught(() => outreach().balance())).toMatchObject({
      userMessage: "The Outreach service's quota is used up: Daily quota exceeded; it resets at 00:00 UTC.",
      action: `Try again after ${utc(midnight.getTime())}.`,
    });
    gas.respond(() => problem(429, 'quota-exceeded', 'Monthly quota exceeded'));
    expect(caught(() => outreach().balance()).action).toBe(
      'The quota waits for the monthly reset or an add-on pack (400 search points + 2,000 e-mail credits).',
    );
  });

  test('502 on a GET is retried with back-off 1 s, 2 s', () => {
    gas.respond(
      sequence([() => problem(502, 'upstream-error', 'x'), () => ({ status: 503, body: 'busy' })], () =>
        json(200, BALANCE),
      ),
    );
    expect(outreach().balance()).toEqual(BALANCE);
    expect(gas.requests).toHaveLength(3);
    expect(gas.requests[1].at - gas.requests[0].at).toBeGreaterThanOrEqual(1000);
    expect(gas.requests[2].at - gas.requests[1].at).toBeGreaterThanOrEqual(2000);
  });

  test('5xx on a read: at most 3 retries, then kind server', () => {
    gas.respond(() => problem(500, 'internal-error', 'boom'));
    expect(caught(() => outreach().listTasks()).kind).toBe('server');
    expect(gas.requests).toHaveLength(4);
  });

  test('network failure on the search POST (a read) is retried', () => {
    gas.respond(
      sequence(
        [
          () => {
            throw new Error(`Address unavailable: ${BASE}/api/v1/companies/search-advanced`);
          },
        ],
        () => json(200, { total: 0, list: [] }),
      ),
    );
    expect(outreach().search({ productKeywords: ['x'] })).toEqual({ total: 0, list: [] });
    expect(gas.requests).toHaveLength(2);
  });

  test('unlock after a dropped connection: outcome-unknown, exactly one request', () => {
    gas.respond(() => {
      throw new Error('Exception: Connection reset');
    });
    const e = caught(() => outreach().unlock('acme.com', 'DE'));
    expect(e.kind).toBe('outcome-unknown');
    expect(e.action).toMatch(/repeat unlock .* free/);
    expect(gas.requests).toHaveLength(1);
  });

  test('unlock with a 5xx or a malformed 2xx: outcome-unknown, not retried', () => {
    gas.respond(() => problem(500, 'internal-error', 'boom'));
    expect(caught(() => outreach().unlock('acme.com', 'DE')).kind).toBe('outcome-unknown');
    gas.respond(() => ({ status: 200, body: '{"companyHashId":"h_' }));
    const e = caught(() => outreach().unlock('acme.com', 'DE'));
    expect(e.kind).toBe('outcome-unknown');
    expect(e.message).toContain('POST /api/v1/companies/unlock');
    expect(gas.requests).toHaveLength(2);
  });

  test('send: 500 → outcome-unknown; 502 upstream-error → refunded server error; neither retried', () => {
    const send = () =>
      outreach().sendPersonalized({
        emails: [{ email: 'a@b.co', subject: 's', content: 'x', body_format: 'text' }],
      });
    gas.respond(() => problem(500, 'internal-error', 'boom'));
    const unknown = caught(send);
    expect(unknown.kind).toBe('outcome-unknown');
    expect(unknown.action).toMatch(/Tracking/);
    gas.respond(() => problem(502, 'upstream-error', 'provider failure'));
    const refunded = caught(send);
    expect(refunded).toMatchObject({ kind: 'server', slug: 'upstream-error', retryable: true });
    expect(refunded.userMessage).toMatch(/refunded/);
    gas.respond(() => ({ status: 502, body: '<html>Bad gateway</html>' }));
    expect(caught(send).kind).toBe('outcome-unknown');
    expect(gas.requests).toHaveLength(3);
  });

  test('malformed 2xx on a read → invalid-response naming endpoint and field', () => {
    gas.respond(() => json(200, { ...BALANCE, monthlyPoints: 'ten' }));
    const e = caught(() => outreach().balance());
    expect(e.kind).toBe('address'); // the balance shows that the address speaks this API
    expect(e.message).toContain(
      'Unexpected answer from GET /api/v1/credit/balance: monthlyPoints: expected number, got string',
    );
    gas.respond(() => ({ status: 200, body: '{"total":3,"list":[{"id":"' }));
    expect(caught(() => outreach().search({ productKeywords: ['x'] })).message).toBe(
      'Unexpected answer from POST /api/v1/companies/search-advanced: body is not JSON',
    );
    expect(gas.requests).toHaveLength(2);
  });

  test('search rows with a repeated or empty id are refused (a row id picks the domain that unlock pays for)', () => {
    const row = (id: string, domain: string) => ({
      id,
      company_name: domain,
      company_type: [],
      industry: [],
      main_products: [],
      country_code: 'DE',
      domain,
    });
    for (const list of [[row('7', 'a.de'), row('7', 'b.de')], [row('', 'a.de')]]) {
      gas.respond(() => json(200, { total: 2, list }));
      const e = caught(() => outreach().search({ productKeywords: ['x'] }));
      expect(e.kind).toBe('invalid-response');
      expect(e.message).toMatch(/^Unexpected answer from POST \/api\/v1\/companies\/search-advanced: list/);
    }
  });

  test('4xx are never retried', () => {
    gas.respond(() => problem(400, 'bad-request', 'recipients[0].email is not valid'));
    const e = caught(() => outreach().listMails({ page_size: 5 }));
    expect(e).toMatchObject({ kind: 'bad-request', status: 400, detail: 'recipients[0].email is not valid' });
    expect(gas.requests).toHaveLength(1);
  });

  test('a deadline bounds the waits', () => {
    gas.respond(() => problem(429, 'rate-limit', 'slow', {}, { 'Retry-After': '30' }));
    const e = caught(() => outreach({ deadlineMs: START + 10_000 }).balance());
    expect(e.kind).toBe('rate-limit');
    expect(gas.requests).toHaveLength(1);
    expect(Date.now()).toBeLessThanOrEqual(START + 10_000);
  });

  test('no budget slot before the deadline: rate-budget with "continue later", no request', () => {
    new RateBudget({ service: 'outreach', apiKey: KEY }).reserve(60);
    const e = caught(() => outreach({ deadlineMs: START + 10_000 }).balance());
    expect(e).toMatchObject({ kind: 'rate-budget', action: 'Continue later: the work done so far is kept.' });
    expect(gas.requests).toHaveLength(0);
    expect(gas.sleeps).toEqual([]);
  });
});

describe('validation before sending', () => {
  test('no request is made for a bad request', () => {
    const client = outreach();
    expect(caught(() => client.search({ size: 10 } as never)).message).toBe(
      'Enter at least one product, industry or company-type keyword',
    );
    expect(caught(() => client.search({ productKeywords: ['x'], size: 80 })).field).toBe('size');
    expect(caught(() => client.unlock('', 'DE')).field).toBe('domain');
    expect(caught(() => client.profileEmails('h', { pageSize: 500 })).field).toBe('pageSize');
    expect(caught(() => client.profile('  ')).field).toBe('companyHashId');
    expect(caught(() => client.getMail(0)).field).toBe('mailId');
    expect(caught(() => client.listTasks({ page_size: 0 })).field).toBe('page_size');
    const e = caught(() =>
      client.sendPersonalized({
        emails: ['a@b.co', 'c@d.co', 'bob@@x'].map((email) => ({
          email,
          subject: 's',
          content: 'x',
          body_format: 'text',
        })),
      }),
    );
    expect(e.message).toBe('E-mail 3 (bob@@x): e-mail address is not valid');
    expect(caught(() => phone().check('call me')).kind).toBe('bad-request');
    expect(gas.requests).toHaveLength(0);
  });
});

describe('secrets never leak', () => {
  test('keys are redacted from messages, details and logs', () => {
    gas.respond(() => problem(400, 'bad-request', `bad key ${KEY} and ${PHONE_KEY}`));
    const e = caught(() => outreach().balance());
    const text = JSON.stringify(e.toJSON()) + e.message + e.stack;
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(PHONE_KEY);
    expect(e.detail).toContain('[key hidden]');
    gas.respond(sequence([() => problem(503, 'service-unavailable', KEY)], () => json(200, BALANCE)));
    outreach().balance();
    expect(gas.logs.join('\n')).not.toContain(KEY);
    expect(gas.requests.every((r) => !r.url.includes(KEY))).toBe(true);
  });

  test('a key pasted into a request field stays out of the check message (nothing sent)', () => {
    const leaks = (e: ApiError) => JSON.stringify(e.toJSON()) + e.message + e.stack;
    const batch = (mail: Record<string, unknown>) =>
      caught(() =>
        outreach().sendPersonalized({
          emails: [{ email: 'a@b.co', subject: 's', content: 'x', body_format: 'text', ...mail }],
        }),
      );
    for (const e of [
      batch({ email: KEY }),
      batch({ email: PHONE_KEY }),
      batch({ [KEY]: 'x' }),
      caught(() => outreach().search({ productKeywords: ['x'], [KEY]: 1 } as never)),
    ]) {
      expect(e.kind).toBe('bad-request');
      expect(leaks(e)).not.toContain(KEY);
      expect(leaks(e)).not.toContain(PHONE_KEY);
    }
    expect(gas.requests).toHaveLength(0);
  });

  test('network error text loses its URL', () => {
    gas.respond(() => {
      throw new Error(`DNS error: ${BASE}/api/wa/check?phone=%2B12025550002`);
    });
    const e = caught(() => phone({ backoffMs: [] }).check('+12025550002'));
    expect(e.kind).toBe('network');
    expect(e.message).not.toContain('12025550002');
  });
});

describe('query strings and parsing helpers', () => {
  test('list queries: lists comma-joined, encoded by hand', () => {
    gas.respond(() => json(200, { data: [], total: 0, page: 1, page_size: 50 }));
    outreach().listMails({ task_ids: [1, 2], mail_ids: [3], page_size: 50, sort_by: 'mail_id' });
    expect(gas.requests[0].url).toBe(
      `${BASE}/api/v1/emails/mails?task_ids=1%2C2&mail_ids=3&page_size=50&sort_by=mail_id`,
    );
    expect(queryOf(gas.requests[0])).toEqual({
      task_ids: '1,2',
      mail_ids: '3',
      page_size: '50',
      sort_by: 'mail_id',
    });
    gas.respond(() => json(200, { data: [], total: 0, page: 1, page_size: 50 }));
    outreach().listTasks({ task_subject: 'Q&A = 1 · #Ab', page_size: 5 });
    expect(gas.requests[1].url).toBe(
      `${BASE}/api/v1/emails/tasks?task_subject=Q%26A%20%3D%201%20%C2%B7%20%23Ab&page_size=5`,
    );
    expect(queryOf(gas.requests[1])).toEqual({ task_subject: 'Q&A = 1 · #Ab', page_size: '5' });
  });

  test('a URL over 2000 characters is refused before sending', () => {
    const ids = Array.from({ length: 400 }, (_, i) => 100000 + i);
    const e = caught(() => outreach().listTasks({ task_ids: ids }));
    expect(e).toMatchObject({ kind: 'bad-request', field: 'query' });
    expect(gas.requests).toHaveLength(0);
  });

  test('Retry-After as seconds or HTTP date; funds amounts from text', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(START + 4000).toUTCString(), START)).toBe(4000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseFundsDetail('Insufficient search points: required 1, available 0.')).toEqual({
      required: 1,
      available: 0,
      unit: 'points',
    });
    expect(parseFundsDetail('Not enough EDM quota (need 12, 3 available)')).toEqual({
      required: 12,
      available: 3,
      unit: 'edm',
    });
    expect(parseFundsDetail(undefined)).toEqual({});
    expect(buildQuery({ a: undefined, b: null, c: [], d: 0, e: false })).toBe('d=0&e=false');
  });
});
