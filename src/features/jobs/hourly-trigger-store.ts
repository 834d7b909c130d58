// What the hourly trigger keeps per user and document. Triggers run as the user who made them, so each
// user's switch, trigger id and last run are that user's own: a record `timer.user.<token>` in document
// properties, where `<token>` is a random id kept in the user's own properties (no e-mail address is
// stored, and the add-on does not ask for the scope that reads it). Each user writes only their record, so
// two editors never change each other's; one record per user who ever used the hourly trigger here, a few
// hundred characters each, however much is sent.
import type { LastRun } from './reporters';
import { userToken } from '../../platform';

/** A user's auto-refresh switch in this document. */
export interface AutoRefresh {
  on: boolean;
  /** When it was turned on (ms). */
  since: number;
  /** Trigger runs in a row that failed with an unexpected error. */
  failures: number;
  /** When and why it turned itself off. */
  offAt?: number;
  offReason?: string;
}

interface HourlyTriggerRecord {
  /** getUniqueId() of the trigger this user made in this document. */
  triggerId?: string;
  auto?: AutoRefresh;
  /** This user's last automatic run (refresh, scheduled or waiting send). */
  lastRun?: LastRun;
  /** When a run found that the add-on needs this user's re-authorization (cleared by the next good run). */
  reauthAt?: number;
  /**
   * When a waiting or scheduled send (scheduled, or waiting for the quota) of this user posted mails: the trigger's next run
   * refreshes them (auto-refresh on or not), so a bounce is known before a later send. Cleared by that run.
   */
  refreshAfterSend?: number;
  /** The permissions (granular consent) that run found refused, with reauthAt. */
  missing?: string[];
}

const PREFIX = 'timer.user.';

function parse(text: string | null | undefined): HourlyTriggerRecord {
  try {
    return text ? (JSON.parse(text) as HourlyTriggerRecord) : {};
  } catch {
    return {};
  }
}

/** The current user's record in this document ({} when none). */
export function myHourlyTrigger(): HourlyTriggerRecord {
  return parse(PropertiesService.getDocumentProperties().getProperty(PREFIX + userToken()));
}

/** Replaces the current user's record (only theirs: other users' records are never written here). */
export function saveMyHourlyTrigger(record: HourlyTriggerRecord): void {
  PropertiesService.getDocumentProperties().setProperty(PREFIX + userToken(), JSON.stringify(record));
}

/** Every user's record in this document, from properties already read (for the summary). */
export function allHourlyTriggers(properties: Record<string, string>): HourlyTriggerRecord[] {
  return Object.keys(properties)
    .filter((key) => key.startsWith(PREFIX))
    .map((key) => parse(properties[key]));
}
