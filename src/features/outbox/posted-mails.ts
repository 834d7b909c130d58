// Which mails the payer's runs posted (mail id → its task id), kept in the payer's record (ledger.ts) for 90 days
// after the day they went: Tracking follows them whatever the sheets' cells say, so a mail whose Mail ID or Task ID
// was cleared or moved is still read and shown. The service numbers mails in ascending order and a chunk's mails
// usually come as one run of consecutive ids, their tasks one task or consecutive ones: a day's mails are stored as
// runs, a few characters per chunk of 100. A run is four numbers, each a base-64 varint: the gap after the previous
// run's last mail id, (length − 1) × 2 + task step (0: one task, 1: consecutive tasks), and the task delta (zigzag).
import { DIGITS } from './marks';

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
  let text = '';
  let lastMail = -1;
  let lastTask = 0;
  for (const run of runs) {
    text += varint(run.mail - lastMail - 1) + varint((run.length - 1) * 2 + run.step);
    text += varint(zigzag(run.task - lastTask));
    lastMail = run.mail + run.length - 1;
    lastTask = run.task;
  }
  return text;
}

export function decodePosted(text: string): PostedPairs {
  const pairs: PostedPairs = new Map();
  const input = { text, at: 0 };
  let lastMail = -1;
  let lastTask = 0;
  while (input.at < text.length) {
    const mail = lastMail + 1 + readVarint(input);
    const lengthStep = readVarint(input);
    const task = lastTask + unzigzag(readVarint(input));
    const length = Math.floor(lengthStep / 2) + 1;
    const step = lengthStep % 2;
    for (let i = 0; i < length; i++) pairs.set(mail + i, task + step * i);
    lastMail = mail + length - 1;
    lastTask = task;
  }
  return pairs;
}

function varint(value: number): string {
  let text = '';
  let rest = value;
  do {
    const low = rest % 32;
    rest = Math.floor(rest / 32);
    text += DIGITS[low + (rest > 0 ? 32 : 0)];
  } while (rest > 0);
  return text;
}

function readVarint(input: { text: string; at: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    const digit = DIGITS.indexOf(input.text[input.at++]);
    if (digit < 0) throw new Error('posted mails: the record is cut short');
    value += (digit % 32) * scale;
    if (digit < 32) return value;
    scale *= 32;
  }
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);
