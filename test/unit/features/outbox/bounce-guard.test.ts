// src/features/outbox/bounce-guard.ts: the rate's words.
import '../../build-constants'; // bounce-guard.ts keeps its view under the owner's token (platform/owner.ts → settings)
import { pauseDetail } from '../../../../src/features/outbox/bounce-guard';

test('the rate as the rows say it', () => {
  expect(pauseDetail({ failed: 24, final: 200 })).toBe('bounce rate 12 % (24 of 200)');
});
