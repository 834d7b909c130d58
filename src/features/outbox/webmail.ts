// Public webmail domains: an address there says nothing about the company behind it, so two such addresses
// are never taken for colleagues (next contact after a bounce, a company's reply stopping its follow-ups).
const WEBMAIL = new Set([
  '126.com',
  '139.com',
  '163.com',
  'aliyun.com',
  'aol.com',
  'bk.ru',
  'daum.net',
  'foxmail.com',
  'gmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'googlemail.com',
  'hanmail.net',
  'hotmail.com',
  'icloud.com',
  'inbox.ru',
  'list.ru',
  'live.com',
  'mac.com',
  'mail.com',
  'mail.ru',
  'me.com',
  'msn.com',
  'naver.com',
  'o2.pl',
  'outlook.com',
  'pm.me',
  'proton.me',
  'protonmail.com',
  'qq.com',
  'rediffmail.com',
  'rocketmail.com',
  'seznam.cz',
  'sina.cn',
  'sina.com',
  'sohu.com',
  't-online.de',
  'tutanota.com',
  'web.de',
  'wp.pl',
  'yandex.com',
  'yandex.ru',
  'yeah.net',
  'zoho.com',
]);
/** Families with a domain per country: yahoo.com, yahoo.co.uk, hotmail.fr, outlook.de, live.co.uk… */
const WEBMAIL_FAMILY =
  /^(yahoo|ymail|hotmail|outlook|live|aol|gmx|libero|orange|free|laposte|wanadoo)\.[a-z.]+$/;

/** The address's domain in lower case ('' when it has none). */
export function domainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/** Whether a domain is a public webmail service's (yahoo.* and the like included). */
export function isWebmail(domain: string): boolean {
  return WEBMAIL.has(domain) || WEBMAIL_FAMILY.test(domain);
}

/** The address's domain when it names a company (not webmail), else ''. */
export function companyDomain(email: string): string {
  const domain = domainOf(email);
  return domain && !isWebmail(domain) ? domain : '';
}
