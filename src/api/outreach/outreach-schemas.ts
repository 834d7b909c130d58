// zod/mini schemas of the outreach service (docs/services.md) for prospecting: balance, search, unlock,
// profiles and contacts (e-mail sending and tracking are in email-schemas.ts), for every request the add-on
// sends and every answer it reads. Answers: identifiers, counts, states and the fields a workflow needs are strict;
// descriptive text the spec does not promise (the profile: "which fields are always present: not shown";
// nullable timestamps of tasks and mails) is tolerated when absent or null. Unknown fields are stripped, so
// nothing the spec does not list (a website in a search row, say) reaches a feature.
// Requests: every limit of the spec is checked before sending, with a message that says what to fix.
import * as z from 'zod/mini';
import { type InputOf, lazySchema, type OutputOf } from '../transport';
import { int, LIMITS, listOrEmpty, optionalText, optText, page, pageSize, text } from './schema-parts';

// ---------------------------------------------------------------------------------------------------------
// Answers

/** 2.1 GET /api/v1/credit/balance */
export const BalanceSchema = lazySchema(() =>
  z.object({
    userId: z.string(),
    monthlyPoints: int(),
    monthlyEdm: int(),
    monthlyExpiresAt: optText(),
    addonPoints: int(),
    addonEdm: int(),
  }),
);
export type Balance = OutputOf<typeof BalanceSchema>;

/** What a send may spend: the monthly bucket, then the add-on one (the service's deduction order). */
export function usableEdm(balance: Pick<Balance, 'monthlyEdm' | 'addonEdm'>): number {
  return balance.monthlyEdm + balance.addonEdm;
}

/**
 * 2.2 A search row. `id` is NOT a companyHashId. `domain` is the unlock key only: never show it, nor any
 * website or link derived from it.
 */
const SearchRowSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    company_name: z.string(),
    company_type: listOrEmpty(z.string()),
    industry: listOrEmpty(z.string()),
    main_products: listOrEmpty(z.string()),
    country_code: z.string(),
    founding_time: optText(),
    employees_count: optText(),
    email_count: z.nullish(int()),
    whatsapp_count: z.nullish(int()),
    company_profile: optText(),
    domain: z.string(),
  }),
);
export type SearchRow = OutputOf<typeof SearchRowSchema>;

/** 4.2 search answer. Row ids are unique and not empty: the company index maps a row id to its domain. */
export const SearchResponseSchema = lazySchema(() =>
  z.object({
    total: int(),
    list: z.array(SearchRowSchema()).check(
      z.refine(
        (list: { id: string }[]) =>
          list.every((row) => row.id !== '') && new Set(list.map((row) => row.id)).size === list.length,
        {
          message: 'a row id is empty or repeated',
        },
      ),
    ),
  }),
);
export type SearchResponse = OutputOf<typeof SearchResponseSchema>;

/** 2.3 unlock answer: the only valid source of a companyHashId. */
export const UnlockResultSchema = lazySchema(() =>
  z.object({
    companyHashId: z.string().check(z.minLength(1)),
    companyName: optText(),
    charged: z.boolean(),
    alreadyViewed: z.boolean(),
  }),
);
export type UnlockResult = OutputOf<typeof UnlockResultSchema>;

const TradeDataSchema = lazySchema(() =>
  z.object({
    hsCode: optText(),
    value: z.nullish(z.number()),
    date: optText(),
    /** `import` occurs; other values are not listed by the spec. */
    direction: optText(),
  }),
);

/** 2.4 company profile: every field but companyHashId may be absent; tradeData reads as [] when absent. */
export const CompanyProfileSchema = lazySchema(() =>
  z.object({
    companyHashId: z.string(),
    name: optText(),
    country: optText(),
    industry: optText(),
    employeeCount: z.nullish(z.number()),
    website: optText(),
    description: optText(),
    tradeData: listOrEmpty(TradeDataSchema()),
  }),
);
export type CompanyProfile = OutputOf<typeof CompanyProfileSchema>;

/** 2.5 contact e-mail entry */
const ContactEmailSchema = lazySchema(() =>
  z.object({
    name: optText(),
    title: optText(),
    email: z.string(),
    linkedin: optText(),
  }),
);
export type ContactEmail = OutputOf<typeof ContactEmailSchema>;

/** 4.5 profileEmails answer */
export const ProfileEmailsPageSchema = lazySchema(() =>
  z.object({
    emails: z.array(ContactEmailSchema()),
    total: int(),
    page: int(),
  }),
);
export type ProfileEmailsPage = OutputOf<typeof ProfileEmailsPageSchema>;

// ---------------------------------------------------------------------------------------------------------
// Requests

/** ISO 3166-1 alpha-2 codes (officially assigned). */
export const ISO_COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY ' +
    'BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK ' +
    'FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR ' +
    'IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ' +
    'ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
    'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF ' +
    'TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF YE YT ZA ZM ZW'
  ).split(' '),
);

const countryCode = (what: string) =>
  text(what).check(
    z.overwrite((value: string) => value.trim().toUpperCase()),
    z.refine((value: string) => ISO_COUNTRY_CODES.has(value), {
      message: `${what}: use a two-letter ISO country code such as US or DE`,
    }),
  );

const keywords = (what: string) =>
  z.pipe(
    z.array(text(what).check(z.overwrite((value: string) => value.trim())), {
      error: `${what} must be a list of words`,
    }),
    z.transform((list: string[]) => list.filter((word) => word !== '')),
  );

const SEARCH_FIELDS =
  'productKeywords, industryKeywords, companyTypeKeywords, includeCountry, excludeCountry, withEmails, crossFieldOperator, from, size';

/** 4.2 search request. Only the fields of the spec: anything else (employees, website, limit...) is refused. */
export const SearchRequestSchema = lazySchema(() =>
  z
    .strictObject(
      {
        companyTypeKeywords: z.optional(keywords('Company-type keywords')),
        productKeywords: z.optional(keywords('Product keywords')),
        industryKeywords: z.optional(keywords('Industry keywords')),
        includeCountry: z.optional(
          z.array(countryCode('Country'), { error: 'includeCountry must be a list' }),
        ),
        excludeCountry: z.optional(
          z.array(countryCode('Country'), { error: 'excludeCountry must be a list' }),
        ),
        withEmails: z.optional(z.literal([0, 1], { error: 'withEmails must be 0 or 1' })),
        crossFieldOperator: z.optional(
          z.string().check(
            z.overwrite((value: string) => value.trim().toUpperCase()),
            z.regex(/^(AND|OR)$/, 'crossFieldOperator must be AND or OR'),
          ),
        ),
        from: z.optional(
          z.int({ error: 'from must be a whole number' }).check(z.minimum(0, 'from must be 0 or more')),
        ),
        size: z.optional(
          z
            .int({ error: 'size must be a whole number' })
            .check(
              z.minimum(1, 'size must be 1 to 50'),
              z.maximum(LIMITS.searchSizeMax, 'size must be 1 to 50'),
            ),
        ),
      },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys'
            ? `search accepts only ${SEARCH_FIELDS}`
            : 'The search request must be an object of keywords and filters',
      },
    )
    .check(
      z.refine(
        (request: {
          companyTypeKeywords?: string[];
          productKeywords?: string[];
          industryKeywords?: string[];
        }) =>
          [request.companyTypeKeywords, request.productKeywords, request.industryKeywords].some(
            (list) => Array.isArray(list) && list.length > 0,
          ),
        {
          message: 'Enter at least one product, industry or company-type keyword',
          path: ['productKeywords'],
        },
      ),
    ),
);
export type SearchRequest = InputOf<typeof SearchRequestSchema>;

/** 4.3 unlock request */
export const UnlockRequestSchema = lazySchema(() =>
  z.object({
    domain: text('domain').check(
      z.overwrite((value: string) => value.trim()),
      z.minLength(1, 'domain is required (take it from a search row)'),
    ),
    countryCode: countryCode('countryCode'),
  }),
);

/** 4.5 profileEmails query */
export const ProfileEmailsQuerySchema = lazySchema(() =>
  z.strictObject({
    keyword: optionalText('keyword'),
    page: page(),
    pageSize: pageSize('pageSize'),
  }),
);
