// The Program page's form fields of a currency's limits, named alike by the page and by its action.

/** The form fields of a currency's minimum fee and maximum covered amount. */
export const limitFields = (currency: string) => ({
  minFee: `minFee-${currency}`,
  maxCovered: `maxCovered-${currency}`,
});
