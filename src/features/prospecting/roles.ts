// Decision roles from job titles: a Department and a Seniority for every contact, in the languages B2B trade
// data comes in (English, German, French, Spanish, Portuguese, Italian, Dutch, Turkish, Vietnamese, Chinese)
// with the usual abbreviations. Titles are compared without accents and case ("Müdürü" → "muduru", "Giám
// đốc" → "giam doc"); short abbreviations only as whole words (CTO is not the "cto" in "director"). The
// list of what is recognised is in docs/user-guide.md.

export const DEPARTMENTS = [
  'Management',
  'Sales',
  'Purchasing',
  'Marketing',
  'Engineering',
  'Operations',
  'Finance',
  'HR',
  'Other',
] as const;
export const SENIORITIES = ['Owner / C-level', 'Director', 'Manager', 'Staff'] as const;

export type Department = (typeof DEPARTMENTS)[number];
export type Seniority = (typeof SENIORITIES)[number];

export interface Role {
  department: Department;
  seniority: Seniority;
}

/** Whole words (letters and digits around do not count as a boundary). */
const words = (alternatives: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{N}])`, 'u');
/** Anywhere in the title: German and Dutch compounds, Chinese. */
const part = (alternatives: string) => new RegExp(alternatives, 'u');

/** The head of the whole company: Management whatever else the title names. */
const TOP = [
  words(
    'ceo|chief executive(?: officer)?|co-?founder|founder|(?<!product )owner|(?<!vice[ -])president|chairman|' +
      'chairwoman|managing director|managing partner|general manager|general director|md|gm|proprietor|' +
      'board member|member of the board|' +
      '(?<!(?:business|channel|trade|strategic|hr|people|finance|learning|sales|account) )partner' +
      '(?! (?:manager|management|account|marketing|success|sales|relations|program|development|enablement))',
  ),
  part('geschaftsfuhr|inhaber|grunder|vorstand'),
  words(
    'pdg|president directeur general|directeur general|directrice generale|gerante?|fondat(?:eur|rice)|dg',
  ),
  words(
    'director general|directora general|gerente general|fundadora?|(?<!vice[ -])presidente|propietari[oa]|duen[oa]',
  ),
  words('consejero delegado|diretora? geral|diretor-presidente|socio-gerente|socio|socia|proprietari[oa]'),
  words('amministratore delegato|titolare|fondat(?:ore|rice)|direttore generale|direttrice generale'),
  words('algemeen directeur|eigenaar|oprichter|directeur-eigenaar|dga'),
  words('genel mudur|yonetim kurulu baskani|yonetim kurulu uyesi|kurucu|sahibi|chu tich|tong giam doc'),
  /^(?:pho )?giam doc$/u,
  part('总经理|董事长|总裁|创始人|老板|执行董事'),
];

/** Runs a country's branch: Management, at Director level (not the head of the whole company). */
const COUNTRY_HEAD = [words('country (?:manager|director|head|lead)|head of country|landesleiter(?:in)?')];

/** Departments by function, in this order (the first that matches wins). */
const FUNCTIONS: Array<[Department, RegExp[]]> = [
  [
    'Finance',
    [
      words('cfo|chief financial officer|accountant|accounting|controller|treasurer|bookkeeper|tesorer[oa]'),
      part('financ|finanz|finans|buchhalt|rechnungswesen|controlling|comptab|contab|amministrativ|boekhoud'),
      part('muhasebe|mali isler|ke toan|tai chinh|财务|会计|出纳'),
    ],
  ],
  [
    'HR',
    [
      words('hr|chro|human resources?|people|talent|recruiter|recruiting|rh|rrhh'),
      part('ressources humaines|recursos humanos|risorse umane|personeelszaken|personalleit|personalabteil'),
      part(
        'personalreferent|personalchef|leiter personal|insan kaynaklari|nhan su|人事|人力资源|招聘|recrut',
      ),
    ],
  ],
  [
    'Purchasing',
    [
      words('buyer|buying|cpo|chief procurement officer|category manag(?:er|ement)|supply manager'),
      part(
        'purchas|procure|sourcing|import(?![\\s/&-]*(?:and\\s+)?export)|einkauf|beschaffung|achat|acheteu',
      ),
      part('approvisionnement|compra|aprovisionamiento|adquisicion|acquist|approvvigion|inkoop|inkoper'),
      part('satin ?alma|mua hang|thu mua|采购|进口'),
    ],
  ],
  [
    'Marketing',
    [
      words('cmo|pr|brand|seo|lead gen(?:eration)?|demand gen(?:eration)?'),
      part(
        'marketing|mercadeo|mercadotecnia|pazarlama|communicat|comunicac|comunicazion|市场|营销|品牌|推广',
      ),
    ],
  ],
  [
    'Sales',
    [
      words('cso|chief sales officer|cro|chief revenue officer|revenue|sales?|bd|account executive'),
      words('account manager|key account|kam|satis'),
      part('sales|export|business development|commercial|comercial|commercie|vertrieb|verkauf|verkoop'),
      part('aussendienst|innendienst|ventas|vendas|vended|vendite|vendeu|vendit|accountmanager|ihracat'),
      part('kinh doanh|ban hang|销售|业务|外贸|出口'),
    ],
  ],
  [
    'Engineering',
    [
      words('cto|engineer|engineering|developer|programmer|it|r&d|technical|technology|devops|architect'),
      part('ingenieu|ingenier|engenheir|ingegner|techni|tecnic|technik|entwickl|desarroll|desenvolv'),
      part('sviluppat|ontwikkel|muhendis|ar-ge|ky su|ky thuat|工程师|技术|研发|开发'),
    ],
  ],
  [
    'Operations',
    [
      words('coo|operations?|supply chain|production|plant|warehouse|quality|qa|qc|shipping|import.?export'),
      part('operation|operacion|operacoes|operazion|operasyon|logisti|lojistik|produktion|produccion'),
      part('producao|produzione|productie|uretim|lager|magazzin|almacen|armazem|magazijn|betrieb'),
      part('exploitation|van hanh|san xuat|xuat nhap khau|kho van|物流|运营|生产|仓库|供应链'),
    ],
  ],
];

const CHIEF = [words('cfo|coo|cto|cmo|cio|cso|cco|chro|cpo|cro|cdo|chief'), part('首席')];
const JUNIOR = [
  words(
    'assistant|assistent(?:in)?|assistente|asistente|assistante|stagiaire|intern|trainee|praktikant(?:in)?',
  ),
  words('werkstudent(?:in)?|tro ly|thuc tap sinh|thuc tap'),
  part('助理|实习'),
];
const DEPUTY = [words('deputy|vice|stellvertretende?r?|adjoint|adjointe|adjunt[oa]|pho'), part('副')];
const TEAM_LEAD = [part('teamleit|gruppenleit|abteilungsleit|teamleid|team lead')];
const DIRECTOR = [
  words('directors?|directora|dir\\.?|vp|svp|evp|vice president|head|directeur|directrice|direktor(?:in)?'),
  words('direttore|direttrice|diretora?|hoofd|prokurist(?:in)?|giam doc'),
  part('leiter|leitung|总监|副总'),
];
const MANAGER = [
  words(
    'managers?|mgr\\.?|supervisor|lead(?! gen)|gerente|jef[ea]|responsable|responsabile|gestora?|encargad[oa]',
  ),
  words('chef|sorumlu(?:su)?|truong phong|truong nhom|ke toan truong'),
  part('manager|mudur|经理|主管|主任|部长|组长'),
];

const any = (patterns: RegExp[], text: string) => patterns.some((pattern) => pattern.test(text));

/** Lower case, accents and marks removed, separators as single spaces. */
export function normalizeTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ı/g, 'i')
    .replace(/đ/g, 'd')
    .replace(/ß/g, 'ss')
    .replace(/[_,;:|()]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function seniorityOf(text: string): Seniority {
  if (any(JUNIOR, text)) return 'Staff';
  const deputy = any(DEPUTY, text);
  if (any(TOP, text) || any(CHIEF, text)) return deputy ? 'Director' : 'Owner / C-level';
  if (any(COUNTRY_HEAD, text)) return 'Director';
  if (any(TEAM_LEAD, text)) return 'Manager';
  if (any(DIRECTOR, text)) return 'Director';
  if (any(MANAGER, text)) return 'Manager';
  return 'Staff';
}

/** Import and export together is the shipping desk, not buying or selling. */
const IMPORT_EXPORT = /import\W*(?:and\W+)?export|xuat nhap khau|进出口/u;
/** Sales and marketing in one title ("Sales & Marketing Director") is a sales role: it carries the number. */
const SALES_AND_MARKETING =
  /(?<![\p{L}])sales\W+(?:and\W+)?marketing|marketing\W+(?:and\W+)?sales(?![\p{L}])/u;

function departmentOf(text: string, seniority: Seniority): Department {
  if (any(TOP, text) || any(COUNTRY_HEAD, text)) return 'Management';
  if (IMPORT_EXPORT.test(text)) return 'Operations';
  if (SALES_AND_MARKETING.test(text)) return 'Sales';
  for (const [department, patterns] of FUNCTIONS) if (any(patterns, text)) return department;
  return seniority === 'Owner / C-level' || seniority === 'Director' ? 'Management' : 'Other';
}

/** The Department and Seniority of a job title; Other / Staff when nothing is recognised. */
export function roleOf(title: unknown): Role {
  const text = normalizeTitle(title === null || title === undefined ? '' : String(title));
  if (!text) return { department: 'Other', seniority: 'Staff' };
  const seniority = seniorityOf(text);
  return { department: departmentOf(text, seniority), seniority };
}
