// src/features/prospecting/role-choice.ts: which departments and seniorities an unlock writes to Contacts,
// as the unlock dialog sends them (every box ticked is "all"; none ticked is refused).
import { UserError } from '../../../../src/features/errors';
import {
  ALL_ROLES,
  chosenRole,
  isAllRoles,
  roleChoiceOf,
  roleChoiceText,
  roleChosen,
} from '../../../../src/features/prospecting/role-choice';
import { DEPARTMENTS, SENIORITIES } from '../../../../src/features/prospecting/roles';

describe('roleChoiceOf', () => {
  test('known names only, in their own order', () => {
    const choice = roleChoiceOf({
      departments: ['Purchasing', 'Janitorial', 'Sales'],
      seniorities: ['Director'],
    });
    expect(choice).toEqual({ departments: ['Sales', 'Purchasing'], seniorities: ['Director'] });
  });

  test('a group with every name ticked is "all" (an empty list)', () => {
    expect(roleChoiceOf({ departments: [...DEPARTMENTS], seniorities: [...SENIORITIES] })).toEqual(ALL_ROLES);
  });

  test('a group with nothing ticked is refused, naming what to tick', () => {
    expect(() => roleChoiceOf({ departments: [], seniorities: ['Staff'] })).toThrow(
      new UserError('Tick at least one department to add to Contacts.'),
    );
    expect(() => roleChoiceOf({ departments: ['HR'] })).toThrow(
      'Tick at least one seniority to add to Contacts.',
    );
    expect(() => roleChoiceOf(null)).toThrow(UserError);
  });
});

describe('roleChosen and chosenRole', () => {
  const buyers = {
    departments: ['Purchasing' as const],
    seniorities: ['Director' as const, 'Manager' as const],
  };

  test('a contact goes to Contacts when both its department and its seniority are chosen', () => {
    expect(roleChosen({ department: 'Purchasing', seniority: 'Manager' }, buyers)).toBe(true);
    expect(roleChosen({ department: 'Purchasing', seniority: 'Staff' }, buyers)).toBe(false);
    expect(roleChosen({ department: 'Sales', seniority: 'Manager' }, buyers)).toBe(false);
  });

  test('no choice, or "all", keeps everyone', () => {
    expect(roleChosen({ department: 'Other', seniority: 'Staff' }, undefined)).toBe(true);
    expect(roleChosen({ department: 'Other', seniority: 'Staff' }, ALL_ROLES)).toBe(true);
  });

  test('chosenRole reads the title', () => {
    expect(chosenRole('Einkaufsleiter', buyers)).toEqual({
      role: { department: 'Purchasing', seniority: 'Director' },
      chosen: true,
    });
    expect(chosenRole('Receptionist', buyers).chosen).toBe(false);
  });
});

describe('roleChoiceText', () => {
  test('what the unlock dialog and its confirmation say', () => {
    expect(isAllRoles(undefined)).toBe(true);
    expect(roleChoiceText(ALL_ROLES)).toBe('all departments and seniorities');
    expect(roleChoiceText({ departments: ['Purchasing', 'Management'], seniorities: [] })).toBe(
      'Purchasing, Management; all seniorities',
    );
    expect(roleChoiceText({ departments: [], seniorities: ['Director'] })).toBe('all departments; Director');
  });
});
