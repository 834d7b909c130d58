// src/features/prospecting/roles.ts: the Department and Seniority of a job title, in the languages trade
// data comes in, compared without accents and case; short abbreviations only as whole words.
import { normalizeTitle, type Role, roleOf } from '../../../../src/features/prospecting/roles';

const role = (department: Role['department'], seniority: Role['seniority']): Role => ({
  department,
  seniority,
});

describe('normalizeTitle', () => {
  test('lower case, accents gone, Turkish dotless i, ß, đ; separators become single spaces', () => {
    expect(normalizeTitle('  Satın Alma Müdürü ')).toBe('satin alma muduru');
    expect(normalizeTitle('Giám đốc')).toBe('giam doc');
    expect(normalizeTitle('Geschäftsführer (Vertrieb)')).toBe('geschaftsfuhrer vertrieb');
    expect(normalizeTitle('Straße_Leiter;Einkauf')).toBe('strasse leiter einkauf');
  });
});

describe('roleOf', () => {
  test.each<[string, Role]>([
    ['CEO', role('Management', 'Owner / C-level')],
    ['Co-Founder & CTO', role('Management', 'Owner / C-level')],
    ['Managing Director', role('Management', 'Owner / C-level')],
    ['Geschäftsführer', role('Management', 'Owner / C-level')],
    ['PDG', role('Management', 'Owner / C-level')],
    ['Genel Müdür', role('Management', 'Owner / C-level')],
    ['Giám đốc', role('Management', 'Owner / C-level')],
    ['总经理', role('Management', 'Owner / C-level')],
    ['Country Manager Germany', role('Management', 'Director')],
  ])('the head of the company or of a country: %s', (title, expected) => {
    expect(roleOf(title)).toEqual(expected);
  });

  test.each<[string, Role]>([
    ['CFO', role('Finance', 'Owner / C-level')],
    ['Chief Technology Officer', role('Engineering', 'Owner / C-level')],
    ['Head of Purchasing', role('Purchasing', 'Director')],
    ['Einkaufsleiter', role('Purchasing', 'Director')],
    ['Responsable des achats', role('Purchasing', 'Manager')],
    ['Satın Alma Müdürü', role('Purchasing', 'Manager')],
    ['采购经理', role('Purchasing', 'Manager')],
    ['VP Sales', role('Sales', 'Director')],
    ['Key Account Manager', role('Sales', 'Manager')],
    ['Jefe de Ventas', role('Sales', 'Manager')],
    ['Sales & Marketing Director', role('Sales', 'Director')],
    ['Marketing Manager', role('Marketing', 'Manager')],
    ['Software Engineer', role('Engineering', 'Staff')],
    ['Logistics Coordinator', role('Operations', 'Staff')],
    ['Import/Export Manager', role('Operations', 'Manager')],
    ['HR Business Partner', role('HR', 'Staff')],
    ['Accountant', role('Finance', 'Staff')],
  ])('department and seniority from the function and the rank: %s', (title, expected) => {
    expect(roleOf(title)).toEqual(expected);
  });

  test('an assistant is staff whatever rank the title names; a deputy of the head is a director', () => {
    expect(roleOf('Assistant to the CEO')).toEqual(role('Management', 'Staff'));
    expect(roleOf('Sales Assistant')).toEqual(role('Sales', 'Staff'));
    expect(roleOf('Deputy CEO')).toEqual(role('Management', 'Director'));
    expect(roleOf('Vice President')).toEqual(role('Management', 'Director'));
  });

  test('short abbreviations count only as whole words', () => {
    // "cto" inside "director", "it" inside "title", "pr" inside "procurement" name nothing.
    expect(roleOf('Director')).toEqual(role('Management', 'Director'));
    expect(roleOf('Procurement Specialist')).toEqual(role('Purchasing', 'Staff'));
    expect(roleOf('IT Manager')).toEqual(role('Engineering', 'Manager'));
  });

  test('a product owner or a sales partner is not the owner of the company', () => {
    expect(roleOf('Product Owner')).not.toEqual(expect.objectContaining({ seniority: 'Owner / C-level' }));
    expect(roleOf('Channel Partner Manager').department).not.toBe('Management');
  });

  test('nothing recognised, or no title: Other / Staff', () => {
    expect(roleOf('Receptionist')).toEqual(role('Other', 'Staff'));
    expect(roleOf('')).toEqual(role('Other', 'Staff'));
    expect(roleOf(null)).toEqual(role('Other', 'Staff'));
    expect(roleOf(undefined)).toEqual(role('Other', 'Staff'));
  });
});
