// Which departments and seniorities an unlock writes to Contacts (the others are counted, not written).
// Ticked in the unlock dialog, remembered per user; it never changes what is charged (an unlock is
// per company).
import { readPreference, savePreference } from '../../platform';
import { DEPARTMENTS, type Department, type Role, roleOf, SENIORITIES, type Seniority } from './roles';
import { UserError } from '../errors';

/** Empty lists mean every department / every seniority. */
export interface RoleChoice {
  departments: Department[];
  seniorities: Seniority[];
}

export const ALL_ROLES: RoleChoice = { departments: [], seniorities: [] };
const PREFERENCE = 'unlockRoles';

export function readRoleChoice(): RoleChoice {
  const saved = readPreference<Partial<RoleChoice>>(PREFERENCE);
  const keep = <T extends string>(list: unknown, allowed: readonly T[]): T[] =>
    Array.isArray(list) ? allowed.filter((item) => list.includes(item)) : [];
  return {
    departments: keep(saved?.departments, DEPARTMENTS),
    seniorities: keep(saved?.seniorities, SENIORITIES),
  };
}

export function saveRoleChoice(choice: RoleChoice): void {
  savePreference(PREFERENCE, choice);
}

export function isAllRoles(choice: RoleChoice | undefined): boolean {
  return !choice || (choice.departments.length === 0 && choice.seniorities.length === 0);
}

/** "all departments and seniorities", "Purchasing, Management; Director, Owner / C-level". */
export function roleChoiceText(choice: RoleChoice | undefined): string {
  if (!choice || isAllRoles(choice)) return 'all departments and seniorities';
  const departments = choice.departments.length ? choice.departments.join(', ') : 'all departments';
  const seniorities = choice.seniorities.length ? choice.seniorities.join(', ') : 'all seniorities';
  return `${departments}; ${seniorities}`;
}

/**
 * The choice the unlock dialog sends: known names only, in their order; a group with every name ticked is
 * "all" (an empty list). A group with none ticked cannot be sent (the dialog says so), so it is refused.
 */
export function roleChoiceOf(value: unknown): RoleChoice {
  const given = (value ?? {}) as Partial<Record<keyof RoleChoice, unknown>>;
  const pick = <T extends string>(list: unknown, allowed: readonly T[], noun: string): T[] => {
    const names = Array.isArray(list) ? allowed.filter((name) => list.includes(name)) : [];
    if (names.length === 0) throw new UserError(`Tick at least one ${noun} to add to Contacts.`, 'roles');
    return names.length === allowed.length ? [] : names;
  };
  return {
    departments: pick(given.departments, DEPARTMENTS, 'department'),
    seniorities: pick(given.seniorities, SENIORITIES, 'seniority'),
  };
}

/** True when a contact of this role goes to Contacts. */
export function roleChosen(role: Role, choice: RoleChoice | undefined): boolean {
  if (!choice) return true;
  const department = choice.departments.length === 0 || choice.departments.includes(role.department);
  const seniority = choice.seniorities.length === 0 || choice.seniorities.includes(role.seniority);
  return department && seniority;
}

/** The role of a title, and whether the choice keeps it. */
export function chosenRole(title: unknown, choice: RoleChoice | undefined): { role: Role; chosen: boolean } {
  const role = roleOf(title);
  return { role, chosen: roleChosen(role, choice) };
}
