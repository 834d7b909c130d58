// Country calling codes (ITU-T E.164 assignments) with the fewest digits their national numbers have, so
// that digits written without `+` or `00` can be told apart from a national number that lacks its country
// code: "(555) 123-4567" read as +55 (Brazil) leaves 8 digits, and Brazilian numbers have at least 10. A
// national number read as if it began with a country code leaves too few digits; longer numbers are left
// to the service (numbering plans grow). A code missing here (international networks, unassigned codes)
// is not taken for a country code in digits without `+`. Written as "code:fewest" to keep the bundle
// small; calling codes are prefix-free.
const TABLE =
  '1:10 7:10 20:8 211:9 212:9 213:8 216:8 218:8 220:7 221:9 222:8 223:8 224:8 225:8 226:8 227:8 228:8 229:8 ' +
  '230:7 231:7 232:8 233:9 234:7 235:8 236:8 237:8 238:7 239:7 240:9 241:7 242:9 243:7 244:9 245:7 246:7 ' +
  '247:4 248:7 249:9 250:9 251:9 252:6 253:8 254:7 255:9 256:9 257:8 258:8 260:9 261:9 262:9 263:5 264:8 ' +
  '265:7 266:8 267:7 268:8 269:7 27:9 290:4 291:7 297:7 298:6 299:6 30:10 31:9 32:8 33:9 34:9 350:8 351:9 ' +
  '352:4 353:7 354:7 355:8 356:8 357:8 358:5 359:7 36:8 370:8 371:8 372:7 373:8 374:8 375:9 376:6 377:8 ' +
  '378:6 379:6 380:9 381:8 382:8 383:8 385:8 386:8 387:8 389:8 39:6 40:9 41:9 420:9 421:9 423:7 43:4 44:9 ' +
  '45:8 46:7 47:5 48:9 49:5 500:5 501:7 502:8 503:8 504:8 505:8 506:8 507:7 508:6 509:8 51:8 52:10 53:6 ' +
  '54:10 55:10 56:9 57:8 58:10 590:9 591:8 592:7 593:8 594:9 595:6 596:9 597:6 598:8 599:7 60:8 61:9 62:7 ' +
  '63:8 64:8 65:8 66:8 670:7 672:5 673:7 674:7 675:7 676:5 677:5 678:5 679:7 680:7 681:6 682:5 683:4 685:5 ' +
  '686:5 687:6 688:5 689:8 690:4 691:7 692:7 81:9 82:8 84:9 850:8 852:8 853:8 855:8 856:8 86:10 880:8 886:8 ' +
  '90:10 91:10 92:9 93:9 94:9 95:7 960:7 961:7 962:8 963:8 964:8 965:8 966:9 967:7 968:8 970:8 971:8 972:8 ' +
  '973:8 974:8 975:7 976:8 977:8 98:10 992:9 993:8 994:9 995:9 996:9 998:9';

let fewest: Map<string, number> | null = null;

function table(): Map<string, number> {
  if (!fewest) {
    fewest = new Map();
    for (const entry of TABLE.split(' ')) {
      const [code, digits] = entry.split(':');
      fewest.set(code, Number(digits));
    }
  }
  return fewest;
}

/** True when the digits (no `+`) can be a country calling code followed by one of that country's numbers. */
export function startsWithCountryCode(digits: string): boolean {
  for (let size = 1; size <= 3; size++) {
    const least = table().get(digits.slice(0, size));
    if (least !== undefined) return digits.length - size >= least;
  }
  return false;
}
