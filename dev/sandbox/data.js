'use strict';
// The sandbox's company data set: deterministic from the seed (same seed, same companies, same order).
// generateDataset(seed) is cached, so a test process can call it to find test data (a company with more than
// 250 contacts, one with none, names starting with '=') without talking to a sandbox running in a worker.

const crypto = require('node:crypto');
const { randomTools } = require('./util');

const COMPANY_COUNT = 600;

const COUNTRIES = {
  US: ['United States', '.com', 'Inc.'],
  CA: ['Canada', '.ca', 'Inc.'],
  MX: ['Mexico', '.com.mx', 'S.A. de C.V.'],
  BR: ['Brazil', '.com.br', 'Ltda.'],
  AR: ['Argentina', '.com.ar', 'S.A.'],
  CL: ['Chile', '.cl', 'SpA'],
  GB: ['United Kingdom', '.co.uk', 'Ltd'],
  IE: ['Ireland', '.ie', 'Ltd'],
  DE: ['Germany', '.de', 'GmbH'],
  AT: ['Austria', '.at', 'GmbH'],
  CH: ['Switzerland', '.ch', 'AG'],
  FR: ['France', '.fr', 'SARL'],
  BE: ['Belgium', '.be', 'BV'],
  NL: ['Netherlands', '.nl', 'B.V.'],
  ES: ['Spain', '.es', 'S.L.'],
  PT: ['Portugal', '.pt', 'Lda.'],
  IT: ['Italy', '.it', 'S.r.l.'],
  SE: ['Sweden', '.se', 'AB'],
  NO: ['Norway', '.no', 'AS'],
  DK: ['Denmark', '.dk', 'ApS'],
  FI: ['Finland', '.fi', 'Oy'],
  PL: ['Poland', '.pl', 'Sp. z o.o.'],
  CZ: ['Czechia', '.cz', 's.r.o.'],
  TR: ['Türkiye', '.com.tr', 'A.Ş.'],
  AE: ['United Arab Emirates', '.ae', 'LLC'],
  SA: ['Saudi Arabia', '.sa', 'Co.'],
  EG: ['Egypt', '.com.eg', 'S.A.E.'],
  NG: ['Nigeria', '.ng', 'Ltd'],
  ZA: ['South Africa', '.co.za', '(Pty) Ltd'],
  IN: ['India', '.in', 'Pvt. Ltd.'],
  CN: ['China', '.cn', 'Co., Ltd.'],
  JP: ['Japan', '.jp', 'K.K.'],
  KR: ['South Korea', '.co.kr', 'Co., Ltd.'],
  VN: ['Vietnam', '.vn', 'JSC'],
  TH: ['Thailand', '.co.th', 'Co., Ltd.'],
  MY: ['Malaysia', '.com.my', 'Sdn. Bhd.'],
  SG: ['Singapore', '.sg', 'Pte. Ltd.'],
  ID: ['Indonesia', '.co.id', 'PT'],
  AU: ['Australia', '.com.au', 'Pty Ltd'],
  NZ: ['New Zealand', '.co.nz', 'Ltd'],
};
// Countries that get more companies (weights), so per-country searches return realistic totals.
const BIG_COUNTRIES = ['US', 'CN', 'DE', 'GB', 'IN', 'FR', 'IT', 'JP'];

const INDUSTRIES = {
  Furniture: {
    hs: '9403',
    words: ['Furniture', 'Interiors', 'Woodworks'],
    products: ['office chairs', 'sofas', 'dining tables', 'wooden furniture', 'mattresses', 'bookshelves'],
  },
  'Textiles & Apparel': {
    hs: '6109',
    words: ['Textiles', 'Apparel', 'Garments'],
    products: ['cotton t-shirts', 'denim jeans', 'knitwear', 'workwear', 'home textiles', 'yarn'],
  },
  'Consumer Electronics': {
    hs: '8517',
    words: ['Electronics', 'Digital', 'Devices'],
    products: ['smartphones', 'headphones', 'bluetooth speakers', 'chargers', 'smart watches', 'cables'],
  },
  'Industrial Machinery': {
    hs: '8479',
    words: ['Machinery', 'Engineering', 'Machines'],
    products: ['cnc machines', 'hydraulic presses', 'conveyors', 'pumps', 'valves', 'compressors'],
  },
  'Food & Beverage': {
    hs: '2106',
    words: ['Foods', 'Beverages', 'Provisions'],
    products: ['olive oil', 'coffee beans', 'tea', 'canned fruit', 'snacks', 'mineral water'],
  },
  'Automotive Parts': {
    hs: '8708',
    words: ['Auto Parts', 'Motors', 'Automotive'],
    products: ['brake pads', 'filters', 'spark plugs', 'tires', 'car batteries', 'wipers'],
  },
  Chemicals: {
    hs: '3824',
    words: ['Chemicals', 'Chem', 'Solutions'],
    products: ['solvents', 'adhesives', 'pigments', 'detergents', 'resins', 'coatings'],
  },
  'Plastics & Rubber': {
    hs: '3926',
    words: ['Plastics', 'Polymers', 'Rubber'],
    products: ['pet bottles', 'plastic bags', 'rubber seals', 'pvc pipes', 'injection molds', 'gaskets'],
  },
  'Medical Devices': {
    hs: '9018',
    words: ['Medical', 'Healthcare', 'MedTech'],
    products: ['surgical gloves', 'face masks', 'syringes', 'thermometers', 'wheelchairs', 'bandages'],
  },
  Packaging: {
    hs: '4819',
    words: ['Packaging', 'Pack', 'Containers'],
    products: ['cardboard boxes', 'labels', 'stretch film', 'paper bags', 'pallets', 'glass jars'],
  },
  'Building Materials': {
    hs: '6810',
    words: ['Building', 'Construction', 'Materials'],
    products: ['ceramic tiles', 'cement', 'steel beams', 'insulation', 'windows', 'doors'],
  },
  'Renewable Energy': {
    hs: '8541',
    words: ['Solar', 'Energy', 'Power'],
    products: ['solar panels', 'inverters', 'wind turbines', 'lithium batteries', 'charging stations'],
  },
  Cosmetics: {
    hs: '3304',
    words: ['Cosmetics', 'Beauty', 'Care'],
    products: ['skin care', 'shampoo', 'perfume', 'lipstick', 'nail polish', 'soap'],
  },
  'Toys & Games': {
    hs: '9503',
    words: ['Toys', 'Games', 'Play'],
    products: ['plush toys', 'board games', 'puzzles', 'building blocks', 'dolls'],
  },
  'Sporting Goods': {
    hs: '9506',
    words: ['Sports', 'Outdoor', 'Fitness'],
    products: ['yoga mats', 'bicycles', 'tents', 'dumbbells', 'footballs', 'running shoes'],
  },
  Agriculture: {
    hs: '1001',
    words: ['Agro', 'Farms', 'Harvest'],
    products: ['wheat', 'rice', 'fertilizers', 'seeds', 'animal feed', 'fresh vegetables'],
  },
  Jewelry: {
    hs: '7113',
    words: ['Jewels', 'Gems', 'Jewelry'],
    products: ['gold rings', 'silver necklaces', 'watches', 'earrings', 'pearls'],
  },
  'Home Appliances': {
    hs: '8516',
    words: ['Appliances', 'Home', 'Kitchen'],
    products: ['refrigerators', 'microwaves', 'blenders', 'vacuum cleaners', 'air conditioners', 'kettles'],
  },
  Logistics: {
    hs: '9999',
    words: ['Logistics', 'Freight', 'Shipping'],
    products: ['freight forwarding', 'warehousing', 'customs brokerage', 'container shipping'],
  },
  Software: {
    hs: '8523',
    words: ['Software', 'Systems', 'Labs'],
    products: ['erp software', 'crm software', 'mobile apps', 'cloud hosting', 'cybersecurity'],
  },
};

const COMPANY_TYPES = [
  'Manufacturer',
  'Wholesaler',
  'Distributor',
  'Importer',
  'Exporter',
  'Retailer',
  'Trading Company',
  'Service Provider',
  'Brand Owner',
];
const PREFIXES = [
  'Nova',
  'Apex',
  'Blue River',
  'Golden Gate',
  'Sunrise',
  'Evergreen',
  'Silverline',
  'Northwind',
  'Pacific',
  'Atlas',
  'Orion',
  'Summit',
  'Harbor',
  'Crystal',
  'Maple',
  'Lotus',
  'Phoenix',
  'Falcon',
  'Granite',
  'Horizon',
  'Vertex',
  'Zenith',
  'Redwood',
  'Cobalt',
  'Emerald',
  'Delta',
  'Polar',
  'Terra',
  'Vista',
  'Meridian',
  'Aurora',
  'Pioneer',
  'Beacon',
  'Cedar',
  'Keystone',
  'Liberty',
  'Sterling',
  'Unity',
  'Vanguard',
  'Willow',
];
// Employee ranges as B2B data sources write them, with typical headcounts and weights: most trading
// companies are small (about 3 in 4 have at most 200 people).
const EMPLOYEE_RANGES = [
  ['1-10', 6, 20],
  ['11-50', 30, 31],
  ['51-200', 120, 23],
  ['201-500', 350, 11],
  ['501-1000', 740, 6],
  ['1001-5000', 2400, 5],
  ['5001-10000', 7200, 2.5],
  ['10001+', 14000, 1.5],
];
const EMPLOYEE_WEIGHT = EMPLOYEE_RANGES.reduce((sum, [, , weight]) => sum + weight, 0);

/** A weighted range from one draw of the generator (one draw, as a plain pick: the rest of the data stays). */
function pickEmployeeRange(rnd) {
  let left = rnd.next() * EMPLOYEE_WEIGHT;
  for (const entry of EMPLOYEE_RANGES) {
    left -= entry[2];
    if (left < 0) return entry;
  }
  return EMPLOYEE_RANGES[EMPLOYEE_RANGES.length - 1];
}

/** A founding year from one draw: more young companies than old ones (1905 to 2024). */
function pickFoundingYear(rnd) {
  return 2024 - Math.floor(Math.pow(rnd.next(), 1.7) * 120);
}
const FIRST_NAMES = [
  'Anna',
  'Ben',
  'Carla',
  'David',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kofi',
  'Lena',
  'Marco',
  'Nadia',
  'Oscar',
  'Priya',
  'Quentin',
  'Rosa',
  'Sven',
  'Tara',
  'Umar',
  'Vera',
  'Wei',
  'Ximena',
  'Yusuf',
  'Zoe',
  'Liam',
  'Mia',
  'Noah',
  'Sofia',
];
const LAST_NAMES = [
  'Smith',
  'Müller',
  'Rossi',
  'Garcia',
  'Dubois',
  'Nakamura',
  'Kowalski',
  'Silva',
  'Jensen',
  'Okafor',
  'Patel',
  'Chen',
  'Novak',
  'Larsen',
  'Kim',
  'Nguyen',
  'Ahmed',
  'Costa',
  'Fischer',
  'Moreau',
  'Santos',
  'Berg',
  'Ivanova',
  'Murphy',
  'Schmidt',
  'Tanaka',
  'Lopez',
  'Wang',
  'Brown',
  'Haddad',
];
const TITLES = [
  'CEO',
  'Founder',
  'Managing Director',
  'Sales Manager',
  'Purchasing Manager',
  'Head of Procurement',
  'Export Manager',
  'Marketing Director',
  'Operations Manager',
  'CFO',
  'Sourcing Specialist',
  'Business Development Manager',
  'Account Executive',
  'Supply Chain Manager',
  'Import Manager',
  'Export Sales Executive',
  'Chief Financial Officer',
  'VP Sales',
  'GM',
  'Dir. of Purchasing',
  'HR Manager',
  'Software Engineer',
];
// Titles in the language of the company's country (half of the titles there; the rest are English ones).
const LOCAL_TITLES = {
  de: [
    'Geschäftsführer',
    'Einkaufsleiter',
    'Leiter Einkauf',
    'Vertriebsleiter',
    'Exportleiterin',
    'Marketingleiterin',
    'Leiter Logistik',
    'Sachbearbeiter Einkauf',
    'Vertriebsmitarbeiter Innendienst',
    'Inhaber',
    'Personalleiterin',
    'Buchhalterin',
  ],
  fr: [
    'Directeur Général',
    'PDG',
    'Responsable des achats',
    'Acheteur',
    'Directeur commercial',
    'Responsable export',
    'Chargée de marketing',
    'Directrice financière',
    'Responsable logistique',
    'Ingénieur commercial',
    'Gérant',
    'Responsable RH',
  ],
  es: [
    'Director General',
    'Gerente General',
    'Jefe de Compras',
    'Comprador',
    'Gerente de Ventas',
    'Ejecutivo de Ventas',
    'Director de Marketing',
    'Director Financiero',
    'Jefe de Logística',
    'Fundador',
    'Responsable de Recursos Humanos',
    'Ingeniero de Producto',
  ],
  pt: [
    'Diretor Geral',
    'Gerente de Compras',
    'Comprador',
    'Diretor Comercial',
    'Vendedor',
    'Gerente de Exportação',
    'Analista de Marketing',
    'Diretora Financeira',
    'Coordenador de Logística',
    'Fundador e CEO',
    'Sócio-Gerente',
    'Engenheiro de Produção',
  ],
  it: [
    'Amministratore Delegato',
    'Titolare',
    'Responsabile Acquisti',
    'Buyer',
    'Direttore Commerciale',
    'Responsabile Vendite Estero',
    'Responsabile Marketing',
    'Direttore Amministrativo',
    'Responsabile Logistica',
    'Impiegata Ufficio Acquisti',
    'Direttore Generale',
    'Ingegnere di Processo',
  ],
  nl: [
    'Algemeen Directeur',
    'Eigenaar',
    'Inkoopmanager',
    'Inkoper',
    'Commercieel Directeur',
    'Verkoopmanager',
    'Accountmanager Binnendienst',
    'Marketingmanager',
    'Financieel Directeur',
    'Hoofd Logistiek',
    'Medewerker Verkoop',
    'Oprichter',
  ],
  tr: [
    'Genel Müdür',
    'Yönetim Kurulu Başkanı',
    'Satın Alma Müdürü',
    'Satın Alma Uzmanı',
    'Satış Müdürü',
    'İhracat Müdürü',
    'Satış Temsilcisi',
    'Pazarlama Müdürü',
    'Mali İşler Müdürü',
    'Lojistik Sorumlusu',
    'Kurucu',
    'İnsan Kaynakları Müdürü',
  ],
  vi: [
    'Giám đốc',
    'Tổng Giám đốc',
    'Phó Giám đốc',
    'Trưởng phòng Kinh doanh',
    'Nhân viên Kinh doanh',
    'Trưởng phòng Mua hàng',
    'Nhân viên Mua hàng',
    'Giám đốc Marketing',
    'Kế toán trưởng',
    'Trưởng phòng Nhân sự',
    'Nhân viên Xuất nhập khẩu',
    'Kỹ sư',
  ],
  zh: [
    '总经理',
    '董事长',
    '副总经理',
    '采购经理',
    '采购专员',
    '销售经理',
    '销售代表',
    '外贸业务员',
    '市场总监',
    '财务总监',
    '物流主管',
    '人事经理',
  ],
};
const LANGUAGE_OF = {
  DE: 'de',
  AT: 'de',
  CH: 'de',
  FR: 'fr',
  BE: 'fr',
  ES: 'es',
  MX: 'es',
  AR: 'es',
  CL: 'es',
  BR: 'pt',
  PT: 'pt',
  IT: 'it',
  NL: 'nl',
  TR: 'tr',
  VN: 'vi',
  CN: 'zh',
};
/** The titles a company's contacts get: local ones and English ones, one list (one draw a contact). */
function titlesFor(country) {
  const local = LOCAL_TITLES[LANGUAGE_OF[country]];
  return local ? [...local, ...local.slice(0, 10), ...TITLES] : TITLES;
}

// Names that would run as formulas or render as HTML if written carelessly.
const FORMULA_COMPANY_NAMES = [
  '=HYPERLINK("https://evil.example","Click me")',
  '+Plus Trading',
  '-Minus Components',
  '@Home Furnishings',
  '=1+1 Industries',
];
const HTML_COMPANY_NAMES = [
  '<b>Bold</b> Imports',
  'Acme <script>alert(1)</script> Supplies',
  'Smith & Sons <i>Trading</i>',
];
const FORMULA_CONTACTS = [
  ['=HYPERLINK("https://evil.example","Jane")', 'Sales Manager'],
  ['Anna Formula', '=1+2 Director'],
  ['+Bob Plus', '-VP Operations'],
  ['@Carla Handle', '=IMPORTXML("https://evil.example","//a")'],
  ['<b>Dan</b> Brown', 'Head of <i>Sales</i>'],
];
const MANY_CONTACT_COUNTS = [260, 285, 320];

/** Opaque, stable company id derived from the domain (never equal to the search row id). */
function companyHashIdFor(domain) {
  return crypto
    .createHash('sha256')
    .update(`sandbox-company:${String(domain).toLowerCase()}`)
    .digest('hex')
    .slice(0, 24);
}

const slug = (text) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

function makeContacts(rnd, company, count, country) {
  const titles = titlesFor(country);
  const contacts = [];
  const used = new Set();
  for (let i = 0; i < count; i++) {
    const first = rnd.pick(FIRST_NAMES);
    const last = rnd.pick(LAST_NAMES);
    const base = `${slug(first)}.${slug(last)}`;
    let local = base;
    for (let n = 2; used.has(local); n++) local = `${base}${n}`;
    used.add(local);
    contacts.push({
      name: `${first} ${last}`,
      title: rnd.pick(titles),
      email: `${local}@${company.domain}`,
      linkedin: `https://www.linkedin.com/in/${slug(first)}-${slug(last)}-${(rnd.int(0, 0xffffff) >>> 0).toString(16)}`,
    });
  }
  return contacts;
}

function makeTradeData(rnd, industries) {
  const rows = [];
  const count = rnd.int(1, 6);
  for (let i = 0; i < count; i++) {
    const hs = INDUSTRIES[rnd.pick(industries)].hs;
    const day = new Date(Date.UTC(2024, 0, 1) + rnd.int(0, 700) * 86400000).toISOString().slice(0, 10);
    rows.push({
      hsCode: hs + String(rnd.int(10, 99)),
      value: Math.round(rnd.int(1000, 900000) * 100 + rnd.int(0, 99)) / 100,
      date: day,
      direction: rnd.chance(0.55) ? 'import' : 'export',
    });
  }
  return rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

function buildDataset(seed) {
  const rnd = randomTools(seed);
  const countryCodes = Object.keys(COUNTRIES);
  const industryNames = Object.keys(INDUSTRIES);
  const domains = new Set();
  const companies = [];

  // Which indexes carry the special fixtures: chosen by the seed, all distinct.
  const indexes = [];
  while (indexes.length < 16) {
    const i = rnd.int(0, COMPANY_COUNT - 1);
    if (!indexes.includes(i)) indexes.push(i);
  }
  const formulaAt = new Map(FORMULA_COMPANY_NAMES.map((n, k) => [indexes[k], n]));
  const htmlAt = new Map(HTML_COMPANY_NAMES.map((n, k) => [indexes[5 + k], n]));
  const manyAt = new Map(MANY_CONTACT_COUNTS.map((n, k) => [indexes[8 + k], n]));
  const formulaContactsAt = new Set(indexes.slice(11, 14));
  const nameIsDomainAt = indexes[14];
  const noContactsAt = indexes[15]; // guaranteed empty (more are empty by chance)

  for (let index = 0; index < COMPANY_COUNT; index++) {
    const country = rnd.chance(0.4) ? rnd.pick(BIG_COUNTRIES) : rnd.pick(countryCodes);
    const [countryName, tld, suffix] = COUNTRIES[country];
    const industries = rnd.pickSome(industryNames, 1, 2);
    const types = rnd.pickSome(COMPANY_TYPES, 1, 3);
    const productPool = industries.flatMap((n) => INDUSTRIES[n].products);
    const products = rnd.pickSome(productPool, 2, 5);
    const baseName = `${rnd.pick(PREFIXES)} ${rnd.pick(INDUSTRIES[industries[0]].words)}`;
    let domain = `${slug(baseName)}${tld}`;
    for (let n = 2; domains.has(domain); n++) domain = `${slug(baseName)}-${n}${tld}`;
    domains.add(domain);

    let name = `${baseName} ${suffix}`;
    if (formulaAt.has(index)) name = `${formulaAt.get(index)} ${suffix}`;
    if (htmlAt.has(index)) name = `${htmlAt.get(index)} ${suffix}`;
    if (index === nameIsDomainAt) name = domain;

    const [range, typicalEmployees] = pickEmployeeRange(rnd);
    const year = pickFoundingYear(rnd);
    const company = { index, domain };
    let contactCount = rnd.chance(0.08) ? 0 : rnd.chance(0.15) ? rnd.int(13, 40) : rnd.int(1, 12);
    if (manyAt.has(index)) contactCount = manyAt.get(index);
    if (index === noContactsAt) contactCount = 0;
    const contacts = makeContacts(rnd, company, contactCount, country);
    if (formulaContactsAt.has(index) && contacts.length) {
      FORMULA_CONTACTS.forEach(([cname, title], k) => {
        if (k < contacts.length) Object.assign(contacts[k], { name: cname, title });
      });
    }

    const description = `${name} is a ${types[0].toLowerCase()} of ${products.join(', ')} based in ${countryName}, founded in ${year}.`;
    const companyHashId = companyHashIdFor(domain);
    const profile = {
      companyHashId,
      name,
      country: countryName,
      industry: industries.join(', '),
      website: `https://www.${domain}`,
    };
    // Not every profile has every field (the spec does not say which are always present).
    if (rnd.chance(0.92)) profile.employeeCount = Math.round(typicalEmployees * (0.8 + rnd.next() * 0.4));
    if (rnd.chance(0.95)) profile.description = description;
    const tradeRoll = rnd.next();
    if (tradeRoll < 0.85) profile.tradeData = makeTradeData(rnd, industries);
    else if (tradeRoll < 0.9) profile.tradeData = [];

    Object.assign(company, {
      id: String(5000000 + index * 17 + rnd.int(0, 16)),
      companyHashId,
      company_name: name,
      company_type: types,
      industry: industries,
      main_products: products,
      country_code: country,
      founding_time: String(year),
      employees_count: range,
      email_count: contacts.length,
      whatsapp_count: contacts.length ? rnd.int(0, Math.min(contacts.length, 25)) : 0,
      company_profile: description,
      profile,
      contacts,
    });
    companies.push(company);
  }

  const ref = (c) => ({
    domain: c.domain,
    countryCode: c.country_code,
    name: c.company_name,
    id: c.id,
    contacts: c.contacts.length,
  });
  const fixtures = {
    manyContacts: [...manyAt.keys()].map((i) => ref(companies[i])),
    noContacts: companies.filter((c) => c.contacts.length === 0).map(ref),
    formulaNames: [...formulaAt.keys()].map((i) => ref(companies[i])),
    htmlNames: [...htmlAt.keys()].map((i) => ref(companies[i])),
    formulaContacts: [...formulaContactsAt]
      .filter((i) => companies[i].contacts.length)
      .map((i) => ref(companies[i])),
    nameEqualsDomain: ref(companies[nameIsDomainAt]),
    incompleteProfiles: companies
      .filter(
        (c) =>
          !('employeeCount' in c.profile) || !('description' in c.profile) || !('tradeData' in c.profile),
      )
      .map(ref),
  };

  return {
    seed,
    companies,
    byDomain: new Map(companies.map((c) => [c.domain, c])),
    byHashId: new Map(companies.map((c) => [c.companyHashId, c])),
    fixtures,
  };
}

const cache = new Map();
/** The data set for `seed` (cached; treat it as read-only). */
function generateDataset(seed = 42) {
  if (!cache.has(seed)) cache.set(seed, buildDataset(seed));
  return cache.get(seed);
}

/**
 * The data set with a bounce among the contacts, as real contact data has (the playground's, so that a
 * tour shows a failure and a colleague to write to instead): in every third company with two contacts or
 * more, the first contact's address starts with "bounce." (rules.js mailOutcome: it fails as a hard bounce).
 * A new object: the cached data set is left as it is.
 */
function withBounces(dataset) {
  const companies = dataset.companies.map((c) => {
    if (c.contacts.length < 2 || c.index % 3 !== 2) return c;
    const [first, ...rest] = c.contacts;
    return { ...c, contacts: [{ ...first, email: `bounce.${first.email}` }, ...rest] };
  });
  return {
    ...dataset,
    companies,
    byDomain: new Map(companies.map((c) => [c.domain, c])),
    byHashId: new Map(companies.map((c) => [c.companyHashId, c])),
  };
}

/** The search row (spec 2.2) of a company. */
function searchRow(c) {
  return {
    id: c.id,
    company_name: c.company_name,
    company_type: c.company_type.slice(),
    industry: c.industry.slice(),
    main_products: c.main_products.slice(),
    country_code: c.country_code,
    founding_time: c.founding_time,
    employees_count: c.employees_count,
    email_count: c.email_count,
    whatsapp_count: c.whatsapp_count,
    company_profile: c.company_profile,
    domain: c.domain,
  };
}

module.exports = {
  EMPLOYEE_RANGES,
  LOCAL_TITLES,
  generateDataset,
  withBounces,
  searchRow,
  companyHashIdFor,
  COMPANY_COUNT,
  COUNTRIES,
  INDUSTRIES,
  COMPANY_TYPES,
};
