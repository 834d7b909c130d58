// Which mails the payer's runs posted (mail id → its task id), kept in the ledger (ledger.ts) for 90 days
// after the day they went: Tracking follows them whatever the sheets' cells say, so a mail whose Mail ID or Task ID
// was cleared or moved is still read and shown. The service numbers mails in ascending order and a chunk's mails
// usually come as one run of consecutive ids, their tasks one task or consecutive ones: a day's mails are stored as
// runs (id-runs.ts), a few characters per chunk of 100. A run is three numbers: the gap after the previous
// run's last mail id, (length − 1) × 2 + task step (0: one task, 1: consecutive tasks), and the task delta (zigzag).
import { readVarints, unzigzag, varints, zigzag } from './id-runs';

/** A day's posted mails: mail id → task id. */
export type PostedPairs = Map<number, number>;

/** A day as stored: its start (seconds from the ledger's EPOCH), its mail count and its runs. */
export type StoredPostedDay = [day: number, count: number, runs: string];

interface Run {
  mail: number;
  length: number;
  task: number;
  step: 0 | 1;
}

export function encodePosted(pairs: PostedPairs): string {
  const ids = [...pairs.keys()].sort((a, b) => a - b);
  const runs: Run[] = [];
  for (const mail of ids) {
    const task = pairs.get(mail)!;
    const run = runs[runs.length - 1];
    const next = run && run.mail + run.length === mail;
    if (next && run.length === 1 && (task === run.task || task === run.task + 1)) {
      run.step = task === run.task ? 0 : 1;
      run.length++;
    } else if (next && run.length > 1 && task === run.task + run.step * run.length) run.length++;
    else runs.push({ mail, length: 1, task, step: 0 });
  }
  const values: number[] = [];
  let lastMail = -1;
  let lastTask = 0;
  for (const run of runs) {
    values.push(run.mail - lastMail - 1, (run.length - 1) * 2 + run.step, zigzag(run.task - lastTask));
    lastMail = run.mail + run.length - 1;
    lastTask = run.task;
  }
  return varints(values);
}

export function decodePosted(text: string): PostedPairs {
  const pairs: PostedPairs = new Map();
  const values = readVarints(text, 3);
  let lastMail = -1;
  let lastTask = 0;
  for (let i = 0; i < values.length; i += 3) {
    const mail = lastMail + 1 + values[i];
    const length = Math.floor(values[i + 1] / 2) + 1;
    const step = values[i + 1] % 2;
    const task = lastTask + unzigzag(values[i + 2]);
    for (let k = 0; k < length; k++) pairs.set(mail + k, task + step * k);
    lastMail = mail + length - 1;
    lastTask = task;
  }
  return pairs;
}
