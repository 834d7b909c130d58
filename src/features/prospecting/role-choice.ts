// Which departments and seniorities an unlock writes to Contacts (the others are counted, not written).
// Chosen in the unlock confirmation, remembered per user; it never changes what is charged (an unlock is
// per company).
import { readPreference, savePreference } from '../../platform/preferences';
import { UserError } from '../inputs';
import { DEPARTMENTS, type Department, type Role, roleOf, SENIORITIES, type Seniority } from './roles';

/** Empty lists mean every department / every seniority. */
export interface RoleChoice {
  departments: Department[];
  seniorities: Seniority[];
}

export const ALL_ROLES: RoleChoice = { departments: [], seniorities: [] };
const PREFERENCE = 'unlockRoles';
export const ROLES_EXAMPLE = 'Purchasing, Management, Director, Owner / C-level';

const ALIASES: Record<string, Department | Seniority> = {
  owner: 'Owner / C-level',
  'c-level': 'Owner / C-level',
  'c level': 'Owner / C-level',
  'c-suite': 'Owner / C-level',
  procurement: 'Purchasing',
  'human resources': 'HR',
};

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
 * Departments and seniorities typed as a list ("Purchasing, management; director"); blank or "all" is
 * every role. A word that is neither throws, naming it with the choices and an example.
 */
export function parseRoleChoice(text: string): RoleChoice {
  const choice: RoleChoice = { departments: [], seniorities: [] };
  const items = text
    .split(/[,;\n]+/)
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 1 && /^all$/i.test(items[0])) return choice;
  for (const item of items) {
    const lower = item.toLowerCase().replace(/\s+/g, ' ');
    const found =
      [...DEPARTMENTS, ...SENIORITIES].find((name) => name.toLowerCase() === lower) ?? ALIASES[lower];
    if (!found)
      throw new UserError(
        `Roles: "${item.slice(0, 40)}" is not a department or a seniority. Departments: ${DEPARTMENTS.join(', ')}. Seniorities: ${SENIORITIES.join(', ')}. For example: ${ROLES_EXAMPLE}.`,
        'roles',
      );
    if ((DEPARTMENTS as readonly string[]).includes(found)) {
      if (!choice.departments.includes(found as Department)) choice.departments.push(found as Department);
    } else if (!choice.seniorities.includes(found as Seniority)) choice.seniorities.push(found as Seniority);
  }
  return {
    departments: DEPARTMENTS.filter((name) => choice.departments.includes(name)),
    seniorities: SENIORITIES.filter((name) => choice.seniorities.includes(name)),
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
