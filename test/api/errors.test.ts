// src/api/errors.ts: an error kind means one thing. The three ways a run ends before its work is done —
// out of time, the user's Stop, the rate budget's wait past the deadline — each have a kind of their own,
// apart from the service's rate limit; and runEffect is the one place that says which errors end a run.
import { type ApiErrorKind, endsRun, isForLater, runEffect } from '../../src/api/errors';
import { OutreachClient } from '../../src/api/outreach/outreach-client';
import { PhoneClient } from '../../src/api/phone/phone-client';
import { RateBudget } from '../../src/platform/rate-budget';
import { caught } from './clients-setup';
import { START, json, problem, useGas } from './gas-fakes';

const KEY = 'live-key-0123456789abcdef';
const outreach = (deadlineMs?: number) =>
  new OutreachClient({ apiKey: KEY, baseUrl: 'https://api.test', deadlineMs });
const phone = (deadlineMs?: number) =>
  new PhoneClient({ apiKey: 'phone-key-9876543210', baseUrl: 'https://phone.test', deadlineMs });
const mail = { email: 'a@b.co', subject: 's', content: 'c', body_format: 'text' as const };
const BALANCE = { userId: 'u1', searchPoints: { total: 1, used: 0, remaining: 1 } };

const gas = useGas();

describe('each reason a run ends early has its own kind', () => {
  test('the service refuses for its rate limit, past the retries: rate-limit', () => {
    gas.respond(() => problem(429, 'rate-limit', 'slow', {}, { 'Retry-After': '1' }));
    const e = caught(() => outreach().balance());
    expect(e).toMatchObject({ kind: 'rate-limit', status: 429 });
    expect(gas.requests).toHaveLength(4); // the first try and three retries
  });

  test('the rate budget would free a slot only after the deadline: rate-budget, nothing sent', () => {
    new RateBudget({ service: 'outreach', apiKey: KEY }).reserve(60);
    const e = caught(() => outreach(START + 10_000).balance());
    expect(e).toMatchObject({
      kind: 'rate-budget',
      userMessage: 'The Outreach service allows 60 requests per minute; this run has reached the limit.',
      action: 'Continue later: the work done so far is kept.',
    });
    expect(e.retryAfterMs).toBeGreaterThan(10_000);
    expect(gas.requests).toHaveLength(0);
  });

  test('the deadline came before the next request: time-up, the rest not sent', () => {
    gas.respond(() => {
      gas.clock.now += 15_000; // a slow service: each batch takes 15 s
      return json(502, { code: 1006, message: 'Upstream service error' });
    });
    const out = phone(START + 20_000).checkMany(['+12025550010']);
    expect(out.stopped).toMatchObject({ kind: 'time-up', userMessage: 'This run has used its time.' });
    expect(gas.requests).toHaveLength(1); // the retry would end after the deadline
    expect(out.unchecked).toEqual([0]);
  });

  test('the user pressed Stop: stopped, nothing sent', () => {
    gas.respond(() => json(200, BALANCE));
    const out = outreach().sendPersonalizedAll([{ emails: [mail] }], undefined, () => true);
    expect(out.stopped).toMatchObject({
      kind: 'stopped',
      userMessage: 'Stopped before the next request, as you asked.',
    });
    expect(out.outcomes).toEqual([undefined]);
    expect(gas.requests).toHaveLength(0);
  });
});

describe('runEffect: the one place that says which errors end a run', () => {
  const effects = (kinds: ApiErrorKind[]) => kinds.map((kind) => runEffect({ kind }));

  test('out of time, Stop and rate limits end the run for later', () => {
    const later: ApiErrorKind[] = ['time-up', 'stopped', 'rate-budget', 'rate-limit'];
    expect(effects(later)).toEqual(later.map(() => 'later'));
  });

  test('what every later request would meet too ends the run for good', () => {
    const stop: ApiErrorKind[] = [
      'missing-key',
      'auth',
      'funds',
      'plan',
      'gone',
      'quota',
      'address',
      'address-not-allowed',
      'fetch-quota',
    ];
    expect(effects(stop)).toEqual(stop.map(() => 'stop'));
  });

  test('what concerns one request only lets the run go on with the others', () => {
    const goOn: ApiErrorKind[] = [
      'not-found',
      'bad-request',
      'server',
      'network',
      'invalid-response',
      'outcome-unknown',
    ];
    expect(effects(goOn)).toEqual(goOn.map(() => 'go-on'));
    expect(goOn.some((kind) => endsRun({ kind }))).toBe(false);
  });

  test('isForLater is true only for an ApiError whose run goes on later', () => {
    gas.respond(() => json(200, BALANCE));
    const stopped = outreach().sendPersonalizedAll([{ emails: [mail] }], undefined, () => true).stopped;
    expect(isForLater(stopped)).toBe(true);
    expect(isForLater(new Error('time-up'))).toBe(false);
    expect(isForLater({ kind: 'time-up' })).toBe(false); // a plain object is no ApiError
  });

  test('a 404 of one company does not stop the others; a refused key stops the run', () => {
    gas.respond((request) =>
      request.url.includes('/h_gone/')
        ? problem(404, 'not-found', 'Company not found')
        : problem(401, 'unauthorized', 'bad key'),
    );
    const results = outreach().profilesWithEmails(['h_gone', 'h_b', 'h_c']);
    expect(results.map((r) => (r.ok ? 'ok' : r.error.kind))).toEqual(['not-found', 'auth', 'auth']);
  });
});
