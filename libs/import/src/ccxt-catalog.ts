import { CCXT_VENUES, COMMON } from './ccxt-venues';
import type { VenueCatalog } from './symbol-map';

/**
 * The pinned ccxt's answers, from the table copied out of it (ccxt-venues.ts): a code renamed as
 * the class's safeCurrencyCode renames it before any market is loaded (commonCurrencies, on the
 * uppercase code), and the class's `certified` flag. An id that is not in the table keeps its codes
 * and is not certified.
 */
export const ccxtCatalog: VenueCatalog = {
  currency(venue, code) {
    const upper = code.toUpperCase();
    const v = CCXT_VENUES[venue];
    if (v === undefined) return code;
    return v.renames[upper] ?? COMMON[upper] ?? upper;
  },
  certified: (venue) => CCXT_VENUES[venue]?.certified === true,
};
