// src/sheets/person-name.ts: splitName gives {{First name}} and {{Last name}} from a contact's one name.
import { splitName } from '../../../src/sheets/person-name';

describe('splitName', () => {
  test('the first word is the first name, the rest the last name', () => {
    expect(splitName('Jane Doe')).toEqual({ first: 'Jane', last: 'Doe' });
    expect(splitName('Ana María  de la   Cruz')).toEqual({ first: 'Ana', last: 'María de la Cruz' });
    expect(splitName('Cher')).toEqual({ first: 'Cher', last: '' });
  });

  test('honorifics in front are dropped, with or without their dot, in any case', () => {
    expect(splitName('Dr. Jane Doe')).toEqual({ first: 'Jane', last: 'Doe' });
    expect(splitName('prof dr Hans Meier')).toEqual({ first: 'Hans', last: 'Meier' });
    expect(splitName('Frau Anna Schmidt')).toEqual({ first: 'Anna', last: 'Schmidt' });
    expect(splitName('Mme Claire Dubois')).toEqual({ first: 'Claire', last: 'Dubois' });
    expect(splitName('Dott.ssa Giulia Rossi')).toEqual({ first: 'Giulia', last: 'Rossi' });
  });

  test('"M." is an honorific, "M" without a dot may be an initial and is kept', () => {
    expect(splitName('M. Jean Martin')).toEqual({ first: 'Jean', last: 'Martin' });
    expect(splitName('M Jean Martin')).toEqual({ first: 'M', last: 'Jean Martin' });
  });

  test('an honorific alone is kept: it is all the name there is', () => {
    expect(splitName('Dr.')).toEqual({ first: 'Dr.', last: '' });
  });

  test('"Doe, Jane" is last name, first name', () => {
    expect(splitName('Doe, Jane')).toEqual({ first: 'Jane', last: 'Doe' });
    expect(splitName('van der Berg, Dr. Piet')).toEqual({ first: 'Piet', last: 'van der Berg' });
  });

  test('Chinese, Japanese and Korean names stay whole in the first name', () => {
    expect(splitName('王小明')).toEqual({ first: '王小明', last: '' });
    expect(splitName('山田 太郎')).toEqual({ first: '山田 太郎', last: '' });
    expect(splitName('김민준')).toEqual({ first: '김민준', last: '' });
  });

  test('no name: both parts empty', () => {
    expect(splitName('')).toEqual({ first: '', last: '' });
    expect(splitName('   ')).toEqual({ first: '', last: '' });
    expect(splitName(null)).toEqual({ first: '', last: '' });
    expect(splitName(undefined)).toEqual({ first: '', last: '' });
  });
});
