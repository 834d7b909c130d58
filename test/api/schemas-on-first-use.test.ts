// Apps Script evaluates the whole bundle on every execution, each custom-function cell included: loading the
// API builds no zod schema; a schema is built when it is first asked for, once.
jest.mock('zod/mini', () => {
  const actual = jest.requireActual('zod/mini');
  const counted: Record<string, unknown> = { callsSoFar: 0 };
  for (const key of Object.keys(actual)) {
    const value = actual[key];
    counted[key] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            (counted.callsSoFar as number)++;
            return value(...args);
          }
        : value;
  }
  return counted;
});

const zodCalls = (): number => (jest.requireMock('zod/mini') as { callsSoFar: number }).callsSoFar;

test('loading the API layer (its index, both clients, the transport) calls no zod function', () => {
  require('../../src/api');
  require('../../src/api/outreach/outreach-client');
  require('../../src/api/phone/phone-client');
  expect(zodCalls()).toBe(0);
});

test('a schema is built on its first use and kept', () => {
  const api = require('../../src/api/outreach/email-schemas');
  const before = zodCalls();
  const schema = api.SendPersonalizedRequestSchema();
  expect(zodCalls()).toBeGreaterThan(before);
  const built = zodCalls();
  expect(api.SendPersonalizedRequestSchema()).toBe(schema);
  expect(zodCalls()).toBe(built);
  expect(schema.safeParse({ emails: [] }).success).toBe(false);
});
