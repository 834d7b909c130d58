// ISO 3166 alpha-2 country → the time zone its mails are timed in (IANA). A country that spans several zones
// uses its capital's (SEVERAL_ZONES lists them: Compose says so, and a Time zone column is then better).
// Compact on purpose: the bundle is parsed on every execution.
const TABLE =
  'AD:Europe/Andorra AE:Asia/Dubai AF:Asia/Kabul AL:Europe/Tirane AM:Asia/Yerevan AO:Africa/Luanda ' +
  'AR:America/Argentina/Buenos_Aires AT:Europe/Vienna AU:Australia/Sydney AZ:Asia/Baku BA:Europe/Sarajevo ' +
  'BD:Asia/Dhaka BE:Europe/Brussels BF:Africa/Ouagadougou BG:Europe/Sofia BH:Asia/Bahrain BJ:Africa/Porto-Novo ' +
  'BN:Asia/Brunei BO:America/La_Paz BR:America/Sao_Paulo BS:America/Nassau BT:Asia/Thimphu BW:Africa/Gaborone ' +
  'BY:Europe/Minsk BZ:America/Belize CA:America/Toronto CD:Africa/Kinshasa CH:Europe/Zurich CI:Africa/Abidjan ' +
  'CL:America/Santiago CM:Africa/Douala CN:Asia/Shanghai CO:America/Bogota CR:America/Costa_Rica CU:America/Havana ' +
  'CY:Asia/Nicosia CZ:Europe/Prague DE:Europe/Berlin DK:Europe/Copenhagen DO:America/Santo_Domingo ' +
  'DZ:Africa/Algiers EC:America/Guayaquil EE:Europe/Tallinn EG:Africa/Cairo ES:Europe/Madrid ET:Africa/Addis_Ababa ' +
  'FI:Europe/Helsinki FR:Europe/Paris GB:Europe/London GE:Asia/Tbilisi GH:Africa/Accra GR:Europe/Athens ' +
  'GT:America/Guatemala HK:Asia/Hong_Kong HN:America/Tegucigalpa HR:Europe/Zagreb HU:Europe/Budapest ' +
  'ID:Asia/Jakarta IE:Europe/Dublin IL:Asia/Jerusalem IN:Asia/Kolkata IQ:Asia/Baghdad IR:Asia/Tehran ' +
  'IS:Atlantic/Reykjavik IT:Europe/Rome JM:America/Jamaica JO:Asia/Amman JP:Asia/Tokyo KE:Africa/Nairobi ' +
  'KG:Asia/Bishkek KH:Asia/Phnom_Penh KR:Asia/Seoul KW:Asia/Kuwait KZ:Asia/Almaty LA:Asia/Vientiane ' +
  'LB:Asia/Beirut LI:Europe/Vaduz LK:Asia/Colombo LT:Europe/Vilnius LU:Europe/Luxembourg LV:Europe/Riga ' +
  'LY:Africa/Tripoli MA:Africa/Casablanca MC:Europe/Monaco MD:Europe/Chisinau ME:Europe/Podgorica ' +
  'MG:Indian/Antananarivo MK:Europe/Skopje ML:Africa/Bamako MM:Asia/Yangon MN:Asia/Ulaanbaatar MO:Asia/Macau ' +
  'MT:Europe/Malta MU:Indian/Mauritius MX:America/Mexico_City MY:Asia/Kuala_Lumpur MZ:Africa/Maputo ' +
  'NA:Africa/Windhoek NG:Africa/Lagos NI:America/Managua NL:Europe/Amsterdam NO:Europe/Oslo NP:Asia/Kathmandu ' +
  'NZ:Pacific/Auckland OM:Asia/Muscat PA:America/Panama PE:America/Lima PH:Asia/Manila PK:Asia/Karachi ' +
  'PL:Europe/Warsaw PR:America/Puerto_Rico PT:Europe/Lisbon PY:America/Asuncion QA:Asia/Qatar ' +
  'RO:Europe/Bucharest RS:Europe/Belgrade RU:Europe/Moscow RW:Africa/Kigali SA:Asia/Riyadh SE:Europe/Stockholm ' +
  'SG:Asia/Singapore SI:Europe/Ljubljana SK:Europe/Bratislava SN:Africa/Dakar SV:America/El_Salvador ' +
  'SY:Asia/Damascus TH:Asia/Bangkok TN:Africa/Tunis TR:Europe/Istanbul TT:America/Port_of_Spain TW:Asia/Taipei ' +
  'TZ:Africa/Dar_es_Salaam UA:Europe/Kyiv UG:Africa/Kampala US:America/New_York UY:America/Montevideo ' +
  'UZ:Asia/Tashkent VE:America/Caracas VN:Asia/Ho_Chi_Minh YE:Asia/Aden ZA:Africa/Johannesburg ' +
  'ZM:Africa/Lusaka ZW:Africa/Harare';

/** Countries over several time zones: their capital's is used unless the row has a Time zone. */
export const SEVERAL_ZONES = [
  'AU',
  'BR',
  'CA',
  'CD',
  'CL',
  'ID',
  'KZ',
  'MN',
  'MX',
  'NZ',
  'PT',
  'RU',
  'ES',
  'US',
];

let zones: Map<string, string> | undefined;

/** The zone of a country code ("us", " DE "), or '' when it is not in the table. */
export function countryZone(code: string): string {
  zones = zones || new Map(TABLE.split(' ').map((pair) => pair.split(':') as [string, string]));
  return zones.get(code.trim().toUpperCase()) || '';
}
