// First and last name from a contact's full name (the service gives one `name`). Honorifics in front are
// dropped (Dr., Mr., Mrs., Ms., Prof., Frau, Herr, M., Mme…); "Doe, Jane" is read as last name, first name;
// a name written family-name first, as Chinese, Japanese and Korean names are, is kept whole in the first
// name (which part is the given name cannot be told from the text), so "{{First name}}" greets the person
// by the name as written. Pure code: no service is called here.

interface NameParts {
  first: string;
  last: string;
}

/** Titles dropped from the front of a name, compared without their dot and case. */
const HONORIFICS = new Set([
  'dr',
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'prof',
  'sir',
  'dame',
  'frau',
  'herr',
  'fr',
  'hr',
  'mme',
  'mlle',
  'mdme',
  'sr',
  'sra',
  'srta',
  'dott',
  'dott.ssa',
  'ing',
]);

/** Han, Hiragana, Katakana and Hangul: names in these scripts are written family name first. */
const FAMILY_FIRST_SCRIPT = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;

/** The first and last name of `full` ("" for both when there is no name). */
export function splitName(full: unknown): NameParts {
  let text = String(full ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return { first: '', last: '' };
  if (FAMILY_FIRST_SCRIPT.test(text)) return { first: text, last: '' };
  const comma = /^([^,]+),\s*([^,]+)$/.exec(text);
  if (comma) text = `${comma[2]} ${comma[1]}`;
  const words = text.split(' ');
  while (words.length > 1 && isHonorific(words[0])) words.shift();
  return { first: words[0], last: words.slice(1).join(' ') };
}

/** "Dr.", "dr", "Prof.", "M." ("M" without a dot may be an initial: kept). */
function isHonorific(word: string): boolean {
  if (word === 'M.') return true;
  const bare = word.replace(/\.$/, '').toLowerCase();
  return HONORIFICS.has(bare);
}
