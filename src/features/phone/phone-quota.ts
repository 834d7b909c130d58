// A phone check that meets Apps Script's daily quota of URL Fetch calls (20,000 a day for a consumer account,
// 100,000 on Google Workspace, one call per number, counted from the day's first call and reset 24 h later).
// Nothing was sent for the numbers left: their cells say they wait, the job pauses for an hour, and the
// user's hourly trigger (jobs/hourly-trigger.ts) goes on with it until it is done: the job is continued by one
// execution at a time (the job lease) and a number with a kept result is never checked again.
import { ApiError, fetchQuotaInit } from '../../api';
import { JobPause, ensureHourlyTrigger } from '../jobs';
import { whenText } from '../words';
import type { PhoneTarget } from './phone-plan';
import { writeResults } from './phone-sheet';
import { HOUR_MS, DAY_MS, count } from '../../platform';
import { describe } from '../errors';

/** Marks the numbers left, hands the job to the hourly trigger and pauses it for an hour. */
export function dailyQuotaPause(
  error: ApiError,
  data: PhoneTarget & { byTimer?: boolean },
  left: string[],
): JobPause {
  if (!data.byTimer) writeResults(data, new Map(left.map((phone) => [phone, { kind: 'waiting' }])));
  const latest = whenText(Date.now() + DAY_MS);
  let how: string;
  try {
    ensureHourlyTrigger();
    data.byTimer = true;
    how = `The add-on tries again every hour and goes on by itself (at the latest ${latest}); you need not keep the document open.`;
  } catch (triggerError) {
    how = `Run "Check phone numbers in selection" again on the same cells after ${latest} (the hourly retry could not be set up: ${describe(triggerError)}).`;
  }
  const text =
    `${error.userMessage} ${count(left.length, 'number')} ` +
    `not checked yet say "Waiting" in their cells. ${how}`;
  return new JobPause(text, Date.now() + HOUR_MS);
}

/** The error a phone call meets when the day's calls are used up (for a slice that has not called yet). */
export function fetchQuotaError(): ApiError {
  return new ApiError(fetchQuotaInit('phone', 'GET /api/user/credits'));
}
