// Profiles and contacts of unlocked companies: fetched in parallel (fetchAll in the client), written as one
// upsert of the Profiles sheet and one append to the Contacts sheet per chunk. Contacts already on the sheet
// (same company and e-mail) are not added again, so re-running never duplicates.
import {
  type ApiError,
  endsRun,
  type CompanyWithEmails,
  type OutreachClient,
  type CompanyProfile as Profile,
  type ContactEmail,
} from '../../api';
import {
  cellText,
  CellValue,
  numberCell,
  textCell,
  CONTACTS,
  PROFILES,
  Table,
  splitName,
} from '../../sheets';
import { chosenRole, type RoleChoice } from './role-choice';
import { describe } from '../errors';
import { count } from '../../platform';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export interface FetchedContacts {
  results: CompanyWithEmails[];
  /** Why the fetch stopped early: the rate budget (continue later), or the key or quota (stop). */
  stop?: ApiError;
}

interface WrittenContacts {
  companies: number;
  contactsAdded: number;
  /** Contacts the companies have (new ones) and those of them the roles choice left out (counted only). */
  contactsFound: number;
  contactsLeftOut: number;
  /** Ids not settled (the fetch stopped before them): to try again later. */
  notDone: string[];
}

/** Profiles and every contact of the companies (free reads, in parallel). */
export function fetchContacts(companyHashIds: string[], client: OutreachClient): FetchedContacts {
  const results = companyHashIds.length ? client.profilesWithEmails(companyHashIds) : [];
  const stopped = results.find((r) => !r.ok && endsRun(r.error));
  return { results, stop: stopped && !stopped.ok ? stopped.error : undefined };
}

/**
 * One upsert of Profiles and one append to Contacts for what was fetched; contacts outside the roles choice
 * are counted, not written.
 */
export function writeContacts(
  fetched: FetchedContacts,
  spreadsheet: Spreadsheet,
  roles?: RoleChoice,
): WrittenContacts {
  const profiles = Table.open(spreadsheet, PROFILES);
  const profileRows = profiles.readAll();
  const rowByHash = new Map(profileRows.map((row) => [cellText(row.values.companyHashId), row]));
  const updates = new Map<number, Record<string, CellValue>>();
  const appends: Array<Record<string, CellValue>> = [];

  const contacts = Table.open(spreadsheet, CONTACTS);
  const known = new Set(
    contacts.readAll().map((row) => contactKey(row.values.companyHashId, row.values.email, row.values.name)),
  );
  const newContacts: Array<Record<string, CellValue>> = [];

  let companies = 0;
  let found = 0;
  const notDone: string[] = [];
  for (const result of fetched.results) {
    // An error that ends the run says nothing about the company itself: it is tried again later.
    if (!result.ok && endsRun(result.error)) {
      notDone.push(result.companyHashId);
      continue;
    }
    const record = result.ok
      ? profileRecord(result.companyHashId, result.profile, result.emails)
      : failedProfileRecord(result.companyHashId, result.error);
    const existing = rowByHash.get(result.companyHashId);
    if (existing) updates.set(existing.rowNumber, record);
    else appends.push(record);
    if (!result.ok) continue;
    companies++;
    const company = result.profile.name ?? '';
    for (const contact of result.emails) {
      const key = contactKey(result.companyHashId, contact.email, contact.name);
      if (known.has(key)) continue;
      known.add(key);
      found++;
      const { role, chosen } = chosenRole(contact.title, roles);
      if (!chosen) continue;
      newContacts.push({ ...contactRecord(company, result.companyHashId, contact), ...role });
    }
  }
  profiles.update(profileRows, updates);
  profiles.append(appends);
  contacts.append(newContacts);
  const contactsAdded = newContacts.length;
  return { companies, contactsAdded, contactsFound: found, contactsLeftOut: found - contactsAdded, notDone };
}

function failedProfileRecord(companyHashId: string, error: unknown): Record<string, CellValue> {
  return {
    companyHashId: textCell(companyHashId),
    description: textCell(`Not loaded: ${describe(error)}`),
    updatedAt: new Date(),
  };
}

function profileRecord(
  companyHashId: string,
  profile: Profile,
  emails: ContactEmail[],
): Record<string, CellValue> {
  return {
    companyHashId: textCell(companyHashId),
    name: textCell(profile.name),
    country: textCell(profile.country),
    industry: textCell(profile.industry),
    employees: numberCell(profile.employeeCount),
    website: textCell(profile.website),
    description: textCell(profile.description),
    tradeData: textCell(tradeSummary(profile.tradeData ?? [])),
    contacts: emails.length,
    updatedAt: new Date(),
  };
}

function contactRecord(
  company: string,
  companyHashId: string,
  contact: ContactEmail,
): Record<string, CellValue> {
  return {
    company: textCell(company),
    companyHashId: textCell(companyHashId),
    name: textCell(contact.name),
    ...nameCells(contact.name),
    title: textCell(contact.title),
    email: textCell(contact.email),
    linkedin: textCell(contact.linkedin),
  };
}

/** First name and Last name from the contact's name (sheets/person-name.ts). */
function nameCells(name: unknown): Record<string, CellValue> {
  const { first, last } = splitName(name);
  return { firstName: textCell(first), lastName: textCell(last) };
}

function contactKey(companyHashId: unknown, email: unknown, name: unknown): string {
  return `${cellText(companyHashId)}|${cellText(email).toLowerCase() || cellText(name).toLowerCase()}`;
}

type Trade = NonNullable<Profile['tradeData']>[number];

/** e.g. "12 records, 2024-01-05 to 2025-03-02; import 1.2M (8), export 310K (4); HS 8471, 8542" */
export function tradeSummary(trade: Trade[]): string {
  if (trade.length === 0) return '';
  const dates = trade
    .map((t) => t.date)
    .filter((d): d is string => !!d)
    .sort();
  const byDirection = new Map<string, { value: number; count: number }>();
  const byHs = new Map<string, number>();
  for (const t of trade) {
    const direction = t.direction || 'other';
    const entry = byDirection.get(direction) ?? { value: 0, count: 0 };
    entry.value += typeof t.value === 'number' ? t.value : 0;
    entry.count++;
    byDirection.set(direction, entry);
    if (t.hsCode) byHs.set(t.hsCode, (byHs.get(t.hsCode) ?? 0) + (typeof t.value === 'number' ? t.value : 0));
  }
  const parts = [count(trade.length, 'record')];
  if (dates.length) parts[0] += `, ${dates[0].slice(0, 10)} to ${dates[dates.length - 1].slice(0, 10)}`;
  const flows = [...byDirection]
    .map(([direction, e]) => `${direction} ${compact(e.value)} (${e.count})`)
    .join(', ');
  const codes = [...byHs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([code]) => code);
  return [parts[0], flows, codes.length ? `HS ${codes.join(', ')}` : ''].filter(Boolean).join('; ');
}

function compact(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${(value / 1e9).toFixed(1)}B`;
  if (abs >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (abs >= 1e3) return `${(value / 1e3).toFixed(0)}K`;
  return String(Math.round(value));
}
