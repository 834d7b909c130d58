// What the client tests share: the keys and addresses, the clients as features/clients.ts builds them, a
// balance and an unlock answer, and small helpers to catch an ApiError and answer requests in sequence.
import { ApiError } from '../../src/api/errors';
import { OutreachClient } from '../../src/api/outreach/outreach-client';
import { PhoneClient } from '../../src/api/phone/phone-client';
import { attributionHeaders } from '../../src/platform/attribution';
import { type Gas } from './gas-fakes';

export const KEY = 'live-key-0123456789abcdef';
export const PHONE_KEY = 'phone-key-9876543210';
export const BASE = 'https://api.test';
export const PHONE_BASE = 'https://phone.test';
/** "2026-01-05 10:00 UTC", as errors name a time. */
export const utc = (time: number) => `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

// The attribution headers as features/clients.ts passes them.
export const outreach = (options: Partial<ConstructorParameters<typeof OutreachClient>[0]> = {}) =>
  new OutreachClient({
    apiKey: KEY,
    baseUrl: BASE,
    secrets: [PHONE_KEY],
    extraHeaders: () => attributionHeaders([KEY, PHONE_KEY]),
    ...options,
  });
export const phone = (options: Partial<ConstructorParameters<typeof PhoneClient>[0]> = {}) =>
  new PhoneClient({ apiKey: PHONE_KEY, baseUrl: PHONE_BASE, secrets: [KEY], ...options });

export const BALANCE = {
  userId: 'u1',
  monthlyPoints: 10,
  monthlyEdm: 100,
  monthlyExpiresAt: '2026-02-01T00:00:00Z',
  addonPoints: 400,
  addonEdm: 2000,
};
export const UNLOCKED = { companyHashId: 'h_1', companyName: 'Acme', charged: true, alreadyViewed: false };

export function caught(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError');
}

/** Answers `faults` in order for the first requests, then `then`. */
export function sequence(
  faults: Array<() => ReturnType<Parameters<Gas['respond']>[0]>>,
  then: () => ReturnType<Parameters<Gas['respond']>[0]>,
) {
  let i = 0;
  return () => (i < faults.length ? faults[i++]() : then());
}
