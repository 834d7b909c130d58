// Another editor's send from a sheet: their unfinished send (waiting for the quota, cut off by the time
// limit) or their chunks in doubt. Only they can go on with it, with their key and the rows they confirmed;
// while it lasts nobody else sends from that sheet, so none of its rows is queued, marked or sent twice by
// two users. Other sheets are not affected.
import { otherJobs, hasWorkLeft, type JobState } from '../jobs';
import { ownershipOf } from '../../platform';
import type { SendData, SendUnit } from './send-job';
import { openChunks } from '../outbox';
import { whenText } from '../words';

/** What blocks sending from this sheet for the current user, said to them; null when nothing does. */
export function otherSendOnSheet(sheetId: number, sheetName: string, zone: string): string | null {
  const time = (ms: number) => whenText(ms, zone);
  const doubt = openChunks().find(
    (c) => c.sheetId === sheetId && !c.test && ownershipOf(c.owner || {}, 'outreach') === 'other',
  );
  if (doubt) {
    return `Another editor's send from "${sheetName}" (${time(doubt.postedAt)}) was cut off before the service answered: only they can tell, with their key, whether it went out, and it is settled when they next open the add-on. Nothing is sent from this sheet until then, so no row is sent twice; other sheets are not affected.`;
  }
  const job = otherJobs<JobState<SendUnit, SendData>>('send').find(
    (s) => s.data && s.data.sheetId === sheetId && hasWorkLeft(s),
  );
  if (job) {
    const since = job.owner ? ` (started ${time(job.owner.at)})` : '';
    const waiting = job.data.waiting ? ', waiting for the sending quota' : '';
    return `Another editor's send from "${sheetName}"${since} is not finished${waiting}: only they can continue or cancel it, with their key. Send from this sheet when it has ended; other sheets are not affected.`;
  }
  return null;
}
