// The hourly run of the editor who scheduled a send checks, with their key (only their runs can read it),
// whether it can pay (one free balance request), and writes what it found into the schedule, where every
// editor reads it (schedules.ts: whyCannotRun).
import { ApiError, usableEdm } from '../../api';
import { ownershipOf, readSettings, HOUR_MS } from '../../platform';
import { outreachClient } from '../clients';
import { mySchedules, saveSchedule, ScheduledSend, ScheduleCheck } from '../outbox';

/** The owner's hourly run writes its check at least this often (schedules.ts: STALE_AFTER_MS). */
const RECHECK_MS = 6 * HOUR_MS;

/**
 * The hourly run's part: checks this user's schedules that are not due yet against their key now, and
 * writes what changed (or, at least every few hours, that it still holds) where the other editors see it.
 */
export function checkMySchedules(now = Date.now()): void {
  const pending = mySchedules().filter((s) => s.at > now);
  if (pending.length === 0) return;
  const usable = ownerCanPay();
  for (const schedule of pending) {
    const check = checkOf(schedule, usable, now);
    if (check === null) continue; // not known now (the service did not answer): what was found stays
    const before = schedule.check;
    const same = before && before.cannot === check.cannot && before.usable === check.usable;
    if (same && before.at + RECHECK_MS > now) continue;
    saveSchedule({ ...schedule, check });
  }
}

/** The usable EDM of this user's key, 'no-key', 'key-refused', or null when the service did not say. */
function ownerCanPay(): number | 'no-key' | 'key-refused' | null {
  if (!readSettings().outreachApiKey) return 'no-key';
  try {
    const balance = outreachClient().balance();
    return usableEdm(balance);
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'auth') return 'key-refused';
    return null;
  }
}

function checkOf(
  schedule: ScheduledSend,
  usable: number | 'no-key' | 'key-refused' | null,
  now: number,
): ScheduleCheck | null {
  if (usable === 'no-key' || usable === 'key-refused') return { at: now, cannot: usable };
  if (ownershipOf(schedule, 'outreach') === 'my-other-key') return { at: now, cannot: 'other-key' };
  if (usable === null) return null;
  if (usable < (schedule.rows || 0)) return { at: now, cannot: 'no-edm', usable };
  return { at: now };
}
