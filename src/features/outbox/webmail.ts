// Domains shared by people of many companies: public webmail, internet providers' mailboxes, the reserved
// example domains (RFC 2606: every documentation and demo address) and universities. An address there says
// nothing about the company behind it, so two such addresses are never taken for colleagues (next contact
// after a bounce, a company's reply stopping its follow-ups).
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

/** Internet providers that give their subscribers mailboxes (a household, not a company). */
const PROVIDERS = new Set([
  'alice.it',
  'arcor.de',
  'att.net',
  'bellsouth.net',
  'bigpond.com',
  'bigpond.net.au',
  'bluewin.ch',
  'btinternet.com',
  'charter.net',
  'comcast.net',
  'cox.net',
  'earthlink.net',
  'freenet.de',
  'juno.com',
  'kpnmail.nl',
  'netzero.net',
  'ntlworld.com',
  'optonline.net',
  'optusnet.com.au',
  'rogers.com',
  'sbcglobal.net',
  'shaw.ca',
  'sky.com',
  'skynet.be',
  'sympatico.ca',
  'talktalk.net',
  'telenet.be',
  'telus.net',
  'tin.it',
  'tiscali.co.uk',
  'tiscali.it',
  'verizon.net',
  'virgilio.it',
  'virginmedia.com',
  'windstream.net',
  'xs4all.nl',
  'ziggo.nl',
]);
/** example.com, example.net, example.org and their subdomains (RFC 2606). */
const RESERVED = /(^|\.)example\.(com|net|org)$/;
/** Universities and schools: .edu, .edu.xx, .ac.xx (ac.uk, ac.jp…). */
const ACADEMIC = /(^|\.)(edu|edu\.[a-z]{2}|ac\.[a-z]{2})$/;

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

/** Whether people of many companies share the domain: webmail, a provider, a reserved example domain, a university. */
export function isSharedDomain(domain: string): boolean {
  return isWebmail(domain) || PROVIDERS.has(domain) || RESERVED.test(domain) || ACADEMIC.test(domain);
}

/** The address's domain when it names one company (not a shared domain), else ''. */
export function companyDomain(email: string): string {
  const domain = domainOf(email);
  return domain && !isSharedDomain(domain) ? domain : '';
}
